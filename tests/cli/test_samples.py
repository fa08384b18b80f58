"""`muster samples`: the built-in sample forces as force files, never overwriting by accident."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.rulesets import get_ruleset
from saves.force_file import dump_force, load_force
from tui.cli import main

EXPECTED = {
    "flat-out-war-1.7/example-units.toml",
    "flat-out-war-special-ops/human-force.toml",
    "flat-out-war-special-ops/alien-force.toml",
    "flat-out-war-special-ops/orc-ghoblin-force.toml",
    "flat-out-war-special-ops/demonic-force.toml",
}


def written(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_writes_every_sample_as_a_loadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine"
    assert main(["samples", "--out", str(out), "--ruleset", "flat-out-war"]) == 0
    printed = capsys.readouterr().out
    files = written(out)
    assert set(files) == EXPECTED
    assert f"wrote {out / 'flat-out-war-special-ops' / 'human-force.toml'}  (Human Force, 5 units)" in printed
    samples = {(f.edition, f.name): f for f in get_ruleset("flat-out-war").sample_forces()}
    for name, data in files.items():
        force = load_force(out / name)
        assert force == samples[(force.edition, force.name)]
        assert dump_force(force).encode() == data  # byte-identical round trip
    # the samples are clean forces
    assert main(["validate", str(out)]) == 0


def test_refuses_to_overwrite_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["samples", "--out", str(tmp_path)]) == 0
    human = tmp_path / "flat-out-war-special-ops" / "human-force.toml"
    human.write_text("my own edits\n")
    (tmp_path / "flat-out-war-special-ops" / "alien-force.toml").unlink()
    before = written(tmp_path)
    capsys.readouterr()
    assert main(["samples", "--out", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "use --force to overwrite" in captured.err and str(human) in captured.err
    assert captured.out == ""
    assert written(tmp_path) == before  # nothing written, not even the missing ones
    assert main(["samples", "--out", str(tmp_path), "--force"]) == 0
    assert human.read_text().startswith('format = "muster/1"')


def test_every_ruleset_by_default_and_an_unknown_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["samples", "--out", str(tmp_path)]) == 0
    assert EXPECTED <= set(written(tmp_path))  # other tests may have registered stand-ins
    assert main(["samples", "--out", str(tmp_path / "x"), "--ruleset", "chess"]) == 2
    assert "unknown ruleset 'chess'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_unwritable_destination_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    assert main(["samples", "--out", str(blocker)]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert blocker.read_text() == "in the way"
