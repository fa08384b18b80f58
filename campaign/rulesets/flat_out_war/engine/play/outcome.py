"""The end of a battle: objectives and strategic victory, when it is over and why, VPs,
and the outcome handed to the campaign."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from campaign.engine.errors import IllegalCommand
from campaign.engine.setup import BattleSetup
from campaign.engine.state import BattleState, ElementState
from campaign.rulesets.flat_out_war.engine.combatant import combatant_from_element
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution
from campaign.rulesets.flat_out_war.engine.victory import display_vp, unit_vp
from campaign.rulesets.flat_out_war.engine.commands import Objective, StrategicVictory

if TYPE_CHECKING:
    from campaign.engine.context import Context


class OutcomeMixin(PlayHelpers):
    """`FlatOutWarRules`' objectives, end of battle, VPs and outcome."""

    _setup: BattleSetup | None

    def _check_objective(self, state: BattleState, cmd: Objective) -> None:
        if cmd.side not in state.side_ids():
            raise IllegalCommand("FOW 18", f"there is no side {cmd.side!r}")
        known = {o.name for o in (self._setup.scenario.objectives if self._setup else ())}
        if cmd.objective not in known:
            raise IllegalCommand("FOW 18", f"the scenario has no objective {cmd.objective!r} "
                                           f"(objectives: {', '.join(sorted(known)) or 'none'})")
        assert self._setup is not None
        claims = {side: list(done) for side, done in state.data.get("objectives", {}).items()}
        claims.setdefault(cmd.side, []).append(cmd.objective)
        clash = self._setup.scenario.claim_problem(claims, {side.id: side.name for side in state.sides})
        if clash:
            raise IllegalCommand("FOW 18", clash)

    def _check_strategic_victory(self, state: BattleState, cmd: StrategicVictory) -> None:
        if cmd.side not in state.side_ids():
            raise IllegalCommand("FOW 18", f"there is no side {cmd.side!r}")

    def _do_objective(self, state: BattleState, cmd: Objective, ctx: Context) -> Resolution:
        done = state.data.setdefault("objectives", {}).setdefault(cmd.side, [])
        if cmd.objective not in done:
            done.append(cmd.objective)
        ctx.emit("objective", f"{state.side(cmd.side).name} achieves objective {cmd.objective}", side=cmd.side)
        return
        yield  # pragma: no cover

    def _do_strategic_victory(self, state: BattleState, cmd: StrategicVictory, ctx: Context) -> Resolution:
        state.data["strategic_winner"] = cmd.side
        state.over = True
        state.end_reason = f"strategic victory: {state.side(cmd.side).name}"
        ctx.emit("strategic_victory", f"{state.side(cmd.side).name} completes its objective: strategic victory",
                 side=cmd.side)
        return
        yield  # pragma: no cover

    def is_over(self, state: BattleState) -> bool:
        if state.data.get("strategic_winner"):
            return True
        self._living(state)  # (asked after every step: the count is kept with the standing units)
        return self._sides_standing < 2

    def end_reason(self, state: BattleState) -> str:
        if state.data.get("strategic_winner"):
            return f"strategic victory: {state.side(state.data['strategic_winner']).name}"
        standing = {u.side for u in state.units if not u.eliminated}
        if len(standing) == 1:
            return f"only {state.side(standing.pop()).name} has units left"
        return "no units left"

    def vp_lines(self, state: BattleState) -> dict[str, list[tuple[str, Fraction, str]]]:
        lines: dict[str, list[tuple[str, Fraction, str]]] = {s.id: [] for s in state.sides}
        for unit in state.units:
            if not unit.eliminated or unit.data.get("absent"):
                continue
            vp = unit_vp(unit.data.get("cost", 0), summoned=bool(unit.data.get("summon_die")))
            by = unit.data.get("eliminated_by")
            earners = [by] if by else [s for s in lines if s != unit.side]
            how = "fled" if unit.data.get("fled") else "eliminated"
            for side in earners:
                lines[side].append((f"{unit.name} {how} (25% of {display_vp(Fraction(unit.data.get('cost', 0)))})",
                                    vp, "unit"))
        objectives = {o.name: o for o in (self._setup.scenario.objectives if self._setup else ())}
        for side, done in state.data.get("objectives", {}).items():
            for oid in done:
                o = objectives.get(oid)
                if o is not None:
                    lines[side].append((f"objective {o.name}", Fraction(o.vp), "objective"))
        return lines

    def victory_points(self, state: BattleState) -> dict[str, Fraction]:
        return {side: sum((v for _, v, _ in rows), Fraction(0)) for side, rows in self.vp_lines(state).items()}

    def outcome(self, state: BattleState) -> Any:
        from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine

        lines = self.vp_lines(state)
        sides = []
        for s in state.sides:
            casualties = []
            units = [u for u in state.units if u.side == s.id and not u.data.get("summon_die")]
            for unit in units:
                entries: dict[int, list[ElementState]] = {}
                for es in unit.elements:
                    entries.setdefault(es.entry, []).append(es)
                for entry, group in sorted(entries.items()):
                    lost = sum(1 for e in group if not e.alive) + (
                        sum(1 for e in group if e.alive) if unit.data.get("fled") else 0)
                    changes: dict[str, int | str] = {}
                    base = combatant_from_element(self.element_of(state, group[0])).die
                    smallest = min((e.data.get("die", base) for e in group if e.alive), default=base)
                    if smallest != base:
                        changes["die"] = f"d{smallest}"
                    if lost or changes:
                        casualties.append(Casualty(unit.name, group[0].name, entry, lost, changes))
            sides.append(SideOutcome(
                side=s.id,
                vp_lines=tuple(VPLine(label, vp, kind) for label, vp, kind in lines[s.id]),  # type: ignore[arg-type]
                units_eliminated=tuple(u.name for u in units if u.eliminated and not u.data.get("absent")),
                casualties=tuple(casualties),
            ))
        return BattleOutcome(sides=tuple(sides), rounds_played=state.round, end_reason=state.end_reason,
                             strategic_winner=state.data.get("strategic_winner") or None)
