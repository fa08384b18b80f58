"""`muster replay BATTLE.toml [--json]`: replay a battle file's log through the engine.

Prints each event as a report line, the final state digest and the result. Exit codes:
0 the replay matches the recorded digest (or the battle has none yet); 1 the digest
differs or the log no longer replays; 2 the file (or a force it names) cannot be read,
or its ruleset cannot be played.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from campaign.engine import Battle, Decision, ReplayError
from campaign.engine.errors import EngineError
from campaign.inert_text import inert, inert_json
from campaign.outcome import BattleOutcome, format_vp
from campaign.rulesets import UnknownRuleset
from saves.battle_file import BattleResult, load_battle_file
from saves.battle_replay import battle_setup, campaign_dir
from saves.errors import SaveError

NAME = "replay"
HELP = "replay a battle file's log: every event, the final digest and the result"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("battle", metavar="BATTLE.toml", help="a battle file (battles/NN-scenario.toml)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of report lines")


def _outcome_json(outcome: BattleOutcome) -> dict[str, Any]:
    vps = outcome.vps()
    return {
        "winner": outcome.winner(),
        "vps": {side: format_vp(vp) for side, vp in vps.items()},
        "vps_exact": {side: f"{vp.numerator}/{vp.denominator}" for side, vp in vps.items()},
        "rounds_played": outcome.rounds_played,
        "end_reason": outcome.end_reason,
        "units_eliminated": {s.side: list(s.units_eliminated) for s in outcome.sides},
    }


def _result_line(outcome: BattleOutcome, names: dict[str, str]) -> str:
    vps = ", ".join(f"{names.get(side, side)} {format_vp(vp)} VP" for side, vp in outcome.vps().items())
    winner = outcome.winner()
    head = f"winner: {names.get(winner, winner)}" if winner else "result: a draw"
    return f"{head} ({vps}); {outcome.end_reason or 'over'} after {outcome.rounds_played} round(s)"


def _recorded_line(result: BattleResult, names: dict[str, str]) -> str:
    """A recorded result without the engine's outcome (older files): winner and VPs."""
    vps = ", ".join(f"{names.get(side, side)} {format_vp(vp)} VP" for side, vp in result.vps.items())
    head = f"winner: {names.get(result.winner, result.winner)}" if result.winner else "result: a draw"
    return f"{head} ({vps})"


def _pending_text(battle: Battle) -> str:
    pending = battle.pending
    if pending is None:
        return ""
    if isinstance(pending, Decision):
        return f"waiting for {pending.side}: {pending.prompt}"
    return f"waiting for dice: {pending.describe()}"


def run(args: argparse.Namespace) -> int:
    path = Path(args.battle)
    try:
        loaded = load_battle_file(path)
        setup = battle_setup(loaded)
    except SaveError as exc:
        return _fail(args, 2, str(exc))
    log = loaded.log or [{"seq": 0, "side": "", "command": {"type": "start"}, "rolls": []}]
    try:
        battle = Battle.replay(setup, log)
    except ReplayError as exc:
        return _fail(args, 1, f"{path}: the log does not replay: {exc}")
    except (UnknownRuleset, NotImplementedError, ValueError, TypeError, EngineError) as exc:
        return _fail(args, 2, f"{path}: cannot play this battle: {exc}")
    digest = battle.digest()
    recorded = loaded.result.digest if loaded.result is not None else ""
    matches = (digest == recorded) if recorded else None
    outcome = battle.outcome() if battle.is_over else None
    # Players may end a battle by agreement before the engine would: the file's result says so.
    recorded_result = loaded.result if not battle.is_over else None
    if recorded_result is not None and recorded_result.outcome is not None:
        outcome = recorded_result.outcome
    from saves.campaign_file import pending_save

    for warning in [*loaded.warnings, pending_save(campaign_dir(path))]:
        if warning:
            print(inert(warning), file=sys.stderr)
    if args.json:
        outcome_doc = _outcome_json(outcome) if outcome is not None else None
        if recorded_result is not None:  # the campaign's result (a declared winner) is the word
            outcome_doc = {**(outcome_doc or {}), "winner": recorded_result.winner or None,
                           "vps": {s: format_vp(v) for s, v in recorded_result.vps.items()}}  # fmt: skip
        doc = {
            "file": str(path),
            "events": [e.to_dict() for e in battle.events],
            "digest": digest,
            "recorded_digest": recorded,
            "matches": matches,
            "over": battle.is_over or recorded_result is not None,
            "ended_by_agreement": recorded_result is not None,
            "pending": "" if recorded_result is not None else _pending_text(battle),
            "outcome": outcome_doc,
        }
        print(inert_json(doc, indent=2, sort_keys=True, default=str))
    else:
        for event in battle.events:
            print(inert(f"{event.seq:>4}  {event.text}"))
        print(f"digest: {digest}")
        if recorded:
            print(f"recorded digest: {recorded} ({'matches' if matches else 'DIFFERS'})")
        names = {side.id: side.name for side in battle.state.sides}
        if recorded_result is not None:
            print(inert("over: the players ended the battle; the file records the result"))
            print(inert(_recorded_line(recorded_result, names)))
        else:
            print(inert(_result_line(outcome, names) if outcome is not None else f"not over: {_pending_text(battle)}"))
    return 1 if matches is False else 0


def _fail(args: argparse.Namespace, code: int, message: str) -> int:
    if args.json:
        print(inert_json({"error": message, "exit": code}))
    print(inert(f"muster replay: {message}"), file=sys.stderr)
    return code
