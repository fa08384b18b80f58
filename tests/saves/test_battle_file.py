"""Battle files: header round trip, append-only log, torn tails, the closed log."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from campaign.campaigns import Objective, Scenario
from campaign.force import Element, Force, Unit, Weapon
from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine
from saves.battle_file import (
    BattleFinished,
    BattleHeader,
    BattleResult,
    BattleSide,
    append_log,
    create_battle_file,
    drop_last_log,
    load_battle_file,
    load_battle_header,
    write_result,
)
from saves.errors import SaveError

FORCE = Force(
    "Humans",
    "flat-out-war",
    "special-ops",
    (Unit("Squad", (Element("Trooper", 5, "d6", 4, weapons=(Weapon("Rifle", "ranged", range=12),)),)),),
)
HEADER = BattleHeader(
    "flat-out-war",
    (BattleSide("humans", "Humans", "attacker", "forces/humans.toml", FORCE), BattleSide("aliens", "Aliens")),
    edition="special-ops",
    scenario=Scenario("hill", "The Hill", objectives=(Objective("Hilltop", "25/2"),)),
    seed=7,
)
ENTRY = {
    "seq": 1,
    "side": "humans",
    "command": {"type": "shoot", "unit": "Squad", "target": "Rippers", "facts": {"range_band": "long"}},
    "rolls": [{"die": 8, "faces": [4, 2, 6, 5], "purpose": "4 x d8 to hit"}],
}
RESULT = BattleResult(
    "d1g357",
    "humans",
    {"humans": Fraction(45, 2), "aliens": Fraction(0)},
    "Humans win",
    BattleOutcome(
        (
            SideOutcome("humans", (VPLine("Eliminated Rippers", "45/2"),)),
            SideOutcome("aliens", (), ("Rippers",), (Casualty("Rippers", "Ripper", 0, 3, {"die": "d4"}),)),
        ),
        rounds_played=4,
    ),
)


@pytest.fixture
def battle(tmp_path: Path) -> Path:
    path = tmp_path / "battles" / "01-hill.toml"
    create_battle_file(path, HEADER)
    return path


def test_round_trip_header_log_result(battle: Path) -> None:
    append_log(battle, ENTRY)
    append_log(battle, {"seq": 2, "command": {"type": "pass"}})
    write_result(battle, RESULT)
    loaded = load_battle_file(battle)
    assert loaded.header == HEADER
    assert loaded.log == [ENTRY, {"seq": 2, "command": {"type": "pass"}}]
    assert loaded.result == RESULT
    assert loaded.warnings == []


def test_the_header_alone_skips_the_log(battle: Path, tmp_path: Path) -> None:
    append_log(battle, ENTRY)
    assert load_battle_header(battle) == HEADER
    battle.write_bytes(battle.read_bytes() + b"[[log]]\nseq = \n")  # a torn tail: not even looked at
    assert load_battle_header(battle) == HEADER
    old = tmp_path / "old.toml"  # an older file has no setup seal: read whole, migrated
    old.write_text('format = "muster/0"\nruleset = "flat-out-war"\nseed = 3\n\n[sides.humans]\nname = "Humans"\n\n'
                   '[sides.aliens]\nname = "Aliens"\n')
    assert load_battle_header(old).seed == 3


def test_append_only_adds_text(battle: Path) -> None:
    before = battle.read_bytes()
    append_log(battle, ENTRY)
    after = battle.read_bytes()
    assert after.startswith(before)
    assert b'command = { type = "shoot"' in after[len(before) :]


@pytest.mark.parametrize("cut", [3, 9, 20, 40, 59, 68])
def test_torn_last_entry_dropped_with_warning(battle: Path, cut: int) -> None:
    append_log(battle, ENTRY)
    good = battle.read_bytes()
    append_log(battle, {"seq": 2, "command": {"type": "pass", "unit": "Squad élite"}})
    full = battle.read_bytes()
    battle.write_bytes(full[: len(good) + cut])  # power cut mid-append
    loaded = load_battle_file(battle)
    assert loaded.log == [ENTRY]
    assert len(loaded.warnings) == 1 and "cut short" in loaded.warnings[0]
    # the next append cuts the torn tail off first; nothing before it is lost
    append_log(battle, {"seq": 2})
    assert load_battle_file(battle).log == [ENTRY, {"seq": 2}]
    assert load_battle_file(battle).warnings == []


def test_torn_result_dropped(battle: Path) -> None:
    append_log(battle, ENTRY)
    size = battle.stat().st_size
    write_result(battle, RESULT)
    battle.write_bytes(battle.read_bytes()[: size + 30])
    loaded = load_battle_file(battle)
    assert loaded.result is None and loaded.log == [ENTRY] and loaded.warnings


def test_log_closed_after_result(battle: Path) -> None:
    write_result(battle, RESULT)
    before = battle.read_bytes()
    with pytest.raises(BattleFinished):
        append_log(battle, ENTRY)
    with pytest.raises(BattleFinished):
        write_result(battle, RESULT)
    assert battle.read_bytes() == before


def test_undo_drops_last_entry(battle: Path) -> None:
    append_log(battle, ENTRY)
    one = battle.read_bytes()
    append_log(battle, {"seq": 2})
    assert drop_last_log(battle) == {"seq": 2}
    assert battle.read_bytes() == one
    assert drop_last_log(battle) == ENTRY
    with pytest.raises(SaveError, match="nothing to undo"):
        drop_last_log(battle)


def test_refuses_to_overwrite(battle: Path) -> None:
    with pytest.raises(SaveError, match="already there"):
        create_battle_file(battle, HEADER)


def test_bad_entry_changes_nothing(battle: Path) -> None:
    before = battle.read_bytes()
    with pytest.raises(TypeError, match="TOML"):
        append_log(battle, {"seq": 1, "x": None})
    assert battle.read_bytes() == before


def test_force_ref_must_stay_inside(tmp_path: Path) -> None:
    bad = BattleHeader("flat-out-war", (BattleSide("a", force_ref="../x.toml"), BattleSide("b")))
    with pytest.raises(SaveError, match="leaves the campaign folder"):
        create_battle_file(tmp_path / "b.toml", bad)
    assert not (tmp_path / "b.toml").exists()


def test_muster0_battle_migrates(tmp_path: Path) -> None:
    old = tmp_path / "old.toml"
    old.write_text(
        'format = "muster/0"\nruleset = "flat-out-war"\nseed = 3\n\n[sides.humans]\nname = "Humans"\n\n'
        '[sides.aliens]\nname = "Aliens"\n\n[[log]]\nseq = 1\n'
    )
    loaded = load_battle_file(old)
    assert loaded.migrated and loaded.header.seed == 3
    assert [s.id for s in loaded.header.sides] == ["humans", "aliens"] and loaded.log == [{"seq": 1}]
    append_log(old, {"seq": 2})  # appending upgrades the file once
    assert old.read_text().startswith('format = "muster/1"')
    assert load_battle_file(old).log == [{"seq": 1}, {"seq": 2}]


def test_newer_format_refused(tmp_path: Path) -> None:
    new = tmp_path / "new.toml"
    new.write_text('format = "muster/9"\nkind = "battle"\n')
    with pytest.raises(SaveError, match="newer Muster"):
        load_battle_file(new)


def test_golden_battle_file(battle: Path) -> None:
    append_log(battle, {"seq": 0, "command": {"type": "start"}, "rolls": [{"die": 6, "faces": [5, 2], "purpose": "initiative"}]})
    append_log(battle, ENTRY | {"seq": 1})
    write_result(battle, RESULT)
    golden = Path(__file__).parent / "golden" / "battle.toml"
    assert battle.read_text() == golden.read_text()


def test_validate_reports_a_torn_tail_as_a_warning_and_changes_nothing(battle: Path) -> None:
    from saves.validate import validate_path

    append_log(battle, ENTRY)
    good = battle.read_bytes()
    append_log(battle, {"seq": 2, "command": {"type": "pass"}})
    torn = battle.read_bytes()[: len(good) + 20]  # TOML itself can no longer parse this
    battle.write_bytes(torn)
    report = validate_path(battle)
    (file,) = report.files
    assert file.kind == "battle" and file.error is None
    assert any("cut short" in f.message and f.severity == "warning" for f in file.findings)
    # this made-up log (a side with no force) cannot replay: that, and only that, is an error
    assert [f.rule for f in file.findings if f.severity == "error"] == ["battle replay"]
    assert battle.read_bytes() == torn


def test_validate_still_refuses_other_broken_toml(tmp_path: Path) -> None:
    from saves.validate import validate_path

    path = tmp_path / "battles" / "02-x.toml"
    path.parent.mkdir()
    path.write_text('format = "muster/1"\nkind = "campaign"\nname = [\n')
    report = validate_path(path)
    assert report.exit_code == 2 and report.files[0].error is not None
