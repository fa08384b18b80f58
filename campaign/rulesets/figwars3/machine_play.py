"""Vehicles and mecha in a battle (spec 4.4-4.5, 10.10-10.12, 13, PR-27, PR-46-PR-48,
PR-64-PR-66): their lasting damage record in the element's data, the damage tables
after a hit, their movement allowance, rams, and their lines on the screen.

`play.FigWarsRules` calls these; the rules themselves are in machine_damage.py and
ramming.py. The record is kept as plain values (lists, ints) so a saved battle stays
TOML and the digest of a replay is stable.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.errors import IllegalCommand
from campaign.engine.state import BattleState, ElementState
from campaign.rulesets.figwars3 import machine_damage as md
from campaign.rulesets.figwars3.ramming import driver_check_after_run_over, ram, resolve_ram
from campaign.rulesets.figwars3.vehicle_movement import Mire, mire_test, mires, push_bonus
from campaign.rulesets.figwars3.vehicles import Machine

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.engine.report import OddsReport

ACTIONS_PER_SEAT = 2  # PR-27: the driver and each crew member have 2 actions


def fresh(machine: Machine) -> dict[str, Any]:
    """The record of an undamaged machine: its crew as occupants named 'crew N'."""
    state = md.MachineState(
        kind=machine.kind,
        dp=machine.dp,
        max_dp=machine.dp,
        open_topped=machine.open_topped,
        weapons=tuple(m.weapon.name for m in machine.weapons),
        occupants=tuple(f"crew {i + 1}" for i in range(machine.crew)),
    )
    return dump(state)


def dump(state: md.MachineState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in attrs.asdict(state).items():
        if value is None:
            continue  # TOML has no null: an absent key is None
        out[key] = list(value) if isinstance(value, tuple) else value
    return out


def load(data: dict[str, Any]) -> md.MachineState:
    fields = {f.name for f in attrs.fields(md.MachineState)}
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in fields}
    return md.MachineState(**values)


def record(el: ElementState) -> md.MachineState:
    return load(el.data["machine"])


def weapon_arc(machine: Machine, weapon: str) -> tuple[str, int]:
    """The mount and firing arc in degrees of a machine's weapon (4.4 mounts; 4.5: a
    mecha's body mounts 90 to the front, arm mounts 180); 0: whatever it can see."""
    from campaign.rulesets.figwars3.mecha import MECHA_ARCS

    for m in machine.weapons:
        if m.weapon.name == weapon:
            return m.mount, (m.arc if machine.vehicle else MECHA_ARCS.get(m.mount, 0))
    return "", 0


def arc_fact(machine: Machine | None, weapon: str) -> tuple[Any, ...]:
    """A shot from a weapon with a limited arc asks the players whether the target lies in
    it (arcs and facing are a table judgement, 18.1; PR-15: a mecha's facing serves its arcs)."""
    from campaign.engine.pending import FactSpec

    if machine is None:
        return ()
    mount, arc = weapon_arc(machine, weapon)
    if not 0 < arc < 360:
        return ()
    return (FactSpec("in_arc", (True, False), True, f"the target lies in the {mount}'s {arc}-degree arc as the machine faces"),)


def actions(machine: Machine, el: ElementState) -> int:
    """PR-27: 2 actions for the driver (or pilot) and 2 for each surviving crew member."""
    state = record(el)
    if state.out_of_action:
        return 0
    crew = sum(1 for o in state.occupants if o.startswith("crew "))
    driver = 1 if state.driver_alive else 0  # a dead driver's seat has no actions (13)
    return ACTIONS_PER_SEAT * (driver + crew) if machine.vehicle else ACTIONS_PER_SEAT


def allowance(machine: Machine, el: ElementState, turn: int) -> int:
    """The MOV the machine has now (movement hits, break-down, a dead driver, 13; mired
    or just freed, 8.10)."""
    state = record(el)
    if machine.vehicle and not state.can_move(turn):
        return 0
    mire = mire_state(el)
    if mire.mired or mire.stuck_for_good:
        return 0
    mov = state.mov(machine.mov)
    if len(el.data.get("riders", [])) > machine.siz // 2:
        mov //= 2  # 4.4: more outside riders than half its SIZ halve its movement
    return mov // 2 if mire.halved_this_turn else mov


