"""`frozen`: attrs' frozen classes, with `__eq__`, `__ne__`, `__hash__` and `__repr__` made
when first used rather than when the class is made.

attrs writes the source of each class's methods and compiles it as the class is created:
about 5 M instructions for a ten-field class, two thirds of it compiling, and half of that
for the comparison, hash and repr methods. Most of the records the first screen imports are
built but never compared, hashed or printed there (issue 17: start-up), so `frozen` makes
the class with attrs' `__init__` only and puts stand-ins for the other four in its place:
the first call of any of them has attrs make all four, for a subclass with no fields of its
own that shares the class's name, and moves them onto the class, where they stay. They are
attrs' own methods, made from the same fields: the same equality, hash (attrs seeds it
from the class's module and qualified name, which the subclass shares) and repr.

Only a class with attrs' defaults is deferred. `frozen(order=True)`, any other option, or a
class that writes one of these methods itself goes straight to `attrs.frozen`. One visible
difference: `attrs.inspect(cls)` tells how the class was made (without eq or repr).

mypy sees `attrs.frozen` itself (below), so its attrs plugin checks the classes as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

DEFERRED = ("__eq__", "__ne__", "__hash__", "__repr__")
# Methods attrs would leave alone if the class wrote them; such a class is made by attrs at once.
_OWN = frozenset((*DEFERRED, "__lt__", "__le__", "__gt__", "__ge__", "__str__"))

if TYPE_CHECKING:
    from attrs import frozen as frozen
else:

    def frozen(maybe_cls: type | None = None, /, **options: Any) -> Any:
        """`attrs.frozen`, with the comparison, hash and repr methods made on first use."""

        def wrap(cls: type) -> type:
            if options or not _OWN.isdisjoint(cls.__dict__):
                return attrs.frozen(cls, **options)
            made = attrs.frozen(cls, eq=False, repr=False)
            _defer(made)
            return made

        return wrap if maybe_cls is None else wrap(maybe_cls)


def _defer(cls: type) -> None:
    """Stand-ins for `DEFERRED` on `cls`: the first call of any makes attrs' four for good."""

    owner: Any = cls  # its methods, once made, are called unbound

    def build() -> None:
        if cls.__dict__.get("__eq__") is not __eq__:
            return  # made already (by another call, or another thread)
        twin = type(cls.__name__, (cls,), {"__module__": cls.__module__, "__qualname__": cls.__qualname__})
        # No fields of its own: attrs makes the four from `cls`'s fields, as it would have for `cls`.
        twin = attrs.frozen(twin, slots=False, init=False, match_args=False)
        for name in DEFERRED:
            setattr(cls, name, twin.__dict__[name])

    def __eq__(self: Any, other: object) -> Any:
        build()
        return owner.__eq__(self, other)

    def __ne__(self: Any, other: object) -> Any:
        build()
        return owner.__ne__(self, other)

    def __hash__(self: Any) -> Any:
        build()
        return owner.__hash__(self)

    def __repr__(self: Any) -> Any:
        build()
        return owner.__repr__(self)

    for stand_in in (__eq__, __ne__, __hash__, __repr__):
        stand_in.__qualname__ = f"{cls.__qualname__}.{stand_in.__name__}"
        setattr(cls, stand_in.__name__, stand_in)

