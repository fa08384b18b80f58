"""`muster validate`: exit 0 clean, 1 error findings, 2 unreadable; folders and kinds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import saves.validate as validate
from campaign.findings import Finding
from saves.errors import SaveError
from saves.validate import FileKind, register_kind, validate_path
from tui.cli import main

GOOD = """\
format = "muster/1"
ruleset = "flat-out-war"
edition = "special-ops"
name = "Pickets"

[[units]]
name = "Pickets"

[[units.elements]]
name = "Picket"
count = 4
die = "d6"
move = 4
weapons = [{ name = "Spear", kind = "melee" }]
"""
# Hover needs Flying (section 20): a finding of error severity, but the file reads.
HOVER = GOOD.replace('move = 4\n', 'move = 4\nattributes = ["Hover"]\n')
BROKEN = GOOD.replace("count = 4", "count = four")


def tree(tmp_path: Path) -> Path:
    (tmp_path / "forces" / "old").mkdir(parents=True)
    (tmp_path / "forces" / "good.toml").write_text(GOOD)
    (tmp_path / "forces" / "old" / "hover.toml").write_text(HOVER)
    (tmp_path / "forces" / "broken.toml").write_text(BROKEN)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')  # not a Muster file
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.toml").write_text("x = = 1")  # hidden: never looked at
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["validate", *argv])
    return code, capsys.readouterr().out


def test_clean_file_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "good.toml").write_text(GOOD)
    code, out = run(capsys, str(tmp_path / "good.toml"))
    assert code == 0
    assert out.splitlines() == [
        f"{tmp_path / 'good.toml'}: force: ok",
        "1 file checked: 1 ok, 0 with errors, 0 unusable",
    ]


def test_error_finding_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hover.toml"
    path.write_text(HOVER)
    code, out = run(capsys, str(path))
    assert code == 1
    assert f"{path}: force: 1 error" in out
    assert "Pickets / Picket: Hover needs Flying" in out  # players' names; the key path is in --json
    code, out = run(capsys, str(path), "--json")
    data = json.loads(out)
    assert code == 1 and data["exit_code"] == 1
    (file,) = data["files"]
    assert file["status"] == "errors" and file["kind"] == "force" and file["error"] is None
    assert {"severity": "error", "path": "units[0].elements[0].attributes[0]"}.items() <= file["findings"][0].items()
    assert file["findings"][0]["where"] == "Pickets / Picket"


def test_folder_is_searched_and_the_worst_file_sets_the_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tree(tmp_path)
    before = {p: p.read_bytes() for p in root.rglob("*.toml")}
    code, out = run(capsys, str(root), "--json")
    assert code == 2
    data = json.loads(out)
    status = {Path(f["file"]).name: f["status"] for f in data["files"]}
    assert status == {"broken.toml": "unreadable", "good.toml": "ok", "hover.toml": "errors"}
    assert [Path(p).name for p in data["skipped"]] == ["pyproject.toml"]
    broken = next(f for f in data["files"] if f["status"] == "unreadable")
    assert broken["error"]["line"] == 11  # TOML syntax error: `four` is no value
    assert {p: p.read_bytes() for p in root.rglob("*.toml")} == before
    # without the broken file the worst is an error finding
    (root / "forces" / "broken.toml").unlink()
    assert run(capsys, str(root))[0] == 1


def test_missing_path_and_unknown_kind_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "good.toml").write_text(GOOD)
    (tmp_path / "other.toml").write_text('title = "not ours"\n')
    code, out = run(capsys, str(tmp_path / "good.toml"), str(tmp_path / "nope.toml"))
    assert code == 2
    assert "nope.toml: cannot be used" in out and "no such file" in out
    code, out = run(capsys, str(tmp_path / "other.toml"))
    assert code == 2
    assert "not a Muster file of any known kind" in out


def test_empty_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, str(tmp_path))
    assert (code, out) == (0, "no Muster files found\n")


def test_other_file_kinds_can_register(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    validate.kinds()  # load the built-in kinds first
    monkeypatch.setattr(validate, "_KINDS", dict(validate._KINDS))

    def check(path: Path) -> list[Finding]:
        if "bad" in path.name:
            raise SaveError(path, "broken on purpose", key="turns")
        return [Finding("warning", "test", "looks odd", "turns")]

    register_kind(FileKind("notes", lambda path, data: "turns" in data, check, order=10))
    (tmp_path / "a.toml").write_text("turns = 3\n")
    (tmp_path / "bad.toml").write_text("turns = 4\n")
    (tmp_path / "force.toml").write_text(GOOD)
    report = validate_path(tmp_path)
    assert [(Path(f.file).name, f.kind, f.status) for f in report.files] == [
        ("a.toml", "notes", "ok"),
        ("bad.toml", "notes", "unreadable"),
        ("force.toml", "force", "ok"),
    ]
    assert report.files[0].findings[0].message == "looks odd"
    assert report.exit_code == 2
