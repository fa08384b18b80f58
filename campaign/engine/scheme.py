"""Activation schemes: who decides next, which units may activate, when rounds end.

A scheme owns the battle loop (`run`, a generator) and calls the ruleset's hooks for
everything that happens inside an activation; it knows no combat vocabulary. The
initiative scheme is here; the card deck of seed 001 lives in campaign.activation.cards
and registers itself the same way.
"""

from __future__ import annotations

import importlib
from collections.abc import Generator, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from campaign.engine.commands import Command
from campaign.engine.pending import CommandSpec, Decision, RollRequest
from campaign.engine.state import BattleState
from campaign.rulesets.base import Option

if TYPE_CHECKING:
    from campaign.engine.context import Context

Resolution = Generator[Any, Any, Any]


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
        Schemes with interrupts (overwatch) yield Decisions of the waiting side here."""
        return
        yield  # pragma: no cover

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


def resolve_options(specs: tuple[Option, ...], given: dict[str, Any], owner: str) -> dict[str, Any]:
    """Defaults overlaid with `given`; ValueError for unknown names or values off the choices."""
    known = {o.name: o for o in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        names = ", ".join(known) or "none"
        raise ValueError(f"unknown option(s) for {owner}: {', '.join(unknown)} (options: {names})")
    out = {o.name: o.default for o in specs}
    for key, value in given.items():
        spec = known[key]
        if spec.choices and value not in spec.choices:
            raise ValueError(f"option {key} must be one of {', '.join(map(str, spec.choices))}, not {value!r}")
        out[key] = value
    return out


# --- initiative: d6 per side each round, tied sides re-roll among themselves ----------

ONE_PER_ROUND = "one_activation_per_round"
ALTERNATE = "alternate_until_all_pass"


class InitiativeScheme(ActivationScheme):
    """Each round every side rolls a d6; turns go from highest to lowest, and only tied
    sides re-roll, to order themselves. In a turn a side activates one unit or passes.
    `one_activation_per_round`: every side gets one turn a round. `alternate_until_all_pass`:
    turns go round in initiative order until every side has passed, a unit activating at
    most once a round. A round ends when every side has had its turn(s)."""

    name: ClassVar[str] = "initiative"
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "turn_structure",
            ONE_PER_ROUND,
            (ONE_PER_ROUND, ALTERNATE),
            help="one activation or pass per side per round, or alternate until all pass",
            ruling="A-04",
        ),
    )

    def run(self, state: BattleState, ctx: Context) -> Resolution:
        sched = state.scheme
        sched.setdefault("order", [])
        sched.setdefault("current", "")
        sched.setdefault("active_unit", "")
        sched.setdefault("activated", [])
        sched.setdefault("passed", [])
        sched.setdefault("owner_turns", {s.id: 0 for s in state.sides})
        while not self.ended(state, ctx):
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
        """The order of `sides`: one d6 each, highest first; tied sides re-roll among themselves."""
        if len(sides) <= 1:
            return list(sides)
        rolls: dict[str, int] = {}
        for side in sides:
            name = state.side(side).name
            (face,) = yield RollRequest(6, 1, f"1 x d6 initiative, {name}", side=side)
            rolls[side] = face
        text = ", ".join(f"{state.side(s).name} {rolls[s]}" for s in sides)
        ctx.emit("initiative_roll", f"Initiative: {text}", rolls=dict(rolls))
        order: list[str] = []
        for face in sorted(set(rolls.values()), reverse=True):
            tied = [s for s in sides if rolls[s] == face]
            if len(tied) > 1:
                names = " and ".join(state.side(s).name for s in tied)
                ctx.emit("initiative_tie", f"{names} tie on {face} and re-roll", sides=tied)
                tied = yield from self.initiative(state, tied, ctx)
            order.extend(tied)
        return order

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
            legal = [CommandSpec("activate", {"unit": u.id}, label=f"Activate {u.name}") for u in units]
            legal.append(CommandSpec("pass", label="Pass"))
            command = yield Decision(side, f"{name}: activate a unit or pass", tuple(legal))
            if command.type == "pass":
                ctx.emit("pass", f"{name} passes", side=side)
            else:
                acted = True
                yield from self.activate(state, command.unit, ctx)
        yield from ctx.rules.on_turn_end(state, side, ctx)
        sched["current"] = ""
        return acted

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


# --- registry --------------------------------------------------------------------

_SCHEMES: dict[str, type[ActivationScheme]] = {InitiativeScheme.name: InitiativeScheme}
_BUILTIN_MODULES = ("campaign.activation.cards",)


def register_scheme(cls: type[ActivationScheme]) -> type[ActivationScheme]:
    """Class decorator: make an activation scheme reachable by its name."""
    _SCHEMES[cls.name] = cls
    return cls


def _load_builtins() -> None:
    for module in _BUILTIN_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a scheme still being written
            if not (exc.name and module.startswith(exc.name)):
                raise


def get_scheme(name: str, **options: Any) -> ActivationScheme:
    if name not in _SCHEMES:
        _load_builtins()
    try:
        cls = _SCHEMES[name]
    except KeyError:
        raise ValueError(f"unknown activation scheme {name!r} (known: {', '.join(sorted(_SCHEMES))})") from None
    return cls(**options)


def scheme_names() -> list[str]:
    _load_builtins()
    return sorted(_SCHEMES)
