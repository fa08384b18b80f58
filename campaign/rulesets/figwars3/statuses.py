"""Damage, pins and stun on one model (spec 12.1-12.3, PR-10, PR-62), and the order in
which its actions must go to clearing them."""

from __future__ import annotations

import attrs

from campaign.rulesets.figwars3.turn import ACTION_COSTS


@attrs.frozen
class ModelState:
    dp: int
    pins: int = 0
    stunned: bool = False
    incapacitated_turn: int | None = None  # PR-62: the turn it fell to exactly 0 DP
    removed: bool = False

    def hit(self, dp: int, pin: bool, turn: int, aggressive: bool = False, medic_on_table: bool = False) -> ModelState:
        """Apply one attack's DP and pin. Below 0 DP the model is removed at once; at exactly
        0 it is incapacitated when a medic could still save it (PR-62), else removed."""
        left = self.dp - dp
        pins = self.pins + (1 if pin and not aggressive else 0)
        if left < 0 or (left == 0 and not medic_on_table):
            return attrs.evolve(self, dp=left, pins=pins, removed=True)
        if left == 0:
            return attrs.evolve(self, dp=0, pins=pins, incapacitated_turn=turn)
        return attrs.evolve(self, dp=left, pins=pins)

    def stun(self) -> ModelState:
        return attrs.evolve(self, stunned=True)  # only one stun at a time

    def heal(self, dp: int, start_dp: int) -> ModelState:
        """A successful treatment: healed DP up to the starting value; pins and stun stay."""
        return attrs.evolve(self, dp=min(self.dp + dp, start_dp), incapacitated_turn=None)

    def turn_end(self, turn: int) -> ModelState:
        """PR-62: an incapacitated model left untreated through the turn after its fall dies."""
        if self.incapacitated_turn is not None and turn > self.incapacitated_turn:
            return attrs.evolve(self, removed=True)
        return self

    @property
    def casualty(self) -> bool:
        """Counts for its unit's panic level (PR-41): at 0 DP or below, saved or not."""
        return self.dp <= 0

    def clearing(self, actions: int) -> tuple[ModelState, int, list[str]]:
        """Spend actions clearing stun (2 actions) before pins (1 each). Returns the new
        state, the actions left for anything else, and what was done."""
        done: list[str] = []
        state = self
        if state.stunned:
            if actions < ACTION_COSTS["remove_stun"]:
                return state, 0, ["still stunned"]
            actions -= ACTION_COSTS["remove_stun"]
            state = attrs.evolve(state, stunned=False)
            done.append("stun cleared")
        while state.pins and actions >= ACTION_COSTS["remove_pin"]:
            actions -= ACTION_COSTS["remove_pin"]
            state = attrs.evolve(state, pins=state.pins - 1)
            done.append("pin cleared")
        if state.pins:
            return state, 0, done
        return state, actions, done
