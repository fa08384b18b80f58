"""Commands: what a player decides, with the table facts the engine cannot know.

A command is a frozen attrs class with a class-level `type` (its name in the log). It
turns into a plain dict of TOML-able values and back: `{"type": "attack", "unit": ...,
"facts": {...}}`. Fields left at their default are not written, so None never reaches
TOML and logs stay short. Each battle knows its own command types (the core's generic
ones, its scheme's and its ruleset's), so two rulesets may both have an "attack".
"""

from __future__ import annotations

import sys
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import attrs
import cattrs

from campaign.engine.errors import IllegalCommand
from campaign.engine.shapes import shape_problem

_converter = cattrs.Converter(forbid_extra_keys=True)


def _is_scalar_union(tp: Any) -> bool:
    args = typing.get_args(tp)
    return typing.get_origin(tp) in (types.UnionType, typing.Union) and all(
        a in (str, int, bool, type(None)) for a in args
    )


def _structure_scalar(value: Any, tp: Any) -> Any:
    # Facts are str | int | bool: keep the value if it is one of them, never coerce.
    if any(type(value) is a for a in typing.get_args(tp)):
        return value
    names = " | ".join(getattr(a, "__name__", str(a)) for a in typing.get_args(tp))
    raise TypeError(f"{value!r} is not {names}")


_converter.register_structure_hook_func(_is_scalar_union, _structure_scalar)

Facts = dict[str, Any]  # str | int | bool values: "range_band" = "long", "moved" = 6


@attrs.define(frozen=True)
class Command:
    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name, default in _DEFAULTS.get(type(self)) or _defaults_of(type(self)):
            value = getattr(self, name)
            if value == default or value is None:
                continue
            if type(value) is str:  # (most fields: what _unstructured answers, without the call)
                out[name] = value
                continue
            plain = _unstructured(value)  # (plain values, most of them, without cattrs' dispatch)
            out[name] = _converter.unstructure(value) if plain is _NOT_PLAIN else plain
        return out

    def describe(self) -> str:
        """A plain one-line reading of the command for reports and prompts."""
        parts = [f"{k}={v}" for k, v in self.to_dict().items() if k != "type"]
        return " ".join([self.type, *parts])

    def plain(self, names: Mapping[str, str] | None = None) -> str:
        """The command as players read it: its type in words, then its fields with ids
        given by their names (`names`: side, unit or element id -> name), never a Python
        list or dict: "report (units: Tactical Squad)". Table facts are left out."""
        names = names or {}
        parts = []
        for key, value in self.to_dict().items():
            if key in ("type", "facts"):
                continue
            items = value if isinstance(value, (list, tuple)) else [value]
            words = [names.get(v, v) if isinstance(v, str) else _plain_value(v) for v in items]
            parts.append(f"{key.replace('_', ' ')}: {', '.join(map(str, words))}")
        return self.type.replace("_", " ") + (f" ({'; '.join(parts)})" if parts else "")


_DEFAULTS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _defaults_of(cls: type) -> tuple[tuple[str, Any], ...]:
    """Each field of a command class with its default (a factory's value made once, only
    ever compared with): every command is turned into its dict once or twice a step."""
    found = _DEFAULTS.get(cls)
    if found is None:
        pairs = []
        for field in attrs.fields(cls):
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = default.factory()
            pairs.append((field.name, default))
        found = _DEFAULTS[cls] = tuple(pairs)
    return found


_NAMES: dict[type, dict[str, None]] = {}


def _field_names(cls: type) -> dict[str, None]:
    """A command class's field names, in order (a dict: quick to ask), made once per class."""
    found = _NAMES.get(cls)
    if found is None:
        found = _NAMES[cls] = dict.fromkeys(name for name, _ in _defaults_of(cls))
    return found


def _plain_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k.replace('_', ' ')} {_plain_value(v)}" for k, v in value.items())
    return str(value)


# --- the core's generic commands (no ruleset vocabulary) ----------------------------


