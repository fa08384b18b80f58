"""Model-by-model actions inside a shared activation (docs/rulesets.md, "Model by model").

Some rules activate a unit (or several units together) as a whole, but inside that
activation every model spends its own actions, one action at a time. Models that share
(FigWars 7.3: close enough when the unit was nominated) spend their actions in any order,
interleaved; a model acting apart, once it starts, finishes before anyone else acts. The
activation ends when no model has an action it can take, or when the player ends it.

A ruleset says its activations go this way by returning a `ModelActions` from
`BattleRules.model_actions()`; the default `BattleRules.activation` then runs
`model_activation` for the unit. Rules with their own activation hook (to do things first:
arrivals, rallies) call `model_activation` from it. Schemes that activate several units
at once pass them all: by default each unit's models form one sharing group.

The core owns the order (who may act now, the sharing groups, the lock on a model acting
apart, the end); the rules own what a model may do, what it costs and where the actions
left are kept (`actions_left`). While the activation runs its bookkeeping is plain data in
`state.scheme[KEY]` (the units, the groups, the group acting now), removed when it ends.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from campaign.engine.commands import Command
from campaign.engine.lazy_specs import LazySpecs
from campaign.engine.pending import CommandSpec, Decision, Pending, Resolution
from campaign.engine.state import BattleState

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.engine.rules import BattleRules

KEY = "model_actions"  # state.scheme[KEY] while a model-by-model activation runs

Groups = list[list[str]]  # sharing groups: element ids, each model in exactly one group
GroupSteps = Generator[Pending, Any, "Groups | None"]  # a unit-level command: new groups, or None
StopSteps = Generator[Pending, Any, bool]  # after an action: whether the activation stops


def no_steps() -> Resolution:
    return
    yield  # pragma: no cover  (makes this a generator)


def set_apart(groups: Sequence[Sequence[str]], apart: Sequence[str]) -> Groups:
    """`groups` with each model of `apart` taken out into a group of its own (it acts
    alone). Models not in any group are ignored; the order of models is kept."""
    out: Groups = []
    alone: Groups = []
    for group in groups:
        kept = [m for m in group if m not in apart]
        if kept:
            out.append(kept)
        alone.extend([m] for m in group if m in apart)
    return out + alone


class ModelActions:
    """The hooks of a model-by-model activation. `actions_left`, `commands` and `resolve`
    are the rules' to write; the others have defaults.

    `lock_pools`: whether a sharing group of two or more models, once one of its models
    has acted, must finish before another group acts (the strict reading: groups activate
    one at a time, a pool counting as one). False: only a model acting alone locks; pools
    interleave with each other and may be left to start a model that acts alone."""

    lock_pools: ClassVar[bool] = True

    def __init__(self, rules: BattleRules) -> None:
        self.rules = rules

    # --- who takes part ---------------------------------------------------------------
    def models(self, state: BattleState, unit_ids: Sequence[str]) -> list[str]:
        """The models of the activating units that act (by default the living ones)."""
        return [e.id for u in unit_ids for e in state.unit(u).alive]

    def groups(self, state: BattleState, unit_ids: Sequence[str]) -> Groups:
        """The sharing groups as the activation starts: by default each unit's models share."""
        return [g for g in ([e.id for e in state.unit(u).alive] for u in unit_ids) if g]

    def start_model(self, state: BattleState, model_id: str, ctx: Context) -> Resolution:
        """Give the model its actions for this activation (recoveries, upkeep ...)."""
        return no_steps()

    # --- what a model does --------------------------------------------------------------
    def actions_left(self, state: BattleState, model_id: str) -> int:
        """Actions the model may still spend in this activation (the rules keep the count)."""
        raise NotImplementedError

    def can_act(self, state: BattleState, model_id: str) -> bool:
        """Whether the model may act now at all (alive, not out of the fight)."""
        return state.element(model_id).alive

    def commands(self, state: BattleState, model_id: str) -> Sequence[CommandSpec]:
        """What the model may do now (each spec names the model, `{"model": id}`)."""
        raise NotImplementedError

    def menu(self, state: BattleState, model_ids: Sequence[str]) -> Sequence[CommandSpec]:
        """Every one of `model_ids`' commands, model by model: what one decision offers.
        A host may override it to work out once what every model's menu shares (the state
        does not change while a menu is made), or return a LazySpecs (engine/lazy_specs.py)
        that makes a model's commands only when they are read."""
        return [spec for m in model_ids for spec in self.commands(state, m)]

    def model_of(self, command: Command) -> str:
        """The model a command acts with."""
        return str(getattr(command, "model", ""))

    def before_action(self, state: BattleState, command: Command, ctx: Context) -> Resolution:
        """Before a model's action resolves (an interrupt window, say); the action is
        dropped if the model is gone afterwards."""
        return no_steps()

    def resolve(self, state: BattleState, command: Command, ctx: Context) -> Resolution:
        """Carry out the model's action and spend its cost (IllegalCommand refuses it)."""
        return self.rules.resolve(state, command, ctx)

    def after_action(self, state: BattleState, command: Command, ctx: Context) -> StopSteps:
        """After each action; return True to end the activation now (the battle is
        decided, say), after any questions that has to ask."""
        return False
        yield  # pragma: no cover

    # --- the unit as a whole ---------------------------------------------------------------
    def unit_commands(self, state: BattleState, unit_ids: Sequence[str], started: bool,
                      used: Sequence[str]) -> list[CommandSpec]:
        """Commands about the activation rather than one model (name the models that act
        apart, report coherency ...), offered before the model commands; `started` is
        whether a model has acted yet, `used` the types of those answered so far."""
        return []

    def unit_command(self, state: BattleState, unit_ids: Sequence[str], groups: Groups, command: Command,
                     ctx: Context) -> GroupSteps:
        """Resolve one of `unit_commands`; return new sharing groups (`set_apart`) or None."""
        return None
        yield  # pragma: no cover

    def prompt(self, state: BattleState, unit_ids: Sequence[str]) -> str:
        names = " + ".join(state.unit(u).name for u in unit_ids)
        return f"{names}: a model acts, or end the activation"

    def end(self, state: BattleState, unit_ids: Sequence[str], ctx: Context) -> Resolution:
        """After the last action (or the player's end): actions not spent are lost."""
        return no_steps()


