"""Battle files as editors and git leave them: a last seal without its newline, CRLF line
ends, a byte-order mark. Each is read, appended to by a resumed battle, and still replays
to the digest of the battle that was played (issue 10, problems 2 and 3)."""

from __future__ import annotations

import codecs
from collections.abc import Callable
from pathlib import Path

import pytest

from campaign.engine import Battle, Decision
from saves.battle_file import BattleHeader, BattleSide, append_log, create_battle_file, drop_last_log, load_battle_file
from scenarios.demo import write_demo
from tui.cli.replay import battle_setup
from saves.lease import acquire
from tui.screens.battle_session import BattleSession, NotSaved


def writer(folder: Path) -> BattleSession:
    """A battle session holding the campaign's lease (release it with `.lease.release()`)."""
    return BattleSession.open(folder, lease=acquire(folder, "battle"))


def play(session: BattleSession, steps: int) -> None:
    """Take the first legal command that needs nothing typed, `steps` times (seeded dice)."""
    for _ in range(steps):
        pending = session.battle.pending
        assert isinstance(pending, Decision)
        for spec in pending.legal:
            try:
                session.apply(session.battle.command(spec))
                break
            except NotSaved:
                raise
            except Exception:  # a command that needs fields or facts: take the next one
                continue


def finish(session: BattleSession, face: int = 4) -> None:
    """The post-battle save of the session's battle, every recovery die showing `face`."""
    from campaign.campaigns.after_battle import recovery_dice_needed
    from saves.campaign_file import finish_battle, mustered_roster

    loaded, outcome = session.loaded, session.outcome()
    needed = recovery_dice_needed(loaded.campaign, loaded.forces, outcome, mustered_roster(loaded))
    faces = {side: [face] * count for side, count in needed.items()}
    finish_battle(loaded, session.scenario, outcome, recovery_faces=faces)


def no_final_newline(raw: bytes) -> bytes:
    assert raw.endswith(b"# end of entry\n")
    return raw[:-1]


def crlf(raw: bytes) -> bytes:
    return raw.replace(b"\n", b"\r\n")


def bom(raw: bytes) -> bytes:
    return codecs.BOM_UTF8 + raw


EDITS: dict[str, Callable[[bytes], bytes]] = {
    "no final newline": no_final_newline,
    "crlf": crlf,
    "bom": bom,
    "bom + crlf": lambda raw: bom(crlf(raw)),
    "crlf, no final newline": lambda raw: crlf(raw)[:-2],
    "trailing blanks after the seal": lambda raw: raw[:-1] + b"  \t",
}


@pytest.mark.parametrize("edit", EDITS, ids=list(EDITS))
def test_edited_battle_file_resumes_appends_and_replays(tmp_path: Path, edit: str) -> None:
    folder = write_demo(tmp_path / "demo", seed=11)
    session = writer(folder)
    play(session, 6)
    path = session.path
    recorded = len(load_battle_file(path).log)
    assert recorded == len(session.battle.log) > 3
    path.write_bytes(EDITS[edit](path.read_bytes()))
    assert len(load_battle_file(path).log) == recorded  # the reader keeps every entry

    session.lease.release()
    resumed = writer(folder)  # replays the edited file
    assert resumed.battle.digest() == session.battle.digest()
    play(resumed, 6)
    notices = resumed.take_warnings()
    assert not any("cut off" in n for n in notices)  # no complete entry was cut back
    if "crlf" in edit or "bom" in edit:
        assert any("rewrote the file without" in n for n in notices)

    on_disk = load_battle_file(path)
    assert on_disk.warnings == []
    assert len(on_disk.log) == len(resumed.battle.log) == recorded + 6
    assert [e["seq"] for e in on_disk.log] == list(range(len(on_disk.log)))
    assert Battle.replay(battle_setup(on_disk), on_disk.log).digest() == resumed.battle.digest()
    if "crlf" in edit or "bom" in edit:
        assert b"\r" not in path.read_bytes() and not path.read_bytes().startswith(codecs.BOM_UTF8)


def _small(path: Path) -> Path:
    create_battle_file(path, BattleHeader("flat-out-war", (BattleSide("a"), BattleSide("b"))))
    append_log(path, {"seq": 0})
    append_log(path, {"seq": 1})
    return path


def test_a_seal_without_newline_is_never_cut_back(tmp_path: Path) -> None:
    path = _small(tmp_path / "b.toml")
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    assert append_log(path, {"seq": 2}) == []
    assert [e["seq"] for e in load_battle_file(path).log] == [0, 1, 2]
    # and the bytes are those an unedited file would have had
    again = _small(tmp_path / "c.toml")
    append_log(again, {"seq": 2})
    assert path.read_bytes() == again.read_bytes()


def test_a_write_torn_at_its_last_byte_keeps_the_entry(tmp_path: Path) -> None:
    path = _small(tmp_path / "b.toml")
    whole = path.read_bytes()
    path.write_bytes(whole[:-1])  # the power went before the seal's newline
    assert load_battle_file(path).log == [{"seq": 0}, {"seq": 1}]
    append_log(path, {"seq": 2})
    assert [e["seq"] for e in load_battle_file(path).log] == [0, 1, 2]


@pytest.mark.parametrize("edit", ["crlf", "bom", "no final newline"])
def test_undo_on_an_edited_file_drops_only_the_last_entry(tmp_path: Path, edit: str) -> None:
    path = _small(tmp_path / "b.toml")
    path.write_bytes(EDITS[edit](path.read_bytes()))
    assert drop_last_log(path) == {"seq": 1}
    assert load_battle_file(path).log == [{"seq": 0}]
    append_log(path, {"seq": 1})
    assert [e["seq"] for e in load_battle_file(path).log] == [0, 1]


def test_crlf_torn_tail_is_cut_with_a_warning_and_nothing_else(tmp_path: Path) -> None:
    path = _small(tmp_path / "b.toml")
    good = path.read_bytes()
    append_log(path, {"seq": 2, "command": {"type": "move"}})
    torn = path.read_bytes()[: len(good) + 12]
    path.write_bytes(crlf(torn))
    assert [e["seq"] for e in load_battle_file(path).log] == [0, 1]
    warnings = append_log(path, {"seq": 2})
    assert any("cut off an unfinished last entry" in w for w in warnings)
    assert [e["seq"] for e in load_battle_file(path).log] == [0, 1, 2]


@pytest.mark.parametrize("line_end", [b"\n", b"\r\n"])
def test_at_every_torn_offset_the_appender_keeps_what_the_reader_keeps(tmp_path: Path, line_end: bytes) -> None:
    path = _small(tmp_path / "b.toml")
    good = path.read_bytes()
    append_log(path, {"seq": 2, "command": {"type": "move", "unit": "ripper-swarm"}})
    whole = path.read_bytes()
    for cut in range(len(good), len(whole) + 1):
        path.write_bytes(whole[:cut].replace(b"\n", line_end))
        kept = load_battle_file(path).log
        assert kept in ([{"seq": 0}, {"seq": 1}], [{"seq": 0}, {"seq": 1}, {"seq": 2, "command": {"type": "move", "unit": "ripper-swarm"}}])
        append_log(path, {"seq": 9})
        assert load_battle_file(path).log == [*kept, {"seq": 9}], cut
