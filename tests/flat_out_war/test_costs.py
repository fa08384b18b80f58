"""The cost calculator of section 19 with rulings A-55..A-59, in both editions.

Expected numbers are worked by hand from the spec's tables (DAC: d4 1, d6 2, d8 3,
d10 4, d12 5, d20 9), never read back from the calculator.
"""

from __future__ import annotations

import pytest

from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets import get_ruleset
from campaign.rulesets.flat_out_war.costs import CostOptions, ceil_div, price_element
from campaign.rulesets.flat_out_war.editions import SO, V17

STRICT = CostOptions(ranged_base_dac=1)


def el(die: str = "d8", move: int = 4, weapons: tuple[Weapon, ...] = (), attributes: tuple[str, ...] = (),
       kind: str = "trooper", **kw: object) -> Element:
    return Element(name="Test", die=die, move=move, weapons=weapons, attributes=attributes,
                   kind=kind, **kw)  # type: ignore[arg-type]


def cost(element: Element, edition: str, opts: CostOptions | None = None) -> int:
    return int(price_element(element, edition, opts).each)


def ranged(die: str = "d6", rng: int = 12, mount: str = "main", traits: tuple[str, ...] = (),
           name: str = "Gun") -> Weapon:
    return Weapon(name, "ranged", die, rng, mount, traits)  # type: ignore[arg-type]


def melee(die: str | None = None, name: str = "Sword") -> Weapon:
    return Weapon(name, "melee", die)


# --- 19.4 worked examples -------------------------------------------------------------


def test_v17_swordsman_worked_example() -> None:
    # d6 base 4 + sword d6 2DAC 4 (+ MOVE 4 = 2DAC 4)
    assert cost(el("d6", 0, (melee("d6"),)), V17) == 8
    assert cost(el("d6", 4, (melee("d6"),)), V17) == 12


def test_so_swordsman_worked_example() -> None:
    # d6 base 4 + d8 sword 2 x 3 (+ MOVE 4 = 2 x 2)
    assert cost(el("d6", 0, (melee("d8"),)), SO) == 10
    assert cost(el("d6", 4, (melee("d8"),)), SO) == 14


def test_so_archer_worked_example_strict_and_default() -> None:
    archer = el("d6", 0, (ranged("d6", 12),))
    assert cost(archer, SO, STRICT) == 10  # 4 + (1 + 12/6)DAC x 2, the text's own example
    assert cost(archer, SO) == 12  # A-56 default: 4 + (2 + 2)DAC x 2


def test_v17_archer_worked_example_is_a_misprint() -> None:
    # The v1.7 text prices Longbow R:6 at "4DAC" (total 12), which fits neither its own
    # 2DAC + 1DAC/2" formula (5DAC) nor its Example Units table; A-56 calls it a misprint.
    printed, computed = 12, cost(el("d6", 0, (ranged("d6", 6),)), V17)
    assert computed == 4 + (2 + 3) * 2 == 14 != printed


# --- weapons ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", [V17, SO])
@pytest.mark.parametrize(("die", "points"), [("d4", 2), ("d6", 4), ("d8", 6), ("d10", 8), ("d12", 10), ("d20", 18)])
def test_melee_weapon_is_2dac_of_its_own_die(edition: str, die: str, points: int) -> None:
    base = cost(el("d6", 0), edition)
    assert cost(el("d6", 0, (melee(die),)), edition) - base == points


def test_weapon_without_die_uses_base_die() -> None:
    assert cost(el("d10", 0, (melee(None),)), SO) == 8 + 8


@pytest.mark.parametrize(
    ("edition", "die", "rng", "opts", "points"),
    [
        (V17, "d6", 8, None, (2 + 4) * 2),
        (V17, "d6", 7, None, (2 + 4) * 2),  # A-57: a partial 2" step counts whole
        (V17, "d12", 20, None, (2 + 10) * 5),
        (V17, "d6", 0, None, 2 * 2),
        (SO, "d6", 24, None, (2 + 4) * 2),
        (SO, "d6", 25, None, (2 + 5) * 2),  # partial 6" step rounds up
        (SO, "d10", 30, None, (2 + 5) * 4),
        (SO, "d6", 12, STRICT, (1 + 2) * 2),
        (SO, "d12", 13, STRICT, (1 + 3) * 5),
        (V17, "d6", 8, STRICT, (1 + 4) * 2),  # the option is honoured in v1.7 too
    ],
)
def test_ranged_weapon(edition: str, die: str, rng: int, opts: CostOptions | None, points: int) -> None:
    base = cost(el("d6", 0), edition, opts)
    assert cost(el("d6", 0, (ranged(die, rng),)), edition, opts) - base == points


