"""The test-only Duel ruleset, registered for the kit's tests that name it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from campaign.rulesets import register, ruleset_ids, unregister
from tests.rulesets.duel import Duel


@pytest.fixture
def with_duel() -> Iterator[None]:
    """Duel registered for the test (and only then), unless something registered it already."""
    if "duel" in ruleset_ids():
        yield
        return
    register(Duel)
    yield
    unregister(Duel)
