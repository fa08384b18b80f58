"""The optional rules of 15 played in a battle when the scenario turns them on: the Hail
of Arrows (15.2, PR-67) as a unit's volley, and formations (15.1) declared, faced and
broken, limiting who shoots and who fights. The rules themselves are optional_rules.py.

Where the models and the template stand is the players': they report the archers, the
range, the models under the template (nearest the centre first, spiralling clockwise) and
a formation's ranks.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, FactSpec
from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.rulesets.figwars3 import optional_rules as opt
from campaign.rulesets.figwars3 import turn
from campaign.rulesets.figwars3.attack import resolve
from campaign.rulesets.figwars3.profile import carried_mov
from campaign.rulesets.figwars3.ranged import COVER_ONE_LOWER
from campaign.rulesets.figwars3.weapons import RangedWeapon

if TYPE_CHECKING:
    from campaign.engine.context import Context

HAIL_FACTS = (
    FactSpec("archers", (), [], "the unit's archers taking part (empty: every one that can)", picks="unit_elements"),
    FactSpec("inches", (), opt.HAIL_RANGE[0], "from the lead model to the template's centre, 10\" to 30\""),
    FactSpec("victims", (), [], "models under the 5\" template, nearest the centre first, spiralling clockwise", picks="elements"),
    FactSpec("cover", tuple(COVER_ONE_LOWER), "none", "the victims' cover (one level lower counts)"),
)
RANK_FACTS = (
    FactSpec("front", (), [], "the front rank, left to right (at least 4 on foot, 3 mounted)", picks="unit_elements"),
    FactSpec("second", (), [], "the second rank, left to right", picks="unit_elements"),
)
FORM_FACTS = (*RANK_FACTS, FactSpec("leader", (), "", "a leader standing detached, within his COM of a formation model (his id)"))
WHEEL_FACTS = (
    FactSpec("inches", (), 0, "how far the far end of the front moves along the arc"),
    FactSpec("run", (False, True), False, "a Run (2 actions from every model) rather than a Walk"),
)
FROM_SIDE = FactSpec("from_side", opt.SIDES, "front", "where the shooter stands against the target's formation (15.1)")
FORMATION_FREE = ("form", "face", "break_formation", "wheel", "consolidate")


def _bow(rules: Any, el: ElementState) -> RangedWeapon | None:
    return next((w for w in rules._armed(el).ranged if "bow" in w.name.lower() and w.name not in el.data["unloaded"]), None)


def _can_loose(rules: Any, el: ElementState) -> bool:
    bow = _bow(rules, el)
    return bow is not None and el.data["actions"] >= turn.shoot_cost(bow.slow) and el.data["incap"] is None


def specs(rules: Any, state: BattleState, unit: UnitState, el: ElementState, base: dict[str, Any], who: str,
          enemies: list[UnitState]) -> list[CommandSpec]:
    out = []
    if rules.options.get("hail_of_arrows") and enemies and _can_loose(rules, el) and unit.data.get("status") == "normal":
        out.append(CommandSpec("hail", base, HAIL_FACTS, f"{who}: lead a hail of arrows"))
    return out


def unit_specs(rules: Any, unit: UnitState, state: BattleState | None = None) -> list[CommandSpec]:
    """Form up; in formation face about, wheel, consolidate (after a face or a melee) or
    break formation (15.1)."""
    if not rules.options.get("formations"):
        return []
    base = {"unit": unit.id}
    if unit.data.get("formation"):
        out = [CommandSpec("face", base, label="Face the formation (1 action from every model)"),
               CommandSpec("wheel", base, WHEEL_FACTS, label="Wheel on a front corner (every model takes the move)")]
        if state is not None and may_consolidate(state, unit):
            out.append(CommandSpec("consolidate", base, RANK_FACTS, label="Consolidate: re-rank the formation free"))
        return out + [CommandSpec("break_formation", base, label="Break formation")]
    if len(unit.alive) >= opt.MIN_WIDTH["mounted"]:
        return [CommandSpec("form", base, FORM_FACTS, label="Form up (name the front and second ranks)")]
    return []


def hail(rules: Any, state: BattleState, lead: ElementState, command: Any, ctx: Context) -> Generator[Any, Any, None]:
    """15.2, PR-67: every archer spends a Shoot action; the template deviates 1d4 less the
    archers' average TQ; each model under it rolls 1d8 on the arrows' table until the arrows
    run out; each hit is a roll of the bow's ATK (at least 1d) against DEF and cover one
    level lower, without stun."""
    if not rules.options.get("hail_of_arrows"):
        raise IllegalCommand("FW3 15.2", "the scenario does not use the Hail of Arrows (option hail_of_arrows)")
    unit = state.unit(lead.unit)
    f = command.facts
    inches = f.get("inches", opt.HAIL_RANGE[0])
    if isinstance(inches, bool) or not isinstance(inches, int):
        raise IllegalCommand("FW3 15.2", f"inches is a whole number, not {inches!r}")
    opt.check_hail_range(inches)
    named = list(f.get("archers") or [e.id for e in unit.alive if _can_loose(rules, e)])
    archers = []
    for model in named:
        el = next((e for e in unit.alive if e.id == model), None)
        if el is None or not _can_loose(rules, el):
            raise IllegalCommand("FW3 15.2", f"{model} is not an archer of {unit.name} with a loaded bow and a Shoot action left")
        archers.append(el)
    if not archers:
        raise IllegalCommand("FW3 15.2", f"{unit.name} has no archer ready to loose")
    victims = [rules._any_model(state, m) for m in f.get("victims", [])]
    cover = f.get("cover", "none")
    if cover not in COVER_ONE_LOWER:
        raise IllegalCommand("FW3 15.2", f"cover is one of {', '.join(COVER_ONE_LOWER)}, not {cover!r}")
    weapon = _bow(rules, lead if lead in archers else archers[0])
    assert weapon is not None
    for el in archers:
        bow = _bow(rules, el)
        assert bow is not None
        rules._spend(el, turn.shoot_cost(bow.slow), "a hail of arrows")
        el.data["aim"] = False
        if bow.reload:
            el.data["unloaded"] = [*el.data["unloaded"], bow.name]
    average = sum(rules.profile(e.id).tq for e in archers) / len(archers)
    direction, off = yield from opt.hail_deviation(average)
    ctx.emit("hail", f"{unit.name} looses {len(archers)} arrow(s) at {inches}\": the template drifts {off}\" towards arrow {direction}",
             unit=unit.id, arrows=len(archers), inches=off, direction=direction)
    hits = yield from opt.hail_hits(len(victims), len(archers))
    for victim, n in zip(victims, hits):
        for _ in range(n):
            if not victim.alive:
                break
            opposed = opt.hail_damage(weapon, rules._defender(victim), cover)
            outcome = yield from resolve(opposed)
            ctx.emit("shot", f"an arrow strikes {victim.name}: {outcome.attacker_successes} against {outcome.defender_successes}",
                     model=lead.id, target=victim.id)
            if outcome.winner == "attacker":
                yield from rules._hurt(state, victim, outcome.dp, outcome.judgement.pinned, ctx)


# --- formations (15.1) -----------------------------------------------------------------------


def formation(unit: UnitState) -> opt.Formation | None:
    data = unit.data.get("formation")
    if not data:
        return None
    return opt.Formation(tuple(tuple(r) for r in data["ranks"]), bool(data.get("mounted")), str(data.get("leader", "")))


def _ranks(unit: UnitState, facts: dict[str, Any], leader: str) -> list[list[str]]:
    """The ranks the players name (front, second, the rest behind), checked."""
    front = list(facts.get("front", []))
    second = list(facts.get("second", []))
    alive = {e.id for e in unit.alive}
    for model in front + second + ([leader] if leader else []):
        if model not in alive:
            raise IllegalCommand("FW3 15.1", f"{model} is not a living model of {unit.name}")
    if len(set(front + second)) != len(front + second):
        raise IllegalCommand("FW3 15.1", "a model stands in one rank only")
    if leader in front + second:
        raise IllegalCommand("FW3 15.1", "a detached leader stands outside the ranks")
    rest = [e.id for e in unit.alive if e.id not in front and e.id not in second and e.id != leader]
    return [r for r in (front, second, rest) if r]


def _store(unit: UnitState, f: opt.Formation, extra: dict[str, Any] | None = None) -> None:
    data: dict[str, Any] = {"ranks": [list(r) for r in f.ranks], "mounted": f.mounted}
    if f.leader:
        data["leader"] = f.leader  # only when there is one, so older battles keep their digests
    unit.data["formation"] = {**data, **(extra or {})}


def form(rules: Any, state: BattleState, unit: UnitState, command: Any, ctx: Context) -> None:
    leader = str(command.facts.get("leader", "") or "")
    ranks = _ranks(unit, command.facts, leader)
    mounted = all(rules.profile(e.id).mounted for e in unit.alive if e.id != leader)
    f = opt.Formation(tuple(tuple(r) for r in ranks), mounted, leader)
    f.check()
    _store(unit, f)
    ctx.emit("formation", f"{unit.name} forms up {len(ranks[0])} wide, {len(ranks)} deep"
             + (f", {state.element(leader).name} detached" if leader else ""), unit=unit.id)


def face(rules: Any, unit: UnitState, ctx: Context, state: BattleState | None = None) -> None:
    """Face left, right or about: 1 action from every model (15.1); then the models may
    consolidate free."""
    for el in unit.alive:
        if el.id != unit.data["formation"].get("leader"):
            rules._spend(el, 1, "facing the formation")
    if state is not None:
        unit.data["formation"] = {**unit.data["formation"], "faced": state.round}
    ctx.emit("formation", f"{unit.name} turns to face a new front", unit=unit.id)


def in_melee_this_turn(state: BattleState, unit: UnitState) -> bool:
    """A model of the unit struck or was struck this turn (the battle's `struck` record)."""
    ids = {e.id for e in unit.elements}
    struck = state.data.get("struck") or {}
    return any(t in ids or any(a in ids for attackers in by_side.values() for a in attackers) for t, by_side in struck.items())


def may_consolidate(state: BattleState, unit: UnitState) -> bool:
    """15.1: free after a face, and once after attacks (a melee of the unit this turn)."""
    data = unit.data.get("formation") or {}
    if data.get("faced") == state.round:
        return True
    return in_melee_this_turn(state, unit) and data.get("consolidated") != state.round


def consolidate(rules: Any, state: BattleState, unit: UnitState, command: Any, ctx: Context) -> None:
    """Re-rank the formation free (15.1), as the players re-form it; the leader stays detached."""
    if not may_consolidate(state, unit):
        raise IllegalCommand("FW3 15.1", f"{unit.name} consolidates free only after a face or after its melee")
    old = formation(unit)
    assert old is not None
    ranks = _ranks(unit, command.facts, old.leader)
    f = attrs.evolve(old, ranks=tuple(tuple(r) for r in ranks))
    f.check()
    keep = {k: v for k, v in unit.data["formation"].items() if k == "faced"}
    _store(unit, f, {**keep, "consolidated": state.round})
    ctx.emit("formation", f"{unit.name} consolidates: {len(ranks[0])} wide, {len(ranks)} deep", unit=unit.id)


def wheel(rules: Any, state: BattleState, unit: UnitState, command: Any, ctx: Context) -> None:
    """15.1: the far end of the front moves along the arc; every model counts as having
    taken that move (a Walk, or a Run), at the pace of the slowest model."""
    f = formation(unit)
    if f is None:
        raise IllegalCommand("FW3 15.1", f"{unit.name} is not in formation")
    inches = command.facts.get("inches", 0)
    if isinstance(inches, bool) or not isinstance(inches, int) or inches < 0:
        raise IllegalCommand("FW3 15.1", f"inches is a whole number, not {inches!r}")
    run = bool(command.facts.get("run", False))
    cost = 2 if run else 1
    models = [e for e in unit.alive if e.id != f.leader]
    slowest = min(carried_mov(rules.profile(e.id)) for e in models)
    if inches > slowest * cost:
        raise IllegalCommand("FW3 15.1", f"the formation moves at its slowest model's pace: {slowest * cost}\" at most")
    for e in models:
        if e.data["actions"] < cost:
            raise IllegalCommand("FW3 15.1", f"{e.name} has not {cost} action(s) left to wheel")
        if e.data["moved"] + inches > 2 * carried_mov(rules.profile(e.id)):
            raise IllegalCommand("FW3 7.1", f"{e.name} would move more than twice its MOV this turn")
    for e in models:
        rules._spend(e, cost, "a wheel")
        e.data["moved"] += inches
    ctx.emit("formation", f"{unit.name} wheels {inches}\" ({'a run' if run else 'a walk'} for every model)", unit=unit.id)


def removed(state: BattleState, el: ElementState, ctx: Context) -> None:
    """A model of a formation falls: those behind step up; too few left to stand four
    (three mounted) wide and the formation breaks (15.1). A fallen leader is just gone."""
    unit = state.unit(el.unit)
    f = formation(unit)
    if f is None:
        return
    if el.id == f.leader:
        _store(unit, attrs.evolve(f, leader=""), {k: v for k, v in unit.data["formation"].items() if k in ("faced", "consolidated")})
        return
    if not any(el.id in r for r in f.ranks):
        return
    after = f.without(el.id)
    if after is None:
        break_up(unit, ctx, "is too few to stand in formation and breaks it")
        return
    _store(unit, after, {k: v for k, v in unit.data["formation"].items() if k in ("faced", "consolidated")})


def direct_fire_target(state: BattleState, unit: UnitState, side: str, chosen: str, targets: list[ElementState]) -> str:
    """15.1: direct fire at a formation hits only the two ranks nearest the shooter (two
    deep from a flank): the chosen model must stand there; with none chosen, the first
    target that does."""
    f = formation(unit)
    if f is None:
        return chosen
    exposed = set(f.exposed(side)) | ({f.leader} if f.leader else set())
    if chosen:
        if chosen not in exposed:
            raise IllegalCommand("FW3 15.1", f"{state.element(chosen).name} stands deeper in {unit.name}'s formation than the two ranks nearest the shooter ({side})")
        return chosen
    return next((t.id for t in targets if t.id in exposed), "")


def break_up(unit: UnitState, ctx: Context, why: str = "breaks formation") -> None:
    unit.data["formation"] = None
    ctx.emit("formation", f"{unit.name} {why}", unit=unit.id)


def keeper(rules: Any, unit: UnitState, el: ElementState) -> Callable[[CommandSpec], bool] | None:
    """In formation only the front rank fights (and second-rank medium or long polearms),
    and only the front two ranks fire direct (15.1): which of a model's specs it keeps
    (None: all of them)."""
    f = formation(unit)
    if f is None or el.id == f.leader:
        return None  # a detached leader acts as he likes
    try:
        polearms = {e.id: w for e in unit.alive for w in rules._armed(e).melee if w.polearm}
        fighters = set(f.fighters(polearms))
        shooters = set(f.shooters(indirect=False))
    except IllegalCommand:
        return None  # too few left to stand as a formation: the players re-form it or break it
    fights, shoots = el.id in fighters, el.id in shooters

    def keep(s: CommandSpec) -> bool:
        if s.type == "strike":
            return fights
        if s.type == "shoot" and not shoots:
            return bool(rules._armed(el).ranged_weapon(s.params.get("weapon") or None).indirect)
        return True
    return keep


def adjust(rules: Any, unit: UnitState, el: ElementState, specs: Iterable[CommandSpec]) -> list[CommandSpec]:
    """`specs` as the model may use them in its formation (keeper)."""
    keep = keeper(rules, unit, el)
    return list(specs) if keep is None else [s for s in specs if keep(s)]


