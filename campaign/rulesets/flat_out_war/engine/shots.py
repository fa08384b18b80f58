"""Multi-shot targets (A-22): each shot of a Multi-shot weapon may pick its own target.

A shoot command's `shot_targets` fact lists the shots that do not go to the command's
target, one string each:

    "reds/gunner-1#2=rippers"                 shot 2 of that element's Multi-shot weapon
    "reds/gunner-1:Twin Gun#3=rippers/ripper-2 range_band=long los=partial"
    "#2=rippers"                              shot 2 of every firing Multi-shot weapon

The part before the first `=` picks the shot (element id and weapon name are optional);
then comes the target, a unit id or an element id (an element id also allocates the
hit, A-23), then any of the table facts that differ for that target. Facts not given
are the command's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

# Facts a shot may judge afresh against its own target (the rest belong to the shooter).
SHOT_FACTS = ("aspect", "range_band", "los", "in_arc", "within_12")


class ShotError(ValueError):
    """An entry that cannot be read; the message says how to write it."""


@attrs.frozen
class ShotTarget:
    shot: int  # 1-based shot number of the weapon
    target: str  # unit id or element id
    element: str = ""  # "" : every firing element
    weapon: str = ""  # "" : every Multi-shot weapon of the element
    facts: tuple[tuple[str, Any], ...] = ()

    def matches(self, element: str, weapon: str, shot: int) -> bool:
        return shot == self.shot and self.element in ("", element) and self.weapon in ("", weapon)


_EXAMPLE = 'write e.g. "reds/gunner-1#2=rippers" or "#2=rippers range_band=long"'


def _value(raw: str) -> Any:
    return {"true": True, "false": False}.get(raw.lower(), raw)


def parse_shot_target(text: str, choices: dict[str, tuple[Any, ...]]) -> ShotTarget:
    """One entry of the `shot_targets` fact; `choices` gives each allowed fact's values."""
    selector, sep, rest = str(text).partition("=")
    where, hash_, number = selector.strip().rpartition("#")
    if not sep or not hash_ or not number.strip().isdigit() or int(number) < 1:
        raise ShotError(f"cannot read shot target {text!r} ({_EXAMPLE})")
    element, _, weapon = where.partition(":")
    words = rest.split()
    if not words or "=" in words[0]:
        raise ShotError(f"shot target {text!r} names no target ({_EXAMPLE})")
    facts = []
    for word in words[1:]:
        name, eq, raw = word.partition("=")
        if not eq or name not in SHOT_FACTS:
            raise ShotError(f"{word!r} in {text!r}: a shot may only set {', '.join(SHOT_FACTS)}")
        value = _value(raw)
        allowed = choices.get(name, ())
        if allowed and value not in allowed:
            raise ShotError(f"{name} must be one of {', '.join(map(str, allowed))}, not {raw!r}")
        facts.append((name, value))
    return ShotTarget(int(number), words[0], element.strip(), weapon.strip(), tuple(facts))


def shot_numbers(keys: Sequence[tuple[str, int | None]]) -> list[int]:
    """The 1-based shot number of each roll, given each roll's (element, weapon index)
    in the order the weapon's shots were declared (no index: a roll without a weapon)."""
    seen: dict[tuple[str, int | None], int] = {}
    out = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        out.append(seen[key])
    return out


def fire_linked_problem(linked: Sequence[tuple[str, str | None]], chosen: set[str], redirected: bool,
                        edition_so: bool) -> str | None:
    """Fire Linked (A-66): the main and Extra weapons fire together at one target.

    `linked`: (weapon name, why it cannot fire or None) for the linked weapons;
    `chosen`: the `weapons` fact (empty: all); `redirected`: a shot of the element is
    aimed elsewhere. [SO] every linked weapon must be able to fire at the target."""
    names = {name for name, _ in linked}
    if chosen and names & chosen and not names <= chosen:
        return f"Fire Linked weapons ({', '.join(sorted(names))}) fire together or not at all"
    if redirected:
        return "Fire Linked weapons fire at a single target"
    if edition_so and (not chosen or names & chosen):
        blocked = [f"{name}: {why}" for name, why in linked if why]
        if blocked:
            return "[SO] every Fire Linked weapon must be able to fire at the target (" + "; ".join(blocked) + ")"
    return None
