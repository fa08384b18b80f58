"""The battle screen's dialogs: a command's table facts (with live odds), typed dice,
the keyboard hand-over, and the card scheme's hidden deal and placement.

Every prompt, label and name is plain Text. Values typed here are only parsed into
the shapes the command declares; the engine judges them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

import tomllib

import attrs
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, Label, Static

from campaign.engine.report import OddsReport
from campaign.engine import CommandSpec, IllegalCommand, RollRequest
from campaign.engine.dice import check_faces
from campaign.engine.pending import FactSpec
from campaign.inert_text import inert
from tui.screens.base import MusterModal
from tui.screens.parts_dialog import PartsField, PartsScreen, item_values
from tui.screens.picker import Candidate, PickerScreen
from tui.widgets.choice_field import NONE, ChoiceField, shown

PICK_KEY = "f2"
LABEL_WIDTH, LABEL_WIDTH_MAX = 18, 27  # a form's labels: the stylesheet's width, widened for long names
# A command field (not a fact) that lists ids, by its name: what its picker offers (the `report` answer).
FIELD_PICKS: dict[str, str] = {"units": "units", "elements": "elements"}


# --- values -------------------------------------------------------------------------


def _split_top(text: str) -> list[str]:
    """`text` cut at commas and semicolons outside braces, brackets and quotes."""
    parts: list[str] = []
    depth, quote, start = 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch in ",;" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def parse_table(text: str) -> dict[str, Any]:
    """ "id = word, id = {fact = value, ...}" into a table (per-model weapons, per-model facts)."""
    found: dict[str, Any] = {}
    for entry in _split_top(text):
        key, eq, value = entry.partition("=")
        key, value = key.strip().strip("\"'"), value.strip()
        if not eq or not key or not value:
            raise ValueError(f"{entry!r} is not id = value")
        if value.startswith("{"):
            try:
                found[key] = tomllib.loads(f"v = {value}")["v"]
            except tomllib.TOMLDecodeError as exc:
                raise ValueError(f"{key}: {value!r} is not a table like {{fact = value}} ({exc})") from None
        else:
            found[key] = value.strip("\"'")
    return found


def parse(text: str, default: Any) -> Any:
    """Typed text into the shape of `default` (list, int or str); ValueError names the problem."""
    text = text.strip()
    if isinstance(default, dict):
        return parse_table(text)
    if isinstance(default, bool):
        if text.lower() in ("yes", "y", "true", "1"):
            return True
        if text.lower() in ("no", "n", "false", "0", ""):
            return False
        raise ValueError(f"{text!r} is not yes or no")
    if isinstance(default, (list, tuple)):
        return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
    if isinstance(default, int):
        if not text:
            return default
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
    return text


def odds_text(report: OddsReport) -> Text:
    """Any ruleset's odds report as a few plain lines: how, the outcomes, the notes."""
    text = Text()
    for line, style in report.text_lines():
        text.append(inert(line) + "\n", style=style)
    for note, n in Counter(report.notes).items():
        text.append((f"{n} x " if n > 1 else "") + inert(note) + "\n", style="dim")
    return text


def extra_fields(command_class: type, spec: CommandSpec) -> list[tuple[str, Any]]:
    """A command's fields the spec leaves to the player (not its params, not its facts): (name, default)."""
    found = []
    for field in attrs.fields(command_class):
        if field.name in spec.params or field.name == "facts":
            continue
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        found.append((field.name, default))
    return found


def field_helps(command_class: type | None) -> dict[str, str]:
    """What each of a command's fields means, where the command says (attrs metadata "help")."""
    if command_class is None or not attrs.has(command_class):
        return {}
    return {f.name: str(f.metadata["help"]) for f in attrs.fields(command_class) if "help" in f.metadata}


# --- the command form ------------------------------------------------------------------


