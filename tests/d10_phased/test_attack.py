"""DP-EX-2: declaring, pooling, contact fire, hits, saves, absorption and criticals."""

from fractions import Fraction

import pytest

from campaign.rulesets.d10_phased.attack import Contribution, Declaration, Ledger, hits_from_faces
from campaign.rulesets.d10_phased.damage import NO_ATTACK, NO_MOVE, apply_unsaved, settle
from campaign.rulesets.d10_phased.profile import Model, Unit, Weapon
from campaign.rulesets.d10_phased.state import CLOSE, Roster, add_unit
from tests.d10_phased.scripted import drive

HALF = Fraction(1, 2)
PLUS3_MINUS1 = (1, 1, 1, -1)


def ogre_roster() -> Roster:
    roster = Roster()
    add_unit(roster, Unit("Ogre", (Model("Ogre", 6, save=2, close=3, hits=4),), character=True), "blue")
    return roster


def ex2_declaration() -> Declaration:
    return Declaration(
        "ogre/ogre-1",
        (
            Contribution("r1", 2, modifiers=(*PLUS3_MINUS1, -1)),  # out of command
            Contribution("r2", 2, modifiers=PLUS3_MINUS1),
            Contribution("r3", 2, modifiers=PLUS3_MINUS1),
        ),
    )


def test_ex2_hits_then_one_save_roll_then_absorption_and_a_critical() -> None:
    decl = ex2_declaration()
    assert [g.modifier for g in decl.groups()] == [0, 1, 1]
    scored = hits_from_faces(decl, [4, 10, 1, 6, 9, 3])
    ogre = scored["ogre/ogre-1"]
    assert ogre.hits == 3
    assert ogre.criticals == ("r1",)  # R3's 9+1 is a modified 10, not a natural one
    roster = ogre_roster()
    model = roster.model("ogre/ogre-1")
    ledger = Ledger()
    ledger.add(scored)
    # before the phase ends the Ogre still has its start-of-phase dice (DP-10.6)
    assert model.attack[CLOSE] == 3 and model.alive
    outcomes, asked = drive(settle(roster, ledger, turn=3), [5, 2], [3])
    assert [(r.die, r.count) for r in asked] == [(10, 2), (6, 1)]
    (out,) = outcomes
    assert (out.hits, out.saves, out.unsaved, out.destroyed, out.criticals) == (3, 1, 2, False, (NO_ATTACK,))
    assert (model.hits_left, model.attack[CLOSE], model.save) == (2, 1, 0)
    assert model.crit_no_attack_turn == 4
    assert roster.units["ogre"].hit_since_morale


def test_ex2b_to_e_pooling_and_clamping() -> None:
    c = Declaration(
        "t",
        (
            Contribution("r4", 3, multipliers=(HALF, HALF), modifiers=(1,)),
            Contribution("r5", 1, multipliers=(HALF,), modifiers=(-1,)),
        ),
    )
    (pooled,) = c.groups()
    assert (pooled.count, pooled.modifier, pooled.attackers) == (1, -1, ("r4", "r5"))
    d = Declaration("t", (Contribution("r6", 2, multipliers=(2, 2)),))
    assert d.dice == 4
    e = Declaration("t", (Contribution("r7", 1, multipliers=(HALF, HALF, HALF)),))
    assert e.dice == 0 and e.groups() == ()
    # whole dice stay with their model; only the fractions pool
    mixed = Declaration("t", (Contribution("a", 5, multipliers=(HALF,)), Contribution("b", 1, multipliers=(HALF,))))
    assert [(g.attackers, g.count) for g in mixed.groups()] == [(("a",), 2), (("a", "b"), 1)]


def test_ex2f_two_hit_model_halves_then_dies() -> None:
    roster = Roster()
    add_unit(roster, Unit("Brute", (Model("Brute", 6, save=3, close=3, hits=2, count=2),)), "blue")
    one, two = roster.members("brute")
    assert not apply_unsaved(one, 1)
    assert (one.hits_left, one.attack[CLOSE], one.save) == (1, 1, 1)
    assert apply_unsaved(one, 1) and not one.alive
    assert apply_unsaved(two, 2) and not two.alive


def test_ex2f_one_save_die_halves_to_zero() -> None:
    roster = Roster()
    add_unit(roster, Unit("B", (Model("B", 6, save=1, close=1, hits=2),)), "blue")
    (m,) = roster.members("b")
    apply_unsaved(m, 1)
    assert (m.save, m.attack[CLOSE]) == (0, 0)  # AMB-19


