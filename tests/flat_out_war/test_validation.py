"""Validation findings: each kind of problem gives a finding with its severity, the
rule it comes from, a message and the key path of the offending entry."""

from __future__ import annotations

import pytest

from campaign.findings import Finding
from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets import get_ruleset
from campaign.rulesets.flat_out_war.validation import validate_element

GUN = Weapon("Gun", "ranged", "d6", 12)
SWORD = Weapon("Sword", "melee", "d6")
P = "units[0].elements[0]"


def el(attributes: tuple[str, ...] = (), weapons: tuple[Weapon, ...] = (SWORD,), **kw: object) -> Element:
    fields: dict[str, object] = {"name": "E", "die": "d6", "move": 4, "weapons": weapons, "attributes": attributes}
    fields.update(kw)
    return Element(**fields)  # type: ignore[arg-type]


def force(*elements: Element, edition: str | None = "special-ops", **kw: object) -> Force:
    return Force("F", "flat-out-war", edition, (Unit("U", elements),), **kw)  # type: ignore[arg-type]


def findings(*elements: Element, edition: str | None = "special-ops", **kw: object) -> list[Finding]:
    return get_ruleset("flat-out-war").validate(force(*elements, edition=edition, **kw))


def only(result: list[Finding]) -> Finding:
    assert len(result) == 1, result
    return result[0]


def test_clean_element_has_no_findings() -> None:
    assert findings(el(("Brave", "Agile"))) == []
    assert findings(el(("Brave",), (GUN,)), edition="1.7") == []


# --- points limit ---------------------------------------------------------------------


def test_over_the_points_limit() -> None:
    e = el(("Brave",), count=10)  # 4 + 4 + 4 + 2 = 14 each
    assert findings(e, points_limit=140) == []
    f = only(findings(e, points_limit=139))
    assert (f.severity, f.rule, f.path) == ("error", "FOW 19 points limit", "points_limit")
    assert "140" in f.message and "139" in f.message and "by 1" in f.message


def test_points_limit_uses_force_options() -> None:
    archer = el((), (GUN,))  # SO d6 R12: default 4 + 8 + 4 = 16; strict 4 + 6 + 4 = 14
    assert findings(archer, points_limit=15, options={"ranged_base_dac": 1}) == []
    assert only(findings(archer, points_limit=15)).rule == "FOW 19 points limit"


# --- prerequisites (section 20 list, A-69) ------------------------------------------


@pytest.mark.parametrize(
    ("attributes", "weapons", "rule", "needs"),
    [
        (("Hover",), (SWORD,), "FOW 20 Hover", "Hover needs Flying"),
        (("Inaccurate",), (GUN,), "FOW 20 Inaccurate", "Inaccurate needs Arcing Artillery"),
        (("Submersible",), (SWORD,), "FOW 20 Submersible", "needs Amphibious or Waterborne"),
        (("Stand",), (SWORD,), "FOW 20 Stand", "Stand needs a ranged weapon"),
        (("Multi-shot 2x",), (SWORD,), "A-69", "Multi-shot needs a ranged weapon"),
        (('Template: 4"',), (SWORD,), "A-69", "needs a ranged weapon"),
        (('Template 2"',), (SWORD,), "A-69", "needs a ranged weapon"),
        (('Template: 6"',), (SWORD,), "A-69", "needs a ranged weapon"),
        (("Sharpshooter",), (SWORD,), "A-69", "Sharpshooter needs a ranged weapon"),
        (("Capture",), (SWORD,), "A-69", "Capture needs a ranged weapon"),
        (("Ensnare",), (SWORD,), "A-69", "Ensnare needs a ranged weapon"),
        (("Heavy Ranged Weapon",), (SWORD,), "A-69", "needs a ranged weapon"),
        (("Linear Artillery",), (SWORD,), "A-69", "needs a ranged weapon"),
        (("Fire Linked",), (GUN,), "FOW 20 Fire Linked", "needs an Extra weapon"),
    ],
)
def test_missing_prerequisite(attributes: tuple[str, ...], weapons: tuple[Weapon, ...], rule: str,
                              needs: str) -> None:
    f = only(findings(el(attributes, weapons)))
    assert (f.severity, f.rule, f.path) == ("error", rule, f"{P}.attributes[0]")
    assert needs in f.message


