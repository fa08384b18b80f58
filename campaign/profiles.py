"""Profiles: what a ruleset's elements (or models) and weapons carry, as typed field specs.

The force container (campaign.force) has the fields most rule systems share (a die, a
MOVE, weapons, attributes); a ruleset's own numbers live in `Element.stats`. A `Profile`
names the fields a ruleset uses, with their type, range of values, default and help, so
validation (`check_profile`), the force builder's element and weapon editors, force views
and `muster cost` are driven without knowing the ruleset.
"""

from __future__ import annotations

from typing import Any, Literal

import re

from campaign.findings import Finding, Severity
from campaign.frozen import frozen

FieldType = Literal["int", "number", "text", "die", "bool", "choice", "list"]
# "1", "1.5", "3/2": a "number" kept as text (compiled on first use, by re's cache: not at start-up)
_NUMBER = r"\s*\d+(\.\d+)?(\s*/\s*[1-9]\d*)?\s*"


@frozen
class FieldSpec:
    """One field of a profile.

    `name` is an attribute of the Element (or Weapon), or with `stat=True` a key of
    `Element.stats`. `min`/`max` bound an int; `choices` list a choice's values (or a
    die's, when given; for text and lists they are only suggestions). `column` is its
    width in the force table (0: no column). `pattern` is a regular expression a text or
    die must match in full (`placeholder` shows its shape); `blank` says what leaving the
    field empty means ("the element's die"); `rule` is the section findings cite."""

    name: str
    type: FieldType = "int"
    label: str = ""
    help: str = ""
    default: Any = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    stat: bool = False
    column: int = 0
    short: str = ""  # the force table's column heading, when shorter than the label
    rule: str = ""
    noun: str = ""  # how messages and forms name it, when not the label ("MOVE" for "Move")
    pattern: str = ""
    placeholder: str = ""
    blank: str = ""

    @property
    def heading(self) -> str:
        return self.label or self.name.replace("_", " ")

    @property
    def column_heading(self) -> str:
        return self.short or self.heading

    @property
    def called(self) -> str:
        return self.noun or self.heading

    @property
    def form_label(self) -> str:
        """How a form labels it, capitalised ("range" -> "Range")."""
        noun = self.called
        return noun[:1].upper() + noun[1:]

    def describe(self) -> str:
        """The help line a form shows for this field: its help and the values it takes."""
        parts = [self.help] if self.help else []
        if self.type == "int" and (self.min is not None or self.max is not None):
            if self.min is not None and self.max is not None:
                parts.append(f"{self.min} to {self.max}")
            else:
                parts.append(f"at least {self.min}" if self.min is not None else f"at most {self.max}")
        elif self.type in ("choice", "die") and self.choices:
            parts.append("one of " + ", ".join(self.choices))
        elif self.placeholder:
            parts.append(f"like {self.placeholder}")
        if self.blank:
            parts.append(f"empty: {self.blank}")
        return "; ".join(parts)

    def check(self, value: Any) -> str | None:
        """None if `value` fits this field, else what is wrong (for a finding or a form)."""
        if value is None:
            return None
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{self.called} must be a whole number, not {value!r}"
            return self.check_int(value)
        if self.type == "number":
            if isinstance(value, int) and not isinstance(value, bool):
                return self.check_int(value)
            if not isinstance(value, str) or not re.fullmatch(_NUMBER, value):
                return f"{self.called} must be a number (like 1, 1.5 or 3/2), not {value!r}"
            return None
        if self.type == "bool":
            return None if isinstance(value, bool) else f"{self.called} must be true or false, not {value!r}"
        if self.type in ("choice", "die") and self.choices and str(value) not in self.choices:
            return f"{self.called} must be one of {', '.join(self.choices)}, not {value!r}"
        if self.type == "list":
            ok = isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
            return None if ok else f"{self.called} must be a list of names, not {value!r}"
        if self.type in ("text", "choice", "die") and not isinstance(value, str):
            return f"{self.called} must be text, not {value!r}"
        if self.pattern and isinstance(value, str) and not re.fullmatch(self.pattern, value.strip()):
            shape = f" like {self.placeholder}" if self.placeholder else ""
            return f"{self.called} must be written{shape}, not {value!r}"
        return None

    def check_int(self, value: int) -> str | None:
        """What is wrong with a whole number for this field's range, or None."""
        if self.min == 0 and value < 0:
            return f"{self.called} cannot be negative ({value})"
        if self.min is not None and value < self.min:
            return f"{self.called} must be at least {self.min}, not {value}"
        if self.max is not None and value > self.max:
            return f"{self.called} must be at most {self.max}, not {value}"
        return None

    def parse(self, text: str, check: bool = True) -> Any:
        """A value typed in a form; ValueError saying why when it cannot be one. With
        `check=False` only its type is checked (a form keeps a number out of range, and
        the finding beside it explains)."""
        text = text.strip()
        if not text:
            return None
        if self.type == "int":
            try:
                value: Any = int(text)
            except ValueError:
                raise ValueError(f"{self.called} must be a whole number, not {text!r}") from None
        elif self.type == "number":
            value = int(text) if text.isdigit() else text
        elif self.type == "bool":
            if text.lower() not in ("true", "false", "yes", "no"):
                raise ValueError(f"{self.called} is true or false, not {text!r}")
            value = text.lower() in ("true", "yes")
        elif self.type == "list":
            value = tuple(p.strip() for p in text.split(",") if p.strip())
        else:
            value = text
        problem = self.check(value) if check else None
        if problem:
            raise ValueError(problem)
        return value

    def show(self, value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, (list, tuple)):
            return ", ".join(map(str, value))
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)


