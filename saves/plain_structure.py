"""Valid documents structured without cattrs: the fast path of saves/convert.py.

cattrs, through the strict converter of saves/convert.py, is the reference for what a file
may hold and for every error message; but importing it and the functions it generates per
class cost a start-up (`muster --demo` reads two forces and four scenarios) about 10 ms.
So a document is first structured here by a small interpreter of the same strict rules,
for the few kinds of type the files use: text, whole and decimal numbers, true/false,
Literal choices, unions of those, `X | None`, `tuple[X, ...]`, `dict[str, X]`, Fractions
(campaign and battle files) and attrs classes. Whatever it does not accept or does not know (a wrong
value, a missing or unknown key, a class that refuses its values, any other type) raises
`NotPlain`, and the caller asks cattrs, which gives the answer or the error. A result from
here is therefore always the one cattrs gives (tests/saves/test_plain_structure.py checks
that over every file the project ships and over broken variants of them).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Literal, get_args, get_origin

import attrs

Hook = Callable[[Any], Any]
_PRIMITIVES = (bool, int, float, str, type(None))


class NotPlain(Exception):
    """This value is not one the fast path can vouch for: cattrs decides."""


def structure(data: Any, cls: type, *, fractions: bool = False) -> Any:
    """`cls` from parsed TOML as the strict converter builds it (`fractions`: with its
    Fraction hook, saves/campaign_codec.py), or NotPlain."""
    hook = _hook(cls, fractions)
    if hook is None:
        raise NotPlain(cls)
    return hook(data)


def _fail() -> Any:
    raise NotPlain


_HOOKS: dict[tuple[Any, bool], Hook | None] = {}


def _hook(tp: Any, fractions: bool) -> Hook | None:
    """The structuring function for `tp`, or None for a type left to cattrs."""
    key = (tp, fractions)
    found = _HOOKS.get(key)
    if found is not None or key in _HOOKS:
        return found
    _HOOKS[key] = None  # meanwhile a class that holds itself is left to cattrs
    try:
        made = _make(tp, fractions)
    except Exception:  # noqa: BLE001 - a type this module cannot read is cattrs' to structure
        made = None
    _HOOKS[key] = made
    return made


def _make(tp: Any, fractions: bool) -> Hook | None:
    if tp is str:
        return lambda v: v if isinstance(v, str) else _fail()
    if tp is bool:
        return lambda v: v if isinstance(v, bool) else _fail()
    if tp is int:
        return lambda v: v if isinstance(v, int) and not isinstance(v, bool) else _fail()
    if tp is float:
        return _float
    if tp is Fraction:
        return _fraction if fractions else None
    if tp is Any:
        return None
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is Literal:
        return _literal(args)
    if origin in (typing.Union, types.UnionType):
        if all(a in _PRIMITIVES for a in args):
            return _union(args)
        if len(args) == 2 and type(None) in args:  # X | None: cattrs structures X (TOML has no None)
            return _optional(args[0] if args[1] is type(None) else args[1], fractions)
        return None
    if origin is tuple:
        if len(args) != 2 or args[1] is not Ellipsis:
            return None
        return _sequence(args[0], fractions)
    if origin is dict:
        return _mapping(args, fractions)
    if isinstance(tp, type) and attrs.has(tp):
        return _attrs_class(tp, fractions)
    return None


def _float(v: Any) -> Any:
    if isinstance(v, float):
        return v
    if isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    return _fail()


def _fraction(v: Any) -> Fraction:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise NotPlain
    try:
        return Fraction(v)
    except (ValueError, ZeroDivisionError):
        raise NotPlain from None


def _literal(allowed: tuple[Any, ...]) -> Hook:
    kind = type(allowed[0])

    def hook(v: Any) -> Any:
        if v not in allowed or type(v) is not kind:
            raise NotPlain
        return v

    return hook


def _union(allowed: tuple[Any, ...]) -> Hook:
    def hook(v: Any) -> Any:
        for option in allowed:
            if option is type(None):
                if v is None:
                    return None
            elif isinstance(v, option):
                if option is int and isinstance(v, bool) and bool not in allowed:
                    continue
                return v
        raise NotPlain

    return hook


def _optional(inner_type: Any, fractions: bool) -> Hook | None:
    inner = _hook(inner_type, fractions)
    if inner is None:
        return None
    return lambda v: None if v is None else inner(v)


def _sequence(item_type: Any, fractions: bool) -> Hook | None:
    if item_type is Any:
        return lambda v: tuple(v) if isinstance(v, list) else _fail()
    item = _hook(item_type, fractions)
    if item is None:
        return None

    def hook(v: Any) -> tuple[Any, ...]:
        if not isinstance(v, list):
            raise NotPlain
        return tuple([item(x) for x in v])

    return hook


def _mapping(args: tuple[Any, ...], fractions: bool) -> Hook | None:
    value_type = args[1] if len(args) == 2 else Any
    if value_type is Any:
        return lambda v: dict(v) if isinstance(v, Mapping) else _fail()
    value = _hook(value_type, fractions)
    if value is None:
        return None

    def hook(v: Any) -> dict[Any, Any]:
        if not isinstance(v, Mapping):
            raise NotPlain
        return {k: value(x) for k, x in v.items()}

    return hook


def _attrs_class(cls: type, fractions: bool) -> Hook | None:
    attrs.resolve_types(cls)  # as cattrs does: the annotations are strings (PEP 563)
    fields = []
    for field in attrs.fields(cls):
        if not field.init:
            continue  # cattrs leaves them out, and refuses them as unknown keys
        if field.type is None or get_origin(field.type) is typing.Annotated:
            return None
        hook = _hook(field.type, fractions)
        if hook is None:
            return None
        required = field.default is attrs.NOTHING
        fields.append((field.name, field.alias, hook, required))
    allowed = frozenset(name for name, _alias, _hook_, _required in fields)

    def structure_class(v: Any) -> Any:
        if not isinstance(v, Mapping) or not allowed.issuperset(v.keys()):
            raise NotPlain
        values = {}
        for name, alias, hook, required in fields:
            if name in v:
                values[alias] = hook(v[name])
            elif required:
                raise NotPlain
        try:
            return cls(**values)
        except Exception:  # noqa: BLE001 - a class refusing its values: cattrs words the error
            raise NotPlain from None

    return structure_class
