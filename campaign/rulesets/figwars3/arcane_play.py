"""Casters in a battle (spec 16, PR-68-PR-73): the ARC pool in the element's data, the
powers a caster knows (the element's `spells`), barriers and concealment standing on
models, and what a cast does. `play.FigWarsRules` calls these; the rules are arcane.py.

A caster is an element whose `stats` carry `arc` (1-4) and whose `spells` name the
powers it knows (assault, blast, spirit_strike, barrier, concealment, conveyance,
teleport, entity).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import FactSpec
from campaign.findings import Finding
from campaign.force import Element
from campaign.rulesets.figwars3 import arcane as ar
from campaign.rulesets.figwars3.attack import OpposedRoll, Term
from campaign.rulesets.figwars3.rerolls import ReRoll

if TYPE_CHECKING:
    from campaign.engine.report import OddsReport

POWER_NAMES: dict[str, str] = {
    "assault": "arcane assault",
    "blast": "arcane blast",
    "spirit_strike": "spirit strike",
    "barrier": "arcane barrier",
    "concealment": "arcane concealment",
    "conveyance": "arcane conveyance",
    "teleport": "arcane teleportation",
    "entity": "arcane entity",
}
TARGETED = ("assault", "blast", "spirit_strike")
IN_PLAY = ("assault", "blast", "spirit_strike", "barrier", "concealment", "conveyance", "teleport", "entity")


def cast_facts(power: str) -> tuple[FactSpec, ...]:
    level = FactSpec("level", (1, 2, 3, 4), 1, "ARC points spent (the power's level)")
    facts = [level]
    if power in ("assault", "blast"):
        options = tuple(ar.ASSAULT if power == "assault" else ar.BLAST)
        facts.append(FactSpec("option", options, options[0], "target and template option (16.2, 16.3)"))
        facts.append(FactSpec("cover", tuple(ar.ARCANE_FACTS["cover"]), "none", "the target's cover"))
        facts.append(FactSpec("under_template", (), [], "other models under the template or spray", picks="target_elements"))
    if power in ("barrier", "concealment"):
        facts.append(FactSpec("area", ar.AREAS, "caster", "the caster alone or a template centred on him"))
        facts.append(FactSpec("under_template", (), [], "friendly models under the template", picks="own_elements"))
    if power == "teleport":
        facts.append(FactSpec("anywhere", (False, True), False, "a destination out of the caster's sight (one point more)"))
        facts.append(FactSpec("landing", tuple(ar.LANDINGS), "clear", "where a deviated caster ends up (players judge)"))
        facts.append(FactSpec("under_template", (), [], "the model or vehicle a deviated caster lands in, if any", picks="elements"))
    if power == "conveyance":
        facts.append(FactSpec("inches", (), 0, "inches flown (12\" per point)"))
    if power == "entity":
        from campaign.rulesets.figwars3.entities import FACT

        facts.append(FACT)
    return tuple(facts)


def caster_findings(element: Element) -> list[Finding]:
    """A caster's ARC rating and the powers it knows (16.1); none for a non-caster."""
    arc = element.stats.get("arc")
    if arc is None:
        return [Finding("error", "FW3 16.1", "powers need an ARC rating (stats.arc)")] if element.spells else []
    out = []
    if isinstance(arc, bool) or not isinstance(arc, int) or arc not in ar.LEVELS:
        return [Finding("error", "FW3 16.1", f"ARC runs from 1 to 4, not {arc!r}")]
    for power in element.spells:
        if power not in POWER_NAMES:
            out.append(Finding("error", "FW3 16", f"no arcane power {power!r} (expected one of {', '.join(POWER_NAMES)})"))
    if len(element.spells) > ar.KNOWN_PER_POINT * arc:
        out.append(Finding("warning", "FW3 16.1", f"{len(element.spells)} powers; a caster normally knows at most {ar.KNOWN_PER_POINT * arc} with ARC {arc}"))
    return out


