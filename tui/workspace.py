"""What the screens ask of `campaign` and `saves`, in one place.

The TUI holds no rules and reads no TOML itself: pricing and validation come from
the ruleset, files from `saves`. Parts of `saves` arrive while the TUI is being
built, so each call here imports lazily and says plainly when a piece is missing
instead of failing at import time.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

from campaign.costing import ElementCost, ForceCost
from campaign.findings import Finding
from campaign.force import Force, Unit
from campaign.frozen import frozen
from campaign.rulesets import Ruleset, get_ruleset, ruleset_ids


class Unavailable(RuntimeError):
    """A part of Muster this action needs is not installed or not written yet."""


def _optional(module: str) -> ModuleType | None:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise


def shown_path(path: Path) -> str:
    """A path as the player thinks of it: relative to where Muster started, else with ~ for home."""
    try:
        rel = path.resolve().relative_to(Path.cwd().resolve())
        return "./" + rel.as_posix() if rel.parts else "."
    except ValueError:
        pass
    try:
        return "~/" + path.resolve().relative_to(Path.home().resolve()).as_posix()
    except ValueError:
        return str(path)


# --- rulesets -----------------------------------------------------------------


def ruleset_for(force: Force) -> Ruleset:
    return get_ruleset(force.ruleset, force.edition)


def known_rulesets(playable: bool = False) -> list[tuple[str, str, tuple[str, ...]]]:
    """(id, display name, editions) of every registered ruleset; `playable`: only those
    some registered activation scheme can play (a campaign needs battles)."""
    from campaign.activation.registry import check_scheme_name
    from campaign.engine.scheme import scheme_names

    found = []
    for rid in ruleset_ids():
        if playable and all(check_scheme_name(name, rid) for name in scheme_names()):
            continue
        ruleset = get_ruleset(rid)  # its default edition comes first: the likeliest choice
        editions = sorted(ruleset.editions, key=lambda e: e != ruleset.edition)
        found.append((rid, ruleset.name or rid, tuple(editions)))
    return found


@frozen
class Priced:
    """A force with its price, or the reason it could not be priced."""

    cost: ForceCost | None
    findings: tuple[Finding, ...]
    problem: str = ""

    @property
    def total(self) -> float | None:
        return None if self.cost is None else self.cost.total


def price(force: Force, *, findings: bool = True) -> Priced:
    """Price and validate a force; a ruleset's failure becomes a message, not a crash.
    `findings=False`: the price alone (no findings; the dashboard shows only totals)."""
    try:
        ruleset = ruleset_for(force)
        cost = ruleset.price(force)
        found = tuple(ruleset.validate(force)) if findings else ()
    except NotImplementedError:
        return Priced(None, (), f"{force.ruleset} cannot price forces yet")
    except (KeyError, ValueError) as exc:
        return Priced(None, (), str(exc))
    except Exception as exc:  # noqa: BLE001 - a half-typed edit must never take the app down
        return Priced(None, (), f"{force.ruleset} could not price this force: {exc}")
    return Priced(cost, found)


def element_cost(priced: Priced, unit: int, element: int) -> ElementCost | None:
    if priced.cost is None:
        return None
    try:
        return priced.cost.units[unit].elements[element]
    except IndexError:
        return None


def sample_units(force: Force) -> list[tuple[str, Unit]]:
    """Every unit of the ruleset's sample forces for the force's edition: (source, unit)."""
    try:
        samples = ruleset_for(force).sample_forces()
    except (KeyError, ValueError):
        return []
    return [
        (sample.name, unit)
        for sample in samples
        if sample.edition in (None, force.edition)
        for unit in sample.units
    ]


def sample_forces(ruleset_id: str, edition: str | None = None) -> list[Force]:
    try:
        return list(get_ruleset(ruleset_id, edition).sample_forces())
    except (KeyError, ValueError):
        return []


def all_sample_forces() -> list[Force]:
    return [f for rid in ruleset_ids() for f in sample_forces(rid)]


# --- force files --------------------------------------------------------------


def _force_file() -> ModuleType:
    module = _optional("saves.force_file")
    if module is None:
        raise Unavailable("force files are not available in this build of Muster")
    return module


def load_force(path: Path) -> Force:
    """Read a force file; raises SaveError with a readable message."""
    return _force_file().load_force(path)


def save_force(path: Path, force: Force) -> None:
    _force_file().save_force(path, force)


def force_file_name(force: Force) -> str:
    slug = "".join(c if c.isalnum() else "-" for c in force.name.lower()).strip("-")
    return (slug or "force") + ".toml"


def open_campaign(folder: Path) -> Any:
    """Load a campaign folder (CampaignFolder: path, campaign, forces, scenarios, warnings)."""
    module = _optional("saves.campaign_file")
    if module is None:
        raise Unavailable("campaigns are not available in this build of Muster")
    from scenarios import builtin_scenario_ids

    return module.load_campaign(folder, builtin_scenario_ids())


def campaign_scenarios(folder: Path) -> dict[str, Any]:
    from scenarios import scenarios_for

    return scenarios_for(folder)


def track_scenarios(folder: Path, campaign: Any) -> dict[str, Any]:
    """The scenarios a campaign's track names, by id (the dashboard reads no others)."""
    from scenarios import scenarios_named

    return scenarios_named(folder, {step.scenario for step in campaign.track})


def builtin_scenarios() -> dict[str, Any]:
    from scenarios import builtin_scenarios as found

    return found()


