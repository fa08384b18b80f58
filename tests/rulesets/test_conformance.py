"""The conformance kit: the same checks over every registered ruleset.

A ruleset that registers (a package under campaign/rulesets/, an entry point, or a test's
`register`) is held to the contract of docs/rulesets.md: its samples load and price, force
files round-trip byte for byte, a seeded battle between two samples finishes and replays to
the same digest in a fresh process, and near-legal junk is refused without a change.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from campaign.activation import DEFAULT_SCHEME
from campaign.rulesets import Ruleset, get_ruleset, ruleset_class, ruleset_ids
from saves.force_file import dump_force, parse_force

ROOT = Path(__file__).resolve().parents[2]
PLAYABLE = [rid for rid in ruleset_ids() if ruleset_class(rid).battle_rules is not Ruleset.battle_rules]

# (ruleset, activation scheme) battles: each ruleset under its default scheme and every other
# scheme it names, and the test-only Duel (tests/rulesets/duel.py, registered in the battle's
# process) under the core's phased turn
BATTLES = [
    (rid, scheme)
    for rid in PLAYABLE
    for scheme in dict.fromkeys((ruleset_class(rid).default_activation or DEFAULT_SCHEME, *ruleset_class(rid).activation_schemes))
] + [("duel", "phased")]

# Rulesets whose decisions the generic player (tests/engine/engine_play.py) cannot answer
# yet; their own suites play whole battles with their own players.
GENERIC_PLAYER_CANNOT_DRIVE: dict[str, str] = {}

# An attack the generic player must get through in a (ruleset, scheme) battle: a kit battle
# whose attack phases only pass would prove nothing about them. d10 names the models able to
# attack in its declare specs (`CommandSpec.offers`), which the player fills in.
MUST_ATTACK: dict[tuple[str, str], str] = {("d10-phased", "phased"): "declare", ("d10-phased", "cards"): "fire"}

BATTLE = """
import json, sys
sys.path[:0] = [{tests!r}, {cards!r}, {root!r}]
from campaign.engine import AutoDice, Battle, BattleSetup, Decision, SideSetup
from play import place_in_order
from campaign.campaigns.scenario import Scenario
from campaign.rulesets import get_ruleset, register
from engine_play import play
if {rid!r} == "duel":
    from tests.rulesets.duel import Duel
    register(Duel)
ruleset = get_ruleset({rid!r})
forces = ruleset.sample_forces()[:2]
sides = tuple(SideSetup(f"side-{{i}}", f.name, f) for i, f in enumerate(forces))
activation = {activation!r}
setup = BattleSetup(ruleset.id, sides, edition=ruleset.edition, scenario=Scenario("s", "S", rounds=4),
                    activation=activation)
if len(sys.argv) > 1:
    battle = Battle.replay(setup, json.load(open(sys.argv[1])))
else:
    battle = Battle.start(setup, AutoDice(7))
    for step in range(3000):  # the deterministic player; a card deal is placed in order
        pending = battle.pending
        if pending is None:
            break
        if isinstance(pending, Decision) and pending.legal and pending.legal[0].type == "assign_cards":
            place_in_order(battle)
        else:
            play(battle, seed=11 + step, max_steps=1)
print(json.dumps({{"digest": battle.digest(), "log": battle.log_dicts(), "over": battle.is_over}}))
"""


@pytest.mark.parametrize("rid", ruleset_ids())
def test_declares_its_identity(rid: str) -> None:
    cls = ruleset_class(rid)
    assert cls.id == rid and cls.name
    ruleset = get_ruleset(rid)
    assert ruleset.edition in cls.editions or not cls.editions
    assert cls.profile.element, "a profile names the element fields"


@pytest.mark.parametrize("rid", ruleset_ids())
def test_samples_load_price_and_round_trip_byte_for_byte(rid: str) -> None:
    ruleset = get_ruleset(rid)
    samples = ruleset.sample_forces()
    assert samples, f"{rid} ships no sample force"
    for force in samples:
        cost = ruleset.price(force)
        if ruleset.has_points:
            assert cost.total > 0, f"{force.name} prices at nothing"
        text = dump_force(force)
        again = parse_force(text)
        assert again == force
        assert dump_force(again) == text


@pytest.mark.parametrize(("rid", "activation"), BATTLES)
def test_a_seeded_battle_finishes_and_replays_in_a_fresh_process(rid: str, activation: str, tmp_path: Path) -> None:
    if rid in GENERIC_PLAYER_CANNOT_DRIVE:
        pytest.xfail(GENERIC_PLAYER_CANNOT_DRIVE[rid])
    script = BATTLE.format(tests=str(ROOT / "tests" / "engine"), cards=str(ROOT / "tests" / "activation"), rid=rid,
                          root=str(ROOT), activation=activation)

    def run(*args: str) -> dict:
        out = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=ROOT,
                             env={"PYTHONHASHSEED": "123", "PATH": ""}, check=True)
        return json.loads(out.stdout)

    first = run()
    assert first["log"], "the battle logged nothing"
    assert first["over"], "the battle did not finish"
    attack = MUST_ATTACK.get((rid, activation))
    if attack:
        done = [e for e in first["log"] if e["command"]["type"] == attack]
        assert done, f"the generic player made no {attack} in the {rid} battle"
    log = tmp_path / "log.json"
    log.write_text(json.dumps(first["log"]))
    again = run(str(log))
    assert again["digest"] == first["digest"]
