"""Vehicles and mecha in a battle through the core engine: damage tables after hits,
machines' actions (PR-27), strikes against them, the screen's lines, and replay."""

from __future__ import annotations

from campaign.engine.battle import Battle
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import bot, setup, start


def test_vehicles_against_mecha_play_out_and_replay() -> None:
    s = setup(a="USC Hedgehog Patrol", b="Mecha Lance", seed=3, rounds=4)
    battle = start(s)
    hedgehog = battle.state.unit("hedgehog").elements[0]
    assert hedgehog.data["machine"]["occupants"] == ["crew 1"] and hedgehog.data["dp"] == 8
    view = battle.rules.describe_unit(battle.state, "hedgehog")
    assert "DP 8/8, RAM 7, aboard: driver, crew 1" in view.elements[0]
    bot(battle)
    assert battle.is_over
    kinds = [e.kind for e in battle.events]
    assert "machine_damage" in kinds and "shot" in kinds
    again = Battle.replay(s, battle.log_dicts(), rules=FigWarsRules())
    assert again.digest() == battle.digest()


def test_a_vehicle_has_two_actions_per_seat_and_takes_no_stun() -> None:
    battle = start(setup(a="Imperial Armour", b="Mecha Lance", seed=2, rounds=2))
    rules = battle.rules
    tank = battle.state.unit("battle-tank").elements[0]
    from campaign.rulesets.figwars3 import machine_play

    assert machine_play.actions(rules._machines[tank.id], tank) == 2 * (1 + 2)
    vanguard = battle.state.unit("vanguard").elements[0]
    assert machine_play.actions(rules._machines[vanguard.id], vanguard) == 2
    bot(battle)
    assert not any(e.kind == "stunned" and e.data.get("model") in (tank.id, vanguard.id) for e in battle.events)


# --- vehicles, mecha and casters together through the API ------------------------------------

import attrs  # noqa: E402

from campaign.engine.battle import Battle as _Battle  # noqa: E402
from campaign.engine.errors import IllegalCommand  # noqa: E402
from campaign.engine.pending import Decision  # noqa: E402
from campaign.engine.setup import SideSetup  # noqa: E402
from campaign.force import Force  # noqa: E402
from tests.figwars3.test_battle import sample  # noqa: E402

ORDER = ("cast", "ram", "extra", "shoot", "strike", "repair", "walk", "done", "end_activation", "activate", "choose", "pass")


def mixed_setup(seed: int = 5, rounds: int = 3):  # type: ignore[no-untyped-def]
    a = Force("Patrol and Circle", "figwars-3", units=sample("USC Hedgehog Patrol").units + sample("Arcane Circle").units)
    b = Force("Armour and Mecha", "figwars-3", units=sample("Mecha Lance").units + sample("Imperial Armour").units[:2])
    s = setup(seed=seed, rounds=rounds)
    return attrs.evolve(s, sides=(SideSetup("a", "Side A", a), SideSetup("b", "Side B", b)))


def play(battle: _Battle, victims: bool = True) -> None:
    """Deterministic play that casts and rams whenever it can; a ram runs over the
    foremost enemy model, a template covers nobody else."""
    steps = 0
    while battle.pending is not None:
        steps += 1
        assert steps < 4000
        pending = battle.pending
        assert isinstance(pending, Decision)
        specs = sorted(pending.legal, key=lambda s: ORDER.index(s.type) if s.type in ORDER else 99)
        for spec in specs:
            facts = {}
            if spec.type == "ram":
                side = battle.state.unit(spec.params["unit"]).side
                enemy = next(u for u in battle.state.units if u.side != side and not u.eliminated)
                facts = {"victims": [enemy.alive[0].id]}
            if spec.type == "cast" and spec.params["power"] in ("assault", "blast"):
                facts = {"level": 1, "option": "single_6in" if spec.params["power"] == "assault" else "small_blast_6in"}
            try:
                battle.apply(battle.command(spec, facts=facts) if facts else battle.command(spec))
                break
            except IllegalCommand:
                continue
        else:
            raise AssertionError(f"stuck at {pending.prompt}")


def test_a_battle_with_vehicles_mecha_and_casters_replays_to_the_same_digest() -> None:
    s = mixed_setup()
    battle = start(s)
    archmage = battle.state.unit("archmage").elements[0]
    assert "ARC 3/3" in battle.rules.describe_unit(battle.state, "archmage").elements[0]
    play(battle)
    kinds = {e.kind for e in battle.events}
    assert {"cast", "ram", "machine_damage", "shot"} <= kinds, kinds
    again = _Battle.replay(s, battle.log_dicts(), rules=FigWarsRules())
    assert again.digest() == battle.digest()
    assert archmage.id


