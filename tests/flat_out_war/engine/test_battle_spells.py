import pytest

from campaign.engine.errors import IllegalCommand

from .battle_helpers import SO, V17, Weapon, battle, decision, el, expect_roll, force, initiative, texts

ALL = ("Fast", "Fireball", "Fly", "Ironwill", "Shield", "Slow", "Strengthen", "Summon", "Teleport", "Terrify",
       "Weaken", "Zap")


def setup(mage_die="d8", edition=SO, attrs=("Magic",), target=None):
    a = force("Red", ("Coven", (el("Mage", mage_die, attributes=attrs, spells=ALL),)), ("Guards", (el("Guard", count=2),)),
              edition=edition)
    b = force("Blue", ("Foes", target or (el("Foe", count=2),)), edition=edition)
    bt = battle(a, b, edition=edition)
    initiative(bt, "red")
    bt.apply({"type": "activate", "unit": "coven"})
    return bt


def cast(b, spell, target="foes", **facts):
    cmd = {"type": "cast", "unit": "coven", "element": "coven/mage", "spell": spell, "facts": facts}
    if spell != "Summon":
        cmd["target"] = target
    b.apply(cmd)


def test_every_spell_is_offered_to_a_magic_element() -> None:
    b = setup()
    offered = {s.params["spell"] for s in decision(b).legal if s.type == "cast"}
    assert offered == set(ALL)


def test_difficulty_is_a_penalty_and_range_is_checked() -> None:
    b = setup()
    with pytest.raises(IllegalCommand, match="out of range"):
        cast(b, "Strengthen", target="guards", within_range=False)
    cast(b, "Strengthen", target="guards")
    req = expect_roll(b, 8, 1, "casting Strengthen")
    assert "difficulty -3 -3" in req.purpose
    b.roll([7])  # 7 - 3 = 4 works
    assert [(e.kind, e.target, e.remaining) for e in b.state.effects] == [("Strengthen", "guards", 6)]


def test_unit_effect_lasts_its_player_turns_from_the_turn_after() -> None:
    b = setup()
    cast(b, "Shield", target="guards")
    b.roll([8])
    b.apply({"type": "end_activation", "unit": "coven"})
    effect = b.state.effects[0]
    assert effect.remaining == 4 and not effect.data["fresh"]  # the casting turn is not counted
    for _ in range(3):  # blue, then a new round: red, blue
        if b.pending.__class__.__name__ == "RollRequest":
            initiative(b, "red")
        b.apply({"type": "pass"})
    assert b.state.effects and b.state.effects[0].remaining == 1
    initiative(b, "red")
    b.apply({"type": "pass"})
    assert b.state.effects == []
    assert any("Shield on Guards ends" in t for t in texts(b))


def next_activation(b) -> None:
    """End red's activation, blue passes, red wins the next initiative and activates the coven."""
    if decision(b).side == "red":
        b.apply({"type": "end_activation", "unit": "coven"})
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "coven"})


def test_recast_restarts_duration_without_stacking() -> None:
    b = setup()
    cast(b, "Weaken")
    b.roll([8])
    next_activation(b)
    assert b.state.effects[0].remaining == 5
    cast(b, "Weaken")
    b.roll([8])
    assert [(e.kind, e.remaining) for e in b.state.effects] == [("Weaken", 6)]


def test_misfire_on_natural_one_locks_out_then_recovers() -> None:
    b = setup(attrs=("Magic", "Tough"))
    cast(b, "Zap")
    b.roll([1])  # natural 1 misfires even though the spell has no penalty
    expect_roll(b, 8, 1, "misfire")
    b.roll([2])  # 2 + 1 (Tough) = 3: cannot cast for 1 turn
    mage = b.state.element("coven/mage")
    assert mage.data["lockout"] == 1
    b.apply({"type": "end_activation", "unit": "coven"})
    assert mage.data["lockout"] == 1  # the misfire's own turn does not count
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "coven"})
    assert not any(s.type == "cast" for s in decision(b).legal)
    with pytest.raises(IllegalCommand, match="not allowed now"):
        cast(b, "Zap")
    b.apply({"type": "end_activation", "unit": "coven"})
    assert not mage.data["lockout"]


def test_misfire_can_kill_the_caster() -> None:
    b = setup(attrs=("Magic", "Frail"))
    cast(b, "Zap")
    b.roll([1])
    b.roll([2])  # 2 - 1 = 1: killed
    assert not b.state.element("coven/mage").alive


def test_zap_hit_takes_minus_two_on_recovery() -> None:
    b = setup()
    cast(b, "Zap")
    b.roll([4])
    req = expect_roll(b, 6, 1, "recovery")
    assert "Zap -2" in req.purpose


def test_fireball_hits_every_covered_element_friend_or_foe() -> None:
    b = setup(mage_die="d10")
    cast(b, "Fireball", covered=["foes/foe", "foes/foe-2", "guards/guard"])
    b.roll([10])
    for _ in range(3):
        expect_roll(b, 6, 1, "recovery")
        b.roll([6])
    assert sum(1 for t in texts(b) if "caught in the Fireball" in t) == 3


def test_summon_die_steps_up_with_the_modified_total() -> None:
    b = setup(mage_die="d20")
    cast(b, "Summon")
    b.roll([16])  # 16 - 4 = 12: d12
    summoned = [u for u in b.state.units if u.data.get("summon_die")]
    assert len(summoned) == 1 and summoned[0].data["summon_die"] == 12 and summoned[0].side == "red"
    assert b.rules.victory_points(b.state)["blue"] == 0


def test_ironwill_and_terrify_change_morale_rolls() -> None:
    b = setup()
    cast(b, "Terrify")
    b.roll([8])
    assert "Terrify" in b.rules.effects_on(b.state, "foes")
    roll, _ = b.rules._morale_roll(b.state, b.state.unit("foes"), rally=False)
    assert roll.modifier == -2


def test_fast_and_slow_change_the_allowance() -> None:
    b = setup()
    cast(b, "Fast", target="coven")
    b.roll([8])
    b.apply({"type": "move", "unit": "coven", "facts": {"path": "open 6"}})  # MOVE 4 + 2


def test_fly_gives_flight_and_a_crash_roll_if_still_airborne() -> None:
    b = setup()
    cast(b, "Fly", target="coven")
    b.roll([8])
    b.state.effects[0].remaining = 1  # as if its last turn had come
    b.state.effects[0].data["fresh"] = False
    b.apply({"type": "move", "unit": "coven", "facts": {"fly": "take_off", "path": "open 2", "distance": 2}})
    mage = b.state.element("coven/mage")
    assert mage.markers["airborne"]
    expect_roll(b, 8, 1, "Fly ends in the air")
    b.roll([2])
    assert not mage.alive


def test_teleport_asks_the_players_to_place_the_unit() -> None:
    b = setup()
    cast(b, "Teleport")
    b.roll([8])
    assert "teleported" in texts(b)[-1]


def test_shield_makes_attack_spells_harder() -> None:
    b = setup()
    cast(b, "Shield", target="foes")
    b.roll([8])
    next_activation(b)
    cast(b, "Zap")
    assert "Shield -2" in b.pending.purpose


def test_v17_heavy_armour_stops_small_casters() -> None:
    b = setup(edition=V17, target=(el("Knight", "d8", attributes=("Heavy Armour",)),))
    cast(b, "Zap")
    assert "cannot harm" in texts(b)[-1]