@pytest.mark.parametrize("edition", [V17, SO])
@pytest.mark.parametrize(("mount", "rng", "points"), [("extra", 8, 9), ("sponson", 8, 9), ("extra", 6, 6),
                                                       ("sponson", 0, 3), ("extra", 13, 12)])
def test_extra_and_sponson_weapons(edition: str, mount: str, rng: int, points: int) -> None:
    # 1DAC of the d8 weapon + 1DAC per 6" of range, partial steps rounding up
    main = (ranged("d6", 12),)
    base = cost(el("d6", 0, main), edition)
    assert cost(el("d6", 0, main + (ranged("d8", rng, mount),)), edition) - base == points


def test_turret_v17_flat_dac_and_main_weapon_price() -> None:
    # v1.7: the turret weapon costs what a main weapon costs, plus Turret +1DAC of the base die
    plain = el("d10", 0, (ranged("d8", 12),))
    turret = el("d10", 0, (ranged("d8", 12, "turret"),))
    assert cost(turret, V17) - cost(plain, V17) == 4
    assert cost(el("d10", 0, (ranged("d8", 12),), ("Turret",)), V17) - cost(plain, V17) == 4
    both = el("d10", 0, (ranged("d8", 12, "turret"),), ("Turret",))
    assert cost(both, V17) == cost(turret, V17)  # the label does not charge twice


def test_turret_so_priced_like_an_extra_weapon() -> None:
    base = cost(el("d10", 0, (ranged("d6", 12),)), SO)
    with_turret = el("d10", 0, (ranged("d6", 12), ranged("d8", 12, "turret")), ("Turret",))
    assert cost(with_turret, SO) - base == (1 + 2) * 3


def test_multiple_main_weapons_v17_each_priced() -> None:
    assert cost(el("d6", 0, (melee("d6"), ranged("d6", 8))), V17) == 4 + 4 + 12


# --- MOVE -------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", [V17, SO])
@pytest.mark.parametrize(("die", "move", "points"), [("d6", 4, 4), ("d12", 16, 40), ("d4", 0, 0), ("d20", 10, 45),
                                                      ("d8", 5, 9)])
def test_move_is_1dac_of_base_die_per_2_inches(edition: str, die: str, move: int, points: int) -> None:
    assert cost(el(die, move), edition) - cost(el(die, 0), edition) == points


def test_move_dac_comes_from_base_die_not_weapon_die() -> None:
    assert cost(el("d4", 4, (melee("d12"),)), SO) == 2 + 10 + 2


# --- every attribute's price, both editions ---------------------------------------------

