"""Arcane entities in a battle (spec 16.8, PR-73): models a caster creates during the
battle, their activation in his slot, and the loose entity's d8.

A cast of `entity` makes one new unit on the caster's side holding the entities
(`unit.data["entities_of"]` names the caster): they are separate models (PR-73) that
never get an activation of their own; they act inside the activation of the caster's
unit (16.8: right after him, even in the turn they appear), with 2 actions each. While
one of them stands the caster spends no points on other powers (the pool's `entity`
flag). When the caster falls the entities are loose: each turn start rolls the 1d8 of
16.8 for them (3-8 dispelled; 1-2 it stays, goes for the nearest model that is not an
entity, and activates on its own: it may strike any such model, friend or foe -- which is
nearest is the players' measure). The leash: at the end of the caster's activation (his
entities' too) the players say which entity stands beyond 12" or out of his sight (a
roaming one: out of his sight); that one broke it (an involuntary break must be mended
in this activation, so one still broken counts) and rolls the loose d8 at once.
Entity units are no part of the force: the campaign and the victory count skip them.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, FactSpec
from campaign.engine.state import BattleState, ElementState, UnitState, liveness_changed
from campaign.rulesets.figwars3 import arcane as ar

if TYPE_CHECKING:
    from campaign.engine.context import Context

ENTITY_ACTIONS = 2
FACT = FactSpec("entities", (), ["0:0:0:0"],
                "one per entity, the purchases MOV:DEF:ATK:DP (+2\", +1d, +1d, +1 each; ':roam' to roam); 1 CP base, 3 CP a point")


def parse_designs(raw: object) -> tuple[ar.EntityDesign, ...]:
    items = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(items, (list, tuple)) or not items:
        raise IllegalCommand("FW3 16.8", "name at least one entity as MOV:DEF:ATK:DP purchases, like 1:2:1:0")
    out = []
    for item in items:
        parts = str(item).strip().split(":")
        roam = parts[-1] == "roam"
        numbers = parts[:-1] if roam else parts
        if len(numbers) != 4 or not all(n.isdigit() for n in numbers):
            raise IllegalCommand("FW3 16.8", f"an entity is MOV:DEF:ATK:DP purchases (':roam' optional), not {str(item)!r}")
        mov, defence, atk, dp = (int(n) for n in numbers)
        out.append(ar.EntityDesign(mov, defence, atk, dp, roam))
    return tuple(out)


def is_entity_unit(unit: UnitState) -> bool:
    return bool(unit.data.get("entities_of"))


def of_caster_unit(state: BattleState, unit: UnitState) -> list[UnitState]:
    """The entity units whose casters belong to `unit` and are not loose."""
    mine = {e.id for e in unit.elements}
    return [u for u in state.units if u.data.get("entities_of") in mine and not u.data.get("loose") and not u.eliminated]


def create(rules: Any, state: BattleState, caster: ElementState, command: Any, level: int, ctx: Context,
           model_data: Any) -> None:
    """The cast: entities within the CP the points buy (unspent CP are lost), placed by
    the players within 12" and sight of the caster; they act in this activation."""
    designs = parse_designs(command.facts.get("entities", FACT.default))
    ar.check_entities(designs, level)
    unit_of_caster = state.unit(caster.unit)
    n = sum(1 for u in state.units if u.data.get("entities_of") == caster.id) + 1
    uid = f"{caster.id.replace('/', '-')}-entities-{n}"
    unit = UnitState(uid, f"{caster.name}'s entities" + (f" ({n})" if n > 1 else ""), unit_of_caster.side)
    unit.data = {"status": "normal", "pl": 0, "marker": False, "activated": True, "entities_of": caster.id, "loose": False}
    tq = rules.profile(caster.id).tq
    for i, design in enumerate(designs):
        eid = f"{uid}/entity-{i + 1}"
        profile = ar.entity_profile(design, tq, f"Arcane entity {i + 1}")
        el = ElementState(eid, profile.name, uid, entry=i)
        el.data = model_data(profile.dp)
        el.data["actions"] = ENTITY_ACTIONS  # 16.8: it activates right away, in its caster's slot
        el.data["entity"] = {"mov": design.mov, "def": design.defence, "atk": design.atk, "dp": design.dp, "roam": design.roam}
        rules.register_entity(eid, profile)
        unit.elements.append(el)
    state.units.append(unit)
    liveness_changed()  # a new unit stands
    caster.data["arc"] = {**caster.data["arc"], "entity": True}  # no points on other powers meanwhile
    cps = sum(d.cp for d in designs)
    ctx.emit("entity", f"{caster.name} calls up {len(designs)} arcane entit{'y' if len(designs) == 1 else 'ies'} ({cps} of "
             f"{ar.CP_PER_POINT * level} CP): place within 12\" and sight of the caster", model=caster.id, unit=uid)


def rebuild(rules: Any, state: BattleState) -> None:
    """Entities' profiles after a battle resumed from a checkpoint: the rules rebuild the
    force's from the setup, these from the state (their purchases and the caster's TQ)."""
    for unit in state.units:
        caster = unit.data.get("entities_of")
        if not caster:
            continue
        tq = rules.profile(caster).tq
        for el in unit.elements:
            if not rules.has_profile(el.id):
                d = el.data["entity"]
                design = ar.EntityDesign(d["mov"], d["def"], d["atk"], d["dp"], bool(d["roam"]))
                rules.register_entity(el.id, ar.entity_profile(design, tq, el.name))


def free_caster(state: BattleState, caster_id: str) -> None:
    """No entity of his left: the caster may spend points on other powers again."""
    if any(u.data.get("entities_of") == caster_id and not u.eliminated for u in state.units):
        return
    caster = state.element(caster_id)
    if "arc" in caster.data:
        caster.data["arc"] = {**caster.data["arc"], "entity": False}


