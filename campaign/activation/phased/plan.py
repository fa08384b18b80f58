"""A turn of the phased scheme as data: its phases, each with a kind and the sides that act.

The ruleset's host returns a `TurnPlan` from its turn-start hook every turn, so a turn may
keep, drop or reorder phases (a template that holds for one turn only).
"""

from __future__ import annotations

import attrs

# How the sides act in a phase.
ONE_SIDE = "one_side"  # one side gives commands, one at a time, until it ends the phase
EACH_SIDE = "each_side"  # every listed side in turn, as ONE_SIDE, first listed first
ALTERNATE = "alternate"  # the sides alternate picks, first listed first; a full round of passes ends it
ENGINE = "engine"  # nobody picks: the host's engine hook rolls and asks by itself
PHASE_KINDS = (ONE_SIDE, EACH_SIDE, ALTERNATE, ENGINE)

# How passing works in an ALTERNATE phase.
IN_A_ROW = "in_a_row"  # a full round of passes in a row ends the phase; a side may pick again after passing
FINAL = "final"  # a pass takes the side out of the phase; it ends when every side is out
PASSING = (IN_A_ROW, FINAL)


@attrs.frozen
class Phase:
    """One phase of a turn. `id` is the host's own name for it (its hooks read it); `name`
    is shown; `sides` who act, in order (exactly one for ONE_SIDE, none for ENGINE).
    An ALTERNATE phase also says how passing works (`passing`) and the most picks a side
    makes in it (`picks`, 0: no limit; a side that has made them is out of the phase)."""

    id: str
    name: str
    kind: str
    sides: tuple[str, ...] = ()
    passing: str = IN_A_ROW
    picks: int = 0

    def __attrs_post_init__(self) -> None:
        if self.kind not in PHASE_KINDS:
            raise ValueError(f"phase {self.id!r}: kind must be one of {', '.join(PHASE_KINDS)}, not {self.kind!r}")
        if self.kind == ONE_SIDE and len(self.sides) != 1:
            raise ValueError(f"phase {self.id!r}: one side acts in a {ONE_SIDE} phase, not {len(self.sides)}")
        if self.kind in (EACH_SIDE, ALTERNATE) and not self.sides:
            raise ValueError(f"phase {self.id!r}: a {self.kind} phase needs the sides that act")
        if self.kind == ENGINE and self.sides:
            raise ValueError(f"phase {self.id!r}: nobody picks in an {ENGINE} phase")
        if len(set(self.sides)) != len(self.sides):
            raise ValueError(f"phase {self.id!r}: a side is listed twice")
        if self.passing not in PASSING:
            raise ValueError(f"phase {self.id!r}: passing must be one of {', '.join(PASSING)}, not {self.passing!r}")
        if self.picks < 0 or (self.kind != ALTERNATE and (self.picks or self.passing != IN_A_ROW)):
            raise ValueError(f"phase {self.id!r}: picks and passing belong to an {ALTERNATE} phase (picks 0 or more)")


@attrs.frozen
class TurnPlan:
    """This turn's phases in order, and who moves first ("" when nobody does); `note`
    says what shaped the turn (a template's name, say) for the screen."""

    phases: tuple[Phase, ...]
    first: str = ""
    note: str = ""
