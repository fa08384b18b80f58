"""Flat Out War catalogues: the die ladder, the attribute table of section 20 with its
edition split (21.4), the spell list (14.1), and the attribute-text parser."""

from __future__ import annotations

import pytest

from campaign.rulesets.flat_out_war import dice
from campaign.rulesets.flat_out_war.attributes import (
    ATTRIBUTE_NAMES,
    ATTRIBUTES,
    AttributeTextError,
    attribute,
    names_in,
    parse_attribute,
)
from campaign.rulesets.flat_out_war.editions import SO, V17, normalize_edition
from campaign.rulesets.flat_out_war.spells import SPELLS, budget_used, spell, suggest_spell

# --- dice (19.2) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "sides", "base", "dac"),
    [("d4", 4, 2, 1), ("d6", 6, 4, 2), ("d8", 8, 6, 3), ("d10", 10, 8, 4), ("d12", 12, 10, 5), ("d20", 20, 18, 9)],
)
def test_ladder_table(name: str, sides: int, base: int, dac: int) -> None:
    spec = dice.die(name)
    assert (spec.sides, spec.base_cost, spec.dac) == (sides, base, dac)
    assert dice.base_cost(name.upper()) == base and dice.dac(sides) == dac


def test_ladder_order_and_steps() -> None:
    assert dice.DIE_NAMES == ("d4", "d6", "d8", "d10", "d12", "d20")
    assert dice.step_up("d12") == "d20" and dice.step_down("d6") == "d4"
    assert dice.step_up("d20") is None and dice.step_down("d4") is None
    assert dice.step("d4", 3) == "d10" and dice.step("d10", -5) is None


@pytest.mark.parametrize("text", ["d7", "D100", "six", "", "d", True])
def test_unknown_die(text: object) -> None:
    assert dice.normalize_die(text) is None  # type: ignore[arg-type]
    with pytest.raises(dice.UnknownDie, match="d4, d6, d8, d10, d12, d20"):
        dice.die(text)  # type: ignore[arg-type]


def test_die_spellings() -> None:
    assert [dice.normalize_die(t) for t in ("D6", " d 8 ", "d10", 12, "D20")] == ["d6", "d8", "d10", "d12", "d20"]


# --- editions -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [("SO", SO), ("special-ops", SO), ("Special Ops", SO), ("1.7", V17), ("v1.7", V17), ("2.0", None), (None, None)],
)
def test_edition_spellings(text: str | None, key: str | None) -> None:
    assert normalize_edition(text) == key


# --- attributes (section 20, 21.4) ---------------------------------------------

# name -> (v1.7 cost, SO cost) as section 20 prints them; None = not in that edition.
SECTION_20 = {
    "Activate": (None, "special (activate)"),
    "Adaptive Armor": (None, "+1DAC"),
    "Aggressive": ("+1DAC", "+1DAC"),
    "Agile": ("+2DAC", "+2DAC"),
    "Amphibious": ("+8", "+8"),
    "Anti-flyer": (None, "+1DAC"),
    "Arcing Artillery": ("+2DAC", "+2DAC"),
    "Brave": ("+1DAC", "+1DAC"),
    "Capture": (None, "special (weapon minus dac)"),
    "Charge": ("+4", "+4"),
    "Command": ("+8", "+8"),
    "Cumbersome": ("-1DAC", "-1DAC"),
    "Deny Charge": ("+4", "+4"),
    "Ensnare": (None, "special (weapon minus dac)"),
    "Entrenched": ("+2DAC", None),
    "Exhaustible Weapon": ("special (exhaustible)", "special (exhaustible)"),
    "Extra weapon": ("special (mount)", "special (mount)"),
    "Fearsome": ("+8", "+8"),
    "Fire Linked": ("-1DAC", "-1DAC"),
    "Flying": ("+3DAC", "+3DAC"),
    "Frail": ("-1DAC", "-1DAC"),
    "Glide": (None, "+1DAC"),
    "Heavy Armour": ("+1DAC", "+1DAC"),
    "Heavy Melee Weapon": ("+1DAC", "+1DAC"),
    "Heavy Ranged Weapon": ("+1DAC", "+1DAC"),
    "Hit Points": (None, "special (hit points)"),
    "Hover": ("+4", "+4"),
    "Inaccurate": ("special (inaccurate)", "special (inaccurate)"),
    "Jump": ("special (jump)", "special (jump)"),
    "Linear Artillery": ("+1DAC", "+1DAC"),
    "Loose Cohesion": ("special (loose cohesion)", "special (loose cohesion)"),
    "Lucky": ("+2DAC", "+1DAC"),
    "Magic": ("+16", "+16"),
    "Multi-shot": ("special (multi shot)", "special (multi shot)"),
    "Penetrator": ("+1DAC", None),
    "Reload": ("special (reload)", "special (reload)"),
    "Reliant": (None, "-2DAC"),
    "Resilient": (None, "+3DAC"),
    "Sailed": ("-1DAC", "-1DAC"),
    "Sharpshooter": ("+1DAC", "+1DAC"),
    "Skimmer": (None, "+1DAC"),
    "Sponson": ("special (mount)", "special (mount)"),
    "Stand": ("+4", "+4"),
    "Stealth": ("+1DAC", "+1DAC"),
    "Sticky": (None, "+3DAC"),
    "Submersible": ("+12", "+12"),
    "Submersible Weapon": ("+6", "+6"),
    'Template: 2"': ("+1DAC", "+1DAC"),
    'Template: 4"': ("+2DAC", "+2DAC"),
    'Template: 6"': ("+3DAC", "+3DAC"),
    "Template: Flame": ("+2DAC", "+2DAC"),
    "Torso": ("+4", None),
    "Tough": ("+1DAC", "+1DAC"),
    "Tracked": ("+1DAC", "+1DAC"),
    "Transport": ("special (transport)", "special (transport)"),
    "Trigger": (None, "+2DAC"),
    "Turn": ("+1DAC", "+1DAC"),
    "Turret": ("+1DAC", "special (mount)"),
    "Walker": ("+1DAC", "+4"),
    "Waterborne": ("-8", "-8"),
    "Unfeeling": ("+2DAC", "+2DAC"),
}


