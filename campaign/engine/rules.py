"""BattleRules: the hooks the core calls on a ruleset to play a battle.

A ruleset's battle rules subclass this and override the hooks where its rules say
something; the defaults here make a battle that runs (activate, end activation, no
end condition but the round limit). Hooks named `on_*`, `activation` and `resolve` are
generators: they mutate the state, emit events through `ctx`, and `yield` RollRequests
(getting faces back) or Decisions (getting the answering Command back).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar

import attrs

from campaign.engine.commands import Command
from campaign.engine.display import UnitView, generic_unit_view, numbered_names
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, Resolution
from campaign.engine.setup import BattleSetup
from campaign.engine.state import BattleState, UnitState, state_from_setup

if TYPE_CHECKING:
    from campaign.activation.model_actions import ModelActions
    from campaign.engine.context import Context
    from campaign.engine.events import Event
    from campaign.engine.odds import AttackOdds
    from campaign.engine.report import OddsReport
    from campaign.outcome import BattleOutcome
    from campaign.rulesets.base import Ruleset

HostT = TypeVar("HostT")

__all__ = ["BattleRules", "HANDED_MODIFIER", "Initiative", "Resolution", "handed_modifier", "nothing", "scheme_adapter"]


def nothing() -> Resolution:
    """An empty resolution: `return nothing()` from a hook with nothing to do."""
    return
    yield  # pragma: no cover  (makes this a generator)


@attrs.define(frozen=True)
class Initiative:
    """How the core's initiative scheme orders the sides each round: every side rolls one
    `die` (plus the rules' `initiative_bonus`), highest first. `ties`: "reroll" -- tied
    sides roll again among themselves, with the same bonuses."""

    die: int = 6
    ties: Literal["reroll"] = "reroll"


class BattleRules:
    id: ClassVar[str] = ""
    initiative: ClassVar[Initiative] = Initiative()
    # True when everything the rules object keeps between calls is derived from the setup
    # and the state (caches), so a battle may resume from a state snapshot (Battle.resume)
    snapshots: ClassVar[bool] = False
    # True: a model's line too wide for the screen's unit panel wraps under its first
    # words (a hanging indent) rather than from the panel's edge
    hang_unit_lines: ClassVar[bool] = False

    def __init__(self, options: dict[str, Any] | None = None, ruleset: Ruleset | None = None) -> None:
        self.options: dict[str, Any] = dict(options or {})
        self.ruleset = ruleset  # the campaign.rulesets.Ruleset this plays, if any

    # --- building the battle ----------------------------------------------------
    def new_state(self, setup: BattleSetup) -> BattleState:
        return state_from_setup(setup)

    def command_types(self) -> Iterable[type[Command]]:
        return ()

    # --- what may be done -------------------------------------------------------
    def can_activate(self, state: BattleState, unit_id: str) -> bool:
        """Whether the unit may be chosen for activation at all (alive, not fled...)."""
        return not state.unit(unit_id).eliminated

    def activatable(self, state: BattleState, side: str) -> list[UnitState]:
        """The side's units `can_activate` allows, in unit order (asked every turn: rules
        that keep their standing units may answer from them, with the same result)."""
        return [u for u in state.units_of(side) if self.can_activate(state, u.id)]

    def may_pass(self, state: BattleState, side: str) -> bool:
        """Whether `side` may pass its turn instead of activating a unit (offered with
        its activations only when True; rules that refuse a pass in `check` say so here)."""
        return True

    def activation_commands(self, state: BattleState, unit_id: str) -> list[CommandSpec]:
        """What the active unit may do now; empty: its activation ends by itself."""
        return []

    def check(self, state: BattleState, command: Command) -> None:
        """Raise IllegalCommand naming the rule if `command` breaks one (facts included)."""

    # --- resolution (generators) ------------------------------------------------
    def model_actions(self) -> ModelActions | None:
        """How a unit's models act inside its activation, when they act one by one
        (campaign.activation.model_actions); None: the unit acts as a whole."""
        return None

    def activation(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        """One unit's activation: model by model when `model_actions` says so; else offer
        the unit's commands until it ends or has none."""
        models = self.model_actions()
        if models is not None:
            from campaign.activation.model_actions import model_activation

            return (yield from model_activation(models, state, [unit_id], ctx))
        unit = state.unit(unit_id)
        while not unit.eliminated and not state.over:
            legal = self.activation_commands(state, unit_id)
            if not legal:
                return
            legal = [*legal, CommandSpec("end_activation", {"unit": unit_id}, label="End activation")]
            command = yield Decision(unit.side, f"{unit.name}: choose an action or end the activation", tuple(legal))
            if command.type == "end_activation":
                return
            yield from self.resolve(state, command, ctx)

    def resolve(self, state: BattleState, command: Command, ctx: Context) -> Resolution:
        raise IllegalCommand("rules", f"{command.type} has no resolution in these rules")
        yield  # pragma: no cover

    def on_round_start(self, state: BattleState, ctx: Context) -> Resolution:
        return nothing()

    def on_round_end(self, state: BattleState, ctx: Context) -> Resolution:
        return nothing()

    def on_turn_start(self, state: BattleState, side: str, ctx: Context) -> Resolution:
        return nothing()

    def on_turn_end(self, state: BattleState, side: str, ctx: Context) -> Resolution:
        return nothing()

    def on_activation_start(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        return nothing()

    def on_activation_end(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        return nothing()

    def interrupts(self, state: BattleState, window: str, ctx: Context, **info: Any) -> Resolution:
        """The rules' own interrupts in a window they opened with `ctx.window` (a sentry's
        shot, a redirected attack...): Decisions of the sides allowed to act, as the
        activation scheme lets them (the default schemes offer them as they come)."""
        return nothing()

    def initiative_bonus(self, state: BattleState, side: str) -> int:
        """Added to `side`'s initiative roll (e.g. a catch-up bonus for rounds lost)."""
        return 0

    def rolled_initiative(self, state: BattleState) -> list[str] | None:
        """This round's initiative order when the rules already rolled it (FigWars rolls
        turn 1's before placing Recon units and keeps it, PR-22); None: the scheme rolls."""
        return None

    def scheme_host(self, scheme: str, options: dict[str, Any]) -> object | None:
        """What these rules plug into the activation scheme named `scheme` (the card
        scheme's CardHost, say), or None for the scheme's generic adapter. A ruleset keeps
        its adapters in its own folder and hands them out here; the scheme checks that what
        it gets is its kind of adapter (the core knows no scheme's adapter type)."""
        return None

    # --- the end ----------------------------------------------------------------
    def is_over(self, state: BattleState) -> bool:
        """The rules' own end condition (the scheme adds the scenario's round limit)."""
        return False

    def end_reason(self, state: BattleState) -> str:
        return ""

    def victory_points(self, state: BattleState) -> dict[str, Fraction]:
        return {side.id: Fraction(0) for side in state.sides}

    def outcome(self, state: BattleState) -> BattleOutcome:
        from campaign.outcome import BattleOutcome, SideOutcome, VPLine

        vps = self.victory_points(state)
        sides = tuple(
            SideOutcome(
                side=s.id,
                vp_lines=(VPLine("victory points", vps.get(s.id, Fraction(0)), "other"),),
                units_eliminated=tuple(u.name for u in state.units if u.side == s.id and u.eliminated),
            )
            for s in state.sides
        )
        return BattleOutcome(sides=sides, rounds_played=state.round, end_reason=state.end_reason)

    # --- display and odds ------------------------------------------------------
    def model_names(self, state: BattleState, unit_id: str) -> dict[str, str]:
        """How screens name each element of the unit (pickers, the chosen order), by id:
        the same form the rules use in describe_unit and in their action labels. The
        default numbers alike names ("Trooper #2")."""
        return numbered_names(state.unit(unit_id))

    def describe_unit(self, state: BattleState, unit_id: str) -> UnitView:
        """How the unit's state reads on screen: status words and a line per living model.
        The default reads markers and timed effects generically."""
        return generic_unit_view(state, unit_id)

    def odds(self, state: BattleState, command: Command) -> AttackOdds | OddsReport:
        """Exact odds for a command whose CommandSpec says `odds=True`: an OddsReport of
        named outcomes (or AttackOdds, which reports casualties). Odds and resolution should
        read the same description of the action."""
        raise IllegalCommand("odds", f"these rules give no odds for {command.type}")

    def odds_observed(self, before: BattleState, after: BattleState, command: Command,
                      events: Sequence[Event]) -> dict[str, int] | None:
        """What the named outcomes of `odds(before, command)` came to in one resolution of
        `command` (the conformance kit rolls it many times with auto dice and holds each
        outcome's mean to the odds within 3 sigma): `after` is the state at the next
        decision, `events` all emitted since the command. A whether-outcome counts 0 or 1.
        None: not settled yet (hits held until the phase ends, say); the kit passes until
        it is. `{}` (the default): the rules do not say, and the kit asks them to."""
        return {}

    def odds_query(self, state: BattleState, unit_id: str, target_id: str, action: str,
                   facts: dict[str, Any]) -> Command:
        """The command `muster odds` asks about: `action` of the unit at the target, with
        table facts. The default finds it among the unit's commands whose spec has odds
        (`action` is the command type) and checks the facts against the spec."""
        for spec in self.activation_commands(state, unit_id):
            if not spec.odds or spec.type != action:
                continue
            if "target" in spec.params and spec.params["target"] != target_id:
                continue
            data: dict[str, Any] = {"type": spec.type, **spec.params}
            if facts:  # a command without table facts has no facts field
                data["facts"] = dict(facts)
            if "target" not in data and spec.targets:
                data["target"] = target_id
            command = self.command_from(data)
            spec.check_facts(command)
            return command
        offered = sorted({s.type for s in self.activation_commands(state, unit_id) if s.odds})
        raise IllegalCommand("odds", f"no {action!r} with odds for this unit (actions with odds: {', '.join(offered) or 'none'})")

    def command_from(self, data: dict[str, Any]) -> Command:
        """A command of these rules from plain data (type, fields, facts)."""
        from campaign.engine.commands import GENERIC_COMMANDS, CommandTypes

        return CommandTypes(GENERIC_COMMANDS, self.command_types()).from_dict(data)


def scheme_adapter(
    rules: BattleRules,
    scheme: str,
    kind: type[HostT],
    options: dict[str, Any] | None,
    generic: Callable[[BattleRules, dict[str, Any] | None], HostT],
) -> HostT:
    """What a scheme runs the rules through: their own adapter for `scheme`
    (BattleRules.scheme_host), else `generic(rules, options)`. An adapter that is not a
    `kind` is refused with a TypeError naming the rules (a plug-in mistake, said plainly)."""
    host = rules.scheme_host(scheme, dict(options or {}))
    if host is None:
        return generic(rules, options)
    if not isinstance(host, kind):
        raise TypeError(f"{type(rules).__name__}.scheme_host({scheme!r}) gave a {type(host).__name__}, not a {kind.__name__}")
    return host


# An activation scheme may hand the acting unit a flat modifier for the one action being
# resolved (the card deck's bonuses and penalties). It sits in `state.scheme` only while
# that action resolves; rulesets add it to that unit's attack dice and nobody else's.
HANDED_MODIFIER = "handed_modifier"


def handed_modifier(state: BattleState, unit_id: str) -> tuple[int, str]:
    """The (value, label) a scheme handed `unit_id` for this action; (0, "") if none."""
    handed = state.scheme.get(HANDED_MODIFIER)
    if not handed or handed.get("unit") != unit_id:
        return 0, ""
    return int(handed.get("value", 0)), str(handed.get("label", "activation"))
