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


def test_the_default_scheme_checked_without_the_engine_is_what_the_engine_says() -> None:
    # check_activation answers for the default scheme without options without loading it
    # (reading a campaign needs no battle code): the engine must agree
    from campaign.activation import DEFAULT_SCHEME
    from campaign.engine.scheme import get_scheme, scheme_names

    assert DEFAULT_SCHEME in scheme_names()
    assert get_scheme(DEFAULT_SCHEME).name == DEFAULT_SCHEME  # built with its defaults
    assert check_activation(DEFAULT_SCHEME) is None
    assert check_activation(DEFAULT_SCHEME, {"no_such_option": 1}) is not None  # options still go to the engine
