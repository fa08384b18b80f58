"""Activation schemes: who decides next, which units may activate, when rounds end.

A scheme owns the battle loop (`run`, a generator) and calls the ruleset's hooks for
everything that happens inside an activation; it knows no combat vocabulary. The
initiative scheme is here; the card deck of seed 001 lives in campaign.activation.cards
and registers itself the same way.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from campaign.engine.commands import Command
from campaign.engine.pending import CommandSpec, Decision, Resolution, RollRequest
from campaign.activation import DEFAULT_SCHEME
from campaign.engine.state import BattleState
from campaign.options import Option, resolve_options

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.engine.odds import AttackOdds
    from campaign.engine.report import OddsReport


class ActivationScheme:
    name: ClassVar[str] = ""
    option_specs: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: Any) -> None:
        self.options = resolve_options(self.option_specs, options, f"activation scheme {self.name}")

    def command_types(self) -> Iterable[type[Command]]:
        return ()

    def check(self, state: BattleState, command: Command) -> None:
        """Raise IllegalCommand for a command the scheme forbids now."""

    def run(self, state: BattleState, ctx: Context) -> Resolution:
        """The whole battle: rounds until the rules or the round limit end it."""
        raise NotImplementedError
        yield  # pragma: no cover

    def window(self, state: BattleState, name: str, ctx: Context, **info: Any) -> Resolution:
        """An interrupt window opened by the rules (before/during/after an action).
        Schemes with interrupts (overwatch) yield Decisions of the waiting side here; by
        default the rules' own interrupts (BattleRules.interrupts) are offered."""
        yield from ctx.rules.interrupts(state, name, ctx, **info)

    def odds(self, state: BattleState, command: Command, ctx: Context) -> AttackOdds | OddsReport:
        """The rules' exact odds for `command` as this scheme would resolve it now (a scheme
        that hands the acting unit a modifier includes it). The state is left unchanged."""
        return ctx.rules.odds(state, command)

    # helpers every scheme wants
    def ended(self, state: BattleState, ctx: Context) -> bool:
        """True (and the state marked over) once the rules say the battle is over."""
        if not state.over and ctx.rules.is_over(state):
            state.over = True
            state.end_reason = ctx.rules.end_reason(state) or "the rules end the battle"
        return state.over

    def past_round_limit(self, state: BattleState, ctx: Context) -> bool:
        limit = ctx.setup.scenario.rounds
        if limit and state.round >= limit and not state.over:
            state.over = True
            state.end_reason = f"round limit ({limit}) reached"
        return state.over


# --- initiative: a die per side each round, tied sides re-roll among themselves --------

ONE_PER_ROUND = "one_activation_per_round"
ALTERNATE = "alternate_until_all_pass"


