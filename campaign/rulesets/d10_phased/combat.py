"""Who may attack, with which modifiers, and rolling a declaration (DP-10, DP-13, DP-15.3).

`declare` rolls a declaration's dice and holds the hits in the phase's ledger (DP-10.6);
`op_fire` rolls one and settles it at once (DP-13.3).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from fractions import Fraction
from typing import Any

from campaign.engine.dice import roll
from campaign.rulesets.d10_phased.attack import Contribution, Declaration, Hits, Ledger, hits_from_faces
from campaign.rulesets.d10_phased.damage import Outcome, settle
from campaign.rulesets.d10_phased.rolls import DIE
from campaign.rulesets.d10_phased.specials import ATTACKS_AFTER_MOVING, OBLIGATORY_TARGET, has_hook
from campaign.rulesets.d10_phased.state import CLOSE, ModelState, Roster

STATIONARY = "stationary"
MOVING = "moving"
OUT_OF_COMMAND = -1  # DP-6.2 item 2
MARKED = -2  # DP-15.3: pinned or routed, on every die


def why_cannot_attack(
    model: ModelState,
    kind: str,
    turn: int,
    *,
    all_stationary: bool = False,
    obligatory_target_ignored: bool = False,
) -> str | None:
    """DP-10.1: the reason the model may not attack in this phase, or None."""
    if not model.alive:
        return "it is no longer on the table"
    if model.op_fired:
        return "DP-13.3: it made an op attack this turn"
    if model.attacked:
        return "DP-10.1: it has attacked this turn"
    if model.crit_no_attack_turn == turn:
        return "DP-17: a critical hit stops its attacks this turn"
    if kind == STATIONARY and model.moved and not all_stationary and not has_hook(model.specials, ATTACKS_AFTER_MOVING):
        return "DP-10.1: it moved this turn, so it waits for the moving attack phase"
    if obligatory_target_ignored and has_hook(model.specials, OBLIGATORY_TARGET):
        return "DP-12.3: it must attack its obligatory target first"
    return None


def why_cannot_op_fire(
    model: ModelState,
    turn: int,
    *,
    op_fire_allowed: bool = True,
    legal_target_during_move: bool = True,
    worse_target_at_end: bool = True,
    blocked_only_by_own_model: bool = False,
) -> str | None:
    """DP-13.1 (AMB-29): a model that has not attacked may fire at a mover that was a legal
    target during its move and ends it a worse one, unless only its own side's model blocks."""
    if not op_fire_allowed:
        return "DP-5.2: no op fire this turn"
    reason = why_cannot_attack(model, MOVING, turn)
    if reason:
        return reason
    if not legal_target_during_move:
        return "DP-13.1 (a): the mover was never a legal target"
    if not worse_target_at_end:
        return "DP-13.1 (b): the mover does not end as a worse target"
    if blocked_only_by_own_model:
        return "DP-13.1: only your own model stands in the way"
    return None


def modifiers_for(model: ModelState, modifiers: Sequence[int] = ()) -> tuple[int, ...]:
    """The table's modifiers plus the ones the engine knows: out of command, a marker."""
    out = list(modifiers)
    if model.out_of_command:
        out.append(OUT_OF_COMMAND)
    if model.marker:
        out.append(MARKED)
    return tuple(out)


def contribution(
    model: ModelState,
    weapon: str = CLOSE,
    *,
    multipliers: Sequence[Fraction | int | str] = (),
    modifiers: Sequence[int] = (),
    dice: int | None = None,
) -> Contribution:
    """A model's part of a declaration with `weapon` (its current dice, or `dice` of them
    when a close attack divides its dice between touching enemies, DP-15.5)."""
    have = model.attack.get(weapon)
    if have is None:
        raise ValueError(f"{model.label} has no weapon {weapon!r}")
    use = have if dice is None else dice
    if not 0 <= use <= have:
        raise ValueError(f"{model.label} has {have} dice with {weapon}, not {use}")
    return Contribution(model.id, use, tuple(Fraction(m) for m in multipliers), modifiers_for(model, modifiers))


def declare(roster: Roster, ledger: Ledger, decl: Declaration) -> Generator[Any, Any, dict[str, Hits]]:
    """Roll every die of the declaration at once and hold the hits (DP-10.4, DP-10.6)."""
    if decl.target in ledger.targets:
        raise ValueError("AMB-30: a model is picked as a target once a phase")
    target = roster.model(decl.target)
    dice = decl.dice
    faces: tuple[int, ...] = ()
    if dice:
        faces = yield from roll(DIE, dice, f"{dice} x d{DIE} to hit {target.label}", target.side)
    scored = hits_from_faces(decl, faces)
    ledger.targets.append(decl.target)
    ledger.add(scored)
    for c in decl.contributions:
        roster.model(c.attacker).attacked = True
    for model_id, got in scored.items():
        hit = roster.model(model_id)
        hit.attacked_by += got.dice
        roster.unit_of(model_id).attacked_since_morale = True
    return scored


def op_fire(roster: Roster, decl: Declaration, turn: int) -> Generator[Any, Any, list[Outcome]]:
    """DP-13.3: roll and settle at once; the firer is done attacking for the turn."""
    ledger = Ledger()
    yield from declare(roster, ledger, decl)
    for c in decl.contributions:
        roster.model(c.attacker).op_fired = True
    return (yield from settle(roster, ledger, turn))
