"""Issue 12: rules the engine got wrong when played as the rulebooks read, each test
named after the rule, driven with table dice."""

import pytest

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import RollRequest

from .battle_helpers import SO, V17, Weapon, battle, el, expect_roll, force, initiative, texts


def duel(red, blue, edition=SO, **opts):
    bt = battle(force("Red", *red, edition=edition), force("Blue", *blue, edition=edition), edition=edition, **opts)
    initiative(bt, "red")
    return bt


def move(b, unit="reds", **facts):
    b.apply({"type": "move", "unit": unit, "facts": facts})


# --- 10: facts that name ids are checked like the others ------------------------------------
@pytest.mark.parametrize("facts", [
    {"run": True, "path": "open 4", "light_terrain": ["reds/ghost"]},
    {"run": True, "path": "open 4", "light_terrain": ["blues/b"]},  # not the moving unit's
    {"path": "open 2", "within_6": ["nobody"]},
    {"path": "open 2", "jump_heavy": ["reds/ghost"]},
])
def test_fow22_move_facts_naming_unknown_ids_are_refused(facts) -> None:
    b = duel([("Reds", (el("A"),))], [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "reds"})
    before = b.state.to_dict() if hasattr(b.state, "to_dict") else None
    with pytest.raises(IllegalCommand) as exc:
        move(b, **facts)
    assert exc.value.rule == "FOW 22"
    if before is not None:
        assert b.state.to_dict() == before


@pytest.mark.parametrize("kind,facts", [
    ("melee", {"allocate": ["blues/zz"]}),
    ("shoot", {"covered": ["blues/zz"]}),
    ("shoot", {"allocate": ["reds/a"]}),  # the attacker's own element is not the target's
])
def test_fow22_attack_facts_naming_unknown_ids_are_refused(kind, facts) -> None:
    gun = (Weapon("Gun", "ranged", "d6", 12),)
    b = duel([("Reds", (el("A", weapons=gun),))], [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "reds"})
    with pytest.raises(IllegalCommand) as exc:
        b.apply({"type": kind, "unit": "reds", "target": "blues", "facts": facts})
    assert exc.value.rule == "FOW 22"


# --- 3: Arcing Artillery ignores line of sight, template or not --------------------------------
LOBBER = el("Rock Lobber", "d8", move=4, weapons=(Weapon("Lobber", "ranged", "d12", 48),),
            attributes=("Arc-Artillery", "Cumbersome"))


def test_fow11_arcing_artillery_without_a_template_fires_without_line_of_sight() -> None:
    b = duel([("Lobbers", (LOBBER,))], [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "lobbers"})
    odds = b.rules.odds(b.state, b.types.from_dict(
        {"type": "shoot", "unit": "lobbers", "target": "blues", "facts": {"los": "none"}}))
    assert odds.p_hit == (pytest.approx(9 / 12),)
    b.apply({"type": "shoot", "unit": "lobbers", "target": "blues", "facts": {"los": "none"}})
    expect_roll(b, 12, 1, "to hit")
    b.roll([4])
    expect_roll(b, 6, 1, "recovery")


def test_fow11_plain_gun_still_needs_line_of_sight() -> None:
    b = duel([("Reds", (el("A", weapons=(Weapon("Gun", "ranged", "d8", 12),)),))], [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "reds"})
    with pytest.raises(IllegalCommand, match="line of sight"):
        b.apply({"type": "shoot", "unit": "reds", "target": "blues", "facts": {"los": "none"}})


# --- 5: a broken unit runs as soon as it is next activated, its whole run ----------------------
def _broken_blues():
    b = duel([("Reds", (el("A", count=4),))], [("Blues", (el("B", count=4),))])
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues"})
    b.roll([6, 1, 1, 1])
    b.roll([1])  # one of four lost
    b.roll([1])  # morale fails: broken
    assert b.state.unit("blues").data["morale"] == "broken"
    b.apply({"type": "end_activation", "unit": "reds"})
    b.apply({"type": "activate", "unit": "blues"})
    return b


def test_fow15_3_broken_unit_must_flee_before_it_can_end_its_activation() -> None:
    b = _broken_blues()
    legal = {s.type for s in b.pending.legal}
    assert legal == {"move"}
    with pytest.raises(IllegalCommand):
        b.apply({"type": "end_activation", "unit": "blues"})


@pytest.mark.parametrize("facts", [{"distance": 1}, {"path": "open 1"}, {"path": "open 4, light 1"}])
def test_fow15_3_the_flight_is_the_whole_run(facts) -> None:
    b = _broken_blues()  # MOVE 4: the flight runs 8"
    with pytest.raises(IllegalCommand) as exc:
        b.apply({"type": "move", "unit": "blues", "facts": facts})
    assert exc.value.rule == "FOW 15.3"


