"""Whole d10 battles on the core's phased turn, through the Battle API (DP-3): samples
against samples with auto dice and the bot, replay (in a fresh process too), the built-in
scenarios, templates that drop phases, op fire inside a move, attack phases of alternating
picks whose hits land at the end, junk refused with nothing changed."""

from __future__ import annotations

import json
import subprocess
import sys

import attrs
import pytest

from campaign.activation.phased import phase_view
from campaign.campaigns.scenario import Scenario
from campaign.engine.battle import Battle
from campaign.engine.commands import Choose
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision, RollRequest
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.rulesets import get_ruleset
from campaign.rulesets.d10_phased.commands import Declare, Move, Report
from campaign.rulesets.d10_phased.forces import army_to_force
from campaign.rulesets.d10_phased.samples import GHOST_ENGINES, GNASHER_HORDE, IRON_LEGION
from tests.d10_phased.phasedplay import play_out, step


def setup(seed: int = 3, victory: str = "sudden-death", blue=GNASHER_HORDE, dice: str = "auto") -> BattleSetup:
    return BattleSetup(
        ruleset="d10-phased",
        sides=(SideSetup("red", "Red", army_to_force(IRON_LEGION)), SideSetup("blue", "Blue", army_to_force(blue))),
        scenario=Scenario(id="sudden-death", name="Sudden Death", victory=victory),
        activation="phased",
        seed=seed,
        dice=dice,
    )


def test_phased_is_the_default_turn_and_cards_stay_available() -> None:
    ruleset = get_ruleset("d10-phased")
    assert ruleset.default_activation == "phased" and "cards" in ruleset.activation_schemes


def test_a_sudden_death_battle_ends_and_is_the_same_for_the_same_seed() -> None:
    digests = []
    for _ in range(2):
        battle = play_out(Battle.start(setup(seed=4)))
        game = battle.rules.game(battle.state)  # type: ignore[attr-defined]
        assert game.verdict is not None and "half" in game.verdict.reason
        assert {"initiative", "hits", "morale", "victory", "moved"} <= {e.kind for e in battle.events}
        out = battle.outcome()
        assert sum(c.lost for s in out.sides for c in s.casualties) == sum(game.lost().values())
        assert out.strategic_winner == game.verdict.winner
        digests.append(battle.digest())
    assert digests[0] == digests[1]
    other = play_out(Battle.start(setup(seed=5, blue=GHOST_ENGINES)))
    assert other.digest() != digests[0]


def test_the_replay_in_a_fresh_process_gives_the_same_digest() -> None:
    battle = play_out(Battle.start(setup(seed=8)))
    assert Battle.replay(setup(seed=8), battle.log_dicts()).digest() == battle.digest()
    code = (
        "import json,sys\n"
        "from campaign.engine.battle import Battle\n"
        "from tests.d10_phased.test_battle import setup\n"
        "print(Battle.replay(setup(seed=8), json.loads(sys.stdin.read())).digest())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(battle.log_dicts()), capture_output=True,
                         text=True, check=True, env={"PYTHONHASHSEED": "99", "PATH": ""})
    assert out.stdout.strip() == battle.digest()


def test_the_three_built_in_scenarios_play_to_their_verdict() -> None:
    from scenarios.loader import builtin_scenarios

    library = builtin_scenarios()
    for sid, reason in (("battle-of-position", "Q1"), ("four-markers", "markers held"), ("sudden-death", "half")):
        battle = play_out(Battle.start(attrs.evolve(setup(seed=11), scenario=library[sid])))
        game = battle.rules.game(battle.state)  # type: ignore[attr-defined]
        assert game.verdict is not None and reason in game.verdict.reason, (sid, battle.state.end_reason)


def test_an_attack_phase_alternates_picks_and_its_hits_land_at_its_end() -> None:
    battle = Battle.start(setup(seed=4))
    game = battle.rules.game(battle.state)  # type: ignore[attr-defined]
    while not (battle.state.scheme["phased"]["kind"] == "alternate" and game.ledger.pending):
        step(battle)
    phase = battle.state.scheme["phased"]["phase_name"]
    pickers = []
    while phase_view(battle.state).phase == phase:  # type: ignore[union-attr]
        pending = battle.pending
        assert isinstance(pending, Decision)
        if any(s.type == "declare" for s in pending.legal):
            pickers.append(pending.side)
        # hits are held: every model with hits pending is still on the table
        assert all(game.roster.model(m).alive for m in game.ledger.pending)
        step(battle)
    assert game.ledger.pending == {}  # settled when the phase ended
    assert any(e.kind in ("damage", "destroyed") and e.data.get("when") == phase for e in battle.events)
    assert any(a != b for a, b in zip(pickers, pickers[1:])), f"picks should alternate: {pickers}"


