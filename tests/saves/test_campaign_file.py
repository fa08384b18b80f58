"""campaign.toml and the campaign folder: round trips, golden text, migration, damage, locks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.campaigns import Branch, Campaign, CampaignRules, HistoryEntry, LedgerLine, Side, Spending, TrackStep
from saves.campaign_file import (
    JOURNAL,
    dump_campaign,
    load_campaign,
    parse_campaign,
    save_campaign,
    write_files,
)
from saves.errors import FormatTooNew, SaveError
from saves.force_file import load_force
from saves.lease import CampaignBusy
from saves.lock import campaign_lock
from scenarios import builtin_scenarios
from scenarios.demo import demo_campaign, write_demo

HERE = Path(__file__).parent
LIB = builtin_scenarios()


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- round trips and golden text ---------------------------------------------------

ids = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
fractions = st.fractions(min_value=-1000, max_value=1000, max_denominator=4)


@st.composite
def campaigns(draw: st.DrawFn) -> Campaign:
    side_ids = draw(st.lists(ids, min_size=2, max_size=4, unique=True))
    step_ids = draw(st.lists(ids, min_size=1, max_size=4, unique=True))
    targets = st.sampled_from([*step_ids, "end"])
    sides = tuple(Side(s, draw(text), tuple(draw(st.lists(text, max_size=2))), draw(fractions)) for s in side_ids)
    track = tuple(
        TrackStep(s, draw(ids), draw(st.sampled_from(["", *step_ids])),
                  tuple(Branch(w, draw(targets)) for w in draw(st.lists(st.sampled_from([*side_ids, "draw"]), unique=True))))
        for s in step_ids
    )  # fmt: skip
    ledger = tuple(LedgerLine(draw(st.integers(0, 9)), draw(st.sampled_from(side_ids)), draw(fractions), draw(text)) for _ in range(draw(st.integers(0, 3))))
    history = tuple(
        HistoryEntry(n + 1, step_ids[0], draw(ids), draw(text), f"battles/{n + 1:02d}-x.toml", draw(st.sampled_from(["", *side_ids])),
                     "vp", {s: draw(fractions) for s in side_ids}, {s: draw(st.integers(0, 50)) for s in side_ids},
                     {side_ids[0]: tuple(draw(st.lists(text, max_size=2)))}, {}, draw(text))
        for n in range(draw(st.integers(0, 2)))
    )  # fmt: skip
    rules = CampaignRules(
        draw(st.integers(0, 500)), draw(fractions), draw(st.booleans()), 6, draw(st.integers(1, 6)),
        tuple(draw(st.lists(ids, max_size=2))), draw(st.sampled_from(["battles-won", "last-battle", "draw"])),
        draw(st.booleans()), draw(st.sampled_from(["off", "battle", "activation"])),
    )  # fmt: skip
    return Campaign(
        draw(text.filter(str.strip)), draw(ids), sides, track, draw(st.none() | ids),
        draw(st.dictionaries(ids, st.integers(-5, 5) | st.booleans() | text, max_size=2)),
        draw(st.sampled_from(["auto", "table"])), draw(st.sampled_from(["initiative", "cards"])), rules,
        draw(st.sampled_from(["", *step_ids])), "", ledger, history, draw(st.integers(0, 2**31)), draw(text),
        spent=tuple(Spending(draw(st.integers(0, 9)), draw(st.sampled_from(side_ids)), draw(fractions), draw(text))
                    for _ in range(draw(st.integers(0, 2)))),
    )  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns())
def test_campaign_round_trip(campaign: Campaign) -> None:
    text = dump_campaign(campaign)
    back = parse_campaign(text)
    assert back == campaign
    assert dump_campaign(back) == text  # deterministic: the same record, the same bytes


def test_golden_demo_campaign(demo: Path) -> None:
    golden = HERE / "golden" / "demo-campaign.toml"
    assert (demo / "campaign.toml").read_text() == golden.read_text()


@pytest.mark.parametrize("ruleset", ["", "figwars-3", "d10-phased"])
def test_a_new_folder_is_returned_as_loading_it_reads_it(tmp_path: Path, ruleset: str) -> None:
    # `muster --demo` shows the folder it wrote without reading it again: it must be what a
    # read finds (the campaign, the forces, the digests a later save checks)
    from scenarios.demo import create_demo

    made = create_demo(tmp_path / "demo", ruleset=ruleset)
    assert made == load_campaign(tmp_path / "demo", LIB)
    assert made.forces == {side: load_force(tmp_path / "demo" / f"forces/{side}.toml") for side in made.forces}


def test_a_demo_hands_over_its_forces_without_reading_them_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the demos' forces are built-in samples (the test above checks they load as they are):
    # `muster --demo` writes them without parsing their text again (issue 17's start-up)
    import saves.campaign_file
    from scenarios.demo import create_demo, demo_forces

    monkeypatch.setattr(saves.campaign_file, "parse_force", lambda *a, **k: pytest.fail("read back"))
    made = create_demo(tmp_path / "demo")
    assert made.forces == demo_forces()
    assert set(made.seen) == {"campaign.toml", *(f"forces/{side.id}.toml" for side in made.campaign.sides)}


def test_save_twice_changes_nothing(demo: Path) -> None:
    before = _snapshot(demo)
    state = load_campaign(demo, LIB)
    save_campaign(demo, state.campaign, state.forces)
    assert _snapshot(demo) == before


# --- migration ----------------------------------------------------------------------


def test_migrates_muster0(tmp_path: Path) -> None:
    folder = tmp_path / "old"
    shutil.copytree(HERE / "fixtures" / "muster0-campaign", folder)
    before = _snapshot(folder)
    state = load_campaign(folder, LIB)
    c = state.campaign
    assert state.migrated and (c.ruleset, c.edition) == ("flat-out-war", "special-ops")
    assert [s.id for s in c.sides] == ["north", "south"] and c.side("north").players == ("Ann",)
    assert [t.scenario for t in c.track] == ["hold-the-bridge", "rescue", "last-stand"]
    assert c.position == "rescue"  # one battle fought
    assert c.totals() == {"north": Fraction(50), "south": Fraction(25, 2)}
    assert _snapshot(folder) == before  # loading never rewrites
    save_campaign(folder, c)
    assert (folder / "campaign.toml").read_text().startswith('format = "muster/1"')
    assert load_campaign(folder, LIB).campaign == c


# --- damaged and hand-edited files --------------------------------------------------

DAMAGE = [
    # (what, file, edit(text) -> text, words the error must contain)
    ("TOML syntax", "campaign.toml", lambda t: t.replace('dice = "auto"', 'dice = "auto'), "TOML syntax error"),
    ("no format", "campaign.toml", lambda t: t.replace('format = "muster/1"\n', ""), "missing format"),
    ("newer format", "campaign.toml", lambda t: t.replace("muster/1", "muster/7"), "newer Muster"),
    ("odd format", "campaign.toml", lambda t: t.replace("muster/1", "musterish"), "unknown format"),
    ("typo key", "campaign.toml", lambda t: t.replace("dice =", "dcie ="), "unknown key 'dcie'"),
    ("wrong type", "campaign.toml", lambda t: t.replace("seed = 2026", 'seed = "lots"'), "seed"),
    ("bad choice", "campaign.toml", lambda t: t.replace('dice = "auto"', 'dice = "magic"'), "'magic' is not allowed"),
    ("one side", "campaign.toml", lambda t: t[: t.index('[[sides]]\nid = "aliens"')] + t[t.index("[[track]]"):], "two or more sides"),
    ("same side twice", "campaign.toml", lambda t: t.replace('id = "aliens"', 'id = "humans"'), "appears twice"),
    ("unknown scenario", "campaign.toml", lambda t: t.replace('scenario = "demo-rout"', 'scenario = "demo-rot"'), "no scenario 'demo-rot'"),
    ("branch to nowhere", "campaign.toml", lambda t: t.replace('goto = "bridge"', 'goto = "brige"'), "no step 'brige'"),
    ("position nowhere", "campaign.toml", lambda t: t.replace('position = "landing"', 'position = "moon"'), "no step 'moon'"),
    ("bad rule", "campaign.toml", lambda t: t.replace("recovery_target = 4", "recovery_target = 9"), "recovery_target"),
    ("bad VP", "campaign.toml", lambda t: t + '\n[[ledger]]\nbattle = 1\nside = "humans"\nvp = "lots"\n', "not a number"),
    ("ledger side", "campaign.toml", lambda t: t + '\n[[ledger]]\nbattle = 1\nside = "elves"\nvp = 3\n', "no side 'elves'"),
    ("path escapes", "campaign.toml", lambda t: t.replace('position = "landing"', 'position = "landing"\nbattle_in_progress = "../../etc/passwd"'), "leaves the campaign folder"),
    ("not a campaign", "campaign.toml", lambda t: t.replace('kind = "campaign"', 'kind = "battle"'), "not a campaign"),
    ("empty file", "campaign.toml", lambda t: "", "empty"),
    ("not UTF-8", "campaign.toml", lambda t: t.replace("Hive", "H\udcffve"), "UTF-8"),
    ("force missing", "forces/aliens.toml", None, "has no force file"),
    ("force damaged", "forces/aliens.toml", lambda t: t.replace('die = "d4"', 'die = "d5"', 1), "d5"),
    ("force of another game", "forces/aliens.toml", lambda t: t.replace('ruleset = "flat-out-war"', 'ruleset = "chess"'), "ruleset"),
    ("own scenario broken", "scenarios/mine.toml", lambda t: 'format = "muster/1"\nkind = "scenario"\nid = "mine"\nname = "Mine"\n', "never ends"),
]  # fmt: skip


@pytest.mark.parametrize("what,rel,edit,words", DAMAGE, ids=[d[0] for d in DAMAGE])
def test_damaged_files_give_clear_errors_and_change_nothing(demo: Path, what, rel, edit, words) -> None:
    path = demo / rel
    if edit is None:
        path.unlink()
    else:
        old = path.read_text() if path.exists() else ""
        new = edit(old)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(new.encode("utf-8", "surrogateescape"))
    before = _snapshot(demo)
    with pytest.raises(SaveError) as err:
        load_campaign(demo, LIB)
    message = str(err.value)
    assert words in message, message
    assert str(demo) in message  # names the file
    assert _snapshot(demo) == before


def test_force_may_name_its_ruleset_by_an_alias(demo: Path) -> None:
    path = demo / "forces" / "aliens.toml"
    path.write_text(path.read_text().replace('ruleset = "flat-out-war"', 'ruleset = "fow"'))
    assert load_campaign(demo, LIB).forces["aliens"].ruleset == "fow"


def test_newer_format_is_format_too_new(demo: Path) -> None:
    path = demo / "campaign.toml"
    path.write_text(path.read_text().replace("muster/1", "muster/3"))
    with pytest.raises(FormatTooNew):
        load_campaign(demo, LIB)


def test_error_names_line_and_key(demo: Path) -> None:
    path = demo / "campaign.toml"
    text = path.read_text().replace('goto = "bridge"', 'goto = "brige"')
    path.write_text(text)
    with pytest.raises(SaveError) as err:
        load_campaign(demo, LIB)
    assert err.value.key == "track[0].branches[0].goto"
    assert err.value.line is not None
    assert "brige" in text.splitlines()[err.value.line - 1]


# --- locks and the journal ------------------------------------------------------------

HOLD = """
import sys
from saves.lease import acquire
with acquire(sys.argv[1], "battle"):
    print("locked", flush=True)
    sys.stdin.read()
