"""Morale in play: casualty rolls, who rolls and with what, witnesses of a failure,
and rallying. The thresholds and the flee/rally state machine are in `engine.morale`."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision
from campaign.engine.state import BattleState, UnitState
from campaign.rulesets.flat_out_war.engine import morale as M
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution
from campaign.rulesets.flat_out_war.engine.commands import Rally

if TYPE_CHECKING:
    from campaign.engine.context import Context


class MoraleMixin(PlayHelpers):
    """`FlatOutWarRules`' morale and rally rolls."""

    edition: str
    options: dict[str, Any]

    def _losses_morale(self, state: BattleState, ctx: Context, mark: int) -> Resolution:
        """One casualty morale roll per unit whose losses passed a new 25% threshold since
        `mark` (from `_loss_mark`), in unit order."""
        journal = self._loss_journal
        if len(journal) == mark:  # no element lost since the mark: the common case
            return
        units = list(state.units)
        first: dict[int, int] = {}  # id(unit) -> its count before its first loss since the mark
        queue: list[int] = []  # places (in units) of units with new losses, not reached yet
        read, at = mark, -1
        while True:
            # the journal grows while this loop rolls (a failed morale can cost more losses):
            # a unit after the one just checked is still to come, an earlier one is passed
            while read < len(journal):
                u, pre = journal[read]
                read += 1
                if id(u) not in first:
                    first[id(u)] = pre
                    place = self._unit_place(state, u)  # (a unit added since is not looked at)
                    if place is not None and at < place < len(units) and units[place] is u:
                        heapq.heappush(queue, place)
            if not queue:
                return
            at = heapq.heappop(queue)
            unit = units[at]
            before = first[id(unit)]
            lost = unit.data.get("lost", 0)
            if lost == before:  # (a card scheme may have put a loss back)
                continue
            if unit.eliminated or not M.casualty_trigger(before, lost, unit.data.get("start", 0)):
                continue
            yield from self._morale(state, ctx, unit, "casualties")

    def _unit_place(self, state: BattleState, unit: UnitState) -> int | None:
        """The unit's place in `state.units` (None if it is not there): from a map kept with
        the list (and its length) it was made of, checked on use and made again if wrong."""
        units = state.units
        kept = self._unit_places
        if kept is not None and kept[0] is units and kept[1] == len(units):
            place = kept[2].get(id(unit))
            if place is not None and units[place] is unit:
                return place
        self._unit_places = (units, len(units), {id(u): i for i, u in enumerate(units)})
        return self._unit_places[2].get(id(unit))

    def _morale_roll(self, state: BattleState, unit: UnitState, rally: bool) -> tuple[M.MoraleRoll | None, Any]:
        cs = [(e, self.combatant(state, e)) for e in unit.living]
        officer = None
        officer_es = None
        if unit.data.get("officer"):
            o = state.unit(unit.data["officer"])
            if o.living:
                officer_es = o.living[0]
                officer = self.combatant(state, officer_es)
        rank = [(e, c) for e, c in cs]
        if officer is None:
            leaders = [(e, c) for e, c in cs if c.has("command")]
            if leaders and len(leaders) < len(cs):  # an officer inside the unit leads it
                officer_es, officer = leaders[0]
                rank = [(e, c) for e, c in cs if e is not officer_es]
        roll = M.morale_roll([c for _, c in rank], unit.data.get("start", 0), unit.data.get("lost", 0),
                             edition=self.edition, officer=officer, effects=self.effects_on(state, unit.id), rally=rally)
        roller = None
        if roll is not None:
            everyone = rank + ([(officer_es, officer)] if officer is not None else [])
            roller = next((e for e, c in everyone if c.name == roll.roller and c.die == roll.die), None)
        return roll, roller

    def _morale(self, state: BattleState, ctx: Context, unit: UnitState, reason: str, rally: bool = False) -> Resolution:
        roll, roller = self._morale_roll(state, unit, rally)
        if roll is None:
            ctx.emit("no_morale", f"{unit.name} never takes morale rolls (officers and Unfeeling)", unit=unit.id)
            return True
        mods = ", ".join(f"{m.label} {m.value:+d}" for m in roll.mods)
        what = "rally" if rally else "morale"
        (face,) = yield from self._roll(state, ctx, roll.die, 1, f"1 x d{roll.die} {what}, {unit.name} ({reason})"
                                        + (f" ({mods})" if mods else ""), unit.side, roller)
        passed = roll.passes(face)
        old = unit.data.get("morale", "steady")
        if rally:
            unit.data["morale"] = M.after_rally(old, passed)
        else:
            unit.data["morale"] = M.after_morale(old, passed)
        verdict = "passes" if passed else "fails"
        ctx.emit(f"{what}_{'pass' if passed else 'fail'}",
                 f"{unit.name} {verdict} its {what} roll ({face} {roll.modifier:+d})"
                 + ("" if passed or rally else ": broken, it flees when next activated"),
                 unit=unit.id, face=face, modifier=roll.modifier, reason=reason)
        if not passed:
            yield from self._witnesses(state, ctx, unit)
        return passed

    def _witnesses(self, state: BattleState, ctx: Context, failed: UnitState) -> Resolution:
        """Seeing panic (A-45): units within 8" with LoS roll, one roll per failure seen."""
        if not self.options["ask_witnesses"]:
            return
        others = [u for u in self._standing(state) if u.id != failed.id
                  and u.data.get("morale") in ("steady", "rallied")]
        if not others:
            return
        answer = yield Decision(failed.side, f"Which units within 8\" with line of sight saw {failed.name} fail? "
                                             "(report none if no unit saw it)",
                                (CommandSpec("report", {}, (), "Report the units that saw it"),),
                                data={"pick_units": [u.id for u in others]})
        for uid in getattr(answer, "units", []):
            try:
                other = state.unit(uid)
            except KeyError:
                raise IllegalCommand("FOW 15.1", f"there is no unit {uid!r}") from None
            if any(other is u for u in others):  # (by identity: == compares whole unit states)
                yield from self._morale(state, ctx, other, f"saw {failed.name} fail")

    def _do_rally(self, state: BattleState, cmd: Rally, ctx: Context) -> Resolution:
        unit = state.unit(cmd.unit)
        unit.markers["rally_tried"] = True
        yield from self._morale(state, ctx, unit, "rally", rally=True)
