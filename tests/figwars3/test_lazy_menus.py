"""A model-by-model decision's menu is made as read (engine/lazy_specs.py): the check of a
command makes one model's menu, mostly one spec of it. Over whole battles: every group
holds what it states, a lookup finds the spec a scan of the whole menu finds, and a player
reading by type chooses what one reading the whole menu chooses."""

from __future__ import annotations

import attrs

from campaign.engine.battle import Battle
from campaign.engine.lazy_specs import LazySpecs
from campaign.engine.pending import Decision
from campaign.rulesets import get_ruleset
from tests.figwars3.test_battle import bot, eager_bot, setup
from tests.figwars3.test_part2_battle import part2_setup, play


def test_every_lookup_in_a_part2_battle_finds_what_a_scan_finds() -> None:
    """Vehicles, mecha, casters, an entity, passengers and a breach (rules revision 2)."""
    s = attrs.evolve(part2_setup(seed=6), options={"rules_revision": 2})
    played = Battle.start(s)
    play(played)
    battle = Battle.start(s)
    lazy = 0
    for entry in played.log_dicts()[1:]:
        pending = battle.pending
        assert isinstance(pending, Decision)
        command = battle.types.from_dict(entry["command"])
        if isinstance(pending.legal, LazySpecs):
            lazy += 1
            found = pending.legal.first_match(command)
            whole = tuple(pending.legal)  # (made whole after the lookup: the same spec objects)
            assert found is next(s for s in whole if s.type == command.type and s.matches(command)), entry
            assert pending.legal.claims_broken() == [], entry
        battle.apply(command)
    assert lazy > 40
    assert battle.digest() == played.digest()


def test_a_bot_reading_by_type_plays_the_battle_the_whole_menu_plays() -> None:
    s = attrs.evolve(setup(seed=11), options=get_ruleset("figwars-3").new_battle_options({}))
    by_type, whole = Battle.start(s), Battle.start(s)
    bot(by_type)
    eager_bot(whole)
    assert by_type.log_dicts() == whole.log_dicts()
    assert by_type.digest() == whole.digest()
