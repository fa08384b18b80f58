"""CA-5 split actions and AMB-19 step results, over the toy host and Flat Out War."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.activation.cards.split import SplitGroup, check_split, second_group_limit
from campaign.activation.cards.turn import CardRuleError
from campaign.engine.battle import Battle
from campaign.engine.dice import TableDice
from campaign.engine.errors import IllegalCommand
from tests.activation.toy import ToyRules, setup


# --- the counts (pure) ----------------------------------------------------------------------


@pytest.mark.parametrize("models, limit", [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (10, 5)])
def test_split_off_group_is_at_most_half_rounded_down(models: int, limit: int) -> None:
    assert second_group_limit(models) == limit


def shoot(target: str, count: int, models: frozenset[str] | None = None) -> SplitGroup:
    return SplitGroup("ballistic", target, count, models)


@pytest.mark.parametrize(
    "groups, models, rule",
    [
        ((shoot("x", 3), shoot("y", 2)), 5, None),
        ((shoot("x", 2), shoot("y", 3)), 5, "AMB-18"),
        ((shoot("x", 3), shoot("y", 2)), 4, "CA-5.1"),  # more models than the unit has
        ((shoot("x", 2), shoot("x", 2)), 4, "CA-5.1"),  # nothing different
        ((shoot("x", 2),), 4, "CA-5.1"),
        ((shoot("x", 1), shoot("y", 1), shoot("z", 1)), 4, "CA-5.1"),
        ((SplitGroup("overwatch", None, 2), shoot("y", 2)), 4, "CA-5.3"),
        ((SplitGroup("rally", None, 2), shoot("y", 2)), 4, "CA-6.1"),
        ((shoot("x", 2, frozenset({"a", "b"})), shoot("y", 2, frozenset({"b", "c"}))), 4, "CA-5.2"),
        ((SplitGroup("move", None, 2, frozenset({"a", "b"})), shoot("y", 2, frozenset({"b", "c"}))), 4, "CA-5.1"),
        ((SplitGroup("move", None, 2), shoot("x", 2)), 4, None),  # another action type (AMB-18)
    ],
)
def test_check_split(groups: tuple[SplitGroup, ...], models: int, rule: str | None) -> None:
    if rule is None:
        check_split(groups, models)
        return
    with pytest.raises(CardRuleError) as exc:
        check_split(groups, models)
    assert exc.value.rule == rule


def test_other_action_type_can_be_switched_off() -> None:
    with pytest.raises(CardRuleError, match="split_other_action") as exc:
        check_split((SplitGroup("move", None, 2), shoot("x", 2)), 4, other_kinds=False)
    assert exc.value.rule == "AMB-18"


# --- through the scheme (toy host) -------------------------------------------------------------


def battle(red: list[tuple[str, int]], blue: list[tuple[str, int]], red_cards: list[str], blue_cards: list[str], **options: Any) -> Battle:
    b = Battle.start(setup(red, blue, dice="table", **options), TableDice(), rules=ToyRules())
    for cards, spares in ((red_cards, ["10D", "9D"]), (blue_cards, ["10S", "9S"])):
        b.apply({"type": "deal_cards", "cards": (cards + spares)[: b.pending.data["count"]]})  # 3/4 rule extras
    b.apply({"type": "assign_cards", "cards": {u.lower(): c for (u, _), c in zip(red, red_cards)}})
    b.apply({"type": "assign_cards", "cards": {u.lower(): c for (u, _), c in zip(blue, blue_cards)}})
    return b


def split(unit: str, *actions: dict[str, Any], models: list[int] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "card_split", "unit": unit, "actions": list(actions)}
    if models is not None:
        out["models"] = models
    return out


def toy_shoot(unit: str, target: str) -> dict[str, Any]:
    return {"type": "shoot", "unit": unit, "target": target}


def alive(b: Battle, unit: str) -> int:
    return len(b.state.unit(unit).alive)


def test_a_split_shot_is_one_action_at_two_targets() -> None:
    b = battle([("Gunners", 4)], [("X", 4), ("Y", 4)], ["AH"], ["KC", "QC"])
    b.apply(split("gunners", toy_shoot("gunners", "x"), toy_shoot("gunners", "y"), models=[3, 1]))
    assert "Gunners splits its action: 3 model(s) ballistic at X and 1 model(s) ballistic at Y" in [e.text for e in b.events]
    assert b.pending.purpose.startswith("4 x d6 shoot, Gunners at X")
    b.roll([6, 1, 1, 1])
    b.roll([1, 1, 1, 1])  # the second group's dice: the toy host rolls per alive model
    gunners = b.state.scheme["cards"].units["gunners"]
    assert (gunners.ap_left, gunners.actions_taken) == (1, 1)  # one AP, one previous action
    assert alive(b, "x") == 3
    b.apply({"type": "melee", "unit": "gunners", "target": "x"})  # the gun now needs a prep (CA-11.2)
    assert b.pending.purpose.startswith("4 x d6 melee")
    b.roll([4, 4, 4, 4])
    assert "X: 0 hit(s)" in [e.text for e in b.events]  # 4 - 1 (one previous action): misses


@pytest.mark.parametrize(
    "command, rule",
    [
        (split("gunners", toy_shoot("gunners", "x"), toy_shoot("gunners", "y"), models=[1, 3]), "AMB-18"),
        (split("gunners", toy_shoot("gunners", "x"), toy_shoot("gunners", "y"), models=[3, 2]), "CA-5.1"),
        (split("gunners", toy_shoot("gunners", "x"), toy_shoot("gunners", "x"), models=[2, 2]), "CA-5.1"),
        (split("gunners", toy_shoot("gunners", "x"), toy_shoot("gunners", "y")), "CA-5.1"),  # counts missing
        (split("gunners", toy_shoot("gunners", "x"), {"type": "card_overwatch", "unit": "gunners"}, models=[2, 2]), "commands"),
        (split("gunners", toy_shoot("gunners", "x"), toy_shoot("x", "gunners"), models=[2, 2]), "CA-5.1"),
        (split("gunners", toy_shoot("gunners", "x")), "CA-5.1"),
    ],
)
def test_illegal_splits_are_refused_naming_the_rule(command: dict[str, Any], rule: str) -> None:
    b = battle([("Gunners", 4)], [("X", 4), ("Y", 4)], ["AH"], ["KC", "QC"])
    with pytest.raises(IllegalCommand) as exc:
        b.apply(command)
    assert exc.value.rule == rule, exc.value
    assert b.state.scheme["cards"].units["gunners"].ap_left == 2


def test_move_and_shoot_split_unless_switched_off() -> None:
    move = {"type": "move", "unit": "gunners", "facts": {"inches": 4}}
    b = battle([("Gunners", 4)], [("X", 4)], ["AH"], ["KC"])
    b.apply(split("gunners", move, toy_shoot("gunners", "x"), models=[2, 2]))
    b.roll([1, 1, 1, 1])
    assert b.state.scheme["cards"].units["gunners"].moved_this_turn == 4
    off = battle([("Gunners", 4)], [("X", 4)], ["AH"], ["KC"], split_other_action=False)
    with pytest.raises(IllegalCommand) as exc:
        off.apply(split("gunners", move, toy_shoot("gunners", "x"), models=[2, 2]))
    assert exc.value.rule == "AMB-18"


def test_a_one_model_unit_is_not_offered_a_split() -> None:
    b = battle([("Hero", 1), ("Gunners", 2)], [("X", 2)], ["AH", "KH"], ["KC"])
    assert not any(s.type == "card_split" for s in b.legal_commands())
    with pytest.raises(IllegalCommand):
        b.apply(split("hero", toy_shoot("hero", "x"), toy_shoot("hero", "x"), models=[1, 1]))


def test_a_held_action_can_be_split() -> None:
    b = battle([("Sentry", 4)], [("X", 2), ("Y", 2)], ["AH"], ["KC", "QC"])
    b.apply({"type": "card_overwatch", "unit": "sentry"})
    b.apply({"type": "activate_cards", "units": ["y"]})
    b.apply({"type": "move", "unit": "y", "facts": {"inches": 3}})
    b.apply({"type": "card_interrupt", "unit": "sentry", "window": "before"})
    b.apply(split("sentry", toy_shoot("sentry", "x"), toy_shoot("sentry", "y"), models=[2, 2]))
    b.roll([1, 1, 1, 1])
    b.roll([1, 1, 1, 1])
    assert b.state.scheme["cards"].units["sentry"].held_actions == 0


# --- AMB-19: a combined activation's results take effect at the end of each step ------------------


def combined(**options: Any) -> Battle:
    b = battle([("A", 2), ("B", 2)], [("X", 2), ("Y", 2)], ["AH", "2H"], ["KC", "QC"], **options)
    b.apply({"type": "activate_cards", "units": ["a", "b"]})
    return b


def test_a_step_resolves_against_the_enemy_as_it_stood() -> None:
    b = combined()
    b.apply(toy_shoot("a", "x"))
    b.roll([6, 6])  # both of X's models hit ...
    assert alive(b, "x") == 2  # ... but the step is not over: X still stands
    b.apply(toy_shoot("b", "x"))  # so B may still shoot it
    b.roll([6, 1])
    b.roll([6])  # B's hit alone halves X: X's morale roll holds
    assert alive(b, "x") == 0
    applied = [e for e in b.events if e.kind == "results_applied"]
    assert [e.text for e in applied] == ["The results take effect together: X"]


def test_casualties_of_one_step_add_up() -> None:
    """Both shots kill X's first model as they saw it; the second casualty moves on."""
    b = battle([("A", 2), ("B", 2)], [("X", 4), ("Y", 2)], ["AH", "2H"], ["KC", "QC"])
    b.apply({"type": "activate_cards", "units": ["a", "b"]})
    b.apply(toy_shoot("a", "x"))
    b.roll([6, 1])
    b.apply(toy_shoot("b", "x"))
    b.roll([6, 1])
    assert alive(b, "x") == 2


