"""Battle files round-trip any TOML-able log and any result (hypothesis)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine
from saves.battle_file import (
    BattleFile,
    BattleHeader,
    BattleResult,
    BattleSide,
    append_log,
    create_battle_file,
    dumps_battle,
    load_battle_file,
    parse_battle,
    write_result,
)

keys = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8)
scalars = (
    st.integers(-(2**63), 2**63 - 1)
    | st.booleans()
    | st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
    | st.floats(allow_nan=False)
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3), max_leaves=8)
entries = st.dictionaries(keys, values, min_size=1, max_size=5)
fr = st.fractions(0, 500, max_denominator=4)
outcomes = st.builds(
    BattleOutcome,
    st.tuples(
        st.builds(SideOutcome, st.just("a"), st.lists(st.builds(VPLine, keys, fr, st.sampled_from(["unit", "objective", "other"])), max_size=2).map(tuple),
                  st.lists(keys, max_size=2).map(tuple), st.lists(st.builds(Casualty, keys, keys, st.integers(0, 5), st.integers(0, 9), st.dictionaries(keys, st.integers(-(2**63), 2**63 - 1) | keys, max_size=2)), max_size=2).map(tuple)),
        st.builds(SideOutcome, st.just("b")),
    ),
    st.integers(0, 20), keys, st.none() | st.sampled_from(["a", "b"]), keys, keys,
)  # fmt: skip
HEADER = BattleHeader("flat-out-war", (BattleSide("a", "A"), BattleSide("b", "B")), seed=3, dice="table")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(entries, max_size=4), st.none() | st.builds(BattleResult, keys, st.sampled_from(["", "a", "b"]), st.dictionaries(st.sampled_from(["a", "b"]), fr), keys, st.none() | outcomes))
def test_battle_round_trip(tmp_path: Path, log: list, result: BattleResult | None) -> None:
    path = tmp_path / "b.toml"
    path.unlink(missing_ok=True)
    create_battle_file(path, HEADER)
    for entry in log:
        append_log(path, entry)
    if result is not None:
        write_result(path, result)
    loaded = load_battle_file(path)
    assert (loaded.header, loaded.log, loaded.result, loaded.warnings) == (HEADER, log, result, [])
    # what appends wrote is what a single dump writes
    assert path.read_text() == dumps_battle(BattleFile(path, HEADER, log, result))
    assert parse_battle(path, path.read_bytes()).log == log