@pytest.mark.parametrize("facts", [{"path": "open 8"}, {"distance": 8}, {"path": "open 5, light 2"}, {},
                                   {"path": "open 2", "stopped": True}, {"path": "open 3", "left_table": True}])
def test_fow15_3_a_whole_run_or_a_stop_is_a_flight(facts) -> None:
    b = _broken_blues()
    b.apply({"type": "move", "unit": "blues", "facts": facts})
    assert b.state.unit("blues").markers.get("moved") or b.state.unit("blues").eliminated


# --- found in play: a distance is checked against the allowance -------------------------------
def test_fow6_1_a_distance_beyond_the_allowance_is_refused() -> None:
    b = duel([("Reds", (el("A", move=8),))], [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "reds"})
    with pytest.raises(IllegalCommand) as exc:
        move(b, distance=40)
    assert exc.value.rule == "FOW 6.1"
    with pytest.raises(IllegalCommand):
        move(b, distance=9)
    move(b, distance=8)


# --- 6: Sharpshooter is +1 only in an activation in which the element does not move ------------
SNIPER = el("Sniper", weapons=(Weapon("Rifle", "ranged", "d6", 24),), attributes=("Sharpshooter",))


def test_fow20_sharpshooter_bonus_forbids_a_move_later_in_the_activation() -> None:
    b = duel([("Snipers", (SNIPER,))], [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "snipers"})
    b.apply({"type": "shoot", "unit": "snipers", "target": "blues"})
    req = expect_roll(b, 6, 1, "to hit")
    assert "Sharpshooter +1" in req.purpose
    b.roll([2])  # 2 + 1 = 3: a miss
    with pytest.raises(IllegalCommand) as exc:
        move(b, unit="snipers", path="open 2")
    assert exc.value.rule == "FOW 20 Sharpshooter"


def test_fow20_sharpshooter_declaring_a_later_move_gives_no_bonus() -> None:
    b = duel([("Snipers", (SNIPER,))], [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "snipers"})
    cmd = {"type": "shoot", "unit": "snipers", "target": "blues", "facts": {"will_move": True}}
    assert b.rules.odds(b.state, b.types.from_dict(cmd)).p_hit == (pytest.approx(1 / 2),)
    b.apply(cmd)
    req = expect_roll(b, 6, 1, "to hit")
    assert "Sharpshooter" not in req.purpose
    b.roll([2])
    move(b, unit="snipers", path="open 2")
    assert b.state.unit("snipers").markers["moved"]


# --- 7, 8, 4: flyers ----------------------------------------------------------------------------
def flyer(**kw):
    return el("Bat", move=4, attributes=("Flying",) + kw.pop("attributes", ()), **kw)


def test_fow20_flying_take_off_is_declared_before_the_move_so_the_move_is_flown() -> None:
    b = duel([("Bats", (flyer(),))], [("Blues", (el("B"),))], edition=SO)
    b.apply({"type": "activate", "unit": "bats"})
    move(b, unit="bats", fly="take_off", path="heavy 4, open 6")  # [SO] 3 x MOVE, terrain ignored
    assert b.state.element("bats/bat").markers["airborne"]


def test_fow20_flying_v17_take_off_move_passes_over_terrain() -> None:
    b = duel([("Bats", (flyer(),))], [("Blues", (el("B"),))], edition=V17)
    b.apply({"type": "activate", "unit": "bats"})
    with pytest.raises(IllegalCommand):
        move(b, unit="bats", fly="take_off", path="open 5")  # [1.7] MOVE, not triple
    move(b, unit="bats", fly="take_off", path="heavy 2, open 2")


def test_fow20_flying_v17_airborne_flyer_ignores_terrain_even_impassable() -> None:
    b = duel([("Bats", (flyer(),))], [("Blues", (el("B"),))], edition=V17)
    b.state.element("bats/bat").markers["airborne"] = True
    b.apply({"type": "activate", "unit": "bats"})
    move(b, unit="bats", path="impassable 1, heavy 3")


