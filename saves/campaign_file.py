"""Campaign folders: campaign.toml, forces/<side>.toml, battles/, scenarios/.

    my-campaign/
      campaign.toml              the Campaign record (saves below), format muster/1
      forces/<side>.toml         each side's force with its lasting state (saves/force_file.py)
      battles/NN-<scenario>.toml one battle each (saves/battle_file.py)
      scenarios/*.toml           the campaign's own scenarios (optional)

Every write goes through saves/lease.py: only the lease's holder (or, for a single
headless write, anyone while nobody holds it) writes, and a save given the folder it
loaded (`base`) first checks that the files it replaces are still the ones it read,
refusing (StaleSave, naming who wrote last) instead of overwriting. A post-battle save
changes several files; they are committed together through a journal: the new texts
go into .muster-journal.toml (atomically), then each file is replaced atomically,
then the journal is removed. A crash at any point leaves either the old files, or a
journal that the next load finishes, so the forces never disagree with the ledger.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from campaign.campaigns.flow import CampaignError, battle_options, check_campaign
from campaign.campaigns.model import (
    Branch,
    Campaign,
    CampaignRules,
    HistoryEntry,
    LedgerLine,
    Side,
    Spending,
    TrackStep,
)
from campaign.campaigns.scenario import Scenario
from campaign.findings import Finding
from campaign.force import Force
from saves.atomic import _fsync_dir, atomic_write_text, create_files
from saves.campaign_codec import compact, structure
from saves.errors import SaveError
from saves.file_kind import FileKind
from saves.force_file import dump_force, parse_force
from saves.lease import LEASE_NAME, Lease, StaleSave, digest, last_write, note_write, writing
from saves.lock import LOCK_NAME, campaign_lock
from saves.paths import check_inside, check_ref
from saves.toml_read import MAX_BATTLE_BYTES, line_of, parse_toml, read_bytes, read_text
from saves.toml_write import dumps
from saves.versions import Migration, format_name, upgrade

if TYPE_CHECKING:  # battles and the post-battle save take them (a new campaign's path does not)
    from campaign.campaigns.after_battle import PostBattle
    from campaign.campaigns.battle_plan import BattlePlan
    from campaign.outcome import BattleOutcome

KIND = "campaign"
FORMAT_VERSION = 1
FORMAT = format_name(FORMAT_VERSION)
CAMPAIGN_FILE = "campaign.toml"
JOURNAL = ".muster-journal.toml"

ORDER: dict[type, tuple[str, ...]] = {
    Campaign: (
        "name", "ruleset", "edition", "dice", "activation", "seed", "position", "battle_in_progress",
        "note", "options", "activation_options", "rules", "sides", "track", "ledger", "spent", "history",
    ),
    Spending: ("after_battle", "side", "points", "what"),
    Side: ("id", "name", "players", "reinforcements"),
    TrackStep: ("id", "scenario", "next", "branches"),
    Branch: ("when", "goto"),
    LedgerLine: ("battle", "side", "vp", "reason"),
    HistoryEntry: (
        "battle", "step", "scenario", "scenario_name", "file", "winner", "how", "summary",
        "vps", "losses", "units_lost", "recovered",
    ),
}  # fmt: skip
# Written even at their default, so a reader of campaign.toml sees every campaign rule.
KEEP: dict[type, frozenset[str]] = {
    Campaign: frozenset({"name", "ruleset", "dice", "activation", "seed", "position", "rules"}),
    CampaignRules: frozenset(attrs.fields_dict(CampaignRules)),
    Side: frozenset({"id", "name", "reinforcements"}),
    TrackStep: frozenset({"id", "scenario"}),
    Branch: frozenset({"when", "goto"}),
    LedgerLine: frozenset({"battle", "side", "vp"}),
    Spending: frozenset({"after_battle", "side", "points"}),
    HistoryEntry: frozenset({"battle", "step", "scenario", "scenario_name", "file", "winner", "vps"}),
}
TABLES = ("options", "activation_options", "rules", "sides", "track", "history", "history.vps", "history.losses")


@attrs.define
class CampaignFolder:
    path: Path
    campaign: Campaign
    forces: dict[str, Force]
    scenarios: dict[str, Scenario]  # the folder's own scenarios/*.toml
    warnings: list[str] = attrs.field(factory=list)
    migrated: bool = False
    seen: dict[str, str] = attrs.field(factory=dict)  # file -> digest of the text read: saves check it
    lease: Lease | None = None  # this Muster's hold on the campaign, while it has one

    def force_path(self, side_id: str) -> Path:
        return self.path / force_ref(side_id)


def force_ref(side_id: str) -> str:
    return f"forces/{side_id}.toml"


# --- text -----------------------------------------------------------------------


def dump_campaign(campaign: Campaign) -> str:
    body = compact(campaign, ORDER, KEEP)
    return dumps({"format": FORMAT, "kind": KIND, **body}, tables=TABLES)


def campaign_from_dict(
    data: dict[str, Any], file: str | Path, *, text: str | None = None, scenario_ids: set[str] | None = None
) -> Campaign:
    doc = upgrade(data, file, current=FORMAT_VERSION, migrations=MIGRATIONS, text=text)
    kind = doc.pop("kind", KIND)
    if kind != KIND:
        raise SaveError(file, f"this is a {kind!r} file, not a campaign", key="kind", expected='"campaign"')
    campaign = structure(doc, Campaign, file=file, text=text)
    problems = check_campaign(campaign, scenario_ids)
    for i, entry in enumerate(campaign.history):
        try:
            check_ref(file, f"history[{i}].file", entry.file)
        except SaveError as exc:
            problems.append((exc.key, exc.message))
    if campaign.battle_in_progress:
        try:
            check_ref(file, "battle_in_progress", campaign.battle_in_progress)
        except SaveError as exc:
            problems.append((exc.key, exc.message))
    if problems:
        key, message = problems[0]
        path = [int(p) if p.isdigit() else p for p in key.replace("]", "").replace("[", ".").split(".") if p]
        line = line_of(text, path) if text else None
        raise SaveError(file, message, key=key, line=line)
    return campaign


def parse_campaign(text: str, file: str | Path = CAMPAIGN_FILE, scenario_ids: set[str] | None = None) -> Campaign:
    return campaign_from_dict(parse_toml(text, file), file, text=text, scenario_ids=scenario_ids)


# --- the journal: several files replaced as one -------------------------------------


def _journal_files(folder: Path) -> dict[str, str] | None:
    path = folder / JOURNAL
    if not os.path.lexists(path):
        return None
    try:  # read as any save is: a regular file under a size limit (a FIFO must not hang us)
        data = parse_toml(read_text(path, 2 * MAX_BATTLE_BYTES), path)
    except SaveError:
        # A journal is written atomically, so a damaged one was never complete: ignore it.
        return {}
    files = data.get("files", [])
    return {f["path"]: f["text"] for f in files if isinstance(f, dict) and "path" in f and "text" in f}


def _roll_forward(folder: Path) -> bool:
    """Finish an interrupted multi-file save. Call under the lock. True if one was finished."""
    files = _journal_files(folder)
    if files is None:
        return False
    _apply_journal(folder, files)
    return bool(files)


def _apply_journal(folder: Path, files: Mapping[str, str]) -> None:
    """Replace each file by its text from the journal on disk, then remove the journal."""
    for rel, text in files.items():
        check_ref(folder / JOURNAL, "files.path", rel)
        atomic_write_text(folder / rel, text)
    os.unlink(folder / JOURNAL)
    _fsync_dir(folder)


def pending_save(folder: str | Path) -> str:
    """A warning if a save was interrupted and its journal waits for a writer ("" if none)."""
    files = _journal_files(Path(folder))
    return "" if files is None else _pending_journal_warning(Path(folder), files)


def _pending_journal_warning(folder: Path, files: Mapping[str, str]) -> str:
    if not files:
        return f"{folder / JOURNAL}: an unfinished journal (never complete, so ignored); the next save removes it"
    return (
        f"{folder / JOURNAL}: a save was interrupted before it finished ({', '.join(sorted(files))}); "
        "it is shown here as finished, and the next Muster that writes this campaign completes it on disk"
    )


def _check_unchanged(folder: Path, expected: Mapping[str, str]) -> None:
    """StaleSave if a file's text is no longer the one its digest was taken from (under the lock)."""
    for rel, seen in expected.items():
        if digest(_current(folder / rel)) != seen:
            who = last_write(folder)
            raise StaleSave(
                folder / rel,
                "changed on disk since this Muster read it" + (f" (last written: {who})" if who else ""),
                hint="nothing was saved; reload the campaign and make the change again",
            )


