"""`muster new DIR ...`: create a campaign folder from flags, or a demo with --demo [RULESET].

    muster new my-war --name "Hive War" --ruleset flat-out-war --edition special-ops \
        --side humans="Humans" --side aliens="Aliens" \
        --sample humans="Human Force" --sample aliens="Alien Force" \
        --track demo-landing,demo-hive --rule recovery_rolls=true
"""

from __future__ import annotations

import argparse
import re
import sys
import zlib
from fractions import Fraction
from pathlib import Path

import attrs

from campaign.campaigns import CampaignError, CampaignRules, Side, TrackStep, create_campaign
from campaign.force import Force
from campaign.activation import DEFAULT_SCHEME
from campaign.engine.scheme import scheme_names
from campaign.inert_text import inert
from campaign.rulesets import UnknownRuleset, get_ruleset
from saves.errors import SaveError
from scenarios.demo import RULESET as DEMO_RULESET

NAME = "new"
HELP = "create a campaign folder (--demo: the demo campaign)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", help="the new campaign folder")
    parser.add_argument(
        "--demo", nargs="?", const="", default=None, metavar="RULESET",
        help="write a demo campaign: Humans against Aliens, or the named ruleset's own demo",
    )
    parser.add_argument("--name", help="the campaign's name (default: the folder's name)")
    parser.add_argument("--ruleset", default=DEMO_RULESET, help=f"ruleset id (default: {DEMO_RULESET}, the demo's)")
    parser.add_argument("--edition", help="ruleset edition (default: the ruleset's)")
    parser.add_argument("--side", action="append", default=[], metavar="ID=NAME", help="a side (two or more)")
    parser.add_argument("--player", action="append", default=[], metavar="ID=PLAYER", help="a side's player")
    parser.add_argument("--force", action="append", default=[], metavar="ID=FILE", help="a side's force file")
    parser.add_argument("--sample", action="append", default=[], metavar="ID=FORCE", help="a side's force from the ruleset's samples")
    parser.add_argument("--track", default="", metavar="S1,S2,...", help="scenario ids in order")
    parser.add_argument("--dice", choices=("auto", "table"), default="auto")
    parser.add_argument("--activation", choices=scheme_names(), default=None,
                        help="activation scheme (default: the ruleset's own, else the core's)")
    parser.add_argument("--seed", type=int, help="dice seed for the campaign's battles (default: from the name)")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a campaign rule (see campaign.toml [rules])")
    parser.add_argument("--git", choices=("off", "battle", "activation"), help="commit to git after each battle")
    parser.add_argument("-i", "--interactive", action="store_true", help="ask for what the flags leave out")


def _ask(prompt: str, default: str = "") -> str:
    answer = input(f"{prompt}{f' [{default}]' if default else ''}: ").strip()
    return answer or default


def _interactive(args: argparse.Namespace) -> None:
    """Fill in the name, sides, forces and track by asking (flags already given are kept)."""
    from scenarios import builtin_scenarios

    args.name = args.name or _ask("Campaign name", Path(args.dir).resolve().name)
    args.ruleset = _ask("Ruleset", args.ruleset)
    ruleset = get_ruleset(args.ruleset, args.edition)
    args.edition = _ask("Edition", args.edition or ruleset.edition or "") or None
    while len(args.side) < 2 or (answer := _ask("Another side as ID=NAME (empty: done)")):
        if len(args.side) < 2:
            answer = _ask(f"Side {len(args.side) + 1} as ID=NAME")
            if not answer:
                raise CampaignError("a campaign needs two or more sides")
        args.side.append(answer)
    samples = [f.name for f in get_ruleset(args.ruleset, args.edition).sample_forces()]
    given = {pair.partition("=")[0] for pair in args.force + args.sample}
    for sid, _name in _pairs(args.side, "--side"):
        if sid in given:
            continue
        answer = _ask(f"Force for {sid}: a force file, or a sample ({', '.join(samples)})")
        (args.sample if answer in samples else args.force).append(f"{sid}={answer}")
    if not args.track:
        print("Scenarios: " + ", ".join(sorted(builtin_scenarios())))
        args.track = _ask("Scenario track, in order (S1,S2,...)")


def _pairs(values: list[str], flag: str) -> list[tuple[str, str]]:
    out = []
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key.strip():
            raise CampaignError(f"{flag} wants ID=VALUE, not {value!r}")
        out.append((key.strip(), rest.strip()))
    return out


