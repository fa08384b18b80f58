"""Every card battle these tests play checks what the scheme trusts without looking
(campaign.activation.cards.results.VERIFY): a change it missed fails the test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from campaign.activation.cards.results import VERIFY


@pytest.fixture(autouse=True)
def verify() -> Iterator[None]:
    VERIFY[0] = True
    try:
        yield
    finally:
        VERIFY[0] = False
