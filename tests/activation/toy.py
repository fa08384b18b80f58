"""A tiny host ruleset for testing the card scheme on the engine core.

Every element rolls a d6 per attack; face + card modifier >= 4 kills one target
element. A unit that has lost half its elements takes a d6 morale roll (4+ holds)
and is routed on a failure. A side with no units left loses.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

import attrs

from campaign.activation.cards.host import SCHEME_NAME, CardHost
from campaign.engine.rules import handed_modifier
from campaign.engine.commands import Command
from campaign.engine.pending import CommandSpec, FactSpec, RollRequest
from campaign.engine.rules import BattleRules
from campaign.campaigns.scenario import Scenario
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.engine.state import BattleState
from campaign.force import Element, Force, Unit


@attrs.define(frozen=True)
class ToyMove(Command):
    type: ClassVar[str] = "move"
    unit: str = ""
    facts: dict[str, Any] = attrs.field(factory=dict)


@attrs.define(frozen=True)
class ToyShoot(Command):
    type: ClassVar[str] = "shoot"
    unit: str = ""
    target: str = ""
    weapon: str = "gun"


@attrs.define(frozen=True)
class ToyMelee(Command):
    type: ClassVar[str] = "melee"
    unit: str = ""
    target: str = ""


MOVE_FACTS = (
    FactSpec("inches", (), 0, "inches moved"),
    FactSpec("straight", (True, False), False),
    FactSpec("contact", (True, False), False),
    FactSpec("uninterrupted", (True, False), True),
)


@attrs.define(frozen=True)
class ToyCast(Command):
    type: ClassVar[str] = "cast"
    unit: str = ""
    spell: str = "hand-o-god"


class ToyRules(BattleRules):
    id: ClassVar[str] = "toy"

    def command_types(self) -> tuple[type[Command], ...]:
        return (ToyMove, ToyShoot, ToyMelee, ToyCast)

    def activation_commands(self, state: BattleState, unit_id: str) -> list[CommandSpec]:
        unit = state.unit(unit_id)
        specs = [CommandSpec("move", {"unit": unit_id}, MOVE_FACTS, f"{unit.name}: move")]
        if unit.name.startswith("Wizard"):
            specs.append(CommandSpec("cast", {"unit": unit_id}, label=f"{unit.name}: cast Hand o' God"))
        for enemy in state.units:
            if enemy.side != unit.side and not enemy.eliminated:
                specs.append(CommandSpec("shoot", {"unit": unit_id, "target": enemy.id}, label=f"{unit.name}: shoot {enemy.name}"))
                specs.append(CommandSpec("melee", {"unit": unit_id, "target": enemy.id}, label=f"{unit.name}: melee {enemy.name}"))
        return specs

    def resolve(self, state: BattleState, command: Command, ctx: Any) -> Any:
        unit = state.unit(command.unit)
        if command.type == "move":
            if command.facts.get("inches", 0) > 10:
                from campaign.engine.errors import IllegalCommand

                raise IllegalCommand("toy move", "a toy unit moves at most 10 inches per action")
            ctx.emit("moved", f"{unit.name} moves", unit=unit.id)
            return
        if command.type == "cast":
            ctx.emit("power", f"{unit.name} casts {command.spell}", unit=unit.id)
            return
        target = state.unit(command.target)
        mod, _ = handed_modifier(state, unit.id)
        faces = yield RollRequest(6, len(unit.alive), f"{len(unit.alive)} x d6 {command.type}, {unit.name} at {target.name}", unit.side)
        hits = sum(1 for f in faces if f + mod >= 4)
        start = len(target.elements)
        for element in target.alive[:hits]:
            element.alive = False
        ctx.emit("hits", f"{target.name}: {hits} hit(s)", hits=hits, modifier=mod)
        if not target.eliminated and hits and len(target.alive) * 2 <= start and not target.markers.get("routed"):
            (face,) = yield RollRequest(6, 1, f"1 x d6 morale, {target.name}", target.side)
            if face < 4:
                target.markers["routed"] = True
                ctx.emit("routed", f"{target.name} routs")

    def is_over(self, state: BattleState) -> bool:
        return any(not state.units_of(s.id) for s in state.sides)

    def end_reason(self, state: BattleState) -> str:
        return "a side has no units left"

    def scheme_host(self, scheme: str, options: dict[str, Any]) -> Any:
        return ToyHost(self, options) if scheme == SCHEME_NAME else None


class ToyHost(CardHost):

    def move_rate(self, state: BattleState, unit_id: str) -> Fraction:
        return Fraction(6)

    def cast_cost(self, state: BattleState, command: Command) -> tuple[str, int]:
        return (command.spell, 5)  # the source's example: a five-action power

    def weapons(self, state: BattleState, unit_id: str) -> list[tuple[str, int, bool]]:
        return [("gun", 1, True)]

    def leadership_bonus(self, state: BattleState, side: str) -> int:
        """A living unit named "General ..." is a field commander with bonus 2."""
        return sum(2 for u in state.units_of(side) if u.name.startswith("General"))


def force(name: str, *units: tuple[str, int]) -> Force:
    return Force(name, "toy", units=tuple(Unit(u, elements=(Element("trooper", count=n),)) for u, n in units))


def setup(red: list[tuple[str, int]], blue: list[tuple[str, int]], dice: str = "auto", seed: int = 1, **options: Any) -> BattleSetup:
    return BattleSetup(
        ruleset="toy",
        sides=(SideSetup("red", "Red", force("Red", *red)), SideSetup("blue", "Blue", force("Blue", *blue))),
        scenario=Scenario(id="skirmish", name="Skirmish", rounds=options.pop("rounds", None)),
        activation="cards",
        activation_options=options,
        seed=seed,
        dice=dice,
    )