def test_arcing_artillery_needs_a_ranged_weapon() -> None:
    result = findings(el(("Arcing Artillery",), (SWORD,)))
    assert [(f.rule, f.path) for f in result] == [("A-69", f"{P}.attributes[0]")]


@pytest.mark.parametrize(
    ("attributes", "weapons"),
    [
        (("Flying", "Hover"), (SWORD,)),
        (("Arcing Artillery", "Inaccurate"), (GUN,)),
        (("Amphibious", "Submersible"), (SWORD,)),
        (("Waterborne", "Submersible"), (SWORD,)),
        (("Stand", "Sharpshooter", 'Template 4"', "Multi-shot 3x"), (GUN,)),
        (("Fire Linked",), (GUN, Weapon("Pistol", "ranged", "d6", 6, "extra"))),
        (("Template: Flame",), (SWORD,)),  # a flame may be a melee weapon
        (("Activate: Flying", "Hover"), (SWORD,)),  # Activate's target counts as having it
    ],
)
def test_prerequisite_met(attributes: tuple[str, ...], weapons: tuple[Weapon, ...]) -> None:
    assert findings(el(attributes, weapons)) == []


def test_prerequisite_in_weapon_traits() -> None:
    gun = Weapon("Mortar", "ranged", "d8", 24, traits=("Inaccurate",))
    f = only(findings(el((), (gun,))))
    assert f.path == f"{P}.weapons[0].traits[0]" and "Arcing Artillery" in f.message
    assert findings(el((), (Weapon("Mortar", "ranged", "d8", 24, traits=("Arcing Artillery", "Inaccurate")),))) == []


# --- vehicle-only -------------------------------------------------------------------


def test_torso_is_for_vehicles_only() -> None:
    f = only(findings(el(("Torso",)), edition="1.7"))
    assert (f.severity, f.rule) == ("error", "FOW 20 Torso") and "vehicles only" in f.message
    assert findings(el(("Torso",), kind="vehicle"), edition="1.7") == []


def test_walker_is_vehicle_only_in_v17_but_not_in_so() -> None:
    f = only(findings(el(("Walker",)), edition="1.7"))
    assert f.rule == "FOW 20 Walker" and "trooper" in f.message
    assert findings(el(("Walker",)), edition="special-ops") == []


# --- Reload ------------------------------------------------------------------------------


@pytest.mark.parametrize("turns", [3, 0])
def test_reload_outside_1_to_2(turns: int) -> None:
    f = only(findings(el((f"Reload: {turns}",), (GUN,))))
    assert (f.rule, f.path) == ("FOW 20 Reload", f"{P}.attributes[0]") and f"not {turns}" in f.message


def test_reload_2_is_fine() -> None:
    assert findings(el(("Reload: 2",), (GUN,))) == []


# --- Magic and spells (A-36, 14.1) ------------------------------------------------------


def test_spells_over_the_budget() -> None:
    f = only(findings(el(("Magic",), spells=("Fly", "Strengthen"))))
    assert (f.severity, f.rule, f.path) == ("error", "A-36", f"{P}.spells")
    assert "7 of the Magic budget of 6" in f.message


def test_spells_at_the_budget_and_zero_counts_one() -> None:
    assert findings(el(("Magic",), spells=("Fireball", "Fly"))) == []  # 2 + 4 = 6, A-36's example
    assert findings(el(("Magic",), spells=("Zap", "Strengthen", "Shield"))) == []  # 1 + 3 + 2 = 6
    f = only(findings(el(("Magic",), spells=("Zap", "Fly", "Shield"))))  # 1 + 4 + 2 = 7
    assert f.rule == "A-36" and "Zap 1" in f.message and "7 of" in f.message


