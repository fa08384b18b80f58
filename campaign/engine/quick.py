"""Quicker `__init__`s for the engine's small frozen records, made in their thousands a battle.

attrs gives a frozen class an `__init__` that sets each field through `object.__setattr__`,
which looks the field's slot up by name on every call. `quick_init` swaps in an `__init__`
of the same signature and defaults that sets each slot through its own descriptor, found
once: the same object, made in about half the time. It takes only plain frozen slotted
attrs classes (fields without validators, converters or aliases, all in `__init__`), and
refuses any other at import, so a field added later cannot slip by unchecked.

`kept` (with the base class `Kept`) is their `functools.cached_property`, without the
`__getattr__` attrs would add to the class for one (see `kept`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import attrs

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Class decorator (outside attrs'): give the frozen slotted attrs class `cls` a quicker
    `__init__` that builds the same objects (its `__attrs_post_init__` runs last, as attrs')."""
    params = getattr(cls, "__attrs_attrs__", None)
    if params is None or "__slots__" not in cls.__dict__ or cls.__setattr__ is object.__setattr__:
        raise TypeError(f"{cls.__name__}: quick_init takes a frozen slotted attrs class")
    if hasattr(cls, "__attrs_pre_init__"):
        raise TypeError(f"{cls.__name__}: quick_init does not run __attrs_pre_init__")
    names: dict[str, Any] = {"NOTHING": attrs.NOTHING}
    args, body = [], []
    for field in attrs.fields(cls):  # type: ignore[arg-type]
        name = field.name
        if field.validator or field.converter or not field.init or field.kw_only or field.alias != name:
            raise TypeError(f"{cls.__name__}.{name}: quick_init takes plain fields only")
        names[f"_set_{name}"] = cls.__dict__[name].__set__
        default = field.default
        if default is attrs.NOTHING:
            args.append(name)
            body.append(f"    _set_{name}(self, {name})")
        elif isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            if default.takes_self:
                raise TypeError(f"{cls.__name__}.{name}: quick_init takes no factory of self")
            names[f"_make_{name}"] = default.factory
            args.append(f"{name}=NOTHING")
            body.append(f"    _set_{name}(self, _make_{name}() if {name} is NOTHING else {name})")
        else:
            names[f"_default_{name}"] = default
            args.append(f"{name}=_default_{name}")
            body.append(f"    _set_{name}(self, {name})")
    if hasattr(cls, "__attrs_post_init__"):
        body.append("    self.__attrs_post_init__()")
    source = f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(compile(source, f"<quick_init {cls.__qualname__}>", "exec"), names)  # noqa: S102 (our own source)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(getattr(cls.__init__, "__annotations__", {}))
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


if TYPE_CHECKING:
    from functools import cached_property

    kept = cached_property  # (mypy types it as the functools one)
else:

    class kept:
        """`functools.cached_property` for the engine's slotted records (which must then carry
        an instance `__dict__`, by a plain base class such as `Kept`): the value is worked out
        on first use and stored in the instance's `__dict__`, where later reads find it.

        attrs turns a `functools.cached_property` of a slotted class into a slot plus a
        class-level `__getattr__`, and a class with `__getattr__` takes CPython's slow
        attribute path for every attribute, fields included (never specialised): about 4% of
        a Flat Out War replay went there. This descriptor is not one attrs rewrites; it takes
        no lock either (the records are made and read by one thread at a time)."""

        def __init__(self, func: Any) -> None:
            self.func = func
            self.attrname = func.__name__
            self.__doc__ = func.__doc__

        def __set_name__(self, owner: type, name: str) -> None:
            self.attrname = name

        def __get__(self, instance: Any, owner: type | None = None) -> Any:
            if instance is None:
                return self
            value = instance.__dict__[self.attrname] = self.func(instance)
            return value


class Kept:
    """Base class giving a slotted attrs record an instance `__dict__` for its `kept` values
    (attrs' fields stay in slots; equality, hash and repr read the fields only)."""
