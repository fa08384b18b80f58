from fractions import Fraction as F

from campaign.rulesets.flat_out_war.engine.artillery import (
    BOUNCE_TABLE,
    Covered,
    bounce,
    scatter,
    template_plan,
)
from campaign.rulesets.flat_out_war.engine.casting import SPELL_EFFECTS, resolve_cast, summon_die
from campaign.rulesets.flat_out_war.engine.clocks import Timed, tick_reload
from campaign.rulesets.flat_out_war.engine.rolls import Mod
from campaign.rulesets.flat_out_war.engine.victory import display_vp, unit_vp


def test_all_twelve_spells_have_an_effect() -> None:
    assert len(SPELL_EFFECTS) == 12


def test_cast_natural_one_misfires_even_with_bonuses() -> None:
    r = resolve_cast(1, (Mod("Strengthen", 2), Mod("x", 3)))
    assert r.misfire and not r.works
    assert resolve_cast(6, (Mod("difficulty -2", -2),)).works
    assert not resolve_cast(5, (Mod("difficulty -2", -2),)).works


def test_summon_step_ups_use_modified_total() -> None:
    assert [summon_die(t) for t in (4, 5, 6, 7, 8, 10, 12, 13, 14, 30)] == [4, 4, 6, 6, 8, 10, 12, 12, 20, 20]


def test_spell_duration_counts_from_the_turn_after_casting() -> None:
    t = Timed(4)
    t = t.tick()  # the casting turn ends: not counted
    assert t.left == 4 and not t.expired
    for _ in range(3):
        t = t.tick()
    assert not t.expired
    assert t.tick().expired


def test_reload_counts_quiet_turns_and_restarts() -> None:
    left = tick_reload(0, took_other_action=True, fired_this_turn=True, reload=2)
    assert left == 2
    left = tick_reload(left, False, False, 2)
    assert left == 1
    assert tick_reload(left, True, False, 2) == 2  # an Other Action restarts the count
    assert tick_reload(1, False, False, 2) == 0


def test_scatter_and_bounce_tables() -> None:
    assert [scatter(f) for f in (1, 2, 3, 4)] == [
        "6 inches right", "6 inches left", "6 inches short", "6 inches long"]
    assert [bounce(f) for f in range(1, 7)] == [None, None, 4, 4, 8, 8]
    assert len(BOUNCE_TABLE) == 6


def test_template_plan_modes_and_friendly_fire() -> None:
    foe1, foe2, pal = Covered("u", "a", False), Covered("u", "b", False), Covered("m", "c", True)
    plan = template_plan([foe1, foe2, pal], mode="roll_each", friendly_fire=True, aimed_at=foe1)
    assert plan.auto_hits == (foe1,) and plan.rolled == (foe2, pal)
    plan = template_plan([foe1, foe2, pal], mode="roll_each", friendly_fire=False, aimed_at=foe1)
    assert plan.rolled == (foe2,)
    plan = template_plan([foe1, pal], mode="auto_hit", friendly_fire=False)
    assert plan.auto_hits == (foe1,) and plan.rolled == ()
    # scattered shots and Fireball hit friend or foe
    assert template_plan([foe1, pal], mode="roll_each", friendly_fire=False, scattered=True).rolled == (foe1, pal)
    assert template_plan([pal], mode="auto_hit", friendly_fire=False, auto_hit_spell=True).auto_hits == (pal,)


def test_vp_is_exact_quarters() -> None:
    assert unit_vp(200) == 50
    assert unit_vp(13) == F(13, 4) and display_vp(unit_vp(13)) == "3.25"
    assert unit_vp(40, summoned=True) == 0
