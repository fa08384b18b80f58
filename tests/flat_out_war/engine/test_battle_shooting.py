import pytest

from campaign.engine.errors import IllegalCommand

from .battle_helpers import SO, V17, Weapon, battle, decision, el, expect_roll, force, initiative, texts

RIFLE = Weapon("Rifle", "ranged", "d8", 12)


def setup(shooter, target, edition=V17, **opts):
    a = force("Red", ("Shooters", shooter), edition=edition)
    b = force("Blue", ("Targets", target), edition=edition)
    b_ = battle(a, b, edition=edition, **opts)
    initiative(b_, "red")
    b_.apply({"type": "activate", "unit": "shooters"})
    return b_


def shoot(b, **facts):
    b.apply({"type": "shoot", "unit": "shooters", "target": "targets", "facts": facts})


def test_out_of_range_names_long_range() -> None:
    b = setup((el("Gunner", weapons=(RIFLE,)),), (el("Elf"),))
    with pytest.raises(IllegalCommand, match=r'out of range \(long range is 24"\)'):
        shoot(b, range_band="out")
    with pytest.raises(IllegalCommand, match="no line of sight"):
        shoot(b, los="none")


def test_long_range_partial_los_and_batch() -> None:
    b = setup((el("Gunner", count=3, weapons=(RIFLE,)),), (el("Elf", count=3),))
    shoot(b, range_band="long", los="partial")
    req = expect_roll(b, 8, 3, "to hit")
    assert "long range -1" in req.purpose and "partial LoS -1" in req.purpose
    b.roll([6, 5, 8])  # 6-2=4 hit, 5-2=3 miss, 8-2=6 hit
    expect_roll(b, 6, 1, "recovery")


def test_multishot_rolls_per_shot_and_exhaustible_counts_uses() -> None:
    gun = Weapon("Launcher", "ranged", "d6", 12, traits=("Multi-shot 2x", "Exhaustible Weapon"))
    b = setup((el("Gunner", weapons=(gun,)),), (el("Elf", count=2),))
    shoot(b)
    expect_roll(b, 6, 2, "to hit")
    b.roll([1, 1])
    g = b.state.element("shooters/gunner")
    assert g.data["uses"] == {"0": 3}


def test_reload_blocks_fire_until_quiet_turns_pass() -> None:
    gun = Weapon("Cannon", "ranged", "d10", 24, traits=("Reload: 1",))
    b = setup((el("Gun", weapons=(gun,)),), (el("Elf"),))
    shoot(b)
    b.roll([1])
    assert b.state.element("shooters/gun").data["reload"] == {"0": 1}
    b.apply({"type": "end_activation", "unit": "shooters"})
    b.apply({"type": "pass"})  # blue's turn
    initiative(b, "red")  # round 2: the firing turn is done; a quiet red turn follows
    b.apply({"type": "activate", "unit": "shooters"})
    with pytest.raises(IllegalCommand, match="reloading"):
        shoot(b)
    b.apply({"type": "end_activation", "unit": "shooters"})  # no Other Action: counts down
    assert "is reloaded" in " ".join(texts(b))
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "shooters"})
    shoot(b)
    expect_roll(b, 10, 1, "to hit")


def test_sharpshooter_when_not_moved_and_stealth_needs_12_inches() -> None:
    b = setup((el("Sniper", weapons=(RIFLE,), attributes=("Sharpshooter",)),),
              (el("Scout", attributes=("Stealth",)),))
    with pytest.raises(IllegalCommand, match="12"):
        shoot(b, within_12=False)
    shoot(b)
    assert "Sharpshooter +1" in b.pending.purpose
    b.roll([1])
    assert not b.state.element("shooters/sniper").markers.get("hidden")


def test_stealth_shooter_is_revealed_by_firing() -> None:
    b = setup((el("Ghost", weapons=(RIFLE,), attributes=("Stealth",)),), (el("Elf"),))
    assert b.state.element("shooters/ghost").markers["hidden"] is True
    shoot(b)
    b.roll([1])
    assert "hidden" not in b.state.element("shooters/ghost").markers


