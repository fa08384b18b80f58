"""The battle screen: one campaign battle, driven by what the engine waits for.

`battle.pending` decides what the screen offers: a Decision lists its legal commands
(a command with table facts opens a form with the exact odds, Ctrl+R rolls), a table
RollRequest asks for the faces, None means the battle is over. Every step is appended
to the battle file as it happens (BattleSession), so Escape never loses anything.
Under the card scheme a hidden Decision (deal, placement) is shown only after its
side's player has taken the keyboard.

One writer: the screen holds the campaign's lease while it is open. When another
Muster holds it, the screen watches instead: a banner says who writes, a timer
polls the battle file's size and time and reopens the battle when it grows, every
verb is refused, and T takes the lease over once the writer has left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.geometry import Region
from textual.timer import Timer
from textual.widgets import Footer, OptionList, ProgressBar, RichLog, Static
from textual.widgets.option_list import Option

from campaign.engine import CommandSpec, Decision, EngineError, IllegalCommand, RollRequest
from campaign.engine.dice import DiceSource, check_faces
from campaign.engine.events import Event
from campaign.inert_text import inert
from saves.errors import SaveError
from saves.lease import CampaignBusy, Lease, LeaseLost, StaleSave, current_holder, holder_alive
from tui import workspace
from tui.screens.base import MusterScreen
from tui.screens.battle_dialogs import (
    AssignCardsScreen,
    CommandForm,
    DealCardsScreen,
    FacesScreen,
    HandOverScreen,
    HandReviewScreen,
    extra_fields,
    field_helps,
)
from tui.screens.battle_session import BattleSession, NothingToWatch, NotSaved
from tui.screens.picker import Candidate, candidates
from tui.widgets.action_list import ActionList
from tui.widgets.battle_panels import (BattleHeader, HangingText, UnitsPanel, header_text, lines_of, side_style,
                                      units_text)

STYLES = Path(__file__).resolve().parent.parent / "styles"
ROLL_OPTION = "roll"
POST_OPTION = "post"
HIDDEN_OPTION = "hidden"
POLL_SECONDS = 0.5  # how often a watching screen looks at the battle file


class BattleScreen(MusterScreen):
    """The battle in progress of the campaign in `campaign_folder` (started here if none is)."""

    HELP_TOPIC: ClassVar[str] = "battle"
    CSS_PATH = STYLES / "battle.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("u", "undo", "Undo"),
        Binding("e", "end_battle", "End battle"),
        Binding("h", "review_hand", "My cards"),
        Binding("t", "take_over", "Take over"),
        Binding("l", "focus_log", "Log", show=False),
        Binding("a", "focus_actions", "Actions", show=False),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self, campaign_folder: Path, dice: DiceSource | None = None) -> None:
        super().__init__()
        self.folder = Path(campaign_folder)
        self.dice = dice
        self.session: BattleSession | None = None
        self.busy = True
        self.handed_over: object = None  # the hidden Decision whose player has the keyboard
        self.faces_asked: object = None  # the RollRequest whose faces dialog was opened
        self.ahead: list[int] = []  # table faces typed beyond one roll: they answer the next rolls
        self.ruleset_id = ""
        self.watching: CampaignBusy | None = None  # another Muster writes: this screen follows it
        self.seen_file: tuple[object, ...] | None = None  # what _watch_key saw when the battle was last shown
        self.poller: Timer | None = None
        self.reloading = False
        self.over = False  # watched to its end: nothing left to take over

    # --- layout ---------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield BattleHeader(Text("Opening the battle...", style="dim"), id="battle-header")
        yield Static(id="battle-watch")
        with Horizontal(id="battle-body"):
            with VerticalScroll(id="units-scroll", classes="panel"):
                yield UnitsPanel(id="battle-units")
            with Vertical(id="battle-right"):
                yield Static(id="battle-prompt")
                yield ProgressBar(id="battle-progress", show_eta=False)
                yield ActionList(id="battle-actions", markup=False)
                yield RichLog(id="battle-log", classes="panel", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#units-scroll").border_title = "Units"
        self.query_one("#battle-log").border_title = "Log"
        self.query_one("#battle-actions", OptionList).loading = True
        self.query_one("#battle-watch").display = False
        self.open_battle()

    def on_unmount(self) -> None:
        self.let_go()

    def let_go(self) -> None:
        """Release the campaign (leaving the battle, or the post-battle going back to the dashboard)."""
        if self.poller is not None:
            self.poller.stop()
        if self.session is not None and self.session.lease is not None:
            self.session.lease.release()
            self.session.loaded.lease = None

    @work(thread=True, exclusive=True, group="battle")
    def open_battle(self, lease: Lease | None = None) -> None:
        """Start or resume the battle off the screen's thread: a long log takes a while to replay.
        Without the campaign's lease (another Muster holds it) the battle is opened to watch."""
        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._replayed, done, total)

        busy = None
        if lease is None:
            try:
                lease = workspace.hold_campaign(self.folder, "battle")
            except CampaignBusy as exc:
                busy = exc
            except Exception as exc:  # noqa: BLE001 - a folder that cannot be written: said, not raised
                self.app.call_from_thread(self._failed, str(exc))
                return
        try:
            session = BattleSession.open(self.folder, self.dice, progress, lease=lease)
        except Exception as exc:  # a damaged file, a campaign that cannot battle: said, not raised
            if lease is not None:
                lease.release()
            self.app.call_from_thread(self._failed, str(busy or exc))
            return
        self.app.call_from_thread(self._opened, session, busy)

    def _replayed(self, done: int, total: int) -> None:
        """A long log is being replayed: show how far it has got."""
        bar = self.query_one("#battle-progress", ProgressBar)
        bar.display = True
        bar.update(total=total, progress=done)
        self.query_one("#battle-prompt", Static).update(Text(f"Replaying the log: {done} of {total} entries", style="dim"))

    def _failed(self, message: str) -> None:
        self.query_one("#battle-progress").display = False
        self.query_one("#battle-actions", OptionList).loading = False
        self.query_one("#battle-prompt", Static).update(Text(inert(message), style="bold red"))
        self.notify(inert(message), title="Cannot open the battle", severity="error", markup=False)

    def _opened(self, session: BattleSession, busy: CampaignBusy | None = None) -> None:
        self.session = session
        self.ruleset_id = session.battle.setup.ruleset
        self.query_one("#battle-progress").display = False
        self.query_one("#battle-actions", OptionList).loading = False
        self.busy = False
        self.watching = busy
        self.seen_file = self._watch_key()
        if session.lease is not None and session.lease.broke is not None:
            self.notify(inert(f"Took over from a Muster that is gone ({session.lease.broke.describe()})."), markup=False)
        self.refresh_bindings()  # the card review key appears in a card battle
        log = self.query_one("#battle-log", RichLog)
        log.clear()
        self._write_events(session.battle.events)
        self.show_watch()
        if busy is not None and self.poller is None:
            self.poller = self.set_interval(POLL_SECONDS, self.poll)
        self.show()
        self.say_warnings()

    def say_warnings(self) -> None:
        """What the saves said along the way (a torn tail dropped or cut, a file rewritten)."""
        if self.session is None:
            return
        for warning in self.session.take_warnings():
            self.notify(inert(warning), title="Battle file", severity="warning", markup=False, timeout=15)

    # --- watching another Muster's battle ---------------------------------------------
    def show_watch(self, note: str = "") -> None:
        banner = self.query_one("#battle-watch", Static)
        banner.display = self.watching is not None
        if self.watching is None:
            return
        text = Text("Watching", style="bold reverse")
        text.append(" read-only: ")
        text.append(inert(note or f"{self.watching.holder.describe()} is playing this battle; t takes over once it leaves."))
        banner.update(text)

    def poll(self) -> None:
        """A watching screen's timer: reopen the battle when its file changed; say when the writer left."""
        if self.watching is None or self.session is None or self.reloading:
            return
        stat = self._watch_key()
        if stat != self.seen_file:
            self.reloading = True
            self.reload_watched()
            return
        holder = current_holder(self.folder)
        gone = holder is None or holder.token != self.watching.holder.token or holder_alive(holder) is False
        if gone:
            self.show_watch("the writer has left; t takes the battle over.")

    @work(thread=True, exclusive=True, group="battle-watch")
    def reload_watched(self) -> None:
        try:
            session = BattleSession.open(self.folder, self.dice)
        except NothingToWatch:  # the post-battle was saved
            self.app.call_from_thread(self._watch_stopped, "")
            return
        except Exception as exc:  # noqa: BLE001 - a file mid-change or damaged: said in the banner
            self.app.call_from_thread(self._watch_stopped, str(exc))
            return
        self.app.call_from_thread(self._watched, session)

    def _watched(self, session: BattleSession) -> None:
        self.reloading = False
        if self.watching is None:  # taken over meanwhile: the writer's session stays
            return
        self._opened(session, self.watching)

    def _watch_key(self) -> tuple[object, ...]:
        """What a watcher compares: the battle file (appends) and campaign.toml (the battle's end)."""
        path = self.session.path if self.session is not None else None
        return (_stat(path) if path else None, _stat(self.folder / "campaign.toml"))

    def _watch_stopped(self, message: str) -> None:
        self.reloading = False
        self.seen_file = self._watch_key()
        if not message:
            self.over = True
            if self.poller is not None:
                self.poller.stop()
                self.poller = None
            self.show_watch("the battle is over and its result is saved; Escape returns to the dashboard.")
            return
        self.show_watch(f"the battle cannot be followed now: {message}")

    def action_take_over(self) -> None:
        if self.watching is None or self.busy:
            return
        if self.over:
            self.notify("The battle is over: there is nothing to take over.", severity="warning")
            return
        try:
            lease = workspace.hold_campaign(self.folder, "battle")
        except CampaignBusy as exc:
            if exc.alive is None:  # another host: only when the player says so
                self._confirm_break(exc)
            else:
                self.notify(inert(exc.message), title="Still being written", severity="warning", markup=False)
            return
        except SaveError as exc:
            self.notify(inert(exc), title="Cannot take over", severity="error", markup=False)
            return
        self._take(lease)

    def _confirm_break(self, busy: CampaignBusy) -> None:
        from tui.screens.dialogs import ConfirmScreen

        def answer(value: str | None) -> None:
            if value != "break":
                return
            try:
                lease = workspace.hold_campaign(self.folder, "battle", break_other_host=True)
            except SaveError as exc:
                self.notify(inert(exc), title="Cannot take over", severity="error", markup=False)
                return
            self._take(lease)

        self.app.push_screen(
            ConfirmScreen(
                f"The battle is held by {busy.holder.describe()}; Muster cannot tell from here whether it is still "
                "running. Break its lease and take over? Only if that Muster is gone.",
                [("b", "break", "Break it and take over"), ("escape", "stay", "Keep watching")],
            ),
            answer,
        )

    def _take(self, lease: Lease) -> None:
        """Become the writer: reopen the battle from disk with the lease."""
        if self.poller is not None:
            self.poller.stop()
            self.poller = None
        self.watching = None
        self.busy = True
        self.show_watch()
        self.notify("You are writing this battle now.", markup=False)
        self.open_battle(lease)

    def _read_only(self) -> bool:
        """A verb on a watching screen: refused, with what to do."""
        if self.watching is None:
            return False
        self.notify("This Muster is watching: another one writes the battle. t takes over once it leaves.",
                    title="Read-only", severity="warning", markup=False)  # fmt: skip
        return True

    # --- rendering ------------------------------------------------------------------
    def card_view(self) -> Any:
        if self.session is None or not self.session.cards:
            return None
        from campaign.activation.cards import card_view

        return card_view(self.session.battle.state, None)  # the spectator's view: no hidden card

    def show(self) -> None:
        """Redraw everything from the session."""
        session = self.session
        if session is None:
            return
        battle = session.battle
        try:
            header = self.query_one(BattleHeader)
        except NoMatches:  # a worker's redraw arriving after the screen has closed
            return
        view = self.card_view()
        header.update(header_text(battle, session.scenario.name, view))
        cards = {u.unit: u for u in view.units} if view is not None else None
        active = str(battle.state.scheme.get("active_unit") or "")
        spans: dict[str, tuple[int, int]] = {}
        units = units_text(battle, cards, active, spans)
        self.query_one(UnitsPanel).update(HangingText(units) if battle.rules.hang_unit_lines else units)
        shown = spans.get(active or _unit_asked(session.pending))
        if shown is not None:
            self.call_after_refresh(self._bring_into_view, units, *shown)
        prompt, options = self._offer()
        self.query_one("#battle-prompt", Static).update(prompt)
        actions = self.query_one("#battle-actions", OptionList)
        actions.clear_options()
        actions.add_options(options)
        if options:
            pending = session.pending
            labels = [str(option.prompt) for option in options]
            start = session.preferred(pending, labels) if isinstance(pending, Decision) else 0
            actions.highlighted = next((i for i in range(start, len(options)) if not options[i].disabled), start)
        actions.focus()
        self.call_after_refresh(self._follow_up)

    def _bring_into_view(self, units: Text, start: int, end: int) -> None:
        """Scroll the units panel (the least it must) so the acting unit's lines show, its
        name first when the unit is taller than the panel: at 80x24 it may be far down."""
        try:
            panel = self.query_one(UnitsPanel)
        except NoMatches:  # the screen closed meanwhile
            return
        width = panel.content_size.width
        hang = self.session is not None and self.session.battle.rules.hang_unit_lines
        top = lines_of(units[:start], self.app.console, width, hang)
        height = lines_of(units[start:end], self.app.console, width, hang)
        region = Region(0, panel.virtual_region.y + panel.styles.padding.top + top, 1, max(1, height))
        self.query_one("#units-scroll", VerticalScroll).scroll_to_region(region, animate=False, immediate=True)

    def _offer(self) -> tuple[Text, list[Option]]:
        """The prompt and the options for what the engine waits for."""
        assert self.session is not None
        battle = self.session.battle
        pending = battle.pending
        if pending is None:
            reason = battle.state.end_reason or "the battle has ended"
            return Text(inert(f"The battle is over: {reason}."), style="bold"), [
                Option(Text("Go to the post-battle step"), id=POST_OPTION)
            ]
        if isinstance(pending, RollRequest):
            prompt = Text(inert(f"Dice wanted: {pending.count} x d{pending.die}, {pending.describe()}"), style="bold yellow")
            return prompt, [Option(Text("Type the faces rolled on the table"), id=ROLL_OPTION)]
        prompt = Text()
        prompt.append(inert(self.session.side_name(pending.side)), style=side_style(battle.state, pending.side))
        prompt.append(": ")
        if pending.data.get("hidden"):
            prompt.append("a hidden choice; pass the keyboard first.")
            return prompt, [Option(Text("Take the keyboard and continue"), id=HIDDEN_OPTION)]
        prompt.append(inert(self._prompt_text(pending)))
        return prompt, action_options(tuple(pending.legal))

    def _prompt_text(self, decision: Decision) -> str:
        text = decision.prompt
        side = self.session.side_name(decision.side) if self.session else ""
        if side and text.startswith(side + ":"):
            text = text[len(side) + 1 :].strip()
        window = decision.data.get("window")
        if window:
            text += f" [interrupt window: {window}]"
        return text

    def _follow_up(self) -> None:
        """Open what the pending step needs by itself: the hand-over, or the faces dialog."""
        if self.session is None or self.busy or self.app.screen is not self or self.watching is not None:
            return
        pending = self.session.pending
        if not isinstance(pending, RollRequest) and self.ahead:
            unused, self.ahead = self.ahead, []
            self.notify(f"{len(unused)} face(s) typed ahead were not needed: {' '.join(map(str, unused))}",
                        title="Dice left over", severity="warning", markup=False)  # fmt: skip
        if isinstance(pending, Decision) and pending.data.get("hidden") and self.handed_over is not pending:
            self.hand_over(pending)
        elif isinstance(pending, RollRequest) and self.faces_asked is not pending:
            self.ask_faces(pending)

    def _write_events(self, events: list[Event]) -> None:
        log = self.query_one("#battle-log", RichLog)
        for event in events:
            style = "bold" if event.kind in ("round_start", "card_up", "battle_over") else ""
            log.write(Text(inert(event.text), style=style))

    # --- choosing ---------------------------------------------------------------------
    @on(OptionList.OptionSelected, "#battle-actions")
    def picked(self, event: OptionList.OptionSelected) -> None:
        if self.session is None or self.busy:
            return
        pending = self.session.pending
        option = event.option.id or ""
        if self.watching is not None:  # a watcher may open a form to read the odds, never act
            spec = pending.legal[int(option)] if isinstance(pending, Decision) and option.isdigit() else None
            if spec is None or not (spec.facts or extra_fields(self.session.battle.types.get(spec.type), spec)):
                self._read_only()
                return
        if option == POST_OPTION:
            self.open_post_battle()
        elif option == ROLL_OPTION and isinstance(pending, RollRequest):
            self.ask_faces(pending)
        elif option == HIDDEN_OPTION and isinstance(pending, Decision):
            self.hand_over(pending)
        elif isinstance(pending, Decision) and option.isdigit():
            labels = [str(o.prompt) for o in event.option_list.options]
            self.session.chose(pending, labels, event.option_index)
            self.choose(pending.legal[int(option)])

    def choose(self, spec: CommandSpec, heading: str = "") -> None:
        """A legal command: applied at once, or through the form when it needs fields or facts."""
        assert self.session is not None
        session = self.session
        battle = session.battle
        fields = extra_fields(battle.types.get(spec.type), spec)
        if not fields and not spec.facts:
            self.step(session.command(spec))
            return
        defaults = {fact.name: session.default(spec, fact) for fact in spec.facts}
        state = battle.state

        def odds(values: dict[str, Any], facts: dict[str, Any]) -> Any:
            return session.odds(session.command(spec, facts, **values))

        units = [(f"{u.name} ({state.side(u.side).name})", u.id) for u in state.units if not u.eliminated]
        sides = [(s.name, s.id) for s in state.sides]
        objectives = [(_objective_label(o), o.name) for o in session.scenario.objectives]
        choices = {"unit": units, "target": units, "side": sides, "objective": objectives}
        pending = battle.pending
        if isinstance(pending, Decision):  # a side to name starts at the side deciding (its objective...)
            fields = [(name, pending.side if name == "side" and not value else value) for name, value in fields]

        def done(result: tuple[dict[str, Any], dict[str, Any]] | None) -> None:
            if result is None or self._read_only():
                return
            values, facts = result
            try:
                command = session.command(spec, facts, **values)
            except EngineError as exc:
                self.refused(exc)
                return
            self.step(command, facts)

        has_odds = spec.odds
        form = CommandForm(spec, fields, defaults, odds if has_odds else None, choices, heading, self._picker(spec),
                           field_helps(battle.types.get(spec.type)))
        self.app.push_screen(form, done)

    def _picker(self, spec: CommandSpec) -> Any:
        """What the form's pickers offer for `spec`: the ids the spec offers for the field (the
        rules' narrowing: models able to attack now), the ids a report Decision names, else
        all of the kind on the table."""
        assert self.session is not None
        battle = self.session.battle
        pending = battle.pending
        side = pending.side if isinstance(pending, Decision) else ""
        data = pending.data if isinstance(pending, Decision) and spec.type == "report" else {}

        def pick(kind: str, values: dict[str, Any], name: str = "") -> list[Candidate]:
            unit = str(values.get("unit") or spec.params.get("unit") or "")
            target = str(values.get("target") or spec.params.get("target") or "")
            offered = spec.offers.get(name)
            if offered is None:
                offered = data.get("pick_units" if kind.endswith("units") else "pick_elements")
            return candidates(battle.state, kind, side=side, unit=unit, target=target, offered=offered,
                              names=lambda u: battle.rules.model_names(battle.state, u.id))

        return pick

    def hand_over(self, decision: Decision) -> None:
        """Ask the deciding side's player to take the keyboard, then show their hidden choice."""
        assert self.session is not None
        name = self.session.side_name(decision.side)

        def ready(answer: bool | None) -> None:
            if answer:
                self.handed_over = decision
                self.hidden_choice(decision)

        what = "cards" if decision.legal and decision.legal[0].type.endswith("_cards") else "a choice"
        self.app.push_screen(HandOverScreen(name, f"The next step shows {what} only that side may see."), ready)

    def hidden_choice(self, decision: Decision) -> None:
        assert self.session is not None
        name = self.session.side_name(decision.side)
        spec = decision.legal[0]

        def answered(value: Any) -> None:
            if value is None:
                return
            self.step(self.session.battle.command(spec, cards=value))  # type: ignore[union-attr]

        if spec.type == "assign_cards":
            hand = list(decision.data.get("hand", []))
            units = [tuple(u) for u in decision.data.get("units", [])]
            order = str(decision.data.get("order", ""))
            self.app.push_screen(AssignCardsScreen(name, hand, units, order), answered)
        elif spec.type == "deal_cards":
            self.app.push_screen(DealCardsScreen(name, int(decision.data.get("count", 0))), answered)
        else:  # the prompt was kept off the shared screen: the owner reads it in the form
            self.choose(spec, decision.prompt)

    def ask_faces(self, request: RollRequest) -> None:
        """The faces of a table roll: from those typed ahead when there are enough, else asked
        for in one prompt that takes this roll's faces and any number after them (a handful:
        eleven recovery dice are typed once, in the order the dice are read)."""
        self.faces_asked = request
        ahead, self.ahead = self.ahead, []
        if len(ahead) >= request.count:
            try:
                faces = list(check_faces(request, ahead[: request.count]))
            except IllegalCommand as exc:
                self.notify(f"The faces typed ahead do not fit this roll ({exc.message}); type it again.",
                            severity="warning", markup=False)  # fmt: skip
            else:
                self.ahead = ahead[request.count :]
                self.step_roll(faces)
                return

        def typed(faces: list[int] | None) -> None:
            if faces is not None:
                self.ahead = faces[request.count :]
                self.step_roll(faces[: request.count])

        self.app.push_screen(FacesScreen(request, ahead), typed)

    # --- stepping (off the screen's thread: a big template attack takes a while) ---------
    def step(self, command: Any, facts: dict[str, Any] | None = None) -> None:
        self.busy = True
        self.query_one("#battle-prompt", Static).update(Text("Resolving...", style="dim"))
        self._run(lambda: self.session.apply(command, facts))  # type: ignore[union-attr]

    def step_roll(self, faces: list[int]) -> None:
        self.busy = True
        self._run(lambda: self.session.roll(faces))  # type: ignore[union-attr]

    @work(thread=True, exclusive=True, group="battle")
    def _run(self, verb: Any) -> None:
        try:
            events = verb()
        except EngineError as exc:
            self.app.call_from_thread(self._stepped, [], exc)
            return
        except Exception as exc:  # a save that failed: the battle in memory is ahead of the file
            self.app.call_from_thread(self._stepped, [], exc)
            return
        self.app.call_from_thread(self._stepped, events, None)

    def _stepped(self, events: list[Event], error: Exception | None) -> None:
        self.busy = False
        if isinstance(error, (LeaseLost, StaleSave)) and self.session is not None:
            # the battle in memory is ahead of the file: reopen it from disk, as writer if still one
            self.refused(error)
            lease = self.session.lease if isinstance(error, StaleSave) else None
            self.session.loaded.lease = None
            self.busy = True
            self.open_battle(lease)
            return
        if error is not None:
            self.refused(error)
            self.ahead = []  # faces typed for a roll that was refused do not carry on
        self._write_events(events)
        self.show()
        self.say_warnings()

    def refused(self, error: Exception) -> None:
        if isinstance(error, NotSaved):  # the disk said no: the screen shows the last saved step
            self.notify(inert(error), title="Not saved", severity="error", markup=False, timeout=30)
            return
        message = error.message if isinstance(error, IllegalCommand) else str(error)
        self.notify(inert(message), title="Not allowed", severity="error", markup=False)

    # --- actions --------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The card review key shows only in a card battle."""
        if action == "review_hand":
            return self.session is not None and self.session.cards
        if action == "take_over":
            return self.watching is not None
        if action in ("undo", "end_battle") and self.watching is not None:
            return False  # a watching screen offers no verbs
        return True

    def action_review_hand(self) -> None:
        """The deciding side looks over its own placed cards, after the keyboard hand-over."""
        if self.session is None or self.busy or not self.session.cards or self._read_only():
            return
        pending = self.session.pending
        if not isinstance(pending, Decision):
            self.notify("Only the side making a decision may look at its cards.", severity="warning")
            return
        from campaign.activation.cards import card_view

        side = pending.side
        view = card_view(self.session.battle.state, side)
        if side not in view.placed:
            self.notify("This side has not placed its cards yet.", severity="warning")
            return
        name = self.session.side_name(side)

        def ready(answer: bool | None) -> None:
            if answer:
                self.app.push_screen(HandReviewScreen(name, view))

        self.app.push_screen(HandOverScreen(name, "The next step shows that side's own cards."), ready)

    def action_undo(self) -> None:
        if self.session is None or self.busy or self._read_only():
            return
        try:
            entry = self.session.undo()
        except NotSaved as exc:
            self.refused(exc)
            self.show()
            return
        except (EngineError, SaveError) as exc:
            self.notify(inert(exc), title="Cannot undo", severity="warning", markup=False)
            return
        battle = self.session.battle
        undone = battle.types.from_dict(entry.command).plain(battle.state.names())
        self.query_one("#battle-log", RichLog).write(Text(inert(f"Undone: {undone}"), style="italic dim"))
        self.handed_over = None
        self.faces_asked = None
        self.ahead = []
        self.show()

    def action_end_battle(self) -> None:
        if self.session is None or self.busy or self._read_only():
            return
        if self.session.pending is None:
            self.open_post_battle()
            return
        from tui.screens.dialogs import ConfirmScreen

        def answer(value: str | None) -> None:
            if value == "end":
                assert self.session is not None
                self.session.end_by_agreement()
                self.open_post_battle()

        self.app.push_screen(
            ConfirmScreen(
                "End the battle now, as the players agree? The result is taken as it stands.",
                [("y", "end", "End it"), ("escape", "stay", "Keep playing")],
            ),
            answer,
        )

    def open_post_battle(self) -> None:
        from tui.screens.post_battle import PostBattleScreen

        assert self.session is not None
        self.app.push_screen(PostBattleScreen(self.session))

    def action_focus_log(self) -> None:
        self.query_one("#battle-log").focus()

    def action_focus_actions(self) -> None:
        self.query_one("#battle-actions").focus()


