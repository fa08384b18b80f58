"""What happens the moment a charge makes contact (section 8, A-17, A-18): contact is
recorded both ways, then (1) [SO] each charged unit, or each loose element for itself,
may turn to face the charger, then (2) Stand shots, resolved in full, and only then
(3) the charger goes on with its activation. `engine.contact` keeps who touches whom."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.engine.commands import Choose
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision
from campaign.engine.state import BattleState, ElementState, UnitState, marks_epoch
from campaign.rulesets.flat_out_war.editions import SO
from campaign.rulesets.flat_out_war.engine import contact
from campaign.rulesets.flat_out_war.engine.commands import Report
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution
from campaign.rulesets.flat_out_war.engine.situation import Situation

if TYPE_CHECKING:
    from campaign.engine.context import Context

FACED = "faced"  # element marker: turned to meet the charge of this unit id, until its activation ends


class ChargeMixin(PlayHelpers):
    """Charges of `FlatOutWarRules` (rules.py), which mixes this in."""

    edition: str
    options: dict[str, Any]

    def _contact_made(self, state: BattleState, ctx: Context, charger: UnitState, defenders: list[UnitState],
                      elsewhere: set[str]) -> Resolution:
        """A-18's order on contact: every charged unit turns first, then the Stand shots."""
        charger.markers["charging"] = True
        charger.markers["charged"] = defenders[0].id
        ctx.emit("charge", f"{charger.name} charges {', '.join(u.name for u in defenders)}", unit=charger.id,
                 targets=[u.id for u in defenders])
        for defender in defenders:
            contact.engage(charger, defender)
        for defender in defenders:
            yield from self._face_charge(state, ctx, charger, defender, elsewhere)
        for defender in defenders:
            yield from self._stand(state, ctx, charger, defender)

    def _face_charge(self, state: BattleState, ctx: Context, charger: UnitState, defender: UnitState,
                     elsewhere: set[str]) -> Resolution:
        """[SO] A charged unit may turn to face its charger, for free, unless it already
        touches another enemy; in a loose unit each element decides for itself, on the same
        condition. `elsewhere`: the players' ids of units or elements touching another enemy
        (an element of a tight unit touching another enemy holds the whole unit)."""
        if self.edition != SO or not self.options["face_charge_prompt"] or charger.eliminated:
            return
        able = list(self._able(state, defender))  # (a list: `turned == able` below)
        if not able:
            return
        others = [u for u in contact.touching(state, defender) if u.id != charger.id]
        prompt = f"{defender.name} is charged by {charger.name}"
        if not self._loose(state, defender):
            if others or elsewhere & {defender.id, *(e.id for e in defender.elements)}:
                what = others[0].name if others else "another enemy"
                ctx.emit("no_turn", f"{defender.name} already touches {what}: it cannot turn to meet the charge "
                                    "(A-18)", unit=defender.id)
                return
            choice = yield Decision(defender.side, f"{prompt}: turn to face the charge? (free, before any Stand "
                                                   "shot, A-18)", (
                CommandSpec("choose", {"option": "turn"}, (), f"Turn to face {charger.name}"),
                CommandSpec("choose", {"option": "stay"}, (), "Hold the present facing")))
            turned = able if isinstance(choice, Choose) and choice.option == "turn" else []
        else:
            free = [e for e in able if e.id not in elsewhere]
            if not free:
                ctx.emit("no_turn", f"Every element of {defender.name} already touches another enemy: none can "
                                    "turn to meet the charge (A-18)", unit=defender.id)
                return
            also = f" {defender.name} also touches {', '.join(u.name for u in others)}." if others else ""
            choice = yield Decision(defender.side, f"{prompt}: each element not already touching another enemy "
                                                   f"may turn to face it (free, A-18).{also}", (
                CommandSpec("choose", {"option": "all"}, (), "Every element that may turns"),
                CommandSpec("choose", {"option": "none"}, (), "No element turns"),
                CommandSpec("report", {}, (), "Name the elements that turn")),
                data={"pick_elements": [e.id for e in free]})
            turned = self._turning(defender, able, free, choice)
        for es in turned:
            es.markers[FACED] = charger.id
            self._faced_marked.append(es)
        if not turned:
            ctx.emit("hold", f"{defender.name} holds its facing", unit=defender.id)
        elif turned == able:
            ctx.emit("face", f"{defender.name} turns to face {charger.name} (A-18)", unit=defender.id)
        else:
            for es in turned:
                ctx.emit("face", f"{es.name} turns to face {charger.name} (A-18)", element=es.id)

    def _turning(self, defender: UnitState, able: list[ElementState], free: list[ElementState],
                 choice: Any) -> list[ElementState]:
        """The loose elements the owner turns: all that may, none, or those it names."""
        if not isinstance(choice, Report):
            return free if isinstance(choice, Choose) and choice.option == "all" else []
        for eid in choice.elements:
            es = next((e for e in able if e.id == eid), None)
            if es is None:
                raise IllegalCommand("FOW 8", f"{defender.name} has no element {eid!r} that can turn")
            if es not in free:
                raise IllegalCommand("FOW 8 A-18", f"{es.name} already touches another enemy: it cannot turn")
        return [e for e in free if e.id in choice.elements]

    def _stand(self, state: BattleState, ctx: Context, charger: UnitState, defender: UnitState) -> Resolution:
        """A-18: a charged unit's Stand elements may take a free shot at the charger."""
        if not self._static_any("stand"):  # no element of the battle was created with Stand
            return
        shooters = [e for e in self._able(state, defender) if "stand" in self._bought(state, e)[0]
                    and self.combatant(state, e).has("stand") and self.combatant(state, e).ranged]
        room = self._rank_room(state, defender, "shoot", 0)  # a tight unit: its first two ranks
        if room is not None:
            shooters = shooters[:room]
        if not shooters or not self.options["stand_prompt"] or charger.eliminated:
            return
        choice = yield Decision(defender.side, f"{defender.name} is charged by {charger.name}: take the free Stand shot?", (
            CommandSpec("choose", {"option": "stand"}, (), "Take the Stand shot"),
            CommandSpec("choose", {"option": "decline"}, (), "Decline")))
        if isinstance(choice, Choose) and choice.option == "stand":
            ctx.emit("stand", f"{defender.name} takes a Stand shot at {charger.name}", unit=defender.id)
            sit = Situation(attacker_effects=self.effects_on(state, defender.id),
                            target_effects=self.effects_on(state, charger.id))
            yield from self._fire(state, ctx, defender, charger, shooters, sit, None)

    def _faced_clear(self, state: BattleState) -> None:
        """A turn to meet a charge holds for the charger's activation; after it, the
        players' aspect facts take over again."""
        clean = self._faced_clean
        if clean is not None and clean[0] is state and clean[1] == marks_epoch():
            # no markers put back since the last clearing: only the elements turned since can
            # carry the marker (none, mostly)
            for es in self._faced_marked:
                markers = es.markers
                if markers and FACED in markers:
                    del markers[FACED]
            self._faced_marked = []
            return
        for unit in state.units:
            for es in unit.elements:
                markers = es.markers
                if markers and FACED in markers:
                    del markers[FACED]
        self._faced_marked = []
        self._faced_clean = (state, marks_epoch())