def table(*dice: int) -> Battle:
    battle = Battle.start(setup(dice="table"))
    for face in dice:
        battle.roll([face])
    return battle


def test_a_super_initiative_template_drops_phases_for_one_turn() -> None:
    battle = table(7, 3)  # red 7, blue 3: red holds the initiative
    battle.apply(Choose(option="super"))
    battle.roll([5])  # succeeds
    battle.apply(Choose(option="2"))  # Mad Minute: nobody moves
    view = phase_view(battle.state)
    assert view is not None and view.note == "Mad Minute" and view.first == ""
    assert view.phases == ("Specials interphase", "Stationary attack", "Morale 1", "Morale 2")


def test_op_fire_interjects_in_a_move_and_junk_changes_nothing() -> None:
    battle = table(7, 3)
    battle.apply(Choose(option="no"))  # red moves first
    assert isinstance(battle.pending, Decision) and battle.pending.legal[0].type == "report"
    battle.apply(Report(facts={}))  # command control: everyone within the radius
    view = phase_view(battle.state)
    assert view is not None and (view.phase, view.kind, view.picking) == ("First movement", "one_side", "red")
    before, entries = battle.digest(), len(battle.log)
    for junk in (
        Move(model="gnasher-pack/gnasher", path=["clear 3"]),  # not red's
        Move(model="legionaries/legionary", path=["lava 3"]),  # no such terrain
        Move(model="legionaries/legionary", path=["clear 30"]),  # too far
        Declare(target="gnasher-pack/gnasher", attackers=["legionaries/legionary"]),  # not a movement command
        {"type": "move", "model": "legionaries/legionary", "path": "clear 3"},
    ):
        with pytest.raises(IllegalCommand):
            battle.apply(junk)
        assert battle.digest() == before and len(battle.log) == entries
    battle.apply(Move(model="legionaries/legionary", path=["clear 3"]))
    pending = battle.pending
    assert isinstance(pending, Decision) and pending.side == "blue" and pending.prompt.startswith("Op fire at Legionary")
    assert phase_view(battle.state).picking == "red"  # type: ignore[union-attr]  # still red's phase
    battle.apply({"type": "pass"})
    assert isinstance(battle.pending, Decision) and battle.pending.side == "red"
    assert not isinstance(battle.pending, RollRequest)


def test_what_the_screen_reads_names_sides_and_tells_namesakes_apart() -> None:
    """Log lines name the sides as players know them; twelve Gnashers are numbered in the
    move list; a move's contacts offer the enemy models; the specials interphase asks no
    command control (DP-6.1); the phase's report offers only the side's own models."""
    battle = Battle.start(setup())
    while not (isinstance(battle.pending, Decision) and any(s.type == "move" for s in battle.pending.legal)):
        step(battle)
    texts = [e.text for e in battle.events]
    assert any(t.endswith("wins the initiative") and t.split()[0] in ("Red", "Blue") for t in texts)
    moves = [s for s in battle.pending.legal if s.type == "move"]  # type: ignore[union-attr]
    labels = [s.label for s in moves]
    assert len(set(labels)) == len(labels), labels
    game = battle.rules.game(battle.state)  # type: ignore[attr-defined]
    side = battle.pending.side  # type: ignore[union-attr]
    assert set(moves[0].offers["contacts"]) == {m.id for s in game.sides if s != side for m in game.roster.side_models(s)}
    asked: list[Decision] = []
    while game.phase != "moving_attack" and not battle.is_over:
        if isinstance(battle.pending, Decision):
            asked.append(battle.pending)
        step(battle)
    reports = [d for d in asked if d.prompt.endswith("command control and table facts")]
    assert reports and not any(d.prompt.startswith("Specials") for d in reports)
    for d in reports:
        assert set(d.data["pick_elements"]) == {m.id for m in game.roster.side_models(d.side)} | set(d.data["pick_elements"])
        assert all(game.roster.model(m).side == d.side for m in d.data["pick_elements"])
