"""A battle file replayed through the engine: its setup, and what `muster validate` finds.

`battle_setup` turns a loaded battle file into the engine's BattleSetup (a side's force
read from its force_ref when the file does not hold it). `replay_findings` replays the
log: the first entry the engine refuses, and a recorded digest the replay does not
reach, are errors (a hand-edited or doubled log must not pass as ok).
"""

from __future__ import annotations

from pathlib import Path

from campaign.campaigns.scenario import Scenario
from campaign.engine import Battle, BattleSetup, ReplayError, SideSetup
from campaign.engine.errors import EngineError
from campaign.findings import Finding
from campaign.rulesets import UnknownRuleset
from saves.battle_file import BattleFile
from saves.errors import SaveError
from saves.force_file import load_force

RULE = "battle replay"
START = {"seq": 0, "side": "", "command": {"type": "start"}, "rolls": []}  # what an empty log replays


def campaign_dir(battle_path: Path) -> Path:
    """The folder force references are relative to: the nearest one holding campaign.toml."""
    for folder in battle_path.resolve().parents:
        if (folder / "campaign.toml").exists():
            return folder
    return battle_path.resolve().parent


def battle_setup(battle: BattleFile) -> BattleSetup:
    """The engine's BattleSetup for a loaded battle file (forces read from force_ref if needed)."""
    header = battle.header
    sides = []
    for i, side in enumerate(header.sides):
        force = side.force
        if force is None:
            if not side.force_ref:
                raise SaveError(battle.path, "the side has neither a force nor a force_ref", key=f"setup.sides[{i}]")
            force = load_force(campaign_dir(battle.path) / side.force_ref)
        sides.append(SideSetup(side.id, side.name or side.id, force, side.role))
    return BattleSetup(
        ruleset=header.ruleset,
        sides=tuple(sides),
        edition=header.edition,
        options=dict(header.options),
        scenario=header.scenario or Scenario(id="skirmish", name="Skirmish"),
        activation=header.activation,
        activation_options=dict(header.activation_options),
        seed=header.seed,
        dice=header.dice,
    )


def _entry_index(log: list[dict], seq: int) -> int:
    """Where in the file the entry numbered `seq` is (its position if no entry says so)."""
    for i, entry in enumerate(log):
        if entry.get("seq") == seq:
            return i
    return seq


def replay_findings(battle: BattleFile) -> list[Finding]:
    """Replay the log; an error for the first entry that does not fit and for a recorded
    digest the replay does not reach. A ruleset this Muster cannot play is a warning."""
    if not battle.log and battle.result is None:
        return []  # a battle just set up: nothing recorded yet
    try:
        setup = battle_setup(battle)
    except SaveError as exc:
        return [Finding("error", RULE, f"the battle cannot be set up: {exc}", "setup")]
    log = battle.log or [START]
    try:
        replayed = Battle.replay(setup, log)
    except ReplayError as exc:
        index = _entry_index(battle.log, exc.seq)
        return [Finding("error", RULE, f"the log does not replay: entry {index + 1} (seq {exc.seq}): {exc.message}",
                        f"log[{index}]")]  # fmt: skip
    except UnknownRuleset as exc:
        return [Finding("warning", RULE, f"not replayed: {exc}", "setup.ruleset")]
    except (NotImplementedError, ValueError, TypeError, KeyError, EngineError) as exc:
        return [Finding("error", RULE, f"the log does not replay: {exc}", "log")]
    recorded = battle.result.digest if battle.result is not None else ""
    if recorded and replayed.digest() != recorded:
        return [Finding("error", RULE, f"the recorded digest {recorded} differs from the replay's {replayed.digest()}",
                        "result.digest")]  # fmt: skip
    return []
