"""The d10 rules in play: the battle record and the hooks a phased turn calls.

`Game` is everything the rules keep about a battle (it lives in the core's state).
`D10Play` holds the options and offers, as generators that yield the core's
RollRequests and Decisions: the turn start (initiative, Super Initiative, template),
each phase's start (command control and the facts it needs), the commands a side may
give in a phase and their resolution, each phase's end (held effects, morale), and the
turn end (victory). The order of phases, whose pick it is and when a phase ends are the
turn's business (the core's phased turn), not this module's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import attrs

from campaign.engine.commands import Command
from campaign.engine.dice import roll
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, FactSpec, Resolution
from campaign.rulesets.d10_phased.attack import Declaration, Ledger
from campaign.rulesets.d10_phased.combat import (
    MOVING,
    STATIONARY,
    contribution,
    declare,
    op_fire,
    why_cannot_attack,
    why_cannot_op_fire,
)
from campaign.rulesets.d10_phased.command import command_check
from campaign.rulesets.d10_phased.commands import JUMP_OP_FIRE_FACTS, OP_FIRE_FACTS, SHOT_FACTS
from campaign.rulesets.d10_phased.damage import Outcome, settle
from campaign.rulesets.d10_phased.morale import (
    FEARLESS,
    MoraleFacts,
    leader_needs_replacing,
    morale_phase,
    name_leader,
    run_away_check,
)
from campaign.rulesets.d10_phased.movement import (
    STREAM,
    IllegalMove,
    run_away,
    walk,
    why_cannot_move,
    why_cannot_run_away,
)
from campaign.rulesets.d10_phased.odds import DeclarationOdds, declaration_odds
from campaign.rulesets.d10_phased.rolls import DIE
from campaign.rulesets.d10_phased.situation import IllegalShot, jump_path_level, plunging_fire, read_fire
from campaign.rulesets.d10_phased.specials import FIRE_THROUGH_FRIENDS, INTERPHASE, has_hook, hooks_of
from campaign.rulesets.d10_phased.state import CLOSE, ModelState, Roster
from campaign.rulesets.d10_phased.turn import (
    ATTACK_PHASES,
    BY_NUMBER,
    MORALE_1,
    MORALE_PHASES,
    MOVE_FIRST,
    MOVE_PHASES,
    NORMAL_H_FIRST,
    PANIC,
    PHASE_NAMES,
    SPECIALS,
    STATIONARY_ATTACK,
    SUPER_FAILED,
    TEMPLATES,
    Template,
    other_side,
    plan_turn,
    roll_initiative,
    super_succeeds,
    updated_streaks,
)
from campaign.rulesets.d10_phased.upkeep import end_movement_phase, senseless_slaughter, start_turn
from campaign.rulesets.d10_phased.victory import (
    OBJECTIVES,
    POSITION,
    SUDDEN_DEATH,
    Verdict,
    battle_of_position,
    objectives,
    sudden_death,
)

Emit = Callable[..., Any]

PICK_MODELS = "elements"  # the core's picker name for element (model) ids


@attrs.define
class Game:
    roster: Roster
    sides: list[str]
    started: dict[str, int]  # models per side at the start (Sudden Death)
    victory: str = ""
    turn_limit: int = 8
    turn: int = 0
    streaks: dict[str, int] = attrs.field(factory=dict)
    holder: str = ""
    template: str = NORMAL_H_FIRST.id
    first: str = ""  # the first mover this turn ("" when nobody moves)
    phase: str = ""
    ledger: Ledger = attrs.field(factory=Ledger)
    contacts: list[list[str]] = attrs.field(factory=list)  # pairs of touching enemy models
    morale_facts: MoraleFacts = attrs.field(factory=MoraleFacts)
    specials_used: list[list[str]] = attrs.field(factory=list)  # [model, special] this turn
    verdict: Verdict | None = None
    names: dict[str, str] = attrs.field(factory=dict)  # side id -> the name players read

    def side_name(self, side: str) -> str:
        return self.names.get(side, side)

    @property
    def plan_template(self) -> Template:
        return TEMPLATES[self.template]

    def lost(self) -> dict[str, int]:
        """Models each side has lost, routed off the table included (AMB-36)."""
        return {s: self.started[s] - len(self.roster.side_models(s)) for s in self.sides}

    def touching(self, model_id: str) -> list[str]:
        return [b if a == model_id else a for a, b in self.contacts if model_id in (a, b)]

    def opener(self) -> str:
        """Who acts first in a phase: the first mover, or the holder when nobody moved (AMB-7)."""
        return self.first or self.holder


def new_game(roster: Roster, sides: Sequence[str], victory: str = "", turn_limit: int = 8) -> Game:
    return Game(
        roster=roster,
        sides=list(sides),
        started={s: len(roster.side_models(s)) for s in sides},
        victory=victory,
        turn_limit=turn_limit,
        streaks={s: 0 for s in sides},
    )


def _choose(side: str, prompt: str, options: Sequence[tuple[str, str]]) -> Decision:
    return Decision(side, prompt, tuple(CommandSpec("choose", {"option": key}, label=label) for key, label in options))


def _report(side: str, prompt: str, facts: Sequence[FactSpec], check: Callable[[Any], None] | None = None) -> Decision:
    return Decision(side, prompt, (CommandSpec("report", facts=tuple(facts), label="Report"),), check=check)


def _model_name(roster: Roster, model: ModelState) -> str:
    """A model's name, numbered among its unit's namesakes (`ModelState.label`), with its
    unit's name when it differs ("Gnasher 3 (Gnasher Pack)"), so a picker tells twelve
    Gnashers apart."""
    unit = roster.units[model.unit]
    name = model.label or model.name
    return name if unit.name == model.name else f"{name} ({unit.name})"


def reported_ids(value: Any, rule: str, name: str, known: Collection[str]) -> list[str]:
    """A reported list of ids, each one of `known` (the reporting side's living models, or
    its units): an id naming nothing, a dead model or the other side's is refused here, so
    a report never half-lands."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise IllegalCommand(rule, f"{name} must be a list of model or unit ids")
    stray = [v for v in value if v not in known]
    if stray:
        raise IllegalCommand(rule, f"{name}: {', '.join(stray)} is not a living model or unit of this side")
    return value


