"""The optional rules of 15 played in a battle when the scenario turns them on: the Hail
of Arrows (15.2, PR-67) as a unit's volley, and formations (15.1) declared, faced and
broken, limiting who shoots and who fights. The rules themselves are optional_rules.py.

Where the models and the template stand is the players': they report the archers, the
range, the models under the template (nearest the centre first, spiralling clockwise) and
a formation's ranks.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, FactSpec
from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.rulesets.figwars3 import optional_rules as opt
from campaign.rulesets.figwars3 import turn
from campaign.rulesets.figwars3.attack import resolve
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
FORM_FACTS = (
    FactSpec("front", (), [], "the front rank, left to right (at least 4 on foot, 3 mounted)", picks="unit_elements"),
    FactSpec("second", (), [], "the second rank", picks="unit_elements"),
)
FORMATION_FREE = ("form", "face", "break_formation")


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


def unit_specs(rules: Any, unit: UnitState) -> list[CommandSpec]:
    """Before the unit's first action: form up, face about, or break formation (15.1)."""
    if not rules.options.get("formations"):
        return []
    base = {"unit": unit.id}
    if unit.data.get("formation"):
        return [CommandSpec("face", base, label="Face the formation (1 action from every model)"),
                CommandSpec("break_formation", base, label="Break formation")]
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
    return opt.Formation(tuple(tuple(r) for r in data["ranks"]), bool(data.get("mounted")))


def form(rules: Any, state: BattleState, unit: UnitState, command: Any, ctx: Context) -> None:
    front = list(command.facts.get("front", []))
    second = list(command.facts.get("second", []))
    alive = {e.id for e in unit.alive}
    for model in front + second:
        if model not in alive:
            raise IllegalCommand("FW3 15.1", f"{model} is not a living model of {unit.name}")
    if len(set(front + second)) != len(front + second):
        raise IllegalCommand("FW3 15.1", "a model stands in one rank only")
    rest = [e.id for e in unit.alive if e.id not in front and e.id not in second]
    mounted = all(rules.profile(e.id).mounted for e in unit.alive)
    ranks = [r for r in (front, second, rest) if r]
    opt.Formation(tuple(tuple(r) for r in ranks), mounted).check()
    unit.data["formation"] = {"ranks": ranks, "mounted": mounted}
    ctx.emit("formation", f"{unit.name} forms up {len(front)} wide, {len(ranks)} deep", unit=unit.id)


def face(rules: Any, unit: UnitState, ctx: Context) -> None:
    """Face left, right or about: 1 action from every model (15.1)."""
    for el in unit.alive:
        rules._spend(el, 1, "facing the formation")
    ctx.emit("formation", f"{unit.name} turns to face a new front", unit=unit.id)


def break_up(unit: UnitState, ctx: Context, why: str = "breaks formation") -> None:
    unit.data["formation"] = None
    ctx.emit("formation", f"{unit.name} {why}", unit=unit.id)


def adjust(rules: Any, unit: UnitState, el: ElementState, specs: list[CommandSpec]) -> list[CommandSpec]:
    """In formation only the front rank fights (and second-rank medium or long polearms),
    and only the front two ranks fire direct (15.1)."""
    f = formation(unit)
    if f is None:
        return specs
    try:
        polearms = {e.id: w for e in unit.alive for w in rules._armed(e).melee if w.polearm}
        fighters = set(f.fighters(polearms))
        shooters = set(f.shooters(indirect=False))
    except IllegalCommand:
        return specs  # too few left to stand as a formation: the players re-form it or break it
    out = []
    for s in specs:
        if s.type == "strike" and el.id not in fighters:
            continue
        if s.type == "shoot" and el.id not in shooters:
            weapon = rules._armed(el).ranged_weapon(s.params.get("weapon") or None)
            if not weapon.indirect:
                continue
        out.append(s)
    return out