def save_campaign_force(loaded: Any, side_id: str, force: Force) -> Any:
    """Write one side's force file as `loaded`'s holder, refused (StaleSave) if campaign.toml
    or the force changed on disk since `loaded` was read. Once a battle has been fought, what
    the force grew is paid from the side's banked reinforcements (CampaignError when the bank
    does not cover it). Returns the points spent."""
    from saves.campaign_file import save_reinforced_force

    return save_reinforced_force(loaded, side_id, force)


def hold_campaign(folder: Path, what: str, *, break_other_host: bool = False) -> Any:
    """This Muster's lease on the campaign (saves.lease.Lease); CampaignBusy if another holds it."""
    from saves.lease import acquire

    return acquire(folder, what, break_other_host=break_other_host)


def other_writer(folder: Path) -> str:
    """Who else holds the campaign for writing, in words ("" when nobody live does)."""
    from saves.lease import current_holder, held_here, holder_alive

    holder = current_holder(folder)
    if holder is None or holder_alive(holder) is False or held_here(holder):
        return ""
    return holder.describe()


def vp_series(campaign: Any) -> dict[str, list[float]]:
    """Each side's running VP total after every battle (0 before the first)."""
    battles = len(campaign.history)
    per_battle = {side.id: [0.0] * battles for side in campaign.sides}
    for line in campaign.ledger:
        if 1 <= line.battle <= battles and line.side in per_battle:
            per_battle[line.side][line.battle - 1] += float(line.vp)
    series = {}
    for side_id, values in per_battle.items():
        running, total = [0.0], 0.0
        for value in values:
            total += value
            running.append(total)
        series[side_id] = running
    return series


def battle_log_lines(folder: Path, file: str) -> list[str]:
    """A battle file's log as readable lines (the report's wording)."""
    from saves.battle_file import load_battle_file
    from tui.cli.report import log_line

    battle = load_battle_file(folder / file)
    lines = [log_line(entry) for entry in battle.log] or ["(no commands logged)"]
    if battle.result is not None and battle.result.summary:
        lines.append(f"Result: {battle.result.summary}")
    return [*lines, *battle.warnings]


def write_report(loaded: Any) -> Path:
    """The Markdown campaign report (as `muster report`) written to report.md in the folder."""
    from saves.atomic import atomic_write_text
    from tui.cli.report import report_md

    from saves.lease import writing

    path = Path(loaded.path) / "report.md"
    with writing(loaded.path, getattr(loaded, "lease", None), what="report.md"):
        atomic_write_text(path, report_md(loaded))
    return path


def write_roster(force: Force, force_path: Path) -> tuple[Any, Path]:
    """The force's roster document, and its Markdown written beside the force file
    (<file>-roster.md), atomically."""
    from campaign.roster import roster
    from saves.atomic import atomic_write_text
    from tui.cli.roster import as_markdown

    doc = roster(force, ruleset_for(force))
    path = force_path.with_name(force_path.stem + "-roster.md")
    atomic_write_text(path, as_markdown(doc))
    return doc, path


def commit_campaign(folder: Path, message: str) -> str:
    """Commit the campaign folder to git if it is in a repository; returns what happened."""
    from saves.git import commit, in_git_repo

    if not in_git_repo(folder):
        return "This campaign folder is not in a git repository."
    # Muster's working files (the lease, the lock, a journal) are never part of the campaign,
    # even in a folder whose .gitignore predates them
    working = (".muster-lease.toml", ".muster.lock", ".muster-journal.toml")
    warnings = commit(folder, message, [".", *(f":(exclude){name}" for name in working)])
    return "; ".join(warnings) if warnings else "Committed."


# --- the demo -----------------------------------------------------------------


def demo_home() -> Path:
    """Where `muster --demo` keeps its copies when no folder is named: the user's data
    folder (platformdirs: ~/.local/share/muster/demos on Linux), never the current one."""
    import platformdirs

    return Path(platformdirs.user_data_dir("muster", appauthor=False)) / "demos"


def free_demo_folder(root: Path, name: str = "demo-campaign") -> Path:
    """The first of demo-campaign, demo-campaign-2, ... not yet in `root`: each copy is fresh."""
    folder, n = root / name, 1
    while folder.exists():
        n += 1
        folder = root / f"{name}-{n}"
    return folder


def demo_folder_name(ruleset: str = "") -> str:
    """A ruleset's demo goes in demo-RULESET (demo-figwars-3, ...), the default one in demo-campaign."""
    return f"demo-{ruleset}" if ruleset else "demo-campaign"


def write_demo(root: Path, ruleset: str = "", folder: Path | None = None) -> Path:
    """Write a fresh copy of the demo campaign under `root`, in `folder` (by default the
    first free one, see `free_demo_folder`); returns the folder."""
    folder = folder or free_demo_folder(root, demo_folder_name(ruleset))
    create_demo(root, ruleset, folder)
    return folder


def create_demo(root: Path, ruleset: str, folder: Path) -> Any:
    """Write a fresh copy of the demo campaign in `folder` under `root`; returns it as read
    back (CampaignFolder), or None when this build has no campaigns (then the folder holds
    the sample forces as force files, so `muster --demo` always shows something)."""
    root.mkdir(parents=True, exist_ok=True)
    module = _optional("scenarios.demo")
    if module is not None:
        return module.create_demo(folder, ruleset=ruleset)
    folder.mkdir(parents=True, exist_ok=True)
    if _optional("saves.force_file") is not None:
        for force in all_sample_forces():
            save_force(folder / force_file_name(force), force)
    return None