class InitiativeScheme(ActivationScheme):
    """Each round every side rolls its initiative die (BattleRules.initiative); turns go from highest to lowest, and only tied
    sides re-roll, to order themselves. In a turn a side activates one unit or passes.
    `one_activation_per_round`: every side gets one turn a round. `alternate_until_all_pass`:
    turns go round in initiative order until every side has passed, a unit activating at
    most once a round. A round ends when every side has had its turn(s)."""

    name: ClassVar[str] = DEFAULT_SCHEME
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "turn_structure",
            ONE_PER_ROUND,
            (ONE_PER_ROUND, ALTERNATE),
            help="one activation or pass per side per round, or alternate until all pass",
            ruling="A-04",
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._activate_specs: dict[tuple[str, str], CommandSpec] = {}

    def run(self, state: BattleState, ctx: Context) -> Resolution:
        sched = state.scheme
        sched.setdefault("order", [])
        sched.setdefault("current", "")
        sched.setdefault("active_unit", "")
        sched.setdefault("activated", [])
        sched.setdefault("passed", [])
        sched.setdefault("owner_turns", {s.id: 0 for s in state.sides})
        while not self.ended(state, ctx):
            # everything this loop carries from round to round is in the state: a battle
            # resumed from a checkpoint taken here runs this generator again from the top
            ctx.checkpoint()
            state.round += 1
            sched["activated"], sched["passed"] = [], []
            ctx.emit("round_start", f"Round {state.round} begins", round=state.round)
            yield from ctx.rules.on_round_start(state, ctx)
            if self.ended(state, ctx):
                return
            sched["order"] = yield from self.initiative(state, [s.id for s in state.sides], ctx)
            names = ", ".join(state.side(s).name for s in sched["order"])
            ctx.emit("initiative", f"Turn order for round {state.round}: {names}", order=list(sched["order"]))
            if self.options["turn_structure"] == ONE_PER_ROUND:
                for side in sched["order"]:
                    if self.ended(state, ctx):
                        return
                    yield from self.turn(state, side, ctx)
            else:
                while not self.ended(state, ctx) and len(sched["passed"]) < len(sched["order"]):
                    for side in sched["order"]:
                        if side in sched["passed"] or self.ended(state, ctx):
                            continue
                        acted = yield from self.turn(state, side, ctx)
                        if not acted:
                            sched["passed"].append(side)
            if self.ended(state, ctx):
                return
            yield from ctx.rules.on_round_end(state, ctx)
            ctx.emit("round_end", f"Round {state.round} ends", round=state.round)
            if self.past_round_limit(state, ctx):
                return

    def initiative(self, state: BattleState, sides: list[str], ctx: Context) -> Resolution:
        return (yield from initiative_order(state, sides, ctx))

    def turn(self, state: BattleState, side: str, ctx: Context) -> Resolution:
        """One turn of `side`: activate one unit or pass. Returns whether a unit activated."""
        sched = state.scheme
        state.turn += 1
        sched["current"] = side
        sched["owner_turns"][side] = sched["owner_turns"].get(side, 0) + 1
        yield from ctx.rules.on_turn_start(state, side, ctx)
        once = self.options["turn_structure"] == ALTERNATE
        units = [
            u
            for u in state.units_of(side)
            if ctx.rules.can_activate(state, u.id) and not (once and u.id in sched["activated"])
        ]
        name = state.side(side).name
        acted = False
        if not units:
            ctx.emit("pass", f"{name} has no unit to activate and passes", side=side, forced=True)
        else:
            legal = [self._activate_spec(u.id, u.name) for u in units]
            legal.append(_PASS)
            command = yield Decision(side, f"{name}: activate a unit or pass", tuple(legal))
            if command.type == "pass":
                ctx.emit("pass", f"{name} passes", side=side)
            else:
                acted = True
                yield from self.activate(state, command.unit, ctx)
        yield from ctx.rules.on_turn_end(state, side, ctx)
        sched["current"] = ""
        return acted

    def _activate_spec(self, unit_id: str, name: str) -> CommandSpec:
        """The frozen `activate` spec of a unit, made once: offered every turn of a battle."""
        spec = self._activate_specs.get((unit_id, name))
        if spec is None:
            spec = self._activate_specs[(unit_id, name)] = CommandSpec(
                "activate", {"unit": unit_id}, label=f"Activate {name}")
        return spec

    def activate(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        sched = state.scheme
        unit = state.unit(unit_id)
        sched["active_unit"] = unit_id
        if unit_id not in sched["activated"]:
            sched["activated"].append(unit_id)
        ctx.emit("activation", f"{unit.name} activates", unit=unit_id, side=unit.side)
        yield from ctx.rules.on_activation_start(state, unit_id, ctx)
        yield from ctx.rules.activation(state, unit_id, ctx)
        yield from ctx.rules.on_activation_end(state, unit_id, ctx)
        sched["active_unit"] = ""


_PASS = CommandSpec("pass", label="Pass")


def activated_this_round(state: BattleState, unit_id: str) -> bool:
    """Whether the unit has activated (or is activating) in the current round, by the
    initiative scheme's bookkeeping (`activated` is emptied as each round begins)."""
    sched = state.scheme
    return unit_id in sched.get("activated", ()) or sched.get("active_unit") == unit_id


def initiative_order(state: BattleState, sides: list[str], ctx: Context) -> Resolution:
    """The order of `sides`: one die each (the rules' Initiative), plus the rules' bonus,
    highest first; tied sides re-roll among themselves. Any scheme may roll it."""
    if len(sides) <= 1:
        return list(sides)
    die = ctx.rules.initiative.die
    rolls: dict[str, int] = {}
    for side in sides:
        name = state.side(side).name
        (face,) = yield RollRequest(die, 1, f"1 x d{die} initiative, {name}", side=side)
        rolls[side] = face + ctx.rules.initiative_bonus(state, side)
    text = ", ".join(f"{state.side(s).name} {rolls[s]}" for s in sides)
    ctx.emit("initiative_roll", f"Initiative: {text}", rolls=dict(rolls))
    order: list[str] = []
    for face in sorted(set(rolls.values()), reverse=True):
        tied = [s for s in sides if rolls[s] == face]
        if len(tied) > 1:
            names = " and ".join(state.side(s).name for s in tied)
            ctx.emit("initiative_tie", f"{names} tie on {face} and re-roll", sides=tied)
            tied = yield from initiative_order(state, tied, ctx)
        order.extend(tied)
    return order


# --- registry --------------------------------------------------------------------

ENTRY_POINT_GROUP = "muster.activation"
_SCHEMES: dict[str, type[ActivationScheme]] = {InitiativeScheme.name: InitiativeScheme}
_loaded = False


def register_scheme(cls: type[ActivationScheme]) -> type[ActivationScheme]:
    """Class decorator: make an activation scheme reachable by its name."""
    _SCHEMES[cls.name] = cls
    return cls


def _load_builtins() -> None:
    """Schemes register when their package is imported: every package under
    campaign.activation, every ruleset package (a ruleset may ship its own turn), and the
    entry-point group `muster.activation` of installed distributions."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from importlib.metadata import entry_points  # slow to import: only when every scheme is wanted

    import campaign.activation
    from campaign.rulesets import ruleset_ids

    for info in pkgutil.iter_modules(campaign.activation.__path__, "campaign.activation."):
        if info.ispkg:
            importlib.import_module(info.name)
    ruleset_ids()
    for point in entry_points(group=ENTRY_POINT_GROUP):
        loaded = point.load()
        if isinstance(loaded, type) and issubclass(loaded, ActivationScheme) and loaded.name not in _SCHEMES:
            register_scheme(loaded)


def scheme_class(name: str) -> type[ActivationScheme]:
    """The registered scheme class; ValueError naming the known schemes if none."""
    if name not in _SCHEMES:
        _load_builtins()
    try:
        return _SCHEMES[name]
    except KeyError:
        raise ValueError(f"unknown activation scheme {name!r} (known: {', '.join(scheme_names())})") from None


def get_scheme(name: str, **options: Any) -> ActivationScheme:
    return scheme_class(name)(**options)


def scheme_registered(name: str) -> bool:
    """Whether `name` is registered already (without importing every scheme to find out)."""
    return name in _SCHEMES


def scheme_names() -> list[str]:
    _load_builtins()
    return sorted(_SCHEMES)
