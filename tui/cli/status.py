"""`muster status DIR [--json]`: where a campaign stands."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import Any

from campaign.campaigns import campaign_winner, standings
from campaign.inert_text import inert, inert_json
from campaign.outcome import format_vp
from saves.campaign_file import CampaignFolder, load_campaign
from saves.errors import SaveError

NAME = "status"
HELP = "show a campaign's standings, next battle and history"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", help="the campaign folder")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def number(value: Fraction) -> int | float:
    """A VP total for JSON: a whole number as an int, else a float (see the `_exact` field)."""
    return value.numerator if value.denominator == 1 else float(value)


def exact(value: Fraction) -> str:
    """The exact value as text: "60", "41/2"."""
    return str(value)


def overrides(folder: CampaignFolder) -> tuple[list[dict[str, Any]], list[str]]:
    """Each muster a house rule let through, battle by battle (from the battle files'
    setups), and a warning for each battle file that could not be read."""
    from saves.battle_file import load_battle_header

    c = folder.campaign
    names = {side.id: side.name for side in c.sides}
    files = [(h.battle, h.file) for h in c.history]
    if c.battle_in_progress:
        files.append((len(c.history) + 1, c.battle_in_progress))
    found: list[dict[str, Any]] = []
    problems: list[str] = []
    for battle, file in files:
        try:
            header = load_battle_header(folder.path / file)
        except SaveError as exc:
            problems.append(f"battle {battle}: overrides unknown ({exc})")
            continue
        found += [{"battle": battle, "side": side.id, "name": names.get(side.id, side.name), "reason": side.override}
                  for side in header.sides if side.override]  # fmt: skip
    return found, problems


def status_dict(folder: CampaignFolder) -> dict[str, Any]:
    from scenarios import scenarios_for

    c = folder.campaign
    scenarios = scenarios_for(folder.path)
    mustered_by_override, unread = overrides(folder)
    nxt = None
    if c.position:
        step = c.step(c.position)
        sc = scenarios.get(step.scenario)
        nxt = {"step": step.id, "scenario": step.scenario, "name": sc.name if sc else step.scenario,
               "points_limit": sc.points_limit if sc else None, "battle": len(c.history) + 1}  # fmt: skip
    return {
        "name": c.name,
        "ruleset": c.ruleset,
        "edition": c.edition,
        "dice": c.dice,
        "activation": c.activation,
        "finished": c.finished,
        "winner": campaign_winner(c) if c.finished else None,
        "next": nxt,
        "battle_in_progress": c.battle_in_progress or None,
        "standings": [
            {"side": s.side, "name": s.name, "vp": number(s.vp), "vp_exact": exact(s.vp),
             "battles_won": s.battles_won,
             "reinforcements": number(c.side(s.side).reinforcements),
             "reinforcements_exact": exact(c.side(s.side).reinforcements),
             "elements_alive": sum(e.alive for u in folder.forces[s.side].units for e in u.elements)}
            for s in standings(c)
        ],  # fmt: skip
        "history": [h.summary for h in c.history],
        "reinforcements_spent": [
            {"after_battle": s.after_battle, "side": s.side, "points": number(s.points),
             "points_exact": exact(s.points), "what": s.what}
            for s in c.spent
        ],  # fmt: skip
        "overrides": mustered_by_override,
        "warnings": [*folder.warnings, *unread],
    }


WRITER_STATES = {
    "running": "running",
    "gone": "gone: the next Muster breaks its lease",
    "unknown": "on another host, cannot be checked: `muster unlock DIR --other-host` if it is gone",
}


def writer_dict(folder: Any) -> dict[str, Any] | None:
    """Who holds the campaign's lease, if anyone: the holder in words and whether it runs."""
    from saves.lease import current_holder, holder_alive

    holder = current_holder(folder)
    if holder is None:
        return None
    alive = holder_alive(holder)
    state = "unknown" if alive is None else "running" if alive else "gone"
    return {"who": holder.describe(), "host": holder.host, "pid": holder.pid, "what": holder.what,
            "since": holder.since, "state": state}  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from scenarios import scenarios_for

    try:
        folder = load_campaign(args.dir, scenarios_for(None))
    except SaveError as exc:
        print(inert(f"muster status: {exc}"), file=sys.stderr)
        return 2
    data = status_dict(folder)
    writer = writer_dict(folder.path)
    if writer is not None:
        data["writer"] = writer
    if args.json:
        print(inert_json(data, indent=2, ensure_ascii=False))
        return 0
    for warning in data["warnings"]:
        print(inert(f"warning: {warning}"))
    print(inert(f"{data['name']} ({data['ruleset']}{' ' + data['edition'] if data['edition'] else ''}, dice {data['dice']})"))
    print()
    print(inert(f"{'side':<20} {'VP':>8} {'won':>4} {'alive':>6} {'reinf.':>7}"))
    for row in data["standings"]:
        vp, reinforcements = (format_vp(Fraction(row[k])) for k in ("vp_exact", "reinforcements_exact"))
        print(inert(f"{row['name']:<20} {vp:>8} {row['battles_won']:>4} {row['elements_alive']:>6} {reinforcements:>7}"))
    print()
    if data["battle_in_progress"]:
        print(inert(f"battle in progress: {data['battle_in_progress']}"))
    if writer is not None:
        print(inert(f"held for writing by {writer['who']} ({WRITER_STATES[writer['state']]})"))
    if data["next"]:
        n = data["next"]
        limit = f", {n['points_limit']} points" if n["points_limit"] else ""
        print(inert(f"next: battle {n['battle']}, {n['name']} ({n['scenario']}{limit})"))
    else:
        winner = data["winner"]
        names = {r["side"]: r["name"] for r in data["standings"]}
        print(inert("campaign over: " + (f"{names[winner]} win" if winner else "a draw")))
    if data["history"]:
        print()
        for line in data["history"]:
            print(inert(line))
    if data["overrides"]:
        print()
        for row in data["overrides"]:
            print(inert(f"battle {row['battle']}: {row['name']} mustered by override: {row['reason']}"))
    if data["reinforcements_spent"]:
        print()
        names = {r["side"]: r["name"] for r in data["standings"]}
        for row in data["reinforcements_spent"]:
            when = f"after battle {row['after_battle']}" if row["after_battle"] else "before the first battle"
            points = format_vp(Fraction(row["points_exact"]))
            print(inert(f"{names.get(row['side'], row['side'])} spent {points} reinforcement points {when}: {row['what']}"))
    return 0
