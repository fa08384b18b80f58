"""Start-up loads only what the first screens need (issue 17): the app and its first screens
import none of the slow libraries, and `muster --demo` (write the demo, read it, show its
dashboard) does not pull in every ruleset, the engine, the chart library, the other commands
or the scenario library beyond the track's own scenarios.

Each check runs in a fresh interpreter, since this test process has imported everything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Loaded only when a screen or a write needs them.
NOT_AT_START = {
    "cattrs",  # saves' structuring: when a file is read
    "filelock",  # the write lock: when a file is written
    "plotext",  # the VP chart: from a campaign's second battle
    "textual_plotext",
    "tomli_w",
    "importlib.metadata",  # entry points: only when every ruleset or scheme is listed
    "campaign.engine",
    "saves.campaign_file",
    "scenarios",
    "tui.commands",  # the command palette's provider: when the palette first opens
}
NOT_FOR_THE_DASHBOARD = {
    "plotext",
    "textual_plotext",
    "importlib.metadata",
    "filelock",  # `muster --demo` writes the demo under a plain flock (filelock: where flock is missing)
    "cattrs",  # valid forces and scenarios are read by saves/plain_structure.py (cattrs: for errors)
    "saves.battle_file",  # a new campaign has no battles
    "campaign.engine",  # the default scheme is checked without its battle loop; nothing is replayed
    "campaign.activation.phased",
    "campaign.activation.cards",
    "campaign.rulesets.figwars3",  # the demo is Flat Out War: no other ruleset is needed
    "campaign.rulesets.d10_phased",
    "scenarios.demo_figwars",
    "scenarios.demo_d10",
    "tui.screens.battle",
    "tui.screens.campaigns",  # the dashboard comes first; the list is built when the player goes back
    "tui.screens.force_builder",
    "tui.cli.report",  # `muster` imports only the command it runs
    "json",  # campaign/inert_text.py: only the commands that print JSON
    "secrets",  # saves/lease.py takes its token from os.urandom (secrets imports hmac)
    "hmac",
    "pkgutil",  # campaign/rulesets: one ruleset is found by find_spec, pkgutil lists them all
    "hashlib",  # saves/lease.py `digest` takes CPython's own SHA-256 (hashlib loads OpenSSL)
    "_hashlib",
    "campaign.outcome",  # battle results: a new campaign has none (VP numbers: campaign/vp.py)
    # The campaign steps a new campaign's dashboard does not take: each in its own module,
    # with the records it makes (campaign/campaigns/__init__.py imports none of them).
    "campaign.campaigns.battle_plan",
    "campaign.campaigns.mustering",
    "campaign.campaigns.after_battle",
    "campaign.campaigns.briefing",
    "campaign.rulesets.simulator",  # `muster simulate`'s
    "campaign.rulesets.flat_out_war.bad_text",  # attribute text that cannot be read: the demo has none
    "tui.folder_scan",  # the campaigns list's entries
    "tui.battle_briefing",  # the briefing and muster screens'
    "tomli_w",  # saves/toml_write.py writes bare keys and plain values itself (tomli-w: the rest)
    "saves.validate",  # the files' kinds are in saves/file_kind.py; the validator is `muster validate`'s
}

PROBE = """
import sys
from pathlib import Path
import tui.app, tui.screens.campaigns, tui.screens.dashboard
first = sorted(sys.modules)
for name in ("tui.screens.campaigns", "tui.folder_scan"):  # for the dashboard: only what --demo needs
    del sys.modules[name]
import tui.cli
from tui import workspace
from scenarios import loader
folder = Path(sys.argv[2])
workspace.write_demo(Path(sys.argv[1]), folder=folder)  # as `muster --demo` does
loaded = workspace.open_campaign(folder)
track = workspace.track_scenarios(folder, loaded.campaign)
assert "demo-landing" in track and loaded.campaign.activation
for side in loaded.campaign.sides:
    assert workspace.price(loaded.forces[side.id]).total, side.id