class CommandForm(MusterModal):
    """Fill in a command's fields and table facts; see the exact odds; Ctrl+R confirms (rolls).

    Dismisses with (fields, facts) or None. `odds` is called off the screen's thread with
    the values so far and returns AttackOdds, or raises when the action has none.
    A field or fact that lists ids (FactSpec.picks, FIELD_PICKS) stays a typed Input and
    also opens a picker (F2): `pick(kind, fields, name)` returns what to offer for the
    field `name`, given the fields typed so far (the form's `target`). A fact holding one
    id (a text default) takes the last one ticked. A fact whose picked ids carry values
    (FactSpec.parts: a burst's dice, gap, cover) is a PartsField: F2 or Enter picks the
    ids, then PartsScreen asks each one's values; nothing of it is typed as id:part:part.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+r", "confirm", "Roll / confirm", priority=True),
        Binding(PICK_KEY, "pick", "Pick"),
    ]

    def __init__(
        self,
        spec: CommandSpec,
        fields: list[tuple[str, Any]],
        defaults: dict[str, Any],
        odds: Callable[[dict[str, Any], dict[str, Any]], Any] | None = None,
        choices: dict[str, list[tuple[str, str]]] | None = None,
        heading: str = "",
        pick: Callable[[str, dict[str, Any], str], list[Candidate]] | None = None,
        helps: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.spec = spec
        self.heading = heading  # the decision's own prompt, for a hidden choice the screen did not show
        self.fields = fields
        self.defaults = defaults  # fact name -> starting value (the last answer, else the default)
        self.odds_fn = odds
        self.choices = choices or {}  # field name -> (label, value) choices (unit and side ids)
        self.pick_fn = pick
        self.helps = helps or {}  # field name -> what it means (the command's own words)
        self.pickable: dict[str, tuple[str, str, str]] = {}  # widget id -> (name, picks kind, help)
        self.parts: dict[str, tuple[FactSpec, ...]] = {}  # widget id -> the values each picked id carries
        self.single: set[str] = set()  # widget ids of facts that hold one id, not a list
        self.facts = [fact for fact in spec.facts if fact.ask]  # those that bear on this command
        names = [name for name, _ in fields] + [fact.name for fact in self.facts]
        self.label_width = min(LABEL_WIDTH_MAX, max([LABEL_WIDTH, *(len(n) + 1 for n in names)]))
        if pick is not None:
            for name, default in fields:
                kind = spec.picks.get(name) or FIELD_PICKS.get(name)  # the rules' word first
                if kind and isinstance(default, (list, tuple, str)) and name not in self.choices:
                    self.pickable[f"field-{name}"] = (name, kind, self.helps.get(name, ""))
                    if isinstance(default, str):
                        self.single.add(f"field-{name}")  # one id (a target model): the last one ticked
            for fact in self.facts:
                if fact.picks and not fact.choices:
                    self.pickable[f"fact-{fact.name}"] = (fact.name, fact.picks, fact.help)
                    self.parts[f"fact-{fact.name}"] = fact.parts
                    if isinstance(fact.default, str):
                        self.single.add(f"fact-{fact.name}")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog battle-form"):
            yield Label(Text(inert(self.spec.label or self.spec.type)), classes="dialog-message")
            if self.heading:
                yield Static(Text(inert(self.heading)), id="form-heading")
            with VerticalScroll(id="form-fields"):
                for name, default in self.fields:
                    yield self._row(f"field-{name}", name, default, (), self.helps.get(name, ""), self.choices.get(name))
                for fact in self.facts:
                    value = self.defaults.get(fact.name, fact.default)
                    yield self._row(f"fact-{fact.name}", fact.name, value, fact.choices, fact.help, None)
            with VerticalScroll(id="form-odds-box"):  # a long report (a machine's damage results) scrolls
                yield Static(Text("Odds: working out...", style="dim"), id="form-odds")
            yield Static(id="form-error")
            yield Footer()

    def _row(self, wid: str, name: str, value: Any, choices: tuple[Any, ...], help_text: str,
             labelled: list[tuple[str, str]] | None) -> Horizontal:
        label = Label(Text(name.replace("_", " ")), classes="form-label")
        if self.label_width > LABEL_WIDTH:  # a long fact name ("attacker entangled") is never cut
            label.styles.width = self.label_width
        if self.parts.get(wid):  # picked ids with values each: never typed as id:part:part
            items = [v for v in (value if isinstance(value, (list, tuple)) else []) if isinstance(v, str)]
            field = PartsField(items, self.parts[wid], id=wid)
            field.tooltip = help_text or None
            return Horizontal(label, field, classes="form-row parts-row")
        if choices or labelled:
            options = labelled or [(shown(c) or NONE, c) for c in choices]
            widget: Any = ChoiceField(options, value, id=wid)
        else:
            hint = f"{PICK_KEY.upper()} picks" + (f"; {help_text}" if help_text else "") if wid in self.pickable else help_text
            widget = Input(inert(shown(value)), id=wid, placeholder=hint[:60], compact=True)
        widget.tooltip = help_text or None
        return Horizontal(label, widget, classes="form-row")

    def on_mount(self) -> None:
        self.refresh_odds()
        first = self.query("#form-fields Input, #form-fields ChoiceField")
        if first:
            first.first().focus()

    def values(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """(fields, facts) as typed so far; ValueError names the first bad one."""
        fields: dict[str, Any] = {}
        for name, default in self.fields:
            fields[name] = self._value(f"field-{name}", name, default)
        facts: dict[str, Any] = {}
        for fact in self.facts:  # one not asked keeps its default: left out of the command
            facts[fact.name] = self._value(f"fact-{fact.name}", fact.name, fact.default)
        return fields, facts

    def _value(self, wid: str, name: str, default: Any) -> Any:
        widget = self.query_one(f"#{wid}")
        if isinstance(widget, (ChoiceField, PartsField)):
            return widget.value
        try:
            return parse(widget.value, default)  # type: ignore[attr-defined]
        except ValueError as exc:
            raise ValueError(f"{name.replace('_', ' ')}: {exc}") from None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The pick key shows only where it works: on a field that lists ids."""
        if action == "pick":
            focused = self.focused
            return focused is not None and focused.id in self.pickable
        return True

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()

    def action_pick(self) -> None:
        """Open the picker for the focused id-list field; its answer replaces the field's text."""
        focused = self.focused
        if self.pick_fn is None or focused is None or focused.id not in self.pickable:
            return
        name, kind, help_text = self.pickable[focused.id or ""]
        offered = self.pick_fn(kind, self._fields_so_far(), name)
        if isinstance(focused, PartsField):
            self._pick_parts(focused, name, offered, help_text)
            return
        field = self.query_one(f"#{focused.id}", Input)
        if not offered:
            self.notify(f"Nothing to pick for {name.replace('_', ' ')} here; type the ids.", severity="warning")
            return
        typed = parse(field.value, [])

        def picked(ids: list[str] | None) -> None:
            if ids is not None and field.id in self.single:
                field.value = ids[-1] if ids else ""  # one id: the last one ticked
            elif ids is not None:
                field.value = ", ".join(ids)
            field.focus()

        self.app.push_screen(PickerScreen(name.replace("_", " "), offered, typed, help_text), picked)

    def _pick_parts(self, field: PartsField, name: str, offered: list[Candidate], help_text: str) -> None:
        """Pick the ids, then set each one's values (PartsScreen): an id picked again keeps
        its values, a new one starts at the defaults."""
        if not offered:
            self.notify(f"Nothing to pick for {name.replace('_', ' ')} here.", severity="warning")
            return
        field.names.update({c.id: c.name or c.id for c in offered})
        kept = dict(item_values(item, field.parts) for item in field.value)
        title = name.replace("_", " ")

        def valued(items: list[str] | None) -> None:
            if items is not None:
                field.value = items
                self.refresh_odds()
            field.focus()

        def picked(ids: list[str] | None) -> None:
            if ids is None:
                field.focus()
                return
            if not ids:
                valued([])
                return
            rows = [(i, field.names.get(i, i), kept.get(i) or [p.default for p in field.parts]) for i in ids]
            self.app.push_screen(PartsScreen(title, rows, field.parts), valued)

        self.app.push_screen(PickerScreen(title, offered, list(kept), help_text), picked)

    def _fields_so_far(self) -> dict[str, Any]:
        """The command's own fields as they stand (a bad one left out): the target picks from."""
        found: dict[str, Any] = {}
        for name, default in self.fields:
            try:
                found[name] = self._value(f"field-{name}", name, default)
            except ValueError:
                continue
        return found

    @on(Input.Changed)
    @on(ChoiceField.Changed)
    def changed(self) -> None:
        self.refresh_odds()

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.action_confirm()

    def refresh_odds(self) -> None:
        if self.odds_fn is None:
            self.query_one("#form-odds", Static).update(Text("No odds for this action.", style="dim"))
            return
        try:
            fields, facts = self.values()
        except ValueError:
            return
        self.work_out_odds(fields, facts)

    @work(thread=True, exclusive=True, group="odds")
    def work_out_odds(self, fields: dict[str, Any], facts: dict[str, Any]) -> None:
        """Exact odds can take a while for big templates: worked out off the screen's thread."""
        assert self.odds_fn is not None
        try:
            text = odds_text(self.odds_fn(fields, facts))
        except Exception as exc:  # an action without odds, or facts the rules refuse
            text = Text(inert(f"No odds: {exc}"), style="dim")
        self.app.call_from_thread(self.query_one("#form-odds", Static).update, text)

    def action_confirm(self) -> None:
        try:
            result = self.values()
        except ValueError as exc:
            self.query_one("#form-error", Static).update(Text(inert(exc), style="bold red"))
            return
        self.dismiss(result)


