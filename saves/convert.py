"""The cattrs converter for campaign objects, strict enough for hand-edited files.

cattrs' defaults are forgiving ("4" becomes 4, a string becomes a tuple of its
letters). A hand-edited file deserves the opposite: every value must already have
the right TOML type, unknown keys are refused, and every problem comes back as a key
path plus what was expected. Any file kind (forces, campaigns, battles) can use
`structure(data, cls, file=..., text=...)` and `unstructure(obj)`.

cattrs is imported only when needed: a valid document is structured by
saves/plain_structure.py (the same rules, without cattrs' import and generated code),
and a value at the leaves of `compact` is plain already; cattrs structures what that
fast path does not vouch for, and says what is wrong with it.
"""

from __future__ import annotations

import difflib
import functools
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args, get_origin

import attrs

from saves import plain_structure
from saves.errors import SaveError
from saves.toml_read import format_path, line_of

if TYPE_CHECKING:
    import cattrs

T = TypeVar("T")
_PRIMITIVES = (bool, int, float, str, type(None))


class Invalid(ValueError):
    """A value of the wrong kind. `expected` says what would have been right."""

    def __init__(self, message: str, expected: str = "", *, key: str | int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.expected = expected
        self.key = key  # a key inside the value (a mapping entry), if the problem is there


def describe(tp: Any) -> str:
    """Plain words for a type, for "expected ..." in error messages."""
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number"
    if tp is float:
        return "a number"
    if tp is str:
        return "text in quotes"
    if tp is type(None):
        return "nothing"
    origin = get_origin(tp)
    if origin is Literal:
        return "one of " + ", ".join(str(a) for a in get_args(tp))
    if origin in (typing.Union, types.UnionType):
        parts = [describe(a) for a in get_args(tp) if a is not type(None)]
        return " or ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " or " + parts[-1]
    if attrs.has(tp):
        return "a table"
    from cattrs.cols import is_mapping, is_sequence

    if is_sequence(tp):
        args = get_args(tp)
        inner = describe(args[0]) if args else "values"
        return f"a list of {_plural(inner)}"
    if is_mapping(tp):
        return "a table"
    return getattr(tp, "__name__", str(tp))


def _plural(words: str) -> str:
    for single, many in (
        ("a whole number", "whole numbers"),
        ("text in quotes", "quoted texts"),
        ("a table", "tables"),
        ("true or false", "true/false values"),
    ):
        words = words.replace(single, many)
    return words


def _type_name(value: object) -> str:
    return {
        bool: "true/false",
        int: "a whole number",
        float: "a decimal number",
        str: "text",
        list: "a list",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def _strict(tp: type) -> Any:
    def hook(value: object, _: object) -> object:
        ok = isinstance(value, tp) and not (tp is int and isinstance(value, bool))
        if tp is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if not ok:
            raise Invalid(f"got {_type_name(value)}", describe(tp))
        return value

    return hook


def _literal_factory(tp: Any) -> Any:
    allowed = get_args(tp)

    def hook(value: object, _: object) -> object:
        if value not in allowed or type(value) is not type(allowed[0]):
            raise Invalid(f"{value!r} is not allowed", describe(tp))
        return value

    return hook


def _is_primitive_union(tp: Any) -> bool:
    return get_origin(tp) in (typing.Union, types.UnionType) and all(
        a in _PRIMITIVES for a in get_args(tp)
    )


def _union_factory(tp: Any) -> Any:
    allowed = get_args(tp)

    def hook(value: object, _: object) -> object:
        for option in allowed:
            if option is type(None) and value is None:
                return None
            if option is not type(None) and isinstance(value, option):
                if option is int and isinstance(value, bool) and bool not in allowed:
                    continue
                return value
        raise Invalid(f"got {_type_name(value)}", describe(tp))

    return hook


def _sequence_factory(converter: cattrs.Converter) -> Any:
    from cattrs.cols import homogenous_tuple_structure_factory

    def factory(tp: Any) -> Any:
        inner = homogenous_tuple_structure_factory(tp, converter)

        def hook(value: object, _: object) -> object:
            if not isinstance(value, list):
                raise Invalid(f"got {_type_name(value)}", describe(tp))
            return inner(value, tp)

        return hook

    return factory


def _mapping_factory(converter: cattrs.Converter) -> Any:
    def factory(tp: Any) -> Any:
        args = get_args(tp)
        value_type = args[1] if len(args) == 2 else Any
        value_hook = None if value_type is Any else converter.get_structure_hook(value_type)

        def hook(value: object, _: object) -> object:
            if not isinstance(value, Mapping):
                raise Invalid(f"got {_type_name(value)}", describe(tp))
            out = {}
            for key, item in value.items():
                if value_hook is not None:
                    try:
                        item = value_hook(item, value_type)
                    except Invalid as exc:
                        raise Invalid(exc.message, exc.expected, key=key) from None
                out[key] = item
            return out

        return hook

    return factory


def _attrs_guard(converter: cattrs.Converter) -> Any:
    """Classes must come from tables: `units = "x"` is an error, not an AttributeError."""

    def factory(cls: type) -> Any:
        inner: Callable[[Mapping[str, Any], Any], object] = converter.gen_structure_attrs_fromdict(cls)

        def hook(value: object, _: object) -> object:
            if not isinstance(value, Mapping):
                raise Invalid(f"got {_type_name(value)}", "a table")
            return inner(value, cls)

        return hook

    return factory


def _is_literal(tp: Any) -> bool:
    origin: object = get_origin(tp)  # (typeshed's overloads would call it a ParamSpec)
    return origin is Literal


def make_converter() -> cattrs.Converter:
    """A converter that structures strictly and unstructures tuples as lists."""
    import cattrs
    from cattrs.cols import is_mapping, is_sequence

    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for tp in (bool, int, float, str):
        conv.register_structure_hook(tp, _strict(tp))
    conv.register_structure_hook_factory(_is_literal, _literal_factory)
    conv.register_structure_hook_factory(_is_primitive_union, _union_factory)
    conv.register_structure_hook_factory(is_sequence, _sequence_factory(conv))
    conv.register_structure_hook_factory(is_mapping, _mapping_factory(conv))
    conv.register_structure_hook_factory(attrs.has, _attrs_guard(conv))
    return conv


@functools.cache
def converter() -> cattrs.Converter:
    """This module's converter, made (and cattrs imported) on first use."""
    return make_converter()


def __getattr__(name: str) -> Any:
    if name == "CONVERTER":  # the converter by its old name, still made on first use
        return converter()
    raise AttributeError(name)


# --- errors ------------------------------------------------------------------------


def _leaves(exc: BaseException, path: tuple) -> list[tuple[tuple, BaseException]]:
    """Flatten cattrs' exception groups into (key path, leaf exception) pairs."""
    from cattrs.errors import AttributeValidationNote, IterableValidationNote

    if isinstance(exc, BaseExceptionGroup):
        out = []
        for sub in exc.exceptions:
            step: tuple = ()
            for note in getattr(sub, "__notes__", ()):
                if isinstance(note, AttributeValidationNote):
                    step = (note.name,)
                elif isinstance(note, IterableValidationNote):
                    step = (note.index,)
            out.extend(_leaves(sub, path + step))
        return out
    return [(path, exc)]


def _as_save_error(
    path: tuple, exc: BaseException, file: str | Path, text: str | None
) -> SaveError:
    from cattrs.errors import ForbiddenExtraKeysError

    def error(message: str, at: tuple, expected: str = "", hint: str = "") -> SaveError:
        line = line_of(text, at) if text is not None else None
        return SaveError(
            file, message, line=line, key=format_path(at), expected=expected, hint=hint
        )

    if isinstance(exc, ForbiddenExtraKeysError):
        allowed = sorted(f.name for f in attrs.fields(exc.cl))
        extra = sorted(exc.extra_fields)
        close = difflib.get_close_matches(extra[0], allowed, n=1)
        return error(
            f"unknown key {extra[0]!r}" + (f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""),
            (*path, extra[0]),
            "one of " + ", ".join(allowed),
            f"did you mean {close[0]!r}?" if close else "",
        )
    if isinstance(exc, Invalid):
        at = path if exc.key is None else (*path, exc.key)
        return error(exc.message, at, exc.expected)
    if isinstance(exc, KeyError):
        return error(f"missing key {exc.args[0]!r}" if exc.args else "missing key", path)
    return error(str(exc) or type(exc).__name__, path)


def structure_errors(
    exc: BaseException, file: str | Path, text: str | None = None
) -> list[SaveError]:
    """Every problem cattrs found, each as a SaveError with a key path (and line).

    Unknown keys come first: a misspelt key also shows up as a missing one, and the
    unknown key is the one whose message can suggest the right spelling.
    """
    from cattrs.errors import ForbiddenExtraKeysError

    leaves = sorted(_leaves(exc, ()), key=lambda pl: not isinstance(pl[1], ForbiddenExtraKeysError))
    return [_as_save_error(path, leaf, file, text) for path, leaf in leaves]


def structure(data: Any, cls: type[T], *, file: str | Path, text: str | None = None) -> T:
    """Build `cls` from parsed TOML, or raise the first problem as a SaveError."""
    try:
        return plain_structure.structure(data, cls)  # type: ignore[no-any-return]
    except plain_structure.NotPlain:
        pass  # cattrs builds it, or says what is wrong
    import cattrs
    from cattrs.errors import ForbiddenExtraKeysError

    try:
        return converter().structure(data, cls)
    except (cattrs.BaseValidationError, Invalid, ForbiddenExtraKeysError) as exc:
        raise structure_errors(exc, file, text)[0] from None


def unstructure(obj: Any) -> Any:
    """Plain dicts and lists (every field), ready for JSON or a TOML writer."""
    return converter().unstructure(obj)


def _default(field: attrs.Attribute) -> Any:
    default: Any = field.default
    # attrs' stubs declare Factory as a function (it is a class at run time)
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        return default.factory(None) if default.takes_self else default.factory()
    return default


_PLAIN_LEAVES = frozenset({str, int, float, bool})  # cattrs unstructures them as they are


def plain_leaf(obj: Any) -> Any:
    """A leaf of `compact` as this module's converter unstructures it (a plain value is
    its own: cattrs is asked only about other kinds)."""
    return obj if type(obj) in _PLAIN_LEAVES else converter().unstructure(obj)


_FACTORY = object()  # a field whose default is made by a factory: made again for each check
# How `compact` writes a class: (field name, its default or _FACTORY, the field, always
# written), in writing order; by class and what `order` and `keep` say of it.
_PLANS: dict[tuple[type, tuple[str, ...], frozenset[str]], tuple[tuple[str, Any, attrs.Attribute, bool], ...]] = {}


def _plan(
    cls: type, order: Mapping[type, tuple[str, ...]], keep: Mapping[type, frozenset[str]]
) -> tuple[tuple[str, Any, attrs.Attribute, bool], ...]:
    key = (cls, order.get(cls, ()), keep.get(cls, frozenset()))
    plan = _PLANS.get(key)
    if plan is None:
        fields = {f.name: f for f in attrs.fields(cls)}
        names = key[1] or tuple(fields)
        names = (*names, *(n for n in fields if n not in names))
        plan = tuple(
            (name, _FACTORY if isinstance(fields[name].default, attrs.Factory) else fields[name].default,  # type: ignore[arg-type]
             fields[name], name in key[2])
            for name in names
        )  # fmt: skip
        _PLANS[key] = plan
    return plan


def compact(
    obj: Any,
    *,
    order: Mapping[type, tuple[str, ...]] | None = None,
    keep: Mapping[type, frozenset[str]] | None = None,
    leaf: Callable[[Any], Any] = plain_leaf,
) -> Any:
    """Like `unstructure`, but fields at their default are left out (files stay small)
    and keys come in the order given per class (`order`), so output is canonical.
    Fields named in `keep` are always written; None is never written (TOML has no null).
    Leaves are unstructured by `leaf` (default: this module's converter).
    """
    order = order or {}
    keep = keep or {}
    plans: dict[type, Any] = {}  # each class's plan (None: not an attrs class), for this call

    def walk(obj: Any) -> Any:
        cls = type(obj)
        try:
            plan = plans[cls]
        except KeyError:
            plan = plans[cls] = _plan(cls, order, keep) if attrs.has(cls) else None
        if plan is not None:
            out = {}
            for name, default, field, always in plan:
                value = getattr(obj, name)
                if value is None:
                    continue
                if not always and value == (_default(field) if default is _FACTORY else default):
                    continue
                out[name] = walk(value)
            return out
        if cls is list or cls is tuple or isinstance(obj, (list, tuple)):
            return [walk(v) for v in obj]
        if cls is dict or isinstance(obj, Mapping):
            return {k: walk(v) for k, v in obj.items()}
        return leaf(obj)

    return walk(obj)
