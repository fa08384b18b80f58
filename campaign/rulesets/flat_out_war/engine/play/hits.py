"""What a hit does: the recovery roll and its result, passengers of a destroyed
transport, harmless hits (Ensnare, Capture), Sticky markers, and removing elements and
units (officers freed, Reliant orphans)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.rulesets.flat_out_war.editions import SO
from campaign.rulesets.flat_out_war.engine import contact
from campaign.rulesets.flat_out_war.engine.attack import Hit
from campaign.rulesets.flat_out_war.engine.odds import AttackSpec
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution
from campaign.rulesets.flat_out_war.engine.recovery import recovery_plan, resolve_crash, resolve_recovery
from campaign.rulesets.flat_out_war.engine.reliant import orphaned
from campaign.rulesets.flat_out_war.engine.rolls import step

if TYPE_CHECKING:
    from campaign.engine.context import Context


class HitsMixin(PlayHelpers):
    """`FlatOutWarRules`' hits: recovery rolls and what their results do."""

    edition: str

    def _harmless_hit(self, state: BattleState, ctx: Context, attacker: ElementState, es: ElementState,
                      spec: AttackSpec) -> Resolution:
        c = self.combatant(state, attacker)
        weapon = next((w for w in c.weapons if w.index == spec.weapon), None)
        if c.weapon_has(weapon, "ensnare"):
            es.markers["snared"] = True
            ctx.emit("snared", f"{es.name} is snared by {attacker.name}: it cannot move or act", element=es.id)
        else:  # Capture: A-63: the smaller base die is pulled in (the target on a tie); no free attack
            smaller = attacker if c.die < self.combatant(state, es).die else es
            anchor = es if smaller is attacker else attacker
            own, other = state.unit(attacker.unit), state.unit(es.unit)
            contact.engage(own, other)
            ctx.emit("captured", f"{smaller.name} is pulled into base contact with {anchor.name}: "
                                 f"{own.name} and {other.name} are engaged in melee (A-63)",
                     element=es.id, attacker=attacker.id, mover=smaller.id)
        return
        yield  # pragma: no cover

    def _sticky_mark(self, state: BattleState, ctx: Context, attacker: ElementState, es: ElementState,
                     spec: AttackSpec) -> None:
        if self.edition != SO or not es.alive or not self._static_any("sticky") or not self.combatant(
                state, attacker).has("sticky"):
            return
        die = step(spec.die, -1)
        if die is None:
            return
        es.markers["sticky"] = {"die": die, "start": die, "side": state.unit(attacker.unit).side, "source": attacker.name}
        ctx.emit("sticky", f"{es.name} carries a d{die} Sticky marker from {attacker.name}", element=es.id, die=die)

    def _hit(self, state: BattleState, ctx: Context, es: ElementState, hit: Hit, by_side: str | None) -> Resolution:
        """One hit: the recovery roll at once (section 13) and what it does."""
        if not es.alive:
            return
        if es.markers.get("down"):
            ctx.emit("no_effect", f"{es.name} is down (Reliant): the hit has no further effect (A-29)", element=es.id)
            return
        c = self.combatant(state, es)
        side = state.unit(es.unit).side
        plan = recovery_plan(c, hit, self.edition)
        mods = plan.mods_text
        source = f" by {hit.source}" if hit.source else ""
        faces: list[int] = []
        for i, die in enumerate(plan.dice):
            what = f" ({plan.labels[i]})" if plan.labels else ""
            # one die: the face alone decides; the odds' Lucky policy re-rolls a failure
            good = (lambda f: resolve_recovery(c, plan, (f,)).outcome == "survived") \
                if len(plan.dice) == 1 and self._static_any("lucky") else None  # (read only for a Lucky element)
            rolled = yield from self._roll(state, ctx, die, 1, f"1 x d{die} recovery{what}, {es.name} hit{source}"
                                           + (f" ({mods})" if mods else ""), side, es, good)
            faces.extend(rolled)
        result = resolve_recovery(c, plan, faces)
        if result.outcome == "crash":
            ctx.emit("crash", f"{es.name} rolls a natural 1 in the air and crashes", element=es.id)
            (second,) = yield from self._roll(state, ctx, plan.crash_die, 1, f"1 x d{plan.crash_die} crash recovery, {es.name}",
                                              side, es)
            result = resolve_crash(plan, faces, second)
        self._apply_recovery(state, ctx, es, result, by_side, plan.modifier)
        if not es.alive and self._static_any("transport"):  # (no Transport in the battle: nobody aboard)
            yield from self._passengers(state, ctx, es, by_side)

    def _passengers(self, state: BattleState, ctx: Context, transport: ElementState, by_side: str | None) -> Resolution:
        """A destroyed transport: each carried element makes a recovery roll (FOW 13);
        survivors are placed touching where it was (A-31)."""
        if not self._static_has(state, transport, "transport"):  # only a Transport could take anyone aboard
            return
        for unit in state.units:
            for es in unit.living:  # (a tuple: a recovery roll's loss leaves it as it was)
                if es.markers.get("carried_by") != transport.id:
                    continue
                es.markers.pop("carried_by", None)
                ctx.emit("passenger", f"{es.name} was aboard {transport.name}: recovery roll", element=es.id)
                yield from self._hit(state, ctx, es, Hit(attack_die=0, source=f"{transport.name} destroyed"), by_side)
                if es.alive:
                    ctx.emit("placed", f"{es.name} is placed touching where {transport.name} was (A-31)", element=es.id)

    def _apply_recovery(self, state: BattleState, ctx: Context, es: ElementState, result: Any, by_side: str | None,
                        modifier: int = 0) -> None:
        kind = result.outcome
        shown = ", ".join(map(str, result.faces)) + f" {modifier:+d}"  # the faces and their modifier, as morale shows
        if kind in ("survived", "landed"):
            if kind == "landed":
                es.markers.pop("airborne", None)
            ctx.emit("recovered", f"{es.name} recovers ({shown})" + (" and has landed" if kind == "landed" else ""),
                     element=es.id, faces=list(result.faces))
        elif kind == "weapons_lost":
            lost = es.data.setdefault("lost_weapons", [])
            element = self.element_of(state, es)
            names = [element.weapons[i].name for i in result.lost_weapons]
            lost.extend(result.lost_weapons)
            ctx.emit("weapon_lost", f"{es.name} loses {', '.join(names)} ({shown})", element=es.id,
                     weapons=list(result.lost_weapons))
        elif kind == "hit_point_lost":
            es.data["hp"] = result.hit_points_left
            ctx.emit("hit_point_lost", f"{es.name} loses a Hit Point ({shown}); {result.hit_points_left} left",
                     element=es.id)
        elif kind == "die_stepped":
            es.data["die"] = result.new_die
            ctx.emit("resilient", f"{es.name} is Resilient: its die drops to d{result.new_die} ({shown})", element=es.id)
        elif kind == "down":
            es.markers["down"] = True
            ctx.emit("down", f"{es.name} is Reliant: down, it rolls again next turn ({shown})", element=es.id)
        else:
            ctx.emit("destroyed", f"{es.name} is destroyed ({shown})", element=es.id)
            self._remove(state, ctx, es, by_side)
        if kind not in ("survived", "landed") and es.markers.pop("sticky", None):
            ctx.emit("sticky_gone", f"The Sticky marker on {es.name} goes with the failed recovery", element=es.id)

    def _remove(self, state: BattleState, ctx: Context, es: ElementState, by_side: str | None) -> None:
        es.alive = False
        es.markers.pop("sticky", None)
        unit = state.unit(es.unit)
        before = unit.data.get("lost", 0)
        unit.data["lost"] = before + 1
        self._loss_journal.append((unit, before))
        if unit.eliminated and unit.data.get("attached_to"):
            host = state.unit(unit.data["attached_to"])
            ctx.emit("officer_lost", f"{host.name} loses its officer {es.name}: no more +2 on morale", unit=host.id)
        if unit.eliminated:
            self._mark_eliminated(state, unit, by_side)
        self._orphans(state, ctx, by_side)

    def _orphans(self, state: BattleState, ctx: Context, by_side: str | None) -> None:
        """A-29: a Reliant element goes once everything it relies on has left the game."""
        if not self._static_any("reliant"):  # no Reliant element in this battle: nothing to look for
            return
        in_game = {e.id for u in state.units if not u.markers.get("removed") for e in u.living}
        for es in [e for u in state.units for e in u.living if e.data.get("reliant_on")]:
            if es.alive and orphaned(es.data["reliant_on"], in_game):
                ctx.emit("destroyed", f"{es.name} is removed: what it relies on has left the game (A-29)",
                         element=es.id, reliant=True)
                self._remove(state, ctx, es, by_side)

    def _mark_eliminated(self, state: BattleState, unit: UnitState, by_side: str | None) -> None:
        if by_side and by_side != unit.side:
            unit.data["eliminated_by"] = by_side
        officer = unit.data.get("officer")
        if officer:  # the attached officer is free again
            state.unit(officer).data["attached_to"] = ""
            unit.data["officer"] = ""
        host = unit.data.get("attached_to")
        if host:  # a lost officer no longer leads its unit
            state.unit(host).data["officer"] = ""
            unit.data["attached_to"] = ""