# --- dice typed on the table -------------------------------------------------------------


FACES_TYPED = r"[0-9 ,]*"  # what the faces field takes, key by key (a paste with anything else is refused whole)


class FacesInput(Input):
    """The faces field: digits, spaces and commas only. The dialog owns the keyboard, so a
    screen's key (S saves, N next) typed here is neither typed into the faces nor acted on:
    the dialog says why instead."""

    def restricted(self) -> None:
        screen = self.screen
        if isinstance(screen, FacesScreen):
            screen.refuse_key()


class FacesScreen(MusterModal):
    """Type the faces of a table roll, a handful at once: this roll's faces first, then any
    faces of the rolls that follow (recovery dice...), in the order the dice are read.
    A face the die does not have, or too few faces, is refused here; the faces beyond this
    roll are checked by the rolls they answer."""

    def __init__(self, request: RollRequest, ahead: list[int] | None = None) -> None:
        super().__init__()
        self.request = request
        self.ahead = list(ahead or [])  # faces typed ahead that were too few: shown again

    def compose(self) -> ComposeResult:
        count = self.request.count
        with Vertical(classes="dialog"):
            yield Label(Text(inert(f"Roll {count} x d{self.request.die}: {self.request.describe()}")),
                        classes="dialog-message")
            yield FacesInput(" ".join(map(str, self.ahead)), placeholder=f"{count} face{'' if count == 1 else 's'}, e.g. {' '.join(['4', '2', '6'][:max(1, min(count, 3))])}",
                             restrict=FACES_TYPED, id="faces-input")  # fmt: skip
            yield Static(Text("Faces typed after this roll's answer the next rolls (recovery...).", style="dim"),
                         id="faces-hint")
            yield Static(id="faces-error")
            yield Static(Text("Enter accept   Esc back (the command waits for its dice)", style="dim"),
                         classes="dialog-keys")

    @on(Input.Submitted)
    def accept(self, event: Input.Submitted) -> None:
        count = self.request.count
        try:
            faces = [int(part) for part in event.value.replace(",", " ").split()]
        except ValueError:
            self._error("Faces are whole numbers separated by spaces.")
            return
        if len(faces) < count:
            self._error(f"{self.request.describe()} needs {count} face(s), got {len(faces)}")
            return
        try:
            check_faces(self.request, faces[:count])
        except IllegalCommand as exc:
            self._error(exc.message if hasattr(exc, "message") else str(exc))
            return
        if any(face < 1 for face in faces[count:]):
            self._error("Faces start at 1.")
            return
        self.dismiss(faces)

    def refuse_key(self) -> None:
        self._error("Only dice faces go here (digits and spaces): Enter accepts them, Esc goes back.")

    def _error(self, message: str) -> None:
        self.query_one("#faces-error", Static).update(Text(inert(message), style="bold red"))


