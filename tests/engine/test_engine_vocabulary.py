"""The core knows no ruleset's vocabulary: its words belong to the rulesets."""

import re
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "campaign" / "engine"
RULESET_WORDS = re.compile(r"\b(melee|morale|spells?|shoot\w*|charg\w*|recovery|armou?r|flank)\b", re.I)


def test_the_engine_core_uses_no_ruleset_words() -> None:
    found = {
        f"{path.name}:{n}: {m.group(0)}"
        for path in sorted(CORE.glob("*.py"))
        if path.name != "scheme.py"  # the initiative scheme is the one generic turn order the core ships
        for n, line in enumerate(path.read_text().splitlines(), 1)
        for m in [RULESET_WORDS.search(line)]
        if m
    }
    assert sorted(found) == []