def test_unknown_spell_with_suggestion() -> None:
    f = only(findings(el(("Magic",), spells=("Firebal",))))
    assert (f.rule, f.path) == ("FOW 14.1", f"{P}.spells[0]")
    assert "unknown spell 'Firebal'" in f.message and "did you mean 'Fireball'" in f.message


def test_spells_without_magic() -> None:
    f = only(findings(el(spells=("Zap",))))
    assert (f.rule, f.severity) == ("FOW 20 Magic", "error")


def test_magic_without_spells_is_a_warning() -> None:
    f = only(findings(el(("Magic",))))
    assert f.severity == "warning" and f.path == f"{P}.spells"


# --- MOVE -------------------------------------------------------------------------------


def test_move_not_a_multiple_of_2() -> None:
    f = only(findings(el(move=5)))
    assert (f.severity, f.rule, f.path) == ("error", "FOW 19.1", f"{P}.move") and "multiple of 2" in f.message


def test_negative_move() -> None:
    f = only(findings(el(move=-2)))
    assert f.path == f"{P}.move" and "negative" in f.message


def test_missing_move_is_a_warning() -> None:
    f = only(findings(el(move=None)))
    assert (f.severity, f.path) == ("warning", f"{P}.move")


# --- editions, unknown attributes, dice ------------------------------------------------


@pytest.mark.parametrize(
    ("attribute", "edition", "only_in"),
    [("Entrenched", "special-ops", "v1.7"), ("Penetrator", "special-ops", "v1.7"), ("Sticky", "1.7", "Special Operations"),
     ("Hit Points 2", "1.7", "Special Operations"), ("Activate: Stealth", "1.7", "Special Operations")],
)
def test_attribute_not_in_edition(attribute: str, edition: str, only_in: str) -> None:
    f = only(findings(el((attribute,)), edition=edition))
    assert (f.severity, f.rule, f.path) == ("error", "FOW 21.4", f"{P}.attributes[0]")
    assert f"only in {only_in}" in f.message


def test_activated_attribute_must_be_in_edition() -> None:
    f = only(findings(el(("Activate: Entrenched",)), edition="special-ops"))
    assert f.rule == "FOW 21.4" and "Entrenched" in f.message


def test_unknown_attribute_with_suggestion() -> None:
    f = only(findings(el(("Brave", "Agil"))))
    assert (f.severity, f.rule, f.path) == ("error", "FOW 20", f"{P}.attributes[1]")
    assert "did you mean 'Agile'" in f.message


def test_unreadable_parameter() -> None:
    f = only(findings(el(("Jump",))))
    assert f.path == f"{P}.attributes[0]" and 'like `Jump 8"`' in f.message


def test_unknown_weapon_trait() -> None:
    gun = Weapon("Gun", "ranged", "d6", 12, traits=("Multishot 9x",))
    f = only(findings(el((), (gun,))))
    assert f.path == f"{P}.weapons[0].traits[0]" and "2x, 3x or 4x" in f.message


@pytest.mark.parametrize("die", ["d7", "D100", "six"])
def test_base_die_not_on_the_ladder(die: str) -> None:
    f = only(findings(el(die=die)))
    assert (f.severity, f.rule, f.path) == ("error", "FOW 19.2", f"{P}.die")
    assert "d4, d6, d8, d10, d12, d20" in f.message


def test_missing_base_die() -> None:
    assert only(findings(el(die=None))).path == f"{P}.die"


def test_weapon_die_not_on_the_ladder() -> None:
    f = only(findings(el((), (Weapon("Axe", "melee", "d9"),))))
    assert f.path == f"{P}.weapons[0].die" and "'d9'" in f.message


def test_upper_case_dice_are_fine() -> None:
    assert findings(el(die="D6", weapons=(Weapon("Axe", "melee", "D8"),))) == []


# --- weapons and mounts --------------------------------------------------------------


