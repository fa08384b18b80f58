"""Recovery rolls (spec section 13): which dice, which modifiers, and what a result does.

Resolution is staged so the same code serves the engine (which asks for dice) and
the odds (which enumerates every face): `recovery_plan` says which dice to roll,
`resolve_recovery` reads their faces, and on a Flying crash `resolve_crash` reads the
second roll.
"""

from __future__ import annotations

from typing import Any, Literal, Sequence

import attrs

from campaign.engine.quick import Kept, kept, quick_init
from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.attack import Hit
from campaign.rulesets.flat_out_war.engine.combatant import Arm, Combatant, Edition
from campaign.rulesets.flat_out_war.engine.rolls import Mod, step, step_capped, succeeds, total_of

# Recovery modifiers as data: (label, value, applies(target, hit, edition)).
RECOVERY_ROWS = (
    ("Tough", 1, lambda t, h, e: t.has("tough")),
    ("Unfeeling", 1, lambda t, h, e: t.has("unfeeling")),
    ("Frail", -1, lambda t, h, e: t.has("frail")),
    ("Penetrator", -1, lambda t, h, e: h is not None and h.penetrator and e == V17),
    ("Zap", -2, lambda t, h, e: h is not None and h.zap),
)

Outcome = Literal[
    "survived",  # passed: the hit marker is cleared
    "weapons_lost",  # multi-weapon: failed dice destroyed those weapons
    "crash",  # natural 1 while airborne: a second roll decides
    "hit_point_lost",  # [SO] Hit Points replace removal
    "die_stepped",  # [SO] Resilient: base die one step down
    "down",  # [SO] Reliant: stays, rolls again next owner-turn
    "removed",
    "landed",  # survived a crash
]


@quick_init
@attrs.frozen
class RecoveryPlan(Kept):
    dice: tuple[int, ...]  # one die, or one per surviving weapon
    weapons: tuple[int, ...]  # weapon indexes for multi-weapon rolls, else ()
    labels: tuple[str, ...]  # their names
    mods: tuple[Mod, ...]
    crash_die: int  # the die of a crash's second roll

    # (a plan is kept with the view it was made for and read again at each of its hits)
    @kept
    def modifier(self) -> int:
        return total_of(self.mods)

    @kept
    def mods_text(self) -> str:
        """The modifiers as the roll's purpose shows them: 'Tough +1, Zap -2' ('' if none)."""
        return ", ".join(f"{m.label} {m.value:+d}" for m in self.mods)


@quick_init
@attrs.frozen
class RecoveryResult:
    outcome: Outcome
    faces: tuple[int, ...]
    lost_weapons: tuple[int, ...] = ()  # weapon indexes
    new_die: int | None = None  # Resilient step
    hit_points_left: int | None = None

    @property
    def removed(self) -> bool:
        return self.outcome == "removed"


def recovery_mods(tgt: Combatant, hit: Hit | None, edition: Edition) -> tuple[Mod, ...]:
    return tuple(Mod(label, v) for label, v, ok in RECOVERY_ROWS if ok(tgt, hit, edition))


def recovery_plan(tgt: Combatant, hit: Hit | None, edition: Edition) -> RecoveryPlan:
    """Single weapon (or none, A-25): the current base die. Several ranged/mounted
    weapons: each surviving weapon's die. [SO] Adaptive Armor steps the die up one
    when the attacking die was smaller than the target's base die.

    The plan reads the (frozen) view and, of the hit, only what the key holds: it is kept
    with the view, which the battle shares while the element's state stays the same."""
    key = (_PLAN, edition, _adaptive(tgt, hit, edition), hit is not None and hit.penetrator,
           hit is not None and hit.zap)
    memo = tgt.memo
    plan = memo.get(key)
    if plan is None:
        # A view's first hit: the plan reads only its weapons, attributes and die, which
        # views of alike elements share (the same objects, as the rules make views from one
        # template), so the plan made for one of them stands for all.
        weapons, attributes = tgt.weapons, tgt.attributes
        shared = (id(weapons), id(attributes), tgt.die, *key[1:])
        found = _SHARED_PLANS.get(shared)
        if found is not None and found[0] is weapons and found[1] is attributes:
            plan = found[2]
        else:
            plan = recovery_plan_afresh(tgt, hit, edition)
            if len(_SHARED_PLANS) >= 4096:  # views of many battles in one process: keep it bounded
                _SHARED_PLANS.clear()
            _SHARED_PLANS[shared] = (weapons, attributes, plan)  # (they are kept with it: ids stay theirs)
        memo[key] = plan
    return plan


