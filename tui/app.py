"""The Muster Textual application: screens, themes, and the hooks between them.

Screens ask the app to open each other (`open_force`, `open_campaign`,
`start_battle`...) so that no screen imports another's internals, and the battle
screens can plug in later without touching the dashboard.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType

from campaign.force import Force
from campaign.inert_text import inert
from tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.screen import Screen

    from tui.screens.dashboard import DashboardScreen

STYLES = Path(__file__).parent / "styles"
DEMO_NOTICE_SECONDS = 5  # "demo written to": long enough to read, short enough to free the Forces panel
DEMO_BLANK_SECONDS = 0.3  # --demo: drawn loading if the demo is not written by then
GC_PAUSE_LIMIT = 2.0  # seconds: the cycle collector resumes by then whatever the first screen does


def muster_commands() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens (issue 17: start-up)."""
    from tui.commands import MusterCommands

    return MusterCommands


class MusterApp(App[None]):
    TITLE = "Muster"
    # The first screen's styles, and the dialogs' (read first: the battle and post-battle sheets
    # override their .dialog rules). The other screens' are each screen's CSS_PATH, read when
    # it first opens (campaigns, force builder, help...; issue 17: start-up).
    CSS_PATH: ClassVar = [STYLES / "app.tcss", STYLES / "dialogs.tcss", STYLES / "dashboard.tcss"]
    COMMANDS: ClassVar = {muster_commands}  # Textual's system commands come through it, after Muster's
    # Breakpoint classes on every screen drive the "terminal too small" notice (styles/app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-wide-enough")]
    VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-tall-enough")]
    # A maximized widget keeps the footer below it, Textual's and Muster's (not a Footer).
    ALLOW_IN_MAXIMIZED_VIEW: ClassVar[str] = "Footer, MusterFooter"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", show=False),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False),
    ]

    def __init__(
        self, folder: str | Path = ".", demo: bool = False, *, demo_root: Path | None = None, demo_ruleset: str = ""
    ) -> None:
        super().__init__()
        self.folder = Path(folder).expanduser().resolve()
        self.demo = demo
        self.demo_root = demo_root  # where --demo writes its copy; None: the user's data folder
        self.demo_ruleset = demo_ruleset  # whose demo ("": Flat Out War's)
        # True when `muster` paused the cycle collector for start-up (tui/cli): it resumes
        # once the first screen is drawn (`resume_gc`).
        self.gc_paused = False
        self.demo_dashboard: DashboardScreen | None = None  # --demo's first screen
        self.demo_shown = False

    def get_default_screen(self) -> Screen[Any]:
        from tui.screens.base import BlankScreen

        return BlankScreen(id="_default")

    def on_mount(self) -> None:
        if self.gc_paused:
            self.set_timer(GC_PAUSE_LIMIT, self.resume_gc)
        if self.demo:
            self.open_demo()
        else:
            self.show_campaigns(self.folder)
            self.call_after_refresh(self.resume_gc)

    def resume_gc(self) -> None:
        """Start-up is over: what it built (Textual's classes and styles, the first screen)
        lives on, so it is frozen out of later collections, and the collector resumes."""
        if self.gc_paused:
            self.gc_paused = False
            gc.freeze()
            gc.enable()

    def show_campaigns(self, folder: Path) -> None:
        """The campaigns list of `folder` as the first screen (in place of the current one, if any)."""
        from tui.screens.campaigns import CampaignsScreen

        screen = CampaignsScreen(folder)
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    # --- hooks the screens call --------------------------------------------------
    def open_force(
        self,
        force: Force,
        path: Path | None,
        on_save: Callable[[Force], None] | None = None,
        *,
        new_in: Path | None = None,
        bank: Callable[[Force], object] | None = None,
    ) -> None:
        """The force builder on `force`: saved to `path`, through `on_save`, or as a new
        file in the folder `new_in` (named after the force; an existing file is never replaced).
        `bank` gives the line about a campaign side's reinforcement points the builder shows."""
        from tui.screens.force_builder import ForceBuilderScreen

        self.push_screen(ForceBuilderScreen(force, path, on_save, new_in=new_in, bank=bank))  # type: ignore[arg-type]

    def open_campaign(self, folder: Path) -> None:
        from tui.screens.dashboard import DashboardScreen

        self.push_screen(DashboardScreen(folder))

    def new_campaign(self, folder: Path) -> None:
        from tui.screens.new_campaign import NewCampaignScreen

        def created(path: Path | None) -> None:
            if path is not None:
                self.open_campaign(path)

        self.push_screen(NewCampaignScreen(folder), created)

    def brief_battle(self, campaign_folder: Path) -> None:
        """The dashboard's "next battle": the scenario's briefing, then the muster screen,
        then the battle (a battle already in progress is resumed at once)."""
        from tui.screens.briefing import BriefingScreen

        self.push_screen(BriefingScreen(campaign_folder))

    def start_battle(self, campaign_folder: Path) -> None:
        """The battle screen on the campaign's battle in progress, or on the next battle
        with every survivor mustered (scripts and tests; players come through `brief_battle`).

        The battle screen plugs in here: `tui/screens/battle.py` providing
        `BattleScreen(campaign_folder: Path)`. Until it exists the app says so.
        """
        try:
            from tui.screens.battle import BattleScreen
        except ModuleNotFoundError:
            self.notify("The battle screen is not part of this build yet.", severity="warning")
            return
        self.push_screen(BattleScreen(campaign_folder))

    # --- app-wide actions --------------------------------------------------------
    def active_ruleset(self) -> str | None:
        """The ruleset of whatever the current screen shows, for help."""
        for screen in reversed(self.screen_stack):
            force = getattr(screen, "force", None)
            if force is not None:
                return force.ruleset
            ruleset = getattr(screen, "ruleset_id", None)
            if ruleset:
                return ruleset
        return None

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen, self.active_ruleset()))

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    def open_demo(self) -> None:
        """`muster --demo`: the dashboard comes first, drawn once a worker has written the
        fresh demo campaign (or drawn loading if that takes a while). The campaigns list is
        built only when the player goes back to it: nothing else is drawn first."""
        from tui import workspace
        from tui.screens.dashboard import DashboardScreen

        try:
            root = self.demo_root or workspace.demo_home()
            folder = workspace.free_demo_folder(root, workspace.demo_folder_name(self.demo_ruleset))
        except Exception as exc:  # shown to the user, over the campaigns list
            self.demo_failed(exc)
            return
        self.demo_dashboard = DashboardScreen(folder, reads=False)
        self.set_timer(DEMO_BLANK_SECONDS, self.show_demo)
        self.make_demo(root, folder)

    @work(thread=True, exclusive=True, group="demo")
    def make_demo(self, root: Path, folder: Path) -> None:
        """Write a fresh demo campaign (in a worker: it writes several files) for the
        dashboard, which shows it as written (the folder is not read again)."""
        from tui import workspace
        from tui.screens.dashboard import read_campaign

        try:
            loaded = workspace.create_demo(root, self.demo_ruleset, folder)
            shown = None if loaded is None else read_campaign(folder, loaded)
        except Exception as exc:  # shown to the user; the campaigns list comes instead
            self.call_from_thread(self.demo_failed, exc)
            return
        if shown is None:  # a build without campaigns: force files only
            self.call_from_thread(self.demo_failed, None, folder.parent)
            return
        self.call_from_thread(self.demo_ready, *shown)

    def show_demo(self) -> None:
        """The demo's dashboard on screen (once): with its campaign when the worker has
        handed it over, else loading until it does."""
        if self.demo_dashboard is not None and not self.demo_shown:
            self.demo_shown = True
            self.push_screen(self.demo_dashboard)

    def demo_ready(self, loaded: Any, scenarios: dict[str, Any]) -> None:
        if self.demo_dashboard is None:
            return
        self.demo_dashboard.hand(loaded, scenarios)
        self.show_demo()
        # Said briefly: the toast sits over the Forces panel, and the campaigns list
        # (Escape) shows the folder for good. It comes once the dashboard is drawn: its
        # own mount and layout would otherwise hold the first frame back.
        self.call_after_refresh(self.demo_notice, loaded.path)
        self.call_after_refresh(self.resume_gc)

    def demo_notice(self, path: Path) -> None:
        self.notify(inert(f"A fresh demo campaign was written to {path}"), markup=False, timeout=DEMO_NOTICE_SECONDS)

    def demo_failed(self, exc: Exception | None, folder: Path | None = None) -> None:
        """The campaigns list instead of the demo (of `folder`, else the one Muster was opened on)."""
        self.demo_dashboard = None
        self.show_campaigns(folder or self.folder)
        if exc is not None:
            self.notify(inert(exc), title="No demo", severity="error", markup=False)
        self.call_after_refresh(self.resume_gc)


def app_for(folder: str | None = None, demo: bool = False, demo_ruleset: str = "") -> MusterApp:
    """The app for `muster [DIR] [--demo [RULESET]]`: a demo copy goes into DIR when one
    is named, else into the user's data folder (never wherever the terminal happens to be)."""
    root = Path(folder).expanduser() if demo and folder else None
    return MusterApp(folder or ".", demo=demo, demo_root=root, demo_ruleset=demo_ruleset)


def run_app(folder: str | None = None, demo: bool = False, demo_ruleset: str = "", *, gc_paused: bool = False) -> int:
    """Run the TUI; `gc_paused`: the caller paused the cycle collector for start-up (the app resumes it)."""
    app = app_for(folder, demo, demo_ruleset)
    app.gc_paused = gc_paused
    app.run()
    return 0
