"""How Flat Out War's battle state reads on screen (BattleRules.describe_unit).

Its state keeps bookkeeping the generic reading would show raw: an element's die that
shrinks with damage, reload counters, uses left, weapons lost, a unit's morale status,
officers attached, and markers that name another unit (charging X, turned to face X).

A marker that lasts one activation ("ran", "charging X", "rally tried", the morale word
"rallied") stays in the state until the unit's next activation clears it (the recorded
battles depend on that), but it reads as over once the round has moved past the unit.
"""

from __future__ import annotations

from typing import Any

from campaign.engine.display import UnitView, effect_words
from campaign.engine.scheme import activated_this_round
from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.rulesets.flat_out_war.engine.clocks import PER_ACTIVATION, PER_ACTIVATION_MORALE

# Unit bookkeeping that is not a status worth a word on screen.
QUIET_UNIT_DATA = frozenset({"start", "lost", "cost", "officer", "attached_to", "disordered", "morale"})
# "attacked" lists the element ids that attacked this activation (split fire): bookkeeping too.
QUIET_MARKERS = frozenset({"acted", "attacked", "moved"})
# Markers whose value is a unit id, said as a phrase around that unit's name.
UNIT_PHRASES = {"charged": "charging {}", "faced": "turned to face {}"}
# A bare flag left unsaid when the marker named beside it says more ("charging" by "charged").
SAID_BY = {"charging": "charged"}


def marker_words(markers: dict[str, Any], names: dict[str, str] | None = None) -> list[str]:
    """Markers as short words; a value that is a unit id shows as the unit's name (`names`: id -> name)."""
    names = names or {}
    words = []
    for key, value in sorted(markers.items()):
        if not value or key in QUIET_MARKERS or markers.get(SAID_BY.get(key, "")):
            continue
        if isinstance(value, str) and value in names:
            words.append(UNIT_PHRASES.get(key, key.replace("_", " ") + " {}").format(names[value]))
        elif isinstance(value, dict) and "die" in value:
            words.append(f"{key} d{value['die']}")
        elif isinstance(value, bool):
            words.append(key.replace("_", " "))
        elif isinstance(value, (list, tuple, set, frozenset)):  # ids: how many, never a Python repr
            words.append(f"{key.replace('_', ' ')} ({len(value)})")
        else:
            words.append(f"{key.replace('_', ' ')} {value}")
    return words


def counter_words(data: dict[str, Any]) -> list[str]:
    """Reload counters, uses left and hit points from an element's data."""
    words = []
    hp = data.get("hp")
    if isinstance(hp, int) and hp > 0:
        words.append(f"{hp} HP")
    for weapon, turns in sorted((data.get("reload") or {}).items()):
        if turns:
            words.append(f"{weapon} reload {turns}")
    for weapon, left in sorted((data.get("uses") or {}).items()):
        words.append(f"{weapon} {left} use{'s' if left != 1 else ''} left")
    lost = data.get("lost_weapons") or []
    if lost:
        words.append("lost " + ", ".join(map(str, lost)))
    return words


def element_line(es: ElementState, start_die: int | None, names: dict[str, str] | None = None) -> str:
    die = es.data.get("die")
    text = f"{es.name}"
    if isinstance(die, int):
        text += f" d{die}"
        if start_die and die < start_die:
            text += f" (from d{start_die})"
    words = marker_words(es.markers, names) + counter_words(es.data)
    return text + (": " + ", ".join(words) if words else "")


def unit_status(unit: UnitState, names: dict[str, str] | None = None, this_round: bool = True) -> list[str]:
    """`this_round`: whether the unit has activated in the current round; if not, what
    lasts one activation belongs to a round that is over and is not shown."""
    names = names or {}
    words = []
    morale = unit.data.get("morale")
    if morale and morale not in ("steady", "ok", "good") and (this_round or morale not in PER_ACTIVATION_MORALE):
        words.append(str(morale))
    if unit.data.get("disordered"):
        words.append("disordered")
    markers = unit.markers if this_round else {k: v for k, v in unit.markers.items() if k not in PER_ACTIVATION}
    words += marker_words(markers, names)
    if unit.data.get("attached_to"):
        attached = str(unit.data["attached_to"])
        words.append(f"attached to {names.get(attached, attached)}")
    return words


def die_number(die: object) -> int | None:
    digits = "".join(ch for ch in str(die or "") if ch.isdigit())
    return int(digits) if digits else None


def round_reached(state: BattleState, unit_id: str) -> bool:
    """Whether the unit has activated in the current round, under the card scheme (its
    card came up this turn) or the initiative scheme."""
    if "cards" in state.scheme:  # the card scheme's key; loaded only by battles that use it
        from campaign.activation.cards.view import card_activated_this_round

        return card_activated_this_round(state, unit_id)
    return activated_this_round(state, unit_id)


def unit_view(state: BattleState, unit_id: str, start_die: Any) -> UnitView:
    """`start_die(es)`: the die the element took the field with, or None."""
    unit = state.unit(unit_id)
    names = {u.id: u.name for u in state.units}
    status = unit_status(unit, names, round_reached(state, unit_id)) + effect_words(state, unit, name_key="spell")
    return UnitView(tuple(status), tuple(element_line(es, start_die(es), names) for es in unit.alive))
