"""Scenario files: the built-in library (scenarios/library) and a campaign's own scenarios/*.toml.

    format = "muster/1"
    kind = "scenario"
    id = "hold-the-bridge"
    name = "Hold the Bridge"
    victory = "strategic"        # strategic | vp | position | objectives | sudden-death
    points_limit = 600
    rounds = 6
    objectives = [{ name = "Bridge held", vp = 100, side = "defender", text = "..." }]
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from campaign.campaigns.scenario import Objective, Scenario
from campaign.findings import Finding
from saves.atomic import atomic_write_text
from saves.campaign_codec import compact, structure
from saves.errors import SaveError
from saves.file_kind import FileKind
from saves.toml_read import line_of, parse_toml, read_text
from saves.toml_write import dumps
from saves.versions import Migration, format_name, upgrade

KIND = "scenario"
FORMAT_VERSION = 1
FORMAT = format_name(FORMAT_VERSION)
MIGRATIONS: dict[int, Migration] = {}
SCENARIO_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
ORDER = {
    Scenario: (
        "id", "name", "summary", "victory", "points_limit", "rounds", "end_condition", "roles",
        "objectives", "deployment", "deploy_within", "special_rules", "rulesets", "activation", "activation_options",
    ),
    Objective: ("name", "vp", "side", "text"),
}  # fmt: skip
KEEP = {Scenario: frozenset({"id", "name", "victory"}), Objective: frozenset({"name"})}


def dump_scenario(scenario: Scenario) -> str:
    return dumps({"format": FORMAT, "kind": KIND, **compact(scenario, ORDER, KEEP)})


def save_scenario(path: str | Path, scenario: Scenario) -> None:
    atomic_write_text(path, dump_scenario(scenario))


def scenario_from_dict(data: dict[str, Any], file: str | Path, *, text: str | None = None) -> Scenario:
    doc = upgrade(data, file, current=FORMAT_VERSION, migrations=MIGRATIONS, text=text)
    kind = doc.pop("kind", KIND)
    if kind != KIND:
        raise SaveError(file, f"this is a {kind!r} file, not a scenario", key="kind", expected='"scenario"')
    scenario = structure(doc, Scenario, file=file, text=text)

    def error(key: str, message: str, expected: str = "") -> SaveError:
        path = [int(p) if p.isdigit() else p for p in re.split(r"[.\[\]]+", key) if p]
        return SaveError(file, message, key=key, expected=expected, line=line_of(text, path) if text else None)

    if not SCENARIO_ID.match(scenario.id):
        raise error("id", f"{scenario.id!r} is not a scenario id", "lower-case letters, digits and -")
    if scenario.points_limit is not None and scenario.points_limit <= 0:
        raise error("points_limit", f"{scenario.points_limit} is not a points limit", "a positive whole number")
    if scenario.rounds is not None and scenario.rounds <= 0:
        raise error("rounds", f"{scenario.rounds} is not a number of rounds", "a positive whole number")
    if scenario.deploy_within is not None and scenario.deploy_within <= 0:
        raise error("deploy_within", f"{scenario.deploy_within} is not a distance in inches", "a positive whole number")
    if scenario.rounds is None and not scenario.end_condition:
        raise error("rounds", "the scenario never ends", "rounds, or an end_condition in words")
    if scenario.activation or scenario.activation_options:
        from campaign.activation.registry import check_activation, check_scheme_name

        def choices() -> str:  # only for an error: listing the schemes imports every one of them
            from campaign.engine.scheme import scheme_names

            return " or ".join(f'"{name}"' for name in scheme_names())

        if not scenario.activation:
            raise error("activation_options", "activation options without an activation scheme",
                        f"activation = {choices()}")
        problem = check_activation(scenario.activation, scenario.activation_options)
        if problem:
            key = "activation" if check_scheme_name(scenario.activation) else "activation_options"
            raise error(key, problem, choices() if key == "activation" else "")
    names = [o.name for o in scenario.objectives]
    for i, objective in enumerate(scenario.objectives):
        if names.count(objective.name) > 1:
            raise error(f"objectives[{i}].name", f"objective {objective.name!r} appears twice")
        if objective.vp < 0:
            raise error(f"objectives[{i}].vp", "negative VPs", "0 or more")
        if objective.side and scenario.roles and objective.side not in scenario.roles:
            raise error(f"objectives[{i}].side", f"{objective.side!r} is not one of the roles", ", ".join(scenario.roles))
    return scenario


def parse_scenario(text: str, file: str | Path = "<scenario>") -> Scenario:
    return scenario_from_dict(parse_toml(text, file), file, text=text)


def load_scenario(path: str | Path) -> Scenario:
    return parse_scenario(read_text(path), path)


def load_folder(folder: str | Path) -> dict[str, Scenario]:
    """Every scenario file in a folder (sorted by name); two files with one id is an error."""
    found: dict[str, Scenario] = {}
    where: dict[str, Path] = {}
    for path in sorted(Path(folder).glob("*.toml")):
        scenario = load_scenario(path)
        if scenario.id in found:
            raise SaveError(path, f"scenario id {scenario.id!r} is also used by {where[scenario.id].name}", key="id")
        found[scenario.id] = scenario
        where[scenario.id] = path
    return found


def looks_like_scenario(path: Path, data: dict[str, Any]) -> bool:
    return data.get("kind") == KIND


def check_scenario_file(path: Path) -> list[Finding]:
    load_scenario(path)
    return []


FILE_KIND = FileKind("scenario", looks_like_scenario, check_scenario_file, order=50)
