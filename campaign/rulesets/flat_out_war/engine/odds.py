"""Exact odds for a declared attack, by enumerating every die face through the same
resolution functions the engine uses (no sampling, no separate formulas).

Each attack is one roll (one element's melee roll, or one shot of one weapon) aimed
at one target element. Attacks are dealt to the target unit's elements in turn
(round robin), as a player spreading hits would; each target element's state (Hit
Points, Resilient die, weapons, airborne, down) is followed exactly through the
hits it takes, and the unit's casualties are the convolution over its elements.
A burst template's victims are its `area` (declare.template_area, the list the engine
resolves); Lucky re-rolls follow the policy "re-roll every missed attack die and every
failed one-die recovery roll" (the engine's Lucky offer says which faces those are).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import product
from typing import Any, Sequence

import attrs

from campaign.engine.odds import AttackOdds as CoreOdds
from campaign.engine.quick import quick_init
from campaign.engine.report import OddsReport
from campaign.rulesets.flat_out_war.engine.attack import Hit
from campaign.rulesets.flat_out_war.engine.combatant import Combatant
from campaign.rulesets.flat_out_war.engine.recovery import RecoveryResult, recovery_plan, resolve_crash, resolve_recovery
from campaign.rulesets.flat_out_war.engine.rolls import Mod, p_success, succeeds, total_of

State = Combatant | None  # None: removed from the game
Dist = dict[State, Fraction]


@quick_init
@attrs.frozen
class AttackSpec:
    """One declared attack roll."""

    label: str  # "Marine 1: bolter shot 2"
    die: int
    mods: tuple[Mod, ...]
    hit: Hit
    blocked: str = ""  # why it cannot harm (Heavy Armour gate): no roll, no hit
    harmless: bool = False  # hits but does no damage (Capture, Ensnare)
    spell: bool = False  # a casting roll: a natural 1 misfires and fails
    target_index: int | None = None  # which target element; None: round robin
    covers: int = 1  # Fireball: on success every covered element takes a hit
    attacker: str = ""  # the attacking element's key (battle element id)
    target_key: str = ""  # the declared target element's key
    weapon: int | None = None  # weapon index, for ranged attacks
    lucky: Fraction = Fraction(0)  # chance the attacker's Lucky re-roll is still there if this roll misses
    area: tuple["AreaVictim", ...] = ()  # a burst template: who is under it and how each is hit

    @property
    def p_roll(self) -> Fraction:
        """One roll's chance, before any Lucky re-roll."""
        if self.blocked:
            return Fraction(0)
        if self.spell:
            good = sum(1 for f in range(2, self.die + 1) if succeeds(f, total_of(self.mods)))
            return Fraction(good, self.die)
        return p_success(self.die, total_of(self.mods))

    @property
    def p_hit(self) -> Fraction:
        """With Lucky, a miss is re-rolled (the better face kept) while the re-roll lasts."""
        p = self.p_roll
        return p + (1 - p) * self.lucky * p


@quick_init
@attrs.frozen
class AreaVictim:
    """One element under a burst template once the aiming roll succeeds: hit outright, or
    rolled for with its own modifiers; `blocked` says why it cannot be harmed (A-19)."""

    key: str  # the battle's element id
    rolled: bool
    die: int
    mods: tuple[Mod, ...]
    hit: Hit
    blocked: str = ""

    @property
    def p_roll(self) -> Fraction:
        if self.blocked:
            return Fraction(0)
        return Fraction(1) if not self.rolled else p_success(self.die, total_of(self.mods))


def lucky_rolls(specs: Sequence[AttackSpec], ready: set[str]) -> list[AttackSpec]:
    """The attackers in `ready` re-roll their first miss (A-67, once): each of their rolls,
    in the order they are made, has the re-roll left only if every earlier one hit."""
    left: dict[str, Fraction] = {key: Fraction(1) for key in ready}
    out = []
    for spec in specs:
        if spec.attacker in left and not spec.blocked and not spec.spell:
            out.append(attrs.evolve(spec, lucky=left[spec.attacker]))
            left[spec.attacker] *= spec.p_roll
        else:
            out.append(spec)
    return out


@attrs.frozen
class AttackOdds:
    attacks: tuple[AttackSpec, ...]
    p_hit: tuple[Fraction, ...]
    p_casualty: tuple[Fraction, ...]  # each attack alone against its fresh target element
    expected_casualties: Fraction
    casualties: dict[int, Fraction]

    def as_dict(self, exact: bool = False) -> dict[str, object]:
        num = (lambda f: f"{f.numerator}/{f.denominator}") if exact else (lambda f: round(float(f), 6))
        return {
            "attacks": [
                {"label": a.label, "die": f"d{a.die}", "modifier": total_of(a.mods),
                 "modifiers": {m.label: m.value for m in a.mods}, "blocked": a.blocked or None,
                 "p_hit": num(ph), "p_casualty": num(pc)}
                for a, ph, pc in zip(self.attacks, self.p_hit, self.p_casualty)
            ],
            "p_hit": [num(p) for p in self.p_hit],
            "p_casualty": [num(p) for p in self.p_casualty],
            "expected_casualties": num(self.expected_casualties),
            "casualties": {str(k): num(v) for k, v in sorted(self.casualties.items())},
        }