def mire_state(el: ElementState) -> Mire:
    data = el.data.get("mire") or {}
    return Mire(int(data.get("failures", 0)), bool(data.get("mired")), bool(data.get("stuck_for_good")), bool(data.get("halved")))


def _store_mire(el: ElementState, mire: Mire) -> None:
    el.data["mire"] = {"failures": mire.failures, "mired": mire.mired, "stuck_for_good": mire.stuck_for_good, "halved": mire.halved_this_turn}


def move_facts(machine: Machine | None, option: bool) -> tuple[Any, ...]:
    """The extra fact of a vehicle's move when the scenario uses mire tests (8.10)."""
    from campaign.engine.pending import FactSpec

    if machine is None or not option or not mires(machine.locomotion, machine.vehicle):
        return ()
    return (FactSpec("difficult_terrain", (False, True), False, "the move enters difficult terrain: a mire test (8.10)"),)


def mire_on_move(machine: Machine, el: ElementState, entering: bool, ctx: Context) -> Generator[Any, Any, None]:
    """Entering difficult terrain: no MOV penalty, but a mire test (8.10, PR-33)."""
    if not entering or not mires(machine.locomotion, machine.vehicle):
        return
    after = yield from mire_test(mire_state(el))
    _store_mire(el, after)
    ctx.emit("mire", f"{el.name} {'is mired' if after.mired else 'crosses the difficult ground'}", model=el.id, failures=after.failures)


def mire_at_activation(el: ElementState, ctx: Context) -> Generator[Any, Any, None]:
    """A mired vehicle tests again as its activation starts, at -1 per failure so far; a
    pass frees it with its MOV halved for the rest of the turn."""
    mire = mire_state(el)
    if mire.halved_this_turn:
        mire = attrs.evolve(mire, halved_this_turn=False)
    if mire.mired and not mire.stuck_for_good:
        mire = yield from mire_test(mire, int(el.data.pop("mire_push", 0)))
        word = "breaks free (MOV halved this turn)" if not mire.mired else ("is stuck for the game" if mire.stuck_for_good else "is still mired")
        ctx.emit("mire", f"{el.name} {word}", model=el.id, failures=mire.failures)
    if "mire" in el.data:
        _store_mire(el, mire)


def after_move(el: ElementState, ctx: Context) -> Generator[Any, Any, None]:
    """A severely damaged machine may break down at the end of a move action (PR-66)."""
    state = record(el)
    after = yield from md.breakdown(state)
    if after.broken_down and not state.broken_down:
        ctx.emit("breakdown", f"{el.name} breaks down and can no longer move", model=el.id)
    el.data["machine"] = dump(after)


def hurt(
    state: BattleState, el: ElementState, machine: Machine, dp: int, pin: bool, ctx: Context, remove: Any
) -> Generator[Any, Any, md.DamageReport]:
    """An attack's DP on a vehicle or mecha: a pin only with 1 DP or more (2.7), no stun,
    then the damage table (13). `remove(el)` takes it off the table when it is destroyed
    or out of action."""
    before = record(el)
    if md.hit_pin(dp, pin):
        el.data["pins"] = el.data.get("pins", 0) + 1
    after, report = yield from md.take_damage(before, dp, machine.hero_pilot, state.round)
    el.data["machine"] = dump(after)
    el.data["dp"] = max(after.dp, 0)
    if dp:
        ctx.emit("hit", f"{el.name}: {dp} DP" + (", crew pinned" if md.hit_pin(dp, pin) else ""), model=el.id, dp=dp)
    for line in report.lines:
        ctx.emit("machine_damage", f"{el.name}: {line}", model=el.id, result=report.result)
    if after.out_of_action:
        remove(el)
    from campaign.rulesets.figwars3 import passengers

    passengers.after_damage(state, el, before, after, remove, ctx)  # those aboard (PR-28, PR-41)
    return report


