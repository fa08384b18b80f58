"""The battle screen's read-only panels: the header and both sides' units.

Everything is built as rich Text from the battle state, so unit and side names
are shown exactly as typed (never parsed as markup, control characters made visible). The panels read the state
generically (markers, counters, timed effects); they decide nothing.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich.text import Text
from textual.widgets import Static

from campaign.engine import Battle, Decision, RollRequest
from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.inert_text import inert

SIDE_STYLES = ("bold cyan", "bold magenta", "bold yellow", "bold green")
# Unit bookkeeping that is not a status worth a word on screen.
QUIET_UNIT_DATA = frozenset({"start", "lost", "cost", "officer", "attached_to", "disordered", "morale"})
# "attacked" lists the element ids that attacked this activation (split fire): bookkeeping too.
QUIET_MARKERS = frozenset({"acted", "attacked", "moved"})
# Markers whose value is a unit id, said as a phrase around that unit's name.
UNIT_PHRASES = {"charged": "charging {}", "faced": "turned to face {}"}
# A bare flag left unsaid when the marker named beside it says more ("charging" by "charged").
SAID_BY = {"charging": "charged"}


def side_style(state: BattleState, side_id: str) -> str:
    ids = state.side_ids()
    return SIDE_STYLES[ids.index(side_id) % len(SIDE_STYLES)] if side_id in ids else "bold"


def _marker_words(markers: dict[str, Any], names: dict[str, str] | None = None) -> list[str]:
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


def _counter_words(data: dict[str, Any], start: dict[str, Any] | None = None) -> list[str]:
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


def _element_line(es: ElementState, start_die: int | None, names: dict[str, str] | None = None) -> str:
    die = es.data.get("die")
    text = f"{es.name}"
    if isinstance(die, int):
        text += f" d{die}"
        if start_die and die < start_die:
            text += f" (from d{start_die})"
    words = _marker_words(es.markers, names) + _counter_words(es.data)
    return text + (": " + ", ".join(words) if words else "")


def start_die(battle: Battle, unit: UnitState, es: ElementState) -> int | None:
    """The die the element took the field with (from the setup's force), to show a reduced die."""
    for side in battle.setup.sides:
        if side.id != unit.side:
            continue
        try:
            die = side.force.unit(unit.name).elements[es.entry].die or ""
        except (KeyError, IndexError):
            return None
        digits = "".join(ch for ch in str(die) if ch.isdigit())
        return int(digits) if digits else None
    return None


def effect_words(state: BattleState, unit: UnitState) -> list[str]:
    """Timed effects on the unit or its elements, with their turns left."""
    ids = {unit.id, *(e.id for e in unit.elements)}
    words = []
    for effect in state.effects:
        if effect.target in ids:
            name = str(effect.data.get("spell") or effect.kind).replace("_", " ")
            words.append(f"{name} {effect.remaining} {effect.clock.replace('_', ' ')}{'s' if effect.remaining != 1 else ''} left")
    return words


def unit_status(unit: UnitState, names: dict[str, str] | None = None) -> list[str]:
    names = names or {}
    words = []
    morale = unit.data.get("morale")
    if morale and morale not in ("steady", "ok", "good"):
        words.append(str(morale))
    if unit.data.get("disordered"):
        words.append("disordered")
    words += _marker_words(unit.markers, names)
    if unit.data.get("attached_to"):
        attached = str(unit.data["attached_to"])
        words.append(f"attached to {names.get(attached, attached)}")
    return words


def units_text(battle: Battle, card_units: dict[str, Any] | None = None, active: str = "") -> Text:
    """Both sides' units: a line per unit, then its living elements grouped when alike."""
    state = battle.state
    text = Text(no_wrap=False)
    names = {u.id: u.name for u in state.units}
    for side in state.sides:
        text.append(inert(side.name), style=side_style(state, side.id) + " underline")
        text.append("\n")
        for unit in state.units_of(side.id, alive=False):
            alive = unit.alive
            style = "dim strike" if unit.eliminated else ("reverse" if unit.id == active else "")
            text.append(" " + inert(unit.name), style=style or "bold")
            text.append(f"  {len(alive)}/{len(unit.elements)}", style="dim")
            words = ["eliminated"] if unit.eliminated else unit_status(unit, names) + effect_words(state, unit)
            card = (card_units or {}).get(unit.id)
            if card is not None and not unit.eliminated:
                words = _card_words(card) + words
            if words:
                text.append("  " + inert(", ".join(words)), style="yellow")
            text.append("\n")
            if unit.eliminated:
                continue
            lines = Counter(_element_line(e, start_die(battle, unit, e), names) for e in alive)
            for line, count in lines.items():
                text.append(f"   {count}x " if count > 1 else "   ", style="dim")
                text.append(inert(line) + "\n")
    return text


def _card_words(card: Any) -> list[str]:
    words = []
    if card.card and not card.face_down:
        words.append(f"card {card.card}")
    if card.status == "active":
        words.append(f"{card.ap_left}/{card.ap_max} AP")
    if card.overwatch or card.held_actions:
        words.append(f"overwatch ({card.held_actions} held)")
    if card.routed:
        words.append("routed")
    if card.casting:
        words.append(f"casting {card.casting}")
    for weapon, owed in card.prep.items():
        words.append(f"{weapon} prep {owed}")
    return words


def header_text(battle: Battle, scenario_name: str, card_view: Any = None) -> Text:
    """Scenario, round and limit, whose turn, the initiative or card order."""
    state = battle.state
    scheme = state.scheme
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(inert(scenario_name), style="bold")
    rounds = getattr(battle.setup.scenario, "rounds", None)
    word = "Turn" if card_view is not None else "Round"
    text.append(f"  {word} {state.round}" + (f"/{rounds}" if rounds else ""))
    pending = battle.pending
    if pending is None:
        text.append("  battle over: " + inert(state.end_reason or "ended"), style="bold red")
    elif isinstance(pending, Decision):
        text.append("  deciding: ")
        text.append(inert(battle.state.side(pending.side).name if pending.side in state.side_ids() else pending.side),
                    style=side_style(state, pending.side))
    elif isinstance(pending, RollRequest):
        text.append("  dice wanted", style="bold yellow")
    text.append("\n")
    if card_view is not None:
        names = {u.unit: u.name for u in card_view.units}
        text.append(f"Cards ({card_view.phase}): ", style="dim")
        if card_view.revealed:
            for i, (unit_id, card) in enumerate(card_view.revealed):
                text.append(", " if i else "")
                style = "reverse" if unit_id in card_view.up else ""
                text.append(inert(f"{card} {names.get(unit_id, unit_id)}"), style=style)
        else:
            text.append("none revealed yet", style="dim")
    else:
        order = scheme.get("order") or []
        text.append("Order: ", style="dim")
        for i, side_id in enumerate(order):
            text.append(" > " if i else "")
            current = side_id == scheme.get("current")
            text.append(inert(state.side(side_id).name), style=side_style(state, side_id) + (" reverse" if current else ""))
        if not order:
            text.append("not rolled yet", style="dim")
    return text


class BattleHeader(Static):
    """Two lines at the top of the battle screen."""


class UnitsPanel(Static):
    """Both sides' units, elements and markers."""