def fresh(rating: int) -> dict[str, Any]:
    return dump(ar.new_pool(rating))


def dump(pool: ar.ArcanePool) -> dict[str, Any]:
    return {"rating": pool.rating, "points": pool.points, "used": list(pool.used), "spent": pool.spent, "entity": pool.entity}


def load(data: dict[str, Any]) -> ar.ArcanePool:
    return ar.ArcanePool(int(data["rating"]), int(data["points"]), tuple(data.get("used", ())), bool(data.get("spent")), bool(data.get("entity")))


def warded(opposed: OpposedRoll, target_data: dict[str, Any], in_melee: bool = False) -> OpposedRoll:
    """A shot at a model under a barrier (+Nd) or concealment (+Nd and N re-rolls of its
    defence dice); neither counts against shooting in melee (16.5, 16.6)."""
    if in_melee:
        return opposed
    terms: list[Term] = []
    rerolls: list[ReRoll] = []
    for ward in target_data.get("wards", []):
        terms.append(Term(POWER_NAMES[ward["power"]], ward["bonus"]))
        if ward["power"] == "concealment":
            rerolls.extend(ReRoll("concealment") for _ in range(ward["bonus"]))
    if not terms:
        return opposed
    d = opposed.defender
    return attrs.evolve(opposed, defender=attrs.evolve(d, terms=d.terms + tuple(terms), rerolls=d.rerolls + tuple(rerolls)))


def ward_words(data: dict[str, Any]) -> list[str]:
    return [f"{POWER_NAMES[w['power']]} +{w['bonus']}d" for w in data.get("wards", [])]


def check_known(spells: tuple[str, ...], power: str) -> None:
    if power not in spells:
        raise IllegalCommand("FW3 16.1", f"the caster does not know {POWER_NAMES.get(power, power)}")
    if power not in IN_PLAY:
        raise IllegalCommand("FW3 16.8", f"{POWER_NAMES[power]} is not played by the engine yet: resolve it at the table")


# --- the battle's side of casting ------------------------------------------------------------
# `rules` is play.FigWarsRules; these are its cast action, specs, odds and turn hooks.


def round_start(state: Any) -> None:
    """PR-68: a caster who spent no point last turn regains one (done as the next turn starts)."""
    for unit in state.units:
        for el in unit.alive:
            if "arc" in el.data:
                el.data["arc"] = dump(load(el.data["arc"]).turn_end())


def start_caster(state: Any, el: Any, ctx: Any) -> Any:
    """At each later activation of the caster, every ward he holds up needs its Hard check
    on his ARC rating (PR-71); a failure ends it on every model it covered."""
    if "arc" not in el.data or not el.data.get("upkeep"):
        return
    rating = load(el.data["arc"]).rating
    for ward in list(el.data["upkeep"]):
        ok = yield from ar.upkeep(rating)
        if ok:
            ctx.emit("arcane", f"{el.name} keeps the {POWER_NAMES[ward['power']]} up", model=el.id)
            continue
        el.data["upkeep"] = [w for w in el.data["upkeep"] if w != ward]
        for model in ward["models"]:
            holder = state.element(model)
            holder.data["wards"] = [w for w in holder.data.get("wards", []) if w.get("caster") != el.id or w["power"] != ward["power"]]
        ctx.emit("arcane", f"{el.name}'s {POWER_NAMES[ward['power']]} fades", model=el.id)


def specs(rules: Any, state: Any, unit: Any, el: Any, enemies: list[Any], base: dict[str, Any], who: str) -> list[Any]:
    from campaign.engine.pending import CommandSpec

    if "arc" not in el.data:
        return []
    pool = load(el.data["arc"])
    out = []
    for power in rules.spells(el.id):
        if power not in IN_PLAY or power in pool.used or pool.points < 1 or el.data["actions"] < 1 or pool.entity:
            continue
        label = POWER_NAMES[power]
        if power in TARGETED:
            for enemy in enemies:
                out.append(CommandSpec("cast", {**base, "power": power, "target": enemy.id}, cast_facts(power),
                                       f"{who}: {label} at {enemy.name}", odds=True, targets="units",
                                       picks={"target_model": "target_elements"}))
        else:
            out.append(CommandSpec("cast", {**base, "power": power}, cast_facts(power), f"{who}: {label}", odds=power == "teleport"))
    return out