def test_heavy_ranged_weapon_gets_through_heavy_armour() -> None:
    lascannon = Weapon("Lascannon", "ranged", "d8", 24, traits=("Heavy Ranged Weapon",))
    b = setup((el("Gunner", weapons=(lascannon,)),), (el("Tank", "d12", kind="vehicle", attributes=("Heavy Armour",)),))
    shoot(b)
    expect_roll(b, 8, 1, "to hit")


def test_multi_weapon_vehicle_loses_failed_weapons() -> None:
    tank = el("Tank", "d10", kind="vehicle", weapons=(Weapon("Gun", "ranged", "d10", 24),
                                                      Weapon("MG", "ranged", "d6", 12, mount="sponson")))
    b = setup((el("Gunner", "d10", weapons=(Weapon("AT", "ranged", "d10", 24),)),), (tank,))
    shoot(b)
    b.roll([9])  # hit
    expect_roll(b, 10, 1, "recovery (Gun)")
    b.roll([7])
    expect_roll(b, 6, 1, "recovery (MG)")
    b.roll([2])
    t = b.state.element("targets/tank")
    assert t.alive and t.data["lost_weapons"] == [1]
    assert any("loses MG" in x for x in texts(b))


def test_ensnare_snares_and_the_target_escapes_on_a_recovery_pass() -> None:
    net = Weapon("Net", "ranged", "d8", 8, traits=("Ensnare",))
    b = setup((el("Netter", weapons=(net,)),), (el("Elf"),), edition=SO)
    shoot(b)
    b.roll([5])
    elf = b.state.element("targets/elf")
    assert elf.markers["snared"] and elf.alive
    b.apply({"type": "end_activation", "unit": "shooters"})
    d = decision(b)
    assert d.side == "blue"
    b.apply({"type": "activate", "unit": "targets"})
    expect_roll(b, 6, 1, "escape (Snared)")
    b.roll([4])
    assert "snared" not in elf.markers


def test_template_with_inaccurate_scatter_rolls_against_reported_elements() -> None:
    mortar = Weapon("Mortar", "ranged", "d10", 24, traits=("Arcing Artillery", "Inaccurate", 'Template: 4"'))
    b = setup((el("Mortar", "d10", weapons=(mortar,), kind="vehicle", move=0), el("Crew", count=2)),
              (el("Elf", count=3),))
    shoot(b, los="none")  # Arcing Artillery ignores line of sight
    b.roll([2])  # aiming roll misses
    expect_roll(b, 4, 1, "scatter")
    b.roll([3])
    assert "6 inches short" in " ".join(texts(b))
    assert decision(b).side == "red"
    b.apply({"type": "report", "elements": ["targets/elf-2", "shooters/crew"]})  # friend or foe
    expect_roll(b, 10, 1, "attack on Elf")
    b.roll([1])
    expect_roll(b, 10, 1, "attack on Crew")


def test_burst_template_roll_each_with_aimed_element_hit() -> None:
    gun = Weapon("Howitzer", "ranged", "d12", 24, traits=('Template: 2"',))
    b = setup((el("Gun", "d12", weapons=(gun,)),), (el("Elf", count=3),))
    shoot(b, covered=["targets/elf", "targets/elf-2"])
    b.roll([8])  # on target: the marker's element is hit
    expect_roll(b, 6, 1, "recovery")
    b.roll([6])
    expect_roll(b, 12, 1, "template attack on Elf")  # the other covered element gets its own roll


def test_auto_hit_template_option() -> None:
    gun = Weapon("Howitzer", "ranged", "d12", 24, traits=('Template: 2"',))
    b = setup((el("Gun", "d12", weapons=(gun,)),), (el("Elf", count=3),), template_mode="auto_hit")
    shoot(b, covered=["targets/elf", "targets/elf-2"])
    b.roll([8])
    expect_roll(b, 6, 1, "recovery")
    b.roll([6])
    expect_roll(b, 6, 1, "recovery")  # second covered element is hit without a roll