def _rule_value(key: str, text: str) -> object:
    fields = attrs.fields_dict(CampaignRules)
    if key not in fields:
        raise CampaignError(f"unknown campaign rule {key!r} (rules: {', '.join(fields)})")
    default = getattr(CampaignRules().filled(""), key)  # a ruleset's default has the same type
    if isinstance(default, bool):
        if text.lower() not in ("true", "false", "yes", "no", "on", "off"):
            raise CampaignError(f"rule {key} is true or false, not {text!r}")
        return text.lower() in ("true", "yes", "on")
    if isinstance(default, int):
        if not re.fullmatch(r"-?\d+", text):
            raise CampaignError(f"rule {key} is a whole number, not {text!r}")
        return int(text)
    if isinstance(default, Fraction):
        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise CampaignError(f"rule {key} is a number, not {text!r}") from None
    if isinstance(default, tuple):
        return tuple(t.strip() for t in text.split(",") if t.strip())
    return text


def _build(args: argparse.Namespace) -> tuple[object, dict[str, Force]]:
    from saves.force_file import load_force
    from scenarios import builtin_scenarios

    folder = Path(args.dir)
    try:
        ruleset = get_ruleset(args.ruleset, args.edition)
    except (UnknownRuleset, ValueError) as exc:
        raise CampaignError(str(exc)) from None
    rules = CampaignRules(**{k: _rule_value(k, v) for k, v in _pairs(args.rule, "--rule")})  # type: ignore[arg-type]
    if args.git:
        rules = attrs.evolve(rules, git_commits=args.git)
    sides = [Side(sid, name or sid) for sid, name in _pairs(args.side, "--side")]
    players: dict[str, list[str]] = {}
    for sid, player in _pairs(args.player, "--player"):
        players.setdefault(sid, []).append(player)
    sides = [attrs.evolve(s, players=tuple(players.pop(s.id, []))) for s in sides]
    if players:
        raise CampaignError(f"--player for unknown side(s): {', '.join(players)}")
    ids = [s.id for s in sides]
    forces: dict[str, Force] = {}
    samples = {f.name: f for f in ruleset.sample_forces()}
    for sid, name in _pairs(args.sample, "--sample"):
        if name not in samples:
            raise CampaignError(f"no sample force {name!r} (samples: {', '.join(samples) or 'none'})")
        forces[sid] = samples[name]
    for sid, path in _pairs(args.force, "--force"):
        forces[sid] = load_force(path)
    unknown = sorted(set(forces) - set(ids))
    if unknown:
        raise CampaignError(f"a force for unknown side(s): {', '.join(unknown)}")
    missing = [s.id for s in sides if s.id not in forces]
    if missing:
        raise CampaignError(
            f"no force for side(s) {', '.join(missing)}: give --force ID=FILE or --sample ID=NAME "
            f"(samples: {', '.join(samples) or 'none'})"
        )
    track_ids = [t.strip() for t in args.track.split(",") if t.strip()]
    if not track_ids:
        raise CampaignError("give the scenario track with --track S1,S2,... (see scenarios/library)")
    steps: list[TrackStep] = []
    seen: dict[str, int] = {}
    for sid in track_ids:
        seen[sid] = seen.get(sid, 0) + 1
        steps.append(TrackStep(sid if seen[sid] == 1 else f"{sid}-{seen[sid]}", sid))
    name = args.name or folder.resolve().name
    campaign = create_campaign(
        name,
        ruleset.id,
        sides,
        steps,
        edition=ruleset.edition,
        dice=args.dice,
        activation=args.activation or type(ruleset).default_activation or DEFAULT_SCHEME,
        rules=rules,
        seed=args.seed if args.seed is not None else zlib.crc32(name.encode("utf-8")),
        scenario_ids=set(builtin_scenarios()),
    )
    return campaign, forces


def run(args: argparse.Namespace) -> int:
    from saves.campaign_file import create_campaign_folder

    try:
        if args.demo is not None:
            from scenarios.demo import write_demo

            folder = write_demo(args.dir, seed=args.seed or 2026, ruleset=args.demo)
        else:
            if args.interactive or (not args.side and sys.stdin.isatty()):
                _interactive(args)
            campaign, forces = _build(args)
            folder = create_campaign_folder(args.dir, campaign, forces)  # type: ignore[arg-type]
    except (CampaignError, SaveError, UnknownRuleset, ValueError) as exc:
        print(f"muster new: {inert(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:  # a read-only or full disk: say so, no traceback
        where = exc.filename or args.dir
        print(inert(f"muster new: cannot write {where}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print("\nmuster new: stopped; nothing was written", file=sys.stderr)
        return 2
    print(inert(f"created campaign in {folder}"))
    print(inert(f"next: muster status {folder}"))
    return 0