def _level(command: Any, pool: ar.ArcanePool) -> int:
    level = command.facts.get("level", 1)
    if isinstance(level, bool) or level not in ar.LEVELS:
        raise IllegalCommand("FW3 16.1", f"level runs from 1 to 4, not {level!r}")
    return int(level)


def cast_opposed(rules: Any, state: Any, command: Any, target_id: str = "") -> OpposedRoll | None:
    """The roll an assault or blast makes against one model (odds and resolution)."""
    el = rules._own_model(state, command)
    if command.power not in ("assault", "blast"):
        raise IllegalCommand("odds", f"{POWER_NAMES.get(command.power, command.power)} has no opposed roll")
    target = state.element(target_id) if target_id else rules._target_model(state, el, command.target, command.target_model)
    facts = {k: command.facts[k] for k in ("cover",) if k in command.facts}
    if el.data.get("aim"):
        facts["aim"] = True
    option = command.facts.get("option", "single_los" if command.power == "assault" else "small_blast_los")
    opposed = ar.arcane_attack(rules.profile(el.id), command.power, option, _level(command, load(el.data["arc"])), rules._defender(target), facts)
    return warded(opposed, target.data) if opposed is not None else None


def cast(rules: Any, state: Any, el: Any, command: Any, ctx: Any) -> Any:
    """One use of a power: points, actions, then what it does (16.2-16.7)."""
    from campaign.rulesets.figwars3.attack import resolve

    if "arc" not in el.data:
        raise IllegalCommand("FW3 16.1", f"{el.name} has no arcane affinity")
    power = command.power
    check_known(rules.spells(el.id), power)
    pool = load(el.data["arc"])
    level = _level(command, pool)
    if power == "entity":  # refused before anything is spent
        from campaign.rulesets.figwars3.entities import FACT, parse_designs

        ar.check_entities(parse_designs(command.facts.get("entities", FACT.default)), level)
    after = pool.spend(power, level)
    rules._spend(el, ar.action_cost(level), POWER_NAMES[power])
    el.data["arc"] = dump(after)
    ctx.emit("cast", f"{el.name} uses {POWER_NAMES[power]} at level {level} ({after.points} ARC left)", model=el.id, power=power, level=level)
    if power in ("assault", "blast"):
        target = rules._target_model(state, el, command.target, command.target_model)
        victims = [target] + [rules._any_model(state, m) for m in command.facts.get("under_template", []) if m != el.id]
        el.data["aim"] = False
        for victim in victims:
            opposed = cast_opposed(rules, state, command, victim.id)
            if opposed is None:
                ctx.emit("arcane", f"the {POWER_NAMES[power]} comes to no dice against {victim.name} (PR-69)", model=victim.id)
            else:
                outcome = yield from resolve(opposed)
                ctx.emit("shot", f"{el.name}'s {POWER_NAMES[power]} at {victim.name}: {outcome.attacker_successes} against {outcome.defender_successes}",
                         model=el.id, target=victim.id)
                if outcome.winner == "attacker":
                    yield from rules._hurt(state, victim, outcome.dp, outcome.judgement.pinned, ctx, explosive=power == "blast")
            if power == "blast" and victim.alive and not victim.data["stunned"] and not rules.is_machine(victim.id):
                victim.data["stunned"] = True
                ctx.emit("stunned", f"{victim.name} is stunned by the arcane blast", model=victim.id)
    elif power == "spirit_strike":
        target = rules._target_model(state, el, command.target, command.target_model)
        if rules.is_machine(target.id):
            raise IllegalCommand("FW3 16.4", f"{target.name} is a machine: spirit strike hurts only the living")
        high, low, dp = yield from ar.spirit_strike(level, "arc" in target.data, rules.profile(el.id).hero)
        ctx.emit("shot", f"{el.name}'s spirit strike: {high} against {low}", model=el.id, target=target.id)
        if dp:
            yield from rules._hurt(state, target, dp, False, ctx)
    elif power in ("barrier", "concealment"):
        area = command.facts.get("area", "caster")
        bonus = ar.ward(power, level, area)
        models = [el.id] + ([m for m in command.facts.get("under_template", []) if m != el.id] if area != "caster" else [])
        for model in models:
            holder = rules._any_model(state, model)
            holder.data["wards"] = [w for w in holder.data.get("wards", []) if w["power"] != power] + [{"power": power, "bonus": bonus, "caster": el.id}]
        el.data["upkeep"] = [w for w in el.data.get("upkeep", []) if w["power"] != power] + [{"power": power, "models": models}]
        ctx.emit("arcane", f"{POWER_NAMES[power]}: +{bonus}d against shooting on {len(models)} model(s)", model=el.id)
    elif power == "entity":
        from campaign.rulesets.figwars3.entities import create
        from campaign.rulesets.figwars3.play import model_data

        create(rules, state, el, command, level, ctx, model_data)
    elif power == "conveyance":
        inches = command.facts.get("inches", 0)
        limit = ar.conveyance_inches(level)
        if isinstance(inches, bool) or not isinstance(inches, int) or not 0 <= inches <= limit:
            raise IllegalCommand("FW3 16.7", f"conveyance flies 0 to {limit}\" at level {level}, not {inches!r}")
        el.data["moved"] = el.data.get("moved", 0) + inches
        ctx.emit("fly", f"{el.name} flies {inches}\" by arcane conveyance", model=el.id, inches=inches)
    elif power == "teleport":
        result = yield from ar.teleport(level, bool(command.facts.get("anywhere", False)), rules.profile(el.id).hero)
        landing = command.facts.get("landing", "clear")
        if result.result == "arrived":
            ctx.emit("teleport", f"{el.name} teleports exactly where intended", model=el.id)
        elif result.result == "killed":
            ctx.emit("teleport", f"{el.name}'s teleport fails catastrophically: every die a 1", model=el.id)
            rules._remove(state, el, ctx)
            from campaign.rulesets.figwars3.entities import caster_fell

            yield from caster_fell(state, el, ctx)
        else:
            ctx.emit("teleport", f"{el.name} lands {result.inches}\" off towards arrow {result.direction}: {ar.LANDINGS[landing]}",
                     model=el.id, direction=result.direction, inches=result.inches)
            if landing != "clear":
                rules._remove(state, el, ctx)
            if landing == "model":
                for model in command.facts.get("under_template", [])[:1]:
                    rules._remove(state, rules._any_model(state, model), ctx)
            if landing == "vehicle":
                from campaign.rulesets.figwars3.checks import d4

                for model in command.facts.get("under_template", [])[:1]:
                    dp = yield from d4()
                    yield from rules._hurt(state, rules._any_model(state, model), dp, False, ctx)


