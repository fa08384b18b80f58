"""`muster briefing DIR [--json]`: the next battle's briefing, before anyone musters.

The scenario (deployment, special rules, objectives and their VPs, rounds or end
condition, points limit) and each side's units with survivors and their price, with
whether mustering them all would be refused and why. Exit status 0, or 2 when the
campaign cannot be read or has no next battle.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

import attrs

from campaign.campaigns import CampaignError, plan_battle, ruleset_price
from campaign.campaigns.briefing import Briefing, briefing
from campaign.inert_text import inert, inert_json
from campaign.outcome import format_vp
from saves.campaign_file import load_campaign
from saves.errors import SaveError
from tui.cli.cost import points

NAME = "briefing"
HELP = "the next battle's briefing: the scenario, and what each side can muster within its limit"
WIDTH = 80


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", help="the campaign folder")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def _wrap(text: str, indent: str = "", hang: str = "") -> list[str]:
    return textwrap.wrap(inert(text), WIDTH, initial_indent=indent, subsequent_indent=indent + hang) or [""]


def as_text(doc: Briefing) -> str:
    facts = [f"points limit {doc.points_limit}" if doc.points_limit is not None else "no points limit"]
    facts.append(f"{doc.rounds} rounds" if doc.rounds else "no round limit")
    facts.append({"vp": "won by VPs", "strategic": "won by its objectives"}.get(doc.victory, f"won by {doc.victory}"))
    out = [inert(f"Battle {doc.number}: {doc.scenario}"), inert(f"({'; '.join(facts)}; activation {doc.activation})"), ""]
    if doc.summary:
        out += [*_wrap(doc.summary), ""]
    if doc.end_condition:
        out += [*_wrap("Ends: " + doc.end_condition, "", "  "), ""]
    if doc.deployment:
        out += [*_wrap("Deployment: " + doc.deployment, "", "  "), ""]
    if doc.special_rules:
        out.append("Special rules:")
        for rule in doc.special_rules:
            out += _wrap(rule, "  - ", "  ")
        out.append("")
    if doc.objectives:
        out.append("Objectives:")
        for objective in doc.objectives:
            who = f" ({objective.side})" if objective.side else ""
            out += _wrap(f"{objective.name}: {format_vp(objective.vp)} VP{who}", "  ", "    ")
            if objective.text:
                out += _wrap(objective.text, "    ", "  ")
        out.append("")
    for side in doc.sides:
        role = f" ({side.role})" if side.role else ""
        whole = f"{points(side.total)} pts with every survivor" if side.total is not None else "every survivor"
        verdict = "musters whole" if side.fits else "cannot muster whole"
        out.append(inert(f"{side.name}{role}: {whole}; {verdict}"))
        width = max([len(u.name) for u in side.units] + [4])
        for unit in side.units:
            cost = f"{points(unit.points):>6}" if unit.points is not None else ""
            out.append(inert(f"  {unit.name:<{width}}  {unit.alive:>3}/{unit.count:<3} {cost}").rstrip())
        for reason in side.refusals:
            out += _wrap(reason, "  ! ", "    ")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def as_json(doc: Briefing) -> dict[str, Any]:
    data = attrs.asdict(doc)
    for objective in data["objectives"]:
        objective["vp"] = str(objective["vp"])
    for side, raw in zip(data["sides"], doc.sides, strict=True):
        side["fits"] = raw.fits
    return data


def run(args: argparse.Namespace) -> int:
    from campaign.rulesets import get_ruleset
    from scenarios import scenarios_for

    try:
        folder = load_campaign(args.dir, scenarios_for(None))
        campaign = folder.campaign
        plan = plan_battle(campaign, scenarios_for(folder.path))
        ruleset = get_ruleset(campaign.ruleset, campaign.edition, **campaign.options)
        doc = briefing(campaign, plan, folder.forces, ruleset_price(campaign), ruleset.validate)
    except (SaveError, CampaignError) as exc:
        print(inert(f"muster briefing: {exc}"), file=sys.stderr)
        return 2
    if args.json:
        print(inert_json(as_json(doc), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(as_text(doc))
    return 0