"""


def test_second_writer_gets_a_clear_message(demo: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(demo)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        before = _snapshot(demo)
        state = load_campaign(demo, LIB)  # reading is fine while another writes
        with pytest.raises(CampaignBusy, match=f"another Muster is writing this campaign \\(battle, process {proc.pid}"):
            save_campaign(demo, attrs.evolve(state.campaign, note="mine"))
        assert _snapshot(demo) == before
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
    save_campaign(demo, attrs.evolve(state.campaign, note="mine"))  # the lease ended with its holder
    assert load_campaign(demo, LIB).campaign.note == "mine"


def test_lock_nests_in_one_process(demo: Path) -> None:
    with campaign_lock(demo):
        with campaign_lock(demo):
            write_files(demo, {"notes.txt": "x"})
    assert (demo / "notes.txt").read_text() == "x"


def test_interrupted_journal_is_finished_by_a_writer_only(demo: Path) -> None:
    import tomli_w

    state = load_campaign(demo, LIB)
    changed = attrs.evolve(state.campaign, note="after")
    forces = {sid: attrs.evolve(f, note="after") for sid, f in state.forces.items()}
    from saves.campaign_file import dump_campaign as dc
    from saves.force_file import dump_force

    files = {"campaign.toml": dc(changed), **{f"forces/{s}.toml": dump_force(f) for s, f in forces.items()}}
    # the journal was written, then the power went: no file was replaced yet
    (demo / JOURNAL).write_text(tomli_w.dumps({"files": [{"path": k, "text": v} for k, v in files.items()]}))
    before = {p: p.read_bytes() for p in demo.rglob("*") if p.is_file()}
    read = load_campaign(demo, LIB)  # a reader sees the finished save and changes nothing
    assert read.campaign.note == "after" and all(f.note == "after" for f in read.forces.values())
    assert "interrupted" in read.warnings[0]
    assert {p: p.read_bytes() for p in demo.rglob("*") if p.is_file()} == before
    loaded = load_campaign(demo, LIB, write=True)
    assert loaded.campaign.note == "after" and all(f.note == "after" for f in loaded.forces.values())
    assert not (demo / JOURNAL).exists() and loaded.warnings
    assert load_campaign(demo, LIB).campaign.note == "after"


def test_journal_cannot_write_outside(demo: Path) -> None:
    with pytest.raises(SaveError, match="leaves the campaign folder"):
        write_files(demo, {"../evil.toml": "x"})
    assert not (demo.parent / "evil.toml").exists()


def test_demo_campaign_is_valid_and_branches() -> None:
    campaign, forces = demo_campaign()
    assert campaign.step("landing").branches[0] == Branch("humans", "bridge")
    assert set(forces) == {"humans", "aliens"} and all(f.units for f in forces.values())


def test_a_new_folder_is_written_without_a_journal_campaign_toml_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    import saves.atomic
    from scenarios.demo import create_demo

    replaced: list[str] = []
    real = os.replace

    def replace(src: Any, dst: Any) -> None:
        replaced.append(Path(dst).name)
        real(src, dst)

    monkeypatch.setattr(saves.atomic.os, "replace", replace)
    made = create_demo(tmp_path / "demo")
    assert ".muster-journal.toml" not in replaced
    assert replaced.index("campaign.toml") > max(replaced.index(f"{side}.toml") for side in made.forces)  # last
    assert made == load_campaign(tmp_path / "demo", LIB)
    assert not list((tmp_path / "demo").rglob("*.tmp")) and not (tmp_path / "demo" / ".muster-journal.toml").exists()

    def refuse_campaign(src: Any, dst: Any) -> None:  # the disk fails at the last step
        if Path(dst).name == "campaign.toml":
            raise OSError("disk full")
        real(src, dst)

    monkeypatch.setattr(saves.atomic.os, "replace", refuse_campaign)
    with pytest.raises(OSError):
        create_demo(tmp_path / "again")
    assert not (tmp_path / "again" / "campaign.toml").exists()  # no campaign: the folder can be used again
    assert not list((tmp_path / "again").rglob("*.tmp"))
    monkeypatch.setattr(saves.atomic.os, "replace", real)
    assert create_demo(tmp_path / "again") == load_campaign(tmp_path / "again", LIB)