def describe(el: Any) -> list[str]:
    words = []
    if "arc" in el.data:
        pool = load(el.data["arc"])
        words.append(f"ARC {pool.points}/{pool.rating}")
    words.extend(ward_words(el.data))
    return words


def wields_force(attacker: Any, data: dict[str, Any]) -> bool:
    return "arc" in data and any(w.rider == "force" for w in attacker.melee_weapons())


def force_weapon(opposed: OpposedRoll, attacker: Any, data: dict[str, Any], points: Any = 0) -> OpposedRoll:
    """16.9: a caster striking with a force weapon adds his ARC rating free, and +1d for
    each ARC point he spends on the strike (PR-72: checked as the pool allows)."""
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise IllegalCommand("FW3 16.9", f"arc_points is a whole number of ARC points, not {points!r}")
    if not wields_force(attacker, data):
        if points:
            raise IllegalCommand("FW3 16.9", "only a caster striking with a force weapon spends ARC points on a blow")
        return opposed
    pool = load(data["arc"])
    if points:
        pool.spend("force_weapon", points)  # refuses more than he has, or while an entity of his exists
    a = opposed.attacker
    bonus = [Term("ARC rating (force weapon)", pool.rating)]
    if points:
        bonus.append(Term("ARC points spent (force weapon)", points))
    return attrs.evolve(opposed, attacker=attrs.evolve(a, terms=a.terms + tuple(bonus)))


