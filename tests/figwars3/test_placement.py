"""Placing the forces before turn 1 (5, PR-22, PR-23), rules revision 2: sides by number of
units (a tie on 1d8), units one at a time, sides alternating, the owner picking which;
Recon last (the turn-1 First Player's last when both sides have Recon, that initiative
kept for turn 1); Ambush and Drop units not placed. Revision 1 (battles recorded before)
has no placement step. Table dice throughout, so every roll is scripted."""

from __future__ import annotations

import attrs

from campaign.engine.battle import Battle
from campaign.engine.pending import Decision, RollRequest
from campaign.engine.setup import BattleSetup
from campaign.force import Force
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import bot, setup

REV2 = {"rules_revision": 2}


def _with(force: Force, unit_name: str, ability: str) -> Force:
    units = tuple(
        attrs.evolve(u, elements=tuple(attrs.evolve(e, attributes=(*e.attributes, ability)) for e in u.elements))
        if u.name == unit_name else u
        for u in force.units
    )
    return attrs.evolve(force, units=units)


def _start(s: BattleSetup, **options: object) -> Battle:
    return Battle.start(s, rules=FigWarsRules({**REV2, **options}))


def _place_all(battle: Battle, pick_last: bool = False) -> list[tuple[str, str]]:
    """Answer every placement decision (the first unit offered, or the last); the placed
    (side, unit) in order, from the events."""
    while isinstance(battle.pending, Decision) and battle.pending.prompt.startswith("Deployment"):
        legal = battle.pending.legal
        battle.apply(battle.command(legal[-1] if pick_last else legal[0]))
    return [(e.data["side"], e.data["unit"]) for e in battle.events if e.kind == "placed"]


def test_the_side_with_more_units_places_first_and_sides_alternate() -> None:
    battle = _start(setup())  # USC 3 units, Revenant 5
    assert isinstance(battle.pending, Decision) and battle.pending.side == "b"
    assert len(battle.pending.legal) == 5  # the owner picks which unit goes down
    placed = _place_all(battle, pick_last=True)
    assert [s for s, _ in placed] == ["b", "a", "b", "a", "b", "a", "b", "b"]
    assert placed[0] == ("b", "hunter-pair") and placed[1] == ("a", "spartan-fireteam")
    # then turn 1 as before: extra actions, initiative, a unit to activate
    kinds = [e.kind for e in battle.events]
    assert kinds.index("placed") < kinds.index("extra_actions") < kinds.index("initiative")
    assert battle.pending.legal[0].type == "activate"


def test_a_unit_count_tie_rolls_1d8_high_places_first() -> None:
    battle = _start(setup(a="Rebel Cell", b="Storm Trooper Detachment", dice="table"))
    request = battle.pending
    assert isinstance(request, RollRequest) and request.die == 8 and request.count == 2
    battle.roll([2, 6])  # a 2, b 6: b places first
    assert isinstance(battle.pending, Decision) and battle.pending.side == "b"
    placed = _place_all(battle)
    assert [s for s, _ in placed] == ["b", "a", "b", "a"]


def test_a_tied_deployment_roll_is_rolled_again() -> None:
    battle = _start(setup(a="Rebel Cell", b="Storm Trooper Detachment", dice="table"))
    battle.roll([4, 4])
    battle.roll([5, 1])  # the re-roll: a first
    assert battle.pending.side == "a"


def test_recon_units_go_last_and_sides_without_recon_first() -> None:
    s = setup()
    a, b = s.sides
    a = attrs.evolve(a, force=_with(a.force, "ODST Team", "Recon"))
    battle = _start(attrs.evolve(s, sides=(a, b)))
    placed = _place_all(battle)
    assert placed[-1] == ("a", "odst-team")
    assert [e.data["how"] for e in battle.events if e.kind == "placed"][-1] == "recon"
    assert "initiative_1" not in battle.state.data  # one side with Recon: no early initiative


def test_both_sides_with_recon_roll_turn_one_initiative_first_and_keep_it() -> None:
    s = setup(dice="table")
    a, b = s.sides
    a = attrs.evolve(a, force=_with(a.force, "ODST Team", "Recon"))
    b = attrs.evolve(b, force=_with(b.force, "Jackal Pack", "Recon"))
    battle = _start(attrs.evolve(s, sides=(a, b)))
    # USC 3 units, Revenant 5: no deployment roll; turn 1's initiative at once (one d8 a side)
    assert isinstance(battle.pending, RollRequest) and "initiative" in battle.pending.purpose
    battle.roll([7])  # Side A
    battle.roll([3])  # Side B: A is First Player and places its Recon last
    placed = _place_all(battle)
    assert placed[-2:] == [("b", "jackal-pack"), ("a", "odst-team")]
    # turn 1: the extra-action dice, and no second initiative roll
    battle.roll([1])
    battle.roll([1])
    assert isinstance(battle.pending, Decision) and battle.pending.side == "a"
    assert battle.state.scheme["order"] == ["a", "b"]
    assert sum(1 for e in battle.events if e.kind == "initiative_roll") == 1


