"""Loading scenarios: the built-in library, the demo's scenarios, and a campaign's own.

A built-in scenario's file is named for its id (library/<id>.toml, demo/<id>.toml; a test
holds every file to it), so the ids are known without reading the files, and a screen that
shows a few scenarios (the dashboard's track) reads only those.
"""

from __future__ import annotations

from collections.abc import Iterable
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


def _toml_files(folder: Path) -> list[Path]:
    """folder.glob("*.toml"), sorted, without glob's pattern compiler (start-up)."""
    return sorted(path for path in folder.iterdir() if path.name.endswith(".toml"))


@cache
def _builtin_files() -> dict[str, Path]:
    """Each built-in scenario's file by id (the library's first, as in `_builtins`)."""
    found = {path.stem: path for path in _toml_files(LIBRARY)}
    for path in _toml_files(DEMO):
        found.setdefault(path.stem, path)
    return found


@cache
def _builtin(scenario_id: str) -> Scenario:
    from saves.errors import SaveError
    from saves.scenario_file import load_scenario

    path = _builtin_files()[scenario_id]
    scenario = load_scenario(path)
    if scenario.id != scenario_id:  # the index is the file names: a renamed id must rename its file
        raise SaveError(path, f"a built-in scenario's id must be its file's name, not {scenario.id!r}", key="id")
    return scenario


def builtin_scenarios() -> dict[str, Scenario]:
    """Every built-in scenario (library and demo), by id."""
    return dict(_builtins())


def builtin_scenario_ids() -> frozenset[str]:
    """The ids of the built-in scenarios, without reading them."""
    return frozenset(_builtin_files())


def scenarios_for(folder: str | Path | None) -> dict[str, Scenario]:
    """Built-ins plus the campaign folder's scenarios/*.toml, which win on a shared id."""
    found = builtin_scenarios()
    found.update(own_scenarios(folder))
    return found


def own_scenarios(folder: str | Path | None) -> dict[str, Scenario]:
    """The campaign folder's scenarios/*.toml by id (none when there is no folder)."""
    if folder is not None and (Path(folder) / "scenarios").is_dir():
        return load_folder(Path(folder) / "scenarios")
    return {}


def scenarios_named(folder: str | Path | None, ids: Iterable[str]) -> dict[str, Scenario]:
    """The scenarios of `scenarios_for(folder)` with these ids (those that exist), reading
    only the built-ins asked for."""
    own = own_scenarios(folder)
    files = _builtin_files()
    return {sid: own[sid] if sid in own else _builtin(sid) for sid in ids if sid in own or sid in files}
