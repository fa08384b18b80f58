"""The d10 rules' battle state: one record per model and per unit (section 2).

Plain attrs records with ints, strings, bools and Fractions only, so they can live in
the core's state and be digested. Rules change them through the functions in the
other modules of this folder; nothing here decides anything.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from campaign.rulesets.d10_phased.profile import Army, Model, Unit

CLOSE = "close"  # the key of a model's close attack dice among its weapons' dice
PINNED = "pinned"
ROUTED = "routed"
MARKERS = ("", PINNED, ROUTED)


@attrs.define
class ModelState:
    id: str
    name: str
    unit: str
    side: str
    move: int
    attack: dict[str, int]  # current dice per weapon name, and CLOSE
    save: int
    hits: int  # bought: the category for absorption and criticals is fixed (AMB-21)
    hits_left: int
    base: Fraction = Fraction(1)
    specials: list[str] = attrs.field(factory=list)
    alive: bool = True
    gone: str = ""  # "destroyed" or "routed off"
    marker: str = ""  # "", PINNED or ROUTED
    out_of_command: bool = False  # this phase (DP-6)
    moved: bool = False
    attacked: bool = False
    op_fired: bool = False
    ran_away: bool = False
    indiv_checked: bool = False
    attacked_by: int = 0  # dice aimed at it since its last morale phase (characters, DP-18.7)
    crit_no_move: bool = False  # its next own movement phase (DP-17)
    crit_no_attack_turn: int | None = None
    mindless: bool = False  # this turn only: Senseless Slaughter
    label: str = ""  # the name numbered among its unit's namesakes ("Gnasher 3"): what texts show

    @property
    def immobile(self) -> bool:
        return self.move <= 0


@attrs.define
class UnitState:
    id: str
    name: str
    side: str
    grade: str
    command_radius: int
    models: list[str]  # model ids, in order
    leader: str
    original_models: int
    original_hits: int
    character: bool = False
    morale_modifier: int = 0
    checked_this_turn: bool = False
    hit_since_morale: bool = False  # an unsaved hit since its last morale phase (AMB-22)
    attacked_since_morale: bool = False


@attrs.define
class Roster:
    """Every model and unit of a battle, by id."""

    models: dict[str, ModelState] = attrs.field(factory=dict)
    units: dict[str, UnitState] = attrs.field(factory=dict)

    def model(self, model_id: str) -> ModelState:
        return self.models[model_id]

    def unit_of(self, model_id: str) -> UnitState:
        return self.units[self.models[model_id].unit]

    def members(self, unit_id: str, *, alive: bool = True) -> list[ModelState]:
        return [self.models[m] for m in self.units[unit_id].models if self.models[m].alive or not alive]

    def side_models(self, side: str, *, alive: bool = True) -> list[ModelState]:
        return [m for m in self.models.values() if m.side == side and (m.alive or not alive)]

    def destroyed_hits(self, unit_id: str) -> int:
        """Absorbable hits the unit has lost: a removed model loses all it had (DP-18.2)."""
        lost = 0
        for mid in self.units[unit_id].models:
            m = self.models[mid]
            lost += m.hits if not m.alive else m.hits - m.hits_left
        return lost


def _slug(text: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in text.lower())
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-") or "x"


def model_state(model: Model, model_id: str, unit_id: str, side: str) -> ModelState:
    attack = {w.name: w.dice for w in model.weapons}
    attack[CLOSE] = model.close
    return ModelState(
        id=model_id,
        name=model.name,
        unit=unit_id,
        side=side,
        move=model.move,
        attack=attack,
        save=model.save,
        hits=model.hits,
        hits_left=model.hits,
        base=model.base,
        specials=list(model.specials),
        label=model.name,
    )


def add_unit(
    roster: Roster, unit: Unit, side: str, unit_id: str | None = None, model_ids: list[str] | None = None
) -> UnitState:
    """Add a unit's models one by one; ids are "<unit>/<model>-<n>" unless given (the
    core's element ids, one per model in order)."""
    uid = unit_id or _slug(unit.name)
    base, n = uid, 1
    while uid in roster.units and unit_id is None:
        n += 1
        uid = f"{base}-{n}"
    ids: list[str] = []
    seen: dict[str, int] = {}
    models = unit.each_model()
    if model_ids is not None and len(model_ids) != len(models):
        raise ValueError(f"{unit.name}: {len(models)} models but {len(model_ids)} ids")
    for i, model in enumerate(models):
        slug = _slug(model.name)
        seen[slug] = seen.get(slug, 0) + 1
        mid = model_ids[i] if model_ids is not None else f"{uid}/{slug}-{seen[slug]}"
        roster.models[mid] = model_state(model, mid, uid, side)
        ids.append(mid)
    for name in {roster.models[m].name for m in ids}:
        alike = [m for m in ids if roster.models[m].name == name]
        if len(alike) > 1:
            for number, m in enumerate(alike, 1):
                roster.models[m].label = f"{name} {number}"
    leader = ids[unit.leader] if 0 <= unit.leader < len(ids) else (ids[0] if ids else "")
    state = UnitState(
        id=uid,
        name=unit.name,
        side=side,
        grade=unit.grade,
        command_radius=unit.command_radius,
        models=ids,
        leader=leader,
        original_models=len(ids),
        original_hits=sum(roster.models[m].hits for m in ids),
        character=unit.character,
        morale_modifier=unit.morale_modifier,
    )
    roster.units[uid] = state
    return state


def roster_of(armies: dict[str, Army]) -> Roster:
    """A roster for armies keyed by side id."""
    roster = Roster()
    for side, army in armies.items():
        for unit in army.units:
            add_unit(roster, unit, side)
    return roster


def as_data(record: Any) -> dict[str, Any]:
    """A record as a plain dict (for the core's state and digests)."""
    return attrs.asdict(record, recurse=True)
