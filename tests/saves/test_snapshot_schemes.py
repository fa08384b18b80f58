"""Checkpoints under every turn structure: a card battle (d10 and Flat Out War hosts), a
phased battle (d10) and a FigWars battle resume from the snapshot cache to the state a whole
replay gives, play on from there exactly as the replayed battle does, and a damaged or
stale cache entry only means a whole replay."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from campaign.engine.battle import Battle
from campaign.engine.setup import BattleSetup
from campaign.force import Unit, Weapon
from saves.battle_file import BattleFile, BattleHeader, BattleSide, dumps_battle, load_battle_file
from saves.battle_replay import battle_setup
from saves.snapshot_cache import cache_root, open_battle
from tests.activation.play import random_play
from tests.activation.test_fow_host import BOW, el, fow_setup
from tests.d10_phased import cardplay, phasedplay
from tests.d10_phased.test_battle import setup as d10_phased_setup
from tests.d10_phased.test_cards import setup as d10_card_setup
from tests.figwars3.test_battle import bot as figwars_bot
from tests.figwars3.test_battle import setup as figwars_setup

Player = Callable[[Battle], object]


def fow_cards() -> BattleSetup:
    red = (
        Unit("Orcs", (el("Orc", count=5),)),
        Unit("Archers", (el("Archer", count=4, weapons=(BOW,)),)),
        Unit("Boss", (el("Boss", "d8", attributes=("Command",)),)),
    )
    blue = (
        Unit("Elves", (el("Elf", count=5),)),
        Unit("Rangers", (el("Ranger", count=4, weapons=(Weapon("Longbow", "ranged", "d8", range=18),)),)),
        Unit("Guard", (el("Guard", count=3),)),
    )
    return fow_setup(red, blue, dice="auto", seed=4, rounds=8, card_order="rank_major", prep_counts="any_action")


def fow_random(battle: Battle) -> None:
    random_play(battle, random.Random(4))


# (setup, a deterministic player): every one a battle of 90 to 450 log entries
BATTLES: dict[str, tuple[Callable[[], BattleSetup], Player]] = {
    "d10 cards": (lambda: d10_card_setup(seed=3, victory="position"), cardplay.play_out),
    "d10 phased": (lambda: d10_phased_setup(seed=3, victory="position"), phasedplay.play_out),
    "figwars initiative": (lambda: figwars_setup(seed=3, rounds=6), figwars_bot),
    "flat out war cards": (fow_cards, fow_random),
}


def write(path: Path, setup: BattleSetup, log: list[dict[str, object]]) -> None:
    header = BattleHeader(
        ruleset=setup.ruleset, edition=setup.edition, options=dict(setup.options), scenario=setup.scenario,
        activation=setup.activation, activation_options=dict(setup.activation_options), seed=setup.seed,
        dice=setup.dice, sides=tuple(BattleSide(s.id, s.name, force=s.force) for s in setup.sides),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps_battle(BattleFile(path, header, log)), encoding="utf-8")


def opened(path: Path) -> Battle:
    file = load_battle_file(path)
    return open_battle(file, battle_setup(file))


def same(a: Battle, b: Battle) -> None:
    assert a.digest() == b.digest() and a.events == b.events and a.log_dicts() == b.log_dicts()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(Battle, "CHECKPOINT_EVERY", 15)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


@pytest.mark.parametrize("kind", sorted(BATTLES))
def test_a_resumed_battle_is_the_replayed_one_and_plays_on_the_same(kind: str, cache: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    make, play = BATTLES[kind]
    whole = Battle.start(make())
    play(whole)
    assert whole.is_over and len(whole.log) >= 90
    cut = len(whole.log) * 4 // 5  # a battle in progress, well past its first checkpoints
    path = cache / "campaign" / "battles" / "01-long.toml"
    setup = battle_setup_of(path, make(), whole.log_dicts()[:cut])
    first = opened(path)  # replays the whole log, and caches its newest checkpoint
    replayed = Battle.replay(setup, whole.log_dicts()[:cut])
    same(first, replayed)
    assert len(list(cache_root().rglob("*.json"))) == 1

    replayed_entries: list[int] = []
    original = Battle._replay_entry

    def counted(self: Battle, index: int, entry: object) -> None:
        replayed_entries.append(index)
        original(self, index, entry)  # type: ignore[arg-type]

    monkeypatch.setattr(Battle, "_replay_entry", counted)
    resumed = opened(path)
    same(resumed, replayed)
    start = resumed.checkpoint_entry
    assert start is not None and start > Battle.CHECKPOINT_EVERY  # from a checkpoint, not the start
    assert replayed_entries and replayed_entries[0] > start and len(replayed_entries) < cut - Battle.CHECKPOINT_EVERY
    monkeypatch.setattr(Battle, "_replay_entry", original)

    # the resumed battle is where the replayed one is, down to its turn's generator
    play(resumed)
    play(replayed)
    same(resumed, replayed)
    assert resumed.is_over


def battle_setup_of(path: Path, setup: BattleSetup, log: list[dict[str, object]]) -> BattleSetup:
    """Write the battle file and return the setup Muster reads back from it."""
    write(path, setup, log)
    return battle_setup(load_battle_file(path))


@pytest.mark.parametrize("kind", sorted(BATTLES))
def test_a_damaged_or_stale_cache_entry_is_ignored(kind: str, cache: Path) -> None:
    make, play = BATTLES[kind]
    whole = Battle.start(make())
    play(whole)
    path = cache / "campaign" / "battles" / "01-long.toml"
    setup = battle_setup_of(path, make(), whole.log_dicts())
    expected = Battle.replay(setup, whole.log_dicts())
    same(opened(path), expected)

    def damage(change: Callable[[str], str]) -> None:
        (cached,) = cache_root().rglob("*.json")
        text = cached.read_text(encoding="utf-8")
        assert change(text) != text
        cached.write_text(change(text), encoding="utf-8")
        same(opened(path), expected)  # replayed whole, and a good snapshot cached again

    damage(lambda text: text[: len(text) // 2])  # torn
    damage(lambda text: text.replace('"round":', '"round":1', 1))  # not the state it names
    damage(lambda text: text.replace('"prefix":"', '"prefix":"0', 1))  # of another log
    (cached,) = cache_root().rglob("*.json")
    assert '"__attrs"' in cached.read_text(encoding="utf-8")  # the scheme's or the rules' own records
