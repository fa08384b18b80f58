"""How a unit's state reads on screen, decided by the rules (BattleRules.describe_unit).

The core's default reads the state generically: markers as words, timed effects with
their turns left, one line per living element. A ruleset whose state keeps its own
bookkeeping (dice that shrink, reload counters, a status) says how it reads.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from campaign.engine.state import BattleState, UnitState

# Effects a phased turn holds until a phase ends (campaign.activation.phased.held): a list of
# {"target", "kind", "text", "data"} in `state.scheme`; the generic view shows them as pending.
HELD_EFFECTS = "held_effects"


@attrs.define(frozen=True)
class UnitView:
    """`status`: words after the unit's name; `elements`: one line per living element or
    model (a screen may group identical lines)."""

    status: tuple[str, ...] = ()
    elements: tuple[str, ...] = ()


def marker_words(markers: dict[str, Any], names: dict[str, str] | None = None, quiet: frozenset[str] = frozenset()) -> list[str]:
    """Markers as short words; a value that is a unit id shows as that unit's name
    (`names`: id -> name), a list as how many it holds, never a Python repr."""
    names = names or {}
    words = []
    for key, value in sorted(markers.items()):
        if not value or key in quiet:
            continue
        label = key.replace("_", " ")
        if isinstance(value, str) and value in names:
            words.append(f"{label} {names[value]}")
        elif isinstance(value, bool):
            words.append(label)
        elif isinstance(value, (list, tuple, set, frozenset)):
            words.append(f"{label} ({len(value)})")
        elif isinstance(value, dict):
            words.append(label)
        else:
            words.append(f"{label} {value}")
    return words


def effect_words(state: BattleState, unit: UnitState, name_key: str = "name") -> list[str]:
    """Timed effects on the unit or its elements, with their turns left; an effect is
    called by its data[name_key] (a ruleset's own key for it), else by its kind."""
    ids = {unit.id, *(e.id for e in unit.elements)}
    words = []
    for effect in state.effects:
        if effect.target in ids:
            name = str(effect.data.get(name_key) or effect.kind).replace("_", " ")
            clock = effect.clock.replace("_", " ")
            words.append(f"{name} {effect.remaining} {clock}{'s' if effect.remaining != 1 else ''} left")
    return words


def numbered_names(unit: UnitState) -> dict[str, str]:
    """Element id -> its name, numbered ("Trooper #2") where the unit has several of that
    name: the default way a screen tells one model from another (BattleRules.model_names).
    Numbered over every element, fallen ones too, so a number does not shift as the unit
    loses men."""
    totals = Counter(e.name for e in unit.elements)
    seen: Counter[str] = Counter()
    names = {}
    for element in unit.elements:
        seen[element.name] += 1
        names[element.id] = f"{element.name} #{seen[element.name]}" if totals[element.name] > 1 else element.name
    return names


def generic_unit_view(state: BattleState, unit_id: str) -> UnitView:
    unit = state.unit(unit_id)
    names = {u.id: u.name for u in state.units}
    status = marker_words(unit.markers, names) + effect_words(state, unit)
    held = state.scheme.get(HELD_EFFECTS) or []
    status += [f"pending: {e['text']}" for e in held if e.get("target") == unit.id]
    lines = []
    for es in unit.alive:
        words = marker_words(es.markers, names)
        words += [f"pending: {e['text']}" for e in held if e.get("target") == es.id]
        lines.append(es.name + (": " + ", ".join(words) if words else ""))
    return UnitView(tuple(status), tuple(lines))
