"""Helpers every part of Flat Out War's play shares: dice (with Lucky), unit lookup,
the elements able to act, the enemies, spell effects on a unit and an attack's Situation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign.engine.commands import Reroll
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, Resolution, RollRequest
from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.rulesets.flat_out_war.editions import V17
from campaign.rulesets.flat_out_war.engine.commands import fact
from campaign.rulesets.flat_out_war.engine.rolls import Mod
from campaign.rulesets.flat_out_war.engine.situation import Situation



class PlayHelpers:
    """Shared helpers of `FlatOutWarRules` (rules.py), which mixes this in."""

    edition: str
    options: dict[str, Any]

    def effects_on(self, state: BattleState, unit_id: str) -> frozenset[str]:
        return frozenset(e.kind for e in state.effects if e.target == unit_id)

    def _able(self, state: BattleState, unit: UnitState) -> list[ElementState]:
        """Elements that may move and act: alive, not snared, not down."""
        return [e for e in unit.alive if not e.markers.get("snared") and not e.markers.get("down")]

    def _loose(self, state: BattleState, unit: UnitState) -> bool:
        """A loose-cohesion unit ([1.7]: vehicles are loose by default), whose elements
        act for themselves where the rules say so (fleeing in disorder, turning to a charge)."""
        return any(self.combatant(state, e).has("loose cohesion")
                   or (self.edition == V17 and self.combatant(state, e).kind == "vehicle") for e in unit.alive)

    def _enemies(self, state: BattleState, side: str) -> list[UnitState]:
        return [u for u in state.units if u.side != side and not u.eliminated]

    def _situation(self, state: BattleState, unit: UnitState, target: UnitState | None, cmd: Any,
                   specs: tuple) -> Situation:
        tgt_flying = bool(target) and any(
            e.markers.get("airborne") or e.markers.get("jumped") for e in target.alive  # type: ignore[union-attr]
        )
        return Situation(
            aspect=fact(cmd, "aspect", specs) or "front",
            range_band=fact(cmd, "range_band", specs) or "short",
            los=fact(cmd, "los", specs) or "open",
            ran=bool(unit.markers.get("ran")) or bool(fact(cmd, "will_run", specs)),
            charging=bool(unit.markers.get("charging")),
            moved=bool(unit.markers.get("moved")) or bool(fact(cmd, "will_move", specs)),
            attacker_effects=self.effects_on(state, unit.id),
            target_effects=self.effects_on(state, target.id) if target else frozenset(),
            target_flying=tgt_flying,
        )

    def _unit(self, state: BattleState, unit_id: str, role: str = "unit") -> UnitState:
        try:
            return state.unit(unit_id)
        except KeyError:
            raise IllegalCommand("FOW 1", f"there is no {role} {unit_id!r}") from None

    def _roll(self, state: BattleState, ctx: Any, die: int, count: int, purpose: str, side: str,
              lucky: ElementState | None = None, good: Callable[[int], bool] | None = None) -> Resolution:
        """Dice, with a Lucky element's offer to re-roll a single die; `good(face)` says
        whether the face already does what the roll is for (the Decision's data carries it,
        so a player, or the odds' policy of re-rolling every failure, can read it)."""
        faces = yield RollRequest(die=die, count=count, purpose=purpose, side=side)
        faces = tuple(faces)
        if lucky is not None and count == 1 and self._lucky_ready(state, lucky):
            data = {"lucky": lucky.id, "face": faces[0]}
            if good is not None:
                data["good"] = bool(good(faces[0]))
            choice = yield Decision(side, f"{lucky.name} is Lucky: re-roll the {faces[0]} ({purpose})?", (
                CommandSpec("reroll", {}, (), "Re-roll (Lucky)"), CommandSpec("keep", {}, (), "Keep the roll")),
                data=data)
            if isinstance(choice, Reroll):
                again = yield RollRequest(die=die, count=1, purpose=f"Lucky re-roll: {purpose}", side=side)
                lucky.data["lucky_turn" if self.edition == V17 else "lucky_used"] = state.turn if self.edition == V17 else True
                best = max(faces[0], tuple(again)[0])
                ctx.emit("lucky", f"{lucky.name} re-rolls with Lucky: {faces[0]} then {tuple(again)[0]}, keeps {best}",
                         element=lucky.id, first=faces[0], second=tuple(again)[0])
                faces = (best,)
        return faces

    def _has_lucky(self, state: BattleState, es: ElementState) -> bool:
        """Lucky bought for the element (and switched on, if Activate links it), read from
        the parsed traits so `combatant` can ask without asking itself."""
        from campaign.rulesets.flat_out_war.engine.combatant import static_traits

        traits = self._traits.get(es.id)  # type: ignore[attr-defined]
        if traits is None:
            element = self.element_of(state, es)  # type: ignore[attr-defined]
            traits = self._traits[es.id] = static_traits(element)  # type: ignore[attr-defined]
        (own, _), links = traits
        return "lucky" in own and ("lucky" not in links or "lucky" in es.data.get("switched_on", []))

    def _lucky_ready(self, state: BattleState, es: ElementState) -> bool:
        if not self.options["lucky_prompt"] or not self._has_lucky(state, es):
            return False
        if self.edition == V17:
            return es.data.get("lucky_turn") != state.turn
        return not es.data.get("lucky_used")


def _mods_text(mods: tuple[Mod, ...] | list[Mod]) -> str:
    if not mods:
        return ""
    return " (" + ", ".join(f"{m.label} {m.value:+d}" for m in mods) + ")"
