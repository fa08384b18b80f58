"""The hooks a phased turn calls, driven with scripted commands and dice."""

import attrs
import pytest

from campaign.engine.commands import Choose, Pass
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.d10_phased.commands import Declare, Move, OpFire, Report, RunAway, UseSpecial
from campaign.rulesets.d10_phased.play import D10Play, Game, new_game
from campaign.rulesets.d10_phased.samples import GHOST_ENGINES, GNASHER_HORDE, IRON_LEGION
from campaign.rulesets.d10_phased.state import ROUTED, roster_of
from campaign.rulesets.d10_phased.turn import (
    MORALE_1,
    MORALE_2,
    MOVE_FIRST,
    MOVE_SECOND,
    MOVING_ATTACK,
    PHASES,
    SPECIALS,
    STATIONARY_ATTACK,
)
from campaign.rulesets.d10_phased.victory import POSITION, SUDDEN_DEATH
from tests.d10_phased.scripted import play

SERGEANT = "legionaries/legion-sergeant-1"
LEGIONARY = "legionaries/legionary-1"
GNASHER = "gnasher-pack/gnasher-1"
SLINGER = "slingers/slinger-2"


def game(victory: str = "", blue=GNASHER_HORDE) -> Game:
    return new_game(roster_of({"red": IRON_LEGION, "blue": blue}), ["red", "blue"], victory)


def log() -> tuple[list, object]:
    events: list = []
    return events, lambda kind, text="", **data: events.append((kind, text))


def test_turn_start_normal_super_and_failure() -> None:
    rules, g = D10Play(), game()
    events, emit = log()
    play(rules.turn_start(g, emit), [7], [3], Choose(option="no"))
    assert (g.turn, g.holder, g.first, g.template, g.streaks) == (1, "red", "red", "normal", {"red": 0, "blue": 1})
    assert rules.phases(g) == list(PHASES)
    # turn 2: blue's +2 wins it; a super roll of 4 fails and red (now holding) picks who moves
    play(rules.turn_start(g, emit), [6], [5], Choose(option="super"), [4], Choose(option="blue"))
    assert (g.holder, g.first, g.template, g.streaks) == ("red", "blue", "super_failed", {"red": 0, "blue": 2})
    # turn 3: blue (+4) wins and takes Mad Minute
    play(rules.turn_start(g, emit), [5], [2], Choose(option="super"), [5], Choose(option="2"))
    assert (g.template, g.first, g.opener()) == ("mad_minute", "", "blue")
    assert rules.phases(g) == [SPECIALS, STATIONARY_ATTACK, MORALE_1, MORALE_2]
    assert rules.actors(g, STATIONARY_ATTACK) == ["blue", "red"]


def test_rolled_super_table_and_senseless_slaughter() -> None:
    rules, g = D10Play({"super_table": "roll_d8", "morale_timing": "single"}), game()
    events, emit = log()
    play(
        rules.turn_start(g, emit),
        [9], [1], Choose(option="super"), [8], [6], Choose(option="blue"),
        Report(facts={"spared": [SERGEANT]}), Report(facts={"spared": []}),
    )
    assert g.template == "senseless_slaughter" and g.first == "blue"
    assert not g.roster.model(SERGEANT).mindless and g.roster.model(LEGIONARY).mindless
    assert MORALE_1 not in rules.phases(g)


def test_command_control_report_sets_the_flags() -> None:
    rules, g = D10Play(), game()
    events, emit = log()
    play(rules.turn_start(g, emit), [7], [3], Choose(option="no"))
    play(rules.phase_start(g, MOVE_FIRST, emit), Report(facts={"beyond_radius": [LEGIONARY]}))
    assert g.roster.model(LEGIONARY).out_of_command
    with pytest.raises(IllegalCommand):
        play(rules.phase_start(g, MOVE_FIRST, emit), Report(facts={"beyond_radius": ["nobody"]}))


def start(rules: D10Play, g: Game, emit) -> None:
    play(rules.turn_start(g, emit), [7], [3], Choose(option="no"))