# Reference element: d8 base (DAC 3), main ranged weapon d6 R12 (DAC 2), MOVE 4.
# v1.7 weapon = (2 + 6)DAC x 2 = 16; SO weapon = (2 + 2)DAC x 2 = 8.
# Expected change in cost per edition; None = not in that edition (priced 0, flagged by validation).
ATTRIBUTE_PRICES = [
    ("Activate: Stealth", None, 2),  # half of 1DAC of d8 = 1.5, round up
    ("Adaptive Armor", None, 3),
    ("Aggressive", 3, 3),
    ("Agile", 6, 6),
    ("Amphibious", 8, 8),
    ("Anti-flyer", None, 3),
    ("Arcing Artillery", 6, 6),
    ("Brave", 3, 3),
    ("Capture", None, -2),  # weapon -1DAC of its d6
    ("Charge", 4, 4),
    ("Command", 8, 8),
    ("Cumbersome", -3, -3),
    ("Deny Charge", 4, 4),
    ("Ensnare", None, -2),
    ("Entrenched", 6, None),
    ("Exhaustible Weapon", 8 - 16, 2 - 8),  # 16 / 2 = 8; 8 / 4 = 2
    ("Fearsome", 8, 8),
    ("Fire Linked", -3, -3),
    ("Flying", 9, 9),
    ("Frail", -3, -3),
    ("Glide", None, 3),
    ("Heavy Armour", 3, 3),
    ("Heavy Melee Weapon", 3, 3),
    ("Heavy Ranged Weapon", 3, 3),
    ("Hit Points 2", None, 2 * 10),  # SO total before HP: 6 + 8 + 6 = 20; each HP 50%
    ("Hover", 4, 4),
    ("Inaccurate", 0, -2),  # nothing in v1.7; SO -1DAC of the weapon's d6
    ('Jump 8"', 6, 6),
    ("Linear Artillery", 3, 3),
    ('Loose Cohesion 4"', 3, 3),
    ('Loose Cohesion 10"', 9, 9),  # 3 steps of 4", the last partial
    ("Lucky", 6, 3),
    ("Magic", 16, 16),
    ("Multi-shot 3x", 12, 12),  # 2 extra shots x (1 + 12/6)DAC of d6
    ("Multi-shot 2x", 6, 6),
    ("Penetrator", 3, None),
    ("Reload: 2", -6, -4),  # v1.7 off the element: 2DAC of d8; SO off the weapon: 2DAC of d6
    ("Reliant", None, -6),
    ("Resilient", None, 9),
    ("Sailed", -3, -3),
    ("Sharpshooter", 3, 3),
    ("Skimmer", None, 3),
    ("Stand", 4, 4),
    ("Stealth", 3, 3),
    ("Sticky", None, 9),
    ("Submersible", 12, 12),
    ("Submersible Weapon", 6, 6),
    ('Template: 2"', 3, 3),
    ('Template: 4"', 6, 6),
    ('Template: 6"', 9, 9),
    ("Template: Flame", 6, 6),
    ("Torso", 4, None),
    ("Tough", 3, 3),
    ("Tracked", 3, 3),
    ("Transport 10 x d6", 20, 20),
    ("Trigger", None, 6),
    ("Turn", 3, 3),
    ("Turret", 3, 0),  # SO: the turret weapon carries the price
    ("Walker", 3, 4),
    ("Waterborne", -8, -8),
    ("Unfeeling", 6, 6),
    ("Extra weapon", 0, 0),  # a label: the mounted weapon carries the price
    ("Sponson", 0, 0),
]


@pytest.mark.parametrize(("text", "v17", "so"), ATTRIBUTE_PRICES, ids=[row[0] for row in ATTRIBUTE_PRICES])
def test_every_attribute_price(text: str, v17: int | None, so: int | None) -> None:
    gun = (ranged("d6", 12),)
    for edition, expected in ((V17, v17), (SO, so)):
        base = cost(el("d8", 4, gun), edition)
        delta = cost(el("d8", 4, gun, (text,)), edition) - base
        assert delta == (expected or 0), edition


def test_every_attribute_has_a_price_row() -> None:
    from campaign.rulesets.flat_out_war.attributes import ATTRIBUTE_NAMES, parse_attribute

    covered = {parse_attribute(row[0]).spec.name for row in ATTRIBUTE_PRICES}
    assert covered == set(ATTRIBUTE_NAMES)


def test_attribute_dac_comes_from_base_die_a55() -> None:
    # d6 base with a d12 weapon: Template 4" is 2DAC of d6 = 4, not of d12
    gun = (ranged("d12", 12),)
    assert cost(el("d6", 0, gun, ('Template: 4"',)), SO) - cost(el("d6", 0, gun), SO) == 4


def test_inaccurate_so_uses_weapon_die() -> None:
    gun = (ranged("d12", 12),)
    assert cost(el("d6", 0, gun, ("Arcing Artillery", "Inaccurate")), SO) - cost(
        el("d6", 0, gun, ("Arcing Artillery",)), SO) == -5


# --- formulas and the order of evaluation (A-59) --------------------------------------


