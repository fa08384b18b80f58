"""Fuzz: damaged and hand-edited saves of every kind never crash Muster and never change the disk.

A real campaign folder (the demo after one battle, with a folder scenario) gives one
file of each kind: campaign.toml, a force, a battle file and a scenario. Hypothesis
damages one of them at a time -- flipped, cut, inserted or repeated bytes; hand edits
that give a key the wrong type, a huge or negative number, deep nesting, control
characters, a renamed, repeated or missing key or table; CRLF line ends, a BOM, a
missing final newline -- and loads it in-process the way Muster does. The only
failure allowed is a SaveError (which names the file); findings are fine; anything
else is a crash. Every file in the folder, the damaged one included, must be byte
for byte and mode for mode what it was before the load.

12 functions x 300 examples = 3,600 damaged files, derandomized, in well under a
minute on one core. The rare paths that 850 examples used to reach by chance (a
recovery target past its die, an attribute misspelt with a number, an unknown free
attribute, a force without units, an old format...) are damaged on purpose in
test_targeted_damage, each checked to reach what it aims at.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.campaigns import muster, plan_battle
from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine
from saves.battle_file import append_log, load_battle_file
from saves.campaign_file import finish_battle, load_campaign, start_battle
from saves.errors import SaveError
from saves.force_file import load_force, ruleset_for
from saves.scenario_file import dump_scenario, load_scenario
from scenarios import builtin_scenarios
from scenarios.demo import write_demo

EXAMPLES = int(os.environ.get("MUSTER_FUZZ_EXAMPLES", "300"))  # more for a long hunt
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)
LIB = builtin_scenarios()

# --- the folder -------------------------------------------------------------------------


def _build(folder: Path) -> dict[str, Path]:
    write_demo(folder)
    (folder / "scenarios").mkdir(exist_ok=True)
    text = dump_scenario(LIB["demo-bridge"]).replace('id = "demo-bridge"', 'id = "river"')
    (folder / "scenarios" / "river.toml").write_text(text, encoding="utf-8")
    state = load_campaign(folder, LIB)
    plan = plan_battle(state.campaign, LIB)
    path = start_battle(state, plan, {s: muster(plan, f) for s, f in state.forces.items()})
    append_log(path, {"seq": 0, "command": {"type": "start"}, "rolls": [{"die": 6, "faces": [5]}, {"die": 6, "faces": [2]}]})
    append_log(path, {"seq": 1, "side": "humans", "command": {"type": "activate", "unit": "tactical-squad"}})
    outcome = BattleOutcome((SideOutcome("humans", (VPLine("Eliminated Ripper Swarm", 60),)),
                             SideOutcome("aliens", (), ("Ripper Swarm",), (Casualty("Ripper Swarm", "Alien Ripper", 0, 24),))))  # fmt: skip
    finish_battle(load_campaign(folder, LIB), plan.scenario, outcome, recovery_faces={"humans": [], "aliens": [1] * 24})
    return {
        "campaign": folder / "campaign.toml",
        "force": folder / "forces" / "humans.toml",
        "battle": path,
        "scenario": folder / "scenarios" / "river.toml",
    }


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return _build(tmp_path_factory.mktemp("fuzz") / "camp")


def _snapshot(folder: Path) -> dict[str, tuple[int, int, int, int]]:
    """Each file's inode, size, mode and change time: any write, replace, chmod or new file shows.
    (os.scandir, not Path.rglob: taken twice for each of the 10,200 examples.)"""
    out = {}

    def walk(path: str, prefix: str) -> None:
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.name == ".muster.lock":  # the lock file's content is the OS's business
                    continue
                info = entry.stat(follow_symlinks=False)
                out[prefix + entry.name] = (info.st_ino, info.st_size, info.st_mode, info.st_mtime_ns)
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, prefix + entry.name + os.sep)

    walk(str(folder), "")
    return out


# --- loading each kind as Muster does -----------------------------------------------------


def _load_campaign(path: Path) -> None:
    folder = load_campaign(path.parent, LIB)
    assert folder.campaign.sides


def _load_force(path: Path) -> None:
    force = load_force(path)
    ruleset = ruleset_for(force, path)
    list(ruleset.validate(force))  # findings, never an exception
    ruleset.price(force)


def _load_battle(path: Path) -> None:
    battle = load_battle_file(path)
    assert battle.header.sides


def _load_scenario(path: Path) -> None:
    load_scenario(path)


LOADERS: dict[str, Callable[[Path], None]] = {
    "campaign": _load_campaign,
    "force": _load_force,
    "battle": _load_battle,
    "scenario": _load_scenario,
}


def _check(files: dict[str, Path], kind: str, damaged: bytes) -> str:
    """Load `damaged` in place of the `kind` file: a SaveError or nothing, the disk untouched.
    Returns what the load said: the SaveError's text, or "" when it loaded."""
    path = files[kind]
    folder = files["campaign"].parent
    original = path.read_bytes()
    said = ""
    try:
        path.write_bytes(damaged)
        before = _snapshot(folder)
        try:
            LOADERS[kind](path)
        except SaveError as exc:
            assert exc.file and str(exc)  # names the file, says something
            said = str(exc)
        assert _snapshot(folder) == before, "loading changed the disk"
    finally:
        path.write_bytes(original)
    return said