def test_catalogue_is_section_20_exactly() -> None:
    assert sorted(ATTRIBUTE_NAMES) == sorted(SECTION_20)


@pytest.mark.parametrize("name", sorted(SECTION_20))
def test_attribute_cost_rule_per_edition(name: str) -> None:
    spec = attribute(name)
    for edition, expected in zip((V17, SO), SECTION_20[name]):
        rule = spec.cost(edition)
        assert (rule.describe() if rule else None) == expected, edition
        assert spec.in_edition(edition) == (expected is not None)
    assert spec.res in ("E", "T", "M") and spec.summary


def test_edition_only_lists_match_section_21_4() -> None:
    only_17 = {s.name for s in ATTRIBUTES if s.editions == (V17,)}
    only_so = {s.name for s in ATTRIBUTES if s.editions == (SO,)}
    assert only_17 == {"Entrenched", "Penetrator", "Torso"}
    assert only_so == {"Activate", "Adaptive Armor", "Anti-flyer", "Capture", "Ensnare", "Glide", "Hit Points",
                       "Reliant", "Resilient", "Skimmer", "Sticky", "Trigger"}
    assert "Entrenched" in names_in(V17) and "Entrenched" not in names_in(SO)
    assert "Walker" in names_in(V17) and "Walker" in names_in(SO)


def test_prerequisites_as_data() -> None:
    def req(name: str) -> set[tuple[str, tuple[str, ...]]]:
        return {(r.kind, r.names) for r in attribute(name).requires}

    assert req("Hover") == {("any_attribute", ("Flying",))}
    assert req("Inaccurate") == {("any_attribute", ("Arcing Artillery",))}
    assert req("Submersible") == {("any_attribute", ("Amphibious", "Waterborne"))}
    assert req("Fire Linked") == {("extra_weapon", ())}
    for name in ("Stand", "Multi-shot", 'Template: 2"', 'Template: 4"', 'Template: 6"', "Sharpshooter",
                 "Capture", "Ensnare", "Heavy Ranged Weapon", "Arcing Artillery", "Linear Artillery"):
        assert req(name) == {("ranged_weapon", ())}, name
    assert req("Template: Flame") == set()  # a flame can be a melee weapon (the Wyvern's breath)
    assert attribute("Torso").vehicle_only(V17)
    assert attribute("Walker").vehicle_only(V17) and not attribute("Walker").vehicle_only(SO)


