"""Flat Out War's die ladder (section 19.2): each die's base cost and DAC.

DAC (Die Attribute Cost) is the unit every "xDAC" price is counted in. The ladder
is the same in both editions; stepping past either end is impossible, so the
helpers return None there and each rule decides what that means.
"""

from __future__ import annotations

import re

from campaign.frozen import frozen


@frozen
class DieSpec:
    name: str  # "d6"
    sides: int
    base_cost: int  # points paid for an element with this base die
    dac: int  # Die Attribute Cost


LADDER: tuple[DieSpec, ...] = (
    DieSpec("d4", 4, 2, 1),
    DieSpec("d6", 6, 4, 2),
    DieSpec("d8", 8, 6, 3),
    DieSpec("d10", 10, 8, 4),
    DieSpec("d12", 12, 10, 5),
    DieSpec("d20", 20, 18, 9),
)
DIE_NAMES: tuple[str, ...] = tuple(d.name for d in LADDER)
_BY_NAME = {d.name: d for d in LADDER}
_DIE_TEXT = re.compile(r"^\s*[dD]\s*(\d+)\s*$")


class UnknownDie(ValueError):
    """A die that is not on the ladder (d4, d6, d8, d10, d12, d20)."""


def normalize_die(text: str | int) -> str | None:
    """"D6", "d6", " d 6 ", 6 -> "d6"; None if it is not a ladder die."""
    if isinstance(text, int) and not isinstance(text, bool):
        name = f"d{text}"
    elif isinstance(text, str):
        match = _DIE_TEXT.match(text)
        if not match:
            return None
        name = f"d{int(match.group(1))}"
    else:
        return None
    return name if name in _BY_NAME else None


def die(text: str | int) -> DieSpec:
    """The ladder entry for a die written any common way; UnknownDie otherwise."""
    cached = type(text) in (str, int)  # exact types: True and 1.0 never share 1's entry
    if cached:
        found = _SEEN.get((type(text), text))
        if found is not None:
            return found
    name = normalize_die(text)
    if name is None:
        raise UnknownDie(f"{text!r} is not a Flat Out War die (one of {', '.join(DIE_NAMES)})")
    if cached and len(_SEEN) < 1024:  # combat asks for the same few dice over and over
        _SEEN[(type(text), text)] = _BY_NAME[name]
    return _BY_NAME[name]


_SEEN: dict[tuple[type, str | int], DieSpec] = {}


def dac(text: str | int) -> int:
    return die(text).dac


def base_cost(text: str | int) -> int:
    return die(text).base_cost


def step(text: str | int, steps: int) -> str | None:
    """The die `steps` rungs up (positive) or down (negative); None past either end."""
    index = LADDER.index(die(text)) + steps
    if 0 <= index < len(LADDER):
        return LADDER[index].name
    return None


def step_up(text: str | int) -> str | None:
    return step(text, 1)


def step_down(text: str | int) -> str | None:
    return step(text, -1)