def test_transport_highest_of_alternative_loads() -> None:
    base = cost(el("d10", 0), SO)
    assert cost(el("d10", 0, attributes=("Transport 10 x d6 or 3 x d12",)), SO) - base == 20
    assert cost(el("d10", 0, attributes=("Transport 2 x d6 or 3 x d12",)), SO) - base == 15
    assert cost(el("d10", 0, attributes=("Transport 4 x d20",)), V17) - base == 36  # carried die, not base


@pytest.mark.parametrize(("edition", "expected"), [(V17, 2), (SO, 1)])
def test_exhaustible_divides_and_rounds_up(edition: str, expected: int) -> None:
    # d4 R1: 1.7 (2 + 1)DAC = 3 -> 3/2 -> 2; SO (2 + 1)DAC = 3 -> 3/4 -> 1
    grenade = ranged("d4", 1, traits=("Exhaustible",))
    assert cost(el("d4", 0, (grenade,)), edition) == 2 + expected


def test_weapon_traits_and_element_attributes_agree() -> None:
    on_weapon = el("d6", 4, (ranged("d8", 18, traits=("Multi-shot 3x", "Exhaustible")),))
    on_element = el("d6", 4, (ranged("d8", 18),), ("Multi-shot 3x", "Exhaustible"))
    assert cost(on_weapon, SO) == cost(on_element, SO)


def test_element_level_weapon_attribute_applies_to_main_ranged_weapon() -> None:
    # Exhaustible written on the element divides the main ranged gun, not the extra one
    weapons = (ranged("d6", 6, "extra", name="Pistol"), ranged("d10", 12, name="Launcher"))
    e = el("d6", 0, weapons, ("Exhaustible",))
    lines = [line.label for line in price_element(e, SO).lines]
    assert any("Exhaustible (16 / 4" in label for label in lines)  # Launcher: (2 + 2) x 4 = 16


def test_multishot_is_not_divided_by_exhaustible() -> None:
    # SO d6 R12: weapon 8 -> 2 exhausted; Multi-shot 2x adds (1 + 2)DAC x 2 = 6 in full
    e = el("d6", 0, (ranged("d6", 12, traits=("Exhaustible", "Multi-shot 2x")),))
    assert cost(e, SO) == 4 + 2 + 6


def test_reload_v17_off_total_so_off_weapon() -> None:
    # d10 base, d4 weapon R2: v1.7 -1DAC of d10 = -4; SO -1DAC of d4 = -1
    gun = (ranged("d4", 2, traits=("Reload: 1",)),)
    plain = (ranged("d4", 2),)
    assert cost(el("d10", 0, gun), V17) - cost(el("d10", 0, plain), V17) == -4
    assert cost(el("d10", 0, gun), SO) - cost(el("d10", 0, plain), SO) == -1


def test_hit_points_are_last_and_round_up() -> None:
    e = el("d6", 2, (melee("d6"),), ("Hit Points 2", "Charge", "Frail"))
    # d6 4 + claws 4 + MOVE 2" 2 + Charge 4 - Frail 2 = 12 -> each HP ceil(12 / 2) = 6
    assert cost(e, SO) == 12 + 12
    odd = el("d4", 2, (melee("d4"),), ("Hit Points 3", "Charge"))
    # 2 + 2 + 1 + 4 = 9 -> each HP ceil(4.5) = 5 -> 9 + 15
    assert cost(odd, SO) == 24


def test_hit_points_see_activate_and_reload() -> None:
    # HP is computed after Activate halving and SO Reload on the weapon
    e = el("d8", 0, (ranged("d8", 6, traits=("Reload: 1",)),), ("Activate: Flying", "Hit Points 1"))
    # 6 + (3 x 3 = 9) - 3 + ceil(9 / 2) = 5 -> 17; HP 50% of 17 -> 9
    assert cost(e, SO) == 17 + 9


def test_activate_halves_formula_attributes() -> None:
    base = cost(el("d6", 0), SO)
    assert cost(el("d6", 0, attributes=('Activate: Jump 12"',)), SO) - base == 3  # 3DAC = 6 / 2
    assert cost(el("d6", 0, attributes=("Activate: Fearsome",)), SO) - base == 4


