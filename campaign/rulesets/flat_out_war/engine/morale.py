"""Morale (spec section 15): casualty thresholds, the roll, and the flee/rally states."""

from __future__ import annotations

from math import ceil
from typing import Literal, Sequence

import attrs

from campaign.engine.quick import quick_init
from campaign.rulesets.flat_out_war.editions import SO
from campaign.rulesets.flat_out_war.engine.combatant import Combatant, Edition
from campaign.rulesets.flat_out_war.engine.rolls import Mod, succeeds, total_of

MoraleState = Literal["steady", "broken", "fleeing", "rallied"]


def threshold(k: int, start: int) -> int:
    """A-44: the k-th 25% threshold is ceil(k * N / 4) elements lost."""
    return ceil(k * start / 4)


def thresholds_passed(lost: int, start: int) -> int:
    """How many of the four thresholds `lost` reaches: lost >= ceil(k * start / 4) holds for
    a whole `lost` exactly when 4 * lost >= k * start (asked after every loss: no loop)."""
    if start <= 0:
        return 0
    return max(0, min(4, 4 * lost // start))


def casualty_trigger(lost_before: int, lost_after: int, start: int) -> bool:
    """One roll when an event passes one or more new thresholds."""
    return thresholds_passed(lost_after, start) > thresholds_passed(lost_before, start)


def exempt(element: Combatant) -> bool:
    """Officers (Command) and Unfeeling elements never take morale rolls."""
    return "command" in element.attributes or "unfeeling" in element.attributes


@quick_init
@attrs.frozen
class MoraleRoll:
    die: int
    roller: str  # the element whose die is rolled (Brave, Lucky)
    mods: tuple[Mod, ...]

    @property
    def modifier(self) -> int:
        return total_of(self.mods)

    def passes(self, face: int) -> bool:
        return succeeds(face, self.modifier)


def morale_roll(
    elements: Sequence[Combatant],
    start: int,
    lost: int,
    *,
    edition: Edition,
    officer: Combatant | None = None,
    effects: frozenset[str] = frozenset(),
    rally: bool = False,
) -> MoraleRoll | None:
    """The unit's one roll, or None if no element in it ever rolls (A-48).

    The die is the highest current base die among the surviving elements and an
    attached officer; ties go the owner's way (a Brave element is preferred, A-49)."""
    alive = list(elements)
    if not any(not exempt(e) for e in alive):
        return None
    candidates = alive + ([officer] if officer is not None else [])
    top = max(c.die for c in candidates)
    roller = max((c for c in candidates if c.die == top),
                 key=lambda c: ("brave" in c.attributes, "lucky" in c.attributes))
    mods: list[Mod] = []
    passed = thresholds_passed(lost, start)
    if passed:
        mods.append(Mod(f"{passed} x 25% lost", -passed))
    if rally:
        mods.append(Mod("Frightened", -2))
    if officer is not None and officer.has("command"):
        mods.append(Mod("attached officer", 2))
    if roller.has("brave"):
        mods.append(Mod("Brave", 1))
    if "Ironwill" in effects:
        mods.append(Mod("Ironwill", 2))
    if "Terrify" in effects and not (edition == SO and roller.has("unfeeling")):
        mods.append(Mod("Terrify", -2))
    return MoraleRoll(top, roller.name, tuple(mods))


# --- the state machine of 15.3 ---------------------------------------------------------


def after_morale(state: MoraleState, passed: bool) -> MoraleState:
    """A failed morale roll breaks a steady (or freshly rallied) unit."""
    if passed or state in ("broken", "fleeing"):
        return state
    return "broken"


def on_activation(state: MoraleState) -> MoraleState:
    """Broken units flee when next activated; rallied units reform and are steady."""
    nxt: dict[MoraleState, MoraleState] = {"broken": "fleeing", "rallied": "steady"}
    return nxt.get(state, state)


def after_rally(state: MoraleState, passed: bool) -> MoraleState:
    if state != "fleeing":
        raise ValueError("only a fleeing unit makes a rally roll")
    return "rallied" if passed else "fleeing"


def may_take_other_action(state: MoraleState) -> bool:
    """Fleeing units take no Other Action; a rallied unit spends its activation reforming."""
    return state == "steady"
