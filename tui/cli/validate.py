"""`muster validate PATH... [--json]`: check Muster files and folders of them.

Exit status: 0 no errors, 1 a finding of error severity, 2 a file that cannot be
read or used.
"""

from __future__ import annotations

import argparse

from campaign.inert_text import inert, inert_json
from saves.validate import FileReport, validate_paths
from tui.cli.cost import finding_line

NAME = "validate"
HELP = "check force files (or folders of them); exit 1 on errors, 2 on unreadable files"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to check")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def _summary(report: FileReport) -> str:
    if report.error is not None:
        return "cannot be used"
    counts = {s: sum(f.severity == s for f in report.findings) for s in ("error", "warning", "info")}
    parts = [f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items() if n]
    return ", ".join(parts) if parts else "ok"


def run(args: argparse.Namespace) -> int:
    report = validate_paths(args.paths)
    if args.json:
        print(inert_json(report.as_dict(), indent=2, ensure_ascii=False))
        return report.exit_code
    for file in report.files:
        kind = f"{file.kind}: " if file.kind else ""
        print(inert(f"{file.file}: {kind}{_summary(file)}"))
        if file.error is not None:
            print(inert(f"  {file.error}"))
        for finding in file.findings:
            print(inert(f"  {finding_line(finding)}"))
    statuses = [f.status for f in report.files]
    if not statuses:
        print("no Muster files found")
    else:
        print(
            f"{len(statuses)} file{'s' if len(statuses) != 1 else ''} checked: "
            f"{statuses.count('ok')} ok, {statuses.count('errors')} with errors, "
            f"{statuses.count('unreadable')} unusable"
        )
    return report.exit_code
