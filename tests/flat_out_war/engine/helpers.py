"""Small builders for Flat Out War engine tests."""

from __future__ import annotations

from campaign.rulesets.flat_out_war.engine.combatant import Arm, Combatant, attribute_key


def arm(name: str = "sword", kind: str = "melee", die: int = 6, rng: int = 0, mount: str = "main",
        traits: tuple[str, ...] = (), **kw) -> Arm:
    return Arm(name=name, kind=kind, die=die, range=rng, mount=mount,
               traits=frozenset(attribute_key(t) for t in traits), **kw)


def fighter(name: str = "e", die: int = 6, attrs: tuple[str, ...] = (), weapons: tuple[Arm, ...] | None = None,
            **kw) -> Combatant:
    if weapons is None:
        weapons = (arm(die=die),)
    return Combatant(name=name, base_die=kw.pop("base_die", die), die=die,
                     attributes=frozenset(attribute_key(a) for a in attrs), weapons=weapons, **kw)
