"""A whole FigWars 3 battle with vehicles, mecha and casters through the API, using the
part-2 actions (embark and disembark, a door breached, a move by segments, an arcane
entity, rams and casts), replayed to the same digest in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys

import attrs

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.force import Force
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import sample, setup

ORDER = ("cast", "ram", "embark", "breach", "extra", "shoot", "strike", "disembark", "repair", "walk", "done",
         "end_activation", "activate", "choose", "pass")


def part2_setup(seed: int = 6) -> BattleSetup:
    circle = sample("Arcane Circle")
    mage = circle.units[0]
    caster = attrs.evolve(mage.elements[0], spells=(*mage.elements[0].spells, "entity"))
    circle_units = (attrs.evolve(mage, elements=(caster,)), *circle.units[1:])
    a = Force("Patrol and Circle", "figwars-3", units=sample("USC Hedgehog Patrol").units + circle_units)
    b = Force("Armour and Mecha", "figwars-3", units=sample("Mecha Lance").units + sample("Imperial Armour").units[:2])
    return attrs.evolve(setup(seed=seed, rounds=3), sides=(SideSetup("a", "Side A", a), SideSetup("b", "Side B", b)))


def facts_for(battle: Battle, spec) -> dict:  # type: ignore[no-untyped-def, type-arg]
    state = battle.state
    if spec.type == "ram":
        side = state.unit(spec.params["unit"]).side
        enemy = next(u for u in state.units if u.side != side and not u.eliminated and u.alive)
        return {"victims": [enemy.alive[0].id], "inches": 2}  # short rams: troops may still get in
    if spec.type == "cast":
        power = spec.params["power"]
        if power == "entity":
            return {"level": 1, "entities": ["1:0:1:0"]}
        if power in ("assault", "blast"):
            return {"level": 1, "option": "single_6in" if power == "assault" else "small_blast_6in"}
    if spec.type == "breach":
        return {"structure": "bunker door", "kind": "door", "grade": "reinforced"}
    if spec.type == "walk" and "segments" in {f.name for f in spec.facts}:
        return {"segments": ["turn 1", "forward 2"]}
    return {}


def play(battle: Battle) -> None:
    steps = 0
    while battle.pending is not None:
        steps += 1
        assert steps < 6000
        pending = battle.pending
        assert isinstance(pending, Decision)
        specs = sorted(pending.legal, key=lambda s: (ORDER.index(s.type) if s.type in ORDER else 99, s.params.get("power") != "entity"))
        for spec in specs:
            facts = facts_for(battle, spec)
            try:
                battle.apply(battle.command(spec, facts=facts) if facts else battle.command(spec))
                break
            except IllegalCommand:
                continue
        else:
            raise AssertionError(f"stuck at {pending.prompt}")


def test_a_part2_battle_plays_out_and_replays_in_a_fresh_process() -> None:
    s = part2_setup()
    battle = Battle.start(s, rules=FigWarsRules())
    play(battle)
    kinds = {e.kind for e in battle.events}
    assert {"embark", "structure", "breached", "entity", "cast", "ram", "machine_damage"} <= kinds, kinds
    assert any(e.kind == "walk" and "walks 2\"" in e.text for e in battle.events)
    code = (
        "import json,sys\n"
        "from campaign.engine.battle import Battle\n"
        "from campaign.rulesets.figwars3.play import FigWarsRules\n"
        "from tests.figwars3.test_part2_battle import part2_setup\n"
        "print(Battle.replay(part2_setup(), json.loads(sys.stdin.read()), rules=FigWarsRules()).digest())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(battle.log_dicts()), capture_output=True,
                         text=True, check=True, env={"PYTHONHASHSEED": "99", "PATH": ""})
    assert out.stdout.strip() == battle.digest()


def test_a_revision_two_part2_battle_asks_the_leash_and_replays() -> None:
    """Rules revision 2 (docs: Rules revisions): the entities' leash is asked as the caster's
    unit's activation ends, and the battle still replays to its digest."""
    s = attrs.evolve(part2_setup(seed=6), options={"rules_revision": 2})
    battle = Battle.start(s)
    prompts: list[str] = []
    steps = 0
    while battle.pending is not None and steps < 6000:
        steps += 1
        prompts.append(battle.pending.prompt)
        play_one(battle)
    assert battle.is_over
    assert any("is each within 12\"" in p for p in prompts)
    again = Battle.replay(s, battle.log_dicts())
    assert again.digest() == battle.digest()


def play_one(battle: Battle) -> None:
    pending = battle.pending
    assert isinstance(pending, Decision)
    specs = sorted(pending.legal, key=lambda s: (ORDER.index(s.type) if s.type in ORDER else 99, s.params.get("power") != "entity"))
    for spec in specs:
        facts = facts_for(battle, spec)
        try:
            battle.apply(battle.command(spec, facts=facts) if facts else battle.command(spec))
            return
        except IllegalCommand:
            continue
    raise AssertionError(f"stuck at {pending.prompt}")
