"""The battle screen's read-only panels: the header and both sides' units.

Everything is built as rich Text from the battle state, so unit and side names
are shown exactly as typed (never parsed as markup, control characters made visible).
How a unit's state reads is the rules' to say (BattleRules.describe_unit); the panels
decide nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual.widgets import Static

from campaign.activation.phased import PhaseView, phase_view
from campaign.engine import Battle, Decision, RollRequest
from campaign.engine.state import BattleState
from campaign.inert_text import inert

SIDE_STYLES = ("bold cyan", "bold magenta", "bold yellow", "bold green")


def side_style(state: BattleState, side_id: str) -> str:
    ids = state.side_ids()
    return SIDE_STYLES[ids.index(side_id) % len(SIDE_STYLES)] if side_id in ids else "bold"


def units_text(battle: Battle, card_units: dict[str, Any] | None = None, active: str = "",
               spans: dict[str, tuple[int, int]] | None = None) -> Text:
    """Both sides' units: a line per unit, then its living elements grouped when alike.
    `spans`, when given, gets each unit's (start, end) in the text: where its lines are,
    so the screen can scroll the acting unit into view."""
    state = battle.state
    text = Text(no_wrap=False)
    for side in state.sides:
        text.append(inert(side.name), style=side_style(state, side.id) + " underline")
        text.append("\n")
        for unit in state.units_of(side.id, alive=False):
            start = len(text)
            alive = unit.alive
            style = "dim strike" if unit.eliminated else ("reverse" if unit.id == active else "")
            text.append(" " + inert(unit.name), style=style or "bold")
            text.append(f"  {len(alive)}/{len(unit.elements)}", style="dim")
            view = None if unit.eliminated else battle.rules.describe_unit(state, unit.id)
            words = ["eliminated"] if view is None else list(view.status)
            card = (card_units or {}).get(unit.id)
            if card is not None and not unit.eliminated:
                words = _card_words(card) + words
            if words:
                text.append("  " + inert(", ".join(words)), style="yellow")
            text.append("\n")
            if view is not None:
                lines = Counter(view.elements)
                for line, count in lines.items():
                    text.append(" " * ELEMENT_INDENT + (f"{count}x " if count > 1 else ""), style="dim")
                    text.append(inert(line) + "\n")
            if spans is not None:
                spans[unit.id] = (start, len(text))
    return text


def lines_of(text: Text, console: Console, width: int, hang: bool = False) -> int:
    """How many lines `text` (ending in a newline, or empty) takes at `width`, wrapped as
    the panel wraps it (`hang`: as a `HangingText`)."""
    return len((hang_wrap(text, width) if hang else text).wrap(console, max(1, width))) - 1


_LEAD = re.compile(r" *(\d+x )?")
HANG = 2  # a wrapped line's rest starts this much further in than its first words
ELEMENT_INDENT = 3  # an element's line under its unit
MIN_REST = 12  # narrower than this, a hanging indent would leave too little room: no hang


def hang_wrap(text: Text, width: int) -> Text:
    """`text` with each line that is wider than `width` broken after a comma (else at a
    space), its rest indented under its first words (past any count like "2x ") and a
    little more, so a wrapped model line still reads as that model's at a glance."""
    width = max(1, width)
    out = Text()
    for n, line in enumerate(text.split("\n", allow_blank=True)):
        if n:
            out.append("\n")
        plain = line.plain
        lead = len(_LEAD.match(plain).group(0))  # type: ignore[union-attr]  # matches every string
        if cell_len(plain) <= width:
            out.append_text(line)
            continue
        hang = lead + HANG if width - lead - HANG >= MIN_REST else 0
        start, room, first = 0, width, True
        while len(plain) - start > room:
            low = start + (lead if first else 0) + 1
            comma = plain.rfind(", ", low, start + room + 1)  # between two facts, where it fills half the line
            cut = comma + 1 if comma + 1 - start >= room // 2 else plain.rfind(" ", low, start + room + 1)
            end, start_next = (cut, cut + 1) if cut > start else (start + room, start + room)
            out.append_text(line[start:end])
            out.append("\n" + " " * hang)
            start, room, first = start_next, width - hang, False
            while start < len(plain) and plain[start] == " ":
                start += 1
        out.append_text(line[start:])
    return out


class HangingText:
    """The units panel's text as Rich renders it: `hang_wrap` at the width it gets.
    `str()` is the text itself, unwrapped."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield hang_wrap(self.text, options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)


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
    phased = phase_view(state)
    word = "Turn" if card_view is not None or phased is not None else "Round"
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
    elif phased is not None:
        _phase_line(text, state, phased)
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


def _phase_line(text: Text, state: BattleState, view: PhaseView) -> None:
    """A phased turn: the phase now (of this turn's), whose pick is next, passes in a row,
    what shaped the turn."""
    if view.phase:
        text.append(f"Phase {view.index + 1}/{len(view.phases)}: ", style="dim")
        text.append(inert(view.phase), style="bold")
    else:
        text.append("Turn start", style="dim")
    if view.picking in state.side_ids():
        text.append("  next: ", style="dim")
        text.append(inert(state.side(view.picking).name), style=side_style(state, view.picking))
        if view.passes:
            text.append(f" ({view.passes} pass{'es' if view.passes > 1 else ''} in a row)", style="dim")
    if view.note:
        text.append("  " + inert(view.note), style="dim")


class BattleHeader(Static):
    """Two lines at the top of the battle screen."""


class UnitsPanel(Static):
    """Both sides' units, elements and markers (`units_text`, in a `HangingText` for
    rules that hang their long model lines)."""
