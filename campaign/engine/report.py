"""An odds report: what a declared action may bring about, as named outcomes.

Rulesets say what their outcomes are (casualties; a margin and what it buys; hits, saves
and models removed); a screen or `muster odds` shows any report without knowing the
ruleset. An outcome is either a distribution over whole numbers (how many) or one
probability (whether).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs


def _dist(value: Mapping[int, Fraction] | None) -> dict[int, Fraction]:
    return {int(k): Fraction(v) for k, v in sorted((value or {}).items()) if v}


@attrs.define(frozen=True)
class Outcome:
    """One named outcome: `dist` (count -> probability) or `p` (a yes/no chance)."""

    name: str
    dist: dict[int, Fraction] = attrs.field(factory=dict, converter=_dist)
    p: Fraction | None = None
    help: str = ""

    @property
    def mean(self) -> Fraction:
        return sum((k * p for k, p in self.dist.items()), Fraction(0))

    def at_least(self, k: int) -> Fraction:
        return sum((p for v, p in self.dist.items() if v >= k), Fraction(0))

    def to_json(self, exact: bool = False) -> dict[str, Any]:
        num = _num(exact)
        out: dict[str, Any] = {"name": self.name}
        if self.p is not None:
            out["p"] = num(self.p)
        else:
            out["expected"] = num(self.mean)
            out["dist"] = {str(k): num(p) for k, p in self.dist.items()}
        if self.help:
            out["help"] = self.help
        return out


@attrs.define(frozen=True)
class OddsReport:
    """The exact odds of one action. `lines` say how they were reached (dice, chances per
    die); `outcomes` are what may happen, the first the headline; `notes` the modifiers;
    `table` a row per roll; `detail` the ruleset's own data for JSON."""

    outcomes: tuple[Outcome, ...]
    lines: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    title: str = ""
    # a row per die or roll, the first row the headings (shown by `muster odds`); a cell is
    # text or a Fraction (a probability, printed as a decimal or exactly on request)
    table: tuple[tuple[Any, ...], ...] = ()
    # the ruleset's own detail for scripts: anything with as_dict(exact) -> dict
    detail: Any = None

    def outcome(self, name: str) -> Outcome:
        for outcome in self.outcomes:
            if outcome.name == name:
                return outcome
        raise KeyError(name)

    def to_json(self, exact: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "title": self.title,
            "outcomes": [o.to_json(exact) for o in self.outcomes],
            "lines": list(self.lines),
            "notes": list(self.notes),
        }
        if self.detail is not None:
            out.update(self.detail.as_dict(exact=exact))
        return out

    def text_lines(self) -> list[tuple[str, str]]:
        """(line, style) pairs for a plain rendering: lines, then each outcome, then notes."""
        out = [(line, "") for line in self.lines]
        for i, o in enumerate(self.outcomes):
            style = "bold" if i == 0 else ""
            if o.p is not None:
                out.append((f"{_first_up(o.name)}: {float(o.p):.1%}", style))
                continue
            out.append((f"Expected {o.name} {float(o.mean):.2f}; at least one {float(o.at_least(1)):.1%}", style))
            out.append((f"{_first_up(o.name)}: " + "  ".join(f"{k}:{float(p):.1%}" for k, p in o.dist.items()), ""))
        return out


def _first_up(name: str) -> str:
    """A name starting a line: its first letter up, the rest as written ("DP inflicted", not "Dp")."""
    return name[:1].upper() + name[1:]


def _num(exact: bool) -> Any:
    if exact:
        return lambda f: f"{Fraction(f).numerator}/{Fraction(f).denominator}"
    return lambda f: round(float(f), 6)