@frozen
class Profile:
    """The fields of a ruleset's elements (models), of their weapons, and of its units.

    The editors show `element` and `weapon` fields in their order (an element's name
    always first). `unit` fields are keys of `Unit.stats`, the unit as a whole; a unit's
    first element may still carry them in its own stats (files written before units had
    stats), and checks accept them there."""

    element: tuple[FieldSpec, ...] = ()
    weapon: tuple[FieldSpec, ...] = ()
    unit: tuple[FieldSpec, ...] = ()

    def stats(self) -> tuple[FieldSpec, ...]:
        return tuple(f for f in self.element if f.stat)

    def columns(self) -> tuple[FieldSpec, ...]:
        return tuple(f for f in self.element if f.column)

    def field(self, name: str, of: Literal["element", "weapon", "unit"] = "element") -> FieldSpec | None:
        return next((f for f in getattr(self, of) if f.name == name), None)


def field_value(obj: Any, spec: FieldSpec) -> Any:
    """The value `spec` names on an Element or Weapon (a stat, or an attribute)."""
    if spec.stat:
        return getattr(obj, "stats", {}).get(spec.name)
    return getattr(obj, spec.name, None)


def spec_path(spec: FieldSpec, path: str) -> str:
    """The key path of `spec`'s value under the record at `path`."""
    return f"{path}.stats.{spec.name}" if spec.stat else f"{path}.{spec.name}"


def check_fields(specs: tuple[FieldSpec, ...], obj: Any, path: str, who: str = "", rule: str = "profile") -> list[Finding]:
    """Error findings for the values of `obj` (an Element or Weapon) off their spec."""
    findings: list[Finding] = []
    for spec in specs:
        problem = spec.check(field_value(obj, spec))
        if problem:
            message = f"{who}: {problem}" if who else problem
            findings.append(Finding("error", spec.rule or rule, message, spec_path(spec, path)))
    return findings


def check_profile(profile: Profile, force: Any, rule: str = "profile", unknown: Severity = "warning") -> list[Finding]:
    """Findings for every element and weapon of `force` against `profile`: values off their
    type or range (errors naming the key path), stats it does not know (`unknown` says
    how severe). Explains, never blocks."""
    findings: list[Finding] = []
    for u, unit in enumerate(force.units):
        findings += check_unit(profile, unit, f"units[{u}]", rule, unknown)
        for e, element in enumerate(unit.elements):
            findings += check_element(profile, element, f"units[{u}].elements[{e}]", e == 0, rule, unknown)
    return findings


