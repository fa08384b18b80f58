from campaign.activation.registry import check_activation, schemes


def test_both_schemes_are_listed_with_their_options() -> None:
    listed = schemes()
    assert {"initiative", "cards"} <= set(listed)
    assert "card_order" in {o.name for o in listed["cards"]}


def test_check_activation_explains_bad_choices() -> None:
    assert check_activation("cards") is None
    assert check_activation("cards", {"card_order": "rank_major", "turns": 8}) is None
    assert "unknown activation scheme" in (check_activation("tarot") or "")
    assert "card_order" in (check_activation("cards", {"card_order": "random"}) or "")
    assert "turns" in (check_activation("cards", {"turns": 0}) or "")
    assert "unknown" in (check_activation("cards", {"speed": 3}) or "")
