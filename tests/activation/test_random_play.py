"""Random legal play never crashes the card scheme and always replays to the same digest."""

import random

import pytest

from campaign.engine.battle import Battle
from campaign.force import Unit, Weapon
from tests.activation.play import random_play
from tests.activation.test_fow_host import BOW, el, fow_setup
from tests.activation.toy import ToyRules, setup


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_toy_battles_replay(seed: int) -> None:
    rng = random.Random(seed)
    s = setup([("A", 3), ("B", 2), ("Wizard C", 2)], [("X", 3), ("General Y", 2)], seed=seed, rounds=5, ap_max=3)
    b = Battle.start(s, rules=ToyRules())
    random_play(b, rng)
    assert b.is_over
    assert Battle.replay(s, b.log_dicts(), rules=ToyRules()).digest() == b.digest()


@pytest.mark.parametrize("seed", [4, 5])
def test_random_fow_battles_replay(seed: int) -> None:
    rng = random.Random(seed)
    red = (
        Unit("Orcs", (el("Orc", count=3),)),
        Unit("Archers", (el("Archer", count=2, weapons=(BOW,)),)),
        Unit("Boss", (el("Boss", "d8", attributes=("Command",)),)),
    )
    blue = (
        Unit("Elves", (el("Elf", count=3),)),
        Unit("Rangers", (el("Ranger", count=2, weapons=(Weapon("Longbow", "ranged", "d8", range=18),)),)),
    )
    s = fow_setup(red, blue, dice="auto", seed=seed, rounds=5, card_order="rank_major", prep_counts="any_action")
    b = Battle.start(s)
    random_play(b, rng)
    assert b.is_over
    assert Battle.replay(s, b.log_dicts()).digest() == b.digest()