def write_files(
    folder: str | Path,
    files: Mapping[str, str],
    *,
    lease: Lease | None = None,
    expected: Mapping[str, str] | None = None,
    what: str = "a save",
) -> None:
    """Replace several files of the campaign folder as one change, as the lease's holder.

    `expected` maps files to the digest of the text the caller read ("" for none):
    if one differs now, StaleSave says so and nothing is written."""
    folder = Path(folder)
    for rel in files:
        check_ref(folder / JOURNAL, "files.path", rel)
        check_inside(folder, folder / rel)
    with writing(folder, lease):
        _roll_forward(folder)
        _sweep_temp_files(folder)
        _check_unchanged(folder, expected or {})
        current = {rel: _current(folder / rel) for rel in files}
        changed = {rel: text for rel, text in files.items() if current[rel] != text}
        if not changed:
            return
        if CAMPAIGN_FILE in changed and all(current[rel] is None for rel in changed):
            # a new campaign: until campaign.toml is in place the folder is no campaign,
            # so it goes last and no journal is needed
            create_files(folder, changed, last=CAMPAIGN_FILE)
        elif len(changed) == 1:
            (rel, text), = changed.items()
            atomic_write_text(folder / rel, text)
        else:
            import tomli_w  # a save of several files (a post-battle one), never a new campaign

            journal = tomli_w.dumps({"files": [{"path": rel, "text": text} for rel, text in changed.items()]})
            atomic_write_text(folder / JOURNAL, journal)
            # what a crash from here on leaves is finished from the journal by the next
            # writer; this one has the journal's texts at hand and need not read it back
            _apply_journal(folder, changed)
        note_write(folder, what)


