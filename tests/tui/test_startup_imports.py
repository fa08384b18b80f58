"""Start-up loads only what the first screens need (issue 17): the app and its first screens
import none of the slow libraries, and opening a campaign on the dashboard does not pull in
every ruleset, every activation scheme, the chart library or the file lock.

Each check runs in a fresh interpreter, since this test process has imported everything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tui import workspace

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
}
NOT_FOR_THE_DASHBOARD = {
    "plotext",
    "textual_plotext",
    "filelock",
    "importlib.metadata",
    "campaign.activation.cards",  # the demo plays the initiative scheme (a phased loop: its parts load)
    "campaign.rulesets.figwars3",  # the demo is Flat Out War: no other ruleset is needed
    "campaign.rulesets.d10_phased",
    "campaign.engine.battle",  # nothing is replayed to show the dashboard
    "tui.screens.battle",
    "tui.screens.force_builder",
}

PROBE = """
import json, sys
from pathlib import Path
import tui.app, tui.screens.campaigns, tui.screens.dashboard
first = sorted(sys.modules)
from tui import workspace
folder = Path(sys.argv[1])
loaded = workspace.open_campaign(folder)
workspace.campaign_scenarios(folder)
for side in loaded.campaign.sides:
    assert workspace.price(loaded.forces[side.id]).total, side.id
workspace.other_writer(folder)
print(json.dumps({"first": first, "dashboard": sorted(sys.modules)}))
"""


def test_first_screens_and_the_dashboard_load_only_what_they_need(tmp_path: Path) -> None:
    folder = workspace.write_demo(tmp_path)
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(folder)], capture_output=True, text=True, check=True, cwd=ROOT, timeout=120
    )
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    first, dashboard = set(loaded["first"]), set(loaded["dashboard"])
    assert "tui.screens.dashboard" in first and "saves.campaign_file" in dashboard  # the probe ran
    assert sorted(NOT_AT_START & first) == []
    assert sorted(NOT_FOR_THE_DASHBOARD & dashboard) == []
