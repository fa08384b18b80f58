"""FigWars keeps the liveness epoch true (campaign.engine.state): caches of which units stand
are trusted while it stays put, so wherever FigWars takes a unit off the table in place it
calls liveness_changed(). The watch (liveness.py) fails a test in which a unit's answer to
`eliminated` changed while the epoch did not."""

from __future__ import annotations

import pytest

import tests.figwars3.test_entities as entity_tests
from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from campaign.engine.state import BattleState, liveness_epoch
from tests.figwars3.liveness import watch_liveness
from tests.figwars3.test_battle import PREFERENCE, setup, start


def test_a_unit_fleeing_over_its_table_edge_moves_the_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    unseen = watch_liveness(monkeypatch)
    battle = start(setup())
    spec = battle.pending.legal[0]
    battle.apply(battle.command(spec))
    unit = battle.state.unit(spec.params["unit"])
    walk = next(s for s in battle.pending.legal if s.type == "walk")
    unit.data["status"] = "falling_back"
    assert not unit.eliminated
    epoch = liveness_epoch()
    battle.apply({"type": "walk", "unit": unit.id, "model": walk.params["model"],
                  "facts": {"inches": 3, "reached_edge": True}})
    assert battle.events[-1].kind == "fled" and all(e.alive for e in unit.elements)
    assert unit.eliminated and liveness_epoch() != epoch
    assert not unseen, unseen


class StandingCache:
    """Who stands, kept while the epoch and the units list stay the same (as Flat Out War's
    rules keep it): what a ruleset that forgot liveness_changed() would break."""

    def __init__(self) -> None:
        self.key: tuple[int, int, int] | None = None
        self.ids: list[str] = []

    def standing(self, state: BattleState) -> list[str]:
        key = (liveness_epoch(), id(state.units), len(state.units))
        if key != self.key:
            self.key, self.ids = key, [u.id for u in state.units if not u.eliminated]
        return self.ids


def _bot_checked(battle: Battle, cache: StandingCache, limit: int = 5000) -> None:
    """test_battle.bot, with the cached standing units checked against the truth at every step."""
    for _ in range(limit):
        state = battle.state
        assert cache.standing(state) == [u.id for u in state.units if not u.eliminated]
        pending = battle.pending
        if pending is None:
            return
        assert isinstance(pending, Decision)
        for spec in sorted(pending.legal, key=lambda s: PREFERENCE.index(s.type) if s.type in PREFERENCE else 99):
            try:
                battle.apply(battle.command(spec))
                break
            except IllegalCommand:  # the bot tries the next
                continue
    raise AssertionError("battle did not end")


@pytest.mark.parametrize("a,b", [("USC Strike Group", "Revenant Host"),
                                 ("Gothic Imperium Battle Group", "Xenomorph Bugs")])
def test_played_battles_keep_a_standing_cache_true(a: str, b: str, monkeypatch: pytest.MonkeyPatch) -> None:
    unseen = watch_liveness(monkeypatch)
    battle = start(setup(a=a, b=b, rounds=3))
    cache = StandingCache()
    _bot_checked(battle, cache)
    assert any(u.eliminated for u in battle.state.units), "nobody fell: the check proved nothing"
    assert not unseen, unseen


@pytest.mark.parametrize("name", [
    "test_the_casters_fall_looses_them_and_the_turn_start_d8_dispels_or_not",
    "test_a_last_entity_down_frees_the_caster_and_entities_are_no_casualties",
    "test_a_caster_shot_dead_looses_his_entities_with_a_d8_at_once",
    "test_a_broken_leash_rolls_the_d8_at_once_dispelled_frees_the_caster",
    "test_one_entity_breaking_the_leash_runs_wild_on_its_own_the_rest_stay",
])
def test_entities_dispelled_split_or_freed_move_the_epoch(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    unseen = watch_liveness(monkeypatch)
    getattr(entity_tests, name)()
    assert not unseen, unseen