# --- ways to damage a file ----------------------------------------------------------------

VALUES = [
    '"x"', '""', "1", "-1", "0", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "1000000000000000000000000000000", "1e400", "-1e400", "inf", "-inf", "nan", "0.5", "true", "false",
    "[]", '[1, "a"]', "[[]]", "{}", "{ a = 1 }", '{ name = "x", count = -5 }', "1979-05-27T07:32:00Z", "07:32:00",
    '"\\u001b[2J\\u001b]0;pwned\\u0007"', '"a\\nb\\r\\nc"', '"\\u202e\\u0085\\u009b31m"', '"\\u0000"',
    "'''\nmulti\n'''", '"' + "x" * 5000 + '"',
]
KEYS = ["name", "count", "die", "move", "format", "kind", "ruleset", "units", "elements", "sides", "log",
        "result", "setup", "track", "history", "seq", "x", "", "a.b.c", '"quoted key"']
HEADERS = ["[units]", "[[units]]", "[[units.elements]]", "[setup]", "[[log]]", "[result]", "[[sides]]",
           "[[history]]", "[rules]", "[x.y.z]", "[[objectives]]", "[[setup.sides]]", "[options]"]
_ASSIGN = re.compile(rb"^(\s*)([A-Za-z0-9_\-\".]+)(\s*=\s*)(.*)$")


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@st.composite
def byte_damage(draw: st.DrawFn, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "delete", "insert", "truncate", "repeat", "bit"]))
        at = draw(st.integers(0, max(len(out) - 1, 0)))
        if op == "flip" and out:
            out[at] = draw(st.integers(0, 255))
        elif op == "bit" and out:
            out[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "delete":
            del out[at : at + draw(st.integers(1, 64))]
        elif op == "insert":
            out[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif op == "truncate":
            del out[at:]
        elif op == "repeat":
            out[at:at] = out[at : at + draw(st.integers(1, 200))]
    return bytes(out)


@st.composite
def hand_edit(draw: st.DrawFn, data: bytes) -> bytes:
    lines = data.split(b"\n")
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):  # one edit mostly: past the parser, into the checks
        i = draw(st.integers(0, max(len(lines) - 1, 0)))
        op = draw(st.sampled_from(["value"] * 6 + ["key", "delete", "delete", "duplicate", "header", "nest", "swap"]))
        match = _ASSIGN.match(lines[i]) if lines else None
        if op == "value" and not match:  # find the next line that assigns a value
            i = next((j for j in range(i, len(lines)) if _ASSIGN.match(lines[j])), i)
            match = _ASSIGN.match(lines[i]) if lines else None
        if op == "value" and match:
            value = draw(st.sampled_from(VALUES + [_nested(draw(st.integers(2, 600)))]))
            lines[i] = match.group(1) + match.group(2) + match.group(3) + value.encode()
        elif op == "key" and match:
            lines[i] = match.group(1) + draw(st.sampled_from(KEYS)).encode() + match.group(3) + match.group(4)
        elif op == "delete" and lines:
            del lines[i]
        elif op == "duplicate" and lines:
            lines.insert(i, lines[i])
        elif op == "header":
            lines.insert(i, draw(st.sampled_from(HEADERS)).encode())
        elif op == "nest":
            depth = draw(st.integers(20, 3000))
            style = draw(st.sampled_from(["array", "table", "dotted"]))
            if style == "array":
                line = f"deep = {_nested(depth)}"
            elif style == "table":
                line = "deep = " + "{ a = " * min(depth, 400) + "1" + " }" * min(depth, 400)
            else:
                line = "[" + ".".join(["a"] * depth) + "]"
            lines.insert(i, line.encode())
        elif op == "swap" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


@st.composite
def encoding_damage(draw: st.DrawFn, data: bytes) -> bytes:
    out = data
    if draw(st.booleans()):
        out = draw(hand_edit(out))
    for op in draw(st.lists(st.sampled_from(["crlf", "some-crlf", "bom", "no-final-newline", "cut-line",
                                            "nul", "latin1", "cr-only", "tabs"]), min_size=1, max_size=3)):
        if op == "crlf":
            out = out.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        elif op == "some-crlf":
            lines = out.split(b"\n")
            pick = draw(st.sets(st.integers(0, max(len(lines) - 1, 0)), max_size=20))
            out = b"\n".join(line + b"\r" if i in pick else line for i, line in enumerate(lines))
        elif op == "bom":
            out = b"\xef\xbb\xbf" + out
        elif op == "no-final-newline":
            out = out.rstrip(b"\r\n")
        elif op == "cut-line":
            lines = out.split(b"\n")
            out = b"\n".join(lines[: draw(st.integers(0, len(lines)))])
        elif op == "nul":
            at = draw(st.integers(0, len(out)))
            out = out[:at] + b"\x00" + out[at:]
        elif op == "latin1":
            out = out.replace(b"Squad", "Squäd".encode("latin-1"), 1)
        elif op == "cr-only":
            out = out.replace(b"\n", b"\r")
        elif op == "tabs":
            out = out.replace(b"    ", b"\t").replace(b" = ", b"\t=\t")
    return out


# --- the tests: each kind x each family -------------------------------------------------------


def _run(files: dict[str, Path], kind: str, strategy: Callable[[bytes], Any], data: st.DataObject) -> None:
    original = files[kind].read_bytes()
    _check(files, kind, data.draw(strategy(original)))


@pytest.mark.parametrize("kind", list(LOADERS))
@FUZZ
@given(data=st.data())
def test_byte_damage(files: dict[str, Path], kind: str, data: st.DataObject) -> None:
    _run(files, kind, byte_damage, data)


@pytest.mark.parametrize("kind", list(LOADERS))
@FUZZ
@given(data=st.data())
def test_hand_edits(files: dict[str, Path], kind: str, data: st.DataObject) -> None:
    _run(files, kind, hand_edit, data)


@pytest.mark.parametrize("kind", list(LOADERS))
@FUZZ
@given(data=st.data())
def test_encodings(files: dict[str, Path], kind: str, data: st.DataObject) -> None:
    _run(files, kind, encoding_damage, data)


# Damage aimed at the paths that random damage reaches only now and then: (kind, a piece of
# the file, what replaces it -- or CUT: the file ends before it --, a piece of what the load
# says; for a force that loads, of its findings; "" for a clean load). Each is checked to
# still find its piece in the file and to reach its message.
CUT = None
TARGETED: list[tuple[str, str, str | None, str]] = [
    ("campaign", "recovery_target = 4", "recovery_target = 9", "must be between 1 and the recovery die"),
    ("campaign", 'ruleset = "flat-out-war"', 'ruleset = "chess"', "the campaign plays 'chess'"),
    ("campaign", 'activation = "initiative"', 'activation = "chess"', "unknown activation scheme 'chess'"),
    ("campaign", 'activation = "initiative"', 'activation = "initiative"\nactivation_options = { x = 1 }',
     "unknown option(s) for activation scheme initiative: x"),
    ("campaign", 'activation = "initiative"', 'activation = "cards"', ""),
    ("campaign", 'activation = "initiative"', 'activation = "phased"', ""),
    ("campaign", 'side = "humans", vp = 60', 'side = "martians", vp = 60', "no side 'martians'"),
    ("campaign", 'kind = "campaign"', 'kind = "force"', "this is a 'force' file, not a campaign"),
    ("campaign", 'format = "muster/1"', 'format = "muster/0"', ""),  # upgraded in memory only
    ("force", 'format = "muster/1"', 'format = "muster/0"', "muster/0 files cannot be upgraded"),
    ("force", 'ruleset = "flat-out-war"', 'ruleset = "chess"', "unknown ruleset 'chess'"),
    ("force", 'ruleset = "flat-out-war"', 'ruleset = "flat out war"', "did you mean 'flat-out-war'?"),
    ("force", 'ruleset = "flat-out-war"', 'ruleset = "fow"', ""),
    ("force", 'ruleset = "flat-out-war"', 'ruleset = "d10-phased"', "unknown option 'free_attributes'"),
    ("force", 'ruleset = "flat-out-war"', 'ruleset = "figwars-3"', "unknown option 'free_attributes'"),
    ("force", 'edition = "special-ops"', 'edition = ""', "unknown edition ''"),
    ("force", 'edition = "special-ops"', 'edition = "1.7"', "Skimmer is not an attribute of v1.7"),
    ("force", "points_limit = 1010", "points_limit = -5", "negative points limit"),
    ("force", "points_limit = 1010", "points_limit = 200000", "must be at most 100000"),
    ("force", 'free_attributes = "Loose Cohesion"\n', "", "the force costs 1060 points"),  # Loose Cohesion priced
    ("force", 'free_attributes = "Loose Cohesion"', 'free_attributes = "Loose Cohesion, Flyng"',
     "did you mean 'Flying'?"),
    ("force", '["Agile", "Brave", "Loose', '["Agile", "Brav 3", "Loose', "did you mean 'Brave'?"),
    ("force", '["Agile", "Brave", "Loose', '["Agile", "Brave 3", "Loose', "Brave takes no value"),
    ("force", '"Brave", "Loose Cohesion 4', '"Brave", "Loose Cohesion four', "takes a distance in inches"),
    ("force", "move = 4\n", "move = 0\n", ""),  # no MOVE to price
    ("force", 'name = "Assault Squad"', 'name = " "', "the unit has an empty name"),
    ("force", "\n[[units]]\n", '\n[[units]]\nname = "Empty"\n\n[[units]]\n', "unit 'Empty' has no elements"),
    ("force", "\n[[units]]\n", CUT, "the force has no units"),
    ("scenario", 'format = "muster/1"', 'format = "muster/0"', "muster/0 files cannot be upgraded"),
    ("scenario", 'vp = 100, side = "attacker"', 'vp = -100, side = "attacker"', "negative VPs"),
    ("scenario", 'name = "Bridge denied"', 'name = "Bridge secured"', "objective 'Bridge secured' appears twice"),
    ("battle", 'format = "muster/1"', 'format = "muster/0"', "unknown key 'kind'"),
    ("battle", "[setup]\n", "[setup_]\n", "unknown key(s): setup_"),
    ("battle", "[setup]\n", CUT, "no [setup] table"),
]


def _findings(path: Path) -> str:
    force = load_force(path)
    return "; ".join(f.message for f in ruleset_for(force, path).validate(force))


@pytest.mark.parametrize(("kind", "piece", "edit", "says"), TARGETED, ids=[f"{t[0]}-{t[3] or t[2]}"[:50] for t in TARGETED])
def test_targeted_damage(files: dict[str, Path], kind: str, piece: str, edit: str | None, says: str) -> None:
    original = files[kind].read_text(encoding="utf-8")
    assert piece in original, f"the {kind} file no longer holds {piece!r}: aim this damage anew"
    damaged = original[: original.index(piece)] if edit is None else original.replace(piece, edit, 1)
    said = _check(files, kind, damaged.encode("utf-8"))
    if not said and kind == "force":
        files[kind].write_text(damaged, encoding="utf-8")
        try:
            said = _findings(files[kind])
        finally:
            files[kind].write_text(original, encoding="utf-8")
    assert (says in said) if says else not said, said


def test_the_untouched_folder_loads(files: dict[str, Path]) -> None:
    """The fuzz starts from files that load: every failure above is the damage's."""
    for kind, load in LOADERS.items():
        load(files[kind])