workspace.other_writer(folder)
dashboard = sorted(sys.modules)
import json  # after the lists: json is one of the modules the dashboard must not need
print(json.dumps({"first": first, "dashboard": dashboard,
                  "scenarios read": sorted(loader._builtin.cache_info()._asdict().items())}))
"""


def test_first_screens_and_the_dashboard_load_only_what_they_need(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path), str(tmp_path / "demo-campaign")],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    first, dashboard = set(loaded["first"]), set(loaded["dashboard"])
    assert "tui.screens.dashboard" in first and "saves.campaign_file" in dashboard  # the probe ran
    assert sorted(NOT_AT_START & first) == []
    assert sorted(m for m in dashboard if any(m == n or m.startswith(n + ".") for n in NOT_FOR_THE_DASHBOARD)) == []
    assert dict(loaded["scenarios read"])["currsize"] == 4  # the demo track's four, of the whole library


def test_muster_imports_only_the_command_it_runs() -> None:
    from tui import cli

    for name in cli.SUBCOMMANDS:  # `muster NAME` finds its module by name, without importing the others
        module = cli._load(name)
        assert module is not None and module.NAME == name
    probe = (
        "import sys, tui.cli\n"
        "try:\n    tui.cli.main(['cost', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.removeprefix('tui.cli.') in tui.cli.SUBCOMMANDS))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "['tui.cli.cost']"


def test_a_plain_muster_command_line_is_read_without_argparse(tmp_path: Path) -> None:
    """`muster [DIR] [--demo [RULESET]]` written plainly is read as argparse would read it,
    without building the parser; anything else (help, abbreviations, mistakes) goes to it."""
    import contextlib
    import io
    import itertools

    from tui import cli

    words = ["a", "b", "--demo", "figwars-3", "", "-x", "--de", "--demo=x", "-h", "--", "-1"]
    plain_ones = 0
    for size in range(4):
        for argv in map(list, itertools.product(words, repeat=size)):
            try:
                with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
                    args = cli._app_parser({}).parse_args(argv)
                expected: tuple[str | None, str | None] | None = (args.dir, args.demo)
            except SystemExit:
                expected = None
            plain = cli._plain_app_args(argv)
            assert plain is None or plain == expected, argv
            plain_ones += plain is not None
    assert plain_ones == 1 + 3 + 1 + 3 + 3 + 9 + 9  # [], [D], [--demo], [D --demo], [--demo R], [D --demo R], [--demo R D]
    assert cli._plain_app_args(["--demo", "figwars-3", "here"]) == ("here", "figwars-3")
    assert cli._plain_app_args(["here", "--demo"]) == ("here", "")
    probe = (
        "import sys, tui.cli, tui.app\n"
        "tui.app.run_app = lambda *args, **kwargs: print(args, kwargs['demo']) or 0\n"
        "tui.cli.main([sys.argv[1], '--demo'])\n"
        "print('argparse' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=True,
                         cwd=ROOT, timeout=120)  # fmt: skip
    assert out.stdout.splitlines() == [f"({str(tmp_path)!r},) True", "False"]


def test_the_tui_help_still_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from tui import cli

    for flag in ("--help", "--he"):
        with pytest.raises(SystemExit):
            cli.main([flag])
        shown = capsys.readouterr().out
        assert all(f"  {name} " in shown for name in cli.SUBCOMMANDS), flag


def test_the_campaigns_package_hands_out_each_name_from_its_module() -> None:
    """`from campaign.campaigns import X` still works for every name it lists, though the
    package imports each module only when one of its names is asked for."""
    import importlib

    import campaign.campaigns as package

    probe = "import sys, campaign.campaigns.model\nprint(sorted(m for m in sys.modules if m.startswith('campaign.campaigns.')))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "['campaign.campaigns.model']"  # the package loads no other
    assert sorted(package.__all__) == sorted(package._HOME)
    for name, module in package._HOME.items():
        assert getattr(package, name) is getattr(importlib.import_module(f"campaign.campaigns.{module}"), name), name
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018
