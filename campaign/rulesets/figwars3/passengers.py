"""Troops aboard vehicles in a battle (spec 4.4, 13, PR-27, PR-28, PR-41, PR-65):
embarking and disembarking, outside riders, firing from open tops, the fates of those
aboard when the vehicle is hit, and a crew member taking the dead driver's place.

Passengers stay models of their own units (PR-27). A model inside is listed among the
vehicle's occupants by its element id (next to its crew, "crew N"), so a crew hit picks
among crew and passengers alike (13); its own data says `aboard` (the vehicle's id).
An outside rider has `aboard` and `outside`; the vehicle keeps its riders in
`data["riders"]`. Where the models stand is the players' (they are placed within 1" of
the hull on leaving).

Passenger size (4.4) is the players' option `heavy_passengers`: the CAP spaces a model of
DEF 4 or more fills (1, 1.5 or 2); the engine reads DEF from the profile. A passenger who
takes the dead driver's seat is kept in the vehicle's `data["driver"]`; it acts only as
the vehicle's driver from then on.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.errors import IllegalCommand
from campaign.engine.lazy_specs import LazyPart, LazySpecs
from campaign.engine.pending import CommandSpec, FactSpec
from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.rulesets.figwars3 import machine_damage as md
from campaign.rulesets.figwars3 import machine_play
from campaign.rulesets.figwars3.names import model_name

if TYPE_CHECKING:
    from campaign.engine.context import Context

EMBARK_COST = 1  # PR-28: 1 action to get in, 1 to get out
CLING_COST = 1  # 4.4: an outside rider spends 1 action each turn it clings on
INSIDE_ACTIONS = ("shoot", "aim", "focus", "reload", "extra", "done", "sentry", "medic")  # what a passenger may still do
OUTSIDE_FACT = FactSpec("outside", (False, True), False, "cling to the outside (only once the vehicle is full inside, 4.4)")


def aboard(el: ElementState) -> str:
    """The id of the vehicle the model is in or on, or ''."""
    return str(el.data.get("aboard") or "")


def inside(el: ElementState) -> bool:
    return bool(el.data.get("aboard")) and not el.data.get("outside")


def riders(vehicle: ElementState) -> list[str]:
    return list(vehicle.data.get("riders", []))


def passengers_inside(vehicle: ElementState) -> list[str]:
    """The passengers' element ids (occupants that are not its crew)."""
    return [o for o in machine_play.record(vehicle).occupants if not o.startswith("crew ")]


HEAVY_DEF = 4  # 4.4: models of DEF 4 or more may fill 1.5 or 2 CAP spaces (players' choice)


def space_of(rules: Any, el: ElementState) -> Fraction:
    """The CAP spaces the model fills: 1, or the option's size for DEF 4 or more (4.4)."""
    heavy = Fraction(str(rules.options.get("heavy_passengers", "1")))
    return heavy if rules.profile(el.id).defence >= HEAVY_DEF else Fraction(1)


def _spaces(value: Fraction) -> str:
    return f"{float(value):g}"


def room(machine_cap: int, vehicle: ElementState, state: BattleState | None = None) -> Fraction:
    """CAP left inside: crew and passengers fill it, the driver does not (4.4). A
    passenger's size is the one it was given on boarding (`half_spaces`, kept in halves
    since a battle's state holds no floats; 2 when absent)."""
    used = Fraction(0)
    for o in machine_play.record(vehicle).occupants:
        if o.startswith("crew ") or state is None:
            used += 1
            continue
        try:
            used += Fraction(int(state.element(o).data.get("half_spaces", 2)), 2)
        except (KeyError, ValueError):
            used += 1
    return machine_cap - used


def driving(el: ElementState) -> bool:
    """A passenger who took the dead driver's seat (13)."""
    return bool(el.data.get("driving"))


def rider_limit(siz: int) -> int:
    """Up to SIZ models may cling on (4.4)."""
    return siz


def full_speed_riders(siz: int) -> int:
    """More riders than half the SIZ halve the vehicle's movement (4.4)."""
    return siz // 2


def _vehicles_near(rules: Any, state: BattleState, side: str) -> list[ElementState]:
    out = []
    for unit in state.units_of(side):
        for e in unit.alive:
            m = rules.machine(e.id)
            if m is not None and m.vehicle and not machine_play.record(e).out_of_action:
                out.append(e)
    return out


