"""Flat Out War's battle rules: the hooks the engine core calls (docs/engine.md).

State lives in the core's attrs classes; this module keeps Flat Out War's own facts in
their `data` and `markers` dicts:

* element.data: `die` (current base die), `lost_weapons`, `uses` / `reload` per weapon
  index, `hp` (Hit Points left), `lockout` (misfire), `lucky_turn` / `lucky_used`,
  `acted_turn` / `fired_turn` (owner-turn clocks)
* element.markers: `prone`, `airborne`, `snared`, `sticky` {die, side, source},
  `hidden`, `submerged`, `aground`, `down` (Reliant), `jumped`
* unit.data: `start`, `lost`, `morale`, `disordered`, `cost`, `officer`, `attached_to`,
  `summon_die`, `eliminated_by`, `engaged` (unit ids pulled into melee by Capture);
  unit.markers: this activation's `moved`, `ran`, `charging`, `acted`, `rally_tried`
* state.effects: spells with `remaining` player-turns (`data.fresh` until the casting
  turn ends); state.data: `fear_pairs`, `objectives`, `strategic_winner`
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable
from fractions import Fraction
from typing import Any

import attrs

from campaign.engine.commands import Choose, Command, Reroll
from campaign.engine.errors import IllegalCommand
from campaign.engine.odds import bernoulli_sum, clean
from campaign.engine.pending import CommandSpec, Decision, RollRequest
from campaign.engine.rules import BattleRules, handed_modifier
from campaign.engine.setup import BattleSetup
from campaign.engine.state import BattleState, Effect, ElementState, UnitState, state_from_setup
from campaign.force import Element, Weapon
from campaign.rulesets.flat_out_war import spells as catalogue
from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine import morale as M
from campaign.rulesets.flat_out_war.engine.artillery import Covered, bounce, scatter, template_plan
from campaign.rulesets.flat_out_war.engine.attack import Hit, heavy_armour_blocks, hit_from, melee_die
from campaign.rulesets.flat_out_war.engine.casting import SPELL_EFFECTS, resolve_cast, summon_die
from campaign.rulesets.flat_out_war.engine.clocks import tick_reload
from campaign.rulesets.flat_out_war.engine.combatant import (
    Arm,
    Combatant,
    activate_links,
    combatant_from_element,
    element_traits,
)
from campaign.rulesets.flat_out_war.engine.commands import (
    CAST_FACTS,
    ENTRENCH_FACTS,
    FOW_COMMANDS,
    MELEE_FACTS,
    MOVE_FACTS,
    SHOOT_FACTS,
    fact,
)
from campaign.rulesets.flat_out_war.engine import entrench
from campaign.rulesets.flat_out_war.engine.declare import (
    NoAttack,
    melee_attacks,
    ranged_attacks,
    spell_attack,
    weapon_problem,
)
from campaign.rulesets.flat_out_war.engine.modifiers import melee_modifiers, ranged_modifiers, spell_modifiers
from campaign.rulesets.flat_out_war.engine.movement import (
    COMPASS,
    SAIL_FRACTION,
    IllegalMove,
    Segment,
    allowance,
    can_go_prone,
    can_run,
    check_path,
    turning_problem,
)
from campaign.rulesets.flat_out_war.engine.odds import ActionOdds, AttackSpec, Batch, action_odds
from campaign.rulesets.flat_out_war.engine.options import BATTLE_OPTIONS
from campaign.rulesets.flat_out_war.engine.reliant import Piece, orphaned, reliant_on, resolve_link
from campaign.rulesets.flat_out_war.engine.recovery import (
    recovery_plan,
    resolve_crash,
    resolve_misfire,
    resolve_recovery,
)
from campaign.rulesets.flat_out_war.engine.rolls import Mod, die_sides, step, succeeds, total_of
from campaign.rulesets.flat_out_war.engine.shots import (
    ShotError,
    ShotTarget,
    fire_linked_problem,
    parse_shot_target,
    shot_numbers,
)
from campaign.rulesets.flat_out_war.engine.situation import Situation
from campaign.rulesets.flat_out_war.engine.victory import display_vp, unit_vp

Resolution = Generator[Any, Any, Any]

ONE_DIE = 1


def _opt_defaults() -> dict[str, Any]:
    return {o.name: o.default for o in BATTLE_OPTIONS}


# Move facts that set or clear a marker on every moving element:
# (fact, marker, the value that sets it, event kind, (words when set, words when cleared)).
MARKER_MOVES: tuple[tuple[str, str, str, str, tuple[str, str]], ...] = (
    ("fly", "airborne", "take_off", "flight", ("takes off", "lands")),
    ("submerge", "submerged", "dive", "submerge", ("dives", "surfaces")),
)


class FlatOutWarRules(BattleRules):
    id = "flat-out-war"

    def __init__(self, options: dict[str, Any] | None = None, ruleset: Any = None, edition: str | None = None) -> None:
        mine = {k: v for k, v in (options or {}).items() if k in _opt_defaults()}
        super().__init__({**_opt_defaults(), **mine}, ruleset)
        self.edition = edition or getattr(ruleset, "edition", None) or V17
        self.cost_options = {k: v for k, v in (options or {}).items() if k not in _opt_defaults()}
        self._static: dict[str, Element] = {}
        self._traits: dict[str, Any] = {}  # element id -> parsed attributes (static, parsed once)
        self._setup: BattleSetup | None = None

    # ------------------------------------------------------------------ building
    def command_types(self) -> Iterable[type[Command]]:
        return FOW_COMMANDS

    def new_state(self, setup: BattleSetup) -> BattleState:
        from campaign.rulesets.flat_out_war.costs import CostOptions, price_element

        self._setup = setup
        self._static.clear()
        self._traits.clear()
        state = state_from_setup(setup)
        opts = CostOptions(ranged_base_dac=int(self.cost_options.get("ranged_base_dac", 2)))
        i = 0
        for side in setup.sides:
            for unit in side.force.units:
                us = state.units[i]
                i += 1
                # VP basis: the unit's creation cost (A-53), every element it was created with
                if self.ruleset is not None and hasattr(self.ruleset, "price_element"):
                    each = [self.ruleset.price_element(e, side.force).each for e in unit.elements]
                else:
                    each = [price_element(e, self.edition, opts).each for e in unit.elements]
                cost = sum((Fraction(x).limit_denominator(1000) * e.count for x, e in zip(each, unit.elements)),
                           Fraction(0))
                us.data.update(start=len(us.elements), lost=0, morale="steady", disordered=False,
                               cost=cost, officer="", attached_to="")
                if not us.elements:  # lost in an earlier battle: not on the table, worth nothing now
                    us.data["absent"] = True
                for es in us.elements:
                    element = unit.elements[es.entry]
                    self._static[es.id] = element
                    c = combatant_from_element(element, die=_state_die(element))
                    es.data.update(die=c.die, hp=c.hit_points, lost_weapons=[], uses={}, reload={})
                    if c.has("stealth"):
                        es.markers["hidden"] = True
                    if c.has("entrenched") and self.edition == V17:
                        us.markers["entrenched"] = True
        state.data.update(fear_pairs=[], objectives={}, strategic_winner="")
        self._link_reliant(state)
        return state

    def _link_reliant(self, state: BattleState) -> None:
        """A-29: each `Reliant: NAME` element learns the element ids it relies on."""
        for side in state.side_ids():
            pieces = [Piece(e.id, e.name, u.id, u.name) for u in state.units_of(side, alive=False)
                      for e in u.elements]
            for piece in pieces:
                name = reliant_on(self._static[piece.id])
                if name:
                    es = state.element(piece.id)
                    es.data["reliant_on"] = list(resolve_link(name, piece, pieces))
                    if not es.data["reliant_on"]:
                        es.data["reliant_unknown"] = name

    # ----------------------------------------------------------------- reading
    def element_of(self, state: BattleState, es: ElementState) -> Element:
        if es.id in self._static:
            return self._static[es.id]
        unit = state.unit(es.unit)
        die = f"d{unit.data.get('summon_die', 4)}"
        # A-40: a summoned trooper: MOVE 4, a melee weapon of its own die, no attributes
        element = Element("Summoned trooper", die=die, move=4, weapons=(Weapon("Summoned weapon", "melee", die),))
        self._static[es.id] = element
        return element

    def combatant(self, state: BattleState, es: ElementState) -> Combatant:
        extra = ["flying"] if any(e.kind == "Fly" and e.target == es.unit for e in state.effects) else []
        element = self.element_of(state, es)
        traits = self._traits.get(es.id)
        if traits is None:
            traits = self._traits[es.id] = (element_traits(element), activate_links(element))
        own, links = traits
        return combatant_from_element(
            element,
            traits=own,
            switched_off=[a for a in links if a not in es.data.get("switched_on", [])],  # A-61: starts off
            die=es.data.get("die"),
            lost_weapons=es.data.get("lost_weapons", []),
            uses={int(k): v for k, v in es.data.get("uses", {}).items()},
            hit_points=es.data.get("hp"),
            airborne=bool(es.markers.get("airborne")),
            prone=bool(es.markers.get("prone")),
            down=bool(es.markers.get("down")),
            extra_attributes=extra,
            key=es.id,
        )

    def effects_on(self, state: BattleState, unit_id: str) -> frozenset[str]:
        return frozenset(e.kind for e in state.effects if e.target == unit_id)

    def _able(self, state: BattleState, unit: UnitState) -> list[ElementState]:
        """Elements that may move and act: alive, not snared, not down."""
        return [e for e in unit.alive if not e.markers.get("snared") and not e.markers.get("down")]

    def _enemies(self, state: BattleState, side: str) -> list[UnitState]:
        return [u for u in state.units if u.side != side and not u.eliminated]

    def _situation(self, state: BattleState, unit: UnitState, target: UnitState | None, cmd: Any,
                   specs: tuple) -> Situation:
        tgt_flying = bool(target) and any(
            e.markers.get("airborne") or e.markers.get("jumped") for e in target.alive  # type: ignore[union-attr]
        )
        return Situation(
            aspect=fact(cmd, "aspect", specs) or "front",
            range_band=fact(cmd, "range_band", specs) or "short",
            los=fact(cmd, "los", specs) or "open",
            ran=bool(unit.markers.get("ran")) or bool(fact(cmd, "will_run", specs)),
            charging=bool(unit.markers.get("charging")),
            moved=bool(unit.markers.get("moved")),
            attacker_effects=self.effects_on(state, unit.id),
            target_effects=self.effects_on(state, target.id) if target else frozenset(),
            target_flying=tgt_flying,
        )

    # ------------------------------------------------------------ legal commands
    def can_activate(self, state: BattleState, unit_id: str) -> bool:
        unit = state.unit(unit_id)
        return not unit.eliminated and not unit.data.get("attached_to")

    def activation_commands(self, state: BattleState, unit_id: str) -> list[CommandSpec]:
        unit = state.unit(unit_id)
        if unit.eliminated or state.over:
            return []
        able = self._able(state, unit)
        if not able:
            return []
        m = unit.markers
        name = unit.name
        morale = unit.data.get("morale", "steady")
        specs: list[CommandSpec] = []
        mobile = any((self.element_of(state, e).move or 0) > 0 for e in able)
        if morale == "fleeing":
            if not m.get("moved") and mobile:
                specs.append(CommandSpec("move", {"unit": unit_id}, MOVE_FACTS,
                                         f"{name} flees: run toward shelter or its own table edge"))
            elif not m.get("rally_tried"):
                specs.append(CommandSpec("rally", {"unit": unit_id}, (), f"{name}: try to rally"))
            return specs
        if not m.get("moved") and mobile and not all(e.markers.get("aground") for e in able):
            specs.append(CommandSpec("move", {"unit": unit_id}, MOVE_FACTS, f"Move {name}"))
        if not m.get("acted") and morale == "steady":
            cs = [self.combatant(state, e) for e in able]
            officer_unit = all(c.has("command") for c in cs)
            if unit.data.get("officer"):
                specs.append(CommandSpec("detach", {"unit": unit_id}, (), f"{name}: detach its officer"))
            if officer_unit:  # an officer on its own may attach, or fight like any unit
                for other in state.units_of(unit.side):
                    if other.id != unit_id and not other.data.get("officer"):
                        specs.append(CommandSpec("attach", {"unit": unit_id, "target": other.id}, (),
                                                 f"Attach {name} to {other.name}"))
            enemies = self._enemies(state, unit.side)
            for enemy in enemies:
                specs.append(CommandSpec("melee", {"unit": unit_id, "target": enemy.id}, MELEE_FACTS,
                                         f"{name}: melee attack on {enemy.name}"))
            if any(c.ranged for c in cs):
                for enemy in enemies:
                    specs.append(CommandSpec("shoot", {"unit": unit_id, "target": enemy.id}, SHOOT_FACTS,
                                             f"{name}: shoot at {enemy.name}"))
            for es, c in zip(able, cs):
                if c.has("activate") and self.edition == SO:
                    specs.append(CommandSpec("switch", {"unit": unit_id, "element": es.id}, (),
                                             f"{es.name}: switch its Activate attribute on or off"))
                if c.has("magic") and not es.data.get("lockout"):
                    for spell_name in self.element_of(state, es).spells:
                        specs.append(CommandSpec("cast", {"unit": unit_id, "element": es.id,
                                                          "spell": _spell_name(spell_name)},
                                                 CAST_FACTS, f"{es.name}: cast {_spell_name(spell_name)}"))
        elif m.get("acted") in ("melee", "shoot") and morale == "steady":
            # split fire (A-21, A-22): elements that have not attacked yet may pick other targets
            done = set(m.get("attacked", []))
            rest = [e for e in able if e.id not in done]
            kind = m["acted"]
            can = (lambda c: melee_die(c, self.edition) is not None) if kind == "melee" else (lambda c: bool(c.ranged))
            if any(can(self.combatant(state, e)) for e in rest):
                for enemy in self._enemies(state, unit.side):
                    verb = "melee attack on" if kind == "melee" else "shoot at"
                    specs.append(CommandSpec(kind, {"unit": unit_id, "target": enemy.id},
                                             MELEE_FACTS if kind == "melee" else SHOOT_FACTS,
                                             f"{name}: the rest {verb} {enemy.name}"))
        return specs

    def activation(self, state: BattleState, unit_id: str, ctx: Any) -> Resolution:
        unit = state.unit(unit_id)
        while not unit.eliminated and not state.over and not self.is_over(state):
            legal = self.activation_commands(state, unit_id)
            if not legal:
                return
            legal = [
                *legal,
                CommandSpec("objective", {}, (), "Record a scenario objective achieved"),
                CommandSpec("strategic_victory", {}, (), "Declare a strategic victory"),
                CommandSpec("end_activation", {"unit": unit_id}, label="End activation"),
            ]
            command = yield Decision(unit.side, f"{unit.name}: choose an action or end the activation", tuple(legal))
            if command.type == "end_activation":
                return
            yield from self.resolve(state, command, ctx)

    # ----------------------------------------------------------------- checking
    def check(self, state: BattleState, command: Command) -> None:
        checker = getattr(self, f"_check_{command.type}", None)
        if checker is not None:
            checker(state, command)

    def _unit(self, state: BattleState, unit_id: str, role: str = "unit") -> UnitState:
        try:
            return state.unit(unit_id)
        except KeyError:
            raise IllegalCommand("FOW 1", f"there is no {role} {unit_id!r}") from None

    def _check_move(self, state: BattleState, cmd: Any) -> None:
        unit = self._unit(state, cmd.unit)
        cs = [self.combatant(state, e) for e in self._able(state, unit)]
        run = bool(fact(cmd, "run", MOVE_FACTS))
        fleeing = unit.data.get("morale") == "fleeing"
        if run and not fleeing:
            reason = can_run(cs, self.edition)
            if reason:
                raise IllegalCommand("FOW 6.4", reason)
            if unit.markers.get("acted") and not unit.markers.get("ran"):
                raise IllegalCommand("A-13", "cannot run after an Other Action taken without the running -1; "
                                             "declare will_run with the action")
        if fact(cmd, "prone", MOVE_FACTS) == "down":
            for c in cs:
                reason = can_go_prone(c, self.edition)
                if reason:
                    raise IllegalCommand("FOW 6.5", f"{c.name}: {reason}")
        fly = fact(cmd, "fly", MOVE_FACTS)
        if fly and not all(c.has("flying") for c in cs):
            raise IllegalCommand("FOW 20 Flying", "only Flying elements take off or land")
        if fact(cmd, "jump", MOVE_FACTS) and not all(c.has("jump") for c in cs):
            raise IllegalCommand("FOW 20 Jump", "only elements with Jump may jump")
        distance_moved = _distance(cmd)
        if fact(cmd, "jump", MOVE_FACTS):
            reach = min((c.param("jump") or 0) for c in cs)
            if distance_moved > reach:
                raise IllegalCommand("FOW 20 Jump", f"a jump reaches at most {reach}\" (the bought distance)")
        whole_move = "landing" if fly == "land" else ("diving or surfacing" if fact(cmd, "submerge", MOVE_FACTS) else "")
        if whole_move and (distance_moved or fact(cmd, "path", MOVE_FACTS)):
            raise IllegalCommand("FOW 20", f"{whole_move} takes the whole move: no distance can be moved")
        if fact(cmd, "submerge", MOVE_FACTS) and not all(c.has("submersible") for c in cs):
            raise IllegalCommand("FOW 20 Submersible", "only Submersible elements dive or surface")
        airborne = any(e.markers.get("airborne") for e in unit.alive)
        distance = distance_moved
        if airborne and not fly and fact(cmd, "path", MOVE_FACTS) and distance < 2 and not all(c.has("hover") for c in cs):
            raise IllegalCommand("FOW 20 Flying", "an airborne element must move at least 2\" (Hover is exempt)")
        if fact(cmd, "in_cohesion", MOVE_FACTS) is False:
            raise IllegalCommand("A-08", "the unit must end its move in cohesion, as one connected group")
        tight = not any(c.has("loose cohesion") or (self.edition == V17 and c.kind == "vehicle") for c in cs)
        turning = turning_problem(
            cs, tight_line=tight and len(cs) > 1
            and (fact(cmd, "formation", MOVE_FACTS) or unit.data.get("formation", "line")) == "line"
            and not unit.data.get("disordered") and not fleeing,
            pivot_start=int(fact(cmd, "pivot_start", MOVE_FACTS) or 0),
            pivot_end=int(fact(cmd, "pivot_end", MOVE_FACTS) or 0),
            turns_during=int(fact(cmd, "turns_during", MOVE_FACTS) or 0),
            line_move=fact(cmd, "line_move", MOVE_FACTS) or "straight",
            about_face=bool(fact(cmd, "about_face", MOVE_FACTS)),
        )
        if turning:
            raise IllegalCommand("FOW 6.3", turning)
        sailing = any(c.has("sailed") for c in cs)
        heading = fact(cmd, "heading", MOVE_FACTS)
        if heading == "into_wind":
            raise IllegalCommand("FOW 20 Sailed", "a Sailed element may never head straight into the wind")
        if sailing and _distance(cmd) and not heading:
            raise IllegalCommand("FOW 20 Sailed", "give the heading relative to the wind (downwind, crosswind, upwind)")
        path = _parse_path(fact(cmd, "path", MOVE_FACTS) or "")
        if path and cs:
            budget = self._allowance(state, unit, cs, cmd, run or fleeing)
            jumping = bool(fact(cmd, "jump", MOVE_FACTS))
            for c in cs:
                try:
                    check_path(path, budget, c, self.edition, running=run or fleeing,
                               airborne=airborne and self.edition == SO, jumping=jumping)
                except IllegalMove as exc:
                    raise IllegalCommand(exc.rule, f"{c.name}: {exc}") from None
        for uid in list(fact(cmd, "contact", MOVE_FACTS) or []) + list(fact(cmd, "near", MOVE_FACTS) or []):
            self._unit(state, uid)
        embark = fact(cmd, "embark", MOVE_FACTS)
        if embark:
            try:
                carrier = state.element(embark)
            except KeyError:
                raise IllegalCommand("FOW 20 Transport", f"there is no element {embark!r}") from None
            if not carrier.alive or not self.combatant(state, carrier).has("transport"):
                raise IllegalCommand("FOW 20 Transport", f"{carrier.name} cannot carry others (needs Transport)")
            if state.unit(carrier.unit).side != unit.side:
                raise IllegalCommand("FOW 20 Transport", "a unit boards a transport of its own side")

    def _allowance(self, state: BattleState, unit: UnitState, cs: list[Combatant], cmd: Any, running: bool) -> Fraction:
        # crewed artillery (MOVE 0) goes with its crew (FOW 16): the movers set the pace
        moves = [self.element_of(state, e).move or 0 for e in self._able(state, unit)]
        move = min((m for m in moves if m > 0), default=0)
        effects = self.effects_on(state, unit.id)
        airborne = any(e.markers.get("airborne") for e in unit.alive)
        return allowance(
            move,
            fast="Fast" in effects,
            slow="Slow" in effects,
            running=running,
            flying_so=airborne and self.edition == SO,
            submerged=any(e.markers.get("submerged") for e in unit.alive),
            formation_change=bool(fact(cmd, "formation_change", MOVE_FACTS)) or (
                bool(fact(cmd, "formation", MOVE_FACTS))
                and fact(cmd, "formation", MOVE_FACTS) != unit.data.get("formation", "line")),
            stand_up=fact(cmd, "prone", MOVE_FACTS) == "up",
            sailed=SAIL_FRACTION.get(fact(cmd, "heading", MOVE_FACTS) or "", Fraction(1))
            if any(c.has("sailed") for c in cs) else Fraction(1),
        )

    def _check_attackers(self, state: BattleState, unit: UnitState, names: list[str] | None, kind: str) -> None:
        done = set(unit.markers.get("attacked", [])) if unit.markers.get("acted") in ("melee", "shoot") else set()
        again = sorted(set(names or []) & done)
        if again:
            raise IllegalCommand("FOW 4.3", f"{', '.join(again)} already attacked this activation")
        if unit.markers.get("acted") and unit.markers.get("acted") != kind:
            raise IllegalCommand("FOW 4.3", "a unit takes one kind of Other Action per activation")
        if names and not self._participants(state, unit, names):
            raise IllegalCommand("FOW 10", "none of the named elements can attack")

    def _check_hidden(self, target: UnitState) -> None:
        if target.markers.get("entrenched"):
            raise IllegalCommand("FOW 20 Entrenched", f"{target.name} is entrenched and hidden until it is revealed")

    def _check_melee(self, state: BattleState, cmd: Any) -> None:
        unit = self._unit(state, cmd.unit)
        target = self._unit(state, cmd.target, "target unit")
        self._check_hidden(target)
        self._check_attackers(state, unit, fact(cmd, "attackers", MELEE_FACTS), "melee")
        if all(e.markers.get("submerged") for e in target.alive) and not any(
            self.combatant(state, e).has("submersible weapon") for e in unit.alive
        ):
            raise IllegalCommand("FOW 20 Submersible", "a submerged target can only be attacked with Submersible Weapon")
        if not fact(cmd, "in_contact", MELEE_FACTS):
            raise IllegalCommand("FOW 10", "melee needs base contact with the target")
        if not fact(cmd, "target_in_front", MELEE_FACTS):
            raise IllegalCommand("FOW 10", "the target must be in the attacker's front facing")
        self._check_aspect(state, target, fact(cmd, "aspect", MELEE_FACTS))

    def _check_aspect(self, state: BattleState, target: UnitState, aspect: str) -> None:
        if aspect != "flank":
            return
        for es in target.alive:
            c = self.combatant(state, es)
            if self._two_facings(c, target):
                raise IllegalCommand("FOW 7", f"{es.name} has two facings (front and rear): no flank attack")

    def _two_facings(self, c: Combatant, unit: UnitState) -> bool:
        if self.edition == SO:
            return c.has("walker")
        if c.has("torso"):
            return True
        loose = c.has("loose cohesion") or c.kind == "vehicle"
        return loose and c.kind == "trooper"

    def _check_shoot(self, state: BattleState, cmd: Any) -> None:
        unit = self._unit(state, cmd.unit)
        target = self._unit(state, cmd.target, "target unit")
        self._check_hidden(target)
        self._check_attackers(state, unit, fact(cmd, "shooters", SHOOT_FACTS), "shoot")
        band = fact(cmd, "range_band", SHOOT_FACTS)
        cs = [self.combatant(state, e) for e in self._participants(state, unit, fact(cmd, "shooters", SHOOT_FACTS))]
        if band == "out":
            longest = max((w.range for c in cs for w in c.ranged), default=0)
            raise IllegalCommand("FOW 11", f"target is out of range (long range is {2 * longest}\")")
        if fact(cmd, "los", SHOOT_FACTS) == "none" and not any(
            c.weapon_has(w, "arcing artillery") for c in cs for w in c.ranged
        ):
            raise IllegalCommand("FOW 11", "no line of sight to the target (only Arcing Artillery ignores it)")
        if not fact(cmd, "in_arc", SHOOT_FACTS) and not any(w.mount == "turret" for c in cs for w in c.ranged):
            raise IllegalCommand("FOW 11", "the target is not in the firing elements' arc")
        if any(e.markers.get("hidden") for e in target.alive) and not fact(cmd, "within_12", SHOOT_FACTS):
            raise IllegalCommand("FOW 20 Stealth", "a hidden Stealth target can only be chosen from 12\" or less")
        if all(e.markers.get("submerged") for e in target.alive) and not any(
            c.weapon_has(w, "submersible weapon") for c in cs for w in c.ranged
        ):
            raise IllegalCommand("FOW 20 Submersible", "a submerged target can only be attacked with Submersible Weapon")
        self._check_aspect(state, target, fact(cmd, "aspect", SHOOT_FACTS))
        chosen = set(fact(cmd, "weapons", SHOOT_FACTS) or [])
        if chosen and self.edition == V17:
            for c in cs:
                picked = [w for w in c.ranged if w.name in chosen]
                if any(w.mount in ("extra", "sponson") for w in picked) and not any(w.mount == "main" or
                                                                                  w.mount == "turret" for w in picked):
                    raise IllegalCommand("FOW 11", f"{c.name}: in v1.7 Extra weapons and Sponsons fire only "
                                                   "alongside the main weapon")
        if not any(self._weapon_problem(state, c, w) is None for c in cs for w in c.ranged):
            problems = {self._weapon_problem(state, c, w) for c in cs for w in c.ranged} - {None}
            raise IllegalCommand("FOW 11", "no weapon can fire: " + "; ".join(sorted(p for p in problems if p)))
        for c in cs:
            if c.has("fire linked"):
                linked = [(w.name, self._weapon_problem(state, c, w) or weapon_problem(w, self._situation(
                    state, unit, target, cmd, SHOOT_FACTS))) for w in c.ranged if w.mount in ("main", "extra")]
                why = fire_linked_problem(linked, chosen, any(e.element in ("", c.key) for e in self._shot_targets(cmd)),
                                          self.edition == SO)
                if why:
                    raise IllegalCommand("FOW 20 Fire Linked", f"{c.name}: {why}")
        for entry in self._shot_targets(cmd):
            if not any(entry.matches(c.key, w.name, entry.shot) and 1 < w.shots >= entry.shot
                       for c in cs for w in c.ranged):
                raise IllegalCommand("A-22", f"no firing Multi-shot weapon has a shot #{entry.shot} "
                                             f"for {entry.element or 'any element'}")
            # the shot's own target must be one the whole command could have shot at
            self._check_shoot(state, attrs.evolve(cmd, target=self._shot_unit(state, entry).id, facts={
                **cmd.facts, **dict(entry.facts), "shot_targets": [],
                "shooters": [entry.element] if entry.element else fact(cmd, "shooters", SHOOT_FACTS)}))

    def _shot_targets(self, cmd: Any) -> list[ShotTarget]:
        choices = {f.name: f.choices for f in SHOOT_FACTS}
        try:
            return [parse_shot_target(t, choices) for t in fact(cmd, "shot_targets", SHOOT_FACTS) or []]
        except ShotError as exc:
            raise IllegalCommand("A-22", str(exc)) from None

    def _shot_unit(self, state: BattleState, entry: ShotTarget) -> UnitState:
        if "/" in entry.target:
            try:
                return state.unit(state.element(entry.target).unit)
            except KeyError:
                raise IllegalCommand("A-22", f"there is no element {entry.target!r}") from None
        return self._unit(state, entry.target, "target unit")

    def _aim_shots(self, state: BattleState, cmd: Any, sit: Situation, target: UnitState, cs: list[Combatant],
                   specs: list[AttackSpec]) -> list[tuple[UnitState, list[AttackSpec]]]:
        """A-22: the rolls grouped by the unit they go to, each shot that `shot_targets`
        names re-declared against its own target with that target's facts."""
        entries = self._shot_targets(cmd) if cmd is not None else []
        batches: dict[str, tuple[UnitState, list[AttackSpec]]] = {target.id: (target, [])}
        numbers = shot_numbers([(s.attacker, s.weapon) for s in specs])
        by_key = {c.key: c for c in cs}
        for spec, shot in zip(specs, numbers):
            c = by_key.get(spec.attacker)
            w = next((w for w in c.ranged if w.index == spec.weapon), None) if c else None
            entry = next((e for e in entries if w is not None and w.shots > 1 and e.matches(c.key, w.name, shot)), None)
            if entry is None:
                batches[target.id][1].append(spec)
                continue
            other = self._shot_unit(state, entry)
            aimed = [state.element(entry.target)] if "/" in entry.target else self._allocation(state, other, None)
            facts = dict(entry.facts)
            shot_sit = attrs.evolve(sit, target_effects=self.effects_on(state, other.id),
                                    **{k: facts[k] for k in ("aspect", "range_band", "los") if k in facts})
            try:
                again = ranged_attacks([c], [self.combatant(state, e) for e in aimed if e.alive], shot_sit,
                                       self.edition, extra_check=lambda _c, arm: None if arm.index == w.index else "-")
            except NoAttack as exc:
                raise IllegalCommand("A-22", str(exc)) from None
            batches.setdefault(other.id, (other, []))[1].append(attrs.evolve(again[shot - 1], target_index=0))
        return list(batches.values())

    def _weapon_problem(self, state: BattleState, c: Combatant, w: Arm) -> str | None:
        es = state.element(c.key)
        unit = state.unit(es.unit)
        crewed = (self.element_of(state, es).move or 0) == 0 and len(unit.elements) > 1
        if crewed and not any(e.alive for e in unit.elements if e is not es):
            return f"{c.name} has no crew left (FOW 16)"
        if int(es.data.get("reload", {}).get(str(w.index), 0)) > 0:
            return f"{w.name} is reloading (Reload: {w.reload})"
        if w.uses is not None and w.uses <= 0:
            return f"{w.name} has no uses left (Exhaustible Weapon)"
        if es.markers.get("submerged") and not c.weapon_has(w, "submersible weapon"):
            return f"{c.name} is submerged (needs Submersible Weapon)"
        return None

    def _check_cast(self, state: BattleState, cmd: Any) -> None:
        unit = self._unit(state, cmd.unit)
        try:
            es = state.element(cmd.element)
        except KeyError:
            raise IllegalCommand("FOW 14", f"there is no element {cmd.element!r}") from None
        if es.unit != unit.id or not es.alive:
            raise IllegalCommand("FOW 14", f"{es.name} is not a living element of {unit.name}")
        spell = _spell(cmd.spell)
        if spell is None:
            raise IllegalCommand("FOW 14.1", f"unknown spell {cmd.spell!r} (spells: {', '.join(catalogue.SPELL_NAMES)})")
        if not self.combatant(state, es).has("magic"):
            raise IllegalCommand("FOW 14", f"{es.name} has no Magic")
        if es.data.get("lockout"):
            raise IllegalCommand("FOW 14", f"{es.name} cannot cast for {es.data['lockout']} more turn(s) after a misfire")
        if spell.name != "Summon":
            self._unit(state, cmd.target, "target unit")
            if not fact(cmd, "within_range", CAST_FACTS):
                raise IllegalCommand("FOW 14", f"the target is out of range ({spell.name} reaches {spell.range}\")")
        if spell.needs_los and fact(cmd, "los", CAST_FACTS) == "none":
            raise IllegalCommand("A-32", f"{spell.name} uses the ranged-attack rules and needs line of sight")

    def _check_attach(self, state: BattleState, cmd: Any) -> None:
        officer = self._unit(state, cmd.unit)
        target = self._unit(state, cmd.target, "target unit")
        if target.side != officer.side:
            raise IllegalCommand("FOW 20 Command", "an officer attaches to a unit of its own side")
        if not all(self.combatant(state, e).has("command") for e in officer.alive):
            raise IllegalCommand("FOW 20 Command", f"{officer.name} is not an officer (needs Command)")

    def _check_entrench(self, state: BattleState, cmd: Any) -> None:
        if not isinstance(fact(cmd, "location", ENTRENCH_FACTS), str):
            raise IllegalCommand("FOW 3.5", "write the Entrenched position as text (a terrain feature or coordinates)")

    def _check_objective(self, state: BattleState, cmd: Any) -> None:
        if cmd.side not in state.side_ids():
            raise IllegalCommand("FOW 18", f"there is no side {cmd.side!r}")
        known = {o.name for o in (self._setup.scenario.objectives if self._setup else ())}
        if cmd.objective not in known:
            raise IllegalCommand("FOW 18", f"the scenario has no objective {cmd.objective!r} "
                                           f"(objectives: {', '.join(sorted(known)) or 'none'})")

    def _check_strategic_victory(self, state: BattleState, cmd: Any) -> None:
        if cmd.side not in state.side_ids():
            raise IllegalCommand("FOW 18", f"there is no side {cmd.side!r}")

    # ------------------------------------------------------------- dice helpers
    def _roll(self, state: BattleState, ctx: Any, die: int, count: int, purpose: str, side: str,
              lucky: ElementState | None = None) -> Resolution:
        faces = yield RollRequest(die=die, count=count, purpose=purpose, side=side)
        faces = tuple(faces)
        if lucky is not None and count == 1 and self._lucky_ready(state, lucky):
            choice = yield Decision(side, f"{lucky.name} is Lucky: re-roll the {faces[0]} ({purpose})?", (
                CommandSpec("reroll", {}, (), "Re-roll (Lucky)"), CommandSpec("keep", {}, (), "Keep the roll")))
            if isinstance(choice, Reroll):
                again = yield RollRequest(die=die, count=1, purpose=f"Lucky re-roll: {purpose}", side=side)
                lucky.data["lucky_turn" if self.edition == V17 else "lucky_used"] = state.turn if self.edition == V17 else True
                best = max(faces[0], tuple(again)[0])
                ctx.emit("lucky", f"{lucky.name} re-rolls with Lucky: {faces[0]} then {tuple(again)[0]}, keeps {best}",
                         element=lucky.id, first=faces[0], second=tuple(again)[0])
                faces = (best,)
        return faces

    def _lucky_ready(self, state: BattleState, es: ElementState) -> bool:
        if not self.options["lucky_prompt"] or not self.combatant(state, es).has("lucky"):
            return False
        if self.edition == V17:
            return es.data.get("lucky_turn") != state.turn
        return not es.data.get("lucky_used")

    # --------------------------------------------------------------- resolution
    def resolve(self, state: BattleState, command: Command, ctx: Any) -> Resolution:
        handler = getattr(self, f"_do_{command.type}", None)
        if handler is None:
            raise IllegalCommand("rules", f"{command.type} has no resolution in Flat Out War")
        result = yield from handler(state, command, ctx)
        return result

    # --- move -------------------------------------------------------------------
    def _do_move(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        unit = state.unit(cmd.unit)
        m = unit.markers
        fleeing = unit.data.get("morale") == "fleeing"
        run = bool(fact(cmd, "run", MOVE_FACTS)) or fleeing
        m["moved"] = True
        if run:
            m["ran"] = True
        distance = _distance(cmd)
        verb = "flees" if fleeing else ("runs" if run else "moves")
        ctx.emit("move", f"{unit.name} {verb}" + (f" {distance}\"" if distance else ""), unit=unit.id, run=run)
        able = self._able(state, unit)
        for es in unit.alive:
            es.markers.pop("jumped", None)
        # stealth: re-hide after a move of 4"+ without firing (A-68)
        if distance >= 4:
            for es in able:
                if self.combatant(state, es).has("stealth") and es.data.get("fired_turn") != state.turn:
                    es.markers["hidden"] = True
        for name, marker, on, kind, words in MARKER_MOVES:
            value = fact(cmd, name, MOVE_FACTS)
            if not value:
                continue
            for es in able:
                if value == on:
                    es.markers[marker] = True
                else:
                    es.markers.pop(marker, None)
            ctx.emit(kind, f"{unit.name} {words[0] if value == on else words[1]}", unit=unit.id)
        if fact(cmd, "aground", MOVE_FACTS):
            boats = [es for es in able if self.combatant(state, es).has("waterborne")]
            for es in boats:  # only Waterborne elements are stuck by shallow water
                es.markers["aground"] = True
            if boats:
                ctx.emit("aground", f"{unit.name} runs aground in shallow water", unit=unit.id)
        formation = fact(cmd, "formation", MOVE_FACTS)
        if formation and formation != unit.data.get("formation", "line"):
            unit.data["formation"] = formation
            ctx.emit("formation", f"{unit.name} forms a {formation} (half its move)", unit=unit.id)
        prone = fact(cmd, "prone", MOVE_FACTS)
        if prone == "down":
            for es in able:
                es.markers["prone"] = True
            ctx.emit("prone", f"{unit.name} goes prone", unit=unit.id)
        elif prone == "up":
            for es in able:
                es.markers.pop("prone", None)
            ctx.emit("stand", f"{unit.name} stands up", unit=unit.id)
        embark = fact(cmd, "embark", MOVE_FACTS)
        if embark:
            for es in able:
                es.markers["carried_by"] = embark
            ctx.emit("embark", f"{unit.name} boards {state.element(embark).name}", unit=unit.id)
        elif fact(cmd, "disembark", MOVE_FACTS):
            for es in able:
                es.markers.pop("carried_by", None)
            ctx.emit("disembark", f"{unit.name} gets off and is placed touching its transport (A-31)", unit=unit.id)
        for uid in fact(cmd, "within_6", MOVE_FACTS) or []:
            other = state.unit(uid)
            if other.side != unit.side:
                self._reveal(state, ctx, other, "an enemy came within 6\"")
        side = unit.side
        if m.get("into_wind"):  # it ended last turn facing into the wind: it turns first
            sides = 4 if self.edition == V17 else 8
            (face,) = yield from self._roll(state, ctx, sides, 1, f"1 x d{sides} turn out of the wind, {unit.name}", side)
            how = "left or right (owner's choice)" if self.edition == V17 else "clockwise"
            ctx.emit("sail_turn", f"{unit.name} first turns {face} compass point(s) {how}", unit=unit.id, points=face)
            m.pop("into_wind", None)
        if fact(cmd, "ends_into_wind", MOVE_FACTS):
            m["into_wind"] = True
        lost_before = {u.id: u.data["lost"] for u in state.units}
        # running through light terrain: base-die test, failure is a hit (A-14 exemptions)
        for eid in fact(cmd, "light_terrain", MOVE_FACTS) or []:
            es = state.element(eid)
            c = self.combatant(state, es)
            if not run or not es.alive or self._ignores_light(c, es):
                continue
            (face,) = yield from self._roll(state, ctx, c.die, 1, f"1 x d{c.die} running through light terrain, {es.name}",
                                            side, es)
            if not succeeds(face, 0):
                ctx.emit("terrain_hit", f"{es.name} stumbles in light terrain ({face}): a hit", element=es.id)
                yield from self._hit(state, ctx, es, Hit(attack_die=c.die, source="running through light terrain"), None)
        if fact(cmd, "jump", MOVE_FACTS):
            for es in able:
                es.markers["jumped"] = True
        for eid in fact(cmd, "jump_heavy", MOVE_FACTS) or []:
            es = state.element(eid)
            c = self.combatant(state, es)
            if not es.alive:
                continue
            (face,) = yield from self._roll(state, ctx, c.die, 1, f"1 x d{c.die} jump in heavy terrain, {es.name}", side, es)
            if not succeeds(face, 0):
                ctx.emit("terrain_hit", f"{es.name} lands badly in heavy terrain ({face}): a hit", element=es.id)
                yield from self._hit(state, ctx, es, Hit(attack_die=c.die, source="jumping in heavy terrain"), None)
        if fleeing and fact(cmd, "left_table", MOVE_FACTS):
            unit.markers["removed"] = True
            unit.data["fled"] = True
            ctx.emit("fled", f"{unit.name} flees off the table and is lost for the game (A-50)", unit=unit.id)
            self._mark_eliminated(state, unit, None)
            self._orphans(state, ctx, None)
            return
        contacts = [state.unit(u) for u in fact(cmd, "contact", MOVE_FACTS) or []]
        if contacts and not fleeing:
            m["charging"] = True
            m["charged"] = contacts[0].id
            ctx.emit("charge", f"{unit.name} charges {', '.join(u.name for u in contacts)}", unit=unit.id,
                     targets=[u.id for u in contacts])
            for defender in contacts:
                yield from self._stand(state, ctx, unit, defender)
        near = [state.unit(u) for u in fact(cmd, "near", MOVE_FACTS) or []]
        yield from self._fear(state, ctx, unit, near)
        yield from self._losses_morale(state, ctx, lost_before)

    def _ignores_light(self, c: Combatant, es: ElementState) -> bool:
        if es.markers.get("airborne"):
            return True
        if self.edition == V17 and (c.has("tracked") or c.has("walker")):
            return True
        return self.edition == SO and c.has("skimmer")

    def _stand(self, state: BattleState, ctx: Any, charger: UnitState, defender: UnitState) -> Resolution:
        """A-18: a charged unit's Stand elements may take a free shot at the charger."""
        shooters = [e for e in self._able(state, defender)
                    if self.combatant(state, e).has("stand") and self.combatant(state, e).ranged]
        if not shooters or not self.options["stand_prompt"] or charger.eliminated:
            return
        choice = yield Decision(defender.side, f"{defender.name} is charged by {charger.name}: take the free Stand shot?", (
            CommandSpec("choose", {"option": "stand"}, (), "Take the Stand shot"),
            CommandSpec("choose", {"option": "decline"}, (), "Decline")))
        if isinstance(choice, Choose) and choice.option == "stand":
            ctx.emit("stand", f"{defender.name} takes a Stand shot at {charger.name}", unit=defender.id)
            sit = Situation(attacker_effects=self.effects_on(state, defender.id),
                            target_effects=self.effects_on(state, charger.id))
            yield from self._fire(state, ctx, defender, charger, shooters, sit, None)

    def _fear(self, state: BattleState, ctx: Any, mover: UnitState, near: list[UnitState]) -> Resolution:
        """Fearsome: an enemy unit that gets within 8" for the first time rolls (A-47)."""
        pairs = state.data.setdefault("fear_pairs", [])
        for other in near:
            if other.side == mover.side or other.eliminated:
                continue
            for scary, scared in ((mover, other), (other, mover)):
                key = f"{scary.id}|{scared.id}"
                if key in pairs or not any(self.combatant(state, e).has("fearsome") for e in scary.alive):
                    continue
                pairs.append(key)
                if scared.eliminated:
                    continue
                yield from self._morale(state, ctx, scared, f"fear of {scary.name}")

    # --- melee ------------------------------------------------------------------
    def _do_melee(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        unit, target = state.unit(cmd.unit), state.unit(cmd.target)
        attackers = self._participants(state, unit, fact(cmd, "attackers", MELEE_FACTS))
        self._take_action(state, unit, cmd, MELEE_FACTS, attackers)
        sit = self._situation(state, unit, target, cmd, MELEE_FACTS)
        lost_before = {u.id: u.data["lost"] for u in state.units}
        ctx.emit("melee", f"{unit.name} attacks {target.name} in melee", unit=unit.id, target=target.id)
        att_cs = [self.combatant(state, e) for e in attackers]
        flame = [c for c in att_cs if any(c.template_of(w) == "flame" for w in c.weapons)]
        plain = [c for c in att_cs if c not in flame]
        if plain:
            try:
                order = self._allocation(state, target, cmd)
                specs = melee_attacks(plain, [self.combatant(state, e) for e in order], sit, self.edition)
            except NoAttack as exc:
                raise IllegalCommand("FOW 10", str(exc)) from None
            yield from self._attack_batch(state, ctx, unit, target, specs, "in melee")
        for c in flame:  # Flame template in melee: every covered element (A-20)
            weapon = next(w for w in c.weapons if c.template_of(w) == "flame")
            covered = self._covered(state, cmd, target)
            yield from self._roll_each(state, ctx, unit, state.element(c.key), weapon, covered, sit, "flame")
        yield from self._trigger(state, ctx, target, unit, "attacked in melee")
        yield from self._losses_morale(state, ctx, lost_before)

    def _trigger(self, state: BattleState, ctx: Any, unit: UnitState, enemy: UnitState, what: str) -> Resolution:
        """[SO] Trigger: the owner says whether an element's written condition is met; if
        so it makes a melee attack on the enemy now, outside its own activation (A-71)."""
        if self.edition != SO or enemy.eliminated:
            return
        ready = [e for e in self._able(state, unit) if self.combatant(state, e).has("trigger")]
        if not ready:
            return
        conditions = "; ".join(f"{e.name}: {_trigger_text(self.element_of(state, e))}" for e in ready)
        choice = yield Decision(unit.side, f"{unit.name} was {what} by {enemy.name}. Is a Trigger condition met? "
                                           f"({conditions})", (
            CommandSpec("choose", {"option": "trigger"}, (), "Trigger: attack now"),
            CommandSpec("choose", {"option": "decline"}, (), "No trigger")))
        if not (isinstance(choice, Choose) and choice.option == "trigger"):
            return
        ctx.emit("trigger", f"{unit.name} triggers an attack on {enemy.name}", unit=unit.id)
        sit = Situation(attacker_effects=self.effects_on(state, unit.id), target_effects=self.effects_on(state, enemy.id))
        try:
            specs = melee_attacks([self.combatant(state, e) for e in ready],
                                  [self.combatant(state, e) for e in enemy.alive], sit, self.edition)
        except NoAttack:
            return
        yield from self._attack_batch(state, ctx, unit, enemy, specs, "(Trigger) in melee")

    def _participants(self, state: BattleState, unit: UnitState, chosen: list[str] | None) -> list[ElementState]:
        """The attacking elements: those named (tight units: the ranks that may fight),
        else every able element that has not attacked yet this activation."""
        # split fire: only while this Other Action is under way (a new one starts afresh)
        done = set(unit.markers.get("attacked", [])) if unit.markers.get("acted") in ("melee", "shoot") else set()
        able = [e for e in self._able(state, unit) if e.id not in done]
        if not able and not chosen:  # every element has attacked: a further action starts afresh
            able = self._able(state, unit)  # (only an activation scheme that allows one offers it)
        return [e for e in able if e.id in set(chosen)] if chosen else able

    def _take_action(self, state: BattleState, unit: UnitState, cmd: Any, specs: tuple,
                     attackers: list[ElementState] | None = None) -> None:
        earlier = unit.markers.get("attacked", []) if unit.markers.get("acted") == cmd.type else []
        if attackers is not None and set(earlier) >= {e.id for e in self._able(state, unit)}:
            earlier = []  # a fresh Other Action (see _participants)
        unit.markers["acted"] = cmd.type if attackers is not None else True
        if attackers is not None:
            unit.markers["attacked"] = sorted({*earlier, *(e.id for e in attackers)})
        if fact(cmd, "will_run", specs):
            unit.markers["ran"] = True
        for es in unit.alive:
            es.data["acted_turn"] = state.turn

    def _allocation(self, state: BattleState, target: UnitState, cmd: Any) -> list[ElementState]:
        """The target's living elements in the order the attacker hands out hits (A-23):
        the `allocate` fact's element ids first, then the rest in unit order."""
        wanted = list(fact(cmd, "allocate", SHOOT_FACTS) or []) if cmd is not None else []
        alive = self._members(state, target)
        first = [e for eid in wanted for e in alive if e.id == eid]
        return first + [e for e in alive if e not in first]

    def _members(self, state: BattleState, unit: UnitState) -> list[ElementState]:
        """The unit's living elements, then its attached officer's: the officer belongs to
        the unit (FOW 20 Command), so hits may be handed to it (A-23)."""
        officer = unit.data.get("officer")
        return unit.alive + (state.unit(officer).alive if officer else [])

    def attack_modifiers(self, state: BattleState, unit: UnitState, target: UnitState) -> tuple[Mod, ...]:
        """Extra modifiers on every attack die of `unit` against `target`: none in Flat
        Out War itself; an activation scheme may hand the acting unit one (the card deck)."""
        value, label = handed_modifier(state, unit.id)
        return (Mod(label, value),) if value else ()

    def _attack_batch(self, state: BattleState, ctx: Any, unit: UnitState, target: UnitState,
                      specs: list[AttackSpec], how: str) -> Resolution:
        """Section 12: dice of the same die and modifier roll together; each success goes
        to its declared target element, or the next one still standing (A-23)."""
        extra = self.attack_modifiers(state, unit, target)
        if extra:
            specs = [attrs.evolve(s, mods=(*s.mods, *extra)) for s in specs]
        for spec in specs:
            if spec.blocked:
                ctx.emit("no_effect", f"{spec.label}: cannot harm {target.name} ({spec.blocked})",
                         attacker=spec.attacker)
        live = [s for s in specs if not s.blocked]
        # the declared order: targets as the specs name them, then the other living elements
        keyed = [state.element(k) for k in dict.fromkeys(s.target_key for s in specs if s.target_key)]
        declared = keyed + [e for e in self._members(state, target) if e not in keyed]
        groups: list[list[AttackSpec]] = []
        for spec in live:
            lucky = self._lucky_ready(state, state.element(spec.attacker))
            for group in groups:
                g = group[0]
                if not lucky and g.die == spec.die and total_of(g.mods) == total_of(spec.mods) and \
                        not self._lucky_ready(state, state.element(g.attacker)):
                    group.append(spec)
                    break
            else:
                groups.append([spec])
        results: list[tuple[AttackSpec, int]] = []
        order = {id(s): i for i, s in enumerate(specs)}
        for group in groups:
            g = group[0]
            mod = total_of(g.mods)
            mods_text = ", ".join(f"{m.label} {m.value:+d}" for m in g.mods)
            purpose = f"{len(group)} x d{g.die} to hit, {unit.name} {how} {target.name}" + (f" ({mods_text})" if mods_text else "")
            lucky_es = state.element(g.attacker) if len(group) == 1 else None
            faces = yield from self._roll(state, ctx, g.die, len(group), purpose, unit.side, lucky_es)
            hits = sum(1 for f in faces if succeeds(f, mod))
            ctx.emit("attack_roll", f"{unit.name} rolls {list(faces)} {how} {target.name}: {hits} hit(s)",
                     unit=unit.id, target=target.id, faces=list(faces), modifier=mod, hits=hits)
            results.extend(zip(group, faces))
        results.sort(key=lambda pair: order[id(pair[0])])  # hits are handed out in declared order
        for spec, face in results:
            if not succeeds(face, total_of(spec.mods)):
                continue
            index = next((i for i, e in enumerate(declared) if e.id == spec.target_key), spec.target_index or 0)
            es = self._hit_target(declared, index)
            if es is None:
                break
            attacker = state.element(spec.attacker)
            if spec.harmless:
                yield from self._harmless_hit(state, ctx, attacker, es, spec)
                continue
            ctx.emit("hit", f"{es.name} ({target.name}) is hit by {spec.label}", element=es.id, attacker=spec.attacker)
            yield from self._hit(state, ctx, es, spec.hit, unit.side)
            self._sticky_mark(state, ctx, attacker, es, spec)

    def _hit_target(self, declared: list[ElementState], index: int) -> ElementState | None:
        """The declared target (an index among the elements alive when the attack was
        declared); if it is already gone, the next living element after it."""
        n = len(declared)
        for k in range(index, index + n):
            es = declared[k % n]
            if es.alive:
                return es
        return None

    def _harmless_hit(self, state: BattleState, ctx: Any, attacker: ElementState, es: ElementState,
                      spec: AttackSpec) -> Resolution:
        c = self.combatant(state, attacker)
        weapon = next((w for w in c.weapons if w.index == spec.weapon), None)
        if c.weapon_has(weapon, "ensnare"):
            es.markers["snared"] = True
            ctx.emit("snared", f"{es.name} is snared by {attacker.name}: it cannot move or act", element=es.id)
        else:  # Capture: A-63: the smaller base die is pulled in (the target on a tie); no free attack
            smaller = attacker if c.die < self.combatant(state, es).die else es
            anchor = es if smaller is attacker else attacker
            own, other = state.unit(attacker.unit), state.unit(es.unit)
            for a, b in ((own, other), (other, own)):
                engaged = a.data.setdefault("engaged", [])
                if b.id not in engaged:
                    engaged.append(b.id)
            ctx.emit("captured", f"{smaller.name} is pulled into base contact with {anchor.name}: "
                                 f"{own.name} and {other.name} are engaged in melee (A-63)",
                     element=es.id, attacker=attacker.id, mover=smaller.id)
        return
        yield  # pragma: no cover

    def _sticky_mark(self, state: BattleState, ctx: Any, attacker: ElementState, es: ElementState,
                     spec: AttackSpec) -> None:
        if self.edition != SO or not es.alive or not self.combatant(state, attacker).has("sticky"):
            return
        die = step(spec.die, -1)
        if die is None:
            return
        es.markers["sticky"] = {"die": die, "start": die, "side": state.unit(attacker.unit).side, "source": attacker.name}
        ctx.emit("sticky", f"{es.name} carries a d{die} Sticky marker from {attacker.name}", element=es.id, die=die)

    # --- recovery -----------------------------------------------------------------
    def _hit(self, state: BattleState, ctx: Any, es: ElementState, hit: Hit, by_side: str | None) -> Resolution:
        """One hit: the recovery roll at once (section 13) and what it does."""
        if not es.alive:
            return
        if es.markers.get("down"):
            ctx.emit("no_effect", f"{es.name} is down (Reliant): the hit has no further effect (A-29)", element=es.id)
            return
        c = self.combatant(state, es)
        side = state.unit(es.unit).side
        plan = recovery_plan(c, hit, self.edition)
        mods = ", ".join(f"{m.label} {m.value:+d}" for m in plan.mods)
        source = f" by {hit.source}" if hit.source else ""
        faces: list[int] = []
        for i, die in enumerate(plan.dice):
            what = f" ({plan.labels[i]})" if plan.labels else ""
            rolled = yield from self._roll(state, ctx, die, 1, f"1 x d{die} recovery{what}, {es.name} hit{source}"
                                           + (f" ({mods})" if mods else ""), side, es)
            faces.extend(rolled)
        result = resolve_recovery(c, plan, faces)
        if result.outcome == "crash":
            ctx.emit("crash", f"{es.name} rolls a natural 1 in the air and crashes", element=es.id)
            (second,) = yield from self._roll(state, ctx, plan.crash_die, 1, f"1 x d{plan.crash_die} crash recovery, {es.name}",
                                              side, es)
            result = resolve_crash(plan, faces, second)
        self._apply_recovery(state, ctx, es, result, by_side)
        if not es.alive:
            yield from self._passengers(state, ctx, es, by_side)

    def _passengers(self, state: BattleState, ctx: Any, transport: ElementState, by_side: str | None) -> Resolution:
        """A destroyed transport: each carried element makes a recovery roll (FOW 13);
        survivors are placed touching where it was (A-31)."""
        for unit in state.units:
            for es in unit.alive:
                if es.markers.get("carried_by") != transport.id:
                    continue
                es.markers.pop("carried_by", None)
                ctx.emit("passenger", f"{es.name} was aboard {transport.name}: recovery roll", element=es.id)
                yield from self._hit(state, ctx, es, Hit(attack_die=0, source=f"{transport.name} destroyed"), by_side)
                if es.alive:
                    ctx.emit("placed", f"{es.name} is placed touching where {transport.name} was (A-31)", element=es.id)

    def _apply_recovery(self, state: BattleState, ctx: Any, es: ElementState, result: Any, by_side: str | None) -> None:
        kind = result.outcome
        shown = ", ".join(map(str, result.faces))
        if kind in ("survived", "landed"):
            if kind == "landed":
                es.markers.pop("airborne", None)
            ctx.emit("recovered", f"{es.name} recovers ({shown})" + (" and has landed" if kind == "landed" else ""),
                     element=es.id, faces=list(result.faces))
        elif kind == "weapons_lost":
            lost = es.data.setdefault("lost_weapons", [])
            element = self.element_of(state, es)
            names = [element.weapons[i].name for i in result.lost_weapons]
            lost.extend(result.lost_weapons)
            ctx.emit("weapon_lost", f"{es.name} loses {', '.join(names)} ({shown})", element=es.id,
                     weapons=list(result.lost_weapons))
        elif kind == "hit_point_lost":
            es.data["hp"] = result.hit_points_left
            ctx.emit("hit_point_lost", f"{es.name} loses a Hit Point ({shown}); {result.hit_points_left} left",
                     element=es.id)
        elif kind == "die_stepped":
            es.data["die"] = result.new_die
            ctx.emit("resilient", f"{es.name} is Resilient: its die drops to d{result.new_die} ({shown})", element=es.id)
        elif kind == "down":
            es.markers["down"] = True
            ctx.emit("down", f"{es.name} is Reliant: down, it rolls again next turn ({shown})", element=es.id)
        else:
            ctx.emit("destroyed", f"{es.name} is destroyed ({shown})", element=es.id)
            self._remove(state, ctx, es, by_side)
        if kind not in ("survived", "landed") and es.markers.pop("sticky", None):
            ctx.emit("sticky_gone", f"The Sticky marker on {es.name} goes with the failed recovery", element=es.id)

    def _remove(self, state: BattleState, ctx: Any, es: ElementState, by_side: str | None) -> None:
        es.alive = False
        es.markers.pop("sticky", None)
        unit = state.unit(es.unit)
        unit.data["lost"] = unit.data.get("lost", 0) + 1
        if unit.eliminated and unit.data.get("attached_to"):
            host = state.unit(unit.data["attached_to"])
            ctx.emit("officer_lost", f"{host.name} loses its officer {es.name}: no more +2 on morale", unit=host.id)
        if unit.eliminated:
            self._mark_eliminated(state, unit, by_side)
        self._orphans(state, ctx, by_side)

    def _orphans(self, state: BattleState, ctx: Any, by_side: str | None) -> None:
        """A-29: a Reliant element goes once everything it relies on has left the game."""
        in_game = {e.id for u in state.units if not u.markers.get("removed") for e in u.alive}
        for es in [e for u in state.units for e in u.alive if e.data.get("reliant_on")]:
            if es.alive and orphaned(es.data["reliant_on"], in_game):
                ctx.emit("destroyed", f"{es.name} is removed: what it relies on has left the game (A-29)",
                         element=es.id, reliant=True)
                self._remove(state, ctx, es, by_side)

    def _mark_eliminated(self, state: BattleState, unit: UnitState, by_side: str | None) -> None:
        if by_side and by_side != unit.side:
            unit.data["eliminated_by"] = by_side
        officer = unit.data.get("officer")
        if officer:  # the attached officer is free again
            state.unit(officer).data["attached_to"] = ""
            unit.data["officer"] = ""
        host = unit.data.get("attached_to")
        if host:  # a lost officer no longer leads its unit
            state.unit(host).data["officer"] = ""
            unit.data["attached_to"] = ""

    # --- morale ---------------------------------------------------------------------
    def _losses_morale(self, state: BattleState, ctx: Any, lost_before: dict[str, int]) -> Resolution:
        """One casualty morale roll per unit whose losses passed a new 25% threshold."""
        for unit in list(state.units):
            before = lost_before.get(unit.id, 0)
            if unit.eliminated or not M.casualty_trigger(before, unit.data.get("lost", 0), unit.data.get("start", 0)):
                continue
            yield from self._morale(state, ctx, unit, "casualties")

    def _morale_roll(self, state: BattleState, unit: UnitState, rally: bool) -> tuple[M.MoraleRoll | None, Any]:
        cs = [(e, self.combatant(state, e)) for e in unit.alive]
        officer = None
        officer_es = None
        if unit.data.get("officer"):
            o = state.unit(unit.data["officer"])
            if o.alive:
                officer_es = o.alive[0]
                officer = self.combatant(state, officer_es)
        rank = [(e, c) for e, c in cs]
        if officer is None:
            leaders = [(e, c) for e, c in cs if c.has("command")]
            if leaders and len(leaders) < len(cs):  # an officer inside the unit leads it
                officer_es, officer = leaders[0]
                rank = [(e, c) for e, c in cs if e is not officer_es]
        roll = M.morale_roll([c for _, c in rank], unit.data.get("start", 0), unit.data.get("lost", 0),
                             edition=self.edition, officer=officer, effects=self.effects_on(state, unit.id), rally=rally)
        roller = None
        if roll is not None:
            everyone = rank + ([(officer_es, officer)] if officer is not None else [])
            roller = next((e for e, c in everyone if c.name == roll.roller and c.die == roll.die), None)
        return roll, roller

    def _morale(self, state: BattleState, ctx: Any, unit: UnitState, reason: str, rally: bool = False) -> Resolution:
        roll, roller = self._morale_roll(state, unit, rally)
        if roll is None:
            ctx.emit("no_morale", f"{unit.name} never takes morale rolls (officers and Unfeeling)", unit=unit.id)
            return True
        mods = ", ".join(f"{m.label} {m.value:+d}" for m in roll.mods)
        what = "rally" if rally else "morale"
        (face,) = yield from self._roll(state, ctx, roll.die, 1, f"1 x d{roll.die} {what}, {unit.name} ({reason})"
                                        + (f" ({mods})" if mods else ""), unit.side, roller)
        passed = roll.passes(face)
        old = unit.data.get("morale", "steady")
        if rally:
            unit.data["morale"] = M.after_rally(old, passed)
        else:
            unit.data["morale"] = M.after_morale(old, passed)
        verdict = "passes" if passed else "fails"
        ctx.emit(f"{what}_{'pass' if passed else 'fail'}",
                 f"{unit.name} {verdict} its {what} roll ({face} {roll.modifier:+d})"
                 + ("" if passed or rally else ": broken, it flees when next activated"),
                 unit=unit.id, face=face, modifier=roll.modifier, reason=reason)
        if not passed:
            yield from self._witnesses(state, ctx, unit)
        return passed

    def _witnesses(self, state: BattleState, ctx: Any, failed: UnitState) -> Resolution:
        """Seeing panic (A-45): units within 8" with LoS roll, one roll per failure seen."""
        if not self.options["ask_witnesses"]:
            return
        others = [u for u in state.units if u.id != failed.id and not u.eliminated
                  and u.data.get("morale") in ("steady", "rallied")]
        if not others:
            return
        answer = yield Decision(failed.side, f"Which units within 8\" with line of sight saw {failed.name} fail? "
                                             "(report none if no unit saw it)",
                                (CommandSpec("report", {}, (), "Report the units that saw it"),))
        for uid in getattr(answer, "units", []):
            try:
                other = state.unit(uid)
            except KeyError:
                raise IllegalCommand("FOW 15.1", f"there is no unit {uid!r}") from None
            if other in others:
                yield from self._morale(state, ctx, other, f"saw {failed.name} fail")

    def _do_rally(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        unit = state.unit(cmd.unit)
        unit.markers["rally_tried"] = True
        yield from self._morale(state, ctx, unit, "rally", rally=True)

    # --- shooting ---------------------------------------------------------------------
    def _covered(self, state: BattleState, cmd: Any, target: UnitState) -> list[ElementState]:
        ids = fact(cmd, "covered", SHOOT_FACTS) or []
        if not ids:
            return [target.alive[0]] if target.alive else []
        out = []
        for eid in ids:
            try:
                out.append(state.element(eid))
            except KeyError:
                raise IllegalCommand("FOW 17", f"there is no element {eid!r}") from None
        return [e for e in out if e.alive]

    def _do_shoot(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        unit, target = state.unit(cmd.unit), state.unit(cmd.target)
        shooters = self._participants(state, unit, fact(cmd, "shooters", SHOOT_FACTS))
        self._take_action(state, unit, cmd, SHOOT_FACTS, shooters)
        sit = self._situation(state, unit, target, cmd, SHOOT_FACTS)
        ctx.emit("shoot", f"{unit.name} shoots at {target.name}", unit=unit.id, target=target.id)
        names = set(fact(cmd, "weapons", SHOOT_FACTS) or [])
        yield from self._fire(state, ctx, unit, target, shooters, sit, cmd, names)

    def _fire(self, state: BattleState, ctx: Any, unit: UnitState, target: UnitState, shooters: list[ElementState],
              sit: Situation, cmd: Any, names: set[str] | None = None) -> Resolution:
        lost_before = {u.id: u.data["lost"] for u in state.units}
        cs = [self.combatant(state, e) for e in shooters]

        def extra(c: Combatant, w: Arm) -> str | None:
            if names and w.name not in names:
                return "not chosen"
            if c.template_of(w) or c.weapon_has(w, "linear artillery"):
                return "fires on its own procedure"
            return self._weapon_problem(state, c, w)

        order = self._allocation(state, target, cmd)
        targets = [self.combatant(state, e) for e in order]
        specs: list[AttackSpec] = []
        try:
            specs = ranged_attacks(cs, targets, sit, self.edition, extra_check=extra)
        except NoAttack:
            specs = []
        fired = {(s.attacker, s.weapon) for s in specs}
        special = [(c, w) for c in cs for w in c.ranged
                   if (c.template_of(w) or c.weapon_has(w, "linear artillery"))
                   and (not names or w.name in names) and self._weapon_problem(state, c, w) is None]
        if not specs and not special:
            raise IllegalCommand("FOW 11", "no weapon can fire at this target")
        for aimed_at, batch in self._aim_shots(state, cmd, sit, target, cs, specs):
            if batch:
                yield from self._attack_batch(state, ctx, unit, aimed_at, batch, "shooting at")
        for c, w in special:
            fired.add((c.key, w.index))
            yield from self._special_fire(state, ctx, unit, target, state.element(c.key), w, sit, cmd)
        for key, index in fired:
            es = state.element(key)
            es.data["fired_turn"] = state.turn
            es.markers.pop("hidden", None)  # A-68: firing reveals a Stealth element
            w = next((w for w in self.combatant(state, es).weapons if w.index == index), None) if es.alive else None
            if w is None:
                continue
            if w.uses is not None:
                es.data.setdefault("uses", {})[str(index)] = w.uses - 1
            if w.reload:
                es.data.setdefault("reload", {})[str(index)] = w.reload
        yield from self._losses_morale(state, ctx, lost_before)

    def _special_fire(self, state: BattleState, ctx: Any, unit: UnitState, target: UnitState, es: ElementState,
                      w: Arm, sit: Situation, cmd: Any) -> Resolution:
        """Templates, Inaccurate scatter and Linear Artillery bounce (section 17)."""
        c = self.combatant(state, es)
        template = c.template_of(w)
        if template == "flame":
            yield from self._roll_each(state, ctx, unit, es, w, self._covered(state, cmd, target), sit, "flame")
            return
        if not target.alive:
            return
        marker = target.alive[0]
        tc = self.combatant(state, marker)
        mods = ranged_modifiers(c, w, tc, sit, self.edition)
        if heavy_armour_blocks(c, "ranged", w.die, tc, self.edition, w) and not template:
            ctx.emit("no_effect", f"{es.name}'s {w.name} cannot harm {marker.name} (Heavy Armour, A-19)", element=es.id)
            return
        (face,) = yield from self._roll(state, ctx, w.die, 1, f"1 x d{w.die} to hit, {es.name}'s {w.name} aiming at "
                                        f"{marker.name}" + _mods_text(mods), unit.side, es)
        hit = succeeds(face, total_of(mods))
        ctx.emit("attack_roll", f"{es.name}'s {w.name} rolls {face}: {'on target' if hit else 'misses'}",
                 element=es.id, faces=[face], hits=int(hit))
        if c.weapon_has(w, "linear artillery"):
            if hit:
                yield from self._land(state, ctx, unit, es, w, target, cmd, marker, sit, template)
            (b,) = yield from self._roll(state, ctx, 6, 1, f"1 x d6 {'bounce' if hit else 'overshoot'}, {w.name}", unit.side)
            inches = bounce(b)
            if inches is None:
                ctx.emit("bounce", f"{w.name}'s shot stops ({b})", element=es.id)
                return
            ctx.emit("bounce", f"{w.name}'s shot {'bounces' if hit else 'overshoots'} {inches}\" ({b})", element=es.id)
            if not hit and self.options["linear_miss"] == "table_again":
                # [SO] text: the marker moves, then the table is rolled again for stop or bounce
                (b,) = yield from self._roll(state, ctx, 6, 1, f"1 x d6 bounce after the overshoot, {w.name}", unit.side)
                inches = bounce(b)
                if inches is None:
                    ctx.emit("bounce", f"{w.name}'s shot stops ({b})", element=es.id)
                    return
                ctx.emit("bounce", f"{w.name}'s shot bounces {inches}\" ({b})", element=es.id)
            path = yield from self._report(state, unit.side, f"Which elements lie along the {inches}\" path of {w.name}'s shot?")
            yield from self._roll_each(state, ctx, unit, es, w, path, sit, "bounce path")
            return
        if hit:
            yield from self._land(state, ctx, unit, es, w, target, cmd, marker, sit, template)
            return
        if c.weapon_has(w, "inaccurate"):
            (d,) = yield from self._roll(state, ctx, 4, 1, f"1 x d4 scatter, {w.name}", unit.side)
            ctx.emit("scatter", f"{w.name}'s marker scatters {scatter(d)} ({d})", element=es.id)
            under = yield from self._report(state, unit.side, f"Which elements are under {w.name}'s scattered "
                                                              f"{'template' if template else 'marker'}?")
            yield from self._roll_each(state, ctx, unit, es, w, under, sit, "scatter")

    def _land(self, state: BattleState, ctx: Any, unit: UnitState, es: ElementState, w: Arm, target: UnitState,
              cmd: Any, marker: ElementState, sit: Situation, template: str | None) -> Resolution:
        c = self.combatant(state, es)
        if not template:
            ctx.emit("hit", f"{marker.name} is hit by {es.name}'s {w.name}", element=marker.id)
            yield from self._hit(state, ctx, marker, hit_from(c, w.die, self.edition, weapon=w, source=w.name), unit.side)
            return
        covered = self._covered(state, cmd, target) if cmd is not None else [marker]
        if marker not in covered:
            covered = [marker, *covered]
        cov = [Covered(e.unit, e.id, state.unit(e.unit).side == unit.side) for e in covered]
        plan = template_plan(cov, mode=self.options["template_mode"], friendly_fire=self.options["template_friendly_fire"],
                             aimed_at=Covered(marker.unit, marker.id, False))
        for item in plan.auto_hits:
            victim = state.element(item.element)
            if heavy_armour_blocks(c, "ranged", w.die, self.combatant(state, victim), self.edition, w):
                ctx.emit("no_effect", f"{victim.name} is not harmed (Heavy Armour, A-19)", element=victim.id)
                continue
            ctx.emit("hit", f"{victim.name} is under the {template}\" template: a hit", element=victim.id)
            yield from self._hit(state, ctx, victim, hit_from(c, w.die, self.edition, weapon=w, source=w.name), unit.side)
        yield from self._roll_each(state, ctx, unit, es, w, [state.element(i.element) for i in plan.rolled], sit, "template")

    def _report(self, state: BattleState, side: str, prompt: str) -> Resolution:
        answer = yield Decision(side, prompt, (CommandSpec("report", {}, (), "Report the elements"),))
        out = []
        for eid in getattr(answer, "elements", []):
            try:
                out.append(state.element(eid))
            except KeyError:
                raise IllegalCommand("FOW 17", f"there is no element {eid!r}") from None
        return [e for e in out if e.alive]

    def _roll_each(self, state: BattleState, ctx: Any, unit: UnitState, es: ElementState, w: Arm,
                   victims: list[ElementState], sit: Situation, how: str) -> Resolution:
        """One roll of the weapon die against each covered element, with its own modifiers."""
        c = self.combatant(state, es)
        for victim in victims:
            if not victim.alive:
                continue
            vc = self.combatant(state, victim)
            vsit = attrs.evolve(sit, target_effects=self.effects_on(state, victim.unit))
            mods = (ranged_modifiers(c, w, vc, vsit, self.edition) if w.kind == "ranged"
                    else melee_modifiers(c, vc, vsit, self.edition))
            kind = "ranged" if w.kind == "ranged" else "melee"
            if heavy_armour_blocks(c, kind, w.die, vc, self.edition, w):
                ctx.emit("no_effect", f"{victim.name} is not harmed ({how}: Heavy Armour, A-19)", element=victim.id)
                continue
            (face,) = yield from self._roll(state, ctx, w.die, 1, f"1 x d{w.die} {how} attack on {victim.name}"
                                            + _mods_text(mods), unit.side, es)
            if succeeds(face, total_of(mods)):
                ctx.emit("hit", f"{victim.name} is hit ({how}, {face})", element=victim.id)
                yield from self._hit(state, ctx, victim, hit_from(c, w.die, self.edition, weapon=w, source=w.name),
                                     unit.side)
            else:
                ctx.emit("miss", f"{victim.name} is missed ({how}, {face})", element=victim.id)

    # --- spells -------------------------------------------------------------------------
    def _do_cast(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        unit = state.unit(cmd.unit)
        es = state.element(cmd.element)
        spell = _spell(cmd.spell)
        assert spell is not None
        self._take_action(state, unit, cmd, CAST_FACTS)
        target = state.unit(cmd.target) if spell.name != "Summon" else None
        caster = self.combatant(state, es)
        sit = self._situation(state, unit, target, cmd, CAST_FACTS)
        lost_before = {u.id: u.data["lost"] for u in state.units}
        attack = spell.name in ("Zap", "Fireball")
        tgt_c = self.combatant(state, target.alive[0]) if (attack and target and target.alive) else None
        mods = spell_modifiers(caster, spell.difficulty, sit, self.edition, target=tgt_c, ranged_attack=attack)
        if attack and tgt_c is not None and heavy_armour_blocks(caster, "spell", caster.die, tgt_c, self.edition) \
                and spell.name == "Zap":
            ctx.emit("no_effect", f"{es.name}'s Zap cannot harm {target.name} (Heavy Armour, A-19)",  # type: ignore[union-attr]
                     element=es.id)
            return
        on = f" on {target.name}" if target else ""
        (face,) = yield from self._roll(state, ctx, caster.die, 1, f"1 x d{caster.die} casting {spell.name}{on}, {es.name}"
                                        + _mods_text(mods), unit.side, es)
        result = resolve_cast(face, mods)
        if result.misfire:
            ctx.emit("misfire", f"{es.name} misfires {spell.name} (a natural 1)", element=es.id)
            (mface,) = yield from self._roll(state, ctx, caster.die, 1, f"1 x d{caster.die} misfire, {es.name}", unit.side, es)
            mis = resolve_misfire(caster, mface, self.edition)
            ctx.emit("misfire_result", f"{es.name}: {mis.text} ({mis.total})", element=es.id, lockout=mis.lockout)
            if mis.killed:
                self._remove(state, ctx, es, None)
            elif mis.lockout:
                es.data["lockout"] = mis.lockout
                es.data["lockout_fresh"] = True
            yield from self._losses_morale(state, ctx, lost_before)
            return
        if not result.works:
            ctx.emit("spell_fail", f"{es.name} fails to cast {spell.name} ({result.total})", element=es.id)
            return
        ctx.emit("spell", f"{es.name} casts {spell.name}{on} ({result.total})", element=es.id, spell=spell.name)
        kind = SPELL_EFFECTS[spell.name].kind
        if kind in ("unit_effect", "flight"):
            assert target is not None
            state.effects = [e for e in state.effects if not (e.kind == spell.name and e.target == target.id)]  # A-35
            state.effects.append(Effect(id=f"{spell.name.lower()}-{target.id}-{state.turn}", kind=spell.name,
                                        target=target.id, remaining=int(spell.duration), clock="player_turn",
                                        source=es.id, data={"fresh": True}))
        elif spell.name == "Zap":
            assert target is not None
            victim = target.alive[0] if target.alive else None
            if victim is not None:
                ctx.emit("hit", f"{victim.name} is zapped", element=victim.id)
                yield from self._hit(state, ctx, victim, hit_from(caster, caster.die, self.edition, zap=True, source="Zap"),
                                     unit.side)
        elif spell.name == "Fireball":
            assert target is not None
            for victim in self._covered(state, cmd, target):  # A-38: one hit each, friend or foe
                vc = self.combatant(state, victim)
                if heavy_armour_blocks(caster, "spell", caster.die, vc, self.edition):
                    ctx.emit("no_effect", f"{victim.name} is not harmed by the Fireball (Heavy Armour, A-19)", element=victim.id)
                    continue
                ctx.emit("hit", f"{victim.name} is caught in the Fireball", element=victim.id)
                yield from self._hit(state, ctx, victim, hit_from(caster, caster.die, self.edition, source="Fireball"),
                                     unit.side)
        elif spell.name == "Summon":
            die = summon_die(result.total)
            uid = f"summoned-{len([u for u in state.units if u.data.get('summon_die')]) + 1}"
            new = UnitState(id=uid, name=f"Summoned d{die} trooper", side=unit.side)
            new.elements.append(ElementState(id=f"{uid}/trooper", name="Summoned trooper", unit=uid))
            new.elements[0].data.update(die=die, hp=0, lost_weapons=[], uses={}, reload={})
            new.data.update(start=1, lost=0, morale="steady", disordered=False, cost=Fraction(0), officer="",
                            attached_to="", summon_die=die)
            state.units.append(new)
            ctx.emit("summon", f"A d{die} trooper appears beside {es.name} (its own unit, worth 0 VP)", unit=uid, die=die)
        elif spell.name == "Teleport":
            assert target is not None
            ctx.emit("teleport", f"{target.name} is teleported: place it within 24\" of the caster, clear of enemies "
                                 "and impassable terrain (A-40)", unit=target.id)
        yield from self._losses_morale(state, ctx, lost_before)

    def _do_switch(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        """[SO] Activate: switching the linked attribute uses the Other Action (A-61)."""
        unit = state.unit(cmd.unit)
        es = state.element(cmd.element)
        unit.markers["acted"] = True
        links = self._traits.get(es.id, (None, activate_links(self.element_of(state, es))))[1]
        on = es.data.get("switched_on", [])
        now = [] if on else list(links)
        es.data["switched_on"] = now
        names = ", ".join(links) or "nothing"
        ctx.emit("switch", f"{es.name} switches {names} {'on' if now else 'off'}", element=es.id, on=bool(now))
        return
        yield  # pragma: no cover

    # --- officers and scenario ---------------------------------------------------------------
    def _do_attach(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        officer, target = state.unit(cmd.unit), state.unit(cmd.target)
        officer.data["attached_to"] = target.id
        target.data["officer"] = officer.id
        officer.markers["acted"] = True
        ctx.emit("attach", f"{officer.name} attaches to {target.name}", unit=officer.id, target=target.id)
        return
        yield  # pragma: no cover

    def _do_detach(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        unit = state.unit(cmd.unit)
        officer = state.unit(unit.data["officer"])
        officer.data["attached_to"] = ""
        unit.data["officer"] = ""
        ctx.emit("detach", f"{officer.name} detaches from {unit.name}", unit=officer.id)
        return
        yield  # pragma: no cover

    def _do_objective(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        done = state.data.setdefault("objectives", {}).setdefault(cmd.side, [])
        if cmd.objective not in done:
            done.append(cmd.objective)
        ctx.emit("objective", f"{state.side(cmd.side).name} achieves objective {cmd.objective}", side=cmd.side)
        return
        yield  # pragma: no cover

    def _do_strategic_victory(self, state: BattleState, cmd: Any, ctx: Any) -> Resolution:
        state.data["strategic_winner"] = cmd.side
        state.over = True
        state.end_reason = f"strategic victory: {state.side(cmd.side).name}"
        ctx.emit("strategic_victory", f"{state.side(cmd.side).name} completes its objective: strategic victory",
                 side=cmd.side)
        return
        yield  # pragma: no cover

    # ------------------------------------------------------------------ clocks
    def on_round_start(self, state: BattleState, ctx: Any) -> Resolution:
        """A-39: with any Sailed element in play, the engine rolls where the wind comes from."""
        for unit in entrench.waiting(state):  # setup 3.5: the owner writes it down, hidden
            answer = yield Decision(unit.side, f"{unit.name} is Entrenched: write down where it is (the other side "
                                               "will not see it)", (CommandSpec("entrench", {"unit": unit.id}, ENTRENCH_FACTS,
                                                                               "Record the hidden position"),),
                                    data={"hidden": True, "unit": unit.id})
            entrench.record(state, unit, str(fact(answer, "location", ENTRENCH_FACTS)))
            ctx.emit("entrenched", f"{state.side(unit.side).name} writes down where {unit.name} is entrenched",
                     unit=unit.id)
        if state.round == 1:
            for es in (e for u in state.units for e in u.elements if e.data.get("reliant_unknown")):
                ctx.emit("note", f"{es.name} is Reliant on {es.data['reliant_unknown']!r}, which is not on its side: "
                                 "it is never removed that way", element=es.id)
        if "wind" in state.data or not any(
            self.combatant(state, e).has("sailed") for u in state.units for e in u.alive
        ):
            return
        (face,) = yield RollRequest(8, 1, "1 x d8 wind direction (1 N, 2 NE ... 8 NW)")
        state.data["wind"] = COMPASS[face - 1]
        ctx.emit("wind", f"The wind blows from the {COMPASS[face - 1]} ({face})", wind=COMPASS[face - 1])

    def on_activation_start(self, state: BattleState, unit_id: str, ctx: Any) -> Resolution:
        unit = state.unit(unit_id)
        self._reveal(state, ctx, unit, "its owner reveals it and it acts at once")
        for key in ("moved", "ran", "charging", "charged", "acted", "attacked", "rally_tried"):  # per activation
            unit.markers.pop(key, None)
        morale = unit.data.get("morale", "steady")
        if morale == "broken":
            unit.data["morale"] = M.on_activation(morale)
            tight = not any(self.combatant(state, e).has("loose cohesion")
                            or (self.edition == V17 and self.combatant(state, e).kind == "vehicle") for e in unit.alive)
            unit.data["disordered"] = tight
            ctx.emit("flee", f"{unit.name} is broken and flees" + (" in disorder" if tight else ""), unit=unit.id)
        elif morale == "rallied":
            unit.data["morale"] = M.on_activation(morale)
            if unit.data.get("disordered"):
                unit.markers["moved"] = True  # reforming takes all its movement
                unit.data["disordered"] = False
                ctx.emit("reform", f"{unit.name} reforms (its whole move) and is steady again", unit=unit.id)
            else:
                ctx.emit("reform", f"{unit.name} is steady again", unit=unit.id)
        side = unit.side
        for es in list(unit.alive):
            if es.markers.get("snared"):  # A-64: a recovery roll frees it
                c = self.combatant(state, es)
                (face,) = yield from self._roll(state, ctx, c.die, 1, f"1 x d{c.die} escape (Snared), {es.name}", side, es)
                if succeeds(face, total_of(recovery_plan(c, None, self.edition).mods)):
                    es.markers.pop("snared", None)
                    ctx.emit("freed", f"{es.name} breaks free ({face})", element=es.id)
                else:
                    ctx.emit("snared", f"{es.name} stays snared ({face})", element=es.id)
            if es.markers.get("aground"):
                (face,) = yield from self._roll(state, ctx, 6, 1, f"1 x d6 run aground, {es.name} (6 frees it)", side)
                if face == 6:
                    es.markers.pop("aground", None)
                    ctx.emit("afloat", f"{es.name} floats free (6)", element=es.id)
                else:
                    ctx.emit("aground", f"{es.name} stays aground ({face})", element=es.id)

    def _reveal(self, state: BattleState, ctx: Any, unit: UnitState, why: str) -> None:
        where = entrench.reveal(state, unit)
        if where is not None:
            ctx.emit("reveal", f"{unit.name} is revealed ({why})" + (f": entrenched at {where}" if where else ""),
                     unit=unit.id, location=where)

    def on_turn_start(self, state: BattleState, side: str, ctx: Any) -> Resolution:
        lost_before = {u.id: u.data["lost"] for u in state.units}
        for unit in list(state.units):
            for es in list(unit.alive):
                if unit.side == side and es.markers.get("down"):  # A-29: Reliant tries again
                    c = self.combatant(state, es)
                    (face,) = yield from self._roll(state, ctx, c.die, 1, f"1 x d{c.die} recovery (Reliant), {es.name}",
                                                    side, es)
                    if succeeds(face, total_of(recovery_plan(c, None, self.edition).mods)):
                        es.markers.pop("down", None)
                        ctx.emit("up", f"{es.name} is back in action ({face})", element=es.id)
                    else:
                        ctx.emit("down", f"{es.name} stays down ({face})", element=es.id)
                sticky = es.markers.get("sticky")
                if sticky and sticky.get("side") == side and es.alive:
                    yield from self._sticky_follow_up(state, ctx, es, sticky)
        yield from self._losses_morale(state, ctx, lost_before)

    def _sticky_follow_up(self, state: BattleState, ctx: Any, es: ElementState, sticky: dict[str, Any]) -> Resolution:
        die = int(sticky["die"])
        (face,) = yield from self._roll(state, ctx, die, 1, f"1 x d{die} Sticky follow-up on {es.name}", sticky["side"])
        if not succeeds(face, 0):
            ctx.emit("sticky_miss", f"The Sticky marker on {es.name} misses ({face}) and stays (A-70)", element=es.id)
            return
        ctx.emit("hit", f"The Sticky marker hits {es.name} ({face})", element=es.id)
        yield from self._hit(state, ctx, es, Hit(attack_die=die, source=f"Sticky ({sticky['source']})"), sticky["side"])
        if es.alive and es.markers.get("sticky"):
            smaller = step(die, -1)
            if smaller is None:
                es.markers.pop("sticky", None)
                ctx.emit("sticky_gone", f"The Sticky marker on {es.name} is spent", element=es.id)
            else:
                es.markers["sticky"] = {**sticky, "die": smaller}

    def on_turn_end(self, state: BattleState, side: str, ctx: Any) -> Resolution:
        # spell durations: every player-turn counts, from the one after the casting (A-07)
        lost_before = {u.id: u.data["lost"] for u in state.units}
        keep: list[Effect] = []
        expired: list[Effect] = []
        for effect in state.effects:
            if effect.clock != "player_turn":
                keep.append(effect)
                continue
            if effect.data.get("fresh"):
                effect.data["fresh"] = False
                keep.append(effect)
                continue
            effect.remaining -= 1
            (expired if effect.remaining <= 0 else keep).append(effect)
        state.effects = keep
        for effect in expired:
            unit = state.unit(effect.target)
            ctx.emit("expired", f"{effect.kind} on {unit.name} ends", unit=unit.id, spell=effect.kind)
            if effect.kind == "Fly":  # A-30: still airborne: a recovery roll or it crashes
                for es in list(unit.alive):
                    if es.markers.get("airborne") and not self._static_has(state, es, "flying"):
                        c = self.combatant(state, es)
                        (face,) = yield from self._roll(state, ctx, c.die, 1, f"1 x d{c.die} Fly ends in the air, {es.name}",
                                                        unit.side, es)
                        es.markers.pop("airborne", None)
                        if succeeds(face, total_of(recovery_plan(c, None, self.edition).mods)):
                            ctx.emit("landed", f"{es.name} lands safely ({face})", element=es.id)
                        else:
                            ctx.emit("destroyed", f"{es.name} crashes ({face})", element=es.id)
                            self._remove(state, ctx, es, None)
        # owner-turn clocks: misfire lockouts and reload counters of this side's elements
        for unit in state.units:
            if unit.side != side:
                continue
            for es in unit.alive:
                if es.data.get("lockout") and not es.data.pop("lockout_fresh", False):
                    es.data["lockout"] -= 1  # owner-turns after the misfire's own turn
                reload = es.data.get("reload", {})
                if reload:
                    element = self.element_of(state, es)
                    c = self.combatant(state, es)
                    for key, left in list(reload.items()):
                        arm = next((w for w in c.weapons if w.index == int(key)), None)
                        x = arm.reload if arm else 0
                        new = tick_reload(left, es.data.get("acted_turn") == state.turn,
                                          es.data.get("fired_turn") == state.turn, x)
                        if new <= 0:
                            del reload[key]
                            ctx.emit("reloaded", f"{es.name}'s {element.weapons[int(key)].name} is reloaded", element=es.id)
                        else:
                            reload[key] = new
        yield from self._losses_morale(state, ctx, lost_before)

    def _static_has(self, state: BattleState, es: ElementState, name: str) -> bool:
        return combatant_from_element(self.element_of(state, es)).has(name)

    # ------------------------------------------------------------------ the end
    def is_over(self, state: BattleState) -> bool:
        if state.data.get("strategic_winner"):
            return True
        standing = {u.side for u in state.units if not u.eliminated}
        return len(standing) <= 1

    def end_reason(self, state: BattleState) -> str:
        if state.data.get("strategic_winner"):
            return f"strategic victory: {state.side(state.data['strategic_winner']).name}"
        standing = {u.side for u in state.units if not u.eliminated}
        if len(standing) == 1:
            return f"only {state.side(standing.pop()).name} has units left"
        return "no units left"

    def vp_lines(self, state: BattleState) -> dict[str, list[tuple[str, Fraction, str]]]:
        lines: dict[str, list[tuple[str, Fraction, str]]] = {s.id: [] for s in state.sides}
        for unit in state.units:
            if not unit.eliminated or unit.data.get("absent"):
                continue
            vp = unit_vp(unit.data.get("cost", 0), summoned=bool(unit.data.get("summon_die")))
            by = unit.data.get("eliminated_by")
            earners = [by] if by else [s for s in lines if s != unit.side]
            how = "fled" if unit.data.get("fled") else "eliminated"
            for side in earners:
                lines[side].append((f"{unit.name} {how} (25% of {display_vp(Fraction(unit.data.get('cost', 0)))})",
                                    vp, "unit"))
        objectives = {o.name: o for o in (self._setup.scenario.objectives if self._setup else ())}
        for side, done in state.data.get("objectives", {}).items():
            for oid in done:
                o = objectives.get(oid)
                if o is not None:
                    lines[side].append((f"objective {o.name}", Fraction(o.vp), "objective"))
        return lines

    def victory_points(self, state: BattleState) -> dict[str, Fraction]:
        return {side: sum((v for _, v, _ in rows), Fraction(0)) for side, rows in self.vp_lines(state).items()}

    def outcome(self, state: BattleState) -> Any:
        from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine

        lines = self.vp_lines(state)
        sides = []
        for s in state.sides:
            casualties = []
            units = [u for u in state.units if u.side == s.id and not u.data.get("summon_die")]
            for unit in units:
                entries: dict[int, list[ElementState]] = {}
                for es in unit.elements:
                    entries.setdefault(es.entry, []).append(es)
                for entry, group in sorted(entries.items()):
                    lost = sum(1 for e in group if not e.alive) + (
                        sum(1 for e in group if e.alive) if unit.data.get("fled") else 0)
                    changes: dict[str, int | str] = {}
                    base = combatant_from_element(self.element_of(state, group[0])).die
                    smallest = min((e.data.get("die", base) for e in group if e.alive), default=base)
                    if smallest != base:
                        changes["die"] = f"d{smallest}"
                    if lost or changes:
                        casualties.append(Casualty(unit.name, group[0].name, entry, lost, changes))
            sides.append(SideOutcome(
                side=s.id,
                vp_lines=tuple(VPLine(label, vp, kind) for label, vp, kind in lines[s.id]),  # type: ignore[arg-type]
                units_eliminated=tuple(u.name for u in units if u.eliminated and not u.data.get("absent")),
                casualties=tuple(casualties),
            ))
        return BattleOutcome(sides=tuple(sides), rounds_played=state.round, end_reason=state.end_reason,
                             strategic_winner=state.data.get("strategic_winner") or None)

    # -------------------------------------------------------------------- odds
    def odds(self, state: BattleState, command: Command) -> ActionOdds:
        """The whole action's exact odds: every roll, whichever unit it goes to (A-22);
        `casualties` is the total, `by_target` each target unit's share."""
        unit = self._unit(state, command.unit)
        batches = []
        for target, specs, targets in self.declared_batches(state, command):
            extra = self.attack_modifiers(state, unit, target)
            if extra:  # the same hand-over the dice get in _attack_batch
                specs = [attrs.evolve(s, mods=(*s.mods, *extra)) for s in specs]
            batches.append(Batch(target.id, tuple(specs), tuple(targets)))
        exact, per_unit = action_odds(batches, self.edition)
        notes = tuple(f"{a.label}: {_mods_text(a.mods).strip() or 'no modifiers'}" + (f" [{a.blocked}]" if a.blocked else "")
                      for a in exact.attacks)
        return ActionOdds(exact.p_hit, exact.p_casualty, clean(exact.casualties), clean(bernoulli_sum(exact.p_hit)),
                          notes, by_target={u: clean(o.casualties) for u, o in per_unit.items()})

    def declared_batches(self, state: BattleState, command: Any) -> list[tuple[UnitState, list[AttackSpec],
                                                                               list[Combatant]]]:
        """`declared`, grouped by the unit each roll goes to: a shoot command's
        `shot_targets` send single shots elsewhere (A-22), as `_fire` does."""
        specs, targets = self.declared(state, command)
        target = self._unit(state, command.target, "target unit")
        if command.type != "shoot" or not self._shot_targets(command):
            return [(target, specs, targets)]
        unit = self._unit(state, command.unit)
        sit = self._situation(state, unit, target, command, SHOOT_FACTS)
        cs = [self.combatant(state, e) for e in self._participants(state, unit, fact(command, "shooters", SHOOT_FACTS))]
        out: list[tuple[UnitState, list[AttackSpec], list[Combatant]]] = []
        for aimed_at, batch in self._aim_shots(state, command, sit, target, cs, specs):
            if not batch:
                continue
            # as _attack_batch: each roll goes to the element it names, the named ones
            # first and then the unit's other members (a redirected shot may name one)
            keyed = [state.element(k) for k in dict.fromkeys(s.target_key for s in batch if s.target_key)]
            order = keyed + [e for e in self._members(state, aimed_at) if e not in keyed]
            index = {e.id: i for i, e in enumerate(order)}
            batch = [attrs.evolve(s, target_index=index.get(s.target_key, 0)) for s in batch]
            out.append((aimed_at, batch, [self.combatant(state, e) for e in order]))
        return out

    def _odds_weapon_problem(self, state: BattleState, command: Any, c: Combatant, w: Any) -> str | None:
        """Why weapon `w` would not fire in `command`: what _fire checks, the `weapons` choice included."""
        chosen = set(fact(command, "weapons", SHOOT_FACTS) or [])
        if chosen and w.name not in chosen:
            return "not chosen"
        return self._weapon_problem(state, c, w)

    def declared(self, state: BattleState, command: Any) -> tuple[list[AttackSpec], list[Combatant]]:
        """The attack rolls a melee, shoot or attack-spell command would make, and its targets."""
        if command.type not in ("melee", "shoot", "cast"):
            raise IllegalCommand("odds", f"no odds for {command.type}: only melee, shoot and attack spells")
        unit = self._unit(state, command.unit)
        target = self._unit(state, command.target, "target unit")
        targets = [self.combatant(state, e) for e in self._allocation(state, target, command)]
        if not targets:
            raise IllegalCommand("odds", f"{target.name} has no elements left")
        try:
            if command.type == "melee":
                sit = self._situation(state, unit, target, command, MELEE_FACTS)
                cs = [self.combatant(state, e) for e in self._participants(state, unit, fact(command, "attackers", MELEE_FACTS))]
                return melee_attacks(cs, targets, sit, self.edition), targets
            if command.type == "shoot":
                sit = self._situation(state, unit, target, command, SHOOT_FACTS)
                cs = [self.combatant(state, e) for e in self._participants(state, unit, fact(command, "shooters", SHOOT_FACTS))]
                covers = len(fact(command, "covered", SHOOT_FACTS) or []) or 1
                return ranged_attacks(cs, targets, sit, self.edition,
                                      extra_check=lambda c, w: self._odds_weapon_problem(state, command, c, w),
                                      covers=covers, template_mode=self.options["template_mode"]), targets
            spell = _spell(command.spell)
            if spell is None:
                raise IllegalCommand("FOW 14.1", f"unknown spell {command.spell!r}")
            caster = self.combatant(state, state.element(command.element))
            sit = self._situation(state, unit, target, command, CAST_FACTS)
            covered = len(fact(command, "covered", CAST_FACTS) or []) or 1
            return spell_attack(caster, spell.name, spell.difficulty, targets, sit, self.edition, covers=covered), targets
        except NoAttack as exc:
            raise IllegalCommand("odds", str(exc)) from None


# ----------------------------------------------------------------------- helpers
def _state_die(element: Element) -> int | None:
    """A die carried over from an earlier battle (Resilient), if any."""
    raw = element.state.get("die") if element.state else None
    return die_sides(raw) if raw is not None else None


def _distance(cmd: Any) -> int:
    """Inches moved: the `distance` fact, or else the length of the declared path."""
    given = int(fact(cmd, "distance", MOVE_FACTS) or 0)
    if given:
        return given
    return int(sum((seg.inches for seg in _parse_path(fact(cmd, "path", MOVE_FACTS) or "")), Fraction(0)))


def _trigger_text(element: Element) -> str:
    for text in element.attributes:
        if text.strip().lower().startswith("trigger"):
            rest = text.split(":", 1)[1].strip() if ":" in text else ""
            return rest or "its condition"
    return "its condition"


def _spell_name(text: str) -> str:
    spec = _spell(text)
    return spec.name if spec else text


def _spell(text: str) -> Any:
    try:
        return catalogue.spell(text)
    except KeyError:
        return None


def _mods_text(mods: tuple[Mod, ...] | list[Mod]) -> str:
    if not mods:
        return ""
    return " (" + ", ".join(f"{m.label} {m.value:+d}" for m in mods) + ")"


_SEGMENT = re.compile(r"^\s*(open|light|heavy|impassable)\s+(\d+(?:\.\d+)?|\d+/\d+)\s*(water|ground)?\s*(water|ground)?\s*$", re.I)


def _parse_path(text: str) -> list[Segment]:
    """'open 3, light 2, heavy 1 water' -> segments; IllegalCommand on anything else."""
    if not text or not str(text).strip():
        return []
    out = []
    for part in str(text).split(","):
        match = _SEGMENT.match(part)
        if not match:
            raise IllegalCommand("FOW 6.2", f"cannot read path segment {part.strip()!r} "
                                            "(write e.g. \"open 3, light 2, heavy 1 water\")")
        tags = {t.lower() for t in match.groups()[2:] if t}
        out.append(Segment(match.group(1).lower(), Fraction(match.group(2)), "water" in tags, "ground" in tags))  # type: ignore[arg-type]
    return out
