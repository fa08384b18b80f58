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


def play(gen: Generator[Any, Any, Any], *answers: Any) -> tuple[Any, list[Any]]:
    """Like `drive`, but the script may also hold Commands answering Decisions: each must
    match one of the Decision's legal specs and pass its checks, as the engine requires."""
    from campaign.engine.pending import Decision

    asked: list[Any] = []
    script = list(answers)
    try:
        request = next(gen)
        while True:
            asked.append(request)
            assert script, f"nothing scripted for {request!r}"
            answer = script.pop(0)
            if isinstance(request, Decision):
                assert not isinstance(answer, (tuple, list)), f"{request.prompt}: wants a command, got faces {answer}"
                specs = [s for s in request.legal if s.matches(answer)]
                assert specs, f"{answer.describe()} is not legal for {request.prompt!r}: {[s.label for s in request.legal]}"
                specs[0].check_facts(answer)
                if request.check is not None:
                    request.check(answer)
                request = gen.send(answer)
            else:
                assert isinstance(answer, (tuple, list)), f"{request.describe()}: wants faces, got {answer!r}"
                faces = tuple(answer)
                assert len(faces) == request.count and all(1 <= f <= request.die for f in faces), (request, faces)
                request = gen.send(faces)
    except StopIteration as stop:
        assert not script, f"left over: {script}"
        return stop.value, asked