def force_facts(attacker: Any, data: dict[str, Any]) -> tuple[FactSpec, ...]:
    """The strike's extra fact for a caster with a force weapon and points left."""
    if not wields_force(attacker, data) or load(data["arc"]).points < 1 or load(data["arc"]).entity:
        return ()
    left = load(data["arc"]).points
    return (FactSpec("arc_points", tuple(range(left + 1)), 0, "ARC points spent on the force weapon's blow: +1d each (16.9, PR-72)"),)


def spend_on_force(el: Any, points: int, ctx: Any) -> None:
    """PR-72: points on a force-weapon blow are part of the strike (no action, not once a
    turn) and count as using power for the regain (PR-68)."""
    if not points:
        return
    el.data["arc"] = dump(load(el.data["arc"]).spend("force_weapon", points))
    ctx.emit("cast", f"{el.name} pours {points} ARC point(s) into the force weapon ({load(el.data['arc']).points} left)",
             model=el.id, power="force_weapon", level=points)


def power_report(rules: Any, state: Any, command: Any) -> OddsReport:
    """Odds of a power that rolls without an opposed pool (16.4, 16.7): the DP a spirit
    strike takes off its target, or where a teleport ends. Read from the same rules the
    cast rolls (arcane.spirit_odds, teleport_odds)."""
    from campaign.engine.report import OddsReport, Outcome

    el = rules._own_model(state, command)
    if "arc" not in el.data:
        raise IllegalCommand("FW3 16.1", f"{el.name} has no arcane affinity")
    level = _level(command, load(el.data["arc"]))
    hero = rules.profile(el.id).hero
    notes = ("a hero caster re-rolls his lowest die (PR-73)",) if hero else ()
    if command.power == "spirit_strike":
        target = rules._target_model(state, el, command.target, command.target_model)
        if rules.is_machine(target.id):
            raise IllegalCommand("FW3 16.4", f"{target.name} is a machine: spirit strike hurts only the living")
        caster = "arc" in target.data
        dist = ar.spirit_odds(level, caster, hero)
        outcomes = (Outcome("DP inflicted", dist, help="the caster's highest die less the target's, ignoring DEF (16.4)"),
                    Outcome("target hurt", p=sum((p for k, p in dist.items() if k > 0), Fraction(0))))
        line = f"{el.name}: {level}d6 keep the highest against {target.name}: {2 if caster else 1}d6" + (" (a caster)" if caster else "")
        return OddsReport(outcomes, (line,), notes, title="FigWars 3 spirit strike odds")
    if command.power == "teleport":
        anywhere = bool(command.facts.get("anywhere", False))
        where = ar.teleport_odds(level, anywhere, hero)
        words = {"arrived": "arrives where intended", "deviated": "deviates 1d8\"", "killed": "caster killed (every die a 1)"}
        ends = tuple(Outcome(words[k], p=where.get(k, Fraction(0))) for k in ("arrived", "deviated", "killed"))
        line = f"{el.name}: {ar.teleport_dice(level, anywhere)}d6, any 4-6 arrives" + (" (out of sight)" if anywhere else "")
        return OddsReport(ends, (line,), notes, title="FigWars 3 teleport odds")
    raise IllegalCommand("odds", f"{POWER_NAMES.get(command.power, command.power)} rolls nothing to give odds for")
