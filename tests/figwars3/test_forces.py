"""Catalogues, profiles with derived values (the appendix's vectors), validation findings
and the sample forces of 17.4-17.8."""

import pytest

from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets.figwars3 import abilities, traits
from campaign.rulesets.figwars3.profile import ProfileError, carried_mov, derived_com, derived_def, profile_of
from campaign.rulesets.figwars3.samples import sample_forces
from campaign.rulesets.figwars3.validation import validate
from campaign.rulesets.figwars3.weapons import MELEE, RANGED, RANGE_BANDS, paired_atk, parse_atk, parse_specials


@pytest.mark.parametrize("tq, com", [(0, 1), (1, 2), (2, 4), (3, 6)])
def test_com_vectors(tq: int, com: int) -> None:
    assert derived_com(tq) == com


def test_com_with_comms_and_grizzled() -> None:
    assert derived_com(2, comms=True) == 8
    assert derived_com(1, grizzled=True) == 3


def test_def_rule() -> None:
    assert derived_def(2, "full combat armor") == 4  # ODST
    assert derived_def(2, natural="full carapace") == 4  # xenomorph
    assert derived_def(3, "heavy powered armor") == 7  # terminator
    assert derived_def(2, "powered armor", hero=True, mounted=True) == 7
    assert derived_def(2, shield="large shield") == 4  # jackal with its energy shield
    assert derived_def(1, "none", "small shield") == 1  # bucklers add nothing
    assert derived_def(1, enhancement=traits.GENETIC_ENHANCEMENT) == 2


def test_paired_weapons_vector() -> None:
    assert paired_atk(4, 3) == 6 and paired_atk(3, 4) == 6 and paired_atk(1, 1) == 2


def test_hero_profile_is_hard_to_kill() -> None:
    hero = profile_of(Element("Captain", stats={"tq": 2, "mov": 5, "dp": 2, "armour": "powered armor"},
                              attributes=("Hero",)))
    assert (hero.defence, hero.dp) == (6, 3)
    assert {"Heroic Deflection", "Inspires Bravery", "Fearless"} <= hero.abilities


def test_printed_def_switch() -> None:
    rebel = Element("Rebel", stats={"tq": 1, "mov": 4, "dp": 2, "def": 1, "armour": "flak vest"})
    assert profile_of(rebel).defence == 2
    assert profile_of(rebel, printed_def=True).defence == 1


def test_profile_errors_name_the_field() -> None:
    with pytest.raises(ProfileError, match="stats.tq is required"):
        profile_of(Element("X", stats={"mov": 4, "dp": 1}))
    with pytest.raises(ProfileError, match="TQ runs from 0"):
        profile_of(Element("X", stats={"tq": 4, "mov": 4, "dp": 1}))
    with pytest.raises(ProfileError, match="armour 'tin foil'"):
        profile_of(Element("X", stats={"tq": 1, "mov": 4, "dp": 1, "armour": "tin foil"}))
    with pytest.raises(ProfileError, match="did you mean 'Stealth'"):
        profile_of(Element("X", stats={"tq": 1, "mov": 4, "dp": 1}, attributes=("Stelth",)))
    with pytest.raises(ProfileError, match="no ranged weapon 'ray gun'"):
        profile_of(Element("X", stats={"tq": 1, "mov": 4, "dp": 1}, weapons=(Weapon("ray gun", "ranged"),)))
    with pytest.raises(ProfileError, match="unknown stat 'agi'"):
        profile_of(Element("X", stats={"tq": 1, "mov": 4, "dp": 1, "agi": 3}))


def test_heavy_weapon_mov_penalty_and_strong() -> None:
    gunner = profile_of(Element("G", stats={"tq": 1, "mov": 4, "dp": 1}, weapons=(Weapon("heavy machine gun", "ranged"),)))
    assert carried_mov(gunner) == 2
    strong = profile_of(Element("S", stats={"tq": 1, "mov": 4, "dp": 1}, attributes=("Strong",),
                                weapons=(Weapon("heavy machine gun", "ranged"),)))
    assert carried_mov(strong) == 3
    slow = profile_of(Element("S", stats={"tq": 1, "mov": 3, "dp": 1}, weapons=(Weapon("heavy machine gun", "ranged"),)))
    assert carried_mov(slow) == 2  # PR-17


def test_ability_catalogue() -> None:
    assert len(abilities.ABILITIES) == 29
    assert sum(1 for a in abilities.ABILITIES if a.vehicle) == 21  # 23 roster lines with Flight x3
    assert abilities.parse_ability('Flight 12"') == abilities.AbilityText("Flight", 12)
    assert abilities.parse_ability("Flight (18\")").value == 18
    with pytest.raises(abilities.UnknownAbility, match="6\", 12\" or 18\""):
        abilities.parse_ability('Flight 10"')
    with pytest.raises(abilities.UnknownAbility, match="takes no value"):
        abilities.parse_ability("Brave 2")