_PLAN = "recovery_plan"  # its keys in a view's memo
# (id(weapons), id(attributes), die, edition, adaptive, penetrator, zap) -> (weapons, attributes, plan)
_SHARED_PLANS: dict[tuple[Any, ...], tuple[tuple[Arm, ...], frozenset[str], RecoveryPlan]] = {}


def _adaptive(tgt: Combatant, hit: Hit | None, edition: Edition) -> bool:
    return (
        edition == SO
        and hit is not None
        and 0 < hit.attack_die < tgt.die  # 0: not an attack (terrain, a destroyed transport)
        and "adaptive armor" in tgt.attributes
    )


def recovery_plan_afresh(tgt: Combatant, hit: Hit | None, edition: Edition) -> RecoveryPlan:
    """`recovery_plan` worked out anew."""
    up = 1 if _adaptive(tgt, hit, edition) else 0
    arms = tgt.recovery_weapons
    if len(arms) >= 2:
        dice = tuple(step_capped(w.die, up) for w in arms)
        names = tuple(w.index for w in arms)
        labels = tuple(w.name for w in arms)
    else:
        dice, names, labels = (step_capped(tgt.die, up),), (), ()
    return RecoveryPlan(dice, names, labels, recovery_mods(tgt, hit, edition), step_capped(tgt.die, up))


def _replace_removal(tgt: Combatant, faces: tuple[int, ...]) -> RecoveryResult:
    """A-26 order: Hit Points, then Resilient, then Reliant; otherwise removed."""
    if tgt.hit_points > 0:
        return RecoveryResult("hit_point_lost", faces, hit_points_left=tgt.hit_points - 1)
    if tgt.has("resilient"):
        smaller = step(tgt.die, -1)
        if smaller is not None:
            return RecoveryResult("die_stepped", faces, new_die=smaller)
    if tgt.has("reliant"):
        return RecoveryResult("down", faces)
    return RecoveryResult("removed", faces)


def resolve_recovery(tgt: Combatant, plan: RecoveryPlan, faces: Sequence[int]) -> RecoveryResult:
    faces = tuple(faces)
    if len(faces) != len(plan.dice):
        raise ValueError(f"recovery needs {len(plan.dice)} dice, got {len(faces)}")
    if tgt.airborne and 1 in faces:  # the crash check comes first
        return RecoveryResult("crash", faces)
    if len(faces) == 1:  # (one die, most recoveries: no list of passes)
        if succeeds(faces[0], plan.modifier):
            return RecoveryResult("survived", faces)
        if not plan.weapons:
            return _replace_removal(tgt, faces)
    passed = [succeeds(f, plan.modifier) for f in faces]
    if all(passed):
        return RecoveryResult("survived", faces)
    if plan.weapons:
        if not any(passed):  # every remaining weapon failed at once
            return _replace_removal(tgt, faces)
        lost = tuple(n for n, ok in zip(plan.weapons, passed) if not ok)
        return RecoveryResult("weapons_lost", faces, lost_weapons=lost)
    return _replace_removal(tgt, faces)


def resolve_crash(plan: RecoveryPlan, first: Sequence[int], face: int) -> RecoveryResult:
    """The crash's second roll on the base die: 4+ survives and has landed."""
    faces = (*first, face)
    if succeeds(face, plan.modifier):
        return RecoveryResult("landed", faces)
    return RecoveryResult("removed", faces)


# --- misfire (spec 14): a recovery-style roll on the caster's base die -----------------

MISFIRE_TABLE: tuple[tuple[int, str, int], ...] = (
    # (lowest total, result, lockout owner-turns); checked top down
    (4, "no further effect", 0),
    (3, "cannot cast for 1 turn", 1),
    (2, "cannot cast for 2 turns", 2),
)


@quick_init
@attrs.frozen
class MisfireResult:
    face: int
    total: int
    text: str
    lockout: int
    killed: bool


def misfire_mods(caster: Combatant, edition: Edition) -> tuple[Mod, ...]:
    """A-34: recovery modifiers apply (only those of the caster: no hit source)."""
    return recovery_mods(caster, None, edition)


def resolve_misfire(caster: Combatant, face: int, edition: Edition) -> MisfireResult:
    total = face + total_of(misfire_mods(caster, edition))
    for lowest, text, lockout in MISFIRE_TABLE:
        if total >= lowest:
            return MisfireResult(face, total, text, lockout, killed=False)
    return MisfireResult(face, total, "caster killed", 0, killed=True)
