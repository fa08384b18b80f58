"""Properties of the deal: any faces give distinct cards; every unit can get a card."""

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.activation.cards.deck import deal_from_faces, faces_for_cards, standard_deck
from campaign.activation.cards.rules import plan_deal


@given(st.data(), st.integers(min_value=1, max_value=52))
@settings(max_examples=60, deadline=None)
def test_any_faces_deal_distinct_cards_and_invert(data: st.DataObject, count: int) -> None:
    deck = standard_deck()
    faces = [data.draw(st.integers(1, 52 - i)) for i in range(count)]
    cards = deal_from_faces(deck, faces)
    assert len(set(cards)) == count
    assert faces_for_cards(deck, cards) == faces


@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 3), st.integers(0, 3), st.sampled_from(["ceil", "floor"]))
@settings(max_examples=200, deadline=None)
def test_every_unit_gets_a_card_and_the_small_side_catches_up(red: int, blue: int, lr: int, lb: int, rounding: str) -> None:
    plan = plan_deal({"red": red, "blue": blue}, {"red": lr, "blue": lb}, rounding)
    assert plan.counts["red"] >= red + lr and plan.counts["blue"] >= blue + lb
    if red < blue:
        assert plan.counts["red"] - lr >= (3 * blue) // 4
    assert plan.use_chits == (plan.total > 52)
    if plan.use_chits:
        assert plan.deck_size == plan.total
