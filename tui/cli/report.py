"""`muster report DIR [--format md]`: the campaign as a Markdown report.

Sides and their forces, the VP ledger, and each battle: its summary, result, losses
and its whole log as readable lines. User text is escaped for Markdown tables.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from campaign.campaigns import HistoryEntry, campaign_winner, standings
from campaign.inert_text import inert
from campaign.outcome import format_vp
from saves.battle_file import load_battle_file
from saves.campaign_file import CampaignFolder, load_campaign
from saves.errors import SaveError

NAME = "report"
HELP = "write a campaign report (Markdown): sides, VP ledger, battles and their logs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", help="the campaign folder")
    parser.add_argument("--format", choices=("md",), default="md", help="output format (md)")
    parser.add_argument("-o", "--output", help="write to this file instead of printing")


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _value(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def log_line(entry: Mapping[str, Any]) -> str:
    """One log entry as a line: "12. humans: shoot unit=Squad target=Rippers (range_band long); d8 4 2 6 5"."""
    command = entry.get("command", {})
    if not isinstance(command, Mapping):
        command = {"type": _value(command)}
    facts = command.get("facts") if isinstance(command.get("facts"), Mapping) else {}
    words = [str(command.get("type", "?"))]
    words += [f"{k}={_value(v)}" for k, v in command.items() if k not in ("type", "facts")]
    text = " ".join(words)
    if facts:
        text += " (" + ", ".join(f"{k} {_value(v)}" for k, v in facts.items()) + ")"
    side = entry.get("side")
    head = f"{entry.get('seq', '?')}. " + (f"{side}: " if side else "")
    rolls = entry.get("rolls", [])
    if isinstance(rolls, list) and rolls:
        parts = []
        for roll in rolls:
            if isinstance(roll, Mapping):
                faces = " ".join(str(f) for f in roll.get("faces", []))
                purpose = f" ({roll['purpose']})" if roll.get("purpose") else ""
                parts.append(f"d{roll.get('die', '?')}: {faces}{purpose}")
        text += "; rolls " + "; ".join(parts)
    extra = {k: v for k, v in entry.items() if k not in ("seq", "side", "command", "rolls")}
    if extra:
        text += "; " + ", ".join(f"{k} {_value(v)}" for k, v in extra.items())
    return head + text


def events_by_entry(battle: Any) -> dict[int, list[str]]:
    """Each log entry's events as report lines, by replaying the log through the engine.

    Empty when the battle cannot be replayed here (a ruleset without battle rules, a
    log from another version): the report then shows the commands and rolls only.
    """
    if not battle.log:
        return {}
    try:
        from campaign.engine import Battle
        from tui.cli.replay import battle_setup

        replayed = Battle.replay(battle_setup(battle), battle.log)
    except Exception:  # noqa: BLE001 - a report must still print without the engine's view
        return {}
    found: dict[int, list[str]] = {}
    for event in replayed.events:
        found.setdefault(event.seq, []).append(event.text)
    return found


def next_scenario_name(folder: CampaignFolder) -> str:
    """The next step's scenario by its name (the campaign's own scenarios first)."""
    from scenarios import scenarios_for

    c = folder.campaign
    scenario_id = c.step(c.position).scenario
    found = scenarios_for(folder.path).get(scenario_id)
    return found.name if found is not None else scenario_id


def report_md(folder: CampaignFolder) -> str:
    c = folder.campaign
    names = {s.id: s.name for s in c.sides}
    out = [f"# {c.name}", ""]
    edition = f" ({c.edition})" if c.edition else ""
    out.append(f"Ruleset: {c.ruleset}{edition}. Dice: {c.dice}. Activation: {c.activation}.")
    if c.finished:
        winner = campaign_winner(c)
        out.append(f"The campaign is over: {names[winner] + ' win' if winner else 'a draw'}.")
    else:
        out.append(f"Next: battle {len(c.history) + 1}, {next_scenario_name(folder)}.")
    out += ["", "## Sides", "", "| Side | Players | VP | Battles won | Elements alive | Units |", "|---|---|---:|---:|---:|---|"]
    for row in standings(c):
        force = folder.forces[row.side]
        alive = sum(e.alive for u in force.units for e in u.elements)
        units = ", ".join(
            f"{u.name} ({sum(e.alive for e in u.elements)}/{sum(e.count for e in u.elements)})" for u in force.units
        )
        players = ", ".join(c.side(row.side).players) or "—"  # an empty cell reads as a gap
        out.append(f"| {_cell(row.name)} | {_cell(players)} | {format_vp(row.vp)} | {row.battles_won} | {alive} | {_cell(units)} |")
    out += ["", "## VP ledger", ""]
    if c.ledger:
        out += ["| Battle | Side | VP | For |", "|---:|---|---:|---|"]
        for line in c.ledger:
            out.append(f"| {line.battle} | {_cell(names.get(line.side, line.side))} | {format_vp(line.vp)} | {_cell(line.reason)} |")
        totals = ", ".join(f"{names[s]} {format_vp(v)}" for s, v in c.totals().items())
        out += ["", f"Totals: {totals}."]
    else:
        out.append("No VPs yet.")
    if c.spent:
        out += ["", "## Reinforcements spent", "", "| After battle | Side | Points | On |", "|---:|---|---:|---|"]
        for spending in c.spent:
            side = names.get(spending.side, spending.side)
            out.append(f"| {spending.after_battle} | {_cell(side)} | {format_vp(spending.points)} | {_cell(spending.what)} |")
    out += ["", "## Battles", ""]
    if not c.history and not c.battle_in_progress:
        out.append("No battles yet.")
    files: list[tuple[int, str, str, HistoryEntry | None]] = [(h.battle, h.scenario_name, h.file, h) for h in c.history]
    if c.battle_in_progress:
        files.append((len(c.history) + 1, "in progress", c.battle_in_progress, None))
    for number, title, file, entry in files:
        out += [f"### Battle {number}: {title}", ""]
        if entry is not None:
            out.append(entry.summary + ".")
            lost = ", ".join(f"{names[s]} {n}" for s, n in entry.losses.items())
            out.append(f"Elements lost: {lost}.")
            for sid, gone in entry.units_lost.items():
                if gone:
                    out.append(f"Units lost by {names[sid]}: {', '.join(gone)}.")
            back = {s: n for s, n in entry.recovered.items() if n}
            if back:
                out.append("Recovered after the battle: " + ", ".join(f"{names[s]} {n}" for s, n in back.items()) + ".")
        out.append("")
        try:
            battle = load_battle_file(folder.path / file)
        except SaveError as exc:
            out += [f"(log unavailable: {exc})", ""]
            continue
        for mustered in battle.header.sides:  # a muster let through by a house rule is said with its reason
            if mustered.override:
                out += [f"{names.get(mustered.id, mustered.name)} mustered by override: {mustered.override}.", ""]
        out += [f"Log ({len(battle.log)} entries, seed {battle.header.seed}, dice {battle.header.dice}):", "", "```"]
        events = events_by_entry(battle)
        for i, e in enumerate(battle.log):
            out.append(log_line(e))
            out += [f"    {text}" for text in events.get(e.get("seq", i) if isinstance(e.get("seq"), int) else i, [])]
        if not battle.log:
            out.append("(empty)")
        out += ["```", ""]
        out += [f"_{w}_" for w in battle.warnings]
    # Each item of `out` is one line: text from the files (names, notes, log values) is
    # made inert there, so a newline or an escape sequence in a name cannot forge a line.
    return "\n".join(inert(line) for line in out).rstrip() + "\n"


def run(args: argparse.Namespace) -> int:
    from saves.atomic import atomic_write_text
    from scenarios import scenarios_for

    try:
        folder = load_campaign(args.dir, scenarios_for(None))
    except SaveError as exc:
        print(f"muster report: {inert(exc)}", file=sys.stderr)
        return 2
    for warning in folder.warnings:  # a save a crash left half-done, and the like
        print(inert(f"muster report: {warning}"), file=sys.stderr)
    text = report_md(folder)
    if args.output:
        from saves.lease import writing

        out = Path(args.output).resolve()
        try:
            if folder.path.resolve() in out.parents:  # into the campaign: only while nobody else writes it
                with writing(folder.path, what="muster report"):
                    atomic_write_text(out, text)
            else:
                atomic_write_text(out, text)
        except SaveError as exc:
            print(inert(f"muster report: {exc}"), file=sys.stderr)
            return 2
        except OSError as exc:  # a read-only folder, a full disk: a message, not a traceback
            print(inert(f"muster report: cannot write {args.output}: {exc.strerror or exc}"), file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0