def test_fow20_flying_airborne_flyer_must_move_two_inches_each_activation() -> None:
    b = duel([("Bats", (flyer(weapons=(Weapon("Spit", "ranged", "d6", 12),)),))], [("Blues", (el("B"),))])
    b.state.element("bats/bat").markers["airborne"] = True
    b.apply({"type": "activate", "unit": "bats"})
    assert "end_activation" not in {s.type for s in b.pending.legal}
    with pytest.raises(IllegalCommand):
        b.apply({"type": "end_activation", "unit": "bats"})
    with pytest.raises(IllegalCommand, match="at least 2"):
        move(b, unit="bats", distance=1)
    with pytest.raises(IllegalCommand, match="at least 2"):
        move(b, unit="bats")
    b.apply({"type": "shoot", "unit": "bats", "target": "blues"})  # the Other Action may come first
    b.roll([1])
    assert "end_activation" not in {s.type for s in b.pending.legal}
    move(b, unit="bats", distance=2)
    assert b.state.unit("bats").markers["moved"] and b.pending.side == "blue"  # moved and acted: done


def test_fow20_hover_and_landing_flyers_owe_no_two_inches() -> None:
    b = duel([("Bats", (flyer(attributes=("Hover",)),)), ("Owls", (el("Owl", move=4, attributes=("Flying",)),))],
             [("Blues", (el("B"),))])
    for eid in ("bats/bat", "owls/owl"):
        b.state.element(eid).markers["airborne"] = True
    b.apply({"type": "activate", "unit": "bats"})
    assert "end_activation" in {s.type for s in b.pending.legal}
    b.apply({"type": "end_activation", "unit": "bats"})
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "owls"})
    move(b, unit="owls", fly="land")
    assert "airborne" not in b.state.element("owls/owl").markers


# --- found in play: an objective is achieved by one side, its VPs scored once ------------------
def test_fow18_an_objective_is_achieved_by_one_side_only() -> None:
    from .battle_helpers import Objective

    b = duel([("Reds", (el("A"),))], [("Blues", (el("B"),))], objectives=(Objective("Landing zone", 50),))
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "objective", "side": "red", "objective": "Landing zone"})
    b.apply({"type": "objective", "side": "red", "objective": "Landing zone"})  # said again: still once
    with pytest.raises(IllegalCommand, match="two sides"):
        b.apply({"type": "objective", "side": "blue", "objective": "Landing zone"})
    assert b.rules.victory_points(b.state) == {"red": 50, "blue": 0}


# --- found in play: a template with no `covered` asks who is under it ---------------------------
def test_fow17_template_without_covered_asks_who_else_is_under_it() -> None:
    gun = Weapon("Howitzer", "ranged", "d12", 24, traits=('Template: 2"',))
    b = duel([("Guns", (el("Gun", "d12", weapons=(gun,)),))], [("Elves", (el("Elf", count=3),))], edition=V17)
    b.apply({"type": "activate", "unit": "guns"})
    b.apply({"type": "shoot", "unit": "guns", "target": "elves"})
    b.roll([8])  # on target
    assert b.pending.side == "red" and "under" in b.pending.prompt
    assert {s.type for s in b.pending.legal} == {"report"}
    b.apply({"type": "report", "elements": ["elves/elf-2", "elves/elf-3"]})
    expect_roll(b, 6, 1, "recovery")  # the aimed element: hit
    b.roll([6])
    expect_roll(b, 12, 1, "template attack on Elf")  # each other one reported: its own roll
    b.roll([1])
    expect_roll(b, 12, 1, "template attack on Elf")


def test_fow17_flame_template_without_covered_asks_too() -> None:
    breath = Weapon("Breath", "ranged", "d8", 6, traits=("Template: Flame",))
    b = duel([("Dragons", (el("Dragon", "d8", weapons=(breath,)),))], [("Elves", (el("Elf", count=3),))])
    b.apply({"type": "activate", "unit": "dragons"})
    b.apply({"type": "shoot", "unit": "dragons", "target": "elves"})
    assert {s.type for s in b.pending.legal} == {"report"}
    b.apply({"type": "report", "elements": ["elves/elf", "elves/elf-3"]})
    expect_roll(b, 8, 1, "flame attack on Elf")


# --- 1: a tight unit's ranks: the first rank fights, the first two ranks shoot ------------------
GUN = (Weapon("Gun", "ranged", "d6", 24),)


def shoot_cmd(b, unit="reds", target="blues", **facts):
    return b.types.from_dict({"type": "shoot", "unit": unit, "target": target, "facts": facts})