def ram_move(
    state: BattleState,
    el: ElementState,
    machine: Machine,
    victims: list[tuple[ElementState, Any]],
    moved: int,
    ctx: Context,
    hurt_model: Any,
) -> Generator[Any, Any, None]:
    """One ram move (10.11, PR-46): each model in the path is rammed in turn; `victims`
    pairs each target element with its Machine or Profile; `hurt_model(el, dp, pin)`
    applies damage by the ordinary route. A surviving damaged vehicle's crew is pinned
    (PR-48), and the driver checks after running troops over."""
    rating = record(el).ram(machine.ram)
    struck_troops = False
    damaged = False
    for target_el, target in victims:
        if not el.alive or not target_el.alive:
            continue
        r = ram(machine, target, moved, rating)
        result = yield from resolve_ram(r)
        what = "avoids it and is pushed aside" if result.displaced else f"takes {result.target_dp} DP"
        ctx.emit(
            "ram",
            f"{el.name} rams {target_el.name}: {result.rammer_total} against {result.target_total}; {target_el.name} {what}",
            model=el.id,
            target=target_el.id,
            winner=result.winner,
        )
        if r.kind == "troops" and not result.displaced:
            struck_troops = True
        if result.target_dp:
            yield from hurt_model(target_el, result.target_dp, False)
        if result.rammer_dp and el.alive:
            damaged = True
            yield from hurt_model(el, result.rammer_dp, False)
        if r.kind == "vehicle" and result.target_dp and target_el.alive:
            target_el.data["pins"] = max(target_el.data.get("pins", 0), 1)  # PR-48: its crew pinned too
    if struck_troops and el.alive:
        ok = yield from driver_check_after_run_over(machine.tq)
        if not ok:
            ctx.emit("ram", f"{el.name}'s driver fails the Easy check: it stops and takes 1 DP", model=el.id)
            damaged = True
            yield from hurt_model(el, 1, False)
    if damaged and el.alive:
        el.data["pins"] = max(el.data.get("pins", 0), 1)  # PR-48: one pin for the whole crew
        ctx.emit("pinned", f"{el.name}'s crew is pinned by the impact", model=el.id)


def driven(rules: Any, el: ElementState, machine: Any) -> Any:
    """The vehicle as its driver rolls it: a passenger at the controls (13) rolls his own
    TQ where the rules say "driver TQ" (10.11); anything else is returned as it is."""
    seat = str(el.data.get("driver") or "")
    if not seat or not isinstance(machine, Machine):
        return machine
    return attrs.evolve(machine, tq=rules.profile(seat).tq)


def check_ram(machine: Machine | None, el: ElementState) -> None:
    if machine is None or not machine.vehicle:
        raise IllegalCommand("FW3 10.11", f"{el.name} is not a vehicle: only vehicles ram")


def describe(machine: Machine, el: ElementState) -> list[str]:
    """The screen's words for a machine: DP, damage results, crew and passengers."""
    state = record(el)
    words = [f"DP {max(state.dp, 0)}/{state.max_dp}"]
    if machine.vehicle:
        words.append(f"RAM {state.ram(machine.ram)}")
        aboard = ["driver"] if state.driver_alive else []
        aboard += [o if o.startswith("crew ") else o.rsplit("/", 1)[-1] for o in state.occupants]
        words.append("aboard: " + (", ".join(aboard) if aboard else "nobody"))
    else:
        words.append("pilot " + ("dead" if state.pilot_dead else "alive") + (" (hero)" if machine.hero_pilot else ""))
    words.extend(state.labels())
    mire = mire_state(el)
    if mire.stuck_for_good:
        words.append("stuck for the game")
    elif mire.mired:
        words.append(f"mired ({mire.failures} failed test(s))")
    return words


PUSH_INCHES = 3  # 8.10: a pusher spends 3" of its MOV