def recovery_outcomes(target: Combatant, hit: Hit, edition: str) -> Dist:
    """Every state a target can be in after one hit, with its exact probability. A Lucky
    target with its re-roll left re-rolls a failed one-die recovery and keeps the better
    face (as the engine's Lucky offer does)."""
    if target.down:  # attacks on a down Reliant element have no further effect
        return {target: Fraction(1)}
    plan = recovery_plan(target, hit, edition)
    out: Dist = defaultdict(Fraction)
    weight = Fraction(1)
    for die in plan.dice:
        weight /= die
    rolls: list[tuple[tuple[int, ...], Fraction, Combatant]] = []
    for faces in product(*(range(1, d + 1) for d in plan.dice)):
        if target.lucky_ready and len(plan.dice) == 1 and resolve_recovery(target, plan, faces).outcome != "survived":
            spent = attrs.evolve(target, lucky_ready=False)
            rolls.extend(((max(faces[0], f),), weight / plan.dice[0], spent) for f in range(1, plan.dice[0] + 1))
        else:
            rolls.append((faces, weight, target))
    for faces, weight, target in rolls:
        result = resolve_recovery(target, plan, faces)
        if result.outcome == "crash":
            for face in range(1, plan.crash_die + 1):
                second = resolve_crash(plan, faces, face)
                after = None if second.removed else attrs.evolve(target, airborne=False)
                out[after] += weight / plan.crash_die
            continue
        out[apply_result(target, result)] += weight
    return dict(out)


def apply_result(target: Combatant, result: RecoveryResult) -> State:
    kind = result.outcome
    if kind == "removed":
        return None
    if kind == "weapons_lost":
        gone = set(result.lost_weapons)
        return attrs.evolve(target, weapons=tuple(w for w in target.weapons if w.index not in gone))
    # resolve_recovery always sets the number its outcome names
    if kind == "hit_point_lost":
        assert result.hit_points_left is not None
        return attrs.evolve(target, hit_points=result.hit_points_left)
    if kind == "die_stepped":
        assert result.new_die is not None
        return attrs.evolve(target, die=result.new_die)
    if kind == "down":
        return attrs.evolve(target, down=True)
    if kind == "landed":
        return attrs.evolve(target, airborne=False)
    return target


def _take_hit(dist: Dist, hit: Hit, edition: str) -> Dist:
    out: Dist = defaultdict(Fraction)
    for state, weight in dist.items():
        if state is None:
            out[state] += weight
            continue
        for after, q in recovery_outcomes(state, hit, edition).items():
            out[after] += weight * q
    return dict(out)


def _after_attack(dist: Dist, attack: AttackSpec, edition: str) -> Dist:
    p = attack.p_hit
    if p == 0 or attack.harmless:
        return dist
    return _mix(dist, _take_hit(dist, attack.hit, edition), p)


def _convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for i, p in a.items():
        for j, q in b.items():
            out[i + j] += p * q
    return dict(out)


def _element_loss(dist: Dist) -> dict[int, Fraction]:
    removed = dist.get(None, Fraction(0))
    return {0: 1 - removed, 1: removed} if removed else {0: Fraction(1)}


def attack_odds(attacks: Sequence[AttackSpec], targets: Sequence[Combatant], edition: str) -> AttackOdds:
    """The exact distribution of casualties the attacks cause in the target unit."""
    if not targets:
        raise ValueError("the target unit has no elements left")
    p_hit = tuple(a.p_hit for a in attacks)
    p_cas = []
    for i, a in enumerate(attacks):
        target = targets[a.target_index if a.target_index is not None else i % len(targets)]
        p_cas.append(_after_attack({target: Fraction(1)}, a, edition).get(None, Fraction(0)))
    casualties = _unit_casualties(attacks, targets, edition)
    expected = sum((k * p for k, p in casualties.items()), Fraction(0))
    return AttackOdds(tuple(attacks), p_hit, tuple(p_cas), expected, casualties)


JOINT_LIMIT = 50_000  # joint states kept exactly before identical elements are pooled