def _sweep_temp_files(folder: Path) -> None:
    """Remove temporary files that a writer killed mid-save left behind (under the lock)."""
    for sub in (folder, folder / "forces", folder / "battles", folder / "scenarios"):
        for tmp in sub.glob(".*.tmp"):
            try:
                tmp.unlink()
            except OSError:
                pass


def _current(path: Path) -> str | None:
    try:
        return read_bytes(path, MAX_BATTLE_BYTES).decode("utf-8")
    except (SaveError, UnicodeDecodeError):
        return None


# --- loading ----------------------------------------------------------------------


def load_campaign(
    folder: str | Path, scenarios: Collection[str] | None = None, *, write: bool = False
) -> CampaignFolder:
    """Read a campaign folder: campaign.toml, every side's force, the folder's scenarios.

    `scenarios`, when given, are the scenarios available besides the folder's own
    (the built-in library), or just their ids; the track is checked against them. A save left half-done
    (a journal) is finished on disk only when `write` is set (a writer); a reader reads
    through the journal, says so, and changes nothing.
    """
    from saves.scenario_file import load_folder

    folder = Path(folder)
    if not (folder / CAMPAIGN_FILE).exists():
        if not folder.is_dir():
            raise SaveError(folder, "no such campaign folder")
        raise SaveError(folder / CAMPAIGN_FILE, "no campaign here", hint="create one with `muster new DIR`")
    warnings: list[str] = []
    journal = _journal_files(folder)
    overlay = journal or {}
    if journal is not None and write:
        try:
            with campaign_lock(folder):
                if _roll_forward(folder):
                    warnings.append(f"{folder}: finished a save that was interrupted")
            overlay = {}
        except SaveError:
            pass  # another Muster is writing: read through its journal instead
    elif journal is not None:
        warnings.append(_pending_journal_warning(folder, journal))

    seen: dict[str, str] = {}

    def text_of(rel: str) -> str:
        text = overlay[rel] if rel in overlay else read_text(check_inside(folder, folder / rel))
        seen[rel] = digest(text)
        return text

    for sub in ("forces", "battles", "scenarios"):
        check_inside(folder, folder / sub)
    for own_file in (folder / "scenarios").glob("*.toml"):
        check_inside(folder, own_file)

    own = load_folder(folder / "scenarios") if (folder / "scenarios").is_dir() else {}
    ids = set(own) | set(scenarios) if scenarios is not None else None
    file = folder / CAMPAIGN_FILE
    text = text_of(CAMPAIGN_FILE)
    data = parse_toml(text, file)
    migrated = data.get("format") != FORMAT
    campaign = parse_campaign(text, file, ids)
    for rel in [campaign.battle_in_progress, *(entry.file for entry in campaign.history)]:
        if rel:
            check_inside(folder, folder / rel)
    forces: dict[str, Force] = {}
    for side in campaign.sides:
        rel = force_ref(side.id)
        if rel not in overlay and not (folder / rel).exists():
            raise SaveError(folder / rel, f"side {side.id!r} has no force file", hint=f"add {rel}")
        forces[side.id] = parse_force(text_of(rel), folder / rel)
        if not _same_ruleset(forces[side.id].ruleset, campaign.ruleset):
            raise SaveError(
                folder / rel,
                f"the force is for {forces[side.id].ruleset!r}, the campaign plays {campaign.ruleset!r}",
                key="ruleset",
            )
    return CampaignFolder(folder, campaign, forces, own, warnings, migrated, seen)