def push_command(rules: Any, state: BattleState, el: ElementState, command: Any, ctx: Context) -> None:
    """8.10 (optional push): a vehicle at least half the mired vehicle's size spends 3" of
    its MOV (a Walk action) to give its next mire test +1 (+2 at twice its size)."""
    machine = rules.machine(el.id)
    if machine is None or not machine.vehicle:
        raise IllegalCommand("FW3 8.10", f"{el.name} is not a vehicle: only vehicles push")
    try:
        target = state.element(command.vehicle)
    except (KeyError, ValueError):
        raise IllegalCommand("FW3 8.10", f"no vehicle {command.vehicle!r}") from None
    other = rules.machine(target.id)
    if other is None or not target.alive or not mire_state(target).mired or mire_state(target).stuck_for_good:
        raise IllegalCommand("FW3 8.10", f"{target.name} is not a mired vehicle")
    bonus = push_bonus(machine.siz, other.siz)
    if not bonus:
        raise IllegalCommand("FW3 8.10", f"{el.name} (SIZ {machine.siz}) is under half {target.name}'s size (SIZ {other.siz})")
    mov = allowance(machine, el, state.round)
    if mov < PUSH_INCHES or el.data["moved"] + PUSH_INCHES > 2 * mov:
        raise IllegalCommand("FW3 8.10", f"{el.name} has not 3\" of MOV to spend on a push")
    rules._spend(el, 1, "a push")
    el.data["moved"] += PUSH_INCHES
    target.data["mire_push"] = target.data.get("mire_push", 0) + bonus
    ctx.emit("mire", f"{el.name} pushes {target.name}: +{bonus} to its next mire test", model=el.id, target=target.id)


# --- the battle's ram and repair actions, and the machines' odds -------------------------------

RAM_FACTS_HELP = "models in the vehicle's path, in the order it meets them"


def ram_facts() -> tuple[Any, ...]:
    from campaign.engine.pending import FactSpec

    return (
        FactSpec("victims", (), [], RAM_FACTS_HELP, picks="target_elements"),
        FactSpec("inches", (), -1, "inches moved (-1: the full allowance)"),
        FactSpec("run", (False, True), False, "a Run (2 actions) rather than a Walk"),
    )


def ram_command(rules: Any, state: BattleState, el: ElementState, command: Any, ctx: Context) -> Generator[Any, Any, None]:
    """A Walk or Run that rams (PR-46): the move is paid as usual, then each victim is rammed."""
    machine = rules.machine(el.id)
    check_ram(machine, el)
    machine = driven(rules, el, machine)
    victims = [rules._any_model(state, m) for m in command.facts.get("victims", [])]
    if not victims:
        raise IllegalCommand("FW3 10.11", "name the models in the vehicle's path (victims)")
    if any(state.unit(v.unit).side == state.unit(el.unit).side for v in victims):
        raise IllegalCommand("FW3 8.9", "a vehicle only moves into contact with enemy models")
    from campaign.rulesets.figwars3.commands import Run, Walk

    move = (Run if command.facts.get("run") else Walk)(command.unit, command.model, {"inches": command.facts.get("inches", -1)})
    yield from rules._move(state, el, move, ctx)
    pairs = [(v, driven(rules, v, rules.machine(v.id)) or rules.profile(v.id)) for v in victims]

    def hurt_model(target: ElementState, dp: int, pin: bool) -> Generator[Any, Any, None]:
        yield from rules._hurt(state, target, dp, pin, ctx)

    yield from ram_move(state, el, machine, pairs, el.data["moved"], ctx, hurt_model)


