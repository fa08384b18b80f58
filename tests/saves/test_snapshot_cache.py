"""The snapshot cache beside the saves: a resume uses it when it fits the file, replays
the log when it does not, and never writes into the campaign."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.engine.battle import Battle
from saves.battle_file import BattleFile, BattleHeader, BattleSide, drop_last_log, dump_header, dumps_battle, load_battle_file
from saves.battle_replay import battle_setup
from saves.snapshot_cache import battle_folder, cache_root, open_battle
from tests.flat_out_war.engine.corpus import battles


@pytest.fixture
def battle_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Battle]:
    monkeypatch.setattr(Battle, "CHECKPOINT_EVERY", 6)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    setup, battle = dict(battles())["auto Orc & Ghoblin Force v Alien Force seed 52"]()
    header = BattleHeader(ruleset=setup.ruleset, edition=setup.edition, scenario=setup.scenario, seed=setup.seed,
                          dice=setup.dice, sides=tuple(BattleSide(s.id, s.name, force=s.force) for s in setup.sides))
    path = tmp_path / "campaign" / "battles" / "01-corpus.toml"
    path.parent.mkdir(parents=True)
    path.write_text(dumps_battle(BattleFile(path, header, battle.log_dicts())), encoding="utf-8")
    return path, battle


def opened(path: Path) -> Battle:
    file = load_battle_file(path)
    return open_battle(file, battle_setup(file))


def same(a: Battle, b: Battle) -> None:
    assert a.digest() == b.digest() and a.events == b.events and a.log_dicts() == b.log_dicts()


def test_the_second_open_resumes_from_the_cache(battle_file: tuple[Path, Battle], monkeypatch: pytest.MonkeyPatch) -> None:
    path, battle = battle_file
    before = sorted(p.relative_to(path.parent.parent) for p in path.parent.parent.rglob("*"))
    first = opened(path)
    same(first, battle)
    cached = list(cache_root().rglob("*.json"))
    assert len(cached) == 1 and cache_root().is_relative_to(path.parent.parent.parent / "cache")
    assert sorted(p.relative_to(path.parent.parent) for p in path.parent.parent.rglob("*")) == before  # not in the campaign

    def no_replay(*args: object, **kwargs: object) -> Battle:
        raise AssertionError("replayed the whole log although the cache holds a snapshot")

    monkeypatch.setattr(Battle, "replay", no_replay)
    replayed_entries: list[int] = []
    file = load_battle_file(path)
    again = open_battle(file, battle_setup(file), progress=lambda done, total: replayed_entries.append(done))
    same(again, battle)
    assert replayed_entries[-1] == len(battle.log)  # the screen's progress still ends at the whole log
    assert again.checkpoint_entry is not None and again.checkpoint_entry > len(battle.log) - 20


def test_a_damaged_or_stale_snapshot_means_a_whole_replay(battle_file: tuple[Path, Battle]) -> None:
    path, battle = battle_file
    opened(path)
    (cached,) = cache_root().rglob("*.json")
    cached.write_text('{"format": 1, "entry": 3', encoding="utf-8")  # torn
    same(opened(path), battle)
    (cached,) = cache_root().rglob("*.json")  # the bad one gone, a good one written
    text = cached.read_text(encoding="utf-8")
    cached.write_text(text.replace('"round":', '"round":1', 1), encoding="utf-8")  # a state it was not taken of
    same(opened(path), battle)
    drop_last_log(path)  # an undo on disk: the snapshot still stands for a prefix of the log
    shorter = opened(path)
    same(shorter, Battle.replay(battle_setup(load_battle_file(path)), load_battle_file(path).log))


def test_a_changed_setup_never_meets_the_old_snapshots(battle_file: tuple[Path, Battle]) -> None:
    path, _ = battle_file
    file = load_battle_file(path)
    changed = BattleHeader(**{**{f: getattr(file.header, f) for f in ("ruleset", "sides", "edition", "scenario",
                                                                    "dice")}, "seed": file.header.seed + 1})
    assert battle_folder(path, dump_header(file.header)) != battle_folder(path, dump_header(changed))