def test_linear_artillery_bounce_then_path() -> None:
    cannon = Weapon("Cannon", "ranged", "d12", 20, traits=("Linear Artillery",))
    b = setup((el("Cannon", "d12", weapons=(cannon,), kind="vehicle", move=0), el("Crew")), (el("Elf", count=3),))
    shoot(b)
    b.roll([10])  # hit
    expect_roll(b, 6, 1, "recovery")
    b.roll([6])
    expect_roll(b, 6, 1, "bounce")
    b.roll([5])  # 8 inches on
    assert 'bounces 8"' in " ".join(texts(b))
    b.apply({"type": "report", "elements": ["targets/elf-2"]})
    expect_roll(b, 12, 1, "bounce path attack on Elf")


def test_linear_artillery_miss_stops_cleanly() -> None:
    cannon = Weapon("Cannon", "ranged", "d12", 20, traits=("Linear Artillery",))
    b = setup((el("Cannon", "d12", weapons=(cannon,), kind="vehicle", move=0), el("Crew")), (el("Elf"),))
    shoot(b)
    b.roll([2])
    b.roll([1])  # stops: a clean miss
    assert "stops" in texts(b)[-1]
    assert decision(b).side == "red"


def test_crewless_gun_cannot_fire() -> None:
    cannon = Weapon("Cannon", "ranged", "d12", 20)
    b = setup((el("Cannon", "d12", weapons=(cannon,), kind="vehicle", move=0), el("Crew")), (el("Elf"),))
    b.state.element("shooters/crew").alive = False
    with pytest.raises(IllegalCommand, match="no crew"):
        shoot(b)


def test_linear_artillery_so_text_option_rolls_the_table_again() -> None:
    cannon = Weapon("Cannon", "ranged", "d12", 20, traits=("Linear Artillery",))
    b = setup((el("Cannon", "d12", weapons=(cannon,), kind="vehicle", move=0), el("Crew")), (el("Elf", count=2),),
              edition=SO, linear_miss="table_again")
    shoot(b)
    b.roll([2])  # miss
    expect_roll(b, 6, 1, "overshoot")
    b.roll([4])  # 4 inches on
    expect_roll(b, 6, 1, "bounce after the overshoot")
    b.roll([6])  # then bounces 8"
    b.apply({"type": "report", "elements": ["targets/elf"]})
    expect_roll(b, 12, 1, "bounce path attack on Elf")


def test_split_fire_between_targets() -> None:
    a = force("Red", ("Shooters", (el("Gunner", count=2, weapons=(RIFLE,)),)))
    b = force("Blue", ("Targets", (el("Elf"),)), ("Others", (el("Orc"),)))
    bt = battle(a, b)
    initiative(bt, "red")
    bt.apply({"type": "activate", "unit": "shooters"})
    bt.apply({"type": "shoot", "unit": "shooters", "target": "targets", "facts": {"shooters": ["shooters/gunner"]}})
    expect_roll(bt, 8, 1, "shooting at Targets")
    bt.roll([1])
    legal = [(s.type, s.params.get("target")) for s in decision(bt).legal]
    assert ("shoot", "others") in legal and ("melee", "others") not in legal
    with pytest.raises(IllegalCommand, match="already attacked"):
        bt.apply({"type": "shoot", "unit": "shooters", "target": "others", "facts": {"shooters": ["shooters/gunner"]}})
    bt.apply({"type": "shoot", "unit": "shooters", "target": "others"})
    expect_roll(bt, 8, 1, "shooting at Others")
    bt.roll([1])
    assert not any(s.type == "shoot" for s in decision(bt).legal)


def test_odds_count_only_the_weapons_the_player_chose() -> None:
    """The `weapons` fact limits the odds to the dice the shot will really roll."""
    from campaign.engine.odds import odds

    tank = el("Tank", "d10", kind="vehicle",
              weapons=(Weapon("Cannon", "ranged", "d10", 24), Weapon("MG", "ranged", "d8", 12, mount="sponson")))
    b = setup((tank,), (el("Elf", count=3),), edition=SO)
    both = b.command("shoot", unit="shooters", target="targets", facts={})
    cannon = b.command("shoot", unit="shooters", target="targets", facts={"weapons": ["Cannon"]})
    assert len(odds(b, both).p_hit) == 2
    assert len(odds(b, cannon).p_hit) == 1
    b.apply(cannon)
    expect_roll(b, 10, 1, "to hit")  # the shot rolls what the odds counted: the cannon alone