# --- attribute text --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "field", "value"),
    [
        ('Loose Cohesion 4"', "Loose Cohesion", "inches", 4),
        ("Loose Cohesion", "Loose Cohesion", "inches", None),
        ('Jump 8"', "Jump", "inches", 8),
        ("Jump 12 inches", "Jump", "inches", 12),
        ("Jump 8°", "Jump", "inches", 8),
        ("Multi-shot 3x", "Multi-shot", "rate", 3),
        ("Multishot x4", "Multi-shot", "rate", 4),
        ("Reload: 2", "Reload", "turns", 2),
        ("Reload:1", "Reload", "turns", 1),
        ("Hit Points 2", "Hit Points", "count", 2),
        ("Transport 10 x d6", "Transport", "loads", ((10, "d6"),)),
        ("Transport 10xD6 or 2 x D12", "Transport", "loads", ((10, "d6"), (2, "d12"))),
        ('Template: 4"', 'Template: 4"', None, None),
        ("Template 4°", 'Template: 4"', None, None),
        ('Template 2"', 'Template: 2"', None, None),
        ("Template Flame", "Template: Flame", None, None),
        ("Template: Flame'", "Template: Flame", None, None),
        ("Sponson x2", "Sponson", "count", 2),
        ("Sponson", "Sponson", "count", None),
        ("Heavy Armor", "Heavy Armour", None, None),
        ("heavy armour", "Heavy Armour", None, None),
        ("Arc-Artillery", "Arcing Artillery", None, None),
        ("FireLinked", "Fire Linked", None, None),
        ("Heavy Ranged Weapons", "Heavy Ranged Weapon", None, None),
        ("Exhaustible", "Exhaustible Weapon", None, None),
        ("Submersible Weapon", "Submersible Weapon", None, None),
        ("Trigger: when attacked in melee", "Trigger", "text", "when attacked in melee"),
    ],
)
def test_parse_attribute(text: str, name: str, field: str | None, value: object) -> None:
    parsed = parse_attribute(text)
    assert parsed.spec.name == name
    assert parsed.text == text
    if field:
        assert getattr(parsed.params, field) == value


def test_parse_activate_links_another_attribute() -> None:
    parsed = parse_attribute('Activate: Jump 8"')
    assert parsed.spec.name == "Activate"
    linked = parsed.params.linked
    assert linked is not None and linked.spec.name == "Jump" and linked.params.inches == 8


@pytest.mark.parametrize(
    ("text", "message", "suggestion"),
    [
        ("Agil", "unknown attribute 'Agil'", "Agile"),
        ("Sealth", "did you mean 'Stealth'", "Stealth"),
        ("Arc-Attillery", "did you mean 'Arcing Artillery'", "Arcing Artillery"),
        ('Heavy Armur 2', "unknown attribute", "Heavy Armour"),
        ("Flyng", "did you mean 'Flying'", "Flying"),
        ("xyzzy", "unknown attribute 'xyzzy'", None),
        ("Jump", 'Jump needs a value (like `Jump 8"`)', None),
        ("Multi-shot 5x", "2x, 3x or 4x", None),
        ("Multi-shot", "Multi-shot needs a value", None),
        ("Brave 2", "Brave takes no value", None),
        ("Transport lots", "could not read 'lots'", None),
        ("Transport 4 x d7", "could not read '4 x d7'", None),
        ("Reload: two", "number of turns", None),
        ("Hit Points 0", "at least 1", None),
        ("Activate", "needs a value", None),
        ("Activate: Activate: Brave", "cannot switch itself", None),
        ("   ", "cannot be empty", None),
    ],
)
def test_parse_errors(text: str, message: str, suggestion: str | None) -> None:
    with pytest.raises(AttributeTextError) as info:
        parse_attribute(text)
    assert message in str(info.value)
    assert info.value.suggestion == suggestion


def test_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_attribute("Nonsense")


# --- spells (14.1) ----------------------------------------------------------------

SECTION_14 = {  # name: (difficulty, range, duration, template, LoS needed)
    "Fast": (1, 8, 4, None, False),
    "Fireball": (2, 6, "instant", 2, True),
    "Fly": (4, 8, 8, None, False),
    "Ironwill": (1, 8, 4, None, False),
    "Shield": (2, 8, 4, None, False),
    "Slow": (1, 8, 4, None, False),
    "Strengthen": (3, 8, 6, None, False),
    "Summon": (4, None, "permanent", None, False),
    "Teleport": (4, 24, "instant", None, False),
    "Terrify": (1, 8, 4, None, False),
    "Weaken": (3, 8, 6, None, False),
    "Zap": (0, 8, "instant", None, True),
}


@pytest.mark.parametrize("name", sorted(SECTION_14))
def test_spell_table(name: str) -> None:
    s = spell(name.upper())
    assert (s.difficulty, s.range, s.duration, s.template, s.needs_los) == SECTION_14[name]
    assert s.summary and s.res in ("E", "T", "M")


def test_twelve_spells_and_budget() -> None:
    assert len(SPELLS) == 12 and {s.name for s in SPELLS} == set(SECTION_14)
    assert spell("Zap").budget_cost == 1  # a -0 spell counts as -1 for the budget
    assert budget_used(["Fireball", "Fly"]) == 6  # A-36's legal example
    assert budget_used(["Zap", "Zap", "Strengthen", "Nonsense"]) == 5
    assert suggest_spell("Firebal") == "Fireball" and suggest_spell("qqq") is None
    with pytest.raises(KeyError):
        spell("Lightning")
