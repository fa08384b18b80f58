"""Activation schemes: who decides next, which units may activate, when rounds end.

A scheme owns the battle loop (`run`, a generator) and calls the ruleset's hooks for
everything that happens inside an activation; it knows no combat vocabulary. Schemes live
in campaign.activation (the initiative turn and the phased turn in .phased, the card deck
of seed 001 in .cards) and register themselves here; `initiative_order` is here for any
scheme to roll.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from campaign.engine.commands import Command
from campaign.engine.pending import CommandSpec, Decision, Resolution, RollRequest
from campaign.activation import DEFAULT_SCHEME
from campaign.engine.state import BattleState
from campaign.options import Option, resolve_options
from campaign.plugins import LoadOnce, entry_point_classes, import_packages

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
# The initiative scheme itself (the default, DEFAULT_SCHEME) is a phased turn of one
# alternating phase: campaign.activation.phased.initiative.


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
        (face,) = yield _initiative_request(die, side, state.side(side).name)
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


@functools.lru_cache(maxsize=256)  # (frozen: the same request every round of a battle)
def _initiative_request(die: int, side: str, name: str) -> RollRequest:
    return RollRequest(die, 1, f"1 x d{die} initiative, {name}", side=side)


# --- registry --------------------------------------------------------------------

ENTRY_POINT_GROUP = "muster.activation"
_SCHEMES: dict[str, type[ActivationScheme]] = {}
_loading = LoadOnce()


def _load_default(name: str) -> None:
    """The default scheme is built from the phased parts: import them for it alone (not
    every ruleset), the first time it is asked for."""
    if name == DEFAULT_SCHEME and name not in _SCHEMES:
        importlib.import_module("campaign.activation.phased")


def register_scheme(cls: type[ActivationScheme]) -> type[ActivationScheme]:
    """Class decorator: make an activation scheme reachable by its name."""
    _SCHEMES[cls.name] = cls
    return cls


def _load_builtins() -> None:
    """Schemes register when their package is imported: every package under
    campaign.activation, every ruleset package (a ruleset may ship its own turn), and the
    entry-point group `muster.activation` of installed distributions."""
    _loading(_load_all)


def _load_all() -> None:
    import campaign.activation
    from campaign.rulesets import ruleset_ids

    import_packages(campaign.activation.__path__, "campaign.activation.")
    ruleset_ids()
    for cls in entry_point_classes(ENTRY_POINT_GROUP, ActivationScheme):
        if cls.name not in _SCHEMES:
            register_scheme(cls)


def scheme_class(name: str) -> type[ActivationScheme]:
    """The registered scheme class; ValueError naming the known schemes if none."""
    _load_default(name)
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
    _load_default(name)
    return name in _SCHEMES


def scheme_names() -> list[str]:
    _load_builtins()
    return sorted(_SCHEMES)