@attrs.define(frozen=True)
class Start(Command):
    """The first log entry: holds the dice rolled before the first decision."""

    type: ClassVar[str] = "start"


@attrs.define(frozen=True)
class Pass(Command):
    type: ClassVar[str] = "pass"


@attrs.define(frozen=True)
class Activate(Command):
    type: ClassVar[str] = "activate"
    unit: str = ""


@attrs.define(frozen=True)
class EndActivation(Command):
    type: ClassVar[str] = "end_activation"
    unit: str = ""


@attrs.define(frozen=True)
class Choose(Command):
    """Answer to a Decision between named options (who takes a hit, take the free shot?)."""

    type: ClassVar[str] = "choose"
    option: str = ""


@attrs.define(frozen=True)
class Reroll(Command):
    """An explicit re-roll the rules allow (e.g. a once-per-turn ability); logged with its faces."""

    type: ClassVar[str] = "reroll"
    reason: str = ""


@attrs.define(frozen=True)
class KeepRoll(Command):
    """Decline an offered re-roll and keep the faces."""

    type: ClassVar[str] = "keep"


GENERIC_COMMANDS: tuple[type[Command], ...] = (Start, Pass, Activate, EndActivation, Choose, Reroll, KeepRoll)


class CommandTypes:
    """The command classes one battle understands, by their `type` name."""

    def __init__(self, *groups: Iterable[type[Command]]) -> None:
        self._types: dict[str, type[Command]] = {}
        # commands of text fields alone ("activate" a unit, "pass", "choose" an option) come
        # again and again in a battle: each is built once, with its logged form, and shared
        # (frozen, and text is immutable). Keyed by the dict's items; the id map finds the form.
        self._made: dict[tuple[tuple[str, str], ...], tuple[Command, dict[str, Any]]] = {}
        self._forms: dict[int, tuple[Command, dict[str, Any]]] = {}
        for group in groups:
            for cls in group:
                self.add(cls)

    def add(self, cls: type[Command]) -> None:
        if not cls.type:
            raise ValueError(f"{cls.__name__} has no command type name")
        self._types[cls.type] = cls

    def __contains__(self, name: str) -> bool:
        return name in self._types

    def get(self, name: str) -> type[Command]:
        try:
            return self._types[name]
        except KeyError:
            known = ", ".join(sorted(self._types))
            raise IllegalCommand("commands", f"unknown command {name!r} (known: {known})") from None

    def names(self) -> list[str]:
        return sorted(self._types)

    def from_dict(self, data: Mapping[str, Any]) -> Command:
        """The command a log dict describes; IllegalCommand naming the bad key otherwise."""
        key: tuple[tuple[str, Any], ...] | None = None
        if type(data) is dict:  # (what a log or a spec gives, without the Mapping ABC's slower test)
            if "facts" not in data:  # (facts are a dict: such a command is never one of text alone)
                key = tuple(data.items())
                try:  # (a key of text alone is never equal to one holding another type of value)
                    made = self._made.get(key)
                except TypeError:  # a list or dict value: not a command of text alone
                    key = None
                else:
                    if made is not None:
                        return made[0]
        elif not isinstance(data, Mapping):
            raise IllegalCommand("commands", "a command needs a type (e.g. type = \"pass\")")
        if "type" not in data:
            raise IllegalCommand("commands", "a command needs a type (e.g. type = \"pass\")")
        cls = self._types.get(data["type"]) if type(data["type"]) is str else None
        if cls is None:
            cls = self.get(str(data["type"]))
        fields = dict(data)
        del fields["type"]
        command = build(cls, fields)
        if key is not None and _only_str(map(type, data.values())):  # (its keys are fields' names: build took them)
            if len(self._made) >= 4096:  # (a battle has a few hundred such commands: keep it bounded)
                self._made.clear()
                self._forms.clear()
            self._made[key] = self._forms[id(command)] = (command, command.to_dict())
        return command

    def logged(self, command: Command) -> dict[str, Any]:
        """`command.to_dict()`: the form the log keeps (a copy of it, for a shared command)."""
        made = self._forms.get(id(command))
        if made is not None and made[0] is command:
            return dict(made[1])
        return command.to_dict()


