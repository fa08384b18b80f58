"""FigWars 3 played by the core engine: the BattleRules hooks (spec 6-7, 10-12, 14).

A round of the core is a FigWars turn: turn start (panic levels cleared, extra-action
rolls), initiative and alternating activations (the activation scheme), then the
morale phase at round end. Inside an activation every model acts on its own (two
actions, three with an extra action); models that were close enough share, the
others act one after another (7.3). Shooting and melee build the same OpposedRoll
that `odds` reads (attack.py), so the odds shown are the odds rolled.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.commands import Choose, Command
from campaign.engine.dice import roll as request_roll
from campaign.engine.errors import IllegalCommand
from campaign.engine.display import UnitView
from campaign.engine.pending import CommandSpec, Decision, FactSpec
from campaign.engine.rules import BattleRules, Initiative, Resolution
from campaign.engine.setup import BattleSetup
from campaign.engine.state import BattleState, ElementState, UnitState, state_from_setup
from campaign.rulesets.figwars3 import checks, morale, turn
from campaign.engine.report import OddsReport
from campaign.rulesets.figwars3.attack import OpposedOdds, OpposedRoll, exact_odds, resolve
from campaign.rulesets.figwars3.report import ModelOdds, odds_report, scaled
from campaign.rulesets.figwars3.commands import COMMANDS, Cast, Reload, Sentry, Shoot, Strike
from campaign.rulesets.figwars3.melee import MELEE_DEFAULTS, MELEE_FACTS, melee_attack
from campaign.rulesets.figwars3.profile import Profile, carried_mov, profile_of
from campaign.rulesets.figwars3.ranged import RANGED_DEFAULTS, RANGED_FACTS, check_facts, placed, placement_terms, ranged_attack
from campaign.rulesets.figwars3.statuses import ModelState
from campaign.rulesets.figwars3.weapons import RangedWeapon
from campaign.rulesets.figwars3 import arcane_play, machine_play
from campaign.rulesets.figwars3.ramming import mecha_strikes_trooper, strike_machine
from campaign.rulesets.figwars3.vehicles import Machine, is_machine, machine_of

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.outcome import BattleOutcome

MOVE_FACTS = (
    FactSpec("inches", (), -1, "inches moved (-1: the full allowance)"),
    FactSpec("reached_edge", (True, False), False, "a withdrawing model reached its table edge"),
)
MEDIC_FACTS = (FactSpec("clear_stun", (False, True), False, "spend one success removing the patient's stun"),)
BLAST_LIST = FactSpec("under_template", (), [], "other models under the template or spray", picks="target_elements")


def _fact_specs(known: dict[str, tuple[Any, ...]], defaults: dict[str, Any], skip: Iterable[str] = ()) -> tuple[FactSpec, ...]:
    return tuple(FactSpec(name, choices, defaults[name]) for name, choices in known.items() if name not in skip)


SHOOT_FACTS = (*_fact_specs(RANGED_FACTS, RANGED_DEFAULTS, ("role",)), BLAST_LIST)
STRIKE_FACTS = _fact_specs(MELEE_FACTS, MELEE_DEFAULTS, ("prior_attackers", "defender_state", "attacker_focus", "target_kind"))


ACTING = ("walk", "run", "shoot", "strike", "aim", "focus", "reload", "sentry")


class FigWarsRules(BattleRules):
    id = "figwars-3"
    initiative = Initiative(die=turn.INITIATIVE_DIE)  # 1d8 a side, ties re-rolled among the tied

    def __init__(self, options: dict[str, Any] | None = None, ruleset: Any = None) -> None:
        super().__init__(options, ruleset)
        self._profiles: dict[str, Profile] = {}
        self._machines: dict[str, Machine] = {}  # vehicles and mecha by element id (part 2)
        self._spells: dict[str, tuple[str, ...]] = {}  # casters' powers by element id (16)

    # --- building the battle ----------------------------------------------------
    def new_state(self, setup: BattleSetup) -> BattleState:
        state = state_from_setup(setup)
        printed = bool(self.options.get("printed_def", False))
        self._profiles = {}
        self._machines = {}
        self._spells = {}
        forces = [unit for side in setup.sides for unit in side.force.units]
        for unit, source in zip(state.units, forces):
            unit.data = {"status": "normal", "pl": 0, "marker": False, "activated": False}
            for el in unit.elements:
                entry = source.elements[el.entry]
                machine = machine_of(entry, f"{unit.name}: {el.name}") if is_machine(entry) else None
                profile = machine.profile() if machine else profile_of(entry, f"{unit.name}: {el.name}", printed)
                self._profiles[el.id] = profile
                el.data = {
                    "dp": profile.dp,
                    "pins": 0,
                    "stunned": False,
                    "actions": 0,
                    "extra": False,
                    "aim": False,
                    "focus": False,
                    "moved": 0,
                    "unloaded": [],
                    "fast": False,
                    "incap": None,
                    "spent": 0,
                    "sentry": "",
                }
                if machine is not None:
                    self._machines[el.id] = machine
                    el.data["machine"] = machine_play.fresh(machine)
                arc = entry.stats.get("arc")
                if isinstance(arc, int) and not isinstance(arc, bool):
                    el.data["arc"] = arcane_play.fresh(arc)
                    self._spells[el.id] = tuple(entry.spells)
        for side in state.sides:
            side.data = {"extra_pool": 0}
        state.data = {"struck": {}}
        return state

    def command_types(self) -> Iterable[type[Command]]:
        return COMMANDS

    def profile(self, element_id: str) -> Profile:
        return self._profiles[element_id]

    def machine(self, element_id: str) -> Machine | None:
        return self._machines.get(element_id)

    def is_machine(self, element_id: str) -> bool:
        return element_id in self._machines

    def spells(self, element_id: str) -> tuple[str, ...]:
        return self._spells.get(element_id, ())

    # --- turn start, activation order ---------------------------------------------
    def on_round_start(self, state: BattleState, ctx: Context) -> Resolution:
        state.data["struck"] = {}
        arcane_play.round_start(state)  # PR-68
        for unit in state.units:
            unit.data.update(pl=0, marker=False, activated=False)
            for el in unit.elements:
                el.data.update(extra=False, moved=0, aim=False, focus=False, spent=0, shots={})
        for side in state.sides:
            in_play = [u for u in state.units_of(side.id) if u.data["status"] != "retreating"]
            heroes = sum(1 for u in state.units_of(side.id) for e in u.alive if self.profile(e.id).hero)
            (face,) = yield from request_roll(turn.EXTRA_ACTION_DIE, 1, f"extra actions: 1d8 for {side.name}", side.id)
            total = turn.extra_action_total(face, len(in_play), heroes)
            side.data["extra_pool"] = turn.extra_actions(total)
            ctx.emit(
                "extra_actions",
                f"{side.name}: {face} + {turn.unit_bonus(len(in_play))} for units + {heroes} for heroes = {total}, "
                f"{side.data['extra_pool']} extra action(s)",
                side=side.id,
                pool=side.data["extra_pool"],
            )

    def can_activate(self, state: BattleState, unit_id: str) -> bool:
        unit = state.unit(unit_id)
        if unit.eliminated or unit.data.get("activated"):
            return False
        waiting = {
            u.id: u.data["status"]
            for u in state.units_of(unit.side)
            if not u.data.get("activated") and u.data["status"] != "fled"
        }
        return unit_id in turn.must_activate_first(waiting)

    def check(self, state: BattleState, command: Command) -> None:
        if command.type == "pass":
            side = state.scheme.get("current", "")
            if side and any(self.can_activate(state, u.id) for u in state.units_of(side)):
                raise IllegalCommand("FW3 6.2", "every unit activates once a turn: pick one")

    # --- one activation -------------------------------------------------------------
    def activation(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        unit = state.unit(unit_id)
        unit.data["activated"] = True
        if unit.data["status"] == "retreating":
            yield from self._rally(state, unit, ctx, at_activation=True)
        for el in unit.alive:
            yield from self._start_model(state, el, ctx)
        for el in unit.alive:
            if el.data.get("sentry"):
                yield from self._sentry_expires(state, unit, el, ctx)
        apart: list[str] = []
        lock = ""
        acted = False
        while not state.over:
            models = [e for e in unit.alive if e.data["actions"] > 0 and e.data["incap"] is None]
            if lock:
                models = [e for e in models if e.id == lock]
                if not models:
                    lock = ""
                    continue
            legal: list[CommandSpec] = []
            if not acted and len(unit.alive) > 1:
                legal.append(CommandSpec("share", {"unit": unit_id}, label="Name the models that act apart"))
            for el in models:
                legal.extend(self._model_specs(state, unit, el))
            if not [s for s in legal if s.type != "share"]:
                return
            legal.append(CommandSpec("end_activation", {"unit": unit_id}, label="End activation"))
            command = yield Decision(unit.side, f"{unit.name}: a model acts, or end the activation", tuple(legal))
            if command.type == "end_activation":
                break
            if command.type == "share":
                apart = self._check_apart(unit, list(command.apart))
                ctx.emit("share", f"{unit.name}: {len(apart)} model(s) act apart", apart=apart)
                continue
            acted = True
            if command.type in ACTING:
                yield from self._sentry_window(state, state.element(command.model), ctx)
                if not state.element(command.model).alive:
                    continue
            yield from self.resolve(state, command, ctx)
            model = state.element(command.model)
            lock = command.model if command.model in apart and model.alive and model.data["actions"] > 0 else ""
        for el in unit.elements:
            el.data["actions"] = 0  # unused actions are lost (PR-9)

    def _check_apart(self, unit: UnitState, apart: list[str]) -> list[str]:
        ids = {e.id for e in unit.alive}
        bad = [m for m in apart if m not in ids]
        if bad:
            raise IllegalCommand("FW3 7.3", f"{bad[0]} is not a living model of {unit.name}")
        return apart

    def _start_model(self, state: BattleState, el: ElementState, ctx: Context) -> Resolution:
        machine = self._machines.get(el.id)
        seats = machine_play.actions(machine, el) if machine else turn.ACTIONS_PER_MODEL
        el.data["actions"] = max(seats - el.data.get("spent", 0), 0)
        el.data["fast"] = False  # the fast-target bonus lasts until its next activation
        ms = ModelState(dp=el.data["dp"], pins=el.data["pins"], stunned=el.data["stunned"])
        if ms.pins or ms.stunned:
            after, left, done = ms.clearing(el.data["actions"])
            el.data.update(pins=after.pins, stunned=after.stunned, actions=left)
            ctx.emit("recover", f"{el.name}: {', '.join(done) or 'still pinned'}", model=el.id)
        yield from arcane_play.start_caster(state, el, ctx)  # PR-71: wards need their upkeep

    def _model_specs(self, state: BattleState, unit: UnitState, el: ElementState) -> list[CommandSpec]:
        p = self.profile(el.id)
        base = {"unit": unit.id, "model": el.id}
        who = el.id.rsplit("/", 1)[-1]
        actions = el.data["actions"]
        status = unit.data["status"]
        specs: list[CommandSpec] = []
        must_move = status in ("falling_back", "retreating") and el.data["moved"] == 0
        if status == "retreating" and must_move and actions >= 2:
            return [CommandSpec("run", base, MOVE_FACTS, f"{who}: run towards its edge")]
        if must_move:
            return [CommandSpec("walk", base, MOVE_FACTS, f"{who}: walk towards its edge")]
        enemies = [u for u in state.units if u.side != unit.side and not u.eliminated and self._targets(u)]
        for weapon in p.ranged:
            cost = turn.shoot_cost(weapon.slow)
            if actions < cost or weapon.name in el.data["unloaded"] or not _fires(weapon):
                continue
            for enemy in enemies:
                specs.append(
                    CommandSpec(
                        "shoot",
                        {**base, "target": enemy.id, "weapon": weapon.name},
                        SHOOT_FACTS,
                        f"{who}: shoot {enemy.name} with {weapon.name}",
                        odds=True,
                        targets="units",
                    )
                )
        if status == "normal" and not (el.id in self._machines and self._machines[el.id].vehicle):
            for enemy in enemies:
                specs.append(
                    CommandSpec("strike", {**base, "target": enemy.id}, STRIKE_FACTS, f"{who}: strike {enemy.name}", odds=True, targets="units")
                )
        specs.append(CommandSpec("walk", base, MOVE_FACTS, f"{who}: walk"))
        if actions >= 2:
            specs.append(CommandSpec("run", base, MOVE_FACTS, f"{who}: run"))
        if p.ranged and not el.data["aim"]:
            specs.append(CommandSpec("aim", base, label=f"{who}: aim"))
        if not el.data["focus"]:
            specs.append(CommandSpec("focus", base, label=f"{who}: focus"))
        for name in el.data["unloaded"]:
            specs.append(CommandSpec("reload", {**base, "weapon": name}, label=f"{who}: reload {name}"))
        side = state.side(unit.side)
        if side.data["extra_pool"] > 0 and not el.data["extra"]:
            specs.append(CommandSpec("extra", base, label=f"{who}: take an extra action"))
        if p.has("Medic") and actions >= turn.ACTION_COSTS["medic"]:
            for patient in self._patients(state, unit.side, el):
                specs.append(CommandSpec("medic", {**base, "patient": patient.id}, MEDIC_FACTS,
                                         f"{who}: treat {patient.name} ({patient.id.rsplit('/', 1)[-1]})"))
        for weapon in p.ranged:
            cost = 1 + turn.shoot_cost(weapon.slow)
            if actions >= cost and weapon.name not in el.data["unloaded"] and _fires(weapon) and not el.data.get("sentry"):
                specs.append(CommandSpec("sentry", {**base, "weapon": weapon.name}, label=f"{who}: sentry with {weapon.name}"))
        specs.extend(arcane_play.specs(self, state, unit, el, enemies, base, who))
        specs.extend(machine_play.machine_specs(self, state, el, enemies, base, who))
        specs.append(CommandSpec("done", base, label=f"{who}: done"))
        return specs

    def _targets(self, unit: UnitState) -> list[ElementState]:
        return [e for e in unit.alive if e.data["incap"] is None]

    # --- resolution -----------------------------------------------------------------
    def resolve(self, state: BattleState, command: Command, ctx: Context) -> Resolution:
        el = self._own_model(state, command)
        kind = command.type
        if kind in ("walk", "run"):
            yield from self._move(state, el, command, ctx)
        elif isinstance(command, Shoot):
            yield from self._shoot(state, el, command, ctx)
        elif isinstance(command, Strike):
            yield from self._strike(state, el, command, ctx)
        elif kind in ("aim", "focus"):
            self._spend(el, 1, kind)
            el.data[kind] = True
            ctx.emit(kind, f"{el.name} takes a {kind} action", model=el.id)
        elif isinstance(command, Reload):
            if command.weapon not in el.data["unloaded"]:
                raise IllegalCommand("FW3 11.22", f"{el.name}'s {command.weapon} is not empty")
            self._spend(el, 1, "reload")
            el.data["unloaded"] = [w for w in el.data["unloaded"] if w != command.weapon]
            ctx.emit("reload", f"{el.name} reloads {command.weapon}", model=el.id)
        elif kind == "extra":
            side = state.side(state.unit(el.unit).side)
            if side.data["extra_pool"] < 1 or el.data["extra"]:
                raise IllegalCommand("FW3 6.4", "one extra action per model a turn, from the side's pool")
            side.data["extra_pool"] -= 1
            el.data.update(extra=True, actions=el.data["actions"] + 1)
            ctx.emit("extra_action", f"{el.name} takes an extra action ({side.data['extra_pool']} left)", model=el.id)
        elif isinstance(command, Sentry):
            p = self.profile(el.id)
            weapon = next((w for w in p.ranged if w.name == command.weapon), None)
            if weapon is None or weapon.name in el.data["unloaded"]:
                raise IllegalCommand("FW3 7.2", f"{el.name} has no loaded {command.weapon!r} to hold a shot with")
            self._spend(el, 1 + turn.shoot_cost(weapon.slow), "a sentry")
            el.data["sentry"] = weapon.name
            ctx.emit("sentry", f"{el.name} stands sentry with {weapon.name}", model=el.id)
        elif kind == "medic":
            yield from self._treat(state, el, command, ctx)
        elif kind == "cast":
            yield from arcane_play.cast(self, state, el, command, ctx)
        elif kind == "ram":
            yield from machine_play.ram_command(self, state, el, command, ctx)
        elif kind == "repair":
            yield from machine_play.repair_command(self, el, command, ctx)
        elif kind == "done":
            el.data["actions"] = 0
        else:
            raise IllegalCommand("rules", f"{kind} has no resolution in FigWars 3")

    def _own_model(self, state: BattleState, command: Command) -> ElementState:
        unit_id = getattr(command, "unit", "")
        model = getattr(command, "model", "")
        try:
            el = state.element(model)
        except KeyError:
            raise IllegalCommand("FW3 7", f"no model {model!r}") from None
        if el.unit != unit_id or not el.alive:
            raise IllegalCommand("FW3 7", f"{model} is not a living model of {unit_id}")
        return el

    def _spend(self, el: ElementState, cost: int, what: str) -> None:
        if el.data["actions"] < cost:
            raise IllegalCommand("FW3 7.1", f"{el.name} has {el.data['actions']} action(s) left; {what} costs {cost}")
        el.data["actions"] -= cost
        el.data["spent"] = el.data.get("spent", 0) + cost

    def _move(self, state: BattleState, el: ElementState, command: Any, ctx: Context) -> Resolution:
        p = self.profile(el.id)
        running = command.type == "run"
        machine = self._machines.get(el.id)
        mov = machine_play.allowance(machine, el, state.round) if machine else carried_mov(p)
        allowance = mov * (2 if running else 1)
        inches = command.facts.get("inches", -1)
        if isinstance(inches, bool) or not isinstance(inches, int):
            raise IllegalCommand("FW3 8", f"inches must be a whole number, not {inches!r}")
        inches = allowance if inches < 0 else inches
        if inches > allowance:
            raise IllegalCommand("FW3 7.1", f"{el.name} moves at most {allowance}\" with a {command.type}")
        if el.data["moved"] + inches > 2 * mov:
            raise IllegalCommand("FW3 7.1", f"{el.name} may not move more than {2 * mov}\" in a turn")
        self._spend(el, 2 if running else 1, command.type)
        el.data["moved"] += inches
        if el.data["moved"] >= 12:
            el.data["fast"] = True
        ctx.emit(command.type, f"{el.name} {'runs' if running else 'walks'} {inches}\"", model=el.id, inches=inches)
        if machine is not None and inches:
            yield from machine_play.after_move(el, ctx)
        unit = state.unit(el.unit)
        if command.facts.get("reached_edge") and unit.data["status"] in ("falling_back", "retreating"):
            unit.data["status"] = "fled"
            unit.markers["removed"] = True
            ctx.emit("fled", f"{unit.name} leaves the table and counts as lost", unit=unit.id)
        return
        yield  # pragma: no cover

    # shooting
    def shot(self, state: BattleState, command: Shoot) -> tuple[OpposedRoll, ElementState, ElementState, RangedWeapon]:
        """The OpposedRoll a Shoot command stands for (resolution and odds both use it)."""
        el = self._own_model(state, command)
        target = self._target_model(state, el, command.target, command.target_model)
        p = self.profile(el.id)
        from campaign.rulesets.figwars3.profile import ProfileError

        try:
            weapon = p.ranged_weapon(command.weapon or None)
        except ProfileError as exc:
            raise IllegalCommand("FW3 17", str(exc)) from None
        facts = {k: v for k, v in command.facts.items() if k != "under_template"}
        if el.data["aim"]:
            facts["aim"] = True
        role = "placed" if (weapon.indirect or weapon.grenade) else "direct"
        if role == "direct" and weapon.spray:
            role = "spray_primary"
        opposed = ranged_attack(p, weapon, self._defender(target), {**facts, "role": role})
        opposed = arcane_play.warded(opposed, target.data, bool(facts.get("in_melee", False)))  # 16.5, 16.6
        return opposed, el, target, weapon

    def _shoot(self, state: BattleState, el: ElementState, command: Shoot, ctx: Context, paid: bool = False) -> Resolution:
        opposed, _, target, weapon = self.shot(state, command)
        under = command.facts.get("under_template", [])
        if not paid:
            self._spend(el, turn.shoot_cost(weapon.slow), "a shot")
        for attacked in [target, *(self._any_model(state, m) for m in under)]:
            self._cancel_sentry(attacked, ctx)
        el.data["aim"] = False
        if weapon.reload:
            el.data["unloaded"] = [*el.data["unloaded"], weapon.name]
        template = bool(weapon.blast or weapon.spray)
        landed = True
        if weapon.indirect or weapon.grenade:
            facts = {k: v for k, v in command.facts.items() if k in RANGED_FACTS and k != "role"}
            terms = placement_terms(self.profile(el.id), weapon, facts)
            landed, got = yield from checks.skill_check(max(sum(t.dice for t in terms), 0), 1, f"placement: {el.name} with {weapon.name}")
            ctx.emit("placement", f"{weapon.name} {'lands on target' if landed else 'misses its point'} ({got} successes)", model=el.id)
        if landed:
            outcome = yield from resolve(opposed)
            ctx.emit(
                "shot",
                f"{el.name} shoots {target.name}: {outcome.attacker_successes} against {outcome.defender_successes}",
                model=el.id,
                target=target.id,
            )
            if not (weapon.indirect or weapon.grenade or weapon.spray) and weapon.blast and not placed(outcome.attacker_successes):
                landed = False
            elif outcome.winner == "attacker":
                yield from self._hurt(state, target, outcome.dp, outcome.judgement.pinned, ctx, explosive=template)
        if not landed and weapon.blast:
            band = command.facts.get("range_band", "short")
            if weapon.grenade:
                short = yield from checks.grenade_short_fall()
                ctx.emit("deviation", f"{weapon.name} falls {short}\" short", inches=short)
            else:
                direction, inches = yield from checks.deviation(band if band in checks.DEVIATION_INCHES else "short")
                ctx.emit("deviation", f"{weapon.name} deviates {inches}\" towards arrow {direction}", direction=direction, inches=inches)
        victims = [target] if (landed and template) else []
        for other_id in under:
            other = self._any_model(state, other_id)
            role = "spray" if weapon.spray else "blast_victim"
            attack = ranged_attack(self.profile(el.id), weapon, self._defender(other), {"role": role})
            if attack.attacker.dice:
                outcome = yield from resolve(attack)
                if outcome.winner == "attacker":
                    yield from self._hurt(state, other, outcome.dp, outcome.judgement.pinned, ctx, explosive=True)
            victims.append(other)
        if weapon.blast:
            for victim in victims:
                if victim.alive and not victim.data["stunned"] and victim.id not in self._machines:  # 12.3
                    victim.data["stunned"] = True
                    ctx.emit("stunned", f"{victim.name} is stunned by the blast", model=victim.id)

    # melee
    def strike(self, state: BattleState, command: Strike) -> tuple[OpposedRoll, ElementState, ElementState]:
        el = self._own_model(state, command)
        target = self._target_model(state, el, command.target, command.target_model)
        unit = state.unit(el.unit)
        if unit.data["status"] != "normal":
            raise IllegalCommand("FW3 14.4", f"{unit.name} is withdrawing and may not start a melee")
        struck = state.data["struck"].get(target.id, {}).get(unit.side, [])
        prior = len([m for m in struck if m != el.id])
        facts = dict(command.facts)
        asked = facts.get("prior_attackers", 0)  # an odds query may say; the engine also counts
        facts.update(
            prior_attackers=min(max(prior, asked if isinstance(asked, int) else 0), 20),
            attacker_focus=bool(el.data["focus"]),
            defender_state="stunned" if target.data["stunned"] else ("pinned" if target.data["pins"] else "normal"),
        )
        mine, theirs = self._machines.get(el.id), self._machines.get(target.id)
        if theirs is not None:  # 10.10, 10.12: the machine only defends (mecha against mecha: both fight)
            mecha = mine if mine is not None and not mine.vehicle else None
            return strike_machine(self.profile(el.id), theirs, mecha_attacker=mecha), el, target
        if mine is not None:
            return mecha_strikes_trooper(mine, self._defender(target)), el, target
        opposed = melee_attack(self.profile(el.id), self._defender(target), facts)
        return arcane_play.force_weapon(opposed, self.profile(el.id), el.data), el, target

    def _strike(self, state: BattleState, el: ElementState, command: Strike, ctx: Context) -> Resolution:
        opposed, _, target = self.strike(state, command)
        self._spend(el, 1, "a strike")
        self._cancel_sentry(target, ctx)
        el.data["focus"] = False
        tunit = state.unit(target.unit)
        if self._can_focus(target) and opposed.counter:
            answer = yield Decision(
                tunit.side,
                f"{target.name} is attacked in melee: spend an action on a defensive Focus?",
                (CommandSpec("choose", {"option": "no"}, label="No"), CommandSpec("choose", {"option": "focus"}, label="Focus (+1d)")),
            )
            if isinstance(answer, Choose) and answer.option == "focus":
                target.data["spent"] = target.data.get("spent", 0) + 1
                if target.data["actions"]:
                    target.data["actions"] -= 1
                command = Strike(command.unit, command.model, command.target, target.id, {**command.facts, "defender_focus": True})
                opposed, _, target = self.strike(state, command)
                ctx.emit("focus", f"{target.name} focuses on its defence", model=target.id)
        side = state.unit(el.unit).side
        state.data["struck"].setdefault(target.id, {}).setdefault(side, [])
        if el.id not in state.data["struck"][target.id][side]:
            state.data["struck"][target.id][side].append(el.id)
        outcome = yield from resolve(opposed)
        j = outcome.judgement
        ctx.emit(
            "melee",
            f"{el.name} strikes {target.name}: {outcome.attacker_successes} against {outcome.defender_successes}"
            + (f", {j.winner} wins by {j.margin}" if j.winner else ", no effect"),
            model=el.id,
            target=target.id,
        )
        if j.winner == "attacker":
            yield from self._hurt(state, target, outcome.dp, j.pinned, ctx)
        elif j.winner == "defender" and (outcome.dp or j.pinned):
            yield from self._hurt(state, el, outcome.dp, j.pinned, ctx)
        for model, hit in ((target, j.target_stunned), (el, j.attacker_stunned)):
            if hit and model.alive and not model.data["stunned"]:
                model.data["stunned"] = True
                ctx.emit("stunned", f"{model.name} is stunned by a Storm Hammer", model=model.id)

    def _can_focus(self, target: ElementState) -> bool:
        """PR-9: a defensive Focus comes out of actions it still has this turn."""
        unit_done = target.data.get("spent", 0) >= turn.ACTIONS_PER_MODEL and not target.data["actions"]
        return not unit_done and not target.data["stunned"]

    # medics (4.3 #20, PR-62)
    def _patients(self, state: BattleState, side: str, medic: ElementState) -> list[ElementState]:
        return [
            e for u in state.units_of(side) for e in u.alive
            if e.id != medic.id and (e.data["dp"] < self.profile(e.id).dp or e.data["stunned"])
        ]

    def _treat(self, state: BattleState, el: ElementState, command: Any, ctx: Context) -> Resolution:
        patient = next((e for e in self._patients(state, state.unit(el.unit).side, el) if e.id == command.patient), None)
        if patient is None:
            raise IllegalCommand("FW3 4.3 Medic", f"{command.patient!r} is not a hurt or stunned friendly model {el.name} can treat")
        self._spend(el, turn.ACTION_COSTS["medic"], "a treatment")
        passed, got = yield from checks.skill_check(self.profile(el.id).tq, 1, f"medic: {el.name} treats {patient.name}")
        if not passed:
            ctx.emit("medic", f"{el.name} fails to treat {patient.name}", model=el.id, patient=patient.id)
            return
        healed, unstunned = checks.medic_heal(got, patient.data["stunned"], bool(command.facts.get("clear_stun")))
        after = ModelState(dp=patient.data["dp"], pins=patient.data["pins"], stunned=patient.data["stunned"]).heal(
            healed, self.profile(patient.id).dp
        )
        patient.data.update(dp=after.dp, stunned=patient.data["stunned"] and not unstunned)
        if after.dp > 0:
            patient.data["incap"] = None
        ctx.emit("medic", f"{el.name} treats {patient.name}: +{healed} DP" + (", stun removed" if unstunned else ""),
                 model=el.id, patient=patient.id, healed=healed)

    # sentry (7.2, PR-25)
    def _sentries(self, state: BattleState, side: str) -> list[ElementState]:
        return [e for u in state.units if u.side != side and not u.eliminated for e in u.alive if e.data.get("sentry")]

    def _sentry_window(self, state: BattleState, actor: ElementState, ctx: Context) -> Resolution:
        """An enemy model is about to act: each side with a held sentry may fire it first."""
        actor_side = state.unit(actor.unit).side
        for sentry in self._sentries(state, actor_side):
            if not actor.alive or not sentry.data.get("sentry"):
                continue
            sunit = state.unit(sentry.unit)
            spec = CommandSpec(
                "shoot",
                {"unit": sunit.id, "model": sentry.id, "target": actor.unit, "target_model": actor.id, "weapon": sentry.data["sentry"]},
                SHOOT_FACTS,
                f"{sentry.name}: fire the sentry shot at {actor.name}",
            )
            hold = CommandSpec("choose", {"option": "hold"}, label="Hold the sentry")
            answer = yield Decision(sunit.side, f"{actor.name} acts: release {sentry.name}'s sentry shot?", (hold, spec))
            if answer.type == "shoot":
                yield from self._release(state, sentry, answer, ctx)

    def _release(self, state: BattleState, sentry: ElementState, command: Any, ctx: Context) -> Resolution:
        sentry.data["sentry"] = ""
        ctx.emit("sentry_fire", f"{sentry.name} fires its sentry shot", model=sentry.id)
        yield from self._shoot(state, sentry, command, ctx, paid=True)

    def _sentry_expires(self, state: BattleState, unit: UnitState, el: ElementState, ctx: Context) -> Resolution:
        """PR-25: an unused sentry is fired first thing in the model's next activation, or lost."""
        weapon = el.data["sentry"]
        specs = [
            CommandSpec("shoot", {"unit": unit.id, "model": el.id, "target": enemy.id, "weapon": weapon}, SHOOT_FACTS,
                        f"{el.name}: fire the held shot at {enemy.name}")
            for enemy in state.units
            if enemy.side != unit.side and not enemy.eliminated and self._targets(enemy)
        ]
        if specs:
            answer = yield Decision(unit.side, f"{el.name}: fire the held sentry shot or let it go",
                                    (*specs, CommandSpec("choose", {"option": "let_go"}, label="Let it go")))
            if answer.type == "shoot":
                yield from self._release(state, el, answer, ctx)
                return
        el.data["sentry"] = ""
        ctx.emit("sentry_lost", f"{el.name}'s sentry lapses", model=el.id)

    def _cancel_sentry(self, el: ElementState, ctx: Context) -> None:
        if el.data.get("sentry"):
            el.data["sentry"] = ""
            ctx.emit("sentry_lost", f"{el.name} is attacked and loses its sentry", model=el.id)

    # shared helpers
    def _target_model(self, state: BattleState, el: ElementState, unit_id: str, model_id: str) -> ElementState:
        try:
            unit = state.unit(unit_id)
        except KeyError:
            raise IllegalCommand("FW3 11.3", f"no unit {unit_id!r}") from None
        if unit.side == state.unit(el.unit).side or unit.eliminated:
            raise IllegalCommand("FW3 11.3", f"{unit.name} is not an enemy unit on the table")
        targets = self._targets(unit)
        if model_id:
            for t in targets:
                if t.id == model_id:
                    return t
            raise IllegalCommand("FW3 11.3", f"{model_id} is not a model of {unit.name} that can be attacked")
        if not targets:
            raise IllegalCommand("FW3 11.3", f"{unit.name} has no model that can be attacked")
        return targets[0]

    def _any_model(self, state: BattleState, model_id: str) -> ElementState:
        try:
            el = state.element(model_id)
        except (KeyError, ValueError):
            raise IllegalCommand("FW3 11.18", f"no model {model_id!r} to put under the template") from None
        if not el.alive:
            raise IllegalCommand("FW3 11.18", f"{el.name} is no longer on the table")
        return el

    def _defender(self, el: ElementState) -> Profile:
        return self.profile(el.id)

    def _hurt(self, state: BattleState, el: ElementState, dp: int, pin: bool, ctx: Context, explosive: bool = False) -> Resolution:
        machine = self._machines.get(el.id)
        if machine is not None:  # 13: the damage tables, a pin only with DP, no Dodge
            yield from machine_play.hurt(state, el, machine, dp, pin, ctx, lambda gone: self._remove(state, gone, ctx))
            return
        p = self.profile(el.id)
        if dp and p.has("Dodge"):
            dodged = yield from checks.dodge(p.tq, explosive)
            if dodged:
                ctx.emit("dodge", f"{el.name} dodges: no damage", model=el.id)
                dp = 0
        unit = state.unit(el.unit)
        medic = any(self.profile(e.id).has("Medic") for e in unit.alive if e.id != el.id) or any(
            self.profile(e.id).has("Medic") for u in state.units_of(unit.side) for e in u.alive if e.id != el.id
        )
        before = ModelState(dp=el.data["dp"], pins=el.data["pins"], stunned=el.data["stunned"])
        after = before.hit(dp, pin, state.round, aggressive=p.has("Aggressive"), medic_on_table=medic)
        el.data.update(dp=after.dp, pins=after.pins)
        parts = []
        if dp:
            parts.append(f"{dp} DP")
        if after.pins > before.pins:
            parts.append("pinned")
        if parts:
            ctx.emit("hit", f"{el.name}: {', '.join(parts)}", model=el.id, dp=dp)
        if after.removed:
            self._remove(state, el, ctx)
        elif after.incapacitated_turn is not None:
            el.data["incap"] = state.round
            self._casualty(unit)
            ctx.emit("incapacitated", f"{el.name} is down at 0 DP; a medic may still save it", model=el.id)

    def _casualty(self, unit: UnitState) -> None:
        unit.data["pl"] += morale.PL_CASUALTY
        unit.data["marker"] = True

    def _remove(self, state: BattleState, el: ElementState, ctx: Context) -> None:
        unit = state.unit(el.unit)
        if el.data.get("incap") is None:
            self._casualty(unit)
        el.alive = False
        ctx.emit("removed", f"{el.name} is taken out", model=el.id)
        if unit.eliminated:
            ctx.emit("eliminated", f"{unit.name} is wiped out", unit=unit.id)

    # --- morale phase and turn end --------------------------------------------------
    def on_round_end(self, state: BattleState, ctx: Context) -> Resolution:
        for unit in state.units:
            if unit.eliminated:
                continue
            action = morale.morale_phase_action(unit.data["marker"], unit.data["status"])
            if not action:
                continue
            profiles = [self.profile(e.id) for e in unit.alive]
            if morale.never_checks(set().union(*(p.abilities for p in profiles)), hero=any(p.hero for p in profiles)):
                continue
            if action == "check":
                yield from self._check_morale(state, unit, ctx)
            else:
                yield from self._rally(state, unit, ctx)
        for unit in state.units:
            for el in unit.alive:
                if el.data["incap"] is not None and state.round > el.data["incap"]:
                    el.alive = False
                    ctx.emit("removed", f"{el.name} was not treated in time", model=el.id)

    def _situation(self, unit: UnitState) -> morale.MoraleSituation:
        profiles = [self.profile(e.id) for e in unit.alive]
        abilities = set().union(*(p.abilities for p in profiles))
        return morale.MoraleSituation(
            highest_tq=max(p.tq for p in profiles),
            models=len(profiles),
            mounted=any(p.mounted for p in profiles),
            brave="Brave" in abilities,
            grizzled="Grizzled" in abilities,
        )

    def _check_morale(self, state: BattleState, unit: UnitState, ctx: Context) -> Resolution:
        pl = unit.data["pl"]
        passed, faces = yield from morale.morale_roll(self._situation(unit), pl)
        if passed:
            ctx.emit("morale", f"{unit.name} holds (PL {pl})", unit=unit.id)
            return
        cowardly = any(self.profile(e.id).has("Cowardly") for e in unit.alive)
        unit.data["status"] = morale.after_failed_check(unit.data["status"], cowardly)
        ctx.emit("morale", f"{unit.name} fails its morale check (PL {pl}) and is {unit.data['status'].replace('_', ' ')}", unit=unit.id)

    def _rally(self, state: BattleState, unit: UnitState, ctx: Context, at_activation: bool = False) -> Resolution:
        ok, _ = yield from morale.morale_roll(self._situation(unit), 0, rally=True)
        if ok:
            unit.data["status"] = morale.after_rally(unit.data["status"])
        ctx.emit("rally", f"{unit.name} {'rallies' if ok else 'fails to rally'}: {unit.data['status'].replace('_', ' ')}", unit=unit.id)

    # --- the end ------------------------------------------------------------------
    def is_over(self, state: BattleState) -> bool:
        return any(not state.units_of(side.id) for side in state.sides)

    def end_reason(self, state: BattleState) -> str:
        gone = [side.name for side in state.sides if not state.units_of(side.id)]
        return f"{', '.join(gone)} has no unit left on the table (PR-26)" if gone else ""

    def victory_points(self, state: BattleState) -> dict[str, Fraction]:
        """PR-26: casualties inflicted (fled models count as casualties)."""
        out = {}
        for side in state.sides:
            lost = 0
            for unit in state.units:
                if unit.side == side.id:
                    continue
                fled = unit.data.get("status") == "fled"
                lost += sum(1 for e in unit.elements if fled or not e.alive)
            out[side.id] = Fraction(lost)
        return out

    def outcome(self, state: BattleState) -> BattleOutcome:
        """VPs are casualties inflicted (PR-26); each side's dead go back to the campaign
        per element entry (models that fled the table survive the battle)."""
        from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine

        vps = self.victory_points(state)
        sides = []
        for side in state.sides:
            casualties: list[Casualty] = []
            for unit in state.units:
                if unit.side != side.id:
                    continue
                lost: dict[int, tuple[str, int]] = {}
                for el in unit.elements:
                    if not el.alive:
                        name, n = lost.get(el.entry, (el.name, 0))
                        lost[el.entry] = (name, n + 1)
                casualties.extend(Casualty(unit.name, name, entry, n) for entry, (name, n) in sorted(lost.items()))
            gone = tuple(u.name for u in state.units if u.side == side.id and u.eliminated)
            line = VPLine("casualties inflicted (fled models count)", vps.get(side.id, Fraction(0)), "other")
            sides.append(SideOutcome(side.id, (line,), gone, tuple(casualties)))
        return BattleOutcome(sides=tuple(sides), rounds_played=state.round, end_reason=state.end_reason)

    # --- odds ---------------------------------------------------------------------
    def opposed_for(self, state: BattleState, command: Command) -> OpposedRoll:
        if isinstance(command, Shoot):
            return self.shot(state, command)[0]
        if isinstance(command, Strike):
            return self.strike(state, command)[0]
        if isinstance(command, Cast):
            opposed = arcane_play.cast_opposed(self, state, command)
            if opposed is None:
                raise IllegalCommand("FW3 16.2", "the power comes to no dice against this model (PR-69)")
            return opposed
        raise IllegalCommand("odds", f"FigWars 3 gives odds for shoot and strike, not {command.type}")

    def exact(self, state: BattleState, command: Command) -> OpposedOdds:
        return exact_odds(self.opposed_for(state, command))

    def odds(self, state: BattleState, command: Command) -> OddsReport:
        """Exact odds of a shot or strike: for one model, or (`model` left empty, as
        `muster odds` asks) for every model of the unit that can make it, each against
        the target's foremost model. Outcomes: DP inflicted, pinned, counter-attack DP."""
        if command.type == "ram":
            return machine_play.ram_report(self, state, command)
        if not isinstance(command, (Shoot, Strike, Cast)):
            raise IllegalCommand("odds", f"FigWars 3 gives odds for shoot, strike, cast and ram, not {command.type}")
        models = [command.model] if command.model else self._attackers(state, command)
        rows: list[ModelOdds] = []
        notes: list[str] = []
        for i, model in enumerate(models):
            single = attrs.evolve(command, model=model)
            if isinstance(command, Strike) and not command.model:
                # each further model of the unit striking the same defender gets +1d more (10.8)
                single = attrs.evolve(single, facts={**command.facts, "prior_attackers": min(i, 20)})
            opposed = self.opposed_for(state, single)
            rows.append(ModelOdds(state.element(model).name, opposed, self._with_placement(state, single, exact_odds(opposed))))
            for note in opposed.notes:
                if note not in notes:
                    notes.append(note)
        if not rows:
            raise IllegalCommand("odds", "no model of the unit can make this attack")
        report = odds_report(rows, tuple(notes))
        target_id = command.target_model
        if not target_id and command.target:
            alive = self._targets(state.unit(command.target))
            target_id = alive[0].id if alive else ""
        machine = self._machines.get(target_id)
        if machine is not None and len(rows) == 1:  # 13: the chance of each damage result
            extra = machine_play.damage_outcomes(state.element(target_id), machine, rows[0].odds.dp)
            report = attrs.evolve(report, outcomes=report.outcomes + extra)
        return report

    def _with_placement(self, state: BattleState, command: Command, odds: OpposedOdds) -> OpposedOdds:
        """A grenade or indirect shot hurts its target only once placed (>= 1 success)."""
        if not isinstance(command, Shoot):
            return odds
        _, el, _, weapon = self.shot(state, command)
        if not (weapon.indirect or weapon.grenade):
            return odds
        facts = {k: v for k, v in command.facts.items() if k in RANGED_FACTS and k != "role"}
        if el.data["aim"]:
            facts["aim"] = True
        terms = placement_terms(self.profile(el.id), weapon, facts)
        return scaled(odds, checks.p_check(max(sum(t.dice for t in terms), 0), 1))

    def _attackers(self, state: BattleState, command: Shoot | Strike | Cast) -> list[str]:
        """The unit's models that can make the attack; if none can, the first one's reason."""
        unit = state.unit(getattr(command, "unit", ""))
        out = []
        first: IllegalCommand | None = None
        for el in unit.alive:
            if el.data["incap"] is not None:
                continue
            try:
                self.opposed_for(state, attrs.evolve(command, model=el.id))
            except IllegalCommand as exc:
                first = first or exc
                continue
            out.append(el.id)
        if not out and first is not None:
            raise first
        return out

    def odds_query(self, state: BattleState, unit_id: str, target_id: str, action: str, facts: dict[str, Any]) -> Command:
        """`muster odds --action ranged|melee` (or shoot|strike): the whole unit's attack.
        `weapon` and `target_model` may come as facts; the rest are the shot's or strike's."""
        kind = {"ranged": "shoot", "shoot": "shoot", "melee": "strike", "strike": "strike"}.get(action)
        if kind is None:
            raise IllegalCommand("odds", f"FigWars 3 gives odds for ranged and melee attacks, not {action!r}")
        facts = dict(facts)
        fields: dict[str, Any] = {"type": kind, "unit": unit_id, "target": target_id}
        for key in ("weapon", "target_model") if kind == "shoot" else ("target_model",):
            if key in facts:
                fields[key] = str(facts.pop(key))
        known = RANGED_FACTS if kind == "shoot" else MELEE_FACTS
        for name, value in list(facts.items()):
            choices = known.get(name, ())
            if isinstance(value, str) and choices and isinstance(choices[0], (bool, int)) and value not in choices:
                for choice in choices:
                    if str(choice).lower() == value.lower():
                        facts[name] = choice
        check_facts(facts, known, "FW3 18.2")  # a bad fact is named, not lost among the models
        return self.command_from({**fields, "facts": facts})

    def describe_unit(self, state: BattleState, unit_id: str) -> UnitView:
        """Status, panic level and morale marker; per model DP, actions and statuses."""
        unit = state.unit(unit_id)
        status = []
        if unit.data.get("status", "normal") != "normal":
            status.append(unit.data["status"].replace("_", " "))
        if unit.data.get("pl"):
            status.append(f"PL {unit.data['pl']}")
        if unit.data.get("marker"):
            status.append("morale check due")
        if unit.data.get("activated"):
            status.append("activated")
        side = state.side(unit.side)
        if side.data.get("extra_pool"):
            status.append(f"{side.data['extra_pool']} extra action(s) in the pool")
        lines = []
        for el in unit.alive:
            p = self.profile(el.id)
            machine = self._machines.get(el.id)
            words = machine_play.describe(machine, el) if machine else [f"DP {el.data['dp']}/{p.dp}"]
            words.extend(arcane_play.describe(el))
            if el.data.get("actions"):
                words.append(f"{el.data['actions']} action(s)")
            if el.data.get("pins"):
                words.append(f"pinned x{el.data['pins']}")
            for flag, word in (("stunned", "stunned"), ("extra", "extra action"), ("aim", "aiming"), ("focus", "focused"), ("fast", "fast")):
                if el.data.get(flag):
                    words.append(word)
            if el.data.get("sentry"):
                words.append(f"sentry ({el.data['sentry']})")
            if el.data.get("incap") is not None:
                words.append("down, awaiting a medic")
            if el.data.get("unloaded"):
                words.append("to reload: " + ", ".join(el.data["unloaded"]))
            lines.append(f"{el.name} ({el.id.rsplit('/', 1)[-1]}): " + ", ".join(words))
        return UnitView(tuple(status), tuple(lines))


def _fires(weapon: RangedWeapon) -> bool:
    """Launchers fire through a named round; the whole weapon is not a shot of its own."""
    return not (weapon.ammo and weapon.atk is None and weapon.blast_atk is None)
