"""Flat Out War's attack records take quick_init's `__init__` (campaign/engine/quick.py):
each builds exactly what attrs' own `__init__` builds, positional or by keyword, defaults
included, and stays frozen."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import pytest

from campaign.rulesets.flat_out_war.engine.artillery import Covered, TemplatePlan
from campaign.rulesets.flat_out_war.engine.attack import AttackRoll, Hit
from campaign.rulesets.flat_out_war.engine.casting import CastResult
from campaign.rulesets.flat_out_war.engine.combatant import Arm, Combatant
from campaign.rulesets.flat_out_war.engine.morale import MoraleRoll
from campaign.rulesets.flat_out_war.engine.odds import AreaVictim, AttackSpec
from campaign.rulesets.flat_out_war.engine.recovery import MisfireResult, RecoveryPlan, RecoveryResult
from campaign.rulesets.flat_out_war.engine.rolls import Mod
from tests.engine.test_engine_records import attrs_fields

HIT = Hit(8, source="Gun")
MODS = (Mod("Tough", 1),)
ARM = Arm("Gun", "ranged", 8, range=12, traits=frozenset({"multi-shot"}), shots=2)


def sample(cls: type) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Required fields positionally (a value of each field's sort), a default overridden by keyword."""
    required = [f for f in attrs.fields(cls) if f.default is attrs.NOTHING]
    optional = [f for f in attrs.fields(cls) if f.default is not attrs.NOTHING]
    values = {"label": "Gun shot 1", "die": 8, "mods": MODS, "hit": HIT, "name": "Marine", "kind": "ranged",
              "base_die": 8, "attack_die": 6, "face": 5, "dice": (8, 6), "weapons": (0, 1), "labels": ("a", "b"),
              "crash_die": 8, "outcome": "removed", "faces": (1, 2), "element": "reds/a", "rolled": True,
              "unit": "reds", "friendly": False, "value": -1}
    args = tuple(values.get(f.name, f"<{f.name}>") for f in required)
    kwargs = {optional[-1].name: "changed"} if optional else {}
    return args, kwargs


RECORDS = [AttackSpec, AreaVictim, Hit, AttackRoll, Mod, Arm, Combatant, RecoveryPlan, RecoveryResult, MisfireResult,
           MoraleRoll, CastResult, Covered, TemplatePlan]


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_quick_records_build_what_attrs_builds(cls: type) -> None:
    args, kwargs = sample(cls)
    made = cls(*args, **kwargs)
    assert "quick_init" in cls.__init__.__code__.co_filename
    assert attrs.asdict(made, recurse=False) == attrs_fields(cls, *args, **kwargs)
    assert cls(*args) == cls(*args) and hash(cls(*args)) == hash(cls(*args))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(made, attrs.fields(cls)[0].name, None)


def test_defaults_are_attrs_defaults() -> None:
    spec = AttackSpec("Claw", 6, (), HIT)
    assert (spec.blocked, spec.harmless, spec.target_index, spec.covers, spec.weapon, spec.lucky, spec.area) == \
        ("", False, None, 1, None, Fraction(0), ())
    c = Combatant("Marine", 8, 6)
    assert (c.kind, c.attributes, c.weapons, c.hit_points, c.key, c.ranged) == ("trooper", frozenset(), (), 0, "", ())
    assert Hit(6) == Hit(attack_die=6, penetrator=False, zap=False, source="")
    assert ARM.template is None and ARM.shots == 2


@pytest.mark.parametrize("cls", [Arm, Combatant], ids=lambda c: c.__name__)
def test_kept_values_leave_attribute_reads_plain(cls: type) -> None:
    # attrs would give a slotted class with functools.cached_property a `__getattr__`, which
    # puts every attribute read of the class on CPython's slow path
    assert "__getattr__" not in vars(cls) and not hasattr(cls, "__getattr__")
    assert cls.__getattribute__ is object.__getattribute__


def test_kept_values_are_worked_out_once_and_left_out_of_equality() -> None:
    flame = Arm("Torch", "ranged", 6, traits=frozenset({"template: flame"}))
    c = Combatant("Marine", 8, 6, weapons=(ARM, flame), attributes=frozenset({"x"}), params=(("jump", 8),))
    assert (c.ranged, c.melee, c.flame, c.param("jump"), flame.template) == ((ARM, flame), (), flame, 8, "flame")
    assert c.ranged is c.ranged and c.memo is c.memo
    assert set(vars(c)) == {"ranged", "melee", "flame", "_params", "memo", "_element_template"}
    again = Combatant("Marine", 8, 6, weapons=(ARM, flame), attributes=frozenset({"x"}), params=(("jump", 8),))
    assert again == c and hash(again) == hash(c) and repr(again) == repr(c)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        c.ranged = ()  # type: ignore[misc]