def _same_ruleset(a: str, b: str) -> bool:
    """"fow" and "flat-out-war" name one ruleset (aliases)."""
    if a == b:
        return True
    from campaign.rulesets import get_ruleset

    try:
        return type(get_ruleset(a)) is type(get_ruleset(b))
    except (KeyError, ValueError):
        return False


# --- writing ----------------------------------------------------------------------


def save_campaign(
    folder: str | Path,
    campaign: Campaign,
    forces: Mapping[str, Force] | None = None,
    *,
    base: CampaignFolder | None = None,
    what: str = "a campaign save",
    also: Mapping[str, str] | None = None,
) -> None:
    """Write campaign.toml (and the given forces, and `also`: other files' whole new
    texts by relative path) as one change.

    With `base` (the folder as this Muster loaded it) the save uses its lease and is
    refused if campaign.toml or a force it replaces changed since; `base` then
    remembers the new texts, so the next save from it checks against them."""
    folder = Path(folder)
    files = {CAMPAIGN_FILE: dump_campaign(campaign)}
    for side_id, force in (forces or {}).items():
        files[force_ref(side_id)] = dump_force(force)
    files.update(also or {})
    if base is None:
        write_files(folder, files, what=what)
        return
    expected = {rel: base.seen[rel] for rel in files if rel in base.seen}
    write_files(folder, files, lease=base.lease, expected=expected, what=what)
    base.seen.update({rel: digest(text) for rel, text in files.items()})


def save_reinforced_force(folder: CampaignFolder, side_id: str, force: Force) -> Fraction:
    """Save a side's edited force between battles, paying for what it grew from the side's
    banked reinforcement points (campaign.toml and the force as one change). Returns the
    points spent; CampaignError (nothing written) when the bank does not cover them."""
    from campaign.campaigns.flow import force_changes, reinforcement_cost, ruleset_price, spend_reinforcements

    before = folder.forces[side_id]
    cost = reinforcement_cost(folder.campaign, before, force, ruleset_price(folder.campaign))
    campaign = folder.campaign
    if cost > 0:
        campaign = spend_reinforcements(campaign, side_id, cost, force_changes(before, force))
    what = f"{side_id}'s force" + (f", {cost} reinforcement points spent" if cost else "")
    save_campaign(folder.path, campaign, {side_id: force}, base=folder, what=what)
    folder.campaign = campaign
    folder.forces[side_id] = force
    return Fraction(cost)


def create_campaign_folder(
    folder: str | Path, campaign: Campaign, forces: Mapping[str, Force], scenarios: Sequence[Scenario] = ()
) -> Path:
    """A new campaign folder. Refuses a folder that already holds a campaign."""
    return new_campaign_folder(folder, campaign, forces, scenarios).path