def _moved_too_far(rules: Any, vehicle: ElementState) -> bool:
    """PR-28: nobody gets in or out once the vehicle has moved more than its MOV this turn."""
    machine = rules.machine(vehicle.id)
    return bool(vehicle.data.get("moved", 0) > machine_play.record(vehicle).mov(machine.mov))


def adjust(rules: Any, state: BattleState, unit: UnitState, el: ElementState, specs: Sequence[CommandSpec]) -> Sequence[CommandSpec]:
    """A model's choices with the vehicles in mind: one aboard keeps only what it may do
    there (inside an open top it may shoot, PR-28; a closed hull, no shots) and may get
    out; one on foot may get into a friendly vehicle with room. `specs` is read only as
    far as it is asked (engine/lazy_specs.py)."""
    base = {"unit": unit.id, "model": el.id}
    who = model_name(el)
    if rules.machine(el.id) is not None:
        return specs
    where = aboard(el)
    if where and driving(el):
        vehicle = state.element(where)  # its actions are the vehicle's driver seat now (13)
        return LazySpecs([CommandSpec("disembark", base, label=f"{who}: leave {vehicle.name}'s controls and get out"),
                          LazySpecs([specs], lambda s: s.type == "done")])
    if where:
        vehicle = state.element(where)
        open_top = rules.machine(where).open_topped
        shoots = open_top or not inside(el)
        out = [CommandSpec("disembark", base, label=f"{who}: get off {vehicle.name}")] if el.data["actions"] >= EMBARK_COST else []
        return LazySpecs([*out, LazySpecs([specs], lambda s: s.type in INSIDE_ACTIONS and s.type != "medic"
                                          and (s.type not in ("shoot", "aim", "sentry") or shoots))])
    if el.data["actions"] < EMBARK_COST or unit.data.get("status", "normal") != "normal":
        return specs

    def embarks() -> list[CommandSpec]:
        extra = []
        for vehicle in rules.shared(("vehicles", unit.side), lambda: _vehicles_near(rules, state, unit.side)):
            if _moved_too_far(rules, vehicle):
                continue
            machine = rules.machine(vehicle.id)
            if room(machine.cap, vehicle, state) >= space_of(rules, el) or len(riders(vehicle)) < rider_limit(machine.siz):
                extra.append(CommandSpec("embark", {**base, "vehicle": vehicle.id}, (OUTSIDE_FACT,), f"{who}: get into {vehicle.name}"))
        return extra
    return LazySpecs([specs, LazyPart(frozenset({"embark"}), rules.later(embarks))])


def embark(rules: Any, state: BattleState, el: ElementState, command: Any, ctx: Context) -> Generator[Any, Any, None]:
    """PR-28: a model in base contact with the hull gets in for 1 action if CAP allows;
    4.4: it may cling to the outside instead once the vehicle is full inside."""
    if rules.machine(el.id) is not None:
        raise IllegalCommand("FW3 4.4", f"{el.name} is a vehicle or mecha: it cannot board another")
    if aboard(el):
        raise IllegalCommand("FW3 4.4", f"{el.name} is already aboard {state.element(aboard(el)).name}")
    try:
        vehicle = state.element(command.vehicle)
    except (KeyError, ValueError):
        raise IllegalCommand("FW3 4.4", f"no vehicle {command.vehicle!r}") from None
    machine = rules.machine(vehicle.id)
    if machine is None or not machine.vehicle or not vehicle.alive or machine_play.record(vehicle).out_of_action:
        raise IllegalCommand("FW3 4.4", f"{vehicle.name} is not a vehicle on the table")
    if state.unit(vehicle.unit).side != state.unit(el.unit).side:
        raise IllegalCommand("FW3 4.4", f"{vehicle.name} is an enemy vehicle")
    if _moved_too_far(rules, vehicle):
        raise IllegalCommand("PR-28", f"{vehicle.name} has moved more than its MOV this turn: nobody gets in")
    outside = bool(command.facts.get("outside", False))
    space = space_of(rules, el)
    left = room(machine.cap, vehicle, state)
    if outside:
        if left >= space:
            raise IllegalCommand("FW3 4.4", f"{vehicle.name} still has room inside ({_spaces(left)}): riders cling on only once it is full")
        if len(riders(vehicle)) >= rider_limit(machine.siz):
            raise IllegalCommand("FW3 4.4", f"{vehicle.name} carries at most {rider_limit(machine.siz)} outside riders (its SIZ)")
    elif left < space:
        what = "full" if left <= 0 else f"full for {el.name} ({_spaces(space)} spaces, {_spaces(left)} left)"
        raise IllegalCommand("FW3 4.4", f"{vehicle.name} is {what} (CAP {machine.cap})")
    rules._spend(el, EMBARK_COST, "getting aboard")
    el.data["aboard"] = vehicle.id
    if outside:
        el.data["outside"] = True
        vehicle.data["riders"] = riders(vehicle) + [el.id]
        ctx.emit("embark", f"{el.name} clings to the outside of {vehicle.name}", model=el.id, vehicle=vehicle.id, outside=True)
        return
    rec = machine_play.record(vehicle)
    vehicle.data["machine"] = machine_play.dump(attrs.evolve(rec, occupants=rec.occupants + (el.id,)))
    if space != 1:
        el.data["half_spaces"] = int(space * 2)  # kept only when it differs, so older battles keep their digests
    ctx.emit("embark", f"{el.name} gets into {vehicle.name}", model=el.id, vehicle=vehicle.id)
    yield from ()