def check_unit(profile: Profile, unit: Any, path: str, rule: str = "profile", unknown: Severity = "warning") -> list[Finding]:
    """Findings for a unit's own `stats` against the profile's `unit` fields."""
    known = {f.name: f for f in profile.unit}
    findings: list[Finding] = []
    for key, value in getattr(unit, "stats", {}).items():
        spec = known.get(key)
        if spec is None:
            names = ", ".join(known) or "none"
            findings.append(Finding(unknown, rule, f"unknown unit stat {key!r} (stats: {names})", f"{path}.stats.{key}"))
            continue
        problem = spec.check(value)
        if problem:
            findings.append(Finding("error", spec.rule or rule, problem, f"{path}.stats.{key}"))
    return findings


def check_element(profile: Profile, element: Any, path: str, first: bool = True, rule: str = "profile",
                  unknown: Severity = "warning") -> list[Finding]:
    """`check_profile` for one element at `path` (`first`: the first of its unit, which may
    carry the unit's fields, as files written before units had stats do)."""
    unit_stats = {f.name: f for f in profile.unit} if first else {}
    attributes = tuple(f for f in profile.element if not f.stat)
    # messages say what is wrong; the finding's place already names the unit and element
    findings = check_fields(attributes, element, path, "", rule)
    findings += _check_stats(profile.stats(), unit_stats, element, path, rule, unknown, "")
    for w, weapon in enumerate(element.weapons):
        findings += check_fields(profile.weapon, weapon, f"{path}.weapons[{w}]", "", rule)
    return findings


def _check_stats(specs: tuple[FieldSpec, ...], extra: dict[str, FieldSpec], element: Any, path: str, rule: str,
                 unknown: Severity, who: str | None = None) -> list[Finding]:
    who = element.name + ": " if who is None else who
    known = {f.name: f for f in specs} | extra
    findings: list[Finding] = []
    for key, value in element.stats.items():
        spec = known.get(key)
        if spec is None:
            names = ", ".join(known) or "none"
            findings.append(Finding(unknown, rule, f"{who}unknown stat {key!r} (stats: {names})",
                                    f"{path}.stats.{key}"))
            continue
        problem = spec.check(value)
        if problem:
            findings.append(Finding("error", spec.rule or rule, f"{who}{problem}", f"{path}.stats.{key}"))
    return findings


def check_stats(profile: Profile, force: Any, rule: str = "profile") -> list[Finding]:
    """Findings for the elements' `stats` only: keys the profile does not know, values off
    their type or range. Explains, never blocks (campaign.findings)."""
    findings: list[Finding] = []
    for u, unit in enumerate(force.units):
        for e, element in enumerate(unit.elements):
            findings += _check_stats(profile.stats(), {}, element, f"units[{u}].elements[{e}]", rule, "warning")
    return findings


# The force container's shared fields, as a ruleset without a profile of its own shows
# them: a count, the die, the MOVE and attributes of an element; a weapon's kind, own
# die, range and traits.
COUNT = FieldSpec("count", "int", "Count", "identical elements sharing this entry", min=1)
DIE = FieldSpec("die", "die", "Die", "the element's base die", column=4)
MOVE = FieldSpec("move", "int", "Move", "MOVE in inches", min=0, column=3, short="Mv", noun="MOVE")
ATTRIBUTES = FieldSpec("attributes", "list", "Attributes", "comma separated; Tab completes", placeholder="comma separated")
WEAPON_KIND = FieldSpec("kind", "choice", "Kind", "melee or ranged", default="melee", choices=("melee", "ranged"))
WEAPON_DIE = FieldSpec("die", "die", "Die", "its own die", blank="element's die")
RANGE = FieldSpec("range", "int", "Range", "in inches, for a ranged weapon", default=0, min=0, placeholder="inches (ranged)")
TRAITS = FieldSpec("traits", "list", "Traits", "weapon attributes, comma separated", placeholder="comma separated")
DEFAULT_PROFILE = Profile(element=(DIE, MOVE, ATTRIBUTES), weapon=(WEAPON_KIND, WEAPON_DIE, RANGE, TRAITS))
