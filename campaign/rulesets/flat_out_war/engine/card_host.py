"""Flat Out War as the card scheme's host (spec section 7.3).

The card deck replaces Flat Out War's rounds, initiative roll and alternating turns;
one card turn is one Flat Out War round (each side's turn-end clocks run once).
Everything an action does is Flat Out War's own resolution: its dice, modifiers,
Recovery rolls and morale. The mapping:

* 2 action points per unit (option `ap_max`); with `fow_enforce_one_other_action`
  (default on) at most one Melee, Ballistic or Cast per activation, and the free
  charge melee counts as that one. Two Moves in a row stay legal. Running is not
  used: two Move actions replace it.
* A Command officer makes its side's field commander: leadership bonus 1. An
  officer attached to a unit activates with it and gets no card of its own.
* The seed-001 flat modifier (-1 per previous action, +1 charge, -1 per 6" of
  target movement, +1 aim) is added to every attack die of a melee or shooting
  action as one more labelled modifier, next to FOW's own (flank, rear, long range,
  cover, Charge attribute...). Deny Charge cancels the card +1 too (not the free melee).
* A failed FOW morale roll (broken or fleeing) is "routed"; the forced Rally is a FOW
  rally roll (Frightened -2 and the rest). A pass makes the unit steady and puts it
  on overwatch; a fail leaves it fleeing.
* Reload X is PREP X: after firing, X Special "prep" actions reload the weapon
  (FOW's own counters stay the truth; they just no longer count down by turns).
* Trigger elements keep their own attribute; overwatch is for everyone.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from campaign.activation.cards.host import CardHost
from campaign.activation.cards.rules import FlatModifier, Step
from campaign.engine.commands import Command
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, FactSpec, Resolution
from campaign.engine.state import BattleState, ElementState, UnitState, liveness_changed
from campaign.force import Element
from campaign.rulesets.flat_out_war.engine.combatant import static_traits
from campaign.rulesets.flat_out_war.engine.commands import Melee, Move, Shoot

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.engine.odds import AttackOdds
    from campaign.engine.report import OddsReport
    from campaign.rulesets.flat_out_war.engine.rules import FlatOutWarRules


OTHER_ACTIONS = frozenset({"melee", "ballistic", "cast", "free_melee"})
KINDS = {
    "move": "move",
    "melee": "melee",
    "shoot": "ballistic",
    "cast": "cast",
    "attach": "special",
    "detach": "special",
    "rally": "special",
    "objective": "free",
    "strategic_victory": "free",
}
# Table facts the card scheme needs on a Move, added to Flat Out War's own.
CARD_MOVE_FACTS = (
    FactSpec("straight", (True, False), False, "the move went in a straight line toward the enemy unit (charge)"),
    FactSpec("uninterrupted", (True, False), True, "the path had no pause (an enemy interrupt does not count)"),
)
ROUTED = ("broken", "fleeing")
# the scheme's two free commands, offered in every menu of a steady unit (frozen: made once)
_OBJECTIVE = CommandSpec("objective", {}, (), "Record a scenario objective achieved")
_STRATEGIC = CommandSpec("strategic_victory", {}, (), "Declare a strategic victory")
# the fact in which a FOW command names the elements that act (a split's groups)
GROUP_FACTS = {"melee": "attackers", "shoot": "shooters"}


class FlatOutWarHost(CardHost):
    """Handed to the card scheme by FlatOutWarRules.scheme_host."""

    rules: FlatOutWarRules  # the only rules that hand this host out

    def __init__(self, rules: FlatOutWarRules, options: dict[str, Any] | None = None) -> None:
        super().__init__(rules, options)
        self._reloaders: dict[str, tuple[Element, bool]] = {}  # see _may_reload
        self._moves: dict[int, tuple[CommandSpec, CommandSpec]] = {}  # see _card_move

    # --- who takes part -----------------------------------------------------------------
    def is_unit(self, state: BattleState, unit_id: str) -> bool:
        """An attached officer activates with its unit: no card of its own."""
        return bool(self.rules.can_activate(state, unit_id))

    def ap_max(self, state: BattleState, unit_id: str) -> int:
        return int(self.options.get("ap_max", 2))

    def move_rate(self, state: BattleState, unit_id: str) -> Fraction:
        unit = state.unit(unit_id)
        moves = [self.rules.element_of(state, e).move or 0 for e in unit.alive]
        return Fraction(min(moves, default=0))

    def leadership_bonus(self, state: BattleState, side: str) -> int:
        """7.3: a Command officer is the field commander, bonus 1 (FOW gives no number)."""
        for unit in state.units_of(side):
            if any(self.rules.combatant(state, e).has("command") for e in unit.alive):
                return 1
        return 0

    # --- the menu --------------------------------------------------------------------------
    def commands(self, state: BattleState, unit_id: str) -> list[CommandSpec]:
        """FOW's own commands for the unit, as if it had not moved or acted yet: action
        points, not FOW's Move + Other Action, decide how often it may act."""
        unit = state.unit(unit_id)
        saved: dict[str, Any] = {k: unit.markers.pop(k) for k in ("moved", "acted") if k in unit.markers}
        try:
            specs = list(self.rules.activation_commands(state, unit_id))
        finally:
            unit.markers.update(saved)
        out = []
        for spec in specs:
            if spec.type == "rally":  # the card scheme's own forced Rally replaces it
                continue
            if spec.type == "move":
                spec = self._card_move(spec)
            out.append(spec)
        if unit.data.get("morale", "steady") not in ROUTED:
            out.append(_OBJECTIVE)
            out.append(_STRATEGIC)
        return out

    def _card_move(self, spec: CommandSpec) -> CommandSpec:
        """FOW's move spec with the card facts, made once per spec (FOW keeps its specs)."""
        found = self._moves.get(id(spec))
        if found is None or found[0] is not spec:
            found = self._moves[id(spec)] = (spec, attrs.evolve(spec, facts=(*spec.facts, *CARD_MOVE_FACTS)))
        return found[1]

    def action_kind(self, state: BattleState, command_type: str) -> str:
        return KINDS.get(command_type, "special")

    def move_step(self, state: BattleState, command: Command) -> Step:
        """FOW's own answer to how far the unit moved (a `distance`, or a `path`'s length):
        the 8" charge and the target-movement penalty read the same inches as FOW's rules."""
        step = super().move_step(state, command)
        if not isinstance(command, Move):  # only a move has the kind "move" (KINDS)
            return step
        contact = self.facts(command).get("contact") or []
        return attrs.evolve(step, inches=self.rules.inches_moved(state, command), contact=bool(contact))

    def refuse(self, state: BattleState, unit_id: str, kinds_so_far: list[str], kind: str) -> str | None:
        if not self.options.get("fow_enforce_one_other_action", True) or kind not in OTHER_ACTIONS:
            return None
        if any(k in OTHER_ACTIONS for k in kinds_so_far):
            return "Flat Out War allows one Other Action (melee, shooting or casting) per activation (7.3)"
        return None

    # --- CA-5 splits: FOW commands name their acting elements -----------------------------------
    def group_models(self, state: BattleState, command: Command) -> frozenset[str] | None:
        name = GROUP_FACTS.get(command.type)
        if name is not None:
            named = self.facts(command).get(name) or []
            return frozenset(str(e) for e in named) if named else None
        element = getattr(command, "element", "")
        return frozenset({element}) if command.type == "cast" and element else None

    def narrow(self, state: BattleState, command: Command, models: frozenset[str]) -> Command:
        name = GROUP_FACTS.get(command.type)
        if name is None or self.facts(command).get(name) or not isinstance(command, (Melee, Shoot)):
            return command
        return attrs.evolve(command, facts={**self.facts(command), name: sorted(models)})

    def refuse_split(self, state: BattleState, unit_id: str, kinds: list[str]) -> str | None:
        if len({k for k in kinds if k in OTHER_ACTIONS}) > 1:
            return "Flat Out War: a unit takes one kind of Other Action per activation (FOW 4.3), so a split cannot mix them"
        return None

    def check(self, state: BattleState, command: Command) -> None:
        if command.type == "move" and self.facts(command).get("run"):
            unit = state.unit(getattr(command, "unit", ""))
            if unit.data.get("morale", "steady") not in ROUTED:
                raise IllegalCommand("7.3", "with card activation there is no Run: take two Move actions instead")

    # --- resolution ----------------------------------------------------------------------------
    def resolve(self, state: BattleState, command: Command, ctx: Context, modifier: FlatModifier) -> Resolution:
        """FOW resolves the action; the card modifier joins the acting unit's attack dice
        (FlatOutWarRules.attack_modifiers reads the hand-over), less a charge +1 that
        Deny Charge cancels."""
        total = self._card_total(state, command, modifier)
        if total != modifier.total:
            target = getattr(command, "target", "")  # only a melee's total changes
            ctx.emit("deny_charge", f"{state.unit(target).name} denies the charge: no card +1", unit=target)
        yield from super().resolve(state, command, ctx, self._with_total(modifier, total))

    def _card_total(self, state: BattleState, command: Command, modifier: FlatModifier) -> int:
        total = modifier.total
        if modifier.charge and command.type == "melee" and self._denies_charge(state, getattr(command, "target", "")):
            total -= modifier.charge
        return total

    @staticmethod
    def _with_total(modifier: FlatModifier, total: int) -> FlatModifier:
        # Deny Charge takes away only the charge part of the card modifier
        return attrs.evolve(modifier, charge=modifier.charge - (modifier.total - total))

    def odds(self, state: BattleState, command: Command, modifier: FlatModifier) -> AttackOdds | OddsReport:
        """FOW's exact odds with the card modifier on each of the acting unit's attack dice."""
        total = self._card_total(state, command, modifier)
        return super().odds(state, command, self._with_total(modifier, total))

    def _denies_charge(self, state: BattleState, target_id: str) -> bool:
        try:
            target = state.unit(target_id)
        except KeyError:
            return False
        return any(self.rules.combatant(state, e).has("deny charge") for e in target.alive)

    def rally(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        """The forced Rally: FOW's rally roll (all modifiers, Frightened -2)."""
        unit = state.unit(unit_id)
        unit.data["morale"] = "fleeing"  # FOW rallies only a fleeing unit
        from campaign.rulesets.flat_out_war.engine.commands import Rally

        yield from self.rules.resolve(state, Rally(unit=unit_id), ctx)
        return unit.data.get("morale") == "rallied"

    def routed(self, state: BattleState, unit_id: str) -> bool:
        return state.unit(unit_id).data.get("morale", "steady") in ROUTED

    def standing(self, state: BattleState, unit: UnitState) -> tuple[bool, dict[str, int] | None, bool]:
        if not self.rules.unit_can_activate(unit):  # (is_unit, on the unit at hand)
            return False, None, False
        owed = self.prep_owed(state, unit.id) if unit.id in self.rules._clock_units else {}  # (see _reload_weapons)
        return True, owed, unit.data.get("morale", "steady") in ROUTED

    def set_routed(self, state: BattleState, unit_id: str, routed: bool) -> None:
        unit = state.unit(unit_id)
        if routed:
            unit.data["morale"] = "broken"
        else:
            unit.data["morale"] = "steady"  # rallied by the card rule: steady and on overwatch
            unit.data["disordered"] = False

    def eliminate(self, state: BattleState, unit_id: str, ctx: Context) -> None:
        unit = state.unit(unit_id)
        unit.markers["removed"] = True
        liveness_changed()
        unit.data["fled"] = True

    # --- Reload as PREP -------------------------------------------------------------------------
    def _reload_weapons(self, state: BattleState, unit_id: str) -> dict[str, tuple[int, list[tuple[Any, str]]]]:
        """weapon name -> (Reload X, [(element, weapon index key)])."""
        out: dict[str, tuple[int, list[tuple[Any, str]]]] = {}
        if unit_id not in self.rules._clock_units:
            # no element of the unit was created with a Reload weapon (the rules list the
            # units that were, at new_state): asked for every unit after every action
            return out
        for es in state.unit(unit_id).alive:
            if not self._may_reload(state, es):
                continue
            for arm in self.rules.combatant(state, es).weapons:
                if getattr(arm, "reload", 0):
                    x, where = out.setdefault(arm.name, (int(arm.reload), []))
                    where.append((es, str(arm.index)))
        return out

    def _may_reload(self, state: BattleState, es: ElementState) -> bool:
        """Whether the element was created with a Reload weapon: its combat view's weapons
        are the ones it was created with, less those lost. Kept by element id beside the
        element it was read from (a battle started again on these rules has new ones)."""
        element = self.rules.element_of(state, es)
        found = self._reloaders.get(es.id)
        if found is None or found[0] is not element:
            per_weapon = static_traits(element)[0][1]
            found = self._reloaders[es.id] = (element, any(int(t.get("reload") or 0) for t in per_weapon))
        return found[1]

    def weapons(self, state: BattleState, unit_id: str) -> list[tuple[str, int, bool]]:
        # FOW weapons start loaded: every Reload weapon counts as prepped at the start
        return [(name, x, True) for name, (x, _) in sorted(self._reload_weapons(state, unit_id).items())]

    def prep_owed(self, state: BattleState, unit_id: str) -> dict[str, int] | None:
        owed = {}
        for name, (_, where) in self._reload_weapons(state, unit_id).items():
            owed[name] = max((int(es.data.get("reload", {}).get(key, 0)) for es, key in where), default=0)
        return owed

    def prep(self, state: BattleState, unit_id: str, weapon: str) -> None:
        for es, key in self._reload_weapons(state, unit_id).get(weapon, (0, []))[1]:
            reload = es.data.get("reload", {})
            if key in reload:
                reload[key] -= 1
                if reload[key] <= 0:
                    del reload[key]

    def on_turn_end(self, state: BattleState, side: str, ctx: Context) -> Resolution:
        """FOW's turn-end clocks, except the reload count-down: prep actions do that now."""
        hidden = {}
        for unit in state.units_of(side):
            for es in unit.alive:
                if es.data.get("reload"):
                    hidden[es.id] = es.data.pop("reload")
        try:
            yield from self.rules.on_turn_end(state, side, ctx)
        finally:
            for eid, reload in hidden.items():
                state.element(eid).data["reload"] = reload