def test_odds_of_a_shot_at_a_machine_name_each_damage_result_and_a_ram_has_odds() -> None:
    battle = start(mixed_setup(seed=9))
    rules = battle.rules
    state = battle.state
    from campaign.rulesets.figwars3.commands import Ram, Shoot

    marine = state.unit("marine-fireteam").elements[0]
    shot = Shoot("marine-fireteam", marine.id, "strider", "", "Assault Rifle", {"range_band": "short"})
    report = rules.odds(state, shot)
    names = [o.name for o in report.outcomes]
    assert "damage: crew hit: 1 casualty" not in names and any(n.startswith("damage: cockpit hit") for n in names)
    total = sum(o.p for o in report.outcomes if o.name.startswith("damage: "))
    dp = report.outcome("DP inflicted").dist
    assert total == 1 - dp.get(0, 0)  # every hit that does DP has exactly one result
    hedgehog = state.unit("hedgehog").elements[0]
    strider = state.unit("strider").elements[0]
    ram_report = rules.odds(state, Ram("hedgehog", hedgehog.id, {"victims": [strider.id]}))
    assert {"DP on Strider", "DP on Hedgehog", "Strider struck"} <= {o.name for o in ram_report.outcomes}


def test_cast_spends_points_and_actions_and_barrier_wards_against_shots() -> None:
    battle = start(mixed_setup(seed=4))
    rules, state = battle.rules, battle.state
    from campaign.engine.context import Context  # noqa: F401
    from campaign.rulesets.figwars3.attack import drive
    from campaign.rulesets.figwars3.commands import Cast, Shoot

    mage = state.unit("archmage").elements[0]
    mage.data["actions"] = 2
    cast = Cast("archmage", mage.id, "barrier", "", "", {"level": 2})

    class Ctx:
        events: list = []

        def emit(self, kind: str, text: str, **data: object) -> None:
            self.events.append((kind, text))

    drive(rules.resolve(state, cast, Ctx()), [])
    assert mage.data["arc"]["points"] == 1 and mage.data["actions"] == 1
    assert mage.data["wards"] == [{"power": "barrier", "bonus": 4, "caster": mage.id}]
    tank = state.unit("battle-tank").elements[0]
    opposed = rules.opposed_for(state, Shoot("battle-tank", tank.id, "archmage", "", "Laser Cannon", {"range_band": "long"}))
    assert ("arcane barrier", 4) in [(t.label, t.dice) for t in opposed.defender.terms]
    view = rules.describe_unit(state, "archmage").elements[0]
    assert "ARC 1/3" in view and "arcane barrier +4d" in view


def test_builtin_scenarios_for_vehicles_and_for_casters() -> None:
    from scenarios import builtin_scenarios

    library = builtin_scenarios()
    crossing, stones = library["armoured-crossing"], library["circle-of-stones"]
    assert crossing.rulesets == ("figwars-3",) and crossing.rounds == 6 and "mire_tests" in " ".join(crossing.special_rules)
    assert stones.rulesets == ("figwars-3",) and stones.objectives[0].name == "Stone circle"
    for s in (crossing, stones):  # sides alternate unit by unit until every unit has gone (6.2)
        assert (s.activation, dict(s.activation_options)) == ("initiative", {"turn_structure": "alternate_until_all_pass"}), s.id


def test_a_chainfist_adds_a_dp_against_an_immobilised_machine() -> None:
    from campaign.rulesets.figwars3.attack import drive, resolve
    from campaign.rulesets.figwars3.commands import Strike
    from campaign.rulesets.figwars3.weapons import MELEE

    battle = start(setup(a="Gothic Imperium Battle Group", b="Imperial Armour", seed=2, rounds=2))
    rules, state = battle.rules, battle.state
    guard, tank = "guard-squad/guardsman", state.unit("battle-tank").elements[0]
    rules._profiles[guard] = attrs.evolve(rules.profile(guard), melee=(MELEE["Chainfist"],))
    strike = Strike(unit="guard-squad", model=guard, target="battle-tank", target_model=tank.id)

    def dp_of(opposed) -> int:  # type: ignore[no-untyped-def]
        return drive(resolve(opposed), [[6] * opposed.attacker.dice, [1] * opposed.defender.dice]).dp

    moving = rules.strike(state, strike)[0]
    assert not moving.attacker.chainfist
    tank.data["machine"]["movement_hits"] = 2  # immobilised: stationary (17.8)
    still = rules.strike(state, strike)[0]
    assert still.attacker.chainfist and dp_of(still) == dp_of(moving) + 1
    from campaign.rulesets.figwars3.attack import exact_odds

    assert exact_odds(still).expected_dp > exact_odds(moving).expected_dp  # odds read the same rider
