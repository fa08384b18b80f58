"""Files that are not what they seem: each is refused with a clear error, quickly,
without a traceback and without changing anything on disk."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest

from saves.atomic import atomic_write_text
from saves.battle_file import load_battle_file
from saves.campaign_file import load_campaign
from saves.errors import SaveError
from saves.force_file import load_force, parse_force, save_force
from saves.scenario_file import load_scenario
from saves.toml_read import MAX_BATTLE_BYTES, MAX_FILE_BYTES, parse_toml
from scenarios.demo import write_demo
from tui.cli import main

FORCE = """\
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
weapons = [{ name = "Spear", kind = "melee", range = 0 }]
"""


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `folder` (links not followed): bytes and mode."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[str(path.relative_to(folder))] = (path.read_bytes(), stat.S_IMODE(path.stat().st_mode))
    return out


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo")


# --- nesting ------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [40, 500, 5000])
def test_deep_nesting_is_a_clear_error(depth: int, tmp_path: Path) -> None:
    nested = FORCE + "note = " + "[" * depth + "1" + "]" * depth + "\n"
    with pytest.raises(SaveError, match="nested too deeply"):
        parse_force(nested, "f.toml")
    tables = FORCE + "[" + ".".join(["a"] * depth) + "]\nx = 1\n"
    with pytest.raises(SaveError, match="nested too deeply"):
        parse_toml(tables, "t.toml")
    inline = "x = " + "{a = " * depth + "1" + "}" * depth + "\n"
    with pytest.raises(SaveError, match="nested too deeply|syntax"):
        parse_toml(inline, "i.toml")


def test_deep_nesting_in_a_campaign_gives_messages_not_tracebacks(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    camp = demo / "campaign.toml"
    camp.write_text(camp.read_text() + "junk = " + "[" * 500 + "]" * 500 + "\n")
    before = snapshot(demo)
    for argv in (["status", str(demo)], ["report", str(demo)], ["validate", str(demo)]):
        assert main(argv) == 2
        said = capsys.readouterr()
        assert "nested too deeply" in said.out + said.err
    assert snapshot(demo) == before


def test_muster_files_are_well_inside_the_depth_limit(demo: Path) -> None:
    # the deepest thing Muster writes: a battle file's forces (setup.sides[].force.units[]...)
    load_campaign(demo)


# --- sizes --------------------------------------------------------------------------


def test_a_huge_campaign_file_is_refused_at_once(demo: Path) -> None:
    camp = demo / "campaign.toml"
    with camp.open("a") as handle:
        handle.write("# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    start = time.monotonic()
    with pytest.raises(SaveError, match="too big"):
        load_campaign(demo)
    assert time.monotonic() - start < 1


def test_size_limits_by_kind(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(FORCE.encode() + b"#" * MAX_FILE_BYTES)
    for load in (load_force, load_scenario):
        with pytest.raises(SaveError, match="too big"):
            load(big)
    with pytest.raises(SaveError, match="not sealed|setup|syntax|battle") as found:
        load_battle_file(big)  # a battle may be larger: it is read, then refused for what it is
    assert "too big" not in str(found.value)
    huge = tmp_path / "huge.toml"
    with huge.open("wb") as handle:
        handle.truncate(MAX_BATTLE_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(SaveError, match="too big"):
        load_battle_file(huge)


# --- special files and links --------------------------------------------------------


def _fails_soon(call: object, seconds: float = 5) -> BaseException:
    """Run `call` in a thread; it must raise within `seconds` (a hang fails the test)."""
    box: list[BaseException] = []

    def target() -> None:
        try:
            call()  # type: ignore[operator]
        except BaseException as exc:  # noqa: BLE001
            box.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "reading the file hung"
    assert box, "the file was accepted"
    return box[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_force_file_is_refused_without_hanging(demo: Path) -> None:
    force = demo / "forces" / "humans.toml"
    force.unlink()
    os.mkfifo(force)
    error = _fails_soon(lambda: load_campaign(demo))
    assert isinstance(error, SaveError) and "not a regular file (a pipe)" in str(error)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_link_to_dev_zero_is_refused(demo: Path) -> None:
    force = demo / "forces" / "humans.toml"
    force.unlink()
    force.symlink_to("/dev/zero")
    error = _fails_soon(lambda: load_campaign(demo))
    assert isinstance(error, SaveError) and "leaves the campaign folder" in str(error)
    error = _fails_soon(lambda: load_force(force))
    assert isinstance(error, SaveError) and "not a regular file (a device)" in str(error)


def test_a_battles_link_leaving_the_folder_is_refused(demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (demo / "battles").rmdir()
    (demo / "battles").symlink_to(outside)
    with pytest.raises(SaveError, match="leaves the campaign folder"):
        load_campaign(demo)
    assert main(["status", str(demo)]) == 2
    assert "leaves the campaign folder" in capsys.readouterr().err
    assert list(outside.iterdir()) == []


def test_a_force_link_leaving_the_folder_is_refused(demo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "humans.toml"
    (demo / "forces" / "humans.toml").rename(outside)
    (demo / "forces" / "humans.toml").symlink_to(outside)
    with pytest.raises(SaveError, match="leaves the campaign folder"):
        load_campaign(demo)


def test_links_inside_the_folder_are_fine(demo: Path) -> None:
    (demo / "forces" / "humans.toml").rename(demo / "humans-real.toml")
    (demo / "forces" / "humans.toml").symlink_to(demo / "humans-real.toml")
    assert load_campaign(demo).forces["humans"].name == "Humans"


# --- numbers ------------------------------------------------------------------------


def test_integers_beyond_64_bits_are_refused_with_the_line(tmp_path: Path) -> None:
    text = FORCE.replace("move = 4", "move = 1000000000000000000000000000000")
    with pytest.raises(SaveError) as found:
        parse_force(text, "f.toml")
    error = found.value
    assert "64-bit" in error.message and error.key == "units[0].elements[0].move" and error.line == 13
    assert parse_force(FORCE.replace("move = 4", f"move = {2**63 - 1}"), "f.toml")  # the largest TOML integer reads


@pytest.mark.parametrize(
    ("old", "new", "path", "words"),
    [
        ("move = 4", "move = 1000000", "units[0].elements[0].move", "MOVE must be at most 48"),
        ("count = 4", "count = 100000", "units[0].elements[0].count", "count must be at most 200"),
        ("range = 0", "range = 99999", "units[0].elements[0].weapons[0].range", "range must be at most 120"),
        ('name = "Pickets"\n\n', 'name = "Pickets"\npoints_limit = 9223372036854775807\n\n', "points_limit",
         "points limit must be at most"),
    ],
)
def test_flat_out_war_profile_bounds_are_findings(old: str, new: str, path: str, words: str) -> None:
    from campaign.rulesets import get_ruleset

    force = parse_force(FORCE.replace(old, new, 1), "f.toml")
    findings = [f for f in get_ruleset("flat-out-war", "special-ops").validate(force) if f.severity == "error"]
    assert [(f.path, words in f.message) for f in findings] == [(path, True)], findings


def test_huge_move_through_muster_cost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.toml"
    path.write_text(FORCE.replace("move = 4", "move = 1000000000000000000000000000000"))
    assert main(["cost", str(path)]) == 2
    assert "64-bit" in capsys.readouterr().err
    path.write_text(FORCE.replace("move = 4", "move = 5000000"))
    assert main(["cost", str(path)]) == 0
    out = capsys.readouterr().out
    assert "MOVE must be at most 48" in out and "e+" not in out


# --- permissions and modes ----------------------------------------------------------


def _deny_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only folder, even for root (which the real permission bits do not stop)."""
    import tempfile

    def refuse(*args: object, **kwargs: object) -> object:
        raise PermissionError(13, "Permission denied", str(kwargs.get("dir", args[0] if args else "")))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    monkeypatch.setattr(Path, "mkdir", refuse)


