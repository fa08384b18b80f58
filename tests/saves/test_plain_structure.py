"""The fast path (saves/plain_structure.py) gives cattrs' own result or stands aside.

cattrs (the strict converters of saves/convert.py and saves/campaign_codec.py) is the
reference. Over every kind of document the project writes or ships (forces, scenarios,
campaigns, battle setups and results) the fast path must build exactly what cattrs
builds (compared by repr, so a tuple for a list or 1.0 for 1 shows), and over broken
variants of them (each value replaced by values of other kinds, each key dropped, an
unknown key added) it must either refuse (NotPlain: cattrs then decides and words the
error) or agree with cattrs."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest

from campaign.campaigns import Campaign, HistoryEntry, LedgerLine, Scenario
from campaign.force import Force
from campaign.rulesets import get_ruleset, ruleset_ids
from saves import campaign_codec, convert, plain_structure
from saves.battle_file import BattleHeader, BattleResult
from saves import campaign_file
from saves.campaign_file import dump_campaign
from saves.errors import SaveError
from saves.force_file import dump_force, parse_force
from saves.scenario_file import parse_scenario
from saves.versions import upgrade

ROOT = Path(__file__).resolve().parents[2]
TOY = "tests/tui/campaign_fixture.py"


def _doc(text: str, pop_kind: bool = True) -> dict[str, Any]:
    data = tomllib.loads(text)
    data.pop("format", None)
    if pop_kind:
        data.pop("kind", None)
    return data


def documents(tmp_path: Path) -> Iterator[tuple[str, dict[str, Any], type, bool]]:
    """(name, parsed document, class, with Fractions) for every kind of file."""
    for rid in ruleset_ids():
        for force in get_ruleset(rid).sample_forces():
            yield f"force {rid} {force.name}", _doc(dump_force(force)), Force, False
    for path in sorted((ROOT / "scenarios").rglob("*.toml")):
        yield f"scenario {path.name}", _doc(path.read_text()), Scenario, True
    from scenarios.demo import demos

    for rid, make in demos().items():
        campaign, _forces = make(2026)
        yield f"campaign demo {rid}", _doc(dump_campaign(campaign)), Campaign, True
    from tests.tui.campaign_fixture import make_toy_campaign  # a campaign with a battle fought

    folder = make_toy_campaign(tmp_path / "toy")
    yield "campaign toy", _doc((folder / "campaign.toml").read_text()), Campaign, True
    played = tomllib.loads((folder / "battles" / "01-hold-the-bridge.toml").read_text())
    yield "battle setup toy", played["setup"], BattleHeader, True
    old = ROOT / "tests/saves/fixtures/muster0-campaign/campaign.toml"  # a muster/0 file, migrated
    migrated = upgrade(tomllib.loads(old.read_text()), old, current=1, migrations=campaign_file.MIGRATIONS)
    migrated.pop("kind", None)
    yield "campaign muster/0", migrated, Campaign, True
    for path in sorted((ROOT / "tests/saves/golden").glob("*.toml")):
        data = tomllib.loads(path.read_text())
        if "setup" in data:
            yield f"battle setup {path.name}", data["setup"], BattleHeader, True
            if "result" in data:
                yield f"battle result {path.name}", data["result"], BattleResult, True
        else:
            data.pop("format", None)
            data.pop("kind", None)
            yield f"campaign {path.name}", data, Campaign, True


def _cattrs(data: Any, cls: type, fractions: bool) -> Any:
    return (campaign_codec.converter() if fractions else convert.converter()).structure(data, cls)


def test_every_kind_of_document_is_built_as_cattrs_builds_it(tmp_path: Path) -> None:
    seen = set()
    for name, data, cls, fractions in documents(tmp_path):
        fast = plain_structure.structure(data, cls, fractions=fractions)  # valid files: never NotPlain
        assert repr(fast) == repr(_cattrs(data, cls, fractions)), name
        seen.add(cls)
    assert seen == {Force, Scenario, Campaign, BattleHeader, BattleResult}


KINDS = (True, 0, 7, -2, 1.5, 3.0, "", "x", "45/2", [], ["x"], [1], {}, {"x": 1})


def _variants(data: Any) -> Iterator[Any]:
    """`data` with one thing broken: a value replaced, a key dropped, an unknown key added."""
    if isinstance(data, dict):
        yield {**data, "bogus_key": 1}
        for key, value in data.items():
            yield {k: v for k, v in data.items() if k != key}
            for other in (*KINDS, *_variants(value)):
                yield {**data, key: other}
    elif isinstance(data, list):
        for i, value in enumerate(data[:3]):  # a few items: each is structured alike
            for other in (*KINDS, *_variants(value)):
                yield [*data[:i], other, *data[i + 1 :]]


def _one_of_each(tmp_path: Path) -> Iterator[tuple[str, dict[str, Any], type, bool]]:
    firsts: dict[type, int] = {}
    for name, data, cls, fractions in documents(tmp_path):
        if firsts.get(cls, 0) < 2 or name.startswith("campaign toy"):
            firsts[cls] = firsts.get(cls, 0) + 1
            yield name, data, cls, fractions


def test_a_broken_document_is_refused_or_built_as_cattrs_builds_it(tmp_path: Path) -> None:
    refused = built = 0
    for name, data, cls, fractions in _one_of_each(tmp_path):
        for variant in _variants(data):
            try:
                fast = plain_structure.structure(variant, cls, fractions=fractions)
            except plain_structure.NotPlain:
                refused += 1
                continue
            built += 1
            assert repr(fast) == repr(_cattrs(variant, cls, fractions)), (name, variant)
    assert refused > 1000 and built > 100  # both ways were taken, many times


def test_what_the_fast_path_refuses_cattrs_words() -> None:
    text = dump_force(get_ruleset("flat-out-war").sample_forces()[0]).replace('die = "d6"', "die = 6", 1)
    with pytest.raises(SaveError) as caught:
        parse_force(text, "f.toml")
    assert caught.value.key == "units[0].elements[0].die" and "text in quotes" in caught.value.expected
    assert caught.value.line is not None
    scenario = (ROOT / "scenarios/demo").glob("*.toml").__next__().read_text()
    with pytest.raises(SaveError, match="unknown key 'nmae'") as caught:
        parse_scenario(scenario.replace("name =", "nmae =", 1), "s.toml")
    assert caught.value.hint == "did you mean 'name'?"


def test_types_outside_the_fast_path_are_left_to_cattrs() -> None:
    @attrs.define
    class Odd:
        pair: tuple[int, str]  # a fixed-length tuple: cattrs' own rules

    with pytest.raises(plain_structure.NotPlain):
        plain_structure.structure({"pair": [1, "a"]}, Odd)
    assert convert.structure({"pair": [1, "a"]}, Odd, file="x") == Odd((1, "a"))
    with pytest.raises(plain_structure.NotPlain):  # Fractions only where the codec has them
        plain_structure.structure({"battle": 1, "side": "a", "vp": 2}, LedgerLine)
    assert plain_structure.structure({"battle": 1, "side": "a", "vp": "5/2"}, LedgerLine, fractions=True).vp == Fraction(5, 2)


def test_leaves_are_unstructured_as_cattrs_does() -> None:
    leaves = [True, 3, 2.5, "x", Fraction(9, 2), Fraction(4)]
    assert [campaign_codec._leaf(v) for v in leaves] == [campaign_codec.converter().unstructure(v) for v in leaves]
    assert [campaign_codec._leaf(v) for v in leaves[4:]] == ["9/2", 4]
    assert [convert.plain_leaf(v) for v in leaves[:4]] == [convert.converter().unstructure(v) for v in leaves[:4]]
    entry = HistoryEntry(1, "s", "hold-the-bridge", "Hold", "battles/01.toml", vps={"a": Fraction(9, 2), "b": Fraction(3)})
    assert campaign_codec.compact(entry)["vps"] == {"a": "9/2", "b": 3}
