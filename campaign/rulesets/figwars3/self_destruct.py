"""The Intergalactic Hunter's self-destruct (spec 17.5, PR-74): when the last model of a
side marked `Self-Destruct` is removed, its body counts down; at the start of the 6th turn
after the turn it fell it goes off: ATK 9d against each model under the large (5")
template centred on the body, ATK 2d against every other model with sight of the body,
then every model on the table but vehicles and mecha is stunned. Which models lie under
the template or see the body, and each one's cover, is the players' report.

Cover: PR-74 names none, but the self-destruct is an explosion and 11.18 step 6 (with
PR-53) gives every victim of one its own cover, one level lower, judged from the blast
centre; a model in partial or full cover still sees the body. From rules revision 3
(`revisions.BLAST_COVER_EACH`) each model under the template and each one in sight rolls
against its own cover so; battles recorded before keep one cover for the template's
victims and none for the 2d rolls.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, FactSpec
from campaign.engine.state import BattleState, ElementState
from campaign.rulesets.figwars3.acid import atk_roll
from campaign.rulesets.figwars3.attack import resolve
from campaign.rulesets.figwars3.ranged import COVER_ONE_LOWER
from campaign.rulesets.figwars3.revisions import BLAST_COVER_EACH

if TYPE_CHECKING:
    from campaign.engine.context import Context

SELF_DESTRUCT = "Self-Destruct"
DELAY = 6  # PR-74: the start of the 6th turn after the turn of death
BLAST_ATK = 9
SIGHT_ATK = 2

FACTS = (  # rules revisions 1 and 2: one cover for every model under the template, none for the 2d rolls
    FactSpec("under_template", (), [], "models under the large (5\") template centred on the body", picks="elements"),
    FactSpec("cover", tuple(COVER_ONE_LOWER), "none", "their cover (one level lower counts, as for a blast)"),
    FactSpec("in_sight", (), [], "every other model with sight of the body, anywhere on the table", picks="elements"),
)
# From revision 3 each model carries its own cover ("id:cover"), judged from the body.
OWN_COVER = (FactSpec("cover", tuple(COVER_ONE_LOWER), "none", "its cover from the body (one level lower counts, as for a blast)"),)
FACTS_EACH = (
    FactSpec("under_template", (), [], "models under the large (5\") template centred on the body, each with its cover",
             picks="elements", parts=OWN_COVER),
    FactSpec("in_sight", (), [], "every other model with sight of the body, anywhere on the table, each with its cover",
             picks="elements", parts=OWN_COVER),
)


def covered(listed: Any, cover: str = "none") -> list[tuple[str, str]]:
    """(model, cover) for each model a report lists: "id" (with `cover`), "id:cover" or
    {model, cover}; IllegalCommand for anything else."""
    if not isinstance(listed, list):
        raise IllegalCommand("PR-74", "a list of model ids")
    out = []
    for item in listed:
        if isinstance(item, dict):
            model, own = item.get("model"), item.get("cover", cover)
        elif isinstance(item, str):
            model, _, own = item.partition(":")
            own = own or cover
        else:
            model, own = None, cover
        if not isinstance(model, str) or own not in COVER_ONE_LOWER:
            raise IllegalCommand("PR-74", f"{item!r} is not a model id with its cover ({', '.join(COVER_ONE_LOWER)})")
        out.append((model, str(own)))
    return out


def on_removed(rules: Any, state: BattleState, el: ElementState, ctx: Context) -> None:
    """The last self-destructing model of its side is gone: the countdown starts."""
    if not rules.profile(el.id).has(SELF_DESTRUCT) or state.data.get("self_destruct"):
        return
    side = state.unit(el.unit).side
    if any(rules.profile(e.id).has(SELF_DESTRUCT) for u in state.units_of(side) for e in u.alive):
        return
    at = state.round + DELAY
    state.data["self_destruct"] = {"at": el.id, "turn": at, "done": False}
    ctx.emit("self_destruct", f"{el.name} was the last of them: its body self-destructs at the start of turn {at}", model=el.id)


def turn_start(rules: Any, state: BattleState, ctx: Context) -> Generator[Any, Any, None]:
    """Count down; at the turn it goes off, the players report who is under the template
    and who sees the body, then the blast, the 2d rolls and the stun."""
    sd = state.data.get("self_destruct")
    if not sd or sd.get("done"):
        return
    body = state.element(str(sd["at"]))
    left = int(sd["turn"]) - state.round
    if left > 0:
        ctx.emit("self_destruct", f"{body.name}'s self-destruct: {left} turn(s) to go", model=body.id)
        return
    state.data["self_destruct"] = {**sd, "done": True}

    each = rules.revision >= BLAST_COVER_EACH

    def check(command: Any) -> None:
        for name in ("under_template", "in_sight"):
            listed = command.facts.get(name, [])
            if not isinstance(listed, list):
                raise IllegalCommand("PR-74", f"{name} is a list of model ids")
            for m, _ in covered(listed) if each else ((m, "") for m in listed):
                rules._any_model(state, m)
        if command.facts.get("cover", "none") not in COVER_ONE_LOWER:
            raise IllegalCommand("FW3 11.5", f"cover is one of {', '.join(COVER_ONE_LOWER)}")

    side = state.unit(body.unit).side
    answer = yield Decision(side, f"{body.name}'s body self-destructs: which models are under the large template, and which see it?",
                            (CommandSpec("report", facts=FACTS_EACH if each else FACTS, label="Report the models hit"),), check=check)
    facts = answer.facts if isinstance(getattr(answer, "facts", None), dict) else {}
    if each:  # revision 3: each model's own cover, one level lower, for the 9d and the 2d alike
        under = covered(facts.get("under_template", []))
        sight = [(m, c) for m, c in covered(facts.get("in_sight", [])) if m not in {u for u, _ in under}]
    else:  # as recorded: one cover under the template, none for the 2d rolls
        shared = str(facts.get("cover", "none"))
        under = [(m, shared) for m in facts.get("under_template", []) if isinstance(m, str)]
        sight = [(m, "none") for m in facts.get("in_sight", []) if isinstance(m, str) and m not in {u for u, _ in under}]
    ctx.emit("self_destruct", f"{body.name}'s self-destruct goes off", model=body.id)
    for models, atk in ((under, BLAST_ATK), (sight, SIGHT_ATK)):
        for model, cover in models:
            victim = state.element(model)
            if not victim.alive:
                continue
            outcome = yield from resolve(atk_roll("self-destruct", atk, rules._defender(victim), cover))
            ctx.emit("shot", f"the self-destruct hits {victim.name}: {outcome.attacker_successes} against {outcome.defender_successes}",
                     model=victim.id)
            if outcome.winner == "attacker":
                yield from rules._hurt(state, victim, outcome.dp, outcome.judgement.pinned, ctx, explosive=True)
    for unit in state.units:
        for el in unit.alive:
            if rules.machine(el.id) is None and not el.data["stunned"]:
                el.data["stunned"] = True  # PR-74: every model on the table, vehicles and mecha excepted
    ctx.emit("stunned", "every model on the table is stunned by the self-destruct")