# --- hidden information ---------------------------------------------------------------------


class HandOverScreen(MusterModal):
    """A blank screen asking the named side's player to take the keyboard."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back"),
        Binding("enter", "ready", "Ready", priority=True),
    ]

    def __init__(self, side_name: str, why: str) -> None:
        super().__init__()
        self.side_name = side_name
        self.why = why

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog handover"):
            message = Text("Pass the keyboard to ")
            message.append(inert(self.side_name), style="bold")
            message.append(f".\n\n{inert(self.why)}\nOther players: look away.\n\nPress Enter when ready.")
            yield Static(message, classes="dialog-message")

    def action_ready(self) -> None:
        self.dismiss(True)


class AssignCardsScreen(MusterModal):
    """One side places a card from its hand face down on each unit (shown only to that side)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+r", "confirm", "Place cards", priority=True),
    ]

    def __init__(self, side_name: str, hand: list[str], units: list[tuple[str, str]], order: str) -> None:
        super().__init__()
        self.side_name = side_name
        self.hand = hand
        self.units = units
        self.order = order

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog battle-form"):
            title = Text(f"{inert(self.side_name)}: place one card on each unit")
            yield Label(title, classes="dialog-message")
            yield Static(Text("Hand: " + " ".join(self.hand) + f"   (order: {self.order.replace('_', ' ')})"),
                         id="assign-hand")
            with VerticalScroll(id="form-fields"):
                for i, (unit_id, name) in enumerate(self.units):
                    select = ChoiceField([(c, c) for c in self.hand], self.hand[i % len(self.hand)], id=f"card-{i}")
                    yield Horizontal(Label(Text(inert(name)), classes="form-label"), select, classes="form-row")
            yield Static(id="form-error")
            yield Footer()

    def action_confirm(self) -> None:
        cards = {unit_id: self.query_one(f"#card-{i}", ChoiceField).value for i, (unit_id, _) in enumerate(self.units)}
        repeated = [c for c, n in Counter(cards.values()).items() if n > 1]
        if repeated:
            self.query_one("#form-error", Static).update(Text(f"{repeated[0]} is placed twice", style="bold red"))
            return
        self.dismiss(cards)


