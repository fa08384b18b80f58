"""The battle screen's link to `campaign` and `saves`: one battle of one campaign folder.

No Textual here and no rules: the session starts or resumes the campaign's battle
(campaign flow + battle file), forwards the player's verbs to the engine, keeps the
battle file in step (an entry is appended once its command has all its dice), and
remembers the last answer to each table fact (never a hidden one). The screen renders
what it exposes.

A session opened with the campaign's lease writes; one opened without it (another
Muster holds the campaign) is read-only: it refuses every verb, and the screen
reopens it as the writer appends, to follow the battle live.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from campaign.campaigns import BattlePlan, muster, plan_battle
from campaign.engine.report import OddsReport
from campaign.engine import Battle, Command, CommandSpec, Decision, FactSpec, RollRequest
from campaign.engine.dice import DiceSource
from campaign.engine.events import Event
from saves.battle_file import append_log, drop_last_log, dump_header, load_battle_file
from saves.campaign_file import CampaignFolder, load_campaign, start_battle
from saves.errors import SaveError
from saves.lease import Lease, LeaseLost, StaleSave, writing
from saves.snapshot_cache import open_battle, save_snapshot


class NothingToWatch(SaveError):
    """A read-only session was asked for, and the campaign has no battle in progress."""


class NotSaved(Exception):
    """An append or undo the disk refused: the session went back to what the file holds."""


def _library(folder: Path) -> dict[str, Any]:
    from scenarios import scenarios_for

    return scenarios_for(folder)


class BattleSession:
    """A battle in progress, tied to its file. Build it with `open` (it may replay a long log)."""

    def __init__(
        self, loaded: CampaignFolder, path: Path, battle: Battle, plan: BattlePlan | None, dice: DiceSource | None = None
    ) -> None:
        self.loaded = loaded
        self.path = path
        self.battle = battle
        self.plan = plan
        self.dice = dice
        self.warnings: list[str] = []  # for the player: torn tails cut, files rewritten (see take_warnings)
        count = battle.log_length
        self.written = count if self._complete(count) else count - 1
        # (side, unit, command type, fact) -> that side's last answer for that unit's command:
        # one unit's allocation never prefills another's form, nor another side's
        self.memory: dict[tuple[str, str, str, str], Any] = {}
        self.choices: dict[tuple[str, str, tuple[str, ...]], str] = {}  # a decision's situation -> the choice made
        self.broken = ""  # why the session cannot go on (the file could not be read back)
        self.ended_by_agreement = False
        self.size = _size(path)  # the battle file as this session last read or wrote it
        self.setup_text = ""  # the battle file's setup as written: names its snapshot cache
        self.cached = -1  # the log entry of the newest snapshot cached (saves/snapshot_cache.py)
        self.overrides: dict[str, str] = {}  # side id -> why its muster was let through (the battle file's setup)

    # --- opening ----------------------------------------------------------------
    @classmethod
    def open(
        cls,
        folder: str | Path,
        dice: DiceSource | None = None,
        progress: Callable[[int, int], None] | None = None,
        lease: Lease | None = None,
    ) -> BattleSession:
        """Resume the battle in progress in `folder`, or plan, muster and start the next one.

        `progress` hears (entries replayed, total) while a logged battle is rebuilt.
        Without `lease` the session only reads: it watches the battle in progress."""
        from tui.cli.replay import battle_setup

        folder = Path(folder)
        library = _library(folder)
        loaded = load_campaign(folder, library, write=lease is not None)  # only a writer finishes a journal
        loaded.lease = lease
        camp = loaded.campaign
        plan = None
        if camp.battle_in_progress:
            path = folder / camp.battle_in_progress
        elif lease is None:
            raise NothingToWatch(folder, "no battle is in progress to watch")
        else:
            plan = plan_battle(camp, library | loaded.scenarios)
            mustered = {side: muster(plan, force) for side, force in loaded.forces.items()}
            path = start_battle(loaded, plan, mustered)
        file = load_battle_file(path)
        setup = battle_setup(file)
        if file.log:  # from the newest cached snapshot and the log after it, or a whole replay
            battle = open_battle(file, setup, dice, progress)
            session = cls(loaded, path, battle, plan, dice)
            session.written = len(file.log)
        else:
            battle = Battle.start(setup, dice, checkpoints=True)
            session = cls(loaded, path, battle, plan, dice)
            session.written = 0
        session.setup_text = dump_header(file.header)
        session.overrides = {side.id: side.override for side in file.header.sides if side.override}
        session.cached = battle.checkpoint_entry if battle.checkpoint_entry is not None else -1
        session.warnings += [*loaded.warnings, *file.warnings]  # a torn tail dropped on resume is said
        if not file.log and lease is not None:
            session.sync()
        return session

    def take_warnings(self) -> list[str]:
        """The warnings the player has not been shown yet (and forget them)."""
        warnings, self.warnings = self.warnings, []
        return warnings

    def _back_to_disk(self, error: Exception) -> NotSaved:
        """The disk refused a change: rebuild the battle from what the file holds, so the
        screen never carries on from a step that is not saved."""
        from tui.cli.replay import battle_setup

        message = f"Not saved: {error}"
        try:
            file = load_battle_file(self.path)
            setup = battle_setup(file)
            self.battle = (open_battle(file, setup, self.dice) if file.log
                           else Battle.start(setup, self.dice, checkpoints=True))
            self.written = len(file.log)
            self.size = _size(self.path)
        except Exception as exc:  # the file cannot be read back either: nothing can go on
            self.broken = f"{message}; the battle file cannot be read back ({exc}): close the battle and reopen it"
            return NotSaved(self.broken)
        return NotSaved(f"{message}. The battle is back at its last saved step.")

    def _check_usable(self) -> None:
        if self.broken:
            raise NotSaved(self.broken)

    @property
    def lease(self) -> Lease | None:
        return self.loaded.lease

    @property
    def read_only(self) -> bool:
        return self.loaded.lease is None

    def _writable(self) -> None:
        if self.loaded.lease is None:
            raise LeaseLost(self.loaded.path, "read-only: another Muster is writing this campaign; this one watches")

    # --- what the screen shows --------------------------------------------------
    @property
    def mustered(self) -> dict[str, Any]:
        """Each side's force as it took the field (the battle file's frozen setup)."""
        return {side.id: side.force for side in self.battle.setup.sides}

    @property
    def scenario(self) -> Any:
        return self.battle.setup.scenario

    @property
    def pending(self) -> Decision | RollRequest | None:
        return self.battle.pending

    @property
    def table_dice(self) -> bool:
        return self.battle.dice.mode == "table"

    @property
    def cards(self) -> bool:
        return "cards" in self.battle.state.scheme

    def side_name(self, side_id: str) -> str:
        try:
            return self.battle.state.side(side_id).name
        except KeyError:
            return side_id

    def default(self, spec: CommandSpec, fact: FactSpec) -> Any:
        """The value a fact starts at in the form: the last answer the deciding side gave
        for this unit's command, else the rules' default. A remembered list of ids that
        names a unit or element no longer on the table (a dead model) is not offered."""
        pending = self.battle.pending
        side = pending.side if isinstance(pending, Decision) else ""
        key = (side, str(spec.params.get("unit", "")), spec.type, fact.name)
        remembered = self.memory.get(key, fact.default)
        if fact.choices and remembered not in fact.choices:
            return fact.default
        if isinstance(remembered, (list, tuple)):
            owner = {"unit_elements": "unit", "target_elements": "target"}.get(fact.picks, "")
            within = str(spec.params.get(owner, "")) if owner else ""  # another target's elements: not these
            if not all(self._on_table(i, within) for i in remembered):
                return fact.default
        return remembered

    def preferred(self, decision: Decision, labels: list[str]) -> int:
        """Where the choices start: at the one picked the last time this side met the same
        decision with the same choices (the next round's "shoot", then "end activation",
        are one Enter each), else at the first."""
        picked = self.choices.get((decision.side, decision.prompt, tuple(labels)))
        return labels.index(picked) if picked in labels else 0

    def chose(self, decision: Decision, labels: list[str], index: int) -> None:
        if 0 <= index < len(labels) and not decision.data.get("hidden"):
            self.choices[(decision.side, decision.prompt, tuple(labels))] = labels[index]

    def _on_table(self, some_id: Any, within: str = "") -> bool:
        """Whether an id still names a living element (of unit `within`, when given) or a unit not eliminated."""
        for unit in self.battle.state.units:
            if unit.id == some_id:
                return not unit.eliminated and not within
            for element in unit.elements:
                if element.id == some_id:
                    return element.alive and unit.id == within if within else element.alive
        return False

    def command(self, spec: CommandSpec, facts: Mapping[str, Any] | None = None, **fields: Any) -> Command:
        """The command for a legal spec; facts equal to their default are left out of the log."""
        if spec.facts:
            kept = {}
            for name, value in (facts or {}).items():
                fact = spec.fact(name)
                if fact is not None and value != fact.default:
                    kept[name] = value
            fields["facts"] = kept
        return self.battle.command(spec, **fields)

    def odds(self, command: Command) -> OddsReport:
        """The exact odds of a command as named outcomes (the scheme's modifiers included)."""
        from campaign.engine.odds import odds_report

        return odds_report(self.battle, command)

    # --- the verbs (each keeps the file in step) ---------------------------------
    def apply(self, command: Command | Mapping[str, Any], facts: Mapping[str, Any] | None = None) -> list[Event]:
        self._writable()
        self._check_usable()
        pending = self.battle.pending
        hidden = isinstance(pending, Decision) and bool(pending.data.get("hidden"))
        events = self.battle.apply(command)
        if hidden:  # a hidden answer (an Entrenched position) must not prefill the next player's form
            facts = None
        side = pending.side if isinstance(pending, Decision) else ""
        fields = command if isinstance(command, Mapping) else command.to_dict()
        for name, value in (facts or {}).items():
            self.memory[(side, str(fields.get("unit", "")), str(fields.get("type", "")), name)] = value
        self.sync()
        return events

    def roll(self, faces: list[int]) -> list[Event]:
        self._writable()
        self._check_usable()
        events = self.battle.roll(faces)
        self.sync()
        return events

    def undo(self) -> Any:
        """Take back the last decision (the engine refuses past a roll), on disk too."""
        self._writable()
        self._check_usable()
        with writing(self.loaded.path, self.lease):
            self._unchanged()
            entry = self.battle.undo()
            if self.written > self.battle.log_length:
                try:
                    drop_last_log(self.path)
                except (LeaseLost, StaleSave):
                    raise
                except (SaveError, OSError) as exc:  # the entry is still on disk: so it is in play
                    raise self._back_to_disk(exc) from None
                self.written = len(self.battle.log)
            self.size = _size(self.path)
        return entry

    def _complete(self, count: int) -> bool:
        """Whether the last of `count` entries has all its dice (not waiting for table faces)."""
        return not isinstance(self.battle.pending, RollRequest) or count < self.battle.log_length

    def sync(self) -> None:
        """Append every finished log entry not yet on disk (a command still waiting for
        table dice is written once its faces are in, so the file stays append-only).
        O(1) per step: only the new entries are serialised, and the file is appended to,
        never rewritten (saves/battle_file.py reads only its head and its sealed tail)."""
        count = self.battle.log_length
        last = count if self._complete(count) else count - 1
        if last <= self.written:
            return
        entries = self.battle.log_dicts(self.written, last)
        with writing(self.loaded.path, self.lease):  # the lease's holder only, and the file as we left it
            self._unchanged()
            for entry in entries:
                try:
                    self.warnings += append_log(self.path, entry)
                except (LeaseLost, StaleSave):
                    raise
                except (SaveError, OSError) as exc:  # refused: never carry on as if it were saved
                    raise self._back_to_disk(exc) from None
                self.written += 1
            self.size = _size(self.path)
        self.written = max(self.written, last)
        if self.setup_text:  # the cache, beside the save: every CHECKPOINT_EVERY entries or so
            self.cached = save_snapshot(self.battle, self.path, self.setup_text, self.written, self.cached)

    def _unchanged(self) -> None:
        if _size(self.path) != self.size:
            raise StaleSave(self.path, "the battle file changed on disk since this Muster last wrote it",
                            hint="nothing was saved; reopen the battle to see what is on disk now")  # fmt: skip

    def outcome(self) -> Any:
        return self.battle.outcome()

    def end_by_agreement(self) -> None:
        """The players agree the battle is over; the post-battle step takes the outcome as it stands."""
        self.ended_by_agreement = True


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return -1
