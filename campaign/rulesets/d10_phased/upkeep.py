"""Per-turn bookkeeping: flags cleared at the start of a turn (3.1 TURN_START), the
critical "no move" flag spent by a movement phase, Senseless Slaughter's mindless models."""

from __future__ import annotations

from collections.abc import Collection

from campaign.rulesets.d10_phased.state import Roster


def start_turn(roster: Roster) -> None:
    for model in roster.models.values():
        model.moved = model.attacked = model.op_fired = model.ran_away = model.indiv_checked = False
        model.mindless = False
    for unit in roster.units.values():
        unit.checked_this_turn = False


def end_movement_phase(roster: Roster, side: str) -> None:
    """DP-17 (AMB-21): a critical "no move" lasts the model's next own movement phase."""
    for model in roster.side_models(side):
        model.crit_no_move = False


def senseless_slaughter(roster: Roster, spared: Collection[str]) -> None:
    """DP-5.2 option 6: every model is mindless this turn but one per unit its owner picks
    (a character is its own spared model, AMB-10)."""
    for unit in roster.units.values():
        alive = [roster.model(m) for m in unit.models if roster.model(m).alive]
        picked = [m for m in alive if m.id in spared]
        if len(picked) > 1:
            raise ValueError(f"DP-5.2: one model of {unit.name} may be spared, not {len(picked)}")
        keep = picked[0].id if picked else (alive[0].id if unit.character and alive else None)
        for model in alive:
            model.mindless = model.id != keep