def repair_command(rules: Any, el: ElementState, command: Any, ctx: Context) -> Generator[Any, Any, None]:
    machine = rules.machine(el.id)
    if machine is None:
        raise IllegalCommand("FW3 13", f"{el.name} is not a vehicle or mecha")
    state = record(el)
    if command.what != "breakdown" and command.what not in state.weapons_out:
        raise IllegalCommand("FW3 13", f"nothing to repair called {command.what!r} (knocked out: {', '.join(state.weapons_out) or 'none'})")
    rules._spend(el, md.REPAIR_ACTIONS, "a repair")
    after, ok = yield from md.repair(state, machine.tq, command.what)
    el.data["machine"] = dump(after)
    ctx.emit("repair", f"{el.name}: {command.what} {'repaired' if ok else 'not repaired yet'}", model=el.id)


def machine_specs(rules: Any, state: BattleState, el: ElementState, enemies: list[Any], base: dict[str, Any], who: str) -> list[Any]:
    from campaign.engine.pending import CommandSpec

    machine = rules.machine(el.id)
    if machine is None:
        return []
    out = []
    rec = record(el)
    if machine.vehicle and enemies and allowance(machine, el, state.round) > 0:
        out.append(CommandSpec("ram", base, ram_facts(), f"{who}: ram", odds=True))
    if machine.vehicle and rules.options.get("mire_tests") and el.data["actions"] >= 1:
        for u in state.units_of(state.unit(el.unit).side):
            for other in u.alive:
                if other.id != el.id and rules.machine(other.id) is not None and mire_state(other).mired and not mire_state(other).stuck_for_good:
                    out.append(CommandSpec("push", {**base, "vehicle": other.id}, label=f"{who}: push {other.name} free (3\" of MOV)"))
    if el.data["actions"] >= md.REPAIR_ACTIONS:
        for what in rec.weapons_out + (("breakdown",) if rec.broken_down else ()):
            out.append(CommandSpec("repair", {**base, "what": what}, label=f"{who}: repair {what}"))
    return out


def ram_report(rules: Any, state: BattleState, command: Any) -> OddsReport:
    """Odds of a ram against each named victim: who wins, DP each way, and the damage
    table's results on a machine that is hit."""
    from campaign.engine.report import OddsReport, Outcome
    from campaign.rulesets.figwars3.ramming import ram_odds

    el = rules._own_model(state, command)
    machine = rules.machine(el.id)
    check_ram(machine, el)
    machine = driven(rules, el, machine)
    names = command.facts.get("victims", [])
    if not names:
        raise IllegalCommand("FW3 10.11", "name the models in the vehicle's path (victims)")
    outcomes = []
    lines = []
    inches = command.facts.get("inches", -1)
    moved = el.data["moved"] + (allowance(machine, el, state.round) * (2 if command.facts.get("run") else 1) if inches is None or inches < 0 else inches)
    for name in names:
        target = rules._any_model(state, name)
        other = driven(rules, target, rules.machine(target.id)) or rules.profile(target.id)
        r = ram(machine, other, moved, record(el).ram(machine.ram))
        odds = ram_odds(r)
        lines.append(f"{el.name} {r.rammer.describe()} against {target.name} {r.target.describe()}")
        outcomes.append(Outcome(f"DP on {target.name}", odds.target_dp))
        outcomes.append(Outcome(f"DP on {el.name}", odds.rammer_dp))
        outcomes.append(Outcome(f"{target.name} struck", p=odds.p_struck, help="the ram hits (a tie counts)"))
        if rules.machine(target.id) is not None:
            for label, p in md.mixed_damage_odds(record(target), odds.target_dp, rules.machine(target.id).hero_pilot).items():
                outcomes.append(Outcome(f"{target.name}: {label}", p=p))
    return OddsReport(tuple(outcomes), tuple(lines), ("the driver's roll takes no re-rolls (2.6)",), title="FigWars 3 ram odds")


def damage_outcomes(target: ElementState, machine: Machine, dp: dict[int, Any]) -> tuple[Any, ...]:
    """The chance of each damage table result on a machine, over an attack's DP (13)."""
    from campaign.engine.report import Outcome

    return tuple(
        Outcome(f"damage: {label}", p=p, help="vehicle/mecha damage table (13)")
        for label, p in md.mixed_damage_odds(record(target), dp, machine.hero_pilot).items()
        if label != "no damage"
    )
