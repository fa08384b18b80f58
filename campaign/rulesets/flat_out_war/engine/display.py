"""How Flat Out War's battle state reads on screen (BattleRules.describe_unit).

Its state keeps bookkeeping the generic reading would show raw: an element's die that
shrinks with damage, reload counters, uses left, weapons lost, a unit's morale status,
officers attached, and markers that name another unit (charging X, turned to face X).
"""

from __future__ import annotations

from typing import Any

from campaign.engine.display import UnitView, effect_words
from campaign.engine.state import BattleState, ElementState, UnitState

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


def unit_status(unit: UnitState, names: dict[str, str] | None = None) -> list[str]:
    names = names or {}
    words = []
    morale = unit.data.get("morale")
    if morale and morale not in ("steady", "ok", "good"):
        words.append(str(morale))
    if unit.data.get("disordered"):
        words.append("disordered")
    words += marker_words(unit.markers, names)
    if unit.data.get("attached_to"):
        attached = str(unit.data["attached_to"])
        words.append(f"attached to {names.get(attached, attached)}")
    return words


def die_number(die: object) -> int | None:
    digits = "".join(ch for ch in str(die or "") if ch.isdigit())
    return int(digits) if digits else None


def unit_view(state: BattleState, unit_id: str, start_die: Any) -> UnitView:
    """`start_die(es)`: the die the element took the field with, or None."""
    unit = state.unit(unit_id)
    names = {u.id: u.name for u in state.units}
    status = unit_status(unit, names) + effect_words(state, unit, name_key="spell")
    return UnitView(tuple(status), tuple(element_line(es, start_die(es), names) for es in unit.alive))