def reportable(game: Game, side: str) -> set[str]:
    """The ids a side may report: its living models and its units."""
    return {m.id for m in game.roster.side_models(side)} | {u.id for u in game.roster.units.values() if u.side == side}


class D10Play:
    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options: dict[str, Any] = dict(options or {})

    def opt(self, name: str, default: Any) -> Any:
        return self.options.get(name, default)

    # --- the turn ------------------------------------------------------------------
    def phases(self, game: Game) -> list[str]:
        """This turn's phases in order (the template's, and the morale timing option)."""
        kept = list(game.plan_template.phases)
        if self.opt("morale_timing", "two_phase") == "single" and MORALE_1 in kept:
            kept.remove(MORALE_1)
        return kept

    def turn_start(self, game: Game, emit: Emit) -> Resolution:
        """TURN_START and INITIATIVE (DP-4, DP-5, AMB-3 to AMB-6)."""
        start_turn(game.roster)
        game.turn += 1
        game.specials_used = []
        emit("turn_start", f"Turn {game.turn} begins", turn=game.turn)
        pair = (game.sides[0], game.sides[1])
        winner = yield from roll_initiative(pair, game.streaks, game.names)
        emit("initiative", f"{game.side_name(winner)} wins the initiative", side=winner)
        template = NORMAL_H_FIRST
        answer = yield _choose(winner, "Try for Super Initiative?", (("no", "No: move first"), ("super", "Roll for Super Initiative")))
        if answer.option == "super":
            (face,) = yield from roll(DIE, 1, "Super Initiative (5+)", winner)
            if super_succeeds(face):
                if self.opt("super_table", "choose") == "roll_d8":
                    (number,) = yield from roll(8, 1, "Super Initiative result", winner)
                else:
                    answer = yield _choose(
                        winner,
                        "Super Initiative: choose the turn",
                        tuple((str(t.number), f"{t.number} {t.name}") for t in BY_NUMBER.values()),
                    )
                    number = int(answer.option)
                template = BY_NUMBER[number]
            else:
                template = SUPER_FAILED
            emit("super_initiative", f"Super Initiative: {template.name}", template=template.id, face=face)
        plan = plan_turn(pair, winner, template)
        if plan.chooser:
            answer = yield _choose(plan.chooser, "Who moves first?", tuple((s, f"{game.side_name(s)} moves first") for s in pair))
            plan = plan_turn(pair, winner, template, answer.option)
        game.holder, game.template, game.first = plan.holder, template.id, plan.first or ""
        game.streaks = updated_streaks(game.streaks, plan.holder)
        if template.mindless:
            spared: list[str] = []
            for side in (plan.holder, other_side(pair, plan.holder)):
                fact = FactSpec("spared", (), [], "one model per unit that keeps its wits", PICK_MODELS)
                got = yield _report(side, "Senseless Slaughter: pick one model per unit to spare", (fact,))
                spared += reported_ids(got.facts.get("spared", []), "DP-5.2", "spared", reportable(game, side))
            try:
                senseless_slaughter(game.roster, spared)
            except ValueError as exc:
                raise IllegalCommand("DP-5.2", str(exc)) from None
        mover = game.side_name(game.first) if game.first else "nobody"
        emit("turn_plan", f"{template.name}; {mover} moves first", holder=plan.holder, first=game.first)

    def actors(self, game: Game, phase: str) -> list[str]:
        """Who acts in a phase, in order (the mover; both, opener first; none for morale)."""
        pair = (game.sides[0], game.sides[1])
        if phase == MOVE_FIRST:
            return [game.first]
        if phase in MOVE_PHASES:
            return [other_side(pair, game.first)]
        if phase in MORALE_PHASES:
            return []
        return [game.opener(), other_side(pair, game.opener())]

    # --- phase start ---------------------------------------------------------------
    def phase_start(self, game: Game, phase: str, emit: Emit) -> Resolution:
        """Command control (DP-6.1, AMB-38) and, for morale, the table facts it needs."""
        game.phase = phase
        emit("phase", f"{PHASE_NAMES[phase]} begins", phase=phase)
        if phase == SPECIALS:  # DP-6.1: command control at movement, attack and morale phases only
            return
        sides = self.actors(game, phase)[:1] if phase in MOVE_PHASES else list(game.sides)
        beyond: list[str] = []
        morale: dict[str, list[str]] = {"enemy_within_6": [], "touching_leader": [], "leaves_table": []}
        for side in sides:
            facts = [FactSpec("beyond_radius", (), [], "models farther from their leader than the command radius", PICK_MODELS)]
            cowardly = [u.id for u in game.roster.units.values() if u.side == side and u.grade == "cowardly" and game.roster.members(u.id)]
            if phase in MORALE_PHASES:
                # Cowardly's trigger is asked only of a side that has Cowardly units
                facts += [FactSpec("enemy_within_6", (), [], "Cowardly units with an enemy within 6 inches", "units")] if cowardly else []
                facts += [
                    FactSpec("touching_leader", (), [], "models touching their unit leader", PICK_MODELS),
                    FactSpec("leaves_table", (), [], "models whose rout would carry them off the table", PICK_MODELS),
                ]
            elif not any(len(u.models) > 1 for u in game.roster.units.values() if u.side == side):
                continue
            own = [m.id for m in game.roster.side_models(side)]
            got = yield Decision(side, f"{PHASE_NAMES[phase]}: command control and table facts",
                                 (CommandSpec("report", facts=tuple(facts), label="Report"),),
                                 data={"pick_elements": own, "pick_units": cowardly})
            beyond += reported_ids(got.facts.get("beyond_radius", []), "DP-6", "beyond_radius", reportable(game, side))
            for key in morale:
                morale[key] += reported_ids(got.facts.get(key, []), "DP-18", key, reportable(game, side))
        try:
            out = command_check(game.roster, sides, beyond)
        except ValueError as exc:
            raise IllegalCommand("DP-6", str(exc)) from None
        if out:
            emit("out_of_command", f"out of command: {', '.join(game.roster.model(m).label for m in out)}", models=out)
        game.morale_facts = MoraleFacts(*(frozenset(morale[k]) for k in ("enemy_within_6", "touching_leader", "leaves_table")))

    # --- what a side may do ----------------------------------------------------------
    def legal(self, game: Game, phase: str, side: str) -> list[CommandSpec]:
        roster = game.roster
        if phase in MOVE_PHASES:
            enemies = tuple(e.id for s in game.sides if s != side for e in roster.side_models(s))
            return [
                CommandSpec("move", {"model": m.id}, label=f"Move {_model_name(roster, m)}", picks={"contacts": "elements"},
                            offers={"contacts": enemies})
                for m in roster.side_models(side)
                if why_cannot_move(m, bool(game.touching(m.id))) is None
            ]
        if phase == SPECIALS:
            return [
                CommandSpec("use_special", {"model": m.id}, label=f"{_model_name(roster, m)}: use a special")
                for m in roster.side_models(side)
                if has_hook(m.specials, INTERPHASE) and not m.ran_away
            ]
        able = tuple(m.id for m in self.attackers(game, phase, side)) if phase in ATTACK_PHASES else ()
        if able:
            # a pick is a target model (AMB-32); the attackers on it are the command's to name,
            # among the models DP-10.1 lets attack in this phase (`offers`)
            return [
                CommandSpec("declare", {"target": m.id}, SHOT_FACTS, f"Attack {_model_name(roster, m)}", odds=True,
                            targets="models", picks={"attackers": "own_elements", "contact": "elements"},
                            offers={"attackers": able})
                for m in self.targets(game, side)
            ]
        return []

    def attackers(self, game: Game, phase: str, side: str) -> list[ModelState]:
        kind = STATIONARY if phase == STATIONARY_ATTACK else MOVING
        everyone = game.plan_template.all_stationary
        return [m for m in game.roster.side_models(side) if why_cannot_attack(m, kind, game.turn, all_stationary=everyone) is None]

    def targets(self, game: Game, side: str) -> list[ModelState]:
        return [m for s in game.sides if s != side for m in game.roster.side_models(s) if m.id not in game.ledger.targets]

    # --- resolution ------------------------------------------------------------------
    def resolve(self, game: Game, side: str, command: Command, emit: Emit) -> Resolution:
        kind = command.type
        if kind == "move":
            return (yield from self._move(game, side, command, emit))
        if kind == "declare":
            return (yield from self._declare(game, side, command, emit))
        if kind == "use_special":
            return self._special(game, side, command, emit)
        raise IllegalCommand("d10", f"{kind} is not played in {PHASE_NAMES.get(game.phase, game.phase)}")

    def _own(self, game: Game, side: str, model_id: str, rule: str) -> ModelState:
        try:
            model = game.roster.model(model_id)
        except KeyError:
            raise IllegalCommand(rule, f"no model {model_id!r}") from None
        if model.side != side or not model.alive:
            raise IllegalCommand(rule, f"{model.label} is not one of your models on the table")
        return model

    def _enemy(self, game: Game, side: str, model_id: str, rule: str) -> ModelState:
        try:
            model = game.roster.model(model_id)
        except KeyError:
            raise IllegalCommand(rule, f"no model {model_id!r}") from None
        if model.side == side or not model.alive:
            raise IllegalCommand(rule, f"{model.label} is not an enemy model on the table")
        return model

    def _special(self, game: Game, side: str, command: Any, emit: Emit) -> None:
        model = self._own(game, side, command.model, "DP-3")
        if not has_hook(model.specials, INTERPHASE):
            raise IllegalCommand("DP-3", f"{model.label} has no special to activate in the interphase")
        special = command.special or next(s for s in model.specials if INTERPHASE in hooks_of([s]))
        if special not in model.specials:
            raise IllegalCommand("DP-3", f"{model.label} has no special {special!r}")
        game.specials_used.append([model.id, special])
        emit("special", f"{model.label} uses {special}", model=model.id, special=special)

    def _path(self, path: Sequence[str]) -> list[tuple[str, str]]:
        out = []
        for step in path:
            parts = str(step).split()
            if len(parts) != 2:
                raise IllegalCommand("DP-8", f"a path step is \"terrain inches\" (\"rough 2\"), not {step!r}")
            out.append((parts[0].lower(), parts[1]))
        return out

    def _move(self, game: Game, side: str, command: Any, emit: Emit) -> Resolution:
        roster = game.roster
        model = self._own(game, side, command.model, "DP-8")
        reason = why_cannot_move(model, bool(game.touching(model.id)))
        if reason:
            raise IllegalCommand("DP-8.1", f"{model.label} cannot move: {reason}")
        contacts = [self._enemy(game, side, c, "DP-9") for c in command.contacts]
        path = self._path(command.path)
        how = {"toward_leader": command.toward_leader, "jump": command.jump, "bushes": self.opt("bushes", "rough")}
        try:
            # checked as if the stream let it cross: a bad path is refused before any roll
            walk(model, path, stream_face=DIE, **how)
        except IllegalMove as exc:
            raise IllegalCommand(exc.rule, str(exc)) from None
        face = None
        if any(t == STREAM for t, _ in path) and not command.jump:
            (face,) = yield from roll(DIE, 1, f"stream, {model.label}", side)
        # floundering may leave too little allowance: the model stops where it runs out
        done = walk(model, path, stream_face=face, stop_short=True, **how)
        model.moved = True
        emit("moved", f"{model.label} moves {done.moved}\"" + (f" ({done.stream})" if done.stream else ""), model=model.id, inches=done.moved, stream=done.stream)
        yield from self._op_fire_window(game, side, model, emit, jumped=bool(command.jump))
        if not model.alive or done.stopped:
            return
        for enemy in contacts:
            yield from self._contact(game, model, enemy, emit)

    def _op_fire_window(self, game: Game, side: str, mover: ModelState, emit: Emit, jumped: bool = False) -> Resolution:
        """DP-13: the other side may op-fire at the mover, one model at a time, until it passes.
        At a jumper (DP-13.4) seeing any part of the path replaces DP-13.1 (a) and, unless the
        option `jump_op_fire` says "path_and_worse", (b) too; the engine works out the path's
        level from the highest obstacle it clears."""
        if not game.plan_template.op_fire:
            return
        enemy = other_side((game.sides[0], game.sides[1]), side)
        facts_asked = OP_FIRE_FACTS
        if jumped:
            keep_worse = self.opt("jump_op_fire", "path") == "path_and_worse"
            facts_asked = tuple(f for f in JUMP_OP_FIRE_FACTS if keep_worse or f.name != "worse_target_at_end")
        while mover.alive:
            able = [m for m in game.roster.side_models(enemy) if why_cannot_op_fire(m, game.turn) is None]
            if not able:
                return
            specs = tuple(CommandSpec("op_fire", {"model": m.id}, facts=facts_asked, label=f"Op fire with {_model_name(game.roster, m)}") for m in able)
            answer = yield Decision(enemy, f"Op fire at {_model_name(game.roster, mover)}?", (*specs, CommandSpec("pass", label="No op fire")))
            if answer.type == "pass":
                return
            firer = game.roster.model(answer.model)
            facts = dict(answer.facts)
            seen = facts.pop("legal_target_during_move", True)
            if jumped:
                seen = facts.pop("sees_jump_path", True)
                level = jump_path_level(str(facts.pop("highest_obstacle", "none")))
                firer_level = facts.pop("firer_level", 0)
                if isinstance(firer_level, bool) or not isinstance(firer_level, int) or firer_level < 0:
                    raise IllegalCommand("DP-13.4", f"firer_level is a whole number, 0 or more, not {firer_level!r}")
                emit("jump_path", f"{mover.label}'s jump path stands at level {level}; {firer.label} at level {firer_level}",
                     model=mover.id, level=level, firer_level=firer_level)
            reason = why_cannot_op_fire(
                firer,
                game.turn,
                legal_target_during_move=seen,
                worse_target_at_end=facts.pop("worse_target_at_end", True),
                blocked_only_by_own_model=facts.pop("blocked_only_by_own_model", False),
            )
            if reason:
                if jumped and not seen:
                    reason = "DP-13.4: it sees no part of the jump path"
                raise IllegalCommand("DP-13", f"{firer.label} may not op fire: {reason}")
            decl = self.declaration(game, enemy, mover.id, [firer.id], False, {firer.id: answer.weapon} if answer.weapon else {}, [], facts, {})
            outcomes = yield from op_fire(game.roster, decl, game.turn)
            self._report_outcomes(game, outcomes, emit, f"op fire by {firer.label}")

    def _contact(self, game: Game, mover: ModelState, enemy: ModelState, emit: Emit) -> Resolution:
        """DP-9: the contacted model's owner may run away with it; otherwise they touch."""
        unit = game.roster.unit_of(enemy.id)
        if why_cannot_run_away(enemy, unit.grade == FEARLESS) is None:
            spec = CommandSpec("run_away", {"model": enemy.id}, label=f"{_model_name(game.roster, enemy)} runs away")
            touched = f"{_model_name(game.roster, mover)} contacts {_model_name(game.roster, enemy)}: run away?"
            answer = yield Decision(enemy.side, touched, (spec, CommandSpec("pass", label="Stand")))
            if answer.type == "run_away":
                try:
                    owes = run_away(enemy, answer.inches)
                except IllegalMove as exc:
                    raise IllegalCommand(exc.rule, str(exc)) from None
                game.contacts = [p for p in game.contacts if enemy.id not in p]
                emit("ran_away", f"{enemy.label} runs away {answer.inches}\"", model=enemy.id)
                if owes:
                    die = int(self.opt("individual_morale_die", 10))
                    (face,) = yield from roll(die, 1, f"morale after running, {enemy.label}", enemy.side)
                    result = run_away_check(enemy, unit, face, die)
                    emit("morale", f"{enemy.label}: {result}", model=enemy.id, result=result)
                return
        game.contacts.append([mover.id, enemy.id])

    def declaration(
        self,
        game: Game,
        side: str,
        target: str,
        attackers: Sequence[str],
        close: bool,
        weapons: Mapping[str, str],
        contact: Sequence[str],
        facts: Mapping[str, Any],
        each: Mapping[str, Mapping[str, Any]],
    ) -> Declaration:
        """The Declaration a command describes; odds and resolution both read it."""
        roster = game.roster
        self._enemy(game, side, target, "DP-10")
        if not attackers or len(set(attackers)) != len(attackers):
            raise IllegalCommand("DP-10.4", "name each attacker once")
        parts = []
        for attacker_id in attackers:
            model = self._own(game, side, attacker_id, "DP-10")
            weapon = weapons.get(attacker_id) or (CLOSE if close else next((w for w in model.attack if w != CLOSE), CLOSE))
            if weapon not in model.attack:
                raise IllegalCommand("DP-10", f"{model.label} has no weapon {weapon!r}")
            merged = {**facts, **each.get(attacker_id, {})}
            self._over_friends(game, model, merged.get("friends_between", []), close)
            try:
                shot = read_fire(merged, close=close, fire_through_friends=has_hook(model.specials, FIRE_THROUGH_FRIENDS))
            except IllegalShot as exc:
                raise IllegalCommand(exc.rule, str(exc)) from None
            parts.append(contribution(model, weapon, multipliers=shot.multipliers, modifiers=shot.modifiers))
        for m in contact:
            if m not in roster.models or not roster.model(m).alive or m == target:
                raise IllegalCommand("DP-15.4", f"{m!r} is not another model on the table")
        return Declaration(target, tuple(parts), tuple(contact), close)

    def _over_friends(self, game: Game, model: ModelState, friends: Any, close: bool) -> None:
        """DP-14.2/14.3: fire over the friendly models the table names is allowed by a special
        of the firer or of the friend, or as plunging fire from the bases the engine knows."""
        if close or not friends:
            return
        for friend_id in reported_ids(friends, "DP-14.2", "friends_between", reportable(game, model.side)):
            friend = self._own(game, model.side, friend_id, "DP-14.2")
            if friend.id == model.id or has_hook(model.specials, FIRE_THROUGH_FRIENDS) or has_hook(friend.specials, FIRE_THROUGH_FRIENDS):
                continue
            if not plunging_fire(model.base, friend.base):
                raise IllegalCommand(
                    "DP-14.3",
                    f"{model.label} (base {model.base}\") cannot fire over {friend.label} (base {friend.base}\"): "
                    "plunging fire needs a base of 1.5\" or more and friends half an inch smaller",
                )

    def _declaration_of(self, game: Game, side: str, command: Any) -> Declaration:
        return self.declaration(
            game, side, command.target, command.attackers, command.close, command.weapons, command.contact, command.facts, command.each
        )

    def _declare(self, game: Game, side: str, command: Any, emit: Emit) -> Resolution:
        phase = game.phase
        if command.target in game.ledger.targets:
            raise IllegalCommand("AMB-30", "that model has been picked as a target this phase")
        able = {m.id for m in self.attackers(game, phase, side)}
        late = [a for a in command.attackers if a not in able]
        if late:
            raise IllegalCommand("DP-10.1", f"{', '.join(late)} may not attack in this phase")
        decl = self._declaration_of(game, side, command)
        scored = yield from declare(game.roster, game.ledger, decl)
        for model_id, got in scored.items():
            # element and attacker: whose hits last struck a model (forecasts credit the kill)
            emit("hits", f"{game.roster.model(model_id).label}: {got.hits} hit(s) pending", model=model_id, hits=got.hits,
                 element=model_id, attacker=command.attackers[0])

    def odds(self, game: Game, side: str, command: Any) -> DeclarationOdds:
        decl = self._declaration_of(game, side, command)
        target = game.roster.model(decl.target)
        pending = game.ledger.pending.get(target.id)
        return declaration_odds(decl, target, pending.hits if pending else 0, bool(pending and pending.criticals))

    # --- phase end ---------------------------------------------------------------------
    def phase_end(self, game: Game, phase: str, emit: Emit) -> Resolution:
        roster = game.roster
        if phase in MOVE_PHASES:
            end_movement_phase(roster, self.actors(game, phase)[0])
        elif phase in ATTACK_PHASES:
            outcomes = yield from settle(roster, game.ledger, game.turn)
            self._report_outcomes(game, outcomes, emit, PHASE_NAMES[phase])
            game.ledger = Ledger()
        elif phase in MORALE_PHASES:
            order = [game.opener(), other_side((game.sides[0], game.sides[1]), game.opener())]
            first = phase in (MORALE_1, PANIC) or self.opt("morale_timing", "two_phase") == "single"
            checks = yield from morale_phase(
                roster,
                order,
                first_phase=first,
                facts=game.morale_facts,
                all_test=game.plan_template.all_test,
                die=int(self.opt("individual_morale_die", 10)),
                mode=self.opt("grade_trigger_mode", "or"),
            )
            for c in checks:
                who = roster.model(c.model).label if c.model else roster.units[c.unit].name
                emit("morale", f"{who}: d{c.die} {c.face}, {c.result}", unit=c.unit, model=c.model, result=c.result)
            game.contacts = [p for p in game.contacts if all(roster.model(m).alive for m in p)]
        yield from self._leaders(game, emit)

    def _report_outcomes(self, game: Game, outcomes: list[Outcome], emit: Emit, when: str) -> None:
        for o in outcomes:
            name = game.roster.model(o.model).label
            text = f"{name}: {o.hits} hit(s), {o.saves} saved" + (", destroyed" if o.destroyed else "")
            emit("destroyed" if o.destroyed else "damage", text, model=o.model, hits=o.hits, unsaved=o.unsaved,
                 criticals=list(o.criticals), when=when, **({"element": o.model} if o.destroyed else {}))
        game.contacts = [p for p in game.contacts if all(game.roster.model(m).alive for m in p)]

    def _leaders(self, game: Game, emit: Emit) -> Resolution:
        """DP-7.2 (AMB-33): the owner may name a new leader when the old one is gone or marked."""
        for unit in game.roster.units.values():
            if unit.character or not leader_needs_replacing(unit, game.roster):
                continue
            members = [m for m in game.roster.members(unit.id) if m.id != unit.leader]
            answer = yield _choose(unit.side, f"{unit.name}: name a new leader?",
                                   [(m.id, _model_name(game.roster, m)) for m in members] + [("keep", "Keep the leader")])
            if answer.option != "keep":
                name_leader(unit, game.roster, answer.option)
                emit("leader", f"{game.roster.model(answer.option).label} now leads {unit.name}", unit=unit.id)

    # --- turn end --------------------------------------------------------------------
    def turn_end(self, game: Game, emit: Emit) -> Resolution:
        """DP-19: Sudden Death after any turn; Position and Objectives after the last turn."""
        if game.victory == SUDDEN_DEATH:
            game.verdict = sudden_death(game.started, game.lost())
        elif game.victory in (POSITION, OBJECTIVES) and game.turn >= game.turn_limit:
            side = game.sides[0]
            if game.victory == POSITION:
                fact = FactSpec("points", (), {}, "points per quadrant and side: {Q1 = {red = 120, blue = 80}, ...}")
                got = yield _report(side, "Battle of Position: points standing in each quadrant", (fact,), check=_check_points(game))
                game.verdict = battle_of_position(got.facts.get("points", {}), game.sides)
            else:
                fact = FactSpec("markers", (), {}, "the sides with models on each marker: {1 = [\"red\"], ...}")
                got = yield _report(side, "Objectives: who stands on each marker", (fact,), check=_check_markers(game))
                game.verdict = objectives(got.facts.get("markers", {}), game.sides)
        if game.verdict is not None:
            emit("victory", f"{game.verdict.winner or 'draw'}: {game.verdict.reason}", winner=game.verdict.winner)

    def is_over(self, game: Game) -> bool:
        return game.verdict is not None


def _check_points(game: Game) -> Callable[[Any], None]:
    def check(command: Any) -> None:
        points = command.facts.get("points", {})
        if not isinstance(points, Mapping) or not points:
            raise IllegalCommand("DP-19.1", "points must be a table of quadrants")
        for quadrant, by_side in points.items():
            if not isinstance(by_side, Mapping) or any(s not in game.sides for s in by_side):
                raise IllegalCommand("DP-19.1", f"{quadrant}: a table of side = points")
            if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in by_side.values()):
                raise IllegalCommand("DP-19.1", f"{quadrant}: points are whole numbers, 0 or more")

    return check


def _check_markers(game: Game) -> Callable[[Any], None]:
    def check(command: Any) -> None:
        markers = command.facts.get("markers", {})
        if not isinstance(markers, Mapping) or not markers:
            raise IllegalCommand("DP-19.2", "markers must be a table of marker = [sides]")
        for marker, sides in markers.items():
            if not isinstance(sides, list) or any(s not in game.sides for s in sides):
                raise IllegalCommand("DP-19.2", f"marker {marker}: a list of sides")

    return check

