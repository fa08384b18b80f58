"""The post-battle screen: the battle's outcome in one pass, then save it into the campaign.

What it shows comes from the campaign flow: `post_battle` (pure) previews VPs with
their breakdown, losses and recoveries, reinforcements and the next step; confirming
calls `saves.campaign_file.finish_battle`, which writes the result, forces and
campaign.toml as one change and commits when the campaign has git on. Recovery dice
come from the battle's dice mode: rolled here in auto mode, typed in table mode.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from campaign.campaigns import CampaignError, PostBattle, post_battle, recovery_dice_needed
from campaign.engine import AutoDice, RollRequest
from campaign.inert_text import inert
from campaign.outcome import format_vp
from tui.screens.base import MusterScreen
from tui.screens.battle_session import BattleSession

STYLES = Path(__file__).resolve().parent.parent / "styles"


def alive(force: Any) -> int:
    return sum(e.alive for u in force.units for e in u.elements)


def outcome_text(
    session: BattleSession,
    preview: PostBattle,
    faces: dict[str, list[int]],
    declared: dict[str, list[str]] | None = None,
    strategic: str | None = None,
) -> Text:
    """VPs with breakdown, casualties and survivors, campaign rules applied, and the next step."""
    loaded = session.loaded
    outcome = session.outcome()
    names = {side.id: inert(side.name) for side in loaded.campaign.sides}
    text = Text()
    text.append(inert(preview.events[0]) + "\n", style="bold")
    how = "ended by the players' agreement" if session.ended_by_agreement and session.pending is not None else (
        outcome.end_reason or "over")
    text.append(f"Rounds played: {outcome.rounds_played}; {inert(how)}\n", style="dim")
    for side_id, reason in session.overrides.items():  # a house rule let this muster through
        text.append(f"{names.get(side_id, inert(side_id))} mustered by override: {inert(reason)}\n", style="yellow")
    text.append("Declared (o): ", style="dim")
    said = [inert(f"{names.get(side, side)}: {', '.join(objs)}") for side, objs in (declared or {}).items() if objs]
    if strategic:
        said.append(inert(f"strategic winner {names.get(strategic, strategic)}"))
    text.append("; ".join(said) if said else "nothing yet", style="" if said else "dim")
    text.append("\n\n")

    text.append("Victory points\n", style="bold underline")
    for side in outcome.sides:
        text.append(f" {names.get(side.side, side.side)}", style="bold")
        text.append(f"  {format_vp(preview.entry.vps.get(side.side, side.vp))} VP\n")
        scored = {line.label for line in side.vp_lines}
        for line in side.vp_lines:
            text.append(f"   {format_vp(line.vp):>7}  {inert(line.label)}\n")
        for line in preview.campaign.ledger:
            if line.battle == preview.entry.battle and line.side == side.side and line.reason not in scored:
                text.append(f"   {format_vp(line.vp):>7}  {inert(line.reason)}\n")

    text.append("\nCasualties and survivors\n", style="bold underline")
    mustered = session.mustered
    for side in outcome.sides:
        # Counted over the units that took the field (the battle file's frozen roster), not
        # the force file, which may hold units left at home or have been edited since.
        fielded = alive(mustered[side.side]) if side.side in mustered else alive(loaded.forces[side.side])
        remain = fielded - preview.entry.losses.get(side.side, 0)
        text.append(f" {names.get(side.side, side.side)}", style="bold")
        text.append(f"  {remain} of {fielded} elements remain"
                    f" ({preview.entry.losses.get(side.side, 0)} lost, "
                    f"{preview.entry.recovered.get(side.side, 0)} recovered)\n")
        for casualty in side.casualties:
            if casualty.lost:
                text.append(f"   {inert(casualty.unit)}: {casualty.lost} x {inert(casualty.element)} fell\n")
        for unit in side.units_eliminated:
            text.append(f"   {inert(unit)} eliminated\n", style="red")

    text.append("\nCampaign rules\n", style="bold underline")
    rules = loaded.campaign.rules
    for side_id, rolled in faces.items():
        if rolled:
            text.append(f" {names.get(side_id, side_id)} recovery rolls (d{rules.recovery_die},"
                        f" {rules.recovery_target}+): {' '.join(map(str, rolled))}\n")
    for line in preview.events[1:-1]:
        text.append(f" {inert(line)}\n")
    old = {side.id: side.reinforcements for side in loaded.campaign.sides}
    for side in preview.campaign.sides:
        gained = side.reinforcements - old.get(side.id, 0)
        if gained:
            text.append(f" {inert(side.name)}: +{format_vp(gained)} reinforcement points"
                        f" (now {format_vp(side.reinforcements)})\n")
    if not rules.recovery_rolls and not any(s.reinforcements - old.get(s.id, 0) for s in preview.campaign.sides):
        text.append(" none this campaign\n", style="dim")

    text.append("\nNext\n", style="bold underline")
    text.append(f" {inert(preview.events[-1])}\n")
    return text


class PostBattleScreen(MusterScreen):
    """Review the outcome; S saves it into the campaign; then N starts the next battle."""

    HELP_TOPIC: ClassVar[str] = "post-battle"
    CSS_PATH = STYLES / "post_battle.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("s", "confirm", "Save result"),
        Binding("n", "next_battle", "Next battle"),
        Binding("o", "objectives", "Objectives"),
        Binding("r", "recovery", "Recovery dice"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self, session: BattleSession) -> None:
        super().__init__()
        self.session = session
        self.ruleset_id = session.battle.setup.ruleset
        self.faces: dict[str, list[int]] = {}
        self.preview: PostBattle | None = None
        self.saved: PostBattle | None = None
        self.declared: dict[str, list[str]] = {}  # side id -> objectives the players say it took
        self.strategic: str | None = None  # the side the players say completed its scenario aim

    def compose(self) -> ComposeResult:
        yield Static(Text("After the battle", style="bold"), id="post-title")
        with VerticalScroll(id="post-scroll", classes="panel"):
            yield Static(id="post-body")
        yield Static(id="post-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#post-scroll").border_title = Text(inert(self.session.scenario.name))  # a Text: never markup
        self.roll_recovery()

    # --- recovery dice ------------------------------------------------------------
    def needed(self) -> dict[str, int]:
        loaded = self.session.loaded
        return recovery_dice_needed(loaded.campaign, loaded.forces, self.session.outcome(), self.session.mustered)

    def roll_recovery(self) -> None:
        """Auto dice roll the recovery dice here (seeded by the battle); table dice ask for them."""
        die = self.session.loaded.campaign.rules.recovery_roll[0]
        needed = {side: n for side, n in self.needed().items() if n}
        if not self.session.table_dice:
            dice = AutoDice(seed=self.session.battle.setup.seed + 1)
            self.faces = {side: list(dice.draw(RollRequest(die, n, f"recovery, {side}"))) for side, n in needed.items()}
            self.faces.update({side: [] for side in self.needed() if side not in needed})
            self.update_preview()
            return
        self.faces = {side: [] for side in self.needed()}
        self._ask(list(needed.items()), die)

    def _ask(self, queue: list[tuple[str, int]], die: int, ahead: list[int] | None = None) -> None:
        """One prompt per side, or fewer: faces typed beyond one side's dice go to the next side's."""
        from tui.screens.battle_dialogs import FacesScreen

        if not queue:
            if ahead:
                self.notify(f"{len(ahead)} face(s) typed ahead were not needed: {' '.join(map(str, ahead))}",
                            title="Dice left over", severity="warning", markup=False)  # fmt: skip
            self.update_preview()
            return
        side, count = queue[0]
        name = self.session.side_name(side)
        request = RollRequest(die, count, f"recovery rolls for {name}'s losses")
        ahead = list(ahead or [])
        if len(ahead) >= count and all(1 <= f <= die for f in ahead[:count]):
            self.faces[side] = ahead[:count]
            self._ask(queue[1:], die, ahead[count:])
            return

        def typed(faces: list[int] | None) -> None:
            if faces is None:
                self.query_one("#post-status", Static).update(
                    Text("Recovery dice still to type: press R.", style="yellow"))
                return
            self.faces[side] = faces[:count]
            self._ask(queue[1:], die, faces[count:])

        self.app.push_screen(FacesScreen(request, ahead), typed)

    def action_objectives(self) -> None:
        """Declare the objectives taken and the strategic winner; the preview follows."""
        if self.saved is not None:
            self.notify("The result is saved already.", severity="warning")
            return
        from tui.screens.objectives_dialog import ObjectivesScreen, objective_rows

        scenario = self.session.scenario
        sides = [(side.id, side.name) for side in self.session.loaded.campaign.sides]
        rows = objective_rows(sides, tuple(scenario.roles), scenario.objectives)

        def declared(result: tuple[dict[str, list[str]], str | None] | None) -> None:
            if result is not None:
                self.declared, self.strategic = result
                self.update_preview()

        self.app.push_screen(ObjectivesScreen(sides, rows, self.declared, self.strategic), declared)

    def action_recovery(self) -> None:
        if self.session.table_dice and self.saved is None:
            self.roll_recovery()

    # --- preview and confirm ----------------------------------------------------------
    def scenario_names(self) -> dict[str, str]:
        """Scenario id -> name, built-in and the campaign's own, to name the next battle."""
        from scenarios import scenarios_for

        return {sid: s.name for sid, s in scenarios_for(self.session.loaded.path).items()}

    def update_preview(self) -> None:
        session = self.session
        loaded = session.loaded
        try:
            self.preview = post_battle(
                loaded.campaign, session.scenario, loaded.forces, session.outcome(),
                file=loaded.campaign.battle_in_progress, recovery_faces=self.faces,
                declared_objectives=self.declared, strategic_winner=self.strategic,
                scenario_names=self.scenario_names(), mustered=session.mustered,
            )  # fmt: skip
        except CampaignError as exc:
            self.query_one("#post-body", Static).update(Text(inert(exc), style="bold red"))
            return
        self.query_one("#post-body", Static).update(
            outcome_text(session, self.preview, self.faces, self.declared, self.strategic))
        self.query_one("#post-status", Static).update(
            Text("O declares objectives and a winner; S saves; Esc goes back to the battle.", style="dim"))

    def action_confirm(self) -> None:
        if self.preview is None and self.saved is None:
            self.notify("Type the recovery dice first (R).", severity="warning", markup=False)
            return
        if self.saved is not None or self.preview is None:
            return
        from saves.campaign_file import finish_battle

        session = self.session
        try:
            self.saved = finish_battle(
                session.loaded, session.scenario, session.outcome(), recovery_faces=self.faces,
                declared_objectives=self.declared, strategic_winner=self.strategic,
                scenario_names=self.scenario_names(),
            )  # fmt: skip
        except Exception as exc:  # a lock held elsewhere, a disk error: said plainly, nothing half-done
            self.notify(inert(exc), title="Not saved", severity="error", markup=False)
            return
        status = Text("Saved. ", style="bold green")
        if session.loaded.warnings:
            status.append(inert("; ".join(session.loaded.warnings)), style="yellow")
        if self.saved.campaign.finished:
            status.append("The campaign is over. Esc returns to the dashboard.")
        else:
            status.append("N starts the next battle; Esc returns to the dashboard.")
        self.query_one("#post-status", Static).update(status)

    def action_next_battle(self) -> None:
        if self.saved is None:
            self.notify("Save the result first (S).", severity="warning")
            return
        if self.saved.campaign.finished:
            self.notify("The campaign is over: there is no next battle.", severity="warning")
            return
        folder = self.session.loaded.path
        self._to_dashboard()
        self.app.brief_battle(folder)  # type: ignore[attr-defined]

    def action_back(self) -> None:
        if self.saved is None:
            self.session.ended_by_agreement = False
            self.app.pop_screen()
            return
        self._to_dashboard()

    def _to_dashboard(self) -> None:
        """Leave both the post-battle and the finished battle's screen."""
        from tui.screens.battle import BattleScreen

        self.app.pop_screen()
        if isinstance(self.app.screen, BattleScreen):
            self.app.screen.let_go()  # now, not when it unmounts: the next battle takes the lease at once
            self.app.pop_screen()
        reload = getattr(self.app.screen, "action_reload", None)
        if callable(reload):
            reload()