def _unit_casualties(attacks: Sequence[AttackSpec], targets: Sequence[Combatant], edition: str) -> dict[int, Fraction]:
    """Attacks in declared order. A success goes to its declared target element; if that
    one is already gone, to the next living element of the unit (the engine's rule).
    While every attack has its own target the elements are independent; any further
    attack (or an area attack) needs the joint state of the unit."""
    n = len(targets)
    declared = [a.target_index if a.target_index is not None else i % n for i, a in enumerate(attacks)]
    first: dict[int, AttackSpec] = {}
    rest: list[tuple[int, AttackSpec]] = []
    for j, a in zip(declared, attacks):
        if j in first or rest or a.covers > 1 or a.area:
            rest.append((j, a))
        else:
            first[j] = a
    per_element: list[Dist] = []
    for j, target in enumerate(targets):
        dist: Dist = {target: Fraction(1)}
        if j in first:
            dist = _after_attack(dist, first[j], edition)
        per_element.append(dist)
    if not rest:
        total: dict[int, Fraction] = {0: Fraction(1)}
        for dist in per_element:
            total = _convolve(total, _element_loss(dist))
        return total
    joint = _joint(per_element)
    keys = [t.key for t in targets]
    for j, a in rest:
        if a.area:
            joint = _joint_template(joint, keys, a, edition)
        else:
            joint = _joint_area(joint, j, a, edition) if a.covers > 1 else _joint_attack(joint, j, a, edition)
        if len(joint) > JOINT_LIMIT:
            joint = _pooled(joint)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for states, w in joint.items():
        out[sum(1 for s in states if s is None)] += w
    return dict(out)


def _joint_area(joint: dict[tuple[State, ...], Fraction], declared: int, attack: AttackSpec,
                edition: str) -> dict[tuple[State, ...], Fraction]:
    """Fireball: one casting roll; on success each covered element takes a hit (A-38)."""
    p = attack.p_hit
    out: dict[tuple[State, ...], Fraction] = defaultdict(Fraction)
    for states, w in joint.items():
        n = len(states)
        covered = [k % n for k in range(declared, declared + n) if states[k % n] is not None][: attack.covers]
        out[states] += w * (1 - p)
        if not covered or p == 0:
            out[states] += w * p
            continue
        branches: dict[tuple[State, ...], Fraction] = {states: Fraction(1)}
        for index in covered:
            nxt: dict[tuple[State, ...], Fraction] = defaultdict(Fraction)
            for st, q in branches.items():
                living = st[index]
                assert living is not None  # `covered` holds living elements, each recovered once
                for s, r in recovery_outcomes(living, attack.hit, edition).items():
                    nxt[(*st[:index], s, *st[index + 1:])] += q * r
            branches = dict(nxt)
        for st, q in branches.items():
            out[st] += w * p * q
    return {k: v for k, v in out.items() if v}


def _joint_template(joint: dict[tuple[State, ...], Fraction], keys: list[str], attack: AttackSpec,
                    edition: str) -> dict[tuple[State, ...], Fraction]:
    """A burst template (its `area`, the list the engine resolves): one aiming roll, then
    each victim of this unit in turn, hit outright or rolled for; the attacker's Lucky
    re-roll, if still there, goes to the first miss. Victims of other units are theirs."""
    p, luck = attack.p_roll, attack.lucky
    aimed = {(True, True): p * luck, (True, False): p * (1 - luck) + (1 - p) * luck * p}
    out: dict[tuple[State, ...], Fraction] = defaultdict(Fraction)
    for states, w in joint.items():
        out[states] += w * (1 - sum(aimed.values()))
        branches: dict[tuple[tuple[State, ...], bool], Fraction] = defaultdict(Fraction)
        for (_, lucky), q in aimed.items():
            if q:
                branches[(states, lucky)] += q
        for victim in attack.area:
            if victim.key not in keys or victim.blocked:
                continue
            index = keys.index(victim.key)
            nxt: dict[tuple[tuple[State, ...], bool], Fraction] = defaultdict(Fraction)
            for (st, lucky), q in branches.items():
                victim_state = st[index]
                if victim_state is None:  # already gone: no roll, no hit
                    nxt[(st, lucky)] += q
                    continue
                r = victim.p_roll
                if victim.rolled and lucky:  # a miss is re-rolled, and the re-roll is gone
                    hits, misses = [(True, r), (False, (1 - r) * r)], [(False, (1 - r) * (1 - r))]
                else:
                    hits, misses = [(lucky, r)], [(lucky, 1 - r)]
                for left, m in misses:
                    if m:
                        nxt[(st, left)] += q * m
                for left, h in hits:
                    if not h:
                        continue
                    for s, t in recovery_outcomes(victim_state, victim.hit, edition).items():
                        nxt[((*st[:index], s, *st[index + 1:]), left)] += q * h * t
            branches = nxt
        for (st, _), q in branches.items():
            out[st] += w * q
    return {k: v for k, v in out.items() if v}