def caster_gone(state: BattleState, caster: ElementState, ctx: Context) -> None:
    """The caster fell: his entities are loose (their d8 at once, then at each turn start)."""
    for unit in state.units:
        if unit.data.get("entities_of") == caster.id and not unit.eliminated and not unit.data.get("loose"):
            unit.data["loose"] = True
            ctx.emit("entity", f"{unit.name} are loose: 1d8 at the turn start, 3-8 dispelled", unit=unit.id)


def turn_start(state: BattleState, ctx: Context, caster: str = "") -> Generator[Any, Any, None]:
    """16.8: each loose entity rolls 1d8 at the start of every turn (and once as its caster
    falls, `caster` naming him): 3-8 it is dispelled, 1-2 it stays and goes for the nearest
    model that is not an entity."""
    for unit in list(state.units):
        if not unit.data.get("loose") or (caster and unit.data.get("entities_of") != caster):
            continue
        for el in unit.alive:
            gone = yield from ar.loose_entity()
            if gone:
                el.alive = False
                ctx.emit("dispelled", f"{el.name} is dispelled", model=el.id)
            else:
                ctx.emit("entity", f"{el.name} runs wild: it goes for the nearest model that is not an entity", model=el.id)
        if unit.eliminated:
            unit.markers["removed"] = True
            liveness_changed()


def caster_fell(state: BattleState, el: ElementState, ctx: Context) -> Generator[Any, Any, None]:
    """The roll made at once for a fallen caster's entities (16.8)."""
    if "arc" in el.data and not el.alive:
        yield from turn_start(state, ctx, el.id)


def removed(state: BattleState, el: ElementState, ctx: Context) -> None:
    """After a model is taken out: a caster's entities go loose; a last entity frees its caster."""
    if "arc" in el.data:
        caster_gone(state, el, ctx)
    unit = state.unit(el.unit)
    if is_entity_unit(unit) and unit.eliminated:
        caster = str(unit.data["entities_of"])
        if state.element(caster).alive:
            free_caster(state, caster)


LEASH_INCHES = 12  # 16.8: a non-roaming entity stays within 12" and sight of its caster


def leash(rules: Any, state: BattleState, caster_unit: UnitState, ctx: Context) -> Generator[Any, Any, None]:
    """16.8: at the end of the caster's activation each entity under his control must be
    within 12" and in sight of him (a roaming one only in his sight). The caster's side
    names, one at a time, any that is not; that one rolls the loose d8 at once."""
    for unit in of_caster_unit(state, caster_unit):
        caster = state.element(str(unit.data["entities_of"]))
        while unit.alive and not unit.data.get("loose"):
            legal = (CommandSpec("choose", {"option": "within"}, label="All within the leash"),) + tuple(
                CommandSpec("choose", {"option": e.id},
                            label=f"{e.name} is out of {caster.name}'s sight" + ("" if e.data["entity"]["roam"] else f" or beyond {LEASH_INCHES}\""))
                for e in unit.alive
            )
            answer = yield Decision(unit.side, f"{unit.name}: is each within {LEASH_INCHES}\" and in sight of {caster.name} "
                                               "(a roaming one: in his sight) (16.8)?", legal)
            broken = next((e for e in unit.alive if e.id == str(getattr(answer, "option", ""))), None)
            if broken is None:
                break
            yield from _break_leash(rules, state, unit, broken, ctx)


def _break_leash(rules: Any, state: BattleState, unit: UnitState, el: ElementState, ctx: Context) -> Generator[Any, Any, None]:
    """The entity broke its leash: 1d8, 3-8 dispelled; 1-2 it runs wild on its own."""
    ctx.emit("entity", f"{el.name} breaks its leash: 1d8, 3-8 dispelled", model=el.id)
    gone = yield from ar.loose_entity()
    caster = str(unit.data["entities_of"])
    if gone:
        el.alive = False
        ctx.emit("dispelled", f"{el.name} is dispelled", model=el.id)
        if unit.eliminated:
            unit.markers["removed"] = True
            liveness_changed()
            if state.element(caster).alive:
                free_caster(state, caster)
        return
    wild = unit if len(unit.alive) == 1 else _split(rules, state, unit, el)
    wild.data["loose"] = True
    ctx.emit("entity", f"{el.name} runs wild: it goes for the nearest model that is not an entity, friend or foe", model=wild.alive[0].id)


def _split(rules: Any, state: BattleState, unit: UnitState, el: ElementState) -> UnitState:
    """One entity of several goes loose: it becomes a unit of its own (its id changes with
    its unit), the others stay under control."""
    caster = str(unit.data["entities_of"])
    n = sum(1 for u in state.units if u.data.get("entities_of") == caster) + 1
    uid = f"{caster.replace('/', '-')}-entities-{n}"
    new = UnitState(uid, f"{el.name} (loose)", unit.side)
    new.data = {**unit.data, "loose": True}
    moved = ElementState(f"{uid}/entity-1", el.name, uid, entry=el.entry)
    moved.data = dict(el.data)
    rules.register_entity(moved.id, rules.profile(el.id))
    new.elements = [moved]
    unit.elements = [e for e in unit.elements if e is not el]
    state.units.append(new)
    liveness_changed()
    return new


def strike_targets(state: BattleState, unit: UnitState) -> list[UnitState] | None:
    """A loose entity goes for the nearest model that is not an entity, friend or foe
    (16.8): every standing unit but entities; None for anyone else (enemies only)."""
    if not (is_entity_unit(unit) and unit.data.get("loose")):
        return None
    return [u for u in state.units if not u.eliminated and not is_entity_unit(u)]
