"""A campaign whose every name is hostile, for the tests of inert display (issue 10).

The names carry an ESC sequence that clears the screen, an OSC that retitles the
window, a BEL, a newline that would forge a line, a bidi override, a C1 CSI and a DEL.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from campaign.campaigns import HistoryEntry, LedgerLine, muster, plan_battle
from saves.battle_file import append_log
from saves.campaign_file import load_campaign, save_campaign, start_battle
from scenarios import builtin_scenarios
from scenarios.demo import write_demo

EVIL = "Evil\x1b[2J\x1b]0;pwned\x07\nFAKE LINE\u202e\x9b31m\x7f"
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]")  # anything but the program's own newlines


def hostile_campaign(folder: Path) -> Path:
    """The demo with every name poisoned, and a battle in progress whose log replays."""
    lib = builtin_scenarios()
    write_demo(folder)
    state = load_campaign(folder, lib)
    c = state.campaign
    forces = {}
    for sid, f in state.forces.items():
        units = tuple(
            attrs.evolve(u, name=u.name + EVIL, elements=tuple(attrs.evolve(e, name=e.name + EVIL) for e in u.elements))
            for u in f.units
        )
        forces[sid] = attrs.evolve(f, name=f.name + EVIL, units=units)
    sides = tuple(attrs.evolve(s, name=s.name + EVIL) for s in c.sides)
    save_campaign(folder, attrs.evolve(c, name=c.name + EVIL, sides=sides), forces)
    state = load_campaign(folder, lib)
    plan = plan_battle(state.campaign, lib)
    path = start_battle(state, plan, {s: muster(plan, f) for s, f in state.forces.items()})
    append_log(path, {"seq": 0, "command": {"type": "start"}, "rolls": [{"die": 6, "faces": [5]}, {"die": 6, "faces": [2]}]})
    # and a history line, a ledger line and a track scenario name, poisoned too
    state = load_campaign(folder, lib)
    c = state.campaign
    entry = HistoryEntry(1, "landing", "demo-landing", "Hot Landing" + EVIL, path.relative_to(folder).as_posix(),
                         winner="humans", how="vp", vps={"humans": 5, "aliens": 0}, summary="Humans win" + EVIL,
                         units_lost={"aliens": ("Pukers" + EVIL,)})
    ledger = (LedgerLine(1, "humans", 5, "objective" + EVIL),)
    save_campaign(folder, attrs.evolve(c, history=(entry,), ledger=ledger))
    return folder


def assert_inert(text: str) -> None:
    assert not RAW.search(text), f"raw control character in {text!r}"
    assert not any(line.startswith("FAKE LINE") for line in text.splitlines()), "a name forged a line"
