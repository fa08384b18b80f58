"""The new-campaign wizard: basics, sides and forces, scenario track, campaign rules.

Four short pages (ctrl+n / ctrl+b move between them, ctrl+s creates). The campaign is
built by `campaign.campaigns.create_campaign`, which checks it, and written by
`saves.campaign_file.create_campaign_folder`; their messages are shown as they are.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import ContentSwitcher, Input, Label, Select, SelectionList, Static
from textual.widgets.selection_list import Selection

from campaign.campaigns import CampaignError, CampaignRules, Side, TrackStep, create_campaign
from campaign.force import Force
from campaign.engine.scheme import scheme_names
from campaign.activation import DEFAULT_SCHEME
from campaign.rulesets import ruleset_class
from campaign.inert_text import control_problem, inert
from saves.errors import SaveError
from tui import folder_scan, workspace
from tui.widgets.footer import MusterFooter
from tui.screens.base import STYLES, MusterScreen
from tui.screens.element_editor import labelled
from tui.widgets.header import MusterHeader

PAGES = ("page-basics", "page-sides", "page-track", "page-rules")
PAGE_TITLES = dict(zip(PAGES, ("1 Basics", "2 Sides and forces", "3 Scenario track", "4 Campaign rules")))
MAX_SIDES = 4
TIE_BREAKS = ("battles-won", "last-battle", "draw")
GIT_MODES = ("off", "battle", "activation")


def slug(text: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def plain_options(values: list[tuple[str, Any]]) -> list[tuple[Text, Any]]:
    return [(Text(inert(label)), value) for label, value in values]


class NewCampaignScreen(MusterScreen[Path]):
    """Dismisses with the new campaign's folder, or None when backed out."""

    CSS_PATH = STYLES / "campaigns.tcss"

    HELP_TOPIC = "new-campaign"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+n", "page(1)", "Next step"),
        Binding("ctrl+b", "page(-1)", "Previous step"),
        Binding("ctrl+s", "create", "Create"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.rulesets = [(rid, name, ed) for rid, name, eds in workspace.known_rulesets(playable=True) for ed in (eds or (None,))]
        self.touched = False

    def compose(self) -> ComposeResult:
        yield MusterHeader()
        yield Static(id="wizard-steps")
        with ContentSwitcher(initial="page-basics", id="wizard"):
            with VerticalScroll(id="page-basics"):
                yield labelled("Name", Input(placeholder="e.g. The Hive War", id="c-name", compact=True))
                yield labelled("Folder", Input(placeholder="folder name (from the name)", id="c-folder", compact=True))
                rulesets = [(f"{name} {ed or ''}".strip(), i) for i, (_rid, name, ed) in enumerate(self.rulesets)]
                yield labelled("Ruleset", Select(plain_options(rulesets), value=0, id="c-ruleset", compact=True,
                                                 allow_blank=False))
                yield labelled("Dice", Select(plain_options([("auto: Muster rolls", "auto"),
                                                             ("table: type real dice", "table")]),
                                              value="auto", id="c-dice", compact=True, allow_blank=False))
                yield labelled("Activation", Select(plain_options([(n, n) for n in scheme_names()]),
                                                    value=DEFAULT_SCHEME, id="c-activation", compact=True,
                                                    allow_blank=False))
            with VerticalScroll(id="page-sides"):
                yield Label(Text("Two to four sides, each with its force and players. A side without a name "
                                 "is left out.", style="dim"))  # fmt: skip
                for i in range(MAX_SIDES):
                    with Horizontal(classes="field side-row"):
                        yield Label(f"Side {i + 1}", classes="field-label")
                        yield Input(placeholder="side name", id=f"c-side-{i}", compact=True)
                        yield Select([], id=f"c-force-{i}", compact=True, prompt="force")
                    with Horizontal(classes="field side-row"):
                        yield Label("  players", classes="field-label")
                        yield Input(placeholder="who plays it, e.g. Ann, Bo (optional)", id=f"c-players-{i}",
                                    compact=True)  # fmt: skip
            with Vertical(id="page-track"):
                yield Label(Text("Pick scenarios with space, in the order they are to be played.", style="dim"))
                yield SelectionList(id="c-track")
            with VerticalScroll(id="page-rules"):
                yield labelled("Per battle", Input("0", id="c-reinf-battle", compact=True, type="integer",
                                                   tooltip="reinforcement points per battle"))
                yield labelled("Per VP", Input("0", id="c-reinf-vp", compact=True, type="number",
                                               tooltip="reinforcement points per VP earned"))
                yield labelled("Recovery", Select(plain_options([("no recovery rolls", False),
                                                                 ("roll for each casualty", True)]),
                                                  value=False, id="c-recovery", compact=True, allow_blank=False))
                yield labelled("Tie-break", Select(plain_options([(t, t) for t in TIE_BREAKS]), value=TIE_BREAKS[0],
                                                   id="c-tie", compact=True, allow_blank=False))
                yield labelled("Git", Select(plain_options([(g, g) for g in GIT_MODES]), value="off", id="c-git",
                                             compact=True, allow_blank=False))
        yield Static(id="wizard-problem")
        yield MusterFooter()

    def on_mount(self) -> None:
        self.sub_title = "New campaign"
        self.fill_for_ruleset()
        self.show_steps()
        self.query_one("#c-name", Input).focus()

    # --- pages ---------------------------------------------------------------
    @property
    def page(self) -> str:
        return self.query_one(ContentSwitcher).current or PAGES[0]

    def show_steps(self) -> None:
        text = Text()
        for page in PAGES:
            text.append(f" {PAGE_TITLES[page]} ", style="reverse bold" if page == self.page else "dim")
            text.append(" ")
        text.append("  ctrl+n next · ctrl+b back · ctrl+s create", style="dim")
        self.query_one("#wizard-steps", Static).update(text)

    def action_page(self, step: int) -> None:
        index = max(0, min(len(PAGES) - 1, PAGES.index(self.page) + step))
        self.query_one(ContentSwitcher).current = PAGES[index]
        self.show_steps()
        self.call_after_refresh(self.focus_page)

    def focus_page(self) -> None:
        page = self.query_one(f"#{self.page}")
        for widget in page.query("Input, Select, SelectionList"):
            if widget.focusable:
                widget.focus()
                return

    # --- what the pages offer depends on the ruleset ---------------------------
    def ruleset(self) -> tuple[str, str, str | None]:
        value = self.query_one("#c-ruleset", Select).value
        return self.rulesets[value if isinstance(value, int) else 0]

    def force_choices(self) -> list[tuple[str, Force]]:
        rid, _name, edition = self.ruleset()
        choices = [(f"sample: {f.name}", f) for f in workspace.sample_forces(rid, edition)]
        for entry in folder_scan.scan(self.folder):
            if entry.kind == "force":
                try:
                    force = workspace.load_force(entry.path)
                except Exception:  # noqa: BLE001 - an unreadable file is simply not offered
                    continue
                if force.ruleset == rid and force.edition in (None, edition):
                    choices.append((f"file: {entry.path.name}", force))
        return choices

    def fill_for_ruleset(self) -> None:
        rid = self.ruleset()[0]
        # the ruleset's own activation scheme, when it names one that is registered
        preferred = ruleset_class(rid).default_activation or DEFAULT_SCHEME
        if preferred in scheme_names():
            self.query_one("#c-activation", Select).value = preferred
        self.forces = self.force_choices()
        for i in range(MAX_SIDES):
            select = self.query_one(f"#c-force-{i}", Select)
            select.set_options(plain_options([(label, n) for n, (label, _f) in enumerate(self.forces)]))
            if i < 2 and len(self.forces) > i:
                select.value = i
        scenarios = [s for s in workspace.builtin_scenarios().values() if not s.rulesets or rid in s.rulesets]
        track = self.query_one("#c-track", SelectionList)
        track.clear_options()
        self.scenario_names = {s.id: s.name for s in scenarios}
        self.track_order: list[str] = []
        track.add_options([Selection(self.track_prompt(s.id), s.id, id=s.id) for s in scenarios])
        track.highlighted = 0 if scenarios else None

    def track_prompt(self, scenario_id: str) -> Text:
        """The order a scenario is played in, in text (not only colour: NO_COLOR must show it)."""
        text = Text()
        if scenario_id in self.track_order:
            text.append(f"{self.track_order.index(scenario_id) + 1:>2}. ", style="bold")
        else:
            text.append("  - ", style="dim")
        text.append(inert(f"{self.scenario_names[scenario_id]}  ({scenario_id})"))
        return text

    @on(SelectionList.SelectedChanged, "#c-track")
    def _track_changed(self) -> None:
        track = self.query_one("#c-track", SelectionList)
        chosen = set(track.selected)
        self.track_order = [s for s in self.track_order if s in chosen]
        self.track_order += [s for s in track.selected if s not in self.track_order]
        for scenario_id in self.scenario_names:
            track.replace_option_prompt(scenario_id, self.track_prompt(scenario_id))

    @on(Select.Changed, "#c-ruleset")
    def _ruleset_changed(self) -> None:
        if self.is_mounted:
            self.fill_for_ruleset()

    @on(Input.Changed)
    @on(Select.Changed)
    @on(SelectionList.SelectedChanged)
    def _touched(self) -> None:
        self.touched = True

    @on(Input.Submitted)
    def _next_field(self) -> None:
        self.focus_next()

    def has_unsaved(self) -> bool:
        return self.touched

    def save(self) -> bool:
        self.create()
        return False  # a created campaign has already dismissed the wizard

    def leave(self) -> None:
        self.dismiss(None)

    # --- creating ------------------------------------------------------------
    def build(self) -> tuple[Any, dict[str, Force], Path]:
        """The campaign, its forces and its folder, from the form; CampaignError if incomplete."""
        q = self.query_one
        name = q("#c-name", Input).value.strip()
        if not name:
            raise CampaignError("the campaign needs a name (page 1)")
        folder_name = slug(q("#c-folder", Input).value.strip() or name) or "campaign"
        rid, _rname, edition = self.ruleset()
        sides, forces = [], {}
        for i in range(MAX_SIDES):
            side_name = q(f"#c-side-{i}", Input).value.strip()
            if not side_name:
                continue
            side_id = slug(side_name) or f"side-{i + 1}"
            if side_id in forces:
                raise CampaignError(f"two sides are called {side_name!r} (page 2)")
            choice = q(f"#c-force-{i}", Select).value
            if not isinstance(choice, int):
                raise CampaignError(f"side {side_name!r} has no force (page 2)")
            players = tuple(p.strip() for p in q(f"#c-players-{i}", Input).value.split(",") if p.strip())
            for player in players:
                problem = control_problem(player)
                if problem:
                    raise CampaignError(f"side {side_name!r}: a player's name: {problem} (page 2)")
            sides.append(Side(side_id, side_name, players))
            forces[side_id] = self.forces[choice][1]
        if len(sides) < 2:
            raise CampaignError("a campaign needs at least two sides (page 2)")
        track_ids = list(self.track_order)
        if not track_ids:
            raise CampaignError("pick at least one scenario (page 3)")
        steps = [TrackStep(sid, sid) for sid in track_ids]
        try:
            per_vp = Fraction(q("#c-reinf-vp", Input).value or "0")
        except (ValueError, ZeroDivisionError):
            raise CampaignError("reinforcement per VP must be a number (page 4)") from None
        rules = CampaignRules(
            reinforcement_per_battle=int(q("#c-reinf-battle", Input).value or 0),
            reinforcement_per_vp=per_vp,
            recovery_rolls=bool(q("#c-recovery", Select).value),
            tie_break=q("#c-tie", Select).value,  # type: ignore[arg-type]
            git_commits=q("#c-git", Select).value,  # type: ignore[arg-type]
        )
        campaign = create_campaign(
            name, rid, sides, steps, edition=edition,
            dice=str(q("#c-dice", Select).value), activation=str(q("#c-activation", Select).value),
            rules=rules, seed=random.SystemRandom().randrange(1, 2**31),
            scenario_ids=set(workspace.builtin_scenarios()),
        )  # fmt: skip
        return campaign, forces, self.folder / folder_name

    def create(self) -> Path | None:
        from saves.campaign_file import create_campaign_folder

        problem = self.query_one("#wizard-problem", Static)
        try:
            campaign, forces, folder = self.build()
            path = create_campaign_folder(folder, campaign, forces)
        except (CampaignError, SaveError) as exc:
            problem.update(Text(inert(exc), style="bold red"))
            return None
        except OSError as exc:  # a read-only or full disk: said on the page, nothing half-written
            problem.update(Text(inert(f"Cannot write {exc.filename or self.folder}: {exc.strerror or exc}"), style="bold red"))
            return None
        self.dismiss(path)
        return path

    def action_create(self) -> None:
        self.create()
