"""An activation's menu is made as read (engine/lazy_specs.py, engine/attack_part.py): the
check of a melee or shoot command makes only the spec it names, a replay reads no menu
whole, and a lookup finds the spec a scan of the whole menu finds."""

from __future__ import annotations

from collections import Counter

from campaign.engine.battle import Battle
from campaign.engine.lazy_specs import LazySpecs
from campaign.engine.pending import CommandSpec, Decision
from campaign.rulesets.flat_out_war.engine.attack_part import AttackPart
from campaign.rulesets.flat_out_war.engine.commands import MELEE_FACTS, SHOOT_FACTS
from campaign.rulesets.flat_out_war.samples import ALIEN, DEMONS, HUMAN, ORCS

from .battle_helpers import Weapon, battle, decision, el, expect_roll, force, initiative
from .corpus import _enlarged, _setup, random_play


def played(seed: int) -> tuple[object, Battle]:
    s = _setup(_enlarged("Horde", ORCS, HUMAN), _enlarged("Host", DEMONS, ALIEN), seed, rounds=30)
    battle = Battle.start(s)
    random_play(battle, seed, limit=900)
    return s, battle


def test_every_lookup_finds_what_a_scan_of_the_whole_menu_finds() -> None:
    s, done = played(41)
    battle = Battle.start(s)  # type: ignore[arg-type]
    matched: Counter[str] = Counter()
    for entry in done.log_dicts()[1:]:
        pending = battle.pending
        assert isinstance(pending, Decision)
        command = battle.types.from_dict(entry["command"])
        if isinstance(pending.legal, LazySpecs):
            found = pending.legal.first_match(command)
            whole = tuple(pending.legal)  # (made whole after the lookup: the same spec objects)
            assert found is next((s for s in whole if s.type == command.type and s.matches(command)), None), entry
            assert pending.legal.claims_broken() == [], entry
            if found is not None and any(isinstance(item, AttackPart) for item in pending.legal.items):
                matched[found.type] += 1
        battle.apply(command)
    assert battle.digest() == done.digest()
    assert matched["melee"] > 5 and matched["shoot"] > 5, matched


def test_split_fire_finds_the_rest_of_the_unit_s_shot_without_reading_the_menu() -> None:
    gunner = el("Gunner", count=2, weapons=(Weapon("Rifle", "ranged", "d8", 24),))
    bt = battle(force("Red", ("Shooters", (gunner,))),
                force("Blue", ("Targets", (el("Elf"),)), ("Others", (el("Orc"),)), ("Thirds", (el("Ent"),))))
    initiative(bt, "red")
    bt.apply({"type": "activate", "unit": "shooters"})
    bt.apply({"type": "shoot", "unit": "shooters", "target": "targets", "facts": {"shooters": ["shooters/gunner"]}})
    bt.roll([1])
    legal = decision(bt).legal
    assert isinstance(legal, LazySpecs)
    (part,) = [item for item in legal.items if isinstance(item, AttackPart)]
    command = bt.types.from_dict({"type": "shoot", "unit": "shooters", "target": "others"})
    found = legal.first_match(command)
    assert found is not None and found.label == "Shooters: the rest shoot at Others"
    assert part._every is None  # the lookup made the one spec, not the part's list
    assert [s.label for s in legal if s.type == "shoot"] == [
        f"Shooters: the rest shoot at {name}" for name in ("Targets", "Others", "Thirds")]
    bt.apply(command)
    expect_roll(bt, 8, 1, "shooting at Others")


def test_a_replay_reads_no_menu_whole() -> None:
    s, done = played(42)
    again = Battle.replay(s, done.log_dicts())  # type: ignore[arg-type]
    assert again.digest() == done.digest()
    parts = [part for _, part in again.rules._attack_parts.values()]
    assert len(parts) > 20
    assert all(part._every is None for part in parts)  # no part was read whole


def test_a_part_is_the_eager_specs_and_keeps_them_after_a_unit_falls() -> None:
    _, battle = played(43)
    rules, state = battle.rules, battle.state
    looked = 0
    for (kind, unit_id, verb), (enemies, part) in rules._attack_parts.items():
        unit = state.unit(unit_id)
        eager = [CommandSpec(kind, {"unit": unit_id, "target": e.id}, MELEE_FACTS if kind == "melee" else SHOOT_FACTS,
                             f"{unit.name}: {verb} {e.name}", odds=True, targets="units") for e in enemies]
        whole = list(part.specs())
        assert whole == eager
        assert part.values == [e.id for e in enemies]
        # one spec object per pair for the whole battle, whichever part made it
        assert all(spec is rules._attack_specs[(kind, unit_id, verb)][spec.params["target"]] for spec in whole)
        looked += 1
    assert looked > 20
