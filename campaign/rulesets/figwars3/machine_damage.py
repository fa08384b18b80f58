"""Vehicle and mecha damage (spec 13, 2.7, PR-48, PR-63-PR-66): the system tables, the
crew's and the pilot's fates, severe damage, repairs -- and the exact chance of each
result for the odds report.

`MachineState` is one vehicle's or mecha's lasting record; `take_damage` is the
generator that applies an attack's DP and rolls the tables (`yield from`), returning
the new state and what happened. `damage_odds` gives the same results' probabilities;
a test walks every die of `take_damage` and requires the two to agree.
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import Any

import attrs

from campaign.engine.dice import roll as request_roll
from campaign.rulesets.figwars3.checks import skill_check

LOCATION: dict[int, str] = {1: "integral", 2: "integral", 3: "movement", 4: "movement", 5: "crew", 6: "crew", 7: "structure", 8: "structure"}
WEAPON_HIT_MAX = 5  # integral systems: 1-5 a weapon, 6-8 the controls
DRIVER_MIN = 7  # a casualty is the driver on 7-8
PILOT_SURVIVES_MIN = 7  # cockpit hit: the pilot lives on 7-8
COLLAPSE_MAX = 2  # an immobilised mecha collapses on 1-2 (PR-64)
BREAKDOWN_FACE = 1  # a severely damaged unit breaks down on a 1 (PR-66: once per move action)
RAM_LOSS = 3  # first movement hit: RAM -3
REPAIR_TARGET = 3  # Hard
REPAIR_ACTIONS = 2
# Crew fate of a destroyed vehicle: 1-4 nobody more, 5-7 1d4 casualties, 8 no survivors.
FATE_NONE_MAX = 4
FATE_SOME_MAX = 7


def casualties_for(dp: int, open_topped: bool) -> int:
    """Crew hit: one casualty per 2 DP or part of 2; open-topped one per DP (13)."""
    return dp if open_topped else (dp + 1) // 2


def severe(dp: int, max_dp: int) -> bool:
    """Severely damaged at half the starting DP (rounded down) or less (13)."""
    return dp <= max_dp // 2


@attrs.frozen
class MachineState:
    kind: str  # "vehicle" or "mecha"
    dp: int
    max_dp: int
    open_topped: bool = False
    weapons: tuple[str, ...] = ()  # weapons still working
    weapons_out: tuple[str, ...] = ()  # knocked out (repairable)
    controls_out: bool = False  # shut down for the game (PR-63)
    movement_hits: int = 0  # 1: MOV halved (RAM -3); 2: immobilised
    collapsed: bool = False
    pilot_dead: bool = False
    driver_alive: bool = True
    driverless_turn: int | None = None  # the turn the driver died: no move next activation
    occupants: tuple[str, ...] = ()  # crew and passengers besides the driver (names or ids)
    broken_down: bool = False
    pins: int = 0  # PR-48: one pin on the vehicle for its whole crew
    repair_bonus: int = 0  # automatic successes from failed repair turns
    destroyed: bool = False
    dead: tuple[str, ...] = ()  # occupants killed, in order

    @property
    def immobilised(self) -> bool:
        return self.movement_hits >= 2 or self.pilot_dead or self.collapsed

    @property
    def out_of_action(self) -> bool:
        """Destroyed, shut down, or a mecha with a dead pilot (PR-64)."""
        return self.destroyed or self.controls_out or (self.kind == "mecha" and self.pilot_dead)

    @property
    def severe(self) -> bool:
        return severe(self.dp, self.max_dp)

    def mov(self, base: int) -> int:
        """MOV after movement hits, break-downs and a dead pilot (every mode alike)."""
        if self.immobilised or self.broken_down or self.out_of_action:
            return 0
        return base // 2 if self.movement_hits == 1 else base

    def ram(self, base: int) -> int:
        return max(base - RAM_LOSS, 0) if self.movement_hits >= 1 else base

    def can_move(self, turn: int) -> bool:
        """A vehicle whose driver died cannot move in its next activation (13)."""
        if not self.driver_alive:
            return False
        return self.driverless_turn is None or turn > self.driverless_turn + 1

    def labels(self) -> tuple[str, ...]:
        """The damage results standing on the unit, for the screen."""
        out = []
        if self.destroyed:
            return ("destroyed",)
        if self.controls_out:
            out.append("controls shut down")
        if self.weapons_out:
            out.append("weapons out: " + ", ".join(self.weapons_out))
        if self.movement_hits == 1:
            out.append("MOV halved" + (", RAM -3" if self.kind == "vehicle" else ""))
        if self.movement_hits >= 2 or (self.kind == "mecha" and self.pilot_dead):
            out.append("immobilised")
        if self.collapsed:
            out.append("collapsed")
        if self.pilot_dead:
            out.append("pilot dead")
        if self.kind == "vehicle" and not self.driver_alive:
            out.append("driver dead")
        if self.broken_down:
            out.append("broken down")
        if self.severe:
            out.append("severely damaged")
        if self.pins:
            out.append("crew pinned")
        return tuple(out)


@attrs.frozen
class DamageReport:
    result: str  # the headline result, one of RESULTS' labels
    lines: tuple[str, ...] = ()
    extra_dp: int = 0
    killed: tuple[str, ...] = ()  # occupants killed (the driver as "driver", the pilot as "pilot")


def _pick(options: tuple[str, ...], purpose: str) -> Generator[Any, Any, str]:
    """One of several, at random (the source: 'determine randomly')."""
    if len(options) == 1:
        return options[0]
    (face,) = yield from request_roll(len(options), 1, purpose)
    return options[face - 1]


def _casualties(state: MachineState, n: int) -> Generator[Any, Any, tuple[MachineState, list[str]]]:
    """n crew casualties: each 1d8, 1-6 another occupant (chosen at random), 7-8 the
    driver; with nobody left on one side the casualty falls on the other (13: common sense)."""
    killed: list[str] = []
    for i in range(n):
        if not state.occupants and not state.driver_alive:
            break
        (face,) = yield from request_roll(8, 1, f"crew casualty {i + 1} of {n}: 1-6 crew or passenger, 7-8 driver")
        driver = face >= DRIVER_MIN
        if driver and not state.driver_alive:
            driver = False
        if not driver and not state.occupants:
            driver = True
        if driver:
            state = attrs.evolve(state, driver_alive=False)
            killed.append("driver")
            continue
        victim = yield from _pick(state.occupants, "which crew member or passenger")
        rest = list(state.occupants)
        rest.remove(victim)
        state = attrs.evolve(state, occupants=tuple(rest), dead=state.dead + (victim,))
        killed.append(victim)
    return state, killed


def _destroyed(state: MachineState) -> Generator[Any, Any, tuple[MachineState, DamageReport]]:
    state = attrs.evolve(state, destroyed=True)
    if state.kind == "mecha":
        return attrs.evolve(state, pilot_dead=True), DamageReport("destroyed: pilot killed", ("destroyed; the pilot dies",), killed=("pilot",))
    (face,) = yield from request_roll(8, 1, "destroyed: crew fate (1-4 none, 5-7 1d4 casualties, 8 no survivors)")
    if face <= FATE_NONE_MAX:
        return state, DamageReport("destroyed: no further casualties", ("destroyed; the crew gets out",))
    if face <= FATE_SOME_MAX:
        (d8,) = yield from request_roll(8, 1, "1d4 (a d8 halved): casualties")
        state, killed = yield from _casualties(state, (d8 + 1) // 2)
        return state, DamageReport("destroyed: 1d4 casualties", (f"destroyed; {len(killed)} killed",), killed=tuple(killed))
    killed = (["driver"] if state.driver_alive else []) + list(state.occupants)
    state = attrs.evolve(state, driver_alive=False, occupants=(), dead=state.dead + state.occupants)
    return state, DamageReport("destroyed: no survivors", ("destroyed with all aboard",), killed=tuple(killed))


def _immobilised_mecha(state: MachineState) -> Generator[Any, Any, tuple[MachineState, bool]]:
    (face,) = yield from request_roll(8, 1, "immobilised mecha: 1-2 it collapses")
    return (attrs.evolve(state, collapsed=True), True) if face <= COLLAPSE_MAX else (state, False)


def take_damage(
    state: MachineState, dp: int, hero_pilot: bool = False, turn: int = 0
) -> Generator[Any, Any, tuple[MachineState, DamageReport]]:
    """Apply one attack's DP, then roll the system table (13). Nothing happens at 0 DP."""
    if dp <= 0:
        return state, DamageReport("no damage")
    state = attrs.evolve(state, dp=state.dp - dp)
    if state.dp <= 0:
        return (yield from _destroyed(state))
    (face,) = yield from request_roll(8, 1, "vehicle/mecha damage: 1-2 integral, 3-4 movement, 5-6 crew/cockpit, 7-8 structure")
    where = LOCATION[face]
    if where == "integral":
        (sub,) = yield from request_roll(8, 1, "integral systems: 1-5 a weapon, 6-8 the controls")
        if sub > WEAPON_HIT_MAX:
            return attrs.evolve(state, controls_out=True), DamageReport("controls hit: shut down", ("controls hit: shut down for the game",))
        if not state.weapons:
            return state, DamageReport("weapon hit", ("weapon hit: no working weapon left",))
        weapon = yield from _pick(state.weapons, "which weapon is knocked out")
        rest = list(state.weapons)
        rest.remove(weapon)
        state = attrs.evolve(state, weapons=tuple(rest), weapons_out=state.weapons_out + (weapon,))
        return state, DamageReport("weapon hit", (f"weapon hit: {weapon} knocked out",))
    if where == "movement":
        if state.movement_hits == 0:
            state = attrs.evolve(state, movement_hits=1)
            text = "movement hit: MOV halved" + (", RAM -3" if state.kind == "vehicle" else "")
            return state, DamageReport("movement hit: MOV halved", (text,))
        state = attrs.evolve(state, movement_hits=2)
        if state.kind == "mecha" and not state.collapsed:
            state, fell = yield from _immobilised_mecha(state)
            if fell:
                return state, DamageReport("immobilised and collapsed", ("movement hit: immobilised; the mecha collapses",))
        return state, DamageReport("immobilised", ("movement hit: immobilised for the game",))
    if where == "crew":
        if state.kind == "mecha":
            (f,) = yield from request_roll(8, 1, "cockpit hit: the pilot lives on 7-8")
            if f < PILOT_SURVIVES_MIN and hero_pilot:
                (f2,) = yield from request_roll(8, 1, "re-roll (hero): cockpit hit")
                f = max(f, f2)
            if f >= PILOT_SURVIVES_MIN:
                return state, DamageReport("cockpit hit: pilot survives", ("cockpit hit: the pilot survives",))
            state = attrs.evolve(state, pilot_dead=True)
            fell = False
            if not state.collapsed:
                state, fell = yield from _immobilised_mecha(state)
            result = "cockpit hit: pilot killed" + (", collapsed" if fell else "")
            return state, DamageReport(result, (result,), killed=("pilot",))
        n = casualties_for(dp, state.open_topped)
        state, killed = yield from _casualties(state, n)
        if "driver" in killed:
            state = attrs.evolve(state, driverless_turn=turn)
        return state, DamageReport(f"crew hit: {n} casualt{'y' if n == 1 else 'ies'}", (f"crew hit: {', '.join(killed) or 'nobody aboard'} killed",), killed=tuple(killed))
    (d8,) = yield from request_roll(8, 1, "critical structural hit: +1d4 DP (a d8 halved)")
    extra = (d8 + 1) // 2
    state = attrs.evolve(state, dp=state.dp - extra)
    if state.dp <= 0:
        after, report = yield from _destroyed(state)
        return after, attrs.evolve(report, lines=(f"critical structural hit: +{extra} DP",) + report.lines, extra_dp=extra)
    return state, DamageReport("critical structural hit", (f"critical structural hit: +{extra} DP",), extra_dp=extra)