def test_fow11_a_column_shoots_with_its_first_two_ranks_only() -> None:
    b = duel([("Reds", (el("A", count=6, weapons=GUN),))], [("Blues", (el("B", count=6),))])
    b.apply({"type": "activate", "unit": "reds"})
    move(b, formation="column", path="open 2")  # a column of one file: ranks of one element
    assert len(b.rules.odds(b.state, shoot_cmd(b)).p_hit) == 2
    with pytest.raises(IllegalCommand, match="first two ranks"):
        b.apply({"type": "shoot", "unit": "reds", "target": "blues",
                 "facts": {"shooters": ["reds/a", "reds/a-2", "reds/a-3"]}})
    b.apply({"type": "shoot", "unit": "reds", "target": "blues"})
    expect_roll(b, 6, 2, "to hit")


def test_fow11_a_column_of_two_files_shoots_with_four() -> None:
    small = duel([("Reds", (el("A", count=5, weapons=GUN),))], [("Blues", (el("B"),))])
    small.apply({"type": "activate", "unit": "reds"})
    with pytest.raises(IllegalCommand, match="more than 5"):
        move(small, formation="column", depth="double", path="open 2")
    b = duel([("Reds", (el("A", count=8, weapons=GUN),))], [("Blues", (el("B", count=6),))])
    b.apply({"type": "activate", "unit": "reds"})
    move(b, formation="column", depth="double", path="open 2")
    assert len(b.rules.odds(b.state, shoot_cmd(b)).p_hit) == 4


def test_fow10_a_line_of_two_ranks_fights_with_its_first_rank_only() -> None:
    b = duel([("Reds", (el("A", count=7),))], [("Blues", (el("B", count=8),))])
    b.state.unit("reds").data["depth"] = "double"  # set up in two ranks: 4 in front, 3 behind
    b.apply({"type": "activate", "unit": "reds"})
    melee = b.types.from_dict({"type": "melee", "unit": "reds", "target": "blues"})
    assert len(b.rules.odds(b.state, melee).p_hit) == 4
    five = [f"reds/a-{i}" for i in range(2, 7)]
    with pytest.raises(IllegalCommand, match="first rank"):
        b.apply({"type": "melee", "unit": "reds", "target": "blues", "facts": {"attackers": five}})
    b.apply({"type": "melee", "unit": "reds", "target": "blues", "facts": {"attackers": five[:2]}})
    expect_roll(b, 6, 2, "to hit")
    b.roll([1, 1])
    # split: the rest of the first rank may still fight, but no more than it holds
    with pytest.raises(IllegalCommand, match="first rank"):
        b.apply({"type": "melee", "unit": "reds", "target": "blues", "facts": {"attackers": five[2:]}})


def test_fow10_loose_units_have_no_ranks() -> None:
    b = duel([("Reds", (el("A", count=7, attributes=("Loose Cohesion",)),))], [("Blues", (el("B", count=8),))])
    b.state.unit("reds").data.update(formation="column")
    b.apply({"type": "activate", "unit": "reds"})
    melee = b.types.from_dict({"type": "melee", "unit": "reds", "target": "blues"})
    assert len(b.rules.odds(b.state, melee).p_hit) == 7


# --- 9: odds read the same description of the attack the engine resolves -------------------------
def test_odds_count_the_lucky_reroll_of_a_miss() -> None:
    from fractions import Fraction as F

    b = duel([("Reds", (el("Hero", "d4", weapons=(Weapon("Gun", "ranged", "d4", 12),), attributes=("Lucky",)),))],
             [("Blues", (el("B"),))], lucky_prompt=True)
    b.apply({"type": "activate", "unit": "reds"})
    odds = b.rules.odds(b.state, shoot_cmd(b))
    assert odds.p_hit == (F(1, 4) + F(3, 4) * F(1, 4),)  # a miss re-rolled, the better face kept
    b.apply({"type": "shoot", "unit": "reds", "target": "blues"})
    b.roll([2])
    assert b.pending.data == {"lucky": "reds/hero", "face": 2, "good": False}  # the policy can read it


def test_odds_leave_a_friend_under_the_template_out_unless_friendly_fire() -> None:
    from fractions import Fraction as F

    gun = Weapon("Howitzer", "ranged", "d12", 24, traits=('Template: 2"',))
    b = duel([("Guns", (el("Gun", "d12", weapons=(gun,)),)), ("Pals", (el("Pal"),))], [("Elves", (el("Elf"),))],
             template_friendly_fire=False)
    b.apply({"type": "activate", "unit": "guns"})
    cmd = shoot_cmd(b, unit="guns", target="elves", covered=["elves/elf", "pals/pal"])
    assert b.rules.odds(b.state, cmd).casualties == {0: 1 - F(9, 12) * F(1, 2), 1: F(9, 12) * F(1, 2)}
    with_friends = b.rules.__class__({**b.rules.options, "template_friendly_fire": True}, edition=SO)
    with_friends.new_state(b.setup)
    noted = with_friends.odds(b.state, cmd)
    assert any("Pal" in n and "not in these odds" in n for n in noted.notes)
    assert max(noted.casualties) == 1  # the elves' one element: never two
    b.apply(cmd.to_dict())
    b.roll([9])
    expect_roll(b, 6, 1, "recovery")  # the elf only: no roll against the friend
    b.roll([6])
    assert not isinstance(b.pending, RollRequest) or "template attack" not in b.pending.purpose