def test_move_with_stream_op_fire_and_run_away() -> None:
    rules, g = D10Play(), game()
    events, emit = log()
    start(rules, g, emit)
    assert {s.params["model"] for s in rules.legal(g, MOVE_FIRST, "red")} >= {SERGEANT, LEGIONARY}
    move = Move(model=LEGIONARY, path=["clear 2", "rough 1", "stream 1"], contacts=[SLINGER])
    # stream d10 = 7 crosses; blue passes op fire; blue's slinger runs away 5" and rolls 8: pinned
    play(
        rules.resolve(g, "red", move, emit), [7], Pass(), RunAway(model=SLINGER, inches="5"), [8]
    )
    m = g.roster.model(LEGIONARY)
    slinger = g.roster.model(SLINGER)
    assert m.moved and slinger.ran_away and slinger.marker == "pinned" and g.contacts == []
    # a gnasher charges the sergeant: the sergeant stands, they touch; then op fire kills a mover
    play(rules.resolve(g, "red", Move(model=SERGEANT, path=["clear 3"], contacts=[GNASHER]), emit), Pass(), Pass())
    assert g.touching(SERGEANT) == [GNASHER]
    assert rules.legal(g, MOVE_SECOND, "blue") and GNASHER not in {s.params["model"] for s in rules.legal(g, MOVE_SECOND, "blue")}
    mover = "legionaries/legionary-2"
    play(
        rules.resolve(g, "red", Move(model=mover, path=["road 6"]), emit),
        OpFire(model="slingers/slinger-1", facts={"worse_target_at_end": True}), [9], [2],
    )
    assert not g.roster.model(mover).alive and g.roster.model("slingers/slinger-1").op_fired


def test_moves_refused_cleanly() -> None:
    rules, g = D10Play(), game()
    events, emit = log()
    start(rules, g, emit)
    for bad, rule in (
        (Move(model=LEGIONARY, path=["trees 1"]), "DP-8.4"),
        (Move(model=LEGIONARY, path=["clear"]), "DP-8"),
        (Move(model=GNASHER, path=["clear 1"]), "DP-8"),
        (Move(model=LEGIONARY, path=["clear 7"]), "DP-8"),
    ):
        with pytest.raises(IllegalCommand) as err:
            play(rules.resolve(g, "red", bad, emit))
        assert err.value.rule == rule
    assert not g.roster.model(LEGIONARY).moved


def test_attack_phase_alternates_holds_effects_and_settles_at_the_end() -> None:
    rules, g = D10Play(), game()
    events, emit = log()
    start(rules, g, emit)
    g.phase = STATIONARY_ATTACK
    assert rules.actors(g, STATIONARY_ATTACK) == ["red", "blue"]
    walker = "walker/siege-walker-1"
    red = Declare(target=SLINGER, attackers=[walker, SERGEANT], facts={"bonus": 1})
    odds = rules.odds(g, "red", red)
    assert odds.dice == 5 and odds.modifiers == (1,) * 5
    play(rules.resolve(g, "red", red, emit), [9, 9, 1, 2, 3])
    blue = Declare(target=SERGEANT, attackers=[SLINGER, "slingers/slinger-1"])
    play(rules.resolve(g, "blue", blue, emit), [6, 6])
    assert g.roster.model(SLINGER).alive  # nothing applies before the phase ends
    with pytest.raises(IllegalCommand, match="AMB-30"):
        play(rules.resolve(g, "red", Declare(target=SLINGER, attackers=[LEGIONARY]), emit))
    with pytest.raises(IllegalCommand, match="DP-10.1"):
        play(rules.resolve(g, "red", Declare(target="slingers/slinger-3", attackers=[walker]), emit))
    # end: slinger has no saves (destroyed); sergeant saves 1 of 2 and dies; blue names a new leader
    play(rules.phase_end(g, STATIONARY_ATTACK, emit), [5], Choose(option=LEGIONARY))
    assert not g.roster.model(SLINGER).alive and not g.roster.model(SERGEANT).alive
    assert g.roster.units["legionaries"].leader == LEGIONARY
    assert ("destroyed", "Slinger 2: 2 hit(s), 0 saved, destroyed") in events  # numbered among namesakes


def test_morale_phase_reads_the_reported_facts() -> None:
    rules, g = D10Play(), game()
    events, emit = log()
    start(rules, g, emit)
    g.roster.units["slingers"].attacked_since_morale = True
    play(
        rules.phase_start(g, MORALE_1, emit),
        Report(facts={}),
        Report(facts={"leaves_table": ["slingers/slinger-1"]}),
    )
    # slingers (6, cowardly, attacked): d6 6 fails; the six roll 1..6 in order
    play(rules.phase_end(g, MORALE_1, emit), [6], [1], [5], [3], [9], [2], [10], Choose(option="keep"))
    assert not g.roster.model("slingers/slinger-1").alive  # routed off the table
    assert g.roster.model("slingers/slinger-5").marker == ROUTED


