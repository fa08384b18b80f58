"""The core's model-by-model activation (campaign.activation.model_actions), played by the
test-only Duel under the initiative scheme: models share their actions, a model named
apart finishes before anyone else acts, the player may end early, unspent actions are lost,
and several units activating together form sharing groups that lock or interleave."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from campaign.activation.model_actions import KEY, acting_now, model_activation, set_apart
from campaign.engine import Battle, BattleSetup, IllegalCommand, SideSetup
from campaign.engine.pending import RollRequest
from campaign.engine.state import BattleState
from campaign.rulesets import get_ruleset, register, unregister
from tests.rulesets.duel import ACTIONS, Duel, DuelModels, DuelRules


@pytest.fixture(autouse=True)
def duel() -> Iterator[None]:
    register(Duel)
    yield
    unregister(Duel)


def setup(seed: int = 1) -> BattleSetup:
    forces = get_ruleset("duel").sample_forces()
    return BattleSetup("duel", tuple(SideSetup(f"s{i}", f.name, f) for i, f in enumerate(forces)), seed=seed, dice="table")


def miss(battle: Battle) -> None:
    """Table dice: every volley and strike misses; s0 wins the initiative."""
    while isinstance(battle.pending, RollRequest):
        request = battle.pending
        if "initiative" in request.purpose:
            battle.roll([8 if request.side == "s0" else 1])
        else:
            battle.roll([1] * (request.count - 1) + [6] if request.count > 1 else [1])


def activated(battle: Battle) -> str:
    """Activate the first offered unit; returns its id."""
    miss(battle)
    spec = next(s for s in battle.legal_commands() if s.type == "activate")
    battle.apply(battle.command(spec))
    return str(spec.params["unit"])


def acting(battle: Battle) -> list[str]:
    """The models offered an action now, in order, each once."""
    return list(dict.fromkeys(s.params["model"] for s in battle.legal_commands() if "model" in s.params))


def strike(battle: Battle, model: str) -> None:
    spec = next(s for s in battle.legal_commands() if s.params.get("model") == model)
    battle.apply(battle.command(spec))
    miss(battle)


def test_set_apart_takes_models_out_into_groups_of_their_own() -> None:
    assert set_apart([["a", "b", "c"], ["d"]], ["b"]) == [["a", "c"], ["d"], ["b"]]
    assert set_apart([["a", "b"]], ["a", "b", "zz"]) == [["a"], ["b"]]
    assert set_apart([["a", "b"]], []) == [["a", "b"]]


def test_models_share_their_actions_and_a_model_apart_finishes_first() -> None:
    battle = Battle.start(setup())
    unit = activated(battle)
    models = [e.id for e in battle.state.unit(unit).alive]
    assert acting(battle) == models
    assert [s.type for s in battle.legal_commands()][0] == "apart"
    with pytest.raises(IllegalCommand):  # a model of another unit cannot be named
        battle.apply({"type": "apart", "unit": unit, "models": ["nobody/here"]})
    battle.apply({"type": "apart", "unit": unit, "models": [models[2]]})
    assert acting_now(battle.state) == {"units": [unit], "groups": [models[:2], models[2:]], "acting": -1, "started": False,
                                          "used": ["apart"]}
    strike(battle, models[2])  # the model apart starts: it acts alone until it is done
    assert acting(battle) == [models[2]]
    assert "apart" not in [s.type for s in battle.legal_commands()]  # only before the first action
    strike(battle, models[2])
    assert acting(battle) == models[:2]  # the pool: its models share their actions
    strike(battle, models[1])
    strike(battle, models[0])
    strike(battle, models[0])
    assert acting(battle) == [models[1]]
    strike(battle, models[1])  # every model has acted: the activation ends by itself
    assert KEY not in battle.state.scheme
    assert all(e.data["actions"] == 0 for e in battle.state.unit(unit).elements)
    kinds = [e.kind for e in battle.events]
    assert kinds.count("apart") == 1
    again = Battle.replay(setup(), battle.log_dicts())
    assert again.digest() == battle.digest()


def test_the_player_may_end_the_activation_and_unspent_actions_are_lost() -> None:
    battle = Battle.start(setup())
    unit = activated(battle)
    first = acting(battle)[0]
    strike(battle, first)
    assert battle.state.element(first).data["actions"] == ACTIONS - 1
    battle.apply({"type": "end_activation", "unit": unit})
    assert all(e.data["actions"] == 0 for e in battle.state.unit(unit).elements)
    assert battle.state.scheme["active_unit"] == ""
    assert KEY not in battle.state.scheme


class Together(DuelRules):
    """Every unit of a side activates at once (as a scheme's combined activation would):
    each unit's models form one sharing group."""

    lock: bool = True

    def model_actions(self) -> DuelModels:
        lock = self.lock

        class Models(DuelModels):
            lock_pools = lock

        return Models(self)

    def activation(self, state: BattleState, unit_id: str, ctx: Any) -> Any:
        side = state.unit(unit_id).side
        return (yield from model_activation(self.model_actions(), state, [u.id for u in state.units_of(side)], ctx))


def together_battle(lock: bool, monkeypatch: pytest.MonkeyPatch) -> Battle:
    rules = type("Rules", (Together,), {"lock": lock})
    monkeypatch.setattr(Duel, "battle_rules", lambda self: rules(dict(self.options), ruleset=self))
    forces = get_ruleset("duel").sample_forces()
    second = Duel().sample_forces()[0]
    doubled = attrs.evolve(forces[0], units=(*forces[0].units, attrs.evolve(second.units[0], name="Grey Blades")))
    sides = (SideSetup("s0", doubled.name, doubled), SideSetup("s1", forces[1].name, forces[1]))
    return Battle.start(BattleSetup("duel", sides, seed=3, dice="table"))


@pytest.mark.parametrize("lock", [True, False])
def test_units_activating_together_share_by_unit_and_a_started_pool_locks(lock: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    battle = together_battle(lock, monkeypatch)
    activated(battle)
    book = acting_now(battle.state)
    assert book is not None and len(book["units"]) == 2 and len(book["groups"]) == 2
    first, second = book["groups"]
    assert acting(battle) == first + second
    strike(battle, first[0])
    assert acting(battle) == (first if lock else first + second)