def test_big_model_loses_a_die_per_hit_and_never_below_zero() -> None:
    roster = Roster()
    add_unit(roster, Unit("G", (Model("G", 6, save=1, close=2, hits=5, weapons=(Weapon("Gun", 4),)),)), "blue")
    (m,) = roster.members("g")
    assert not apply_unsaved(m, 3)
    assert (m.hits_left, m.save, m.attack) == (2, 0, {"Gun": 1, CLOSE: 0})
    assert apply_unsaved(m, 2) and m.gone == "destroyed"


def test_ex2g_contact_fire_is_split_with_friendly_fire() -> None:
    decl = Declaration("b1", (Contribution("r", 7),), contact=("r9", "r10"))
    assert decl.shares() == {"b1": 3, "r9": 2, "r10": 2}
    assert [m for m, _ in decl.deal()] == ["b1"] * 3 + ["r9"] * 2 + ["r10"] * 2
    scored = hits_from_faces(decl, [5, 5, 1, 10, 2, 7, 7])
    assert {m: h.hits for m, h in scored.items()} == {"b1": 2, "r9": 1, "r10": 2}
    close = Declaration("b1", (Contribution("r", 7),), contact=("r9",), close=True)
    assert close.shares() == {"b1": 7}


def test_one_critical_per_attack_however_many_tens() -> None:
    decl = Declaration("t", (Contribution("a", 3), Contribution("b", 1)))
    scored = hits_from_faces(decl, [10, 10, 10, 10])
    assert scored["t"].criticals == ("a", "b")


def test_one_save_roll_per_model_against_the_phase_total_in_first_hit_order() -> None:
    roster = Roster()
    add_unit(roster, Unit("Line", (Model("Man", 6, save=2, close=1, count=2),)), "blue")
    a, b = (m.id for m in roster.members("line"))
    ledger = Ledger()
    ledger.add(hits_from_faces(Declaration(b, (Contribution("x", 1),)), [6]))
    ledger.add(hits_from_faces(Declaration(a, (Contribution("y", 2),), contact=(b,)), [7, 8]))
    assert ledger.pending[b].hits == 2 and ledger.pending[a].hits == 1
    outcomes, asked = drive(settle(roster, ledger, turn=1), [5, 9], [1, 2])
    assert [o.model for o in outcomes] == [b, a]  # b was hit first
    assert [o.destroyed for o in outcomes] == [False, True]
    assert all(r.count == 2 for r in asked)
    assert ledger.pending == {}


def test_critical_no_move_and_none_for_a_model_destroyed_now() -> None:
    roster = ogre_roster()
    ledger = Ledger()
    ledger.add(hits_from_faces(Declaration("ogre/ogre-1", (Contribution("a", 1),)), [10]))
    (out,), _ = drive(settle(roster, ledger, turn=1), [1, 1], [2])
    assert out.criticals == (NO_MOVE,) and roster.model("ogre/ogre-1").crit_no_move
    ledger.add(hits_from_faces(Declaration("ogre/ogre-1", (Contribution("a", 5),)), [10, 10, 10, 10, 9]))
    (out,), asked = drive(settle(roster, ledger, turn=1), [1])  # save dice down to 1; no critical die
    assert out.destroyed and len(asked) == 1


@pytest.mark.parametrize(("face", "result"), [(1, NO_MOVE), (2, NO_MOVE), (3, NO_ATTACK), (4, NO_ATTACK), (5, ""), (6, "")])
def test_each_critical_result_with_scripted_dice(face: int, result: str) -> None:
    """DP-17.1: a natural 10 among the hits that stay unsaved on a surviving model rolls a d6:
    1-2 no move next movement phase, 3-4 no attacks next turn, 5-6 nothing."""
    roster = ogre_roster()
    ogre = roster.model("ogre/ogre-1")
    ledger = Ledger()
    ledger.add(hits_from_faces(Declaration("ogre/ogre-1", (Contribution("a", 1),)), [10]))
    (out,), asked = drive(settle(roster, ledger, turn=2), [1, 1], [face])
    assert asked[-1].die == 6
    assert out.criticals == (result,)  # "" : rolled, no effect
    assert ogre.crit_no_move is (result == NO_MOVE)
    assert ogre.crit_no_attack_turn == (3 if result == NO_ATTACK else None)