# Annotation strings ("str", "dict[str, Any]"...) compiled once per process: typing.get_type_hints
# compiles each one anew for every class (some 400k instructions a string, 34 strings in a
# process's first battle), while the code of a string is the same whatever module reads it.
_CODE: dict[str, types.CodeType] = {}
_FIELD_TYPES: dict[type, dict[str, Any]] = {}


def field_types(cls: type) -> dict[str, Any]:
    """An attrs class's field name -> its resolved type: what typing.get_type_hints(cls)
    answers for the fields (ClassVars left out), made once per class. Each annotation string
    is evaluated as get_type_hints does (its class's namespace, then its module's, then
    builtins); a result other than a plain class or a generic of plain classes is left to
    get_type_hints itself. NameError or TypeError when an annotation cannot be resolved."""
    found = _FIELD_TYPES.get(cls)
    if found is None:
        found = _FIELD_TYPES[cls] = _resolved_fields(cls)
    return found


def _resolved_fields(cls: type) -> dict[str, Any]:
    names = {f.name for f in attrs.fields(cls)}
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        ann = base.__dict__.get("__annotations__")
        if not isinstance(ann, dict):
            continue
        mine = [(name, value) for name, value in ann.items() if name in names]
        if not mine:
            continue
        module_ns = getattr(sys.modules.get(base.__module__), "__dict__", {})
        class_ns = dict(vars(base))  # (get_type_hints' order: class first as globals, module as locals)
        for name, value in mine:
            if isinstance(value, str):
                code = _CODE.get(value)
                if code is None:
                    code = _CODE[value] = compile(value, "<string>", "eval")
                value = eval(code, class_ns, module_ns)  # noqa: S307 -- our own classes' annotations
            if not _simple_hint(value):  # None, Annotated, nested strings...: as typing says
                every = typing.get_type_hints(cls)
                return {name: hint for name, hint in every.items() if name in names}
            hints[name] = value
    return hints


def _simple_hint(value: Any, arg: bool = False) -> bool:
    """Whether get_type_hints would answer `value` itself (or its equal): a class, Any, or a
    builtin generic or `|` union of such (`...` as an argument: tuple[str, ...])."""
    if value is Any or (arg and value is Ellipsis):
        return True
    if isinstance(value, (types.GenericAlias, types.UnionType)):
        return all(_simple_hint(a, True) for a in typing.get_args(value))
    return isinstance(value, type)


_TYPE_NAMES: dict[tuple[type, str], str] = {}


def _type_name(cls: type[Command], field: str) -> str:
    """The bare name of a field's type ("str", "list", "dict"...), resolved once per class."""
    key = (cls, field)
    if key not in _TYPE_NAMES:
        try:
            hint = field_types(cls).get(field)
        except (NameError, TypeError):  # an annotation that cannot be resolved here: no shape check
            hint = None
        origin = typing.get_origin(hint) or hint
        _TYPE_NAMES[key] = getattr(origin, "__name__", "")
    return _TYPE_NAMES[key]


# The plain field types a command is built from without cattrs when every value already
# has exactly that type (what cattrs would make of it is then the value itself, or a copy
# of the dict or list): most commands of every battle and replay are only these.
_PLAIN_HINTS: dict[Any, str] = {str: "str", int: "int", bool: "bool", dict[str, Any]: "dict", list[str]: "list"}
_PLAIN: dict[type, dict[str, str] | None] = {}