def test_floor_at_one_point() -> None:
    e = el("d4", 0, (), ("Frail", "Cumbersome", "Waterborne"))  # 2 - 1 - 1 - 8 = -8
    assert cost(e, SO) == 1
    lines = price_element(e, SO).lines
    assert lines[-1].label.startswith("floor") and lines[-1].points == 9


def test_floor_then_hit_points() -> None:
    e = el("d4", 0, (), ("Waterborne", "Hit Points 1"))  # -6 -> 1, HP ceil(0.5) = 1
    assert cost(e, SO) == 2


def test_capture_and_ensnare_cut_the_weapon() -> None:
    gun = (ranged("d10", 6),)
    base = cost(el("d6", 0, gun), SO)
    assert cost(el("d6", 0, gun, ("Capture",)), SO) - base == -4
    assert cost(el("d6", 0, gun, ("Ensnare",)), SO) - base == -4


def test_magic_is_flat_16_whatever_the_spells() -> None:
    a = el("d6", 0, (melee("d6"),), ("Magic",), spells=("Zap",))
    b = el("d6", 0, (melee("d6"),), ("Magic",), spells=("Fireball", "Fly"))
    assert cost(a, SO) == cost(b, SO) == 4 + 4 + 16


# --- Loose Cohesion: vehicles and free attributes (19.1 step 6) ---------------


def test_v17_vehicle_default_loose_cohesion_is_free() -> None:
    base = cost(el("d12", 0, kind="vehicle"), V17)
    assert cost(el("d12", 0, attributes=('Loose Cohesion 8"',), kind="vehicle"), V17) == base
    assert cost(el("d12", 0, attributes=('Loose Cohesion 12"',), kind="vehicle"), V17) - base == 5
    assert cost(el("d12", 0, attributes=('Loose Cohesion 8"',), kind="vehicle"), SO) - base == 10
    assert cost(el("d12", 0, attributes=('Loose Cohesion 8"',)), V17) - base == 10  # a trooper pays


def test_free_attribute_option() -> None:
    e = el("d6", 4, (melee("d6"),), ('Loose Cohesion 4"', "Brave"))
    free = CostOptions(free_attributes=frozenset({"Loose Cohesion"}))
    assert cost(e, SO) == 4 + 4 + 4 + 2 + 2
    assert cost(e, SO, free) == 4 + 4 + 4 + 2
    line = [x for x in price_element(e, SO, free).lines if "Loose" in x.label][0]
    assert line.points == 0 and "free" in line.label


def test_ruleset_reads_force_options() -> None:
    archer = el("d6", 0, (ranged("d6", 12),), ('Loose Cohesion 4"',))
    force = Force("F", "flat-out-war", "SO", (Unit("U", (archer,)),),
                  options={"ranged_base_dac": 1, "free_attributes": "loose cohesion"})
    priced = get_ruleset("fow").price(force)
    assert priced.total == 10  # strict text archer, cohesion free
    assert get_ruleset("fow").price(Force("F", "flat-out-war", "SO", (Unit("U", (archer,)),))).total == 14
    ruleset = get_ruleset("flat-out-war", "SO", ranged_base_dac=1)
    assert ruleset.price(Force("F", "flat-out-war", None, (Unit("U", (archer,)),))).total == 12


def test_force_and_unit_totals_multiply_counts() -> None:
    troop = Element("Orc", count=19, die="d6", move=4, weapons=(melee("d6"),), attributes=("Aggressive",))
    hero = Element("Orc Hero", die="d6", move=4, weapons=(melee("d6"),), attributes=("Aggressive", "Brave",
                                                                                      "Command"))
    force = Force("Orcs", "flat-out-war", "special-ops", (Unit("Warband", (troop, hero)), Unit("Solo", (hero,))))
    priced = get_ruleset("flat-out-war").price(force)
    assert [u.total for u in priced.units] == [19 * 14 + 24, 24]
    assert priced.total == 19 * 14 + 48
    assert priced.units[0].elements[0].each == 14 and priced.units[0].elements[0].count == 19


