"""[SO] Reliant (section 13, A-29): what a Reliant element depends on.

`Reliant: Hive Node` names an element or a unit of the same side. At setup the name is
turned into the element ids it stands for; the Reliant element is removed once none of
them is still in the game (destroyed, or its unit fled off the table). A plain
`Reliant` depends on nothing the engine knows, so only the "down" state applies.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from campaign.force import Element
from campaign.rulesets.flat_out_war.attributes import AttributeTextError, parse_attribute


@attrs.frozen
class Piece:
    """An element on the table as the link search sees it."""

    id: str
    name: str
    unit_id: str
    unit_name: str


def reliant_on(element: Element) -> str:
    """The name written after Reliant (`Reliant: Hive Node` -> 'Hive Node'), or ''."""
    for text in element.attributes:
        try:
            parsed = parse_attribute(text)
        except AttributeTextError:
            continue
        if parsed.name == "Reliant":
            return parsed.params.text
    return ""


def _same(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def resolve_link(name: str, own: Piece, side: Sequence[Piece]) -> tuple[str, ...]:
    """The element ids `name` stands for, among the pieces of the Reliant element's side.

    An element name wins over a unit name; elements of the Reliant element's own unit
    come first (several copies: it stays while any of them does). Empty when nothing
    matches (the caller reports it)."""
    if not name:
        return ()
    others = [p for p in side if p.id != own.id]
    named = [p for p in others if _same(p.name, name)]
    mine = [p for p in named if p.unit_id == own.unit_id]
    if mine or named:
        return tuple(p.id for p in (mine or named))
    units = [p for p in others if _same(p.unit_name, name) or _same(p.unit_id, name)]
    return tuple(p.id for p in units)


def orphaned(links: Iterable[str], in_game: Iterable[str]) -> bool:
    """True when a linked Reliant element has lost everything it relies on."""
    wanted = list(links)
    return bool(wanted) and not set(wanted) & set(in_game)
