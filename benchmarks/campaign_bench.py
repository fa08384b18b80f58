"""Campaign save/load timings, printed next to a raw tomllib parse of the same files.

    .venv/bin/python benchmarks/campaign_bench.py [--battles 50] [--entries 300] [--appends 2000]

1. Build a campaign of N finished battles (history, ledger, a battle file each with
   M log entries), then time `load_campaign` and loading every battle file against
   tomllib alone on the same bytes.
2. Append K activations to one long battle, timing the first and the last hundred
   appends: an append must cost the same on entry 100 and entry 2000.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tomllib
from fractions import Fraction
from pathlib import Path

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from campaign.campaigns import HistoryEntry, LedgerLine, TrackStep  # noqa: E402
from saves.battle_file import BattleHeader, BattleSide, append_log, create_battle_file, load_battle_file  # noqa: E402
from saves.campaign_file import load_campaign, save_campaign  # noqa: E402
from scenarios import builtin_scenarios  # noqa: E402
from scenarios.demo import write_demo  # noqa: E402


def entry(seq: int) -> dict:
    return {
        "seq": seq,
        "side": "humans" if seq % 2 else "aliens",
        "command": {"type": "shoot", "unit": "Tactical Squad", "target": "Ripper Swarm",
                    "facts": {"range_band": "long", "los": "open", "aspect": "front"}},
        "rolls": [{"die": 6, "faces": [seq % 6 + 1, 4, 2, 6, 5], "purpose": "5 x d6 to hit, Tactical Squad shooting Ripper Swarm"}],
    }  # fmt: skip


def timed(fn, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def build(folder: Path, battles: int, entries: int) -> Path:
    write_demo(folder)
    state = load_campaign(folder, builtin_scenarios())
    c = state.campaign
    track = tuple(TrackStep(f"s{i:02d}", "meeting-engagement") for i in range(battles + 1))
    history, ledger = [], []
    header = BattleHeader("flat-out-war", tuple(BattleSide(s.id, s.name, force_ref=f"forces/{s.id}.toml", force=state.forces[s.id]) for s in c.sides))
    for n in range(1, battles + 1):
        file = f"battles/{n:02d}-meeting-engagement.toml"
        path = create_battle_file(folder / file, attrs.evolve(header, number=n, seed=n))
        with open(path, "ab") as handle:  # bulk-build the logs quickly (same bytes as append_log)
            from saves.battle_file import _entry_text

            handle.write(b"".join(_entry_text(entry(i)) for i in range(entries)))
        vps = {"humans": Fraction(n * 5, 4), "aliens": Fraction(n * 3)}
        history.append(HistoryEntry(n, f"s{n - 1:02d}", "meeting-engagement", "Meeting Engagement", file, "aliens", "vp", vps,
                                    {"humans": 3, "aliens": 2}, {"humans": ("Heavy Squad",)}, {}, f"Battle {n}: ..."))  # fmt: skip
        ledger += [LedgerLine(n, "humans", vps["humans"], "Eliminated Pukers"), LedgerLine(n, "aliens", vps["aliens"], "Hill")]
    c = attrs.evolve(c, track=track, position=track[-1].id, history=tuple(history), ledger=tuple(ledger))
    save_campaign(folder, c)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--entries", type=int, default=300)
    parser.add_argument("--appends", type=int, default=1000)
    args = parser.parse_args()
    lib = builtin_scenarios()
    with tempfile.TemporaryDirectory() as tmp:
        folder = build(Path(tmp) / "camp", args.battles, args.entries)
        files = [folder / "campaign.toml", *sorted((folder / "forces").glob("*.toml"))]
        battles = sorted((folder / "battles").glob("*.toml"))
        size = sum(p.stat().st_size for p in files)
        bsize = sum(p.stat().st_size for p in battles)
        t_load = timed(lambda: load_campaign(folder, lib))
        t_raw = timed(lambda: [tomllib.loads(p.read_text()) for p in files])
        print(f"campaign ({args.battles} battles; campaign.toml + forces, {size / 1024:.0f} KiB)")
        print(f"  load_campaign       {t_load * 1000:8.1f} ms")
        print(f"  raw tomllib         {t_raw * 1000:8.1f} ms")
        t_bload = timed(lambda: [load_battle_file(p) for p in battles], repeat=2)
        t_braw = timed(lambda: [tomllib.loads(p.read_text()) for p in battles], repeat=2)
        print(f"battle files ({len(battles)} x {args.entries} entries, {bsize / 1024 / 1024:.1f} MiB)")
        print(f"  load_battle_file    {t_bload * 1000:8.1f} ms")
        print(f"  raw tomllib         {t_braw * 1000:8.1f} ms")

        long = folder / "battles" / "long.toml"
        create_battle_file(long, BattleHeader("flat-out-war", (BattleSide("humans"), BattleSide("aliens"))))
        marks = []
        start = time.perf_counter()
        for i in range(args.appends):
            t0 = time.perf_counter()
            append_log(long, entry(i))
            marks.append(time.perf_counter() - t0)
        total = time.perf_counter() - start
        first, last = sum(marks[:100]) / 100, sum(marks[-100:]) / 100
        raw = long.read_text()
        t_parse = timed(lambda: tomllib.loads(raw), repeat=3)
        t_full = timed(lambda: load_battle_file(long), repeat=3)
        print(f"appending {args.appends} activations to one battle ({long.stat().st_size / 1024:.0f} KiB at the end, fsync each)")
        print(f"  append, first 100   {first * 1000:8.3f} ms each")
        print(f"  append, last 100    {last * 1000:8.3f} ms each")
        print(f"  all appends         {total * 1000:8.1f} ms")
        print(f"  load the long file  {t_full * 1000:8.1f} ms (raw tomllib {t_parse * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