def new_campaign_folder(
    folder: str | Path,
    campaign: Campaign,
    forces: Mapping[str, Force],
    scenarios: Sequence[Scenario] = (),
    *,
    forces_load_as_given: bool = False,
) -> CampaignFolder:
    """`create_campaign_folder`, returning the folder as `load_campaign` reads it back, from the
    texts just written rather than from the disk again (`muster --demo` shows it at once).

    `forces_load_as_given`: the caller knows its forces load back from their text as they
    are (the demos' built-in samples: tests/saves/test_campaign_file.py checks each demo
    folder against a load of it), so they are not read back from it before the write."""
    from saves.scenario_file import dump_scenario, parse_scenario

    folder = Path(folder)
    if (folder / CAMPAIGN_FILE).exists():
        raise SaveError(folder / CAMPAIGN_FILE, "a campaign is already here", hint="pick an empty folder")
    missing = [s.id for s in campaign.sides if s.id not in forces]
    if missing:
        raise SaveError(folder, f"no force for side(s) {', '.join(missing)}")
    files = {force_ref(side.id): dump_force(forces[side.id]) for side in campaign.sides}
    # a force the loader would refuse is refused now, before any write
    read = (
        {side.id: forces[side.id] for side in campaign.sides}
        if forces_load_as_given
        else {side.id: parse_force(files[force_ref(side.id)], folder / force_ref(side.id)) for side in campaign.sides}
    )
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "battles").mkdir(exist_ok=True)
    for scenario in scenarios:
        files[f"scenarios/{scenario.id}.toml"] = dump_scenario(scenario)
    files[".gitignore"] = f"{LOCK_NAME}\n{LEASE_NAME}\n{JOURNAL}\n.*.tmp\n"  # Muster's working files, not the campaign
    files[CAMPAIGN_FILE] = dump_campaign(campaign)
    write_files(folder, files, expected={CAMPAIGN_FILE: ""}, what="muster new")
    own = {s.id: parse_scenario(files[f"scenarios/{s.id}.toml"], folder / "scenarios" / f"{s.id}.toml") for s in scenarios}
    seen = {rel: digest(files[rel]) for rel in (CAMPAIGN_FILE, *(force_ref(side.id) for side in campaign.sides))}
    return CampaignFolder(folder, campaign, read, own, seen=seen)


def start_battle(
    folder: CampaignFolder,
    plan: BattlePlan,
    mustered: Mapping[str, Force],
    overrides: Mapping[str, str] | None = None,
) -> Path:
    """Write the battle file's setup (each side's frozen roster, and the reason given for
    any muster let through over the limit or with errors) and mark it in progress."""
    from saves.battle_file import BattleHeader, BattleSide, create_battle_file  # battles: not for `muster --demo`

    campaign = folder.campaign
    if campaign.battle_in_progress:
        raise CampaignError(f"battle {campaign.battle_in_progress} is still in progress")
    sides = tuple(
        BattleSide(side.id, side.name, plan.roles.get(side.id, ""), force_ref(side.id), mustered[side.id],
                   (overrides or {}).get(side.id, ""))  # fmt: skip
        for side in campaign.sides
    )
    header = BattleHeader(
        ruleset=campaign.ruleset,
        edition=campaign.edition,
        options=battle_options(campaign),
        sides=sides,
        scenario=plan.scenario,
        activation=plan.activation,
        activation_options=dict(plan.activation_options),
        seed=plan.seed,
        dice=campaign.dice,
        campaign=campaign.name,
        number=plan.number,
    )
    with writing(folder.path, folder.lease):
        _roll_forward(folder.path)  # a writer finishes a save a crash left (a reader saw it done)
        _check_unchanged(folder.path, {CAMPAIGN_FILE: folder.seen.get(CAMPAIGN_FILE, "")})
        path = create_battle_file(folder.path / plan.file, header)
        updated = attrs.evolve(campaign, battle_in_progress=plan.file)
        save_campaign(folder.path, updated, base=folder, what=f"battle {plan.number} started")
    folder.campaign = updated
    return path


def mustered_roster(folder: CampaignFolder) -> dict[str, Force]:
    """Each side's force as it took the field in the battle in progress (the battle file's
    frozen setup); empty when there is no battle or its file cannot be read (post_battle
    then maps losses by name alone)."""
    if not folder.campaign.battle_in_progress:
        return {}
    from saves.battle_file import load_battle_file

    try:
        battle = load_battle_file(folder.path / folder.campaign.battle_in_progress)
    except SaveError:
        return {}
    return {side.id: side.force for side in battle.header.sides if side.force is not None}