def test_report_into_a_read_only_folder_is_a_message(demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(demo)
    _deny_writes(monkeypatch)
    assert main(["report", str(demo), "-o", str(tmp_path / "ro" / "report.md")]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "Permission denied" in err
    assert snapshot(demo) == before


def test_new_into_a_read_only_folder_is_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    _deny_writes(monkeypatch)
    assert main(["new", str(tmp_path / "camp"), "--demo"]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "Permission denied" in err
    assert not (tmp_path / "camp").exists()


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root ignores permission bits")
def test_really_read_only_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # pragma: no cover
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert main(["new", str(folder / "camp"), "--demo"]) == 2
        assert "cannot write" in capsys.readouterr().err
    finally:
        folder.chmod(0o755)


def test_modes_are_kept_on_replace(tmp_path: Path) -> None:
    path = tmp_path / "force.toml"
    path.write_text(FORCE)
    path.chmod(0o644)
    save_force(path, parse_force(FORCE, path))
    atomic_write_text(path, FORCE + "\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    path.chmod(0o640)
    atomic_write_text(path, FORCE)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_new_files_get_the_umask_default(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "a.toml", FORCE)
        assert stat.S_IMODE((tmp_path / "a.toml").stat().st_mode) == 0o644
        os.umask(0o027)
        atomic_write_text(tmp_path / "b.toml", FORCE)
        assert stat.S_IMODE((tmp_path / "b.toml").stat().st_mode) == 0o640
    finally:
        os.umask(old)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", ["lease", "journal"])
def test_a_fifo_as_muster_working_file_does_not_hang(demo: Path, name: str) -> None:
    from saves.campaign_file import JOURNAL
    from saves.lease import LEASE_NAME

    path = demo / {"lease": LEASE_NAME, "journal": JOURNAL}[name]
    path.unlink(missing_ok=True)  # the lease file stays after a save, holding nobody
    os.mkfifo(path)
    box: list[object] = []
    thread = threading.Thread(target=lambda: box.append(load_campaign(demo)), daemon=True)
    thread.start()
    thread.join(5)
    assert not thread.is_alive(), "reading the campaign hung"
    assert box and box[0].campaign.name == "Demo: The Hive War"  # type: ignore[attr-defined]
