"""One declaration: every attack on one target in one phase (DP-10 to DP-15).

A `Declaration` is the description of an attack that both resolution and odds read:
its contributions give each attacking model's dice, multipliers and modifiers; `dice`
turns them into the dice actually rolled (clamped, pooled, floored, with their net
modifiers), and `deal` says which model each die lands on when the target touches
others (contact fire). `hits_from_faces` scores rolled faces; nothing is applied here:
hits wait in the phase's ledger until the phase ends (DP-10.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import attrs

from campaign.rulesets.d10_phased.rolls import DIE, effective_dice, floor_fraction, net_modifier, success

POOLED = "pooled"  # the attacker label of a die pooled from fractions


def _fractions(values: Sequence[Fraction | int | str]) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


@attrs.frozen
class Contribution:
    """One attacking model's part: its current dice with the weapon used (the base of the
    multiplier limits, AMB-16), the dice multipliers and every modifier, before the cap."""

    attacker: str
    dice: int
    multipliers: tuple[Fraction, ...] = attrs.field(default=(), converter=_fractions)
    modifiers: tuple[int, ...] = ()

    @property
    def effective(self) -> Fraction:
        return effective_dice(self.dice, self.multipliers)

    @property
    def modifier(self) -> int:
        return net_modifier(self.modifiers)


@attrs.frozen
class DiceGroup:
    """Dice rolled together under one modifier; one group is one attack for criticals (DP-17.2)."""

    attackers: tuple[str, ...]
    count: int
    modifier: int

    @property
    def label(self) -> str:
        return self.attackers[0] if len(self.attackers) == 1 else f"{POOLED}:{'+'.join(self.attackers)}"


@attrs.frozen
class Declaration:
    target: str
    contributions: tuple[Contribution, ...]
    contact: tuple[str, ...] = ()  # models touching the target (DP-15.4); fire only
    close: bool = False

    def groups(self) -> tuple[DiceGroup, ...]:
        """The whole dice of each contributor, then one pooled group of the fractions
        (DP-10.2, AMB-16): floored, with the worst modifier among its contributors."""
        out: list[DiceGroup] = []
        pool = Fraction(0)
        pooled: list[Contribution] = []
        for c in self.contributions:
            eff = c.effective
            whole = floor_fraction(eff)
            if whole:
                out.append(DiceGroup((c.attacker,), whole, c.modifier))
            if eff - whole:
                pool += eff - whole
                pooled.append(c)
        count = floor_fraction(pool)
        if count:
            out.append(DiceGroup(tuple(c.attacker for c in pooled), count, min(c.modifier for c in pooled)))
        return tuple(out)

    @property
    def dice(self) -> int:
        return sum(g.count for g in self.groups())

    def shares(self) -> dict[str, int]:
        """DP-15.4: fire at a model in a contact group is split evenly over the group; the
        leftover goes to the target. Close attacks are aimed and not split."""
        total = self.dice
        if self.close or not self.contact:
            return {self.target: total}
        members = (self.target, *self.contact)
        share, rest = divmod(total, len(members))
        out = {m: share for m in members}
        out[self.target] += rest
        return out

    def deal(self) -> list[tuple[str, int]]:
        """(model hit, group index) for each die in rolling order: the dice go in
        declaration order, the target's share first, then each touching model's (our
        ruling: the rule fixes only how many dice each gets)."""
        slots = [model for model, n in self.shares().items() for _ in range(n)]
        out: list[tuple[str, int]] = []
        for index, group in enumerate(self.groups()):
            for _ in range(group.count):
                out.append((slots[len(out)], index))
        return out


@attrs.frozen
class Hits:
    """What a declaration's dice did to one model: hits, and the attacks (group labels)
    whose dice on it showed a natural 10 (a critical check each, DP-17.2)."""

    hits: int = 0
    dice: int = 0
    criticals: tuple[str, ...] = ()


def hits_from_faces(decl: Declaration, faces: Sequence[int]) -> dict[str, Hits]:
    """Score the rolled faces (one per die, in `deal` order) per model hit."""
    dealt = decl.deal()
    if len(faces) != len(dealt):
        raise ValueError(f"{len(dealt)} attack dice need {len(dealt)} faces, not {len(faces)}")
    groups = decl.groups()
    out: dict[str, Hits] = {}
    for (model, index), face in zip(dealt, faces):
        group = groups[index]
        prev = out.get(model, Hits())
        crits = prev.criticals
        if face == DIE and group.label not in crits:
            crits = (*crits, group.label)
        out[model] = Hits(prev.hits + success(face, group.modifier), prev.dice + 1, crits)
    return out


@attrs.define
class Pending:
    """Hits held on one model until its phase ends (DP-10.6)."""

    hits: int = 0
    criticals: list[str] = attrs.field(factory=list)
    order: int = 0  # when it was first hit this phase (saves go in this order, AMB-17)


@attrs.define
class Ledger:
    """One attack phase's pending effects and the targets already picked (AMB-30)."""

    pending: dict[str, Pending] = attrs.field(factory=dict)
    targets: list[str] = attrs.field(factory=list)

    def add(self, scored: dict[str, Hits]) -> None:
        for model, got in scored.items():
            entry = self.pending.get(model)
            if entry is None:
                entry = self.pending[model] = Pending(order=len(self.pending))
            entry.hits += got.hits
            entry.criticals += list(got.criticals)

    def in_order(self) -> list[tuple[str, Pending]]:
        return sorted(self.pending.items(), key=lambda kv: kv[1].order)