def hit_pin(dp: int, pin: bool) -> bool:
    """2.7: a vehicle or mecha takes a pin only from an attack that also does >= 1 DP."""
    return pin and dp >= 1


def breakdown(state: MachineState) -> Generator[Any, Any, MachineState]:
    """A severely damaged unit rolls 1d8 each move action; a 1 breaks it down (PR-66)."""
    if not state.severe or state.broken_down:
        return state
    (face,) = yield from request_roll(8, 1, "severely damaged: 1d8, a 1 breaks it down")
    return attrs.evolve(state, broken_down=True) if face == BREAKDOWN_FACE else state


def repair(state: MachineState, tq: int, what: str) -> Generator[Any, Any, tuple[MachineState, bool]]:
    """A crew member or the pilot spends 2 actions on a Hard check; each earlier failed turn
    adds one success (13, PR-63). `what`: a knocked-out weapon's name or "breakdown"."""
    if what != "breakdown" and what not in state.weapons_out:
        raise ValueError(f"nothing to repair called {what!r}")
    ok, got = yield from skill_check(tq, REPAIR_TARGET - state.repair_bonus, f"repair {what}: Hard check (+{state.repair_bonus} success)")
    if not ok:
        return attrs.evolve(state, repair_bonus=state.repair_bonus + 1), False
    if what == "breakdown":
        return attrs.evolve(state, broken_down=False, repair_bonus=0), True
    out = list(state.weapons_out)
    out.remove(what)
    return attrs.evolve(state, weapons=state.weapons + (what,), weapons_out=tuple(out), repair_bonus=0), True