def test_cost_lines_sum_to_the_price() -> None:
    e = el("d20", 10, (ranged("d20", 20, "turret"), ranged("d8", 8, "sponson"), ranged("d8", 8, "sponson")),
           ("Heavy Armor", "Sponson x2", "Turret", 'Template 4"'), kind="vehicle")
    priced = price_element(e, V17)
    assert priced.each == sum(line.points for line in priced.lines) == 225
    labels = [line.label for line in priced.lines]
    assert labels[0] == "Base die d20" and any(label.startswith("Turret x1") for label in labels)


def test_unpriceable_element_costs_zero_not_a_crash() -> None:
    assert cost(el("d7", 4, (melee("d6"),)), SO) == 0
    assert cost(Element("X", die=None), SO) == 0
    assert cost(el("d6", 0, (melee("d9"),), ("Nonsense", "Jump")), SO) == 4  # bad text priced 0


def test_ceil_div() -> None:
    assert [ceil_div(n, 4) for n in (0, 1, 4, 5, -1, -5)] == [0, 1, 1, 2, 0, -1]


# --- robustness: any mix of catalogue texts prices and validates without a crash ----

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from campaign.rulesets.flat_out_war.validation import validate_element  # noqa: E402

_TEXTS = [row[0] for row in ATTRIBUTE_PRICES] + ["Nonsense", "Jump", 'Multi-shot 9x', "Reload: 5"]
_DICE = ["d4", "d6", "d8", "d10", "d12", "d20", "d7", None]


@settings(max_examples=150, deadline=None)
@given(
    die=st.sampled_from(_DICE),
    move=st.integers(-4, 30),
    attributes=st.lists(st.sampled_from(_TEXTS), max_size=6),
    weapons=st.lists(
        st.builds(Weapon, name=st.just("W"), kind=st.sampled_from(["melee", "ranged"]), die=st.sampled_from(_DICE),
                  range=st.integers(0, 60), mount=st.sampled_from(["main", "extra", "sponson", "turret"]),
                  traits=st.lists(st.sampled_from(_TEXTS), max_size=2).map(tuple)),
        max_size=3),
    edition=st.sampled_from([V17, SO]),
)
def test_any_element_prices_and_validates(die: str | None, move: int, attributes: list[str],
                                          weapons: list[Weapon], edition: str) -> None:
    e = Element("E", die=die, move=move, weapons=tuple(weapons), attributes=tuple(attributes))
    priced = price_element(e, edition)
    assert priced.each == sum(line.points for line in priced.lines)
    if die in ("d4", "d6", "d8", "d10", "d12", "d20"):
        assert priced.each >= 1
    for finding in validate_element(e, edition, "e"):
        assert finding.path.startswith("e") and finding.message


def test_a_price_is_kept_for_each_element_edition_and_options() -> None:
    from campaign.rulesets.flat_out_war.costs import _price_element

    gunner = el("d8", 4, weapons=(ranged("d8", 24),), attributes=("Tough",))
    first = price_element(gunner, SO)
    assert price_element(gunner, SO, CostOptions()) is first == _price_element(gunner, SO, CostOptions())
    # another edition, other options, or an equal element of its own: priced for itself
    assert price_element(gunner, V17) == _price_element(gunner, V17, CostOptions())
    assert price_element(gunner, SO, STRICT) == _price_element(gunner, SO, STRICT) != first
    twin = el("d8", 4, weapons=(ranged("d8", 24),), attributes=("Tough",))
    assert price_element(twin, SO) == first and price_element(twin, SO) is not first
    # the kept prices are keyed by each field of the options: a new field must join the key
    import attrs

    assert [f.name for f in attrs.fields(CostOptions)] == ["ranged_base_dac", "free_attributes"]
    free = CostOptions(free_attributes=frozenset({"Tough"}))
    assert price_element(gunner, SO, free) == _price_element(gunner, SO, free) != first


def test_a_battle_prices_units_as_their_elements_cost() -> None:
    from fractions import Fraction

    from campaign.rulesets.flat_out_war.engine.rules import _unit_cost

    unit = Unit("Squad", (el("d6", count=3), el("d8", count=1)))
    assert _unit_cost(unit, [2.5, 7]) == Fraction(5, 2) * 3 + 7
    assert _unit_cost(unit, [2.5, 7]) is _unit_cost(unit, [2.5, 7])
    assert _unit_cost(unit, [3, 7]) == 16  # other prices: worked out again
