"""Auto dice give the exact odds the engine predicts (fixed seeds, 3-sigma tolerance)."""

from collections import Counter
from fractions import Fraction
from math import sqrt

import pytest

from .battle_helpers import SO, V17, Weapon, battle, el, force

TRIALS = 700

RIFLES = force("A", ("Gunners", (el("Gunner", "d8", count=3, weapons=(Weapon("Rifle", "ranged", "d8", 12),)),)),
               edition=SO)
TOUGH = force("B", ("Targets", (el("Target", "d6", count=3, attributes=("Tough",)),)), edition=SO)
BRUTES = force("A", ("Gunners", (el("Brute", "d6", count=4, attributes=("Aggressive",)),)), edition=SO)
OGRES = force("B", ("Targets", (el("Ogre", "d8", count=2, attributes=("Hit Points 1",)),)), edition=SO)
BURST = force("A", ("Gunners", (el("Trooper", "d6", count=1, attributes=("Multi-shot 3x",),
                                   weapons=(Weapon("Burst gun", "ranged", "d10", 12),)),)), edition=V17)
RESILIENT = force("B", ("Targets", (el("Beast", "d8", count=2, attributes=("Frail",)),)), edition=V17)
HOWITZER = force("A", ("Gunners", (el("Gun", "d10", attributes=('Template: 2"',),
                                     weapons=(Weapon("Howitzer", "ranged", "d10", 24),)),)), edition=V17)
FLYERS = force("B", ("Targets", (el("Bat", "d6", count=2, attributes=("Flying", "Tough")),)), edition=SO)
TANKS = force("B", ("Targets", (el("Tank", "d10", kind="vehicle", weapons=(
    Weapon("Gun", "ranged", "d10", 24), Weapon("MG", "ranged", "d6", 12, mount="sponson"))),)), edition=V17)
CANNON = force("A", ("Gunners", (el("Cannon", "d12", count=2, weapons=(Weapon("AT", "ranged", "d12", 24),)),)),
               edition=V17)
MAGE = force("A", ("Gunners", (el("Mage", "d8", attributes=("Magic",), spells=("Zap",)),)), edition=SO)

CASES = [
    ("long-range rifles vs Tough", RIFLES, TOUGH, SO,
     {"type": "shoot", "unit": "gunners", "target": "targets", "facts": {"range_band": "long"}}),
    ("Aggressive flank melee vs Hit Points", BRUTES, OGRES, SO,
     {"type": "melee", "unit": "gunners", "target": "targets", "facts": {"aspect": "flank"}}),
    ("Multi-shot 3x vs Frail", BURST, RESILIENT, V17,
     {"type": "shoot", "unit": "gunners", "target": "targets", "facts": {"los": "partial"}}),
    ("2-inch template over two elements", HOWITZER, TOUGH, V17,
     {"type": "shoot", "unit": "gunners", "target": "targets",
      "facts": {"covered": ["targets/target", "targets/target-2"], "range_band": "long"}}),
    ("rifles vs airborne Tough flyers (crash)", RIFLES, FLYERS, SO,
     {"type": "shoot", "unit": "gunners", "target": "targets"}),
    ("cannon vs a two-weapon tank", CANNON, TANKS, V17,
     {"type": "shoot", "unit": "gunners", "target": "targets"}),
    ("Zap", MAGE, TOUGH, SO,
     {"type": "cast", "unit": "gunners", "element": "gunners/mage", "spell": "Zap", "target": "targets"}),
]


@pytest.mark.parametrize("name,attacker,target,edition,command", CASES, ids=[c[0] for c in CASES])
def test_auto_dice_match_exact_odds(name, attacker, target, edition, command) -> None:
    seen: Counter[int] = Counter()
    predicted = None
    for seed in range(1, TRIALS + 1):
        b = battle(attacker, target, edition=edition, auto=seed)
        for es in b.state.unit("targets").elements:  # flyers start in the air
            if "Flying" in b.rules.element_of(b.state, es).attributes:
                es.markers["airborne"] = True
        if b.pending.side == "blue":
            b.apply({"type": "pass"})
        b.apply({"type": "activate", "unit": "gunners"})
        if predicted is None:
            predicted = b.rules.odds(b.state, b.types.from_dict(command))
        b.apply(command)
        seen[b.state.unit("targets").data["lost"]] += 1
    assert predicted is not None and sum(predicted.casualties.values()) == 1
    for count, p in predicted.casualties.items():
        sigma = sqrt(float(p * (1 - p)) / TRIALS)
        assert abs(seen[count] / TRIALS - float(p)) <= 3 * sigma + 1e-9, (name, count, seen, predicted.casualties)
    mean = sum(k * v for k, v in seen.items()) / TRIALS
    var = float(sum((k - predicted.expected_casualties) ** 2 * p for k, p in predicted.casualties.items()))
    assert abs(mean - float(predicted.expected_casualties)) <= 3 * sqrt(var / TRIALS)
    assert predicted.expected_casualties > Fraction(0)
