"""The README's engine example runs as printed."""

from __future__ import annotations

import pathlib
import re

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_engine_example_runs_and_says_what_it_claims() -> None:
    text = README.read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "Battle.start" in b]
    scope: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), scope)  # noqa: S102 - our own README
    battle, setup = scope["battle"], scope["setup"]
    from fractions import Fraction

    from campaign.engine import Battle, odds

    assert odds(battle, scope["shot"]).expected_casualties == Fraction(41, 24)  # as the comment says
    assert battle.can_undo is False
    assert Battle.replay(setup, battle.log).digest() == battle.digest()
    assert scope["events"], "the shot reported what happened"
