"""The `muster` command.

`muster [DIR] [--demo [RULESET]]` opens the TUI; `muster SUBCOMMAND ...` runs a headless
command. Each subcommand is a module here with `NAME` (its module's name), `HELP`,
`add_arguments(parser)` and `run(args) -> int`; add new ones to SUBCOMMANDS. Headless
commands never import Textual, so scripts and CI stay fast; only the command asked for is
imported (all of them only for `--help`), so the TUI starts without loading them.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

# module names under tui.cli, in the order `muster --help` lists them
SUBCOMMANDS: tuple[str, ...] = (
    "cost",
    "validate",
    "samples",
    "new",
    "status",
    "briefing",
    "report",
    "replay",
    "odds",
    "simulate",
    "roster",
    "serve",
    "unlock",
)


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"tui.cli.{name}")
    except ModuleNotFoundError as exc:  # a subcommand still being written
        if exc.name == f"tui.cli.{name}":
            return None
        raise


def _subcommands() -> dict[str, ModuleType]:
    found = {}
    for name in SUBCOMMANDS:
        module = _load(name)
        if module is not None:
            found[module.NAME] = module
    return found


def _app_parser(commands: dict[str, ModuleType]) -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="muster",
        description="Muster: campaigns, forces and battles for tabletop wargames.",
        epilog="commands:\n"
        + "\n".join(f"  {name:<10} {mod.HELP}" for name, mod in commands.items())
        + "\n\nRun `muster COMMAND --help` for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("dir", nargs="?", default=None, help="folder of campaigns (default: here)")
    parser.add_argument(
        "--demo", nargs="?", const="", default=None, metavar="RULESET",
        help="open a fresh copy of the demo campaign, or the named ruleset's demo (e.g. figwars-3), "
        "written into DIR if given, else the user data folder",
    )
    return parser


def _plain_app_args(argv: list[str]) -> tuple[str | None, str | None] | None:
    """(DIR, --demo's value) of a plainly written `muster [DIR] [--demo [RULESET]]`, as
    the app parser reads it, without building that parser (start-up time); None for any
    other command line (help, abbreviations, --demo=..., mistakes): the parser takes those."""
    if len(argv) > 3 or any(not arg or (arg.startswith("-") and arg != "--demo") for arg in argv):
        return None
    if "--demo" not in argv:
        return (argv[0] if argv else None, None) if len(argv) < 2 else None
    at = argv.index("--demo")
    before, after = argv[:at], argv[at + 1 :]
    if "--demo" in after:
        return None
    ruleset = after[0] if after else ""  # --demo takes the word after it, if any
    rest = before + after[1:]  # DIR: the word before --demo, or the one after its RULESET
    if len(rest) > 1:
        return None
    return (rest[0] if rest else None), ruleset


def _demo_args(demo: str | None, folder: str | None) -> tuple[str | None, str | None]:
    """(ruleset of the demo, folder) from `--demo [RULESET]` and DIR. `muster --demo DIR`
    still means Flat Out War's demo in DIR: a word that names no demo is the folder."""
    if not demo:
        return demo, folder
    from scenarios.demo import demo_for

    try:
        demo_for(demo)
    except ValueError:
        if folder is not None:
            raise
        return "", demo
    return demo, folder


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    module = _load(argv[0]) if argv and argv[0] in SUBCOMMANDS else None
    if module is not None:
        import argparse

        parser = argparse.ArgumentParser(prog=f"muster {module.NAME}", description=module.HELP)
        module.add_arguments(parser)
        args = parser.parse_args(argv[1:])
        try:
            return int(module.run(args) or 0)
        except BrokenPipeError:
            # `muster cost --json | head`: the reader left; stop quietly, as Unix tools do.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 1
        except KeyboardInterrupt:
            return 130
    # the epilog lists every command, which means importing them: only for the help
    plain = _plain_app_args(argv)
    if plain is None:
        wants_help = any(arg == "-h" or (len(arg) > 2 and "--help".startswith(arg)) for arg in argv)  # --he too
        args = _app_parser(_subcommands() if wants_help else {}).parse_args(argv)
        plain = args.dir, args.demo
    try:
        demo, folder = _demo_args(plain[1], plain[0])
    except ValueError as exc:
        print(f"muster: {exc}", file=sys.stderr)
        return 2
    # Start-up builds a great many objects that live as long as the app (Textual's classes,
    # styles and widgets): the cycle collector would walk them again and again while nothing
    # is on screen yet. It is paused until the first screen is drawn (tui/app.py resume_gc).
    paused = gc.isenabled()
    gc.disable()
    from tui.app import run_app  # Textual is imported only when the TUI opens

    return run_app(folder, demo=demo is not None, demo_ruleset=demo or "", gc_paused=paused)


if __name__ == "__main__":
    sys.exit(main())
