"""Profiles: what a ruleset's elements (or models) and weapons carry, as typed field specs.

The force container (campaign.force) has the fields most rule systems share (a die, a
MOVE, weapons, attributes); a ruleset's own numbers live in `Element.stats` /
`Weapon.traits`. A `Profile` names the fields a ruleset uses, with their type, range of
values, default and help, so force files, validation, the force builder's editors, force
views and `muster cost` can be driven without knowing the ruleset.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from campaign.findings import Finding

FieldType = Literal["int", "text", "die", "bool", "choice", "list"]


@attrs.define(frozen=True)
class FieldSpec:
    """One field of a profile.

    `name` is an attribute of the Element (or Weapon), or with `stat=True` a key of
    `Element.stats`. `min`/`max` bound an int; `choices` list a choice's values (or a
    die's, when given). `column` is its width in the force table (0: no column)."""

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

    @property
    def heading(self) -> str:
        return self.label or self.name.replace("_", " ")

    @property
    def column_heading(self) -> str:
        return self.short or self.heading

    def check(self, value: Any) -> str | None:
        """None if `value` fits this field, else what is wrong (for a finding or a form)."""
        if value is None:
            return None
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{self.heading} must be a whole number, not {value!r}"
            if self.min is not None and value < self.min:
                return f"{self.heading} must be at least {self.min}, not {value}"
            if self.max is not None and value > self.max:
                return f"{self.heading} must be at most {self.max}, not {value}"
            return None
        if self.type == "bool":
            return None if isinstance(value, bool) else f"{self.heading} must be true or false, not {value!r}"
        if self.type in ("choice", "die") and self.choices and str(value) not in self.choices:
            return f"{self.heading} must be one of {', '.join(self.choices)}, not {value!r}"
        if self.type == "list":
            ok = isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
            return None if ok else f"{self.heading} must be a list of names, not {value!r}"
        if self.type in ("text", "choice", "die") and not isinstance(value, str):
            return f"{self.heading} must be text, not {value!r}"
        return None

    def parse(self, text: str) -> Any:
        """A value typed in a form; ValueError saying why when it cannot be one."""
        text = text.strip()
        if not text:
            return None
        if self.type == "int":
            try:
                value: Any = int(text)
            except ValueError:
                raise ValueError(f"{self.heading} must be a whole number, not {text!r}") from None
        elif self.type == "bool":
            if text.lower() not in ("true", "false", "yes", "no"):
                raise ValueError(f"{self.heading} is true or false, not {text!r}")
            value = text.lower() in ("true", "yes")
        elif self.type == "list":
            value = tuple(p.strip() for p in text.split(",") if p.strip())
        else:
            value = text
        problem = self.check(value)
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


@attrs.define(frozen=True)
class Profile:
    """The fields of a ruleset's elements (models) and of their weapons."""

    element: tuple[FieldSpec, ...] = ()
    weapon: tuple[FieldSpec, ...] = ()

    def stats(self) -> tuple[FieldSpec, ...]:
        return tuple(f for f in self.element if f.stat)

    def columns(self) -> tuple[FieldSpec, ...]:
        return tuple(f for f in self.element if f.column)


def field_value(obj: Any, spec: FieldSpec) -> Any:
    """The value `spec` names on an Element or Weapon (a stat, or an attribute)."""
    if spec.stat:
        return getattr(obj, "stats", {}).get(spec.name)
    return getattr(obj, spec.name, None)


def check_stats(profile: Profile, force: Any, rule: str = "profile") -> list[Finding]:
    """Findings for the elements' `stats`: keys the profile does not know, values off
    their type or range. Explains, never blocks (campaign.findings)."""
    known = {f.name: f for f in profile.stats()}
    findings: list[Finding] = []
    for u, unit in enumerate(force.units):
        for e, element in enumerate(unit.elements):
            path = f"units[{u}].elements[{e}]"
            for key, value in element.stats.items():
                spec = known.get(key)
                if spec is None:
                    names = ", ".join(known) or "none"
                    findings.append(Finding("warning", rule, f"{element.name}: unknown stat {key!r} (stats: {names})",
                                            f"{path}.stats.{key}"))
                    continue
                problem = spec.check(value)
                if problem:
                    findings.append(Finding("error", rule, f"{element.name}: {problem}", f"{path}.stats.{key}"))
    return findings


# The force container's shared fields, as most rulesets show them: the die and the MOVE.
DIE = FieldSpec("die", "die", "Die", "the element's base die", column=4)
MOVE = FieldSpec("move", "int", "Move", "MOVE in inches", min=0, column=3, short="Mv")
DEFAULT_PROFILE = Profile(element=(DIE, MOVE))
