"""Drive the d10 rules' generators with scripted dice."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from campaign.engine.pending import RollRequest


def drive(gen: Generator[Any, Any, Any], *answers: Sequence[int]) -> tuple[Any, list[RollRequest]]:
    """Answer each RollRequest the generator yields with the next faces; return its value
    and the requests it made. Fails if the script is too long or too short."""
    asked: list[RollRequest] = []
    script = list(answers)
    try:
        request = next(gen)
        while True:
            assert isinstance(request, RollRequest), f"expected dice, got {request!r}"
            asked.append(request)
            assert script, f"no faces scripted for {request.describe()}"
            faces = tuple(script.pop(0))
            assert len(faces) == request.count, f"{request.describe()} wants {request.count} faces, got {faces}"
            assert all(1 <= f <= request.die for f in faces), f"{faces} do not fit d{request.die}"
            request = gen.send(faces)
    except StopIteration as stop:
        assert not script, f"faces left over: {script}"
        return stop.value, asked
