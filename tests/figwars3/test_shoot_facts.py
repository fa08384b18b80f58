"""Which facts a shot asks (ranged.unused_facts): a fact left out of the shoot form must
not change the shot it was left out of, and a battle file that carries it still replays."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.ranged import RANGED_DEFAULTS, RANGED_FACTS, placement_terms, ranged_attack, unused_facts
from campaign.rulesets.figwars3.weapons import RANGED
from tests.figwars3.helpers import trooper

SHOOTERS = (trooper("Marine", 2, 2), trooper("Sniper", 2, 2, attributes=("Trained Sniper",)))
TARGETS = (trooper("Grunt", 1, 2), trooper("Shield", 1, 2, attributes=("Shield Wall",)))


def _shot(shooter: Any, weapon: Any, target: Any, facts: dict[str, Any]) -> Any:
    """What `_shoot` rolls for one weapon at one model: the placement terms and the attack."""
    role = "placed" if (weapon.indirect or weapon.grenade) else ("spray_primary" if weapon.spray else "direct")
    try:
        placing = placement_terms(shooter, weapon, facts) if role == "placed" else ()
        return placing, ranged_attack(shooter, weapon, target, {**facts, "role": role})
    except IllegalCommand as exc:
        return str(exc)


@pytest.mark.parametrize("name", sorted(n for n, w in RANGED.items() if w.short is not None or w.spray or w.grenade))
def test_a_fact_not_asked_cannot_change_the_shot(name: str) -> None:
    weapon = RANGED[name]
    bands = weapon.bands() if weapon.short is not None else ("short",)
    checked = 0
    for shooter in SHOOTERS:
        for target in TARGETS:
            unused = unused_facts(weapon, shooter.sniper, target.has("Shield Wall"), paired=False) - {"target_entangled"}
            for band in bands:
                base = {"range_band": band}
                plain = _shot(shooter, weapon, target, base)
                for fact in unused & set(RANGED_FACTS):
                    for value in RANGED_FACTS[fact]:
                        if value != RANGED_DEFAULTS[fact]:
                            assert _shot(shooter, weapon, target, {**base, fact: value}) == plain, (fact, value)
                            checked += 1
    assert checked  # every weapon leaves something out (a spotter, a sniper's option...)


def test_what_each_kind_of_weapon_asks() -> None:
    rifle, grenade, mortar = RANGED["Assault Rifle"], RANGED["Fragmentation Grenade"], next(w for w in RANGED.values() if w.indirect)
    assert {"spotter", "thrower_sees", "sniper_option", "under_template", "shield_wall_front"} <= unused_facts(rifle, False, False, False)
    assert "shield_wall_front" not in unused_facts(rifle, False, True, False)
    assert {"thrower_sees", "under_template"}.isdisjoint(unused_facts(grenade, False, False, False))
    assert "range_band" in unused_facts(grenade, False, False, False) and "range_band" not in unused_facts(grenade, False, False, True)
    assert "spotter" not in unused_facts(mortar, False, False, False) and "shooter_cover" in unused_facts(mortar, False, False, False)
    sniper = next(w for w in RANGED.values() if w.sniper)
    assert "sniper_option" in unused_facts(sniper, False, False, False) and "sniper_option" not in unused_facts(sniper, True, False, False)


def test_a_fact_not_asked_is_still_accepted_and_replays() -> None:
    """A battle file written before the form left the spotter out of a rifle's shot (the
    form remembered it from a mortar's) still replays: the spec accepts it, unasked."""
    from campaign.engine.battle import Battle
    from tests.figwars3.test_battle import setup, start

    battle = start(setup())
    battle.apply(battle.command(battle.pending.legal[0]))
    shoot = next(s for s in battle.pending.legal if s.type == "shoot" and "Rifle" in s.params["weapon"])
    spotter = shoot.fact("spotter")
    assert spotter is not None and not spotter.ask and shoot.fact("cover").ask  # type: ignore[union-attr]
    battle.apply(battle.command(shoot, facts={"spotter": "friend"}))
    again = Battle.replay(battle.setup, battle.log, rules=type(battle.rules)())
    assert again.digest() == battle.digest()
