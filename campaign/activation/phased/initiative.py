"""The core's initiative turn (the default scheme, "initiative") as a phased turn.

Each round is a turn of one ALTERNATE phase: the sides roll the rules' initiative
(`campaign.engine.scheme.initiative_order`), then take turns in that order; a turn is
one unit's activation or a pass, and a pass is final (FINAL). `one_activation_per_round`
is the same phase with one pick a side (`picks=1`); `alternate_until_all_pass` has no
limit, a unit activating once a round. Each side's turn runs the rules' `on_turn_start`
and `on_turn_end` (the host's pick hooks); the round's `on_round_start`/`on_round_end`
are the turn's start and end.

Its bookkeeping is the scheme's long-standing keys in `state.scheme` (`order`, `current`,
`active_unit`, `activated`, `passed`, `owner_turns`) and nothing else: the phased loop's
own bookkeeping is not kept in the state (`book_key = None`), so battles recorded before
this turn was built from the phased parts replay to the same digests, events and logs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

from campaign.activation import DEFAULT_SCHEME
from campaign.activation.phased.host import PASS, PhasedHost, PlanSteps, Steps
from campaign.activation.phased.plan import ALTERNATE, FINAL, Phase, TurnPlan
from campaign.activation.phased.scheme import PhasedScheme
from campaign.engine.commands import Command
from campaign.engine.lazy_specs import LazySpecs
from campaign.engine.pending import CommandSpec
from campaign.engine.scheme import initiative_order, register_scheme
from campaign.engine.state import BattleState, UnitState
from campaign.options import Option

if TYPE_CHECKING:
    from campaign.engine.context import Context

ONE_PER_ROUND = "one_activation_per_round"
_ID = attrgetter("id")
ALTERNATE_UNTIL_ALL_PASS = "alternate_until_all_pass"


class ActivateMenu(LazySpecs):
    """The initiative turn's menu, every spec made: one activate spec per unit (then the
    pass). The engine's check of an `activate` finds the unit's spec by its id, the one a
    scan would find; any other command is checked by the scan."""

    __slots__ = ("_by_unit",)

    def __init__(self, specs: tuple[CommandSpec, ...], by_unit: dict[Any, CommandSpec] | None = None) -> None:
        """`by_unit`: each activate spec of `specs` by its unit, when the caller has it (the
        first spec of a unit; every activate spec's params only its unit)."""
        super().__init__(specs)
        self._all = specs
        if by_unit is not None:
            self._by_unit = by_unit
            return
        by_unit = {}
        for spec in reversed(specs):  # (backwards: the first spec of a unit is the one kept)
            if spec.type == "activate":
                params = spec.params
                if len(params) != 1 or "unit" not in params:  # (not one of ours: the scan decides)
                    by_unit = {}
                    break
                by_unit[params["unit"]] = spec
        self._by_unit = by_unit

    def first_match(self, command: Any) -> CommandSpec | None:
        if self._by_unit and getattr(command, "type", None) == "activate":
            unit = getattr(command, "unit", None)
            if type(unit) is str:
                return self._by_unit.get(unit)
        return super().first_match(command)


class InitiativeTurn(PhasedHost):
    """The initiative turn's hooks: any rules, through their ordinary activation hooks."""

    def __init__(self, rules: Any, options: dict[str, Any] | None = None) -> None:
        super().__init__(rules, options)
        self.once = self.options.get("turn_structure") == ALTERNATE_UNTIL_ALL_PASS
        self._activate_specs: dict[tuple[str, str], CommandSpec] = {}
        # each side's last offer, with the `activatable` list it was made from: rules that
        # answer the same list until a unit falls (Flat Out War) get the same offer back
        self._offers: dict[str, tuple[list[UnitState], list[CommandSpec]]] = {}
        self._menus: dict[str, tuple[list[CommandSpec], bool, ActivateMenu]] = {}  # each side's, with its offer
        self._plans: dict[tuple[str, ...], TurnPlan] = {}  # each turn order's plan

    def turn_start(self, state: BattleState, ctx: Context) -> PlanSteps:
        sched = state.scheme
        sched["activated"], sched["passed"] = [], []
        ctx.emit("round_start", f"Round {state.round} begins", round=state.round)
        yield from self.rules.on_round_start(state, ctx)
        if ctx.scheme.ended(state, ctx):
            return TurnPlan(())
        rolled = self.rules.rolled_initiative(state)
        sched["order"] = rolled if rolled is not None else (yield from initiative_order(state, [s.id for s in state.sides], ctx))
        names = ", ".join(state.side(s).name for s in sched["order"])
        ctx.emit("initiative", f"Turn order for round {state.round}: {names}", order=list(sched["order"]))
        order = tuple(sched["order"])
        plan = self._plans.get(order)  # (frozen: the same plan for the same order, every round)
        if plan is None:
            turns = Phase("turns", "Turns", ALTERNATE, order, passing=FINAL, picks=0 if self.once else 1)
            plan = self._plans[order] = TurnPlan((turns,), first=order[0])
        return plan

    def pick_start(self, state: BattleState, phase: Phase, side: str, ctx: Context) -> Steps:
        sched = state.scheme
        state.turn += 1
        sched["current"] = side
        sched["owner_turns"][side] = sched["owner_turns"].get(side, 0) + 1
        yield from self.rules.on_turn_start(state, side, ctx)

    def commands(self, state: BattleState, phase: Phase, side: str) -> list[CommandSpec]:
        """One activate spec per unit the rules let activate (do not change the list: the
        same one is answered while `activatable` answers the same list)."""
        units = self.rules.activatable(state, side)
        if self.once:  # (filtered afresh each turn: nothing to keep)
            done = state.scheme["activated"]
            return self._specs([u for u in units if u.id not in done])
        kept = self._offers.get(side)
        if kept is not None and kept[0] is units:
            return kept[1]
        specs = self._specs(units)
        self._offers[side] = (units, specs)
        return specs

    def _specs(self, units: list[UnitState]) -> list[CommandSpec]:
        made = self._activate_specs  # (each unit's frozen spec, made once: offered every turn of a battle)
        specs = []
        for u in units:
            spec = made.get((u.id, u.name))
            if spec is None:
                spec = made[(u.id, u.name)] = CommandSpec("activate", {"unit": u.id}, label=f"Activate {u.name}")
            specs.append(spec)
        return specs

    def menu(self, state: BattleState, phase: Phase, side: str, legal: list[CommandSpec],
             may_pass: bool) -> Sequence[CommandSpec]:
        """The side's kept offer as an ActivateMenu, kept with it (until_all_pass: a tuple,
        as its offer is made afresh each turn)."""
        if self.once:
            return super().menu(state, phase, side, legal, may_pass)
        kept = self._menus.get(side)
        if kept is not None and kept[0] is legal and kept[1] == may_pass:
            return kept[2]
        offer = self._offers.get(side)
        by_unit = None
        if offer is not None and offer[1] is legal:  # our own offer: spec i activates unit i
            by_unit = dict(zip(map(_ID, reversed(offer[0])), reversed(legal)))  # (the first of an id kept)
        made = ActivateMenu((*legal, PASS) if may_pass else tuple(legal), by_unit)
        self._menus[side] = (legal, may_pass, made)
        return made

    def may_pass(self, state: BattleState, phase: Phase, side: str) -> bool:
        return bool(self.rules.may_pass(state, side))

    def prompt(self, state: BattleState, phase: Phase, side: str) -> str:
        return "activate a unit or pass" if self.rules.may_pass(state, side) else "activate a unit"

    def pass_text(self, state: BattleState, phase: Phase, side: str, forced: bool) -> str:
        name = state.side(side).name
        return f"{name} has no unit to activate and passes" if forced else f"{name} passes"

    def resolve(self, state: BattleState, phase: Phase, side: str, command: Command, ctx: Context) -> Steps:
        sched = state.scheme
        unit_id = str(getattr(command, "unit", ""))
        unit = state.unit(unit_id)
        sched["active_unit"] = unit_id
        if unit_id not in sched["activated"]:
            sched["activated"].append(unit_id)
        ctx.emit("activation", f"{unit.name} activates", unit=unit_id, side=unit.side)
        yield from self.rules.on_activation_start(state, unit_id, ctx)
        yield from self.rules.activation(state, unit_id, ctx)
        yield from self.rules.on_activation_end(state, unit_id, ctx)
        sched["active_unit"] = ""

    def pick_end(self, state: BattleState, phase: Phase, side: str, picked: bool, ctx: Context) -> Steps:
        yield from self.rules.on_turn_end(state, side, ctx)
        state.scheme["current"] = ""
        if self.once and not picked:
            state.scheme["passed"].append(side)

    def turn_end(self, state: BattleState, ctx: Context) -> Steps:
        yield from self.rules.on_round_end(state, ctx)
        ctx.emit("round_end", f"Round {state.round} ends", round=state.round)


@register_scheme
class InitiativeScheme(PhasedScheme):
    """Each round every side rolls its initiative die (BattleRules.initiative); turns go
    from highest to lowest, and only tied sides re-roll, to order themselves. In a turn a
    side activates one unit or passes. `one_activation_per_round`: every side gets one
    turn a round. `alternate_until_all_pass`: turns go round in initiative order until
    every side has passed, a unit activating at most once a round. A round ends when
    every side has had its turn(s)."""

    name: ClassVar[str] = DEFAULT_SCHEME
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "turn_structure",
            ONE_PER_ROUND,
            (ONE_PER_ROUND, ALTERNATE_UNTIL_ALL_PASS),
            help="one activation or pass per side per round, or alternate until all pass",
            ruling="A-04",
        ),
    )
    book_key: ClassVar[str | None] = None

    def command_types(self) -> Iterable[type[Command]]:
        return ()

    def host(self, ctx: Context) -> PhasedHost:
        """Always its own turn: the rules plug in through their activation hooks."""
        if self._host is None or self._host.rules is not ctx.rules:
            self._host = InitiativeTurn(ctx.rules, self.options)
        return self._host

    def run(self, state: BattleState, ctx: Context) -> Steps:
        """The phased loop's own generator, its keys set first (not a generator of its own:
        every roll and Decision of the battle would pass through one more)."""
        sched = state.scheme
        for key, empty in (("order", []), ("current", ""), ("active_unit", ""), ("activated", []), ("passed", [])):
            sched.setdefault(key, empty)
        sched.setdefault("owner_turns", {s.id: 0 for s in state.sides})
        return super().run(state, ctx)

    def turn_over(self, state: BattleState, ctx: Context) -> bool:
        """The round limit only: the rules' end is read as the next round would begin
        (so a battle the rules end in its last round reports the round limit)."""
        return self.past_round_limit(state, ctx)