def test_ambush_and_drop_units_are_not_placed() -> None:
    s = setup(a="Gothic Imperium Battle Group", b="Revenant Host")
    a, b = s.sides
    a = attrs.evolve(a, force=_with(a.force, "Scout Squad", "Ambush"))
    b = attrs.evolve(b, force=_with(b.force, "Elite Lance", "Drop Deployment"))
    battle = _start(attrs.evolve(s, sides=(a, b)))
    placed = {u for _, u in _place_all(battle)}
    assert "scout-squad" not in placed and "elite-lance" not in placed and len(placed) == 9
    texts = [e.text for e in battle.events if e.kind in ("hidden", "reserve")]
    assert texts == ["Scout Squad notes its secret ambush point", "Elite Lance waits off the table (Drop Deployment)"]


def test_revision_one_has_no_placement_step() -> None:
    battle = Battle.start(setup(), rules=FigWarsRules())
    assert battle.pending.legal[0].type == "activate"
    assert not any(e.kind == "placed" for e in battle.events)


def test_a_revision_two_battle_plays_and_replays_to_the_same_digest() -> None:
    s = attrs.evolve(setup(seed=5), options=dict(REV2))
    battle = Battle.start(s)
    bot(battle)
    assert battle.is_over and any(e.kind == "placed" for e in battle.events)
    again = Battle.replay(s, battle.log_dicts())
    assert again.digest() == battle.digest()


def test_new_campaign_battles_are_stamped_with_the_latest_revision() -> None:
    from campaign.campaigns.flow import battle_options
    from scenarios.demo_figwars import demo_campaign

    campaign, _ = demo_campaign()
    assert battle_options(campaign)["rules_revision"] == 3  # the latest: the self-destruct's cover (revisions.BLAST_COVER_EACH)
    assert battle_options(attrs.evolve(campaign, options={"rules_revision": 1}))["rules_revision"] == 1


def _order_text(battle: Battle) -> str:
    return next(e.text for e in battle.events if e.kind == "deployment_order")


def test_the_deployment_event_says_what_decided_the_order() -> None:
    battle = _start(setup())  # 3 units against 5: no roll
    assert _order_text(battle) == "Deployment: Side B (5 units), Side A (3 units); the most units place first"
    tied = _start(setup(a="Rebel Cell", b="Storm Trooper Detachment", dice="table"))
    tied.roll([2, 6])
    assert _order_text(tied).endswith("; as many units each, so 1d8 decided: Side B rolled highest")
    from campaign.rulesets.figwars3.placement import order_reason

    names = {"a": "A", "b": "B", "c": "C"}
    assert order_reason({"a": 4, "b": 2, "c": 2}, ["a", "c", "b"], names) == (
        "the most units place first; sides with as many rolled 1d8, highest first")


def test_the_placement_prompt_reads_the_scenarios_deployment_zone() -> None:
    from scenarios import builtin_scenarios

    library = builtin_scenarios()

    def prompt(scenario_id: str | None) -> str:
        s = setup()
        if scenario_id is not None:
            s = attrs.evolve(s, scenario=library[scenario_id])
        battle = _start(s)
        assert isinstance(battle.pending, Decision)
        return battle.pending.prompt

    assert prompt(None).endswith('(within 6" of its own table edge)')  # the rules' own zone (5)
    assert prompt("circle-of-stones").endswith('(within 10" of its own table edge)')
    assert prompt("fw-firefight").endswith('(within 6" of its own table edge)')
    assert prompt("hold-the-bridge").endswith("(where the scenario's deployment says)")  # a river, one side first
    circle = _start(attrs.evolve(setup(), scenario=library["circle-of-stones"]))
    _place_all(circle)
    assert all(e.text.endswith('within 10" of its own table edge') for e in circle.events if e.kind == "placed")


def test_a_library_scenarios_deploy_within_matches_its_words() -> None:
    from scenarios import builtin_scenarios

    found = {sid: s for sid, s in builtin_scenarios().items() if s.deploy_within is not None}
    assert {"circle-of-stones", "fw-firefight"} <= set(found)
    for sid, scenario in found.items():
        assert f"within {scenario.deploy_within} inches" in scenario.deployment, sid
