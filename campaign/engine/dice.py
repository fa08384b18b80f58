"""Dice sources: every die of a battle comes from one of these.

AutoDice maps `random.Random(seed).random()` to faces itself (face = int(r * sides) + 1,
one `random()` call per die): `random()` is the one generator output Python keeps stable
across versions, unlike `randint`/`choice`/`shuffle`. TableDice has no generator: the
players roll real dice and type the faces, which the engine checks against the request.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from typing import Any, TypeVar

import attrs

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import RollRequest
from campaign.engine.quick import quick_init

T = TypeVar("T")


@quick_init
@attrs.define(frozen=True)
class RollRecord:
    """The faces of one answered RollRequest, as the log keeps them."""

    die: int
    faces: tuple[int, ...]
    purpose: str = ""
    by: str = ""  # "engine": rolled by the engine at the players' request in table mode

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"die": self.die, "faces": list(self.faces), "purpose": self.purpose}
        if self.by:
            out["by"] = self.by
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollRecord:
        try:  # (every roll of every replay: `map` converts the faces, ints as they are, in C)
            die = int(data["die"])
            faces = tuple(map(int, data["faces"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"a roll needs die = N and faces = [..] ({exc})") from None
        by = data.get("by", "")
        if by not in ("", "engine"):
            raise ValueError(f'a roll\'s by must be "engine" when given, not {by!r}')
        purpose = data.get("purpose", "")
        return cls(die, faces, purpose if type(purpose) is str else str(purpose), by)


def check_faces(request: RollRequest, faces: Sequence[int]) -> tuple[int, ...]:
    """The faces as a tuple, or IllegalCommand if they cannot answer the request."""
    faces = tuple(faces)
    if len(faces) == request.count:  # the faces of most requests are fine: the same checks, quicker
        die = request.die
        for face in faces:
            if type(face) is not int or not 1 <= face <= die:
                break
        else:
            return faces
    if any(isinstance(f, bool) or not isinstance(f, int) for f in faces):
        raise IllegalCommand("dice", f"faces must be whole numbers, got {list(faces)}")
    if len(faces) != request.count:
        raise IllegalCommand(
            "dice", f"{request.describe()} needs {request.count} face(s), got {len(faces)}"
        )
    bad = [f for f in faces if not 1 <= f <= request.die]
    if bad:
        raise IllegalCommand(
            "dice", f"a d{request.die} has faces 1 to {request.die}; {bad[0]} is not one of them"
        )
    return faces


class DiceSource:
    """Answers RollRequests. `mode` is "auto" (answers at once) or "table" (players type faces)."""

    mode: str = "table"

    def draw(self, request: RollRequest) -> tuple[int, ...] | None:
        """Faces for the request, or None when the players must roll."""
        return None

    def assist(self, request: RollRequest) -> tuple[int, ...]:
        """Faces the engine rolls when the players ask it to (`battle.roll()` with no faces)."""
        raise NotImplementedError

    def restore(self, draws: int) -> None:
        """Stand just after the first `draws` generated dice (a replayed or rebuilt battle)."""

    @property
    def draws(self) -> int:
        return 0


class TableDice(DiceSource):
    """Real dice: every request waits for `battle.roll(faces)`. `battle.roll()` with no
    faces lets the engine roll that request from its own seeded dice (logged as by the engine)."""

    mode = "table"

    def __init__(self, seed: int = 0) -> None:
        self._helper = AutoDice(seed)

    @property
    def draws(self) -> int:
        return self._helper.draws

    def assist(self, request: RollRequest) -> tuple[int, ...]:
        return self._helper.draw(request)

    def restore(self, draws: int) -> None:
        self._helper.restore(draws)


class AutoDice(DiceSource):
    """Seeded dice. The same seed and draw count give the same faces on every machine."""

    mode = "auto"

    def __init__(self, seed: int = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"the dice seed must be an int, not {seed!r}")
        self.seed = seed
        self._rng = random.Random(seed)
        self._draws = 0

    @property
    def draws(self) -> int:
        return self._draws

    def face(self, sides: int) -> int:
        self._draws += 1
        return int(self._rng.random() * sides) + 1

    def draw(self, request: RollRequest) -> tuple[int, ...]:
        # `face` for each die, inlined: every die of an auto battle is drawn here
        sides, count, random_ = request.die, request.count, self._rng.random
        self._draws += count
        if count == 1:
            return (int(random_() * sides) + 1,)
        faces = []  # (a loop, not a generator: no frame resumed for each die)
        for _ in range(count):
            faces.append(int(random_() * sides) + 1)
        return tuple(faces)

    def assist(self, request: RollRequest) -> tuple[int, ...]:
        return self.draw(request)

    def restore(self, draws: int) -> None:
        if draws < self._draws:
            self._rng = random.Random(self.seed)
            self._draws = 0
        random_ = self._rng.random
        for _ in range(draws - self._draws):
            random_()
        self._draws = draws


def dice_for(mode: str, seed: int) -> DiceSource:
    if mode == "auto":
        return AutoDice(seed)
    if mode == "table":
        return TableDice(seed)
    raise ValueError(f"dice mode must be 'auto' or 'table', not {mode!r}")


# --- helpers for resolution generators -------------------------------------------


def roll(die: int, count: int, purpose: str, side: str = "") -> Generator[RollRequest, Any, tuple[int, ...]]:
    """`faces = yield from roll(6, 3, "3 x d6 to hit")`: one request, its faces back."""
    faces = yield RollRequest(die=die, count=count, purpose=purpose, side=side)
    return tuple(faces)


def shuffled(items: Sequence[T], purpose: str, side: str = "") -> Generator[RollRequest, Any, list[T]]:
    """A Fisher-Yates shuffle driven by the dice source (a card deck, a random order).

    Asks for one d(n), d(n-1), ... d2 in turn, so auto dice, table dice and replay all
    give the same order for the same faces.
    """
    out = list(items)
    for top in range(len(out) - 1, 0, -1):
        (face,) = yield RollRequest(die=top + 1, count=1, purpose=purpose, side=side)
        pick = face - 1
        out[top], out[pick] = out[pick], out[top]
    return out