def _off(vehicle: ElementState, el: ElementState) -> None:
    """Take the model off the vehicle's lists (nothing rolls)."""
    if el.data.get("outside"):
        vehicle.data["riders"] = [r for r in riders(vehicle) if r != el.id]
    elif driving(el):
        el.data.pop("driving", None)
        if vehicle.data.get("driver") == el.id:
            del vehicle.data["driver"]
    else:
        rec = machine_play.record(vehicle)
        vehicle.data["machine"] = machine_play.dump(attrs.evolve(rec, occupants=tuple(o for o in rec.occupants if o != el.id)))
    el.data["aboard"] = ""
    el.data["outside"] = False
    el.data.pop("half_spaces", None)


def disembark(rules: Any, state: BattleState, el: ElementState, ctx: Context) -> Generator[Any, Any, None]:
    """PR-28: 1 action, placed within 1" of the hull; it may use its other actions."""
    if not aboard(el):
        raise IllegalCommand("PR-28", f"{el.name} is not aboard a vehicle")
    vehicle = state.element(aboard(el))
    if not el.data.get("outside") and vehicle.alive and _moved_too_far(rules, vehicle):
        raise IllegalCommand("PR-28", f"{vehicle.name} has moved more than its MOV this turn: nobody gets out")
    rules._spend(el, EMBARK_COST, "getting off")
    if driving(el) and vehicle.alive:  # the seat is empty again: no move until someone takes over (13)
        rec = machine_play.record(vehicle)
        vehicle.data["machine"] = machine_play.dump(attrs.evolve(rec, driver_alive=False, driverless_turn=state.round))
    _off(vehicle, el)
    ctx.emit("disembark", f"{el.name} gets off {vehicle.name}: place it within 1\" of the hull", model=el.id, vehicle=vehicle.id)
    yield from ()


def cling(el: ElementState, ctx: Context) -> None:
    """An outside rider's activation starts with the action it spends holding on (4.4)."""
    if el.data.get("outside") and el.data.get("aboard"):
        spent = min(CLING_COST, el.data["actions"])
        el.data["actions"] -= spent
        ctx.emit("cling", f"{el.name} holds on to the outside ({spent} action)", model=el.id)


