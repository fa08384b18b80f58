"""The abilities no other test rolls dice for (issue 14: each special ability with
scripted dice): Forward Observer's placement roll, Cowardly's failed check, Grizzled's
morale re-roll, Comms and Grizzled on COM (no dice: derived values)."""

from __future__ import annotations

from campaign.rulesets.figwars3 import checks, morale
from campaign.rulesets.figwars3.attack import drive
from campaign.rulesets.figwars3.commands import Report
from campaign.rulesets.figwars3.profile import derived_com
from campaign.rulesets.figwars3.ranged import placement_terms
from campaign.rulesets.figwars3.weapons import RANGED
from tests.figwars3.helpers import trooper
from tests.figwars3.test_interrupts import _battle, _give, run


def test_forward_observer_spots_blind_indirect_fire_at_minus_one_not_two() -> None:
    crew = trooper("Mortar crew", 3, 2, ranged=("light mortar",))
    mortar = RANGED["light mortar"]
    pools = {spotter: sum(t.dice for t in placement_terms(crew, mortar, {"range_band": "short", "spotter": spotter}))
             for spotter in ("self", "friend", "forward_observer")}
    assert pools["self"] - pools["friend"] == 2 and pools["self"] - pools["forward_observer"] == 1
    # the observer's roll: one die fewer than seen, one success places the round
    assert drive(checks.skill_check(pools["forward_observer"], 1, "placement"), [[1] * (pools["forward_observer"] - 1) + [3]]) == (True, 1)
    assert drive(checks.skill_check(pools["friend"], 1, "placement"), [[1] * pools["friend"]]) == (False, 0)


def test_a_cowardly_unit_that_fails_its_check_retreats_at_once() -> None:
    for cowardly, status in ((False, "falling_back"), (True, "retreating")):
        battle = _battle()
        rules, state = battle.rules, battle.state
        unit = state.unit("guard-squad")
        if cowardly:
            for el in unit.alive:
                _give(battle, el.id, "Cowardly")
        unit.data.update(pl=3, marker=True)
        dice = rules._situation(unit).pool()
        run(rules._check_morale(state, unit, battle.ctx), [Report(facts={})], [[1] * dice])
        assert unit.data["status"] == status


def test_grizzled_rerolls_a_morale_die() -> None:
    vets = morale.MoraleSituation(highest_tq=1, models=1, grizzled=True)
    plain = morale.MoraleSituation(highest_tq=1, models=1)
    assert drive(morale.morale_roll(plain, 1), [[2]])[0] is False
    assert drive(morale.morale_roll(vets, 1), [[2], [4]]) == (True, (4,))  # the blank re-rolled into a success
    assert morale.p_pass(vets, 1) > morale.p_pass(plain, 1)


def test_comms_and_grizzled_on_com() -> None:
    assert derived_com(2) == 4 and derived_com(2, comms=True) == 8 and derived_com(2, grizzled=True) == 5