def test_specials_interphase() -> None:
    rules, g = D10Play(), game(blue=GHOST_ENGINES)
    events, emit = log()
    start(rules, g, emit)
    skiff = "spine-skiffs/spine-skiff-1"
    assert [s.params["model"] for s in rules.legal(g, SPECIALS, "blue")] == [skiff, "spine-skiffs/spine-skiff-2"]
    play(rules.resolve(g, "blue", UseSpecial(model=skiff), emit))
    assert g.specials_used[-1] == [skiff, "Smoke"]


def test_turn_end_victory() -> None:
    rules, g = D10Play(), game(SUDDEN_DEATH)
    events, emit = log()
    for m in g.roster.side_models("blue")[:12]:  # 12 of 23
        m.alive = False
    play(rules.turn_end(g, emit))
    assert g.verdict is not None and g.verdict.winner == "red" and rules.is_over(g)
    g2 = game(POSITION)
    g2.turn = 8
    play(rules.turn_end(g2, emit), Report(facts={"points": {"Q1": {"red": 3}, "Q2": {"blue": 1, "red": 1}}}))
    assert g2.verdict.winner == "red"
    g3 = game(POSITION)
    g3.turn = 8
    with pytest.raises(IllegalCommand):
        play(rules.turn_end(g3, emit), Report(facts={"points": {"Q1": {"green": 3}}}))


def test_move_phases_and_attack_phase_actors() -> None:
    rules, g = D10Play(), game()
    events, emit = log()
    start(rules, g, emit)
    assert rules.actors(g, MOVE_FIRST) == ["red"] and rules.actors(g, MOVE_SECOND) == ["blue"]
    assert rules.actors(g, MOVING_ATTACK) == ["red", "blue"] and rules.actors(g, MORALE_2) == []


def test_templates_in_play_rush_heat_mad_minute_and_panic() -> None:
    rules = D10Play()
    events, emit = log()
    # Rush: no op fire window during a move
    g = game()
    play(rules.turn_start(g, emit), [7], [3], Choose(option="super"), [6], Choose(option="3"), Choose(option="red"))
    assert g.template == "rush" and STATIONARY_ATTACK not in rules.phases(g)
    play(rules.resolve(g, "red", Move(model=LEGIONARY, path=["clear 3"]), emit))  # no Decision asked
    # Heat of Battle: no morale phases
    g = game()
    play(rules.turn_start(g, emit), [7], [3], Choose(option="super"), [6], Choose(option="4"))
    assert not set(rules.phases(g)) & {MORALE_1, MORALE_2} and g.first == "red"
    # Mad Minute: a model that moved may still attack in the stationary phase
    g = game()
    play(rules.turn_start(g, emit), [7], [3], Choose(option="super"), [6], Choose(option="2"))
    g.roster.model(LEGIONARY).moved = True
    assert g.roster.model(LEGIONARY) in rules.attackers(g, STATIONARY_ATTACK, "red")
    # Wide Spread Panic: one morale phase in which everyone tests, the fearless walker too
    g = game()
    play(rules.turn_start(g, emit), [7], [3], Choose(option="super"), [6], Choose(option="7"))
    assert rules.phases(g) == ["panic"]
    play(rules.phase_start(g, "panic", emit), Report(facts={}), Report(facts={}))
    walker = "walker/siege-walker-1"
    # red's units: legionaries d8, walker (1 model: no unit roll); blue's: pack d12, slingers d6,
    # leapers d4 -- all pass; then the individual rolls: walker and both characters
    script = [[1], [1], [1], [1], [9], [9], [9]]
    checks, asked = play(rules.phase_end(g, "panic", emit), *script)
    assert [r.die for r in asked] == [8, 12, 6, 4, 10, 10, 10]
    assert g.roster.model(walker).indiv_checked


def test_morale_timing_single_checks_marker_holders_in_morale_2() -> None:
    rules = D10Play({"morale_timing": "single"})
    events, emit = log()
    g = game()
    start(rules, g, emit)
    assert MORALE_1 not in rules.phases(g)
    g.roster.model(SLINGER).marker = "pinned"
    play(rules.phase_start(g, MORALE_2, emit), Report(facts={}), Report(facts={}))
    play(rules.phase_end(g, MORALE_2, emit), [9])
    assert g.roster.model(SLINGER).marker == ""


WALKER = "walker/siege-walker-1"