def test_mount_labels_without_mounted_weapons() -> None:
    f = only(findings(el(("Sponson x2",), (GUN,))))
    assert f.severity == "error" and "mount = sponson" in f.message
    f = only(findings(el(("Turret",), (GUN,))))  # SO turret weapon must be given
    assert "mount = turret" in f.message
    assert findings(el(("Turret",), (GUN,)), edition="1.7") == []  # v1.7 Turret is a flat +1DAC
    mg = Weapon("MG", "ranged", "d8", 8, "sponson")
    f = only(findings(el(("Sponson x2",), (GUN, mg))))
    assert f.severity == "warning" and "1 weapon(s)" in f.message
    assert findings(el(("Sponson x2",), (GUN, mg, mg))) == []


def test_weapon_shape_errors() -> None:
    bad = Weapon("Thing", "laser", "d6", -3, "roof")  # type: ignore[arg-type]
    paths = {f.path for f in findings(el((), (bad,)))}
    assert {f"{P}.weapons[0].kind", f"{P}.weapons[0].mount", f"{P}.weapons[0].range"} <= paths


def test_so_element_with_melee_and_ranged_main_weapons_warns() -> None:
    f = only(findings(el((), (SWORD, GUN))))
    assert f.severity == "warning" and f.path == f"{P}.weapons"
    assert findings(el((), (SWORD, GUN)), edition="1.7") == []


def test_v17_element_without_weapons_warns() -> None:
    assert only(findings(el((), ()), edition="1.7")).severity == "warning"
    assert findings(el((), ()), edition="special-ops") == []  # SO allows no weapon


def test_sharpshooter_with_heavy_ranged_weapon_v17() -> None:
    f = only(findings(el(("Sharpshooter", "Heavy Ranged Weapon"), (GUN,)), edition="1.7"))
    assert f.severity == "warning"
    assert findings(el(("Sharpshooter", "Heavy Ranged Weapon"), (GUN,))) == []


# --- force-level checks ------------------------------------------------------------------


def test_unknown_edition() -> None:
    f = only(findings(el(), edition="3rd"))
    assert (f.path, f.severity) == ("edition", "error") and "'3rd'" in f.message


def test_edition_alias_accepted() -> None:
    assert findings(el(("Sticky",)), edition="SO") == []


def test_bad_options() -> None:
    result = findings(el(), options={"ranged_base_dac": 3, "colour": "red", "free_attributes": "Loose Cohesin"})
    by_path = {f.path: f for f in result}
    assert by_path["options.ranged_base_dac"].rule == "A-56"
    assert "unknown Flat Out War option 'colour'" in by_path["options.colour"].message
    assert "did you mean 'Loose Cohesion'" in by_path["options.free_attributes"].message


def test_bad_count_and_empty_units() -> None:
    assert only(findings(el(count=0))).path == f"{P}.count"
    empty = get_ruleset("fow").validate(Force("F", "flat-out-war", "SO", (Unit("Nobody"),)))
    assert [(f.severity, f.path) for f in empty] == [("warning", "units[0].elements")]
    assert only(get_ruleset("fow").validate(Force("F", "flat-out-war", "SO"))).path == "units"


def test_paths_point_at_the_right_unit_and_element() -> None:
    good, bad = el(), el(("Hover",))
    f = Force("F", "flat-out-war", "SO", (Unit("A", (good,)), Unit("B", (good, bad))))
    assert [x.path for x in get_ruleset("fow").validate(f)] == ["units[1].elements[1].attributes[0]"]


def test_price_carries_the_findings() -> None:
    priced = get_ruleset("fow").price(force(el(("Hover",))))
    assert [f.rule for f in priced.findings] == ["FOW 20 Hover"]


def test_validate_element_directly() -> None:
    assert [f.path for f in validate_element(el(("Hover",)), "special-ops", "x")] == ["x.attributes[0]"]


def test_boolean_is_not_a_ranged_base_dac() -> None:
    assert [f.path for f in findings(el(), options={"ranged_base_dac": True})] == ["options.ranged_base_dac"]
