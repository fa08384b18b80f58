"""Profiles: typed field specs check values, and drive the cost table's columns."""

from __future__ import annotations

import pytest

from campaign.force import Element, Force, Unit
from campaign.profiles import FieldSpec, Profile, check_stats
from campaign.rulesets import ruleset_class, ruleset_ids
from tui.cli.cost import Layout, as_table

DEF = FieldSpec("def", "int", "DEF", "defence", min=1, max=6, stat=True, column=3)
GRADE = FieldSpec("grade", "choice", "Grade", choices=("green", "veteran"), stat=True)


def test_a_field_spec_checks_and_parses_values() -> None:
    assert DEF.check(3) is None
    assert DEF.check(7) == "DEF must be at most 6, not 7"
    assert DEF.check("3") == "DEF must be a whole number, not '3'"
    assert DEF.parse(" 4 ") == 4 and DEF.parse("") is None
    with pytest.raises(ValueError, match="at least 1"):
        DEF.parse("0")
    assert GRADE.check("elite") == "Grade must be one of green, veteran, not 'elite'"


def test_stats_off_the_profile_are_findings() -> None:
    force = Force("F", "x", units=(Unit("U", (Element("A", stats={"def": 9, "luck": 2}),)),))
    found = {f.path: (f.severity, f.message) for f in check_stats(Profile((DEF, GRADE)), force)}
    assert found == {
        "units[0].elements[0].stats.def": ("error", "A: DEF must be at most 6, not 9"),
        "units[0].elements[0].stats.luck": ("warning", "A: unknown stat 'luck' (stats: def, grade)"),
    }


def test_a_ruleset_without_points_shows_no_cost_columns() -> None:
    from campaign.costing import ElementCost, ForceCost, UnitCost

    force = Force("F", "x", units=(Unit("U", (Element("A", stats={"def": 4}),)),))
    cost = ForceCost((UnitCost("U", (ElementCost("A", 1, 0),)),))
    table = as_table(force, cost, [], layout=Layout((DEF,), has_points=False))
    heading = table.splitlines()[2]
    assert heading.split() == ["Unit", "/", "element", "Count", "DEF", "Weapons", "Attributes"]
    assert "  A                 1    4" in table and "total" not in table
    with_points = as_table(force, cost, [], layout=Layout((DEF,)))
    assert "Each" in with_points and "Force total" in with_points


@pytest.mark.parametrize("rid", ruleset_ids())
def test_every_profile_names_fields_a_force_can_hold(rid: str) -> None:
    import attrs

    known = set(attrs.fields_dict(Element))
    for spec in ruleset_class(rid).profile.element:
        assert spec.stat or spec.name in known, f"{rid}: {spec.name} is neither an Element field nor a stat"


async def test_the_force_builder_shows_no_points_for_a_ruleset_without_them() -> None:
    from campaign.rulesets import get_ruleset
    from tests.tui.helpers import screen_text
    from tui.app import MusterApp

    rid = next(r for r in ruleset_ids() if not ruleset_class(r).has_points)
    force = get_ruleset(rid).sample_forces()[0]
    app = MusterApp(".")
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_force(force, None)
        await pilot.pause()
        summary, headings = screen_text(app).splitlines()[1:3]
        assert "pts" not in summary and "Cost" not in headings