def test_dp_14_3_plunging_fire_over_friends_from_the_stored_bases() -> None:
    rules, g = D10Play(), game()
    # the walker (2-inch base) fires over legionaries (1 inch): plunging fire
    decl = rules.declaration(g, "red", GNASHER, [WALKER], False, {}, [], {"friends_between": [LEGIONARY]}, {})
    assert decl.target == GNASHER
    # a legionary (1 inch) may not fire over the sergeant (1 inch)
    with pytest.raises(IllegalCommand, match="DP-14.3"):
        rules.declaration(g, "red", GNASHER, [LEGIONARY], False, {}, [], {"friends_between": [SERGEANT]}, {})
    # ... unless the legionary touches it (through_friend false and no friend named): the table's call
    rules.declaration(g, "red", GNASHER, [LEGIONARY], False, {}, [], {}, {})
    # per attacker in `each`; an enemy is not a friend
    with pytest.raises(IllegalCommand, match="DP-14.3"):
        rules.declaration(g, "red", GNASHER, [WALKER, LEGIONARY], False, {}, [], {}, {LEGIONARY: {"friends_between": [SERGEANT]}})
    with pytest.raises(IllegalCommand, match="DP-14.2"):
        rules.declaration(g, "red", GNASHER, [WALKER], False, {}, [], {"friends_between": [SLINGER]}, {})


def test_dp_13_4_op_fire_at_a_jumper_asks_for_the_path() -> None:
    rules, g = D10Play(), game()
    events, emit = log()
    start(rules, g, emit)
    leaper = "leapers/leaper-1"
    jump = Move(model=leaper, path=["clear 8"], jump=True)
    gen = rules.resolve(g, "blue", jump, emit)
    decision = next(gen)
    spec = next(s for s in decision.legal if s.params.get("model") == LEGIONARY)
    names = [f.name for f in spec.facts]
    assert names[:3] == ["sees_jump_path", "highest_obstacle", "firer_level"]
    assert "legal_target_during_move" not in names and "worse_target_at_end" not in names  # option "path"
    with pytest.raises(IllegalCommand, match="DP-13.4"):
        gen.send(OpFire(model=LEGIONARY, facts={"sees_jump_path": False}))
    # it sees the path over trees: the path stands at level 4; both dice miss (2, 3), blue goes on
    play(rules.resolve(g, "blue", attrs.evolve(jump, model="leapers/leaper-2"), emit), OpFire(model=LEGIONARY, facts={"highest_obstacle": "trees", "firer_level": 1}), [2, 3], Pass())
    assert ("jump_path" in [k for k, _ in events]) and any("level 4" in t for k, t in events if k == "jump_path")
    assert g.roster.model(LEGIONARY).op_fired
    # "path_and_worse": the jumper must also end a worse target
    strict, g2 = D10Play({"jump_op_fire": "path_and_worse"}), game()
    start(strict, g2, emit)
    decision = next(strict.resolve(g2, "blue", jump, emit))
    assert "worse_target_at_end" in [f.name for f in decision.legal[0].facts]


@pytest.mark.parametrize("number", range(1, 9))
def test_each_super_template_played_from_the_turn_start_with_scripted_dice(number: int) -> None:
    """Red wins the initiative (d10 7 against 3), tries for Super Initiative (d10 6), picks
    result `number`; the turn that follows keeps the template's phases and flags."""
    from campaign.engine.pending import Decision, RollRequest
    from campaign.rulesets.d10_phased.turn import BY_NUMBER

    rules, g = D10Play(), game()
    events, emit = log()
    gen = rules.turn_start(g, emit)
    faces = [[7], [3], [6]]
    asked: list[str] = []
    answer = None
    try:
        while True:
            request = gen.send(answer)
            if isinstance(request, RollRequest):
                answer = tuple(faces.pop(0))
                continue
            assert isinstance(request, Decision)
            asked.append(request.prompt)
            if request.prompt.startswith("Try for"):
                answer = Choose(option="super")
            elif request.prompt.startswith("Super Initiative: choose"):
                answer = Choose(option=str(number))
            elif request.prompt.startswith("Who moves first"):
                answer = Choose(option="blue")
            else:  # Senseless Slaughter: each side spares nobody
                answer = Report(facts={"spared": []})
    except StopIteration:
        pass
    assert not faces
    template = BY_NUMBER[number]
    assert g.template == template.id and g.holder == "red"
    assert rules.phases(g) == list(template.phases)
    assert any(k == "super_initiative" for k, _ in events)
    if template.mindless:
        # nobody spared: every model mindless but the characters, each its own spared model
        assert all(m.mindless is (not g.roster.units[m.unit].character) for m in g.roster.models.values())
        assert sum(p.startswith("Senseless") for p in asked) == 2
    if template.phases and MOVE_FIRST in template.phases:
        assert g.first in ("red", "blue")
    else:
        assert g.first == "" and g.opener() == "red"