def test_results_at_once_when_the_option_says_so() -> None:
    b = combined(step_results="at_once")
    b.apply(toy_shoot("a", "x"))
    b.roll([6, 6])
    assert alive(b, "x") == 0
    assert not any(s.type == "shoot" and s.params.get("target") == "x" for s in b.legal_commands())


def test_a_lone_unit_applies_its_results_at_once() -> None:
    b = battle([("A", 2)], [("X", 2), ("Y", 2)], ["AH"], ["KC", "QC"])
    b.apply(toy_shoot("a", "x"))
    b.roll([6, 1])
    assert alive(b, "x") == 1


# --- Flat Out War: the groups are FOW commands naming their elements ----------------------------


def fow_battle(red: tuple[Any, ...], blue: tuple[Any, ...], red_cards: dict[str, str], blue_cards: dict[str, str], **options: Any) -> Battle:
    from tests.activation.test_fow_host import start

    b = start(red, blue, **options)
    for cards, spares in ((red_cards, ["10D", "9D"]), (blue_cards, ["10S", "9S"])):
        b.apply({"type": "deal_cards", "cards": ([*cards.values()] + spares)[: b.pending.data["count"]]})
    b.apply({"type": "assign_cards", "cards": red_cards})
    b.apply({"type": "assign_cards", "cards": blue_cards})
    return b


