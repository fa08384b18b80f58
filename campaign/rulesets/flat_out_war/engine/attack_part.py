"""A unit's melee or shoot specs in a Decision's menu, one per enemy unit, made as read.

A unit offers an attack at every standing enemy at nearly every Decision (dozens of specs
in a long battle), and a replay's check looks for the one its command names: as a
`KeyedPart` of a `LazySpecs` (campaign/engine/lazy_specs.py) only that spec is made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

from campaign.engine.lazy_specs import KeyedPart
from campaign.engine.pending import CommandSpec
from campaign.engine.state import UnitState


class AttackPart(KeyedPart, Sequence[CommandSpec]):
    """The `kind` ("melee" or "shoot") specs at each of `enemies` (in unit order), keyed
    "target" (the enemy's id; `ids`: theirs, in order): `made[enemy id]` if there, else `make(enemy)` (which puts it
    there: the rules keep `made` for the battle, so a new part after a unit falls makes no
    spec again). The rules keep a part while the same enemies stand, so a part read whole
    (a bot, a screen) keeps its list for the next read."""

    __slots__ = ("_enemies", "_known", "_new", "_every")

    def __init__(self, kind: str, enemies: list[UnitState], ids: list[str], made: dict[str, CommandSpec],
                 make: Callable[[UnitState], CommandSpec]) -> None:
        super().__init__(kind, "target", ids, make)
        self._enemies = enemies
        self._known = made
        self._new = make
        self._every: list[CommandSpec] | None = None

    def spec(self, index: int) -> CommandSpec:
        enemy = self._enemies[index]
        return self._known.get(enemy.id) or self._new(enemy)

    def __len__(self) -> int:
        return len(self._enemies)

    @overload
    def __getitem__(self, index: int) -> CommandSpec: ...

    @overload
    def __getitem__(self, index: slice) -> list[CommandSpec]: ...

    def __getitem__(self, index: int | slice) -> CommandSpec | list[CommandSpec]:
        """The spec at `index` of the part read whole, made alone if the part is not made:
        the part is the sequence of its specs (one for every enemy), so a reader that picks
        one (the autoplayer) makes only that one."""
        every = self._every
        if every is not None:
            return every[index]
        if isinstance(index, slice):
            return list(self.specs())[index]
        return self.spec(index)

    def specs(self) -> Iterator[CommandSpec]:
        every = self._every
        if every is None:
            known, make = self._known, self._new
            every = self._every = [known.get(e.id) or make(e) for e in self._enemies]
        return iter(every)