def _plain_fields(cls: type[Command]) -> dict[str, str] | None:
    """Field name -> its plain kind, or None if some field is of another type (cattrs then)."""
    if cls not in _PLAIN:
        try:
            hints: dict[str, Any] | None = field_types(cls)
        except (NameError, TypeError):
            hints = None
        kinds: dict[str, str] | None = {}
        for name in _field_names(cls):
            kind = _PLAIN_HINTS.get(hints.get(name)) if hints is not None else None
            if kind is None:
                kinds = None
                break
            kinds[name] = kind  # type: ignore[index]
        _PLAIN[cls] = kinds
    return _PLAIN[cls]


def _as_plain(kind: str, value: Any) -> Any:
    """`value` as cattrs would structure it for a plain field of `kind`; _NOT_PLAIN if it
    is not exactly of that type (cattrs then decides: it may convert or refuse it)."""
    t = type(value)
    if kind == "str":
        return value if t is str else _NOT_PLAIN
    if kind == "int":
        return value if t is int else _NOT_PLAIN
    if kind == "bool":
        return value if t is bool else _NOT_PLAIN
    if kind == "dict":
        return dict(value) if t is dict and _only_str(map(type, value)) else _NOT_PLAIN
    return list(value) if t is list and _only_str(map(type, value)) else _NOT_PLAIN


_NOT_PLAIN = object()
_SCALARS = (str, int, bool, float, type(None))
# whether an iterable of types holds none but str, or none but scalars' (in C: a type's
# equality is its identity, so these are `type(v) is str` and `type(v) in _SCALARS`)
_only_str = frozenset((str,)).issuperset
_only_scalars = frozenset(_SCALARS).issuperset


def _unstructured(value: Any) -> Any:
    """What cattrs unstructures a value of plain TOML kinds to (a scalar itself; a dict with
    text keys or a list, copied, their items likewise), or _NOT_PLAIN for anything else."""
    t = type(value)
    if t in _SCALARS:
        return value
    if t is dict:
        if _only_scalars(map(type, value.values())) and _only_str(map(type, value)):
            return dict(value)  # (facts, most of them: text keys, scalar values)
        out: dict[str, Any] = {}
        for k, v in value.items():
            item = _unstructured(v)
            if type(k) is not str or item is _NOT_PLAIN:
                return _NOT_PLAIN
            out[k] = item
        return out
    if t is list:
        items = [_unstructured(v) for v in value]
        return _NOT_PLAIN if any(v is _NOT_PLAIN for v in items) else items
    return _NOT_PLAIN


def build(cls: type[Command], fields: Mapping[str, Any]) -> Command:
    plain = _plain_fields(cls)
    if plain is not None:
        # every field known and of exactly its plain type (what a log or a legal spec gives):
        # its shape is then right too, so only the dicts and lists are copied, as cattrs does
        values: dict[str, Any] = {}
        for key, value in fields.items():
            kind = plain.get(key)
            value = _NOT_PLAIN if kind is None else _as_plain(kind, value)
            if value is _NOT_PLAIN:
                break
            values[key] = value
        else:
            try:
                return cls(**values)
            except Exception:  # let the checks below word the error as they always have
                pass
    known = _field_names(cls)
    for key, value in fields.items():
        if key not in known:
            names = ", ".join(known) or "none"
            raise IllegalCommand("commands", f"{cls.type} has no field {key!r} (fields: {names})")
        problem = shape_problem(value, _type_name(cls, key))
        if problem:
            raise IllegalCommand("commands", f"{cls.type}: {key} must be {problem}, not {value!r}")
    try:
        return _converter.structure(dict(fields), cls)
    except Exception as exc:  # cattrs gathers errors in an exception group; flatten it
        detail = "; ".join(_messages(exc))
        raise IllegalCommand("commands", f"bad {cls.type} command: {detail}") from None


def _messages(exc: BaseException) -> list[str]:
    if isinstance(exc, BaseExceptionGroup):
        out: list[str] = []
        for sub in exc.exceptions:
            out.extend(_messages(sub))
        return out
    notes = getattr(exc, "__notes__", [])
    return [f"{exc} ({'; '.join(notes)})" if notes else str(exc)]
