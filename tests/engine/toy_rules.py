"""A tiny ruleset for testing the engine core (not shipped).

Every element "attacks" with a d6 and hits on 4+ (long range: -1). A hit target may
make a recovery roll on a d6, saved on 5+. Before an attack resolves, the target's side
decides whether to "brace" (its own Decision mid-resolution): bracing gives +1 on the
recovery rolls. An attacker side may re-roll its attack dice once per battle (an
explicit, logged Reroll). A unit hit three or more times in one attack is "shaken" for
2 rounds (a timed Effect ticked at each round start). The battle ends when a side has
no unit left.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from campaign.engine import (
    BattleRules,
    BattleState,
    Command,
    CommandSpec,
    Decision,
    Effect,
    FactSpec,
    IllegalCommand,
    RollRequest,
)
from campaign.engine.odds import AttackOdds, attack_odds, p_at_least
from campaign.campaigns.scenario import Scenario
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.force import Element, Force, Unit

RANGE = FactSpec("range_band", ("short", "long"), "short", "short or long range")


@attrs.define(frozen=True)
class Attack(Command):
    type: ClassVar[str] = "attack"
    unit: str = ""
    target: str = ""
    facts: dict[str, str | int | bool] = attrs.field(factory=dict)


class ToyRules(BattleRules):
    id = "toy"

    def command_types(self) -> Iterable[type[Command]]:
        return (Attack,)

    def new_state(self, setup: BattleSetup) -> BattleState:
        state = super().new_state(setup)
        for side in state.sides:
            side.data["rerolls"] = 1
            side.data["kills"] = 0
        for unit in state.units:
            unit.data["attacked"] = False
        return state

    def activation_commands(self, state: BattleState, unit_id: str) -> list[CommandSpec]:
        unit = state.unit(unit_id)
        if unit.data["attacked"]:
            return []
        return [
            CommandSpec("attack", {"unit": unit_id, "target": t.id}, (RANGE,), f"Attack {t.name}", odds=True, targets="units")
            for t in state.units
            if t.side != unit.side and not t.eliminated
        ]

    def check(self, state: BattleState, command: Command) -> None:
        if isinstance(command, Attack) and command.facts.get("range_band") == "long":
            if any(e.markers.get("short_ranged") for e in state.unit(command.unit).alive):
                raise IllegalCommand("Toy 3 Short ranged", "target is out of range (short-ranged units fire short only)")

    def on_activation_start(self, state, unit_id, ctx):
        state.unit(unit_id).data["attacked"] = False
        return
        yield

    def on_round_start(self, state, ctx):
        for effect in list(state.effects):
            effect.remaining -= 1
            if effect.remaining <= 0:
                state.effects.remove(effect)
                ctx.emit("expired", f"{state.unit(effect.target).name} is no longer shaken", unit=effect.target)
        return
        yield

    def resolve(self, state: BattleState, command: Command, ctx: Any):
        assert isinstance(command, Attack)
        unit, target = state.unit(command.unit), state.unit(command.target)
        unit.data["attacked"] = True
        modifier = -1 if command.facts.get("range_band") == "long" else 0
        brace = yield Decision(
            target.side,
            f"{target.name} is attacked by {unit.name}: brace?",
            (CommandSpec("choose", {"option": "brace"}, label="Brace"), CommandSpec("choose", {"option": "stand"}, label="Stand")),
        )
        braced = brace.option == "brace"
        count = len(unit.alive)
        faces = yield RollRequest(6, count, f"{count} x d6 to hit, {unit.name} attacking {target.name}", unit.side)
        side = state.side(unit.side)
        if side.data["rerolls"] > 0 and any(f + modifier < 4 for f in faces):
            answer = yield Decision(
                unit.side,
                "Re-roll the attack dice (once per battle)?",
                (CommandSpec("reroll", label="Re-roll"), CommandSpec("keep", label="Keep")),
            )
            if answer.type == "reroll":
                side.data["rerolls"] -= 1
                faces = yield RollRequest(6, count, f"{count} x d6 to hit (re-roll), {unit.name}", unit.side)
        hits = sum(1 for f in faces if f + modifier >= 4)
        ctx.emit("hits", f"{unit.name} scores {hits} hit(s) on {target.name}", hits=hits, faces=list(faces))
        if hits >= 3:
            state.effects.append(Effect(f"shaken-{target.id}-{state.round}", "shaken", target.id, 2))
            ctx.emit("shaken", f"{target.name} is shaken", unit=target.id)
        lost = 0
        if hits:
            victims = target.alive[:hits]
            saves = yield RollRequest(6, len(victims), f"{len(victims)} x d6 recovery, {target.name}", target.side)
            for element, face in zip(victims, saves):
                if face + (1 if braced else 0) < 5:
                    element.alive = False
                    lost += 1
        ctx.emit("casualties", f"{target.name} loses {lost}", lost=lost)
        if target.eliminated:
            side.data["kills"] += 1
            ctx.emit("destroyed", f"{target.name} is destroyed", unit=target.id)

    def is_over(self, state: BattleState) -> bool:
        return any(not state.units_of(s.id) for s in state.sides)

    def end_reason(self, state: BattleState) -> str:
        gone = [s.name for s in state.sides if not state.units_of(s.id)]
        return f"{', '.join(gone)} has no unit left"

    def victory_points(self, state: BattleState) -> dict[str, Fraction]:
        return {s.id: Fraction(s.data["kills"]) for s in state.sides}

    def odds(self, state: BattleState, command: Command) -> AttackOdds:
        assert isinstance(command, Attack)
        modifier = -1 if command.facts.get("range_band") == "long" else 0
        braced = bool(command.facts.get("braced", False))
        n = len(state.unit(command.unit).alive)
        p_hit = p_at_least(6, 4, modifier)
        p_fail = 1 - p_at_least(6, 5, 1 if braced else 0)
        return attack_odds([p_hit] * n, [p_fail] * n)


def toy_setup(
    sizes: tuple[tuple[int, ...], ...] = ((3, 2), (3, 2)), rounds: int = 0, **kw: Any
) -> BattleSetup:
    """Sides "reds", "blues" (then "greens", "golds") with units of the given element counts."""
    sides = []
    for side_id, counts in zip(("reds", "blues", "greens", "golds"), sizes):
        units = tuple(
            Unit(f"{side_id[:-1].title()} {i + 1}", (Element("Trooper", count=n, die="d6"),))
            for i, n in enumerate(counts)
        )
        sides.append(SideSetup(side_id, side_id.title(), Force(side_id.title(), "toy", units=units)))
    return BattleSetup(ruleset="toy", sides=tuple(sides), scenario=Scenario("toy-fight", "Toy fight", rounds=rounds or None), **kw)
