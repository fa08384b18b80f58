"""The d10 rules as the card scheme's host (card-activation.md section 7.4).

The deck replaces the phased turn: every unit and every character gets a card; one card
turn is one d10 turn. What stays d10: movement (terrain, stream, the 18-inch limit, half
speed out of command, command control asked as each activation starts), run away as a free reaction to contact,
the d10 attack with its +2 cap (the card's flat modifier joins the modifiers, so its
bonus counts towards the cap), multipliers and pooling, one save roll per model, multi-hit
absorption and criticals. What changes: no op fire; no stationary and moving phases;
effects land straight after each action; morale is the unit check (the grade's triggers,
after each action that gave one; Cowardly's enemy within 6 inches asked after each move),
a failure routs the unit for the scheme and its forced Rally is another unit check; with
the option `use_004_individual_morale` a failure sends each model to the individual table
instead. "Next turn" is the next card turn and "next
movement phase" the unit's next Move action.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from campaign.activation.cards.host import CardHost
from campaign.activation.cards.rules import FlatModifier, Step
from campaign.engine.commands import Command
from campaign.engine.dice import roll
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, FactSpec, Resolution
from campaign.engine.state import BattleState
from campaign.rulesets.d10_phased.attack import Ledger
from campaign.rulesets.d10_phased.combat import declare
from campaign.rulesets.d10_phased.command import unit_command_check
from campaign.rulesets.d10_phased.commands import CARD_FIRE_FACTS, CARD_MOVE_FACTS, SHOT_FACTS
from campaign.rulesets.d10_phased.damage import settle
from campaign.rulesets.d10_phased.morale import (
    COWARDLY,
    FEARLESS,
    apply_result,
    individual_modifier,
    individual_result,
    owes_unit_check,
    unit_die,
    unit_passes,
)
from campaign.rulesets.d10_phased.movement import STREAM, IllegalMove, walk
from campaign.rulesets.d10_phased.rolls import DIE
from campaign.rulesets.d10_phased.state import CLOSE, PINNED, ROUTED, ModelState

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.rulesets.d10_phased.play import Game
    from campaign.rulesets.d10_phased.rules import D10Rules

KINDS = {"unit_move": "move", "fire": "ballistic", "close": "melee"}


class D10CardHost(CardHost):
    rules: D10Rules
    defers_results = False  # the d10 records live in the Game, not in the unit states

    def game(self, state: BattleState) -> Game:
        return self.rules.game(state)

    def living(self, state: BattleState, unit_id: str) -> list[ModelState]:
        return self.game(state).roster.members(unit_id)

    # --- who takes part ----------------------------------------------------------------
    def is_unit(self, state: BattleState, unit_id: str) -> bool:
        return bool(self.living(state, unit_id))

    def move_rate(self, state: BattleState, unit_id: str) -> Fraction:
        models = self.living(state, unit_id)
        return Fraction(min((m.move for m in models), default=0))

    def models(self, state: BattleState, unit_id: str) -> int:
        return len(self.living(state, unit_id))

    # --- what the unit may do ------------------------------------------------------------
    def commands(self, state: BattleState, unit_id: str) -> list[CommandSpec]:
        game = self.game(state)
        models = self.living(state, unit_id)
        if not models:
            return []
        name = game.roster.units[unit_id].name
        out = []
        if any(not m.immobile and not game.touching(m.id) for m in models):
            out.append(CommandSpec("unit_move", {"unit": unit_id}, CARD_MOVE_FACTS, f"{name}: move"))
        able = [m for m in models if m.crit_no_attack_turn != game.turn]
        enemies = [m for s in game.sides if s != models[0].side for m in game.roster.side_models(s)]
        if any(n and w != CLOSE for m in able for w, n in m.attack.items()):
            # one spec per enemy model: the target is a model (AMB-32), offered by id
            out += [
                CommandSpec("fire", {"unit": unit_id, "target": e.id}, CARD_FIRE_FACTS, f"{name}: fire at {e.label}", odds=True, targets="models")
                for e in enemies
            ]
        touched = {t for m in able if m.attack.get(CLOSE) for t in game.touching(m.id)}
        for target in sorted(touched):
            out.append(
                CommandSpec("close", {"unit": unit_id, "target": target}, SHOT_FACTS, f"{name}: close attack on {game.roster.model(target).label}", odds=True)
            )
        return out

    def action_kind(self, state: BattleState, command_type: str) -> str:
        return KINDS.get(command_type, "special")

    def target(self, command: Command) -> str | None:
        target = getattr(command, "target", "")
        return target.rsplit("/", 1)[0] if target else None  # the target model's unit

    def move_step(self, state: BattleState, command: Command) -> Step:
        facts = self.facts(command)
        inches = Fraction(0)
        for step in getattr(command, "path", []):
            parts = str(step).split()
            if len(parts) == 2:
                try:
                    inches += Fraction(parts[1])
                except (ValueError, ZeroDivisionError):
                    pass
        contact = bool(getattr(command, "contacts", []))
        return Step("move", inches, bool(facts.get("straight", False)), contact, bool(facts.get("uninterrupted", True)))

    # --- an activation starts: command control (7.4) -------------------------------------------
    def activation_start(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        """Command control is checked as each activation starts, not at phase boundaries
        (7.4): the owner names the unit's models beyond the command radius from its leader."""
        game = self.game(state)
        unit = game.roster.units.get(unit_id)
        members = game.roster.members(unit_id) if unit else []
        if unit is None or not members:
            return
        if unit.character or len(members) < 2:
            unit_command_check(game.roster, unit_id, [])
            return
        strays = [m.id for m in members if m.id != unit.leader]
        fact = FactSpec("beyond_radius", (), [], f"models farther than {unit.command_radius}\" from their leader", "elements")

        def check(command: Any) -> None:
            ids = command.facts.get("beyond_radius", [])
            wrong = [i for i in ids if i not in strays] if isinstance(ids, list) else ids
            if wrong:
                raise IllegalCommand("DP-6", f"beyond_radius names models of {unit.name} other than its leader, not {wrong!r}")

        got = yield Decision(
            unit.side,
            f"{unit.name}: command control (models beyond {unit.command_radius}\" of the leader)",
            (CommandSpec("report", facts=(fact,), label="Report"),),
            check=check,
            data={"pick_elements": strays},
        )
        out = unit_command_check(game.roster, unit_id, got.facts.get("beyond_radius", []))
        if out:
            ctx.emit("out_of_command", f"out of command: {', '.join(game.roster.model(m).label for m in out)}", models=out)
        self.rules.sync(state)

    # --- resolution ---------------------------------------------------------------------------
    def resolve(self, state: BattleState, command: Command, ctx: Context, modifier: FlatModifier) -> Resolution:
        if command.type not in KINDS:
            raise IllegalCommand("d10 cards", f"{command.type} is not a card action of the d10 rules")
        if command.unit not in self.game(state).roster.units:  # type: ignore[attr-defined]
            raise IllegalCommand("d10 cards", f"no unit {command.unit!r}")  # type: ignore[attr-defined]
        if command.type == "unit_move":
            yield from self._move(state, command, ctx)
            yield from self._cowardly_near(state, ctx)
        else:
            yield from self._attack(state, command, ctx, modifier)
        self.rules.sync(state)

    def _cowardly_near(self, state: BattleState, ctx: Context) -> Resolution:
        """Cowardly's trigger (DP-18.2), an enemy within 6 inches, is a table fact: after a
        move each side names its Cowardly units that now have one; each named unit checks
        (once a card turn for this trigger: our ruling, so standing still near an enemy
        does not test the unit after every move)."""
        game = self.game(state)
        for side in game.sides:
            open_units = [
                u.id for u in game.roster.units.values()
                if u.side == side and u.grade == COWARDLY and not u.checked_this_turn
                and game.roster.members(u.id) and not self.routed(state, u.id)
            ]
            if not open_units:
                continue
            fact = FactSpec("enemy_within_6", (), [], "your Cowardly units with an enemy within 6 inches", "units")

            def check(command: Any, open_units: list[str] = open_units) -> None:
                ids = command.facts.get("enemy_within_6", [])
                wrong = [i for i in ids if i not in open_units] if isinstance(ids, list) else ids
                if wrong:
                    raise IllegalCommand("DP-18.2", f"enemy_within_6 names your Cowardly units still to check, not {wrong!r}")

            got = yield Decision(
                side,
                "Cowardly units: any with an enemy within 6 inches now?",
                (CommandSpec("report", facts=(fact,), label="Report"),),
                check=check,
                data={"pick_units": open_units},
            )
            for unit_id in got.facts.get("enemy_within_6", []):
                game.roster.units[unit_id].checked_this_turn = True
                yield from self._morale(state, unit_id, ctx, near=True)

    def _move(self, state: BattleState, command: Any, ctx: Context) -> Resolution:
        game = self.game(state)
        play = self.rules.play
        path = play._path(command.path)
        # a pinned model (the individual table, when on) stays put until it rallies (DP-18.5)
        movers = [m for m in self.living(state, command.unit) if not m.immobile and not game.touching(m.id) and m.marker != PINNED]
        how = {"toward_leader": command.toward_leader, "jump": command.jump, "bushes": play.opt("bushes", "rough")}
        for model in movers:
            if model.crit_no_move:
                continue
            try:
                walk(model, path, stream_face=DIE, **how)
            except IllegalMove as exc:
                raise IllegalCommand(exc.rule, f"{model.label}: {exc}") from None
        contacts = [play._enemy(game, movers[0].side, c, "DP-9") for c in command.contacts] if movers else []
        for model in movers:
            if model.crit_no_move:  # DP-17: it sits out this Move action
                model.crit_no_move = False
                continue
            face = None
            if any(t == STREAM for t, _ in path) and not command.jump:
                (face,) = yield from roll(DIE, 1, f"stream, {model.label}", model.side)
            done = walk(model, path, stream_face=face, stop_short=True, **how)
            model.moved = True
            ctx.emit("moved", f"{model.label} moves {done.moved}\"" + (f" ({done.stream})" if done.stream else ""), model=model.id)
        if movers and contacts:
            for enemy in contacts:
                emit = ctx.emit
                yield from play._contact(game, movers[0], enemy, emit)

    def _attack(self, state: BattleState, command: Any, ctx: Context, modifier: FlatModifier) -> Resolution:
        game = self.game(state)
        play = self.rules.play
        side = game.roster.units[command.unit].side
        close = command.type == "close"
        attackers = [
            m.id
            for m in self.living(state, command.unit)
            if m.crit_no_attack_turn != game.turn and (not close or command.target in game.touching(m.id))
        ]
        if not attackers:
            raise IllegalCommand("DP-10", "no model of the unit can make this attack")
        facts = dict(command.facts)
        if modifier.total > 0:  # the card's bonus counts towards the +2 cap (7.4)
            facts["bonus"] = int(facts.get("bonus", 0)) + modifier.total
        elif modifier.total < 0:
            facts["penalty"] = int(facts.get("penalty", 0)) - modifier.total
        weapons = dict(getattr(command, "weapons", {}))
        contact = list(getattr(command, "contact", []))
        decl = play.declaration(game, side, command.target, attackers, close, weapons, contact, facts, {})
        ledger = Ledger()
        scored = yield from declare(game.roster, ledger, decl)
        for model_id, got in scored.items():
            ctx.emit("hits", f"{game.roster.model(model_id).label}: {got.hits} hit(s)", model=model_id, hits=got.hits)
        outcomes = yield from settle(game.roster, ledger, game.turn)  # effects at once (7.4)
        play._report_outcomes(game, outcomes, ctx.emit, "card action")
        for unit_id in sorted({game.roster.models[m].unit for m in scored}):
            yield from self._morale(state, unit_id, ctx)

    def _morale(self, state: BattleState, unit_id: str, ctx: Context, near: bool = False) -> Resolution:
        """CA-10.3 with 004's triggers: a unit owing a check rolls its unit die; a failure
        routs it, or (option `use_004_individual_morale`) sends each model to the individual
        table. `near`: Cowardly's enemy within 6 inches, as reported."""
        game = self.game(state)
        unit = game.roster.units[unit_id]
        members = game.roster.members(unit_id)
        if not members or self.routed(state, unit_id):
            return
        mode = self.rules.play.opt("grade_trigger_mode", "or")
        owes = owes_unit_check(unit, game.roster, near, mode) or (
            unit.character and unit.grade != FEARLESS
            and (unit.hit_since_morale or unit.attacked_since_morale or (near and unit.grade == COWARDLY))
        )
        unit.hit_since_morale = unit.attacked_since_morale = False
        if not owes:
            return
        passed = yield from self._unit_check(state, unit_id)
        if passed or not self.individual_table:
            ctx.emit("morale", f"{unit.name}: morale {'holds' if passed else 'fails: routed'}", unit=unit_id)
            if not passed:
                self.set_routed(state, unit_id, True)
            return
        ctx.emit("morale", f"{unit.name}: morale fails: each model tests", unit=unit_id)
        yield from self._individual(state, unit_id, ctx, members)

    @property
    def individual_table(self) -> bool:
        return bool(self.rules.play.opt("use_004_individual_morale", False))

    def _individual(self, state: BattleState, unit_id: str, ctx: Context, models: list[ModelState]) -> Resolution:
        """DP-18.5 for each of `models`; the unit counts as routed for the card scheme
        while any of its models carries the routed marker (our reading of 7.4's option)."""
        game = self.game(state)
        unit = game.roster.units[unit_id]
        die = int(self.rules.play.opt("individual_morale_die", 10))
        for model in models:
            (face,) = yield from roll(die, 1, f"morale, {model.label}", model.side)
            result = individual_result(face, individual_modifier(model, unit), die)
            apply_result(model, result)
            ctx.emit("morale", f"{model.label}: d{die} {face}, {result}", unit=unit_id, model=model.id, result=result)
        self.set_routed(state, unit_id, any(m.marker == ROUTED for m in game.roster.members(unit_id)))
        self.rules.sync(state)

    def _unit_check(self, state: BattleState, unit_id: str) -> Resolution:
        game = self.game(state)
        unit = game.roster.units[unit_id]
        members = game.roster.members(unit_id)
        die = unit_die(unit.original_models)
        if die is None:  # one model: the individual table, unaffected passes
            (face,) = yield from roll(DIE, 1, f"morale, {unit.name}", unit.side)
            return individual_result(face, unit.morale_modifier + 1) != ROUTED
        (face,) = yield from roll(die, 1, f"unit morale, {unit.name} ({len(members)} left: passes under {len(members)})", unit.side)
        return unit_passes(face, len(members))

    def rally(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        """The forced Rally: another unit check (it has no modifiers). With the individual
        table on, each marked model tests instead (DP-18.6: it may stay, switch or rally);
        the rally holds when no model is left routed."""
        if not self.individual_table:
            return (yield from self._unit_check(state, unit_id))
        marked = [m for m in self.game(state).roster.members(unit_id) if m.marker]
        yield from self._individual(state, unit_id, ctx, marked)
        return not self.routed(state, unit_id)

    def eliminate(self, state: BattleState, unit_id: str, ctx: Context) -> None:
        for model in self.living(state, unit_id):
            model.alive, model.gone = False, "routed off"
        super().eliminate(state, unit_id, ctx)
        self.rules.sync(state)

    def odds(self, state: BattleState, command: Command, modifier: FlatModifier) -> Any:
        game = self.game(state)
        side = game.roster.units[command.unit].side  # type: ignore[attr-defined]
        facts = dict(getattr(command, "facts", {}))
        if modifier.total > 0:
            facts["bonus"] = int(facts.get("bonus", 0)) + modifier.total
        elif modifier.total < 0:
            facts["penalty"] = int(facts.get("penalty", 0)) - modifier.total
        close = command.type == "close"
        attackers = [m.id for m in self.living(state, command.unit)]  # type: ignore[attr-defined]
        decl = self.rules.play.declaration(game, side, command.target, attackers, close, {}, [], facts, {})  # type: ignore[attr-defined]
        from campaign.rulesets.d10_phased.odds import declaration_odds

        return declaration_odds(decl, game.roster.model(decl.target))