def fow_rolls(b: Battle, hit: int, recovery: int) -> list[str]:
    """Answer every pending roll: `hit` on attack dice, `recovery` on recovery dice, 6 on others."""
    from campaign.engine.pending import RollRequest

    asked = []
    while isinstance(b.pending, RollRequest):
        purpose = b.pending.purpose
        asked.append(purpose)
        face = hit if "to hit" in purpose else recovery if "recovery" in purpose else 6
        b.roll([face] * b.pending.count)
    return asked


def fow_units() -> tuple[Any, Any, Any]:
    from campaign.force import Unit
    from tests.activation.test_fow_host import BOW, MILITIA, el

    return Unit("Archers", (el("Archer", count=4, weapons=(BOW,)),)), MILITIA, Unit("Goblins", (el("Gob", count=2),))


def test_fow_split_fire_names_the_split_off_shooters() -> None:
    archers, militia, goblins = fow_units()
    b = fow_battle((archers,), (militia, goblins), {"archers": "AH"}, {"militia": "KC", "goblins": "QC"})
    b.apply(split("archers", {"type": "shoot", "unit": "archers", "target": "militia"},
                  {"type": "shoot", "unit": "archers", "target": "goblins", "facts": {"shooters": ["archers/archer-4"]}}))
    asked = fow_rolls(b, hit=6, recovery=1)
    to_hit = [p for p in asked if "to hit" in p]
    assert to_hit == ["3 x d6 to hit, Archers shooting at Militia", "1 x d6 to hit, Archers shooting at Goblins"]
    assert (len(b.state.unit("militia").alive), len(b.state.unit("goblins").alive)) == (1, 1)
    assert b.state.scheme["cards"].units["archers"].ap_left == 1


@pytest.mark.parametrize(
    "second, rule",
    [
        ({"type": "shoot", "unit": "archers", "target": "goblins", "facts": {"shooters": ["archers/archer", "archers/archer-4"]}}, "CA-5.2"),
        ({"type": "shoot", "unit": "archers", "target": "goblins", "facts": {"shooters": ["archers/archer-2", "archers/archer-3", "archers/archer-4"]}}, "AMB-18"),
        ({"type": "melee", "unit": "archers", "target": "goblins", "facts": {"attackers": ["archers/archer-4"]}}, "host"),
    ],
)
def test_fow_illegal_splits(second: dict[str, Any], rule: str) -> None:
    archers, militia, goblins = fow_units()
    b = fow_battle((archers,), (militia, goblins), {"archers": "AH"}, {"militia": "KC", "goblins": "QC"})
    first = {"type": "shoot", "unit": "archers", "target": "militia", "facts": {"shooters": ["archers/archer"]}}
    with pytest.raises(IllegalCommand) as exc:
        b.apply(split("archers", first, second))
    assert exc.value.rule == rule, exc.value


def test_fow_combined_step_applies_casualties_at_its_end() -> None:
    from campaign.force import Unit
    from tests.activation.test_fow_host import BOW, el

    archers, militia, goblins = fow_units()
    bows = Unit("Bows", (el("Bowman", count=2, weapons=(BOW,)),))
    b = fow_battle((archers, bows), (militia, goblins), {"archers": "AH", "bows": "2H"}, {"militia": "KC", "goblins": "QC"})
    b.apply({"type": "activate_cards", "units": ["archers", "bows"]})
    b.apply({"type": "shoot", "unit": "archers", "target": "goblins"})
    fow_rolls(b, hit=6, recovery=1)
    assert len(b.state.unit("goblins").alive) == 2  # held back until the step ends
    b.apply({"type": "shoot", "unit": "bows", "target": "goblins"})  # Goblins still a legal target
    fow_rolls(b, hit=6, recovery=1)
    assert b.state.unit("goblins").eliminated
    assert any(e.kind == "results_applied" for e in b.events)
    again = Battle.replay(b.setup, b.log_dicts(), TableDice())
    assert again.digest() == b.digest()