def model_activation(host: ModelActions, state: BattleState, unit_ids: Sequence[str], ctx: Context) -> Resolution:
    """The activation of `unit_ids` (one unit, or several activating together), model by
    model: start every model, then offer the models that may act now, one action at a
    time, until none can or the player ends it; then the host's `end`."""
    units = list(unit_ids)
    side = state.unit(units[0]).side
    for model in host.models(state, units):
        yield from host.start_model(state, model, ctx)
    groups = host.groups(state, units)
    book: dict[str, Any] = {"units": units, "groups": groups, "acting": -1, "started": False, "used": []}
    state.scheme[KEY] = book
    while not state.over:
        ready = [m for m in host.models(state, units) if host.actions_left(state, m) > 0 and host.can_act(state, m)]
        lock = book["acting"]
        if lock >= 0:
            locked = [m for m in ready if m in groups[lock]]
            if not locked:
                book["acting"] = -1
                continue
            ready = locked
        extra = host.unit_commands(state, units, book["started"], list(book["used"]))
        unit_types = {s.type for s in extra}
        model_specs = host.menu(state, ready)
        if not model_specs:
            break
        end = CommandSpec("end_activation", {"unit": units[0]}, label="End activation")
        legal: Sequence[CommandSpec] = (*extra, *model_specs, end) if isinstance(model_specs, list) else LazySpecs((*extra, model_specs, end))
        command = yield Decision(side, host.prompt(state, units), legal)
        if command.type == "end_activation":
            break
        if command.type in unit_types:
            new = yield from host.unit_command(state, units, groups, command, ctx)
            book["used"].append(command.type)
            if new is not None:
                groups = [list(g) for g in new]
                book.update(groups=groups, acting=-1)
            continue
        book["started"] = True
        model = host.model_of(command)
        yield from host.before_action(state, command, ctx)
        if model in ready and not state.element(model).alive:
            continue  # gone in the window before its action
        yield from host.resolve(state, command, ctx)
        if (yield from host.after_action(state, command, ctx)):
            break
        group = next((i for i, g in enumerate(groups) if model in g), -1)
        alone = group >= 0 and len(groups[group]) == 1
        if group >= 0 and (alone or host.lock_pools):
            going = [m for m in groups[group] if state.element(m).alive and host.actions_left(state, m) > 0]
            book["acting"] = group if going else -1
        else:
            book["acting"] = -1
    state.scheme.pop(KEY, None)
    yield from host.end(state, units, ctx)


def acting_now(state: BattleState) -> dict[str, Any] | None:
    """A model-by-model activation's bookkeeping (units, groups, the group acting now, whether
    a model has acted, the unit commands answered), or
    None when none is running: for screens."""
    book = state.scheme.get(KEY)
    return book if isinstance(book, dict) else None
