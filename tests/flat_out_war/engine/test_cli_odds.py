"""`muster odds`: exact odds of a declared attack between units of force files."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from campaign.force import Element, Force, Unit, Weapon
from saves.force_file import save_force
from tui.cli import main

GUNNERS = Force("Gunners", "flat-out-war", "special-ops", (
    Unit("Rifle Team", (Element("Rifleman", count=2, die="d6", move=4,
                                weapons=(Weapon("Rifle", "ranged", "d8", 12),)),)),
    Unit("Brutes", (Element("Brute", count=2, die="d6", move=4, attributes=("Aggressive",),
                            weapons=(Weapon("Club", "melee", "d6"),)),)),
    Unit("Mage", (Element("Mage", die="d8", move=4, attributes=("Magic",), spells=("Zap", "Fireball"),
                          weapons=(Weapon("Staff", "melee", "d8"),)),)),
))
TARGETS = Force("Targets", "flat-out-war", "special-ops", (
    Unit("Line", (Element("Soldier", count=3, die="d6", move=4, weapons=(Weapon("Sword", "melee", "d6"),)),)),
    Unit("Tank", (Element("Tank", die="d12", move=6, kind="vehicle", attributes=("Heavy Armour",),
                          weapons=(Weapon("Gun", "ranged", "d12", 24),)),)),
))


@pytest.fixture()
def files(tmp_path: Path) -> tuple[str, str]:
    a, b = tmp_path / "gunners.toml", tmp_path / "targets.toml"
    save_force(a, GUNNERS)
    save_force(b, TARGETS)
    return str(a), str(b)


def odds(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["odds", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_ranged_long_partial_exact_json(files, capsys) -> None:
    a, b = files
    code, out, _ = odds(capsys, "--attacker", f"{a}:Rifle Team", "--target", f"{b}:Line", "--action", "ranged",
                        "--fact", "range_band=long", "--fact", "los=partial", "--json", "--exact")
    assert code == 0
    data = json.loads(out)
    # d8 -2 hits on 6+: 3/8; a d6 fails recovery on 1-3: 1/2
    assert data["p_hit"] == ["3/8", "3/8"]
    assert data["p_casualty"] == ["3/16", "3/16"]
    assert data["expected_casualties"] == "3/8"
    q = Fraction(3, 16)
    assert data["casualties"] == {"0": str((1 - q) ** 2), "1": str(2 * q * (1 - q)), "2": str(q * q)}
    assert data["facts"] == {"range_band": "long", "los": "partial"}


def test_melee_text_with_situation_facts(files, capsys) -> None:
    a, b = files
    code, out, _ = odds(capsys, "--attacker", f"{a}:brutes", "--target", f"{b}:Line", "--action", "melee",
                        "--fact", "aspect=rear", "--fact", "ran=true")
    assert code == 0
    # Aggressive +1, rear +2, ran -1: d6 +2 hits on 2+
    assert "+2    0.833" in out
    assert "expected casualties: 0.833" in out  # 2 x 5/6 x 1/2


def test_heavy_armour_and_spell(files, capsys) -> None:
    a, b = files
    code, out, _ = odds(capsys, "--attacker", f"{a}:Rifle Team", "--target", f"{b}:Tank", "--action", "ranged", "--json")
    data = json.loads(out)
    assert code == 0 and data["p_hit"] == [0.0, 0.0] and data["casualties"] == {"0": 1.0}
    assert "A-19" in data["attacks"][0]["blocked"]
    code, out, _ = odds(capsys, "--attacker", f"{a}:Mage", "--target", f"{b}:Line", "--action", "spell:Zap",
                        "--json", "--exact")
    data = json.loads(out)
    # Zap: d8, no penalty, a natural 1 misfires: 5/8; recovery d6 -2 passes on 6 only
    assert data["p_hit"] == ["5/8"] and data["p_casualty"] == [str(Fraction(5, 8) * Fraction(5, 6))]


def test_bad_input_is_a_clear_error(files, capsys) -> None:
    a, b = files
    code, _, err = odds(capsys, "--attacker", f"{a}:Nobody", "--target", f"{b}:Line", "--action", "melee")
    assert code == 2 and "no unit 'Nobody'" in err and "Rifle Team" in err
    code, _, err = odds(capsys, "--attacker", f"{a}:Rifle Team", "--target", f"{b}:Line", "--action", "ranged",
                        "--fact", "range_band=out")
    assert code == 2 and "out of range" in err and "Traceback" not in err
    code, _, err = odds(capsys, "--attacker", a, "--target", f"{b}:Line", "--action", "melee")
    assert code == 2 and "FORCE.toml:UNIT" in err
    code, _, err = odds(capsys, "--attacker", f"{a}:Brutes", "--target", f"{b}:Line", "--action", "dance")
    assert code == 2 and "melee, ranged or spell:NAME" in err
    code, _, err = odds(capsys, "--attacker", f"{a}:Brutes", "--target", f"{b}:Line", "--action", "melee",
                        "--fact", "aspct=rear")
    assert code == 2 and "did you mean aspect?" in err
    code, _, err = odds(capsys, "--attacker", f"{a}:Brutes", "--target", f"{b}:Line", "--action", "melee",
                        "--fact", "aspect=behind")
    assert code == 2 and "aspect must be one of front, flank, rear" in err
    code, _, err = odds(capsys, "--attacker", "/nowhere/x.toml:Brutes", "--target", f"{b}:Line", "--action", "melee")
    assert code == 2 and "x.toml" in err


def test_text_groups_identical_attackers_and_prints_fractions_with_exact(files, capsys) -> None:
    a, b = files
    code, out, _ = odds(capsys, "--attacker", f"{a}:Rifle Team", "--target", f"{b}:Line", "--action", "ranged",
                        "--fact", "range_band=long", "--fact", "los=partial", "--exact")
    assert code == 0
    rows = [line for line in out.splitlines() if "Rifleman" in line]
    assert len(rows) == 1 and rows[0].startswith("2 x Rifleman")  # two identical rows, one line
    assert rows[0].split()[-2:] == ["3/8", "3/16"]  # p_hit, p_casualty as exact fractions
    assert "expected casualties: 3/8" in out
    code, out, _ = odds(capsys, "--attacker", f"{a}:Rifle Team", "--target", f"{b}:Line", "--action", "ranged",
                        "--fact", "range_band=long", "--fact", "los=partial")
    assert "2 x Rifleman" in out and "0.375" in out and "/" not in out.split("\n", 2)[2]
