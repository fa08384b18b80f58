"""Playing cards and numbered chits, their activation keys, and a replayable shuffle.

A card is written the way players say it: rank then suit, "AH", "10S", "QD", "KC"
(also "TS" for ten). Jokers are "JK1" and "JK2" when the jokers option is on. A chit
(used when one deck is not enough, AMB-5) is just its number, "17".

The shuffle is driven by uniform draws so it can come from the battle's dice
source: card k of the deal is picked by one die whose size is the number of cards
still in the deck (a partial Fisher-Yates). The same faces always give the same
deal, in auto mode and on replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

SUITS: tuple[str, ...] = ("H", "S", "D", "C")  # hearts, spades, diamonds, clubs: the source's priority
SUIT_NAMES = {"H": "hearts", "S": "spades", "D": "diamonds", "C": "clubs", "J": "joker"}
SUIT_SYMBOLS = {"H": "\u2665", "S": "\u2660", "D": "\u2666", "C": "\u2663", "J": "*"}
RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}
DECK_SIZE = 52
CardOrder = Literal["suit_major", "rank_major"]
CARD_ORDERS: tuple[str, ...] = ("suit_major", "rank_major")


class CardError(ValueError):
    """A card written in a way we cannot read, or a card not in the deck."""


@attrs.define(frozen=True, order=False)
class Card:
    """One playing card (rank 1..13, suit H/S/D/C), a joker (suit "J") or a chit (suit "#")."""

    rank: int
    suit: str

    @property
    def is_chit(self) -> bool:
        return self.suit == "#"

    @property
    def is_joker(self) -> bool:
        return self.suit == "J"

    @property
    def code(self) -> str:
        """The short form players type and the log stores: "QH", "10S", "JK1", "17"."""
        if self.is_chit:
            return str(self.rank)
        if self.is_joker:
            return f"JK{self.rank}"
        return f"{RANK_LABELS.get(self.rank, str(self.rank))}{self.suit}"

    @property
    def label(self) -> str:
        """A display form with the suit symbol: "Q\u2665", "10\u2660", "chit 17"."""
        if self.is_chit:
            return f"chit {self.rank}"
        if self.is_joker:
            return f"joker {self.rank}"
        return f"{RANK_LABELS.get(self.rank, str(self.rank))}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self.code


def chit(n: int) -> Card:
    return Card(n, "#")


def parse_card(text: str) -> Card:
    """Read a card as typed: "QH", "q h", "10S", "TS", "AH", "JK1", "17" (a chit)."""
    raw = "".join(str(text).split()).upper()
    if not raw:
        raise CardError("empty card: type it as rank then suit, e.g. QH, 10S, AC")
    if raw.isdigit():
        n = int(raw)
        if n < 1:
            raise CardError(f"chit {raw} out of range: chits are numbered from 1")
        return chit(n)
    if raw in ("JK1", "JK2", "JOKER1", "JOKER2"):
        return Card(int(raw[-1]), "J")
    rank_text, suit = raw[:-1], raw[-1]
    if suit not in SUITS:
        raise CardError(f"card {text!r}: suit must be H, S, D or C (hearts, spades, diamonds, clubs)")
    ranks = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
    if rank_text in ranks:
        rank = ranks[rank_text]
    elif rank_text.isdigit() and 1 <= int(rank_text) <= 13:
        rank = int(rank_text)
    else:
        raise CardError(f"card {text!r}: rank must be A, 2-10, J, Q or K")
    return Card(rank, suit)


def standard_deck(jokers: int = 0) -> tuple[Card, ...]:
    """A fresh 52-card deck in suit-major order, plus 0-2 jokers at the end."""
    cards = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]
    cards += [Card(n, "J") for n in range(1, jokers + 1)]
    return tuple(cards)


def chit_deck(n: int) -> tuple[Card, ...]:
    return tuple(chit(i) for i in range(1, n + 1))


def card_key(card: Card, order: str = "suit_major") -> int:
    """The activation key (CA-3.1): lower acts first.

    Suit-major (default, AMB-1): A\u2665=1 .. K\u2665=13, A\u2660=14 .. K\u2663=52.
    Rank-major: rank*4 + suit index, so A\u2665=4, A\u2660=5 .. K\u2663=55.
    Jokers come after every card (they are the optional wild cards of the deck; see
    docs/cards.md); chits use their number.
    """
    if card.is_chit:
        return card.rank
    if card.is_joker:
        return 100 + card.rank
    suit = SUITS.index(card.suit)
    if order == "suit_major":
        return suit * 13 + card.rank
    if order == "rank_major":
        return card.rank * 4 + suit
    raise CardError(f"unknown card order {order!r} (use suit_major or rank_major)")


def sort_cards(cards: Iterable[Card], order: str = "suit_major") -> list[Card]:
    return sorted(cards, key=lambda c: card_key(c, order))


def draw_sizes(deck_size: int, count: int) -> list[int]:
    """The die sizes for dealing `count` cards from a deck of `deck_size`: n, n-1, ..."""
    if count > deck_size:
        raise CardError(f"cannot deal {count} cards from a deck of {deck_size}")
    return [deck_size - i for i in range(count)]


def deal_from_faces(deck: Sequence[Card], faces: Sequence[int]) -> list[Card]:
    """Partial Fisher-Yates: face f of a d(remaining) takes the f-th card still in the deck.

    Face i of draw k must lie in 1..len(deck)-k; the result has len(faces) distinct cards.
    """
    remaining = list(deck)
    dealt = []
    for face in faces:
        if not 1 <= face <= len(remaining):
            raise CardError(f"draw {face} out of range 1..{len(remaining)}")
        dealt.append(remaining.pop(face - 1))
    return dealt


def faces_for_cards(deck: Sequence[Card], cards: Sequence[Card]) -> list[int]:
    """The inverse of deal_from_faces: the faces that deal exactly `cards` (table mode)."""
    remaining = list(deck)
    faces = []
    for card in cards:
        try:
            index = remaining.index(card)
        except ValueError:
            where = "already dealt" if card in deck else "not in this deck"
            raise CardError(f"card {card.code} is {where}") from None
        faces.append(index + 1)
        remaining.pop(index)
    return faces
