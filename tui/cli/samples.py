"""`muster samples [--out DIR] [--ruleset ID] [--force]`: write the built-in sample forces."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import attrs

from campaign.force import Force
from campaign.inert_text import inert
from campaign.rulesets import UnknownRuleset, get_ruleset, ruleset_ids
from saves.force_file import save_force

NAME = "samples"
HELP = "write the rulebooks' sample forces as force files to start from"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", default="samples", metavar="DIR", help="folder to write into (default: samples)"
    )
    parser.add_argument("--ruleset", metavar="ID", help="only this ruleset's samples")
    parser.add_argument("--force", action="store_true", help="overwrite files that exist")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.") or "force"


def sample_files(out: Path, ruleset_id: str | None = None) -> list[tuple[Path, Force]]:
    """Where each sample force goes: DIR/<ruleset>-<edition>/<force-name>.toml."""
    planned: list[tuple[Path, Force]] = []
    seen: set[tuple[str | None, str]] = set()
    for rid in [ruleset_id] if ruleset_id else ruleset_ids():
        editions = type(get_ruleset(rid)).editions or (None,)
        for edition in editions:
            ruleset = get_ruleset(rid, edition)
            for force in ruleset.sample_forces():
                if force.edition is None:
                    force = attrs.evolve(force, edition=edition)
                if (force.edition, force.name) in seen:  # a ruleset may list every edition's
                    continue
                seen.add((force.edition, force.name))
                label = f"{ruleset.id}-{force.edition}" if force.edition else ruleset.id
                path = out / slug(label) / f"{slug(force.name)}.toml"
                n = 2
                while any(path == p for p, _ in planned):
                    path = path.with_name(f"{slug(force.name)}-{n}.toml")
                    n += 1
                planned.append((path, force))
    return planned


def run(args: argparse.Namespace) -> int:
    try:
        planned = sample_files(Path(args.out), args.ruleset)
    except UnknownRuleset as exc:
        print(inert(f"muster samples: {exc}"), file=sys.stderr)
        return 2
    if not planned:
        print("no sample forces to write")
        return 0
    existing = [path for path, _ in planned if path.exists()]
    if existing and not args.force:
        print("muster samples: these files exist already (use --force to overwrite):", file=sys.stderr)
        for path in existing:
            print(inert(f"  {path}"), file=sys.stderr)
        return 1
    for path, force in planned:
        try:
            save_force(path, force)
        except OSError as exc:
            print(inert(f"muster samples: cannot write {path}: {exc.strerror or exc}"), file=sys.stderr)
            return 2
        units = len(force.units)
        print(inert(f"wrote {path}  ({force.name}, {units} unit{'s' if units != 1 else ''})"))
    return 0
