"""`muster cost`: the rulebooks' worked examples, priced through a force file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui.cli import main
from tui.cli.cost import points

# Section 19.4's worked swordsmen: [1.7] d6 with a d6 sword and MOVE 4 = 4 + 4 + 4 = 12;
# [SO] d6 with a d8 sword and MOVE 4 = 4 + 6 + 4 = 14.
SWORDSMEN = """\
format = "muster/1"
ruleset = "flat-out-war"
edition = "{edition}"
name = "Sword Line"
points_limit = {limit}

[[units]]
name = "Swordsmen"

[[units.elements]]
name = "Swordsman"
count = 3
die = "d6"
move = {move}
weapons = [{{ name = "Sword", kind = "melee", die = "{sword}" }}]

[[units.elements]]
name = "Captain"
count = 1
die = "d6"
move = {move}
attributes = ["Brave"]
weapons = [{{ name = "Sword", kind = "melee", die = "{sword}" }}]
"""


def write(tmp_path: Path, edition: str = "special-ops", sword: str = "d8", limit: int = 100, move: int = 4) -> Path:
    path = tmp_path / "swords.toml"
    path.write_text(
        SWORDSMEN.format(edition=edition, sword=sword, limit=limit, move=move), encoding="utf-8"
    )
    return path


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["cost", *argv, "--json"])
    out = capsys.readouterr()
    assert out.err == ""
    return code, json.loads(out.out)


@pytest.mark.parametrize(
    ("edition", "sword", "each", "captain"),
    [("special-ops", "d8", 14, 16), ("1.7", "d6", 12, 14)],  # Brave is +1DAC of d6 = 2
)
def test_json_prices_the_worked_examples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edition: str, sword: str, each: int, captain: int
) -> None:
    code, data = run_json(capsys, str(write(tmp_path, edition, sword)))
    assert code == 0
    assert data["force"] == "Sword Line" and data["edition"] == edition and data["points_limit"] == 100
    unit = data["units"][0]
    swordsman, boss = unit["elements"]
    assert (swordsman["name"], swordsman["count"], swordsman["cost"], swordsman["total"]) == (
        "Swordsman", 3, each, 3 * each,
    )
    assert (boss["cost"], boss["total"]) == (captain, captain)
    assert unit["cost"] == 3 * each + captain
    assert data["total"] == 3 * each + captain
    assert isinstance(data["total"], int)  # whole costs print as ints
    assert sum(line["points"] for line in swordsman["lines"]) == each
    assert swordsman["die"] == "d6" and swordsman["weapons"] == [f"Sword ({sword})"]
    assert data["findings"] == []


def test_table_lists_every_element_with_totals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cost", str(write(tmp_path))]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Sword Line (flat-out-war, edition special-ops)"
    assert lines[2].split() == ["Unit", "/", "element", "Count", "Die", "Move", "Weapons", "Attributes", "Each", "Total"]
    rows = {line.split()[0]: line.split() for line in lines[4:] if line.strip()}
    assert rows["Swordsman"] == ["Swordsman", "3", "d6", "4", "Sword", "(d8)", "14", "42"]
    assert rows["Captain"] == ["Captain", "1", "d6", "4", "Sword", "(d8)", "Brave", "16", "16"]
    assert "  unit total" in out and lines[lines.index("Swordsmen") + 3].split()[-1] == "58"
    total_line = next(line for line in lines if line.startswith("Force total"))
    assert total_line.split()[-1] == "58"
    assert "Points limit 100: 42 to spare" in out
    assert "No findings." in out
    # columns line up: every element row ends its Total at the same column
    ends = {len(line) for line in lines if line.startswith("  Swordsman") or line.startswith("  Captain")}
    assert len(ends) == 1


def test_findings_are_listed_under_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, limit=50, move=3)
    assert main(["cost", str(path)]) == 0
    out = capsys.readouterr().out
    findings = out[out.index("Findings:") :]
    assert "over its limit of 50" in findings
    assert "MOVE must be a multiple of 2" in findings
    assert "Swordsmen / Swordsman: MOVE must be a multiple of 2" in findings  # the players' names
    assert "units[0].elements" not in findings  # the key path stays in --json
    assert "Points limit 50:" in out and "over" in out
    code, data = run_json(capsys, str(path))
    rules = {(f["severity"], f["rule"], f["path"]) for f in data["findings"]}
    assert ("error", "FOW 19 points limit", "points_limit") in rules
    assert ("error", "FOW 19.1", "units[0].elements[0].move") in rules
    where = {f["path"]: f["where"] for f in data["findings"]}
    assert where["units[0].elements[0].move"] == "Swordsmen / Swordsman"
    assert where["points_limit"] == "Points limit"  # the force's own key, in words


def test_lines_show_how_a_cost_is_made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cost", str(write(tmp_path)), "--lines"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("  Swordsman") : out.index("  Captain")].splitlines()[1:]
    assert sum(int(line.split()[0]) for line in block) == 14


def test_unreadable_file_exits_2_with_the_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path)
    path.write_text(path.read_text().replace('die = "d6"', 'die = "d5"', 1))
    before = path.read_bytes()
    assert main(["cost", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}:13: units[0].elements[0].die: Swordsmen / Swordsman: unknown die 'd5'" in captured.err
    assert "one of d4, d6, d8, d10, d12, d20" in captured.err
    assert "Traceback" not in captured.err
    assert path.read_bytes() == before
    assert main(["cost", str(tmp_path / "missing.toml"), "--json"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_default_edition_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path)
    path.write_text(path.read_text().replace('edition = "special-ops"\n', ""))
    code, data = run_json(capsys, str(path))
    assert code == 0 and data["edition"] == "special-ops" and data["total"] == 58


def test_points_print_as_ints_when_whole() -> None:
    assert points(12.0) == 12 and isinstance(points(12.0), int)
    assert points(12.5) == 12.5
    assert points(7) == 7


def test_long_names_wrap_inside_80_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long_unit = "The Very Long Named Company of the Northern Marches " * 6
    text = SWORDSMEN.format(edition="special-ops", limit=1000, move=4, sword="d8")
    text = text.replace('name = "Swordsmen"', f'name = "{long_unit.strip()}"')
    text = text.replace('attributes = ["Brave"]', 'attributes = ["Brave", "Agile", "Loose Cohesion 4\\"", "Command", "Unfeeling"]')
    path = tmp_path / "long.toml"
    path.write_text(text)
    assert main(["cost", str(path)]) == 0
    out = capsys.readouterr().out
    table = out[: out.index("Force total")].splitlines()
    assert max(len(line) for line in table) <= 80, max(table, key=len)
    flat = " ".join(" ".join(table).split())
    assert "Northern Marches The Very" in flat  # the name wraps, nothing is cut off
    assert "Loose Cohesion 4\"" in flat and "Unfeeling" in flat