def _pool(states: tuple[State, ...]) -> tuple[State, ...]:
    """Identical elements are interchangeable: a canonical order loses nothing."""
    return tuple(sorted(states, key=lambda s: (s is None, repr(s))))


def _joint(per_element: list[Dist]) -> dict[tuple[State, ...], Fraction]:
    joint: dict[tuple[State, ...], Fraction] = {(): Fraction(1)}
    for dist in per_element:
        nxt: dict[tuple[State, ...], Fraction] = defaultdict(Fraction)
        for states, w in joint.items():
            for s, q in dist.items():
                nxt[(*states, s)] += w * q
        joint = dict(nxt)
        if len(joint) > JOINT_LIMIT:
            joint = _pooled(joint)
    return joint


def _pooled(joint: dict[tuple[State, ...], Fraction]) -> dict[tuple[State, ...], Fraction]:
    out: dict[tuple[State, ...], Fraction] = defaultdict(Fraction)
    for states, w in joint.items():
        out[_pool(states)] += w
    return dict(out)


def _joint_attack(joint: dict[tuple[State, ...], Fraction], declared: int, attack: AttackSpec,
                  edition: str) -> dict[tuple[State, ...], Fraction]:
    out: dict[tuple[State, ...], Fraction] = defaultdict(Fraction)
    for states, w in joint.items():
        n = len(states)
        index = next((k % n for k in range(declared, declared + n) if states[k % n] is not None), None)
        if index is None:
            out[states] += w
            continue
        for s, q in _after_attack({states[index]: Fraction(1)}, attack, edition).items():
            out[(*states[:index], s, *states[index + 1:])] += w * q
    return dict(out)


def _mix(a: Dist, b: Dist, p: Fraction) -> Dist:
    """(1 - p) of `a` plus p of `b`."""
    out: Dist = defaultdict(Fraction)
    for s, w in a.items():
        out[s] += (1 - p) * w
    for s, w in b.items():
        out[s] += p * w
    return {k: v for k, v in out.items() if v}


@attrs.frozen
class Batch:
    """The rolls of one action that go to one target unit, and that unit's elements in
    the order hits are handed out."""

    unit: str  # the target unit's id
    attacks: tuple[AttackSpec, ...]
    targets: tuple[Combatant, ...]


def action_odds(batches: Sequence[Batch], edition: str) -> tuple[AttackOdds, dict[str, AttackOdds]]:
    """A whole unit's action across its targets (A-22): the odds per target unit and in
    total. The units share no element and every die is rolled on its own, so the total
    is the convolution of the per-unit distributions; per-attack figures are listed in
    batch order."""
    per_unit: dict[str, AttackOdds] = {}
    for batch in batches:
        if batch.unit in per_unit:
            raise ValueError(f"two batches for unit {batch.unit!r}")
        per_unit[batch.unit] = attack_odds(batch.attacks, batch.targets, edition)
    if not per_unit:
        raise ValueError("the action makes no attack")
    total: dict[int, Fraction] = {0: Fraction(1)}
    for odds in per_unit.values():
        total = _convolve(total, odds.casualties)
    parts = list(per_unit.values())
    combined = AttackOdds(
        attacks=tuple(a for o in parts for a in o.attacks),
        p_hit=tuple(p for o in parts for p in o.p_hit),
        p_casualty=tuple(p for o in parts for p in o.p_casualty),
        expected_casualties=sum((o.expected_casualties for o in parts), Fraction(0)),
        casualties={k: v for k, v in sorted(total.items()) if v},
    )
    return combined, per_unit


@attrs.define(frozen=True)
class ActionOdds(CoreOdds):
    """The engine's odds for a whole action, with each target unit's casualties apart
    (`casualties` stays the total over every target)."""

    by_target: dict[str, dict[int, Fraction]] = attrs.field(factory=dict)
    detail: AttackOdds | None = None  # every roll with its modifiers (for `muster odds`)

    def report(self) -> OddsReport:
        """The casualties as a named outcome, with a row per attack roll and, for scripts,
        the whole detail (each roll's die, modifiers, p_hit, p_casualty)."""
        base = super().report()
        if self.detail is None:
            return base
        rows: list[tuple[Any, ...]] = [("attack", " mod", "  p_hit", "p_casualty")]  # padding: least widths
        for a, ph, pc in zip(self.detail.attacks, self.detail.p_hit, self.detail.p_casualty):
            rows.append((a.label, f"{total_of(a.mods):+d}", ph, pc, *([f"[{a.blocked}]"] if a.blocked else [])))
        return attrs.evolve(base, table=tuple(rows), detail=self.detail)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["by_target"] = {unit: {str(k): float(p) for k, p in sorted(dist.items()) if p}
                            for unit, dist in self.by_target.items()}
        return out