class DealCardsScreen(MusterModal):
    """Table mode: one side types the cards it drew from a real deck."""

    def __init__(self, side_name: str, count: int) -> None:
        super().__init__()
        self.side_name = side_name
        self.count = count

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(f"{inert(self.side_name)}: type the {self.count} cards you drew"), classes="dialog-message")
            yield Input(placeholder="e.g. QH 10S AC", id="deal-input")
            yield Static(Text("Enter accept   Esc back", style="dim"), classes="dialog-keys")

    @on(Input.Submitted)
    def accept(self, event: Input.Submitted) -> None:
        cards = event.value.replace(",", " ").upper().split()
        if cards:
            self.dismiss(cards)


class HandReviewScreen(MusterModal):
    """After placement: one side looks over its own hand and where its cards lie (read only).

    Built from that side's CardView, which never holds another side's hidden cards.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,h", "cancel", "Done"),
    ]

    def __init__(self, side_name: str, view: Any) -> None:
        super().__init__()
        self.side_name = side_name
        self.view = view

    def compose(self) -> ComposeResult:
        view = self.view
        with Vertical(classes="dialog battle-form"):
            yield Label(Text(f"{inert(self.side_name)}: your hand, turn {view.turn}"), classes="dialog-message")
            yield Static(Text("Hand: " + (" ".join(view.hand) or "(none)")
                              + f"   (order: {view.card_order.replace('_', ' ')})"), id="review-hand")
            placed = Text()
            for unit in view.units:
                if unit.side != view.viewer:
                    continue
                placed.append(f"  {unit.card or '--':>4}  ", style="bold")
                placed.append(inert(unit.name))  # a unit name is plain text, never markup
                if unit.eliminated:
                    placed.append("  (eliminated)", style="dim")
                elif not unit.face_down:
                    placed.append("  (revealed)", style="dim")
                else:
                    placed.append("  (face down)", style="dim")
                placed.append("\n")
            with VerticalScroll(id="form-fields"):
                yield Static(placed, id="review-placed")
            if view.discarded:
                yield Static(Text("Discarded: " + " ".join(view.discarded), style="dim"), id="review-discarded")
            yield Static(Text("Esc or Enter hides your cards again.", style="dim"), classes="dialog-keys")
