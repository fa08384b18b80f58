"""Cards, keys and the dice-driven deal (CA-1.1, CA-3.1, AMB-1)."""

import pytest

from campaign.activation.cards.deck import (
    Card,
    CardError,
    card_key,
    chit_deck,
    deal_from_faces,
    faces_for_cards,
    parse_card,
    sort_cards,
    standard_deck,
)


@pytest.mark.parametrize(
    "text, rank, suit",
    [("QH", 12, "H"), ("10S", 10, "S"), ("ts", 10, "S"), ("a c", 1, "C"), ("KD", 13, "D"), ("2h", 2, "H")],
)
def test_parse_card(text: str, rank: int, suit: str) -> None:
    assert parse_card(text) == Card(rank, suit)


def test_codes_round_trip_for_the_whole_deck() -> None:
    deck = standard_deck(jokers=2)
    assert len(deck) == 54 and len(set(deck)) == 54
    assert [parse_card(c.code) for c in deck] == list(deck)
    assert parse_card("17").is_chit and parse_card("17").code == "17"


@pytest.mark.parametrize("bad", ["", "QX", "14H", "0", "ZZ", "H"])
def test_unreadable_cards_are_refused_with_a_message(bad: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(bad)
    assert str(err.value)


def test_suit_major_keys_follow_the_source_example() -> None:
    # A-hearts first, K-clubs last; every heart before any spade (CA-3.1)
    assert card_key(parse_card("AH")) == 1
    assert card_key(parse_card("KH")) == 13
    assert card_key(parse_card("AS")) == 14
    assert card_key(parse_card("KC")) == 52
    codes = [c.code for c in sort_cards(standard_deck())]
    assert codes[:3] == ["AH", "2H", "3H"] and codes[-3:] == ["JC", "QC", "KC"]


def test_rank_major_keys() -> None:
    codes = [c.code for c in sort_cards(standard_deck(), "rank_major")]
    assert codes[:5] == ["AH", "AS", "AD", "AC", "2H"]
    assert card_key(parse_card("KC"), "rank_major") == 55


def test_jokers_come_after_the_king_of_clubs() -> None:
    assert card_key(parse_card("JK1")) > card_key(parse_card("KC"))


def test_deal_from_faces_is_a_partial_fisher_yates() -> None:
    deck = standard_deck()
    # face 1 of d52 takes AH; face 52 of d51 then takes KC (the last card left)
    assert [c.code for c in deal_from_faces(deck, [1, 51, 1])] == ["AH", "KC", "2H"]
    with pytest.raises(CardError):
        deal_from_faces(deck, [53])


def test_faces_for_cards_inverts_the_deal() -> None:
    deck = standard_deck()
    cards = [parse_card(c) for c in ["QH", "10S", "AH", "KC"]]
    faces = faces_for_cards(deck, cards)
    assert deal_from_faces(deck, faces) == cards
    with pytest.raises(CardError, match="already dealt"):
        faces_for_cards(deck, [parse_card("QH"), parse_card("QH")])
    with pytest.raises(CardError, match="not in this deck"):
        faces_for_cards(chit_deck(10), [parse_card("11")])
