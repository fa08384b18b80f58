"""Attack eligibility, modifiers the engine adds, alternation bookkeeping, op fire (DP-EX-4 d)."""

import pytest

from campaign.rulesets.d10_phased.attack import Declaration, Ledger
from campaign.rulesets.d10_phased.combat import (
    MOVING,
    STATIONARY,
    contribution,
    declare,
    op_fire,
    why_cannot_attack,
    why_cannot_op_fire,
)
from campaign.rulesets.d10_phased.damage import settle
from campaign.rulesets.d10_phased.profile import Model, Unit, Weapon
from campaign.rulesets.d10_phased.state import CLOSE, PINNED, Roster, add_unit
from tests.d10_phased.scripted import drive

RIFLE = Weapon("Rifle", 2)


def two_sides() -> Roster:
    roster = Roster()
    add_unit(roster, Unit("Troopers", (Model("Trooper", 8, 1, weapons=(RIFLE,), close=1, count=2),)), "red")
    add_unit(roster, Unit("Snipers", (Model("Sniper", 6, 1, weapons=(RIFLE,), close=1, count=2),)), "blue")
    return roster


def test_eligibility_by_phase_and_flags() -> None:
    roster = two_sides()
    m = roster.model("troopers/trooper-1")
    assert why_cannot_attack(m, STATIONARY, 1) is None
    m.moved = True
    assert "moving attack" in why_cannot_attack(m, STATIONARY, 1)
    assert why_cannot_attack(m, STATIONARY, 1, all_stationary=True) is None  # Mad Minute
    assert why_cannot_attack(m, MOVING, 1) is None
    m.crit_no_attack_turn = 2
    assert why_cannot_attack(m, MOVING, 1) is None and "DP-17" in why_cannot_attack(m, MOVING, 2)
    m.specials = ["Fire On The Move"]
    m.crit_no_attack_turn = None
    assert why_cannot_attack(m, STATIONARY, 1) is None
    m.specials = ["Obligatory Target"]
    assert "DP-12.3" in why_cannot_attack(m, MOVING, 1, obligatory_target_ignored=True)


def test_out_of_command_and_markers_add_their_modifiers() -> None:
    roster = two_sides()
    m = roster.model("troopers/trooper-1")
    m.out_of_command, m.marker = True, PINNED
    c = contribution(m, "Rifle", modifiers=(1, 1, 1))
    assert c.modifiers == (1, 1, 1, -1, -2) and c.modifier == -1
    with pytest.raises(ValueError):
        contribution(m, "Sword")
    with pytest.raises(ValueError):
        contribution(m, CLOSE, dice=2)
    assert contribution(m, CLOSE, dice=0).dice == 0


def test_a_model_killed_in_the_phase_still_attacks_with_its_start_dice() -> None:
    roster = two_sides()
    ledger = Ledger()
    t1, t2 = "troopers/trooper-1", "troopers/trooper-2"
    s1 = "snipers/sniper-1"
    # red opens: both troopers fire at sniper 1 and hit
    decl = Declaration(s1, (contribution(roster.model(t1), "Rifle"), contribution(roster.model(t2), "Rifle")))
    drive(declare(roster, ledger, decl), [9, 9, 9, 9])
    sniper = roster.model(s1)
    assert sniper.alive and why_cannot_attack(sniper, STATIONARY, 1) is None
    # blue answers with the doomed sniper's full dice
    drive(declare(roster, ledger, Declaration(t1, (contribution(sniper, "Rifle"),))), [5, 2])
    with pytest.raises(ValueError, match="AMB-30"):
        drive(declare(roster, ledger, Declaration(s1, (contribution(roster.model(t2), CLOSE),))))
    assert roster.model(t1).attacked and sniper.attacked and sniper.attacked_by == 4
    assert roster.units["snipers"].attacked_since_morale
    outcomes, _ = drive(settle(roster, ledger, 1), [2], [3])
    assert [(o.model, o.destroyed) for o in outcomes] == [(s1, True), (t1, True)]


def test_ex4d_op_fire_applies_at_once_and_spends_the_firer() -> None:
    roster = two_sides()
    sniper = roster.model("snipers/sniper-1")
    trooper = roster.model("troopers/trooper-1")
    assert why_cannot_op_fire(sniper, 1) is None
    assert "own model" in why_cannot_op_fire(sniper, 1, blocked_only_by_own_model=True)
    assert "no op fire" in why_cannot_op_fire(sniper, 1, op_fire_allowed=False)
    assert "(b)" in why_cannot_op_fire(sniper, 1, worse_target_at_end=False)
    decl = Declaration(trooper.id, (contribution(sniper, "Rifle"),))
    (out,), asked = drive(op_fire(roster, decl, 1), [8, 2], [3])
    assert (out.hits, out.saves, out.destroyed) == (1, 0, True) and not trooper.alive
    assert sniper.op_fired and sniper.attacked
    assert why_cannot_attack(sniper, STATIONARY, 1) and why_cannot_attack(sniper, MOVING, 1)
    assert "op attack" in why_cannot_op_fire(sniper, 1)
