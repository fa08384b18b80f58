"""The Xenomorph Bug's acid blood (spec 17.5): a model marked `Acid Blood` sprays acid when
it is killed (the small template centred on it, ATK 1d against each model the players
report under it, no stun, cover one level lower as for any blast, PR-53), and any melee
attack that succeeds against it splashes the attacking weapon (1d8: 1-3 destroyed). An
unarmed attacker, or one striking with natural weapons (our reading: they cannot be
destroyed), suffers an ATK 1d attack instead; weapons immune to acid blood (the hunter's
claw and spear) are untouched.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from campaign.engine.dice import roll as request_roll
from campaign.engine.pending import CommandSpec, Decision, FactSpec
from campaign.engine.state import BattleState, ElementState
from campaign.rulesets.figwars3.attack import OpposedRoll, Side, Term, resolve
from campaign.rulesets.figwars3.ranged import COVER_DEF, COVER_ONE_LOWER

if TYPE_CHECKING:
    from campaign.engine.context import Context

ACID_BLOOD = "Acid Blood"
ACID_ATK = 1  # both the death spray and the splash on an unarmed attacker
DESTROYED_MAX = 3  # 1d8: 1-3 the splashed weapon is destroyed
IMMUNE = "acid_immune"

SPRAY_FACTS = (
    FactSpec("victims", (), [], "models under the small (3\") template centred on the dead bug", picks="elements"),
    FactSpec("cover", tuple(COVER_ONE_LOWER), "none", "their cover (one level lower counts, as for a blast)"),
)


def atk_roll(source: str, atk: int, defender: Any, cover: str = "none") -> OpposedRoll:
    """A bare ATK roll with no shooter (no TQ, no range) against the model's DEF and its
    cover one level lower, as for a blast (PR-53): acid blood, a self-destruct (17.5)."""
    terms: tuple[Term, ...] = (Term("DEF", defender.defence),)
    lower = COVER_ONE_LOWER.get(cover, "none")
    if COVER_DEF.get(lower, 0):
        terms += (Term(f"cover ({lower.replace('_', ' ')})", COVER_DEF[lower]),)
    return OpposedRoll("ranged", Side(source, (Term("ATK", atk),)), Side(defender.name, terms), notes=(f"{source} (17.5)",))


def acid_roll(defender: Any, cover: str = "none") -> OpposedRoll:
    return atk_roll("acid blood", ACID_ATK, defender, cover)


def spray(rules: Any, state: BattleState, dead: ElementState, ctx: Context) -> Generator[Any, Any, None]:
    """The dead bug sprays acid: its owner reports the models under the template (friends
    too); each takes an ATK 1d roll, no stun."""
    side = state.unit(dead.unit).side

    def check(command: Any) -> None:
        from campaign.engine.errors import IllegalCommand

        victims = command.facts.get("victims", [])
        if not isinstance(victims, list):
            raise IllegalCommand("FW3 17.5", "victims is a list of model ids")
        for v in victims:
            rules._any_model(state, v)
        if command.facts.get("cover", "none") not in COVER_ONE_LOWER:
            raise IllegalCommand("FW3 11.5", f"cover is one of {', '.join(COVER_ONE_LOWER)}")

    answer = yield Decision(side, f"{dead.name} dies and sprays acid blood: which models are under the small template centred on it?",
                            (CommandSpec("report", facts=SPRAY_FACTS, label="Report the models under the template"),), check=check)
    facts = answer.facts if isinstance(getattr(answer, "facts", None), dict) else {}
    for model in facts.get("victims", []):
        victim = state.element(model)
        if not victim.alive or victim.id == dead.id:
            continue
        outcome = yield from resolve(acid_roll(rules._defender(victim), str(facts.get("cover", "none"))))
        ctx.emit("acid", f"acid blood splashes {victim.name}: {outcome.attacker_successes} against {outcome.defender_successes}",
                 model=victim.id)
        if outcome.winner == "attacker":
            yield from rules._hurt(state, victim, outcome.dp, outcome.judgement.pinned, ctx, explosive=True)


def splash(rules: Any, state: BattleState, attacker: ElementState, target: ElementState, ctx: Context) -> Generator[Any, Any, None]:
    """A successful melee attack on an acid-blooded model: each attacking weapon rolls 1d8
    and is destroyed on 1-3; unarmed (or natural weapons) the attacker takes ATK 1d."""
    if not attacker.alive or not rules.profile(target.id).has(ACID_BLOOD):
        return
    weapons = rules._armed(attacker).melee_weapons(rules._wielded(attacker))
    for weapon in weapons:
        if weapon.rider == IMMUNE:
            continue
        if weapon.natural or not any(w.name == weapon.name for w in rules._armed(attacker).melee + rules._armed(attacker).ranged):
            outcome = yield from resolve(acid_roll(rules._defender(attacker)))
            ctx.emit("acid", f"acid blood splashes {attacker.name}: {outcome.attacker_successes} against {outcome.defender_successes}",
                     model=attacker.id)
            if outcome.winner == "attacker":
                yield from rules._hurt(state, attacker, outcome.dp, outcome.judgement.pinned, ctx)
            return
        (face,) = yield from request_roll(8, 1, f"acid blood on {attacker.name}'s {weapon.name}: 1-3 destroyed")
        if face <= DESTROYED_MAX:
            attacker.data["destroyed"] = [*attacker.data.get("destroyed", []), weapon.name]
            ctx.emit("acid", f"acid blood eats {attacker.name}'s {weapon.name}", model=attacker.id, weapon=weapon.name)