def test_odds_of_a_template_over_heavy_armour_harm_nothing() -> None:
    gun = Weapon("Mortar", "ranged", "d8", 24, traits=('Template: 2"',))
    b = duel([("Guns", (el("Gun", "d8", weapons=(gun,)),))], [("Tanks", (el("Tank", count=3, attributes=("Heavy Armor",)),))])
    b.apply({"type": "activate", "unit": "guns"})
    cmd = shoot_cmd(b, unit="guns", target="tanks", covered=["tanks/tank", "tanks/tank-2"])
    assert b.rules.odds(b.state, cmd).casualties == {0: 1}
    b.apply(cmd.to_dict())
    b.roll([8])  # on target, but a d8 cannot harm Heavy Armour: no recovery roll, no further roll
    assert not isinstance(b.pending, RollRequest)


# --- audit gaps closed: Submersible -------------------------------------------------------------
def test_fow20_submersible_dives_with_its_whole_move_and_only_submersible_weapons_reach_it() -> None:
    sub = el("Sub", kind="vehicle", weapons=(Weapon("Torpedo", "ranged", "d8", 12, traits=("Submersible Weapon",)),),
             attributes=("Submersible",))
    gun = (Weapon("Gun", "ranged", "d8", 12),)
    b = duel([("Subs", (sub,)), ("Guns", (el("Gunner", weapons=gun),))], [("Boats", (el("Boat", attributes=("Submersible",)),))])
    b.apply({"type": "activate", "unit": "subs"})
    with pytest.raises(IllegalCommand, match="whole move"):
        move(b, unit="subs", submerge="dive", path="open 2")
    move(b, unit="subs", submerge="dive")
    assert b.state.element("subs/sub").markers["submerged"]
    b.state.element("boats/boat").markers["submerged"] = True
    with pytest.raises(IllegalCommand, match="Submersible Weapon"):
        b.rules.check(b.state, shoot_cmd(b, unit="guns", target="boats"))
    b.rules.check(b.state, shoot_cmd(b, unit="subs", target="boats"))  # the torpedo reaches it


# --- audit: Inaccurate without a template still scatters on a miss (FOW 17) ----------------------
def test_fow17_inaccurate_weapon_without_a_template_scatters_on_a_miss() -> None:
    lobber = el("Lobber", "d8", weapons=(Weapon("Rock", "ranged", "d10", 24),),
                attributes=("Arcing Artillery", "Inaccurate"))
    b = duel([("Lobbers", (lobber,))], [("Elves", (el("Elf", count=2),))])
    b.apply({"type": "activate", "unit": "lobbers"})
    assert len(b.rules.odds(b.state, shoot_cmd(b, unit="lobbers", target="elves")).p_hit) == 1  # one aiming roll
    b.apply({"type": "shoot", "unit": "lobbers", "target": "elves", "facts": {"los": "none"}})
    expect_roll(b, 10, 1, "aiming at Elf")
    b.roll([2])  # a miss: the marker scatters
    expect_roll(b, 4, 1, "scatter")
    b.roll([1])
    assert "under" in b.pending.prompt


# --- audit: a Transport carries the load it was bought for -------------------------------------
def test_fow20_transport_carries_only_its_load() -> None:
    b = duel([("Reds", (el("A"),))],
             [("Blues", (el("Truck", "d8", kind="vehicle", attributes=("Transport 2 x d6",)),)),
              ("Riders", (el("Rider", count=2),)), ("More", (el("Extra"),)), ("Ogres", (el("Ogre", "d10"),))])

    def board(unit):
        b.rules.check(b.state, b.types.from_dict({"type": "move", "unit": unit, "facts": {"embark": "blues/truck"}}))

    with pytest.raises(IllegalCommand, match="do not fit"):  # a d10 is bigger than the d6 load
        board("ogres")
    board("riders")
    for es in b.state.unit("riders").elements:
        es.markers["carried_by"] = "blues/truck"
    with pytest.raises(IllegalCommand, match="do not fit"):  # two aboard already
        board("more")