def test_weapon_catalogue_and_letters() -> None:
    assert RANGE_BANDS[0] == (2, 4, 8) and RANGE_BANDS[-1] == (50, 100, 200) and len(RANGE_BANDS) == 15
    law = RANGED["light anti-armor weapon"]
    assert (law.atk, law.blast_atk, law.specials) == (4, 1, ("b", "H", "R"))
    mortar = RANGED["heavy mortar"]
    assert mortar.indirect and mortar.specials == ("B", "H2", "In", "S") and mortar.atk is None
    grenade = RANGED["hand grenade - fragmentation"]
    assert grenade.grenade and grenade.slow and grenade.band(9) == "short" and grenade.band(11) is None
    flamer = RANGED["hand flame unit"]
    assert flamer.spray == "sp" and flamer.pistol
    launcher = RANGED["rifle-mounted grenade launcher"]
    assert [r.name for r in launcher.ammo] == ["concussion grenade ammo", "fragmentation grenade ammo", "shaped charge grenade ammo"]
    assert launcher.ammo[2].atk == 3 and "PR-19" in launcher.ammo[2].note
    assert RANGED["Anti-Aircraft Gun"].autofire == 2
    assert parse_atk("(0)") == (None, 0, "")
    assert parse_specials("A2, Sc, Sn") == {"autofire": 2, "scatter": True, "sniper": True}
    with pytest.raises(ValueError, match="unknown weapon special"):
        parse_specials("Q")
    assert RANGED["rifle"].band(1) == "point_blank" and RANGED["rifle"].band(30) == "long"
    assert RANGED["rifle"].band(61) is None
    assert MELEE["spear"].polearm == "medium" and MELEE["hunter's spear"].polearm == "medium"


def test_samples_validate_with_only_the_pr11_findings() -> None:
    forces = sample_forces()
    assert [f.name for f in forces] == [
        "Rebel Cell", "Storm Trooper Detachment", "Intergalactic Hunters", "Xenomorph Bugs",
        "USC Strike Group", "Revenant Host", "Gothic Imperium Battle Group",
        "USC Hedgehog Patrol", "Imperial Armour", "Arcane Circle", "Mecha Lance",
    ]
    for force in forces:
        findings = validate(force)
        assert all(f.rule == "PR-11" and f.severity == "warning" for f in findings), findings
        if force.name in ("Rebel Cell", "Storm Trooper Detachment"):
            assert findings and "kept as printed" in findings[0].message
        else:
            assert findings == []


def test_sample_profiles_match_the_printed_tables() -> None:
    printed = {
        "Marine": (1, 4, 2, 1), "ODST": (2, 4, 4, 1), "Spartan": (3, 5, 6, 2), "Grunt": (1, 3, 2, 1),
        "Jackal": (2, 5, 4, 1), "Elite": (3, 5, 6, 2), "Drone": (1, 6, 2, 1), "Hunter": (2, 4, 7, 3),
        "Guardsman": (1, 4, 2, 1), "Shock Trooper": (2, 4, 4, 1), "Imperial Scout": (2, 5, 4, 2),
        "Imperial Marine": (2, 5, 5, 2), "Terminator Marine": (3, 4, 7, 2), "Xenomorph Bug": (2, 6, 4, 2),
        "Intergalactic Hunter": (3, 5, 4, 2),
    }
    seen = {}
    for force in sample_forces():
        for unit in force.units:
            for element in unit.elements:
                if element.kind == "vehicle":
                    continue  # vehicles and mecha: tests/figwars3/test_vehicles.py
                p = profile_of(element)
                seen[p.name] = (p.tq, p.mov, p.defence, p.dp)
    for name, values in printed.items():
        assert seen[name] == values, name


def test_validation_findings() -> None:
    def force(*units: Unit) -> Force:
        return Force("Test", "figwars-3", units=units)

    grunt = {"tq": 1, "mov": 4, "dp": 1}
    big = force(Unit("Horde", (Element("Orc", count=21, stats=grunt),)))
    assert [f.rule for f in validate(big)] == ["FW3 4.1"]
    hero_in_squad = force(Unit("Squad", (Element("Sarge", stats=grunt, attributes=("Hero",)), Element("Man", count=3, stats=grunt))))
    assert "FW3 4.2" in [f.rule for f in validate(hero_in_squad)]
    solos = force(Unit("A", (Element("a", stats=grunt),)), Unit("B", (Element("b", count=2, stats=grunt),)))
    assert [f.rule for f in validate(solos)] == ["PR-12"]
    wall = force(Unit("Wall", (Element("Buckler", count=4, stats={**grunt, "shield": "small shield"}, attributes=("Shield Wall",)),)))
    assert "FW3 4.3 Shield Wall" in [f.rule for f in validate(wall)]
    split = force(Unit("Mixed", (Element("a", count=2, stats=grunt, attributes=("Brave",)), Element("b", count=2, stats=grunt))))
    assert [f.rule for f in validate(split)] == ["FW3 4.3"]
    slowpoke = force(Unit("Snails", (Element("s", count=2, stats={**grunt, "mov": 1}),)))
    assert [f.severity for f in validate(slowpoke)] == ["error"]
    bad = force(Unit("Bad", (Element("x", count=2, stats={"tq": 9, "mov": 4, "dp": 1}),)))
    (finding,) = validate(bad)
    assert finding.severity == "error" and finding.path == "units[0].elements[0].stats.tq"  # the key itself
    assert finding.message == "TQ must be at most 3, not 9"
    horse = force(Unit("Riders", (Element("r", count=3, stats={"tq": 1, "dp": 1, "mount": "normal mount"}),)))
    assert validate(horse) == [] and profile_of(horse.units[0].elements[0]).mov == 6
    assert profile_of(horse.units[0].elements[0]).defence == 2  # mounted +1d
    pony = force(Unit("Riders", (Element("r", count=3, stats={**grunt, "mount": "normal mount"}),)))
    assert [f.rule for f in validate(pony)] == ["FW3 3.3"]