def _objective_label(objective: Any) -> str:
    """A scenario objective as the form offers it: its name, its VPs, who may take it."""
    from campaign.outcome import format_vp

    label = objective.name + (f" ({format_vp(objective.vp)} VP)" if objective.vp else "")
    return label + (f", {objective.side} only" if objective.side else "")


def action_options(legal: tuple[CommandSpec, ...] | list[CommandSpec]) -> list[Option]:
    """The actions list: one option per legal command (its id: the command's index). A
    model's run of commands labelled "who: what" (FigWars: shoot each enemy with each
    weapon) goes under one heading line naming the model, each option saying only what:
    at 80 columns the list reads as a menu per model instead of wrapped lines."""
    options: list[Option] = []
    i = 0
    while i < len(legal):
        j, who = _run_of(legal, i)
        if j - i < 2:
            options.append(Option(Text(inert(legal[i].label or legal[i].type)), id=str(i)))
            i += 1
            continue
        options.append(Option(Text(inert(who), style="bold"), disabled=True))
        options.extend(Option(Text(" " + inert(legal[k].label[len(who) + 2 :])), id=str(k)) for k in range(i, j))
        i = j
    return options


def _run_of(legal: tuple[CommandSpec, ...] | list[CommandSpec], i: int) -> tuple[int, str]:
    """(the end of the run of commands from `i` for one model with one "who: " label
    prefix, that prefix); a command without either makes a run of one."""
    model = legal[i].params.get("model")
    who, colon, _ = legal[i].label.partition(": ")
    if not model or not colon:
        return i + 1, ""
    j = i + 1
    while j < len(legal) and legal[j].params.get("model") == model and legal[j].label.startswith(who + ": "):
        j += 1
    return j, who


def _unit_asked(pending: object) -> str:
    """The unit a decision is about when no unit is activating: the one every legal
    command names (a unit's morale, a leash, a seat), else none."""
    if not isinstance(pending, Decision) or not pending.legal:
        return ""
    named = {str(spec.params.get("unit") or "") for spec in pending.legal}
    return named.pop() if len(named) == 1 else ""


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns
