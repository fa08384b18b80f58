"""The card and phased schemes take a ruleset's own host, the generic one, or refuse a wrong kind."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.activation.cards.host import CardHost, host_for
from campaign.engine.rules import BattleRules
from tests.activation.toy import ToyHost, ToyRules


class NotAHost(BattleRules):
    def scheme_host(self, scheme: str, options: dict[str, Any]) -> object | None:
        return "a card host"  # not a CardHost: a plug-in mistake


def test_the_rules_own_host_is_used() -> None:
    host = host_for(ToyRules(), {"ap_max": 3})
    assert type(host) is ToyHost and host.options == {"ap_max": 3}


def test_rules_without_a_host_get_the_generic_one() -> None:
    host = host_for(BattleRules())
    assert type(host) is CardHost


def test_a_host_of_the_wrong_kind_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match=r"NotAHost\.scheme_host\('cards'\) gave a str, not a CardHost"):
        host_for(NotAHost())


def test_the_phased_scheme_refuses_a_wrong_kind_the_same_way() -> None:
    from campaign.activation.phased.host import host_for as phased_host_for

    with pytest.raises(TypeError, match=r"NotAHost\.scheme_host\('phased'\) gave a str, not a PhasedHost"):
        phased_host_for(NotAHost())
