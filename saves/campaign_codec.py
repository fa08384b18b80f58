"""The strict converter (saves/convert.py) taught Fractions, for campaign and battle files.

VPs are exact quarters (Flat Out War ruling A-53): written as a whole number when they
are one, else as a "n/d" string ("45/2"), so no float ever creeps into a ledger.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from saves import convert, plain_structure
from saves.convert import Invalid, make_converter, structure_errors

if TYPE_CHECKING:
    import cattrs

T = TypeVar("T")


def _fraction_in(value: Any, _type: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Invalid(f"got {value!r}", 'a whole number or a fraction in quotes like "45/2"')
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise Invalid(f"{value!r} is not a number", 'a whole number or a fraction in quotes like "45/2"') from None


def _fraction_out(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


@functools.cache
def converter() -> cattrs.Converter:
    """The converter (and cattrs) made on first use: valid files are read without it."""
    made = make_converter()
    made.register_structure_hook(Fraction, _fraction_in)
    made.register_unstructure_hook(Fraction, _fraction_out)
    return made


def __getattr__(name: str) -> Any:
    if name == "CONVERTER":  # the converter by its old name, still made on first use
        return converter()
    raise AttributeError(name)


def structure(data: Any, cls: type[T], *, file: str | Path, text: str | None = None, prefix: tuple = ()) -> T:
    """Build `cls` or raise the first problem as a SaveError (key path under `prefix`)."""
    try:
        return plain_structure.structure(data, cls, fractions=True)  # type: ignore[no-any-return]
    except plain_structure.NotPlain:
        pass  # cattrs builds it, or says what is wrong
    import cattrs
    from cattrs.errors import ForbiddenExtraKeysError

    try:
        return converter().structure(data, cls)
    except (cattrs.BaseValidationError, Invalid, ForbiddenExtraKeysError) as exc:
        errors = structure_errors(exc, file, None)
        first = errors[0]
        if prefix:
            from saves.toml_read import format_path, line_of

            parts = tuple(prefix)
            key = format_path(parts) + ("." + first.key if first.key and not first.key.startswith("[") else first.key)
            first.key = key
            if text is not None:
                first.line = line_of(text, _split(key))
        elif text is not None:
            from saves.toml_read import line_of

            first.line = line_of(text, _split(first.key))
        raise type(first)(
            first.file, first.message, line=first.line, key=first.key, expected=first.expected, hint=first.hint
        ) from None


def _split(key: str) -> list[str | int]:
    import re

    parts: list[str | int] = []
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", key):
        parts.append(int(index) if index else name)
    return parts


def unstructure(obj: Any) -> Any:
    """Plain data with None left out (TOML has no null)."""
    return _drop_none(converter().unstructure(obj))


def _drop_none(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _drop_none(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_drop_none(v) for v in data]
    return data


def compact(
    obj: Any,
    order: dict[type, tuple[str, ...]] | None = None,
    keep: dict[type, frozenset[str]] | None = None,
) -> Any:
    """saves.convert.compact through this converter, so Fractions come out as "n/d"."""
    return convert.compact(obj, order=order, keep=keep, leaf=_leaf)


def _leaf(obj: Any) -> Any:
    if type(obj) is Fraction:
        return _fraction_out(obj)
    return obj if type(obj) in convert._PLAIN_LEAVES else converter().unstructure(obj)