def finish_battle(
    folder: CampaignFolder,
    scenario: Scenario,
    outcome: BattleOutcome,
    *,
    strategic_winner: str | None = None,
    declared_objectives: Mapping[str, Sequence[str]] | None = None,
    recovery_faces: Mapping[str, Sequence[int]] | None = None,
    scenario_names: Mapping[str, str] | None = None,
) -> PostBattle:
    """The post-battle step on disk: the battle file with its result, the forces and
    campaign.toml replaced as one journaled change (a crash leaves all old or all new),
    then (if the campaign asks) a git commit."""
    from campaign.campaigns.after_battle import post_battle
    from saves import git
    from saves.battle_file import BattleResult, text_with_result

    campaign = folder.campaign
    if not campaign.battle_in_progress:
        raise CampaignError("no battle is in progress")
    done = post_battle(
        campaign,
        scenario,
        folder.forces,
        outcome,
        file=campaign.battle_in_progress,
        strategic_winner=strategic_winner,
        declared_objectives=declared_objectives,
        recovery_faces=recovery_faces,
        scenario_names=scenario_names,
        mustered=mustered_roster(folder),
    )
    entry = done.entry
    battle_path = folder.path / campaign.battle_in_progress
    result = BattleResult(outcome.digest, entry.winner, dict(entry.vps), entry.summary, outcome)
    with writing(folder.path, folder.lease):
        _roll_forward(folder.path)  # a writer finishes a save a crash left (a reader saw it done)
        _check_unchanged(folder.path, {rel: d for rel, d in folder.seen.items()})
        # The result goes in through the journal with campaign.toml and the forces; a result
        # already there (left by an older Muster that wrote it first) is replaced by this one.
        battle_text = text_with_result(battle_path, result)
        save_campaign(
            folder.path, done.campaign, done.forces, base=folder, what=f"battle {entry.battle} finished",
            also={campaign.battle_in_progress: battle_text},
        )  # fmt: skip
    folder.campaign, folder.forces = done.campaign, dict(done.forces)
    if campaign.rules.git_commits != "off":
        paths = [CAMPAIGN_FILE, campaign.battle_in_progress, *(force_ref(s.id) for s in campaign.sides)]
        folder.warnings += git.commit(folder.path, entry.summary, paths)
    return done


# --- migrations -------------------------------------------------------------------


def _campaign_0_to_1(doc: dict[str, Any]) -> dict[str, Any]:
    """muster/0: `ruleset = "id:edition"`, sides as a table keyed by id, the track as a
    plain list of scenario ids, `vp` totals per side instead of a ledger."""
    doc = dict(doc)
    ruleset = doc.get("ruleset", "")
    if isinstance(ruleset, str) and ":" in ruleset:
        doc["ruleset"], doc["edition"] = ruleset.split(":", 1)
    sides = doc.get("sides", {})
    if isinstance(sides, dict):
        doc["sides"] = [{"id": sid, **body} for sid, body in sides.items()]
    track = doc.get("track", [])
    if track and all(isinstance(s, str) for s in track):
        doc["track"] = [{"id": s, "scenario": s} for s in track]
        done = doc.pop("battles_fought", 0)
        doc["position"] = track[done] if done < len(track) else ""
    vp = doc.pop("vp", {})
    if vp:
        doc["ledger"] = [{"battle": 0, "side": sid, "vp": v, "reason": "carried over from muster/0"} for sid, v in vp.items()]
    return doc


MIGRATIONS: dict[int, Migration] = {0: _campaign_0_to_1}


# --- `muster validate` ------------------------------------------------------------


def looks_like_campaign(path: Path, data: dict[str, Any]) -> bool:
    return data.get("kind") == KIND or (path.name == CAMPAIGN_FILE and "sides" in data and "units" not in data)


def check_campaign_file(path: Path) -> list[Finding]:
    """Load the whole folder (campaign.toml, forces, own scenarios) and check battle files exist."""
    from scenarios import builtin_scenarios

    folder = load_campaign(path.parent, builtin_scenarios())
    findings = [Finding("warning", "campaign", w) for w in folder.warnings]
    for i, entry in enumerate(folder.campaign.history):
        if entry.file and not (folder.path / entry.file).exists():
            findings.append(Finding("error", "campaign", f"battle file {entry.file} is missing", f"history[{i}].file"))
    if folder.migrated:
        findings.append(Finding("info", "campaign", "written in an older format; saving it will upgrade it", "format"))
    return findings


FILE_KIND = FileKind("campaign", looks_like_campaign, check_campaign_file, order=50)