def take_over(machine: Any, vehicle: ElementState, turn: int, ctx: Context, state: BattleState | None = None) -> Generator[Any, Any, None]:
    """13: with the driver dead, a surviving crew member or passenger takes the controls
    from the activation after the one the vehicle could not move in. A crew member takes
    over when there is one (the engine picks the last); otherwise the vehicle's owner is
    asked which passenger inside, if any, takes the seat."""
    rec = machine_play.record(vehicle)
    if rec.driver_alive or rec.driverless_turn is None or turn <= rec.driverless_turn:
        return
    crew = [o for o in rec.occupants if o.startswith("crew ")]
    if crew:
        rest = list(rec.occupants)
        rest.remove(crew[-1])
        vehicle.data["machine"] = machine_play.dump(attrs.evolve(rec, driver_alive=True, occupants=tuple(rest), driverless_turn=turn - 1))
        seats = machine_play.actions(machine, vehicle)
        vehicle.data["actions"] = min(vehicle.data["actions"], seats)
        ctx.emit("driver", f"{vehicle.name}: {crew[-1]} takes over as driver (it drives from its next activation)", model=vehicle.id)
        return
    if state is None:
        return
    aboard_now = [state.element(o) for o in rec.occupants if not o.startswith("crew ")]
    aboard_now = [e for e in aboard_now if e.alive]
    if not aboard_now:
        return
    from campaign.engine.pending import Decision

    side = state.unit(vehicle.unit).side
    legal = tuple(CommandSpec("choose", {"option": e.id}, label=f"{model_name(e)} takes the controls") for e in aboard_now)
    legal += (CommandSpec("choose", {"option": "nobody"}, label="Nobody yet"),)
    answer = yield Decision(side, f"{vehicle.name} has no driver: does a passenger take over (13)?", legal)
    pick = str(getattr(answer, "option", ""))
    chosen = next((e for e in aboard_now if e.id == pick), None)
    if chosen is None:
        return
    seated = tuple(o for o in rec.occupants if o != chosen.id)
    vehicle.data["machine"] = machine_play.dump(attrs.evolve(rec, driver_alive=True, occupants=seated, driverless_turn=turn - 1))
    vehicle.data["driver"] = chosen.id
    chosen.data["driving"] = True
    chosen.data.pop("half_spaces", None)  # the driver fills no CAP (4.4)
    ctx.emit("driver", f"{vehicle.name}: {chosen.name} takes over as driver (it drives from its next activation)", model=vehicle.id, driver=chosen.id)


def after_damage(state: BattleState, vehicle: ElementState, before: md.MachineState, after: md.MachineState, remove: Any, ctx: Context) -> None:
    """Passengers killed by a crew hit or the wreck's fate die with it (PR-41: casualties
    of their own units); when the vehicle leaves play the rest get out, pinned if it was
    destroyed (PR-28), the riders with them."""
    seat = str(vehicle.data.get("driver") or "")
    if seat and before.driver_alive and not after.driver_alive:  # the passenger at the controls is killed
        el = state.element(seat)
        _off(vehicle, el)
        if el.alive:
            ctx.emit("passenger_killed", f"{el.name} dies at the controls of {vehicle.name}", model=el.id)
            remove(el)
        seat = ""
    for victim in after.dead[len(before.dead):]:
        if victim.startswith("crew "):
            continue
        try:
            el = state.element(victim)
        except (KeyError, ValueError):
            continue
        el.data["aboard"] = ""
        if el.alive:
            ctx.emit("passenger_killed", f"{el.name} dies aboard {vehicle.name}", model=el.id)
            remove(el)
    if not after.out_of_action:
        return
    survivors = [o for o in after.occupants if not o.startswith("crew ")] + riders(vehicle) + ([seat] if seat else [])
    for model in survivors:
        el = state.element(model)
        _off(vehicle, el)
        if not el.alive:
            continue
        if after.destroyed:
            el.data["pins"] = el.data.get("pins", 0) + 1
        how = "pinned, in contact with the wreck" if after.destroyed else "placed within 1\" of the hull"
        ctx.emit("disembark", f"{el.name} gets out of {vehicle.name}: {how}", model=el.id, vehicle=vehicle.id)


def after_vehicle_move(state: BattleState, vehicle: ElementState) -> None:
    """Outside riders may claim the fast-moving-target bonus with the vehicle (4.4, 11.8)."""
    if vehicle.data.get("fast"):
        for rider in riders(vehicle):
            state.element(rider).data["fast"] = True


def describe(state: BattleState, el: ElementState) -> list[str]:
    """The screen's word for a model aboard; a vehicle lists its riders."""
    words = []
    if aboard(el):
        where = state.element(aboard(el)).name
        words.append(f"riding on {where}" if el.data.get("outside") else f"aboard {where}")
    if riders(el):
        words.append("riders: " + ", ".join(state.element(r).name for r in riders(el)))
    return words
