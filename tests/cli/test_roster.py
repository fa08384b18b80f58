"""`muster roster`: a force as players take it to the table, and the pure roster document."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from campaign.force import Element, Force, Unit, Weapon
from campaign.roster import roster
from campaign.rulesets import get_ruleset
from saves.force_file import save_force
from tui.cli import main

VETERANS = Force(
    "Border <b>Guard</b> | 2nd", "flat-out-war", "special-ops",
    (
        Unit("Assault Squad", (
            Element("Assault Troop", count=9, die="d6", move=4, attributes=("Agile", "Brave"),
                    weapons=(Weapon("Power Claw", "melee", "d8"),), lost=2),
            Element("Sergeant", die="d6", move=4, attributes=("Brave", "Brvae"),
                    weapons=(Weapon("Plasma Rifle", "ranged", "d8", 12),), state={"die": "d4"}),
        ), honours=("Held the Bridge",)),
        Unit("Mage *Circle*", (Element("Mage", die="d8", move=4, attributes=("Magic",), spells=("Zap",)),)),
    ),
    points_limit=300,
)  # fmt: skip


@pytest.fixture()
def force_file(tmp_path: Path) -> Path:
    """VETERANS as a file: a typo would not load, so the Sergeant's finding is an odd MOVE."""
    path = tmp_path / "veterans.toml"
    squad = VETERANS.units[0]
    sergeant = attrs.evolve(squad.elements[1], attributes=("Brave",), move=3)
    squad = attrs.evolve(squad, elements=(squad.elements[0], sergeant))
    save_force(path, attrs.evolve(VETERANS, units=(squad, VETERANS.units[1])))
    return path


def test_the_document_carries_profiles_costs_rules_and_campaign_state() -> None:
    doc = roster(VETERANS, get_ruleset("flat-out-war", "special-ops"))
    squad = doc.units[0]
    troop, sergeant = squad.elements
    assert (troop.count, troop.alive, troop.lost) == (9, 7, 2)
    assert troop.profile == (("Die", "d6"), ("Move", '4"'))
    assert troop.weapons == ("Power Claw (melee d8)",)
    assert sergeant.damage == (("die", "d4"),) and squad.honours == ("Held the Bridge",)
    assert troop.cost_each == 20 and troop.cost_total == 180 and doc.total is not None
    rules = {r.name: r.text for r in doc.rules}
    assert rules["Brave"] == "+1 on morale rolls." and "Zap" in rules and "Magic" in rules
    assert "Brvae" not in rules  # an unknown attribute has no rule text, only a finding
    unknown = next(f for f in doc.findings if "Brvae" in f.message)
    assert unknown.where == "Assault Squad / Sergeant" and unknown.path.startswith("units[0].elements[1]")


def test_text_roster(force_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roster", str(force_file)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Border <b>Guard</b> | 2nd"
    assert "Assault Squad  (8/10)" in out and "Honours: Held the Bridge" in out
    assert "9 x Assault Troop  d6  Move 4\"  20 pts each, 180" in out
    assert "Campaign: lost 2 of 9" in out and "Campaign: carries die d4" in out
    assert "  Brave: +1 on morale rolls." in out
    assert "Assault Squad / Sergeant: MOVE must be a multiple of 2" in out
    assert max(len(line) for line in lines if not line.startswith("  error")) <= 80


def test_markdown_and_html_keep_names_inert(force_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roster", str(force_file), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Border \\<b\\>Guard\\</b\\> \\| 2nd\n")
    assert "## Mage \\*Circle\\* (1/1)" in out
    assert "| Assault Troop | 7/9 | Die d6, Move 4\" | Power Claw (melee d8) | Agile, Brave | 180 | lost 2 of 9 |" in out
    assert "- **Brave**: +1 on morale rolls." in out
    assert main(["roster", str(force_file), "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and "<b>" not in page
    assert "<h1>Border &lt;b&gt;Guard&lt;/b&gt; | 2nd</h1>" in page
    assert "<dt>Brave</dt><dd>+1 on morale rolls.</dd>" in page


def test_json_and_output_file(force_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roster", str(force_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["units"][0]["elements"][0]["alive"] == 7
    finding = next(f for f in data["findings"] if "MOVE" in f["message"])
    assert finding["where"] == "Assault Squad / Sergeant" and finding["path"] == "units[0].elements[1].move"
    out = tmp_path / "roster.html"
    assert main(["roster", str(force_file), "--format", "html", "-o", str(out)]) == 0
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_an_unusable_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('format = "muster/1"\nname = 3\n')
    assert main(["roster", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("muster roster: ") and "Traceback" not in err


def test_a_typo_that_stops_loading_names_the_unit_and_element(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "typo.toml"
    save_force(path, VETERANS)  # the Sergeant's "Brvae" cannot be loaded
    assert main(["roster", str(path)]) == 2
    err = capsys.readouterr().err
    assert "units[0].elements[1].attributes[1]: Assault Squad / Sergeant: unknown attribute 'Brvae'" in err


def test_control_characters_in_names_are_shown_not_sent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "esc.toml"
    unit = attrs.evolve(VETERANS.units[1], name="Mage\x1b[2J\nCircle")
    save_force(path, attrs.evolve(VETERANS, units=(unit,)))
    for fmt in ("text", "md", "html"):
        assert main(["roster", str(path), "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "Mage\\x1b[2J⏎Circle" in out.replace("\\\\", "\\").replace("\\[", "[")


@pytest.mark.parametrize("ruleset_id", ["flat-out-war", "figwars-3", "d10-phased"])
def test_every_ruleset_gives_a_roster_with_its_rule_lines(ruleset_id: str) -> None:
    from campaign.rulesets import get_ruleset as ruleset_of

    ruleset = ruleset_of(ruleset_id)
    force = next(f for f in ruleset.sample_forces() if any(e.attributes for u in f.units for e in u.elements))
    doc = roster(force, ruleset)
    assert doc.count == sum(e.count for u in force.units for e in u.elements)
    assert doc.rules and all(rule.text for rule in doc.rules)  # each rule the force uses, in a line
    if ruleset_id == "d10-phased":  # no points in these rules: the roster prints no costs
        assert doc.total is None and all(e.cost_each is None for u in doc.units for e in u.elements)
    else:
        assert (doc.total is not None) == (ruleset_id == "flat-out-war")


def test_fields_are_called_by_the_rulesets_labels() -> None:
    """Issue 11: stats and a unit's own fields read as the profile calls them, not as raw keys."""
    from campaign.rulesets import get_ruleset as ruleset_of
    from tui.cli.roster import as_markdown, as_text

    fw = ruleset_of("figwars-3")
    text = as_text(roster(fw.sample_forces()[0], fw))
    assert "6 x Rebel Trooper  TQ 1  MOV 4  DEF 1  DP 2  Armour flak vest" in text and "tq 1" not in text
    d10 = ruleset_of("d10-phased")
    doc = roster(d10.sample_forces()[0], d10)
    text = as_text(doc)
    assert "Legionaries  (8/8)\n  Grade average, Radius 6\n  Legion Sergeant  Move 6\"  Save 1  Close 2" in text
    assert "command_radius" not in text and "save 1" not in text
    assert "Grade average, Radius 6." in as_markdown(doc)
