"""Loading scenarios: the built-in library, the demo's scenarios, and a campaign's own."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from campaign.campaigns.scenario import Scenario
from saves.scenario_file import load_folder

HERE = Path(__file__).resolve().parent
LIBRARY = HERE / "library"
DEMO = HERE / "demo"


@cache
def _builtins() -> dict[str, Scenario]:
    found = load_folder(LIBRARY)
    for sid, scenario in load_folder(DEMO).items():
        found.setdefault(sid, scenario)
    return found


def builtin_scenarios() -> dict[str, Scenario]:
    """Every built-in scenario (library and demo), by id."""
    return dict(_builtins())


def scenarios_for(folder: str | Path | None) -> dict[str, Scenario]:
    """Built-ins plus the campaign folder's scenarios/*.toml, which win on a shared id."""
    found = builtin_scenarios()
    if folder is not None and (Path(folder) / "scenarios").is_dir():
        found.update(load_folder(Path(folder) / "scenarios"))
    return found