# --- exact odds -----------------------------------------------------------------------


def _add(out: dict[str, Fraction], key: str, p: Fraction) -> None:
    if p:
        out[key] = out.get(key, Fraction(0)) + p


def _destroyed_odds(state: MachineState, p: Fraction, out: dict[str, Fraction]) -> None:
    if state.kind == "mecha":
        _add(out, "destroyed: pilot killed", p)
        return
    _add(out, "destroyed: no further casualties", p * Fraction(FATE_NONE_MAX, 8))
    _add(out, "destroyed: 1d4 casualties", p * Fraction(FATE_SOME_MAX - FATE_NONE_MAX, 8))
    _add(out, "destroyed: no survivors", p * Fraction(8 - FATE_SOME_MAX, 8))


def damage_odds(state: MachineState, dp: int, hero_pilot: bool = False) -> dict[str, Fraction]:
    """The exact chance of each headline result of `take_damage` for an attack of `dp` DP."""
    out: dict[str, Fraction] = {}
    if dp <= 0:
        return {"no damage": Fraction(1)}
    left = state.dp - dp
    if left <= 0:
        _destroyed_odds(state, Fraction(1), out)
        return out
    quarter = Fraction(1, 4)
    _add(out, "controls hit: shut down", quarter * Fraction(8 - WEAPON_HIT_MAX, 8))
    _add(out, "weapon hit", quarter * Fraction(WEAPON_HIT_MAX, 8))
    collapse = Fraction(COLLAPSE_MAX, 8) if (state.kind == "mecha" and not state.collapsed) else Fraction(0)
    if state.movement_hits == 0:
        _add(out, "movement hit: MOV halved", quarter)
    else:
        _add(out, "immobilised and collapsed", quarter * collapse)
        _add(out, "immobilised", quarter * (1 - collapse))
    if state.kind == "mecha":
        lives = Fraction(8 - PILOT_SURVIVES_MIN + 1, 8)
        if hero_pilot:
            lives = 1 - (1 - lives) ** 2
        _add(out, "cockpit hit: pilot survives", quarter * lives)
        _add(out, "cockpit hit: pilot killed, collapsed", quarter * (1 - lives) * collapse)
        _add(out, "cockpit hit: pilot killed", quarter * (1 - lives) * (1 - collapse))
    else:
        n = casualties_for(dp, state.open_topped)
        _add(out, f"crew hit: {n} casualt{'y' if n == 1 else 'ies'}", quarter)
    for d4 in range(1, 5):
        p = quarter * Fraction(2, 8)
        if left - d4 <= 0:
            _destroyed_odds(state, p, out)
        else:
            _add(out, "critical structural hit", p)
    return {k: out[k] for k in sorted(out)}


def mixed_damage_odds(state: MachineState, dp_dist: dict[int, Fraction], hero_pilot: bool = False) -> dict[str, Fraction]:
    """The chance of each damage result over an attack's DP distribution (odds report)."""
    out: dict[str, Fraction] = {}
    for dp, p in dp_dist.items():
        for label, q in damage_odds(state, dp, hero_pilot).items():
            _add(out, label, p * q)
    return {k: out[k] for k in sorted(out)}
