"""Kill a writer mid-save, many times: every file is old or new, never half of each.

A child process saves the campaign over and over, flipping every file between two
versions (A and B) in one multi-file save; another child appends to a battle log.
The parent kills them at random moments, then checks what is on disk.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import attrs
import pytest

from saves.battle_file import BattleHeader, BattleSide, append_log, create_battle_file, load_battle_file
from saves.campaign_file import dump_campaign, load_campaign
from saves.force_file import dump_force
from scenarios import builtin_scenarios
from scenarios.demo import write_demo

LIB = builtin_scenarios()
ROUNDS = 6

SAVER = """
import sys, attrs
from saves.campaign_file import load_campaign, save_campaign
from scenarios import builtin_scenarios
state = load_campaign(sys.argv[1], builtin_scenarios())
versions = []
for note in ("A", "B"):
    versions.append((attrs.evolve(state.campaign, note=note),
                     {s: attrs.evolve(f, note=note) for s, f in state.forces.items()}))
print("ready", flush=True)
i = 0
while True:
    i += 1
    campaign, forces = versions[i % 2]
    save_campaign(sys.argv[1], campaign, forces)
"""

APPENDER = """
import sys
from saves.battle_file import append_log
print("ready", flush=True)
seq = int(sys.argv[2])
while True:
    append_log(sys.argv[1], {"seq": seq, "command": {"type": "pass", "note": "x" * (seq % 50)}})
    seq += 1
"""


def _run_and_kill(code: str, *args: str, delay: float) -> None:
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(delay)
    finally:
        proc.kill()
        proc.wait(timeout=10)
        proc.stdout.close()


def test_killed_campaign_saves_leave_old_or_new(tmp_path: Path) -> None:
    folder = write_demo(tmp_path / "demo")
    state = load_campaign(folder, LIB)
    texts = {rel: {(folder / rel).read_text()} for rel in ("campaign.toml", "forces/humans.toml", "forces/aliens.toml")}
    for note in ("A", "B"):
        texts["campaign.toml"].add(dump_campaign(attrs.evolve(state.campaign, note=note)))
        for sid, force in state.forces.items():
            texts.setdefault(f"forces/{sid}.toml", set()).add(dump_force(attrs.evolve(force, note=note)))
    rng = random.Random(4)
    for _ in range(ROUNDS):
        _run_and_kill(SAVER, str(folder), delay=rng.uniform(0.0, 0.05))
        for rel, allowed in texts.items():  # before any recovery: each file whole
            assert (folder / rel).read_text() in allowed, rel
        loaded = load_campaign(folder, LIB)  # finishes an interrupted save, if any
        notes = {loaded.campaign.note, *(f.note if f.note in "AB" else "" for f in loaded.forces.values())}
        assert len(notes) == 1, f"files disagree after a crash: {notes}"


def test_killed_appends_keep_every_sealed_entry(tmp_path: Path) -> None:
    path = tmp_path / "battles" / "01-x.toml"
    create_battle_file(path, BattleHeader("flat-out-war", (BattleSide("a"), BattleSide("b"))))
    rng = random.Random(5)
    seen = 0
    for _ in range(ROUNDS):
        _run_and_kill(APPENDER, str(path), str(seen), delay=rng.uniform(0.0, 0.03))
        battle = load_battle_file(path)
        assert [e["seq"] for e in battle.log] == list(range(len(battle.log)))  # a clean prefix
        assert len(battle.log) >= seen  # nothing sealed was lost
        seen = len(battle.log)
        append_log(path, {"seq": seen})  # cuts any torn tail, then appends
        seen += 1
    assert [e["seq"] for e in load_battle_file(path).log] == list(range(seen))


@pytest.mark.parametrize("cut", range(1, 60, 7))
def test_torn_tail_at_every_byte_of_an_entry(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "b.toml"
    create_battle_file(path, BattleHeader("flat-out-war", (BattleSide("a"), BattleSide("b"))))
    append_log(path, {"seq": 0})
    good = path.read_bytes()
    append_log(path, {"seq": 1, "command": {"type": "move", "unit": "Ravager Pack"}})
    path.write_bytes(path.read_bytes()[: len(good) + cut])
    battle = load_battle_file(path)
    assert battle.log == [{"seq": 0}]
