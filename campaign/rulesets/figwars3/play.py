"""FigWars 3 played by the core engine: the BattleRules hooks (spec 6-7, 10-12, 14).

A round of the core is a FigWars turn: turn start (panic levels cleared, extra-action
rolls), initiative and alternating activations (the activation scheme), then the
morale phase at round end. Inside an activation every model acts on its own (two
actions, three with an extra action); models that were close enough share, the
others act one after another (7.3). Shooting and melee build the same OpposedRoll
that `odds` reads (attack.py), so the odds shown are the odds rolled.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import attrs

from campaign.activation.model_actions import model_activation
from campaign.engine.commands import Choose, Command
from campaign.engine.dice import roll as request_roll
from campaign.engine.errors import IllegalCommand
from campaign.engine.events import Event
from campaign.engine.display import UnitView
from campaign.engine.lazy_specs import Item, KeyedPart, LazyPart, LazySpecs
from campaign.engine.pending import CommandSpec, Decision, FactSpec
from campaign.engine.rules import BattleRules, Initiative, Resolution
from campaign.engine.setup import BattleSetup
from campaign.engine.state import BattleState, ElementState, UnitState, liveness_changed, state_from_setup
from campaign.rulesets.figwars3 import checks, control, firing, interrupts, margins, morale, movement, traits, turn, victory
from campaign.rulesets.figwars3.attack import Term
from campaign.engine.report import OddsReport
from campaign.rulesets.figwars3.attack import OpposedOdds, OpposedRoll, exact_odds, resolve
from campaign.rulesets.figwars3.report import ModelOdds, odds_report, scaled
from campaign.rulesets.figwars3.commands import COMMANDS, Cast, Reload, Retrieve, Sentry, Shoot, Strike, Switch
from campaign.rulesets.figwars3.melee import MELEE_DEFAULTS, MELEE_FACTS, melee_attack
from campaign.rulesets.figwars3.profile import Profile, carried_mov, profile_of
from campaign.rulesets.figwars3.ranged import IN_MELEE_CLASS, weapon_class
from campaign.rulesets.figwars3.ranged import RANGED_DEFAULTS, RANGED_FACTS, check_facts, placed, placement_terms, ranged_attack, unused_facts
from campaign.rulesets.figwars3.rerolls import ReRoll
from campaign.rulesets.figwars3.statuses import ModelState
from campaign.rulesets.figwars3.weapons import RangedWeapon
from campaign.rulesets.figwars3 import acid, arcane_play, entities, machine_play, optional_play, passengers, placement, self_destruct, structures_play, vehicle_movement
from campaign.rulesets.figwars3.revisions import PART2_TABLE_FACTS
from campaign.rulesets.figwars3.ramming import mecha_strikes_trooper, strike_machine
from campaign.rulesets.figwars3.vehicles import Machine, is_machine, machine_of
from campaign.rulesets.figwars3.model_turns import FigWarsModels
from campaign.rulesets.figwars3.names import model_name

if TYPE_CHECKING:
    from campaign.campaigns.scenario import Objective
    from campaign.engine.context import Context
    from campaign.outcome import BattleOutcome

T = TypeVar("T")  # FigWarsRules.shared
P = ParamSpec("P")  # FigWarsRules.later

MOVE_FACTS = (
    FactSpec("inches", (), -1, "inches moved (-1: the full allowance)"),
    FactSpec("reached_edge", (True, False), False, "a withdrawing model reached its table edge"),
    # 8.1-8.6: the path as the players report it
    FactSpec("difficult", (), 0, "inches of the move through difficult ground or up ladders (2 each)"),
    FactSpec("incline", (), 0, "inches climbed up inclines (2 each; 1 with Climbing)"),
    FactSpec("sheer", (), 0, "inches climbed up sheer faces (Climbing only, 2 each)"),
    FactSpec("obstacle", movement.OBSTACLES, "none", "an obstacle crossed: low (to chest height) or high (up to twice it)"),
    FactSpec("obstacle_extra", (), 0, "extra inches spent at the obstacle (+1 each to the test)"),
    FactSpec("jump_gap", (), 0, "width of a gap jumped at the end of the move, inches rounded up (0: none)"),
    FactSpec("run_up", (), 0, "inches moved straight before the gap this turn"),
    FactSpec("far_side_higher", (False, True), False, "the gap's far side is 1\" or more higher"),
    FactSpec("fall_depth", (), 0, "how far the model falls if the jump fails"),
    FactSpec("jump_down", (), 0, "height jumped down, inches rounded up (0: none; costs 1\")"),
    FactSpec("legs", tuple(movement.LEGS), "average", "leg length of a tall model (8.5)"),
)
# 8.8 special movers, offered to the models that have them
FLY = FactSpec("fly", (False, True), False, "fly: the flight value instead of MOV (doubled by a run), terrain ignored")
JUMP = FactSpec("jump", (False, True), False, "use the Jump Pack: a 12\" jump over any terrain (a run adds MOV once)")
LANDING = FactSpec("landing", tuple(checks.LANDING), "normal", "where a jump lands: difficult, or a spot it could not see")
LEAP = FactSpec("leap", (0, 1, 2, 3, 4), 0, "inches of Leap added to the run (they ignore difficult ground)")
PRONE = FactSpec("prone", (False, True), False, "goes prone at the end of the move (standing up again costs 2\")")
DRAG = FactSpec("drag", (), 0, "inches moved away from the entangler, dragging it (a victim at least twice its size; 3\" each)")
CRATER = FactSpec("from_crater", (False, True), False, "it starts the move climbing out of a shell crater (2\")")
ENDS_ON_ROUGH = FactSpec("ends_on_rough", (False, True), False, "a flight would end on difficult or impassable ground (not allowed)")
OBSTACLE_AT = FactSpec("obstacle_at", (), -1, "inches of the move done on reaching the obstacle: a failed test ends the move there (-1: not said)")
NEAR_HORRIFIC = FactSpec("near_horrific", (False, True), False, "the move brought a model within 3\" of a Horrific enemy")
HORRIFIES = FactSpec("horrifies", (), [], "enemy units this Horrific model approached, or that came within 3\" of it as it moved "
                     "(a morale-phase check at PL + 1)", picks="enemy_units")
CRAMPED = FactSpec("cramped", (False, True), False, "no room for a flier to lift off (4.3 Flight)")
COHERENCY_FACT = FactSpec("out_of_coherency", (), [], "models out of coherency with the leader's group (PR-36)", picks="unit_elements")
ENTANGLE = "entangle"
DETECTS = FactSpec("detects", (), [], "hidden enemy units whose ambush point the move came within range of (6\", 3\" against Stealth, doubled by a Scanner)",
                   picks="enemy_units")
MEDIC_FACTS = (FactSpec("clear_stun", (False, True), False, "spend one success removing the patient's stun"),)
SEGMENTS = FactSpec("segments", (), [], vehicle_movement.SEGMENTS_HELP)
RANK_WORDS = ("front rank", "second rank", "rear ranks")  # a formation's ranks as the unit panel names them
TARGET_MODEL_PICK = {"target_model": "target_elements"}  # a screen offers the target unit's models
BLAST_LIST = FactSpec("under_template", (), [], "other models under the template or spray", picks="target_elements")


def model_data(dp: int) -> dict[str, Any]:
    """A model's battle record as it starts (entities created later start the same)."""
    return {"dp": dp, "pins": 0, "stunned": False, "actions": 0, "extra": False, "aim": False, "focus": False, "moved": 0,
            "unloaded": [], "fast": False, "incap": None, "spent": 0, "sentry": ""}


def _fact_specs(known: dict[str, tuple[Any, ...]], defaults: dict[str, Any], skip: Iterable[str] = ()) -> tuple[FactSpec, ...]:
    return tuple(FactSpec(name, choices, defaults[name]) for name, choices in known.items() if name not in skip)


SHOOT_FACTS = (*_fact_specs(RANGED_FACTS, RANGED_DEFAULTS, ("role",)), BLAST_LIST)


@functools.lru_cache(maxsize=64)
def shoot_facts(unused: frozenset[str]) -> tuple[FactSpec, ...]:
    """SHOOT_FACTS with `unused` not asked (still accepted: battle files recorded before
    may carry them); one tuple per set, so the engine's lookups by tuple stay cached."""
    return tuple(attrs.evolve(f, ask=False) if f.name in unused else f for f in SHOOT_FACTS)
STRIKE_FACTS = _fact_specs(MELEE_FACTS, MELEE_DEFAULTS, ("prior_attackers", "defender_state", "attacker_focus", "target_kind"))


# What a model's own-action group and its modules' group may hold (_model_specs); the
# lazy menu skips a group for a command of another type, so each type made there is named.
OWN_SPEC_TYPES = frozenset({"walk", "run", "aim", "focus", "reload", "break_free", "release", "retrieve", "switch", "extra",
                            "medic", "sentry"})
MODULE_SPEC_TYPES = frozenset({"cast", "ram", "push", "repair", "breach", "hail"})  # arcane, machine, structures, optional

ACTING = ("walk", "run", "shoot", "strike", "aim", "focus", "reload", "sentry", "retrieve", "break_free", "release")


class FigWarsRules(BattleRules):
    id = "figwars-3"
    initiative = Initiative(die=turn.INITIATIVE_DIE)  # 1d8 a side, ties re-rolled among the tied
    hang_unit_lines = True  # long model lines (machines, ranks, reloads) are common here
    snapshots = True  # _profiles, _machines, _spells: read from the setup (new_state rebuilds them); entities: on_round_start

    def __init__(self, options: dict[str, Any] | None = None, ruleset: Any = None) -> None:
        super().__init__(options, ruleset)
        self._profiles: dict[str, Profile] = {}
        self._machines: dict[str, Machine] = {}  # vehicles and mecha by element id (part 2)
        self._spells: dict[str, tuple[str, ...]] = {}  # casters' powers by element id (16)
        self._armour: dict[str, int] = {}  # armour DEF dice, lost by an outside rider (4.4)
        self._movers: dict[str, vehicle_movement.Mover] = {}  # vehicles, mecha and mounts: facing and direction (8.9)
        self._scenario_objectives: tuple[Objective, ...] = ()
        self.revision = int(self.options.get("rules_revision", 1))  # 1: as battles were recorded before revision 2
        self._menu_memo: dict[tuple[str, ...], Any] | None = None  # see shared

    # --- building the battle ----------------------------------------------------
    def new_state(self, setup: BattleSetup) -> BattleState:
        state = state_from_setup(setup)
        printed = bool(self.options.get("printed_def", False))
        self._profiles = {}
        self._machines = {}
        self._spells = {}
        self._armour = {}
        self._movers = {}
        self._scenario_objectives = setup.scenario.objectives
        forces = [unit for side in setup.sides for unit in side.force.units]
        for unit, source in zip(state.units, forces):
            unit.data = {"status": "normal", "pl": 0, "marker": False, "activated": False}
            specials = {a for el in source.elements for a in el.attributes}
            if self.options.get("deployment_specials", True):
                # 5, 4.3: Drop Deployment units wait off the table, Ambush units hide at a secret point
                if "Drop Deployment" in specials:
                    unit.data["reserve"] = True
                elif "Ambush" in specials:
                    unit.data["hidden"] = True
            for el in unit.elements:
                entry = source.elements[el.entry]
                machine = machine_of(entry, f"{unit.name}: {el.name}") if is_machine(entry) else None
                profile = machine.profile() if machine else profile_of(entry, f"{unit.name}: {el.name}", printed)
                self._profiles[el.id] = profile
                mover = vehicle_movement.mover_for(machine.locomotion, machine.vehicle, not machine.vehicle, "") if machine else \
                    vehicle_movement.mover_for("", False, False, str(entry.stats.get("mount") or ""))
                if mover is not None:
                    self._movers[el.id] = mover
                if machine is None and entry.stats.get("armour", "none") in traits.ARMOUR:
                    self._armour[el.id] = traits.ARMOUR[str(entry.stats.get("armour", "none"))].dice
                el.data = model_data(profile.dp)
                if machine is not None:
                    self._machines[el.id] = machine
                    el.data["machine"] = machine_play.fresh(machine)
                arc = entry.stats.get("arc")
                if isinstance(arc, int) and not isinstance(arc, bool):
                    el.data["arc"] = arcane_play.fresh(arc)
                    self._spells[el.id] = tuple(entry.spells)
        self._controls(state, forces)
        for side in state.sides:
            side.data = {"extra_pool": 0}
        state.data = {
            "struck": {},
            "victory": victory.mode_of(setup.scenario.victory),
            "objectives": [o.name for o in setup.scenario.objectives],
            "started": {side.id: sum(len(u.elements) for u in state.units_of(side.id)) for side in state.sides},
            "held": {},
            "verdict": None,
        }
        return state

    def _controls(self, state: BattleState, forces: list[Any]) -> None:
        """4.3 #22, #26: a Mindless or Soulless unit's controller (a friendly unit named in
        its `controller` field) and its TQ under control: the controller's best TQ - 1."""
        for unit, source in zip(state.units, forces):
            kind = control.kind_of(a for e in unit.elements for a in self.profile(e.id).abilities)
            named = str(source.stats.get("controller", "") or "")
            boss = next((u for u in state.units_of(unit.side) if u.name == named and u.id != unit.id), None)
            if not kind or boss is None:
                continue
            unit.data["controller"] = boss.id
            if self.revision >= 2:  # the controller is a model: the named unit's best TQ (a hero first)
                unit.data["controller_model"] = control.best_model(
                    (e.id, self.profile(e.id).tq, self.profile(e.id).hero) for e in boss.elements)
            tq = control.controlled_tq(max(self.profile(e.id).tq for e in boss.elements))
            for el in unit.elements:
                self._profiles[el.id] = attrs.evolve(self.profile(el.id), tq=tq)

    def _uncontrolled(self, state: BattleState, unit: UnitState) -> bool:
        return bool(unit.data.get("uncontrolled") or unit.data.get("unseen"))

    def _controller_lost(self, state: BattleState, ctx: Context, unit_gone: UnitState | None = None,
                         model_gone: ElementState | None = None) -> None:
        """The controller is gone (revision 1: its unit wiped out; 2: its model taken out):
        its Soulless units fall with it; its Mindless units take PL +2, check in the morale
        phase and can never rally (4.3 #22, #26)."""
        for unit in state.units:
            if unit.eliminated or unit.data.get("uncontrolled"):
                continue
            if self.revision >= 2:
                if model_gone is None or unit.data.get("controller_model") != model_gone.id:
                    continue
            elif unit_gone is None or unit.data.get("controller") != unit_gone.id:
                continue
            kind = control.kind_of(a for e in unit.alive for a in self.profile(e.id).abilities)
            if kind == "Soulless":
                ctx.emit("collapse", f"{unit.name} falls with its controller", unit=unit.id)
                for el in list(unit.alive):
                    self._remove(state, el, ctx)
            else:
                unit.data.update(uncontrolled=True, pl=unit.data["pl"] + control.PL_CONTROLLER_LOST, marker=True)
                if self.revision >= 2:
                    unit.data["lost_round"] = state.round  # PR-39: a passed check then idles it a turn
                ctx.emit("uncontrolled", f"{unit.name} has lost its controller: PL +{control.PL_CONTROLLER_LOST}", unit=unit.id)

    def command_types(self) -> Iterable[type[Command]]:
        return COMMANDS

    def profile(self, element_id: str) -> Profile:
        return self._profiles[element_id]

    def machine(self, element_id: str) -> Machine | None:
        return self._machines.get(element_id)

    def is_machine(self, element_id: str) -> bool:
        return element_id in self._machines

    def has_profile(self, element_id: str) -> bool:
        return element_id in self._profiles

    def register_entity(self, element_id: str, profile: Profile) -> None:
        """An arcane entity created during the battle (16.8)."""
        self._profiles[element_id] = profile

    def spells(self, element_id: str) -> tuple[str, ...]:
        return self._spells.get(element_id, ())

    # --- turn start, activation order ---------------------------------------------
    def on_round_start(self, state: BattleState, ctx: Context) -> Resolution:
        entities.rebuild(self, state)  # after a resume from a checkpoint taken at this boundary
        if state.round == 1 and self.revision >= placement.REVISION and not state.data.get("placed"):
            yield from placement.place_forces(state, self._recon, ctx)  # 5: the forces go down first
        state.data["struck"] = {}
        arcane_play.round_start(state)  # PR-68
        yield from entities.turn_start(state, ctx)  # 16.8: the loose entities' d8
        for unit in state.units:
            unit.data.update(pl=0, marker=False, activated=False, horror_phase=False)
            if unit.data.get("pl_carry"):  # PR-39, revision 2: the PL of a controller lost at the last turn's end
                unit.data.update(pl=unit.data.pop("pl_carry"), marker=True)
            for el in unit.elements:
                el.data.update(extra=False, moved=0, aim=False, focus=False, spent=0, shots={})
        yield from self_destruct.turn_start(self, state, ctx)  # 17.5, PR-74: a hunter's body goes off
        for side in state.sides:
            in_play = [u for u in state.units_of(side.id) if u.data["status"] != "retreating" and not u.data.get("reserve")
                       and not entities.is_entity_unit(u)]
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

    def _recon(self, unit: UnitState) -> bool:
        return any("Recon" in self.profile(e.id).abilities for e in unit.elements)

    def rolled_initiative(self, state: BattleState) -> list[str] | None:
        """PR-22: turn 1's initiative, when rolled before Recon placement, is kept."""
        order = state.data.get("initiative_1")
        return list(order) if state.round == 1 and order else None

    def can_activate(self, state: BattleState, unit_id: str) -> bool:
        unit = state.unit(unit_id)
        if unit.eliminated or unit.data.get("activated"):
            return False
        if entities.is_entity_unit(unit) and not unit.data.get("loose"):
            return False  # 16.8: entities act in their caster's slot
        if unit.data.get("reserve") and state.round < turn.DROP_FROM_TURN:
            return False  # 4.3 Drop Deployment: any turn after the first
        waiting = {
            u.id: u.data["status"]
            for u in state.units_of(unit.side)
            if not u.data.get("activated") and u.data["status"] != "fled"
            and not (u.data.get("reserve") and state.round < turn.DROP_FROM_TURN)
            and not (entities.is_entity_unit(u) and not u.data.get("loose"))
        }
        return unit_id in turn.must_activate_first(waiting)

    def may_pass(self, state: BattleState, side: str) -> bool:
        """6.2: a side passes only with no unit left to activate (the scheme then passes
        for it), so a pass is never offered beside an activation."""
        return not any(self.can_activate(state, u.id) for u in state.units_of(side))

    def check(self, state: BattleState, command: Command) -> None:
        if command.type == "pass":
            side = state.scheme.get("current", "")
            if side and not self.may_pass(state, side):
                raise IllegalCommand("FW3 6.2", "every unit activates once a turn: pick one")

    # --- one activation -------------------------------------------------------------
    def activation(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        unit = state.unit(unit_id)
        unit.data["activated"] = True
        unit.data["horrified"] = False  # PR-38: one instant Horrific check an activation
        if unit.data.get("reserve") or unit.data.get("hidden"):
            stays = yield from self._arrive_or_spring(state, unit, ctx)
            if stays:
                return
        yield from ctx.window(interrupts.NOMINATED, unit=unit.id)  # 7.2: sentries may fire as it activates
        if unit.eliminated:
            return
        unit.data["unseen"] = False
        boss_model = state.element(unit.data["controller_model"]) if unit.data.get("controller_model") else None
        if boss_model is not None and not unit.data.get("uncontrolled") and boss_model.data["incap"] is not None:
            unit.data["unseen"] = True  # 4.3 #22: a controller down at 0 DP controls nothing
        elif unit.data.get("controller") and not unit.data.get("uncontrolled"):  # PR-39: the controller must see it
            boss = state.unit(unit.data["controller"])
            who = f"{boss_model.name} of {boss.name}" if boss_model is not None else boss.name
            sees = (CommandSpec("choose", {"option": "yes"}, label=f"Yes: {who} sees it"),
                    CommandSpec("choose", {"option": "no"}, label="No: it acts uncontrolled this activation"))
            answer = yield Decision(unit.side, f"{unit.name}: can its controller ({who}) see a model of it?", sees)
            unit.data["unseen"] = getattr(answer, "option", "") == "no"
        if self._uncontrolled(state, unit) and self.revision >= 2:
            if (yield from self._uncontrolled_start(state, unit, ctx)):
                return  # PR-39: the idle turn after a passed check
        elif self._uncontrolled(state, unit):
            ctx.emit("uncontrolled", f"{unit.name} acts uncontrolled: strike, shoot unaimed, or stagger 1\"", unit=unit.id)
        if unit.data["status"] == "retreating" and not unit.data.get("uncontrolled"):  # no rally without a controller
            yield from self._rally(state, unit, ctx, at_activation=True)
        for el in unit.alive + [e for u in entities.of_caster_unit(state, unit) for e in u.alive]:
            yield from self._start_model(state, el, ctx)
        for el in unit.alive:
            if el.data.get("sentry"):
                yield from self._sentry_expires(state, unit, el, ctx)
        yield from model_activation(self.model_actions(), state, [unit_id], ctx)  # model by model (7.3)
        if self.revision >= PART2_TABLE_FACTS:
            yield from entities.leash(self, state, unit, ctx)  # 16.8: his entities within 12" and sight

    def _uncontrolled_start(self, state: BattleState, unit: UnitState, ctx: Context) -> Resolution:
        """PR-39 (revision 2): after the check passed on losing its controller the unit does
        nothing for a turn (True: no actions, it only fights back), then makes its random 1"
        move; every other uncontrolled activation does the first of fight, shoot unaimed
        within 4", stagger, by the facts its owner reports (`unit.data["drive"]`)."""
        data = unit.data
        if data.get("idle_round") == state.round:
            for el in unit.alive:
                el.data["actions"] = 0
            ctx.emit("idle", f"{unit.name} does nothing this turn (it still fights back in melee)", unit=unit.id)
            return True
        if data.get("idle_round") and not data.get("staggered"):
            data.update(staggered=True, drive="stagger")
            ctx.emit("uncontrolled", f"{unit.name} makes its first random move: each model staggers 1\"", unit=unit.id)
            return False
        shooters = any(p.ranged for p in (self.profile(e.id) for e in unit.alive))
        legal = tuple(CommandSpec("choose", {"option": d}, label=control.DRIVE_LABELS[d])
                      for d in control.DRIVES if d != "shoot" or shooters)
        answer = yield Decision(unit.side, f"{unit.name} acts uncontrolled (PR-39): the first that applies", legal)
        data["drive"] = str(getattr(answer, "option", "stagger"))
        ctx.emit("uncontrolled", f"{unit.name} acts uncontrolled: {control.DRIVE_LABELS[data['drive']].lower()}", unit=unit.id)
        return False

    def model_actions(self) -> FigWarsModels:
        return FigWarsModels(self)

    def _check_apart(self, unit: UnitState, apart: list[str]) -> list[str]:
        ids = {e.id for e in unit.alive}
        bad = [m for m in apart if m not in ids]
        if bad:
            raise IllegalCommand("FW3 7.3", f"{bad[0]} is not a living model of {unit.name}")
        return apart

    def _start_model(self, state: BattleState, el: ElementState, ctx: Context) -> Resolution:
        machine = self._machines.get(el.id)
        seats = machine_play.actions(machine, el) if machine else turn.ACTIONS_PER_MODEL
        el.data["actions"] = max(seats - el.data.get("spent", 0) - el.data.get("lost", 0), 0)
        el.data["lost"] = 0  # actions a fall took (8.6) come out of this activation
        if el.data.get("switch_to"):  # 10.5: a weapon switch takes effect now
            el.data["wielding"], el.data["switch_to"] = el.data["switch_to"], ""
        el.data["fast"] = False  # the fast-target bonus lasts until its next activation
        el.data["hovering"] = False  # a flier that lifted off lands again
        ms = ModelState(dp=el.data["dp"], pins=el.data["pins"], stunned=el.data["stunned"])
        if ms.pins or ms.stunned:
            after, left, done = ms.clearing(el.data["actions"])
            el.data.update(pins=after.pins, stunned=after.stunned, actions=left)
            ctx.emit("recover", f"{el.name}: {', '.join(done) or 'still pinned'}", model=el.id)
        yield from arcane_play.start_caster(state, el, ctx)  # PR-71: wards need their upkeep
        passengers.cling(el, ctx)  # 4.4: an outside rider's action
        if machine is not None and machine.vehicle:
            yield from passengers.take_over(machine, el, state.round, ctx, state if self.revision >= PART2_TABLE_FACTS else None)  # 13: a crew member or passenger takes the dead driver's place
        if machine is not None and self.options.get("mire_tests"):
            yield from machine_play.mire_at_activation(el, ctx)

    def shared(self, key: tuple[str, ...], make: Callable[[], T]) -> T:
        """`make()`, worked out once for all the models' menus of one decision (model_turns
        FigWarsModels.menu opens the memo and drops it after: nothing changes the state while
        a menu is made, and a battle of many units asked for its enemies once per model)."""
        memo = self._menu_memo
        if memo is None:
            return make()
        if key not in memo:
            memo[key] = make()
        return memo[key]  # type: ignore[no-any-return]

    def _sight(self, state: BattleState, unit: UnitState) -> tuple[list[UnitState], bool]:
        """The units `unit`'s models may shoot or strike, and whether an enemy unit lies hidden."""
        enemies, hidden = [], False
        for u in state.units:
            if u.side != unit.side and not u.eliminated:
                hidden = hidden or bool(u.data.get("hidden"))
                if self._targetable(u):
                    enemies.append(u)
        wild = entities.strike_targets(state, unit)  # 16.8: a loose entity strikes friend or foe
        if wild is not None:
            enemies = [u for u in wild if self._targetable(u)]
        return enemies, hidden

    def _horrific_among(self, enemies: list[UnitState]) -> bool:
        """Whether one of `enemies` has a Horrific model (asked only by a move)."""
        return any(self.profile(e.id).has("Horrific") for u in enemies for e in u.alive)

    def _flying(self, unit: UnitState) -> bool:
        return any(self.profile(e.id).has("Flight") for e in unit.alive)

    def _model_specs(self, state: BattleState, unit: UnitState, el: ElementState) -> Sequence[CommandSpec]:
        p = self.profile(el.id)
        base = {"unit": unit.id, "model": el.id}
        who = model_name(el)
        actions = el.data["actions"]
        status = unit.data["status"]
        must_move = status in ("falling_back", "retreating") and el.data["moved"] == 0
        enemies, hidden_near = self.shared(("sight", unit.id), lambda: self._sight(state, unit))
        if must_move or el.data.get("regroup"):
            move_facts = self._move_facts(unit, el, p, enemies, hidden_near)
            if status == "retreating" and must_move and actions >= 2:
                return [CommandSpec("run", base, move_facts, f"{who}: run towards its edge")]
            if must_move:
                return [CommandSpec("walk", base, move_facts, f"{who}: walk towards its edge")]
            # 9: a failed coherency check spends its next action moving back
            back = [CommandSpec("walk", base, move_facts, f"{who}: walk back into coherency")]
            if actions >= 2:
                back.append(CommandSpec("run", base, move_facts, f"{who}: run back into coherency"))
            return back
        # Made as read (engine/lazy_specs.py): a replayed command looks at one spec, where
        # the whole menu holds a shot per weapon and enemy unit and a strike per enemy.
        parts: list[Item] = []
        targets = [e.id for e in enemies]
        for weapon in self._armed(el).ranged:
            cost = turn.shoot_cost(weapon.slow)
            if actions < cost or weapon.name in el.data["unloaded"] or not _fires(weapon):
                continue
            parts.append(self._shots(state, el, weapon, targets, base, who))
        if status == "normal" and not (el.id in self._machines and self._machines[el.id].vehicle):
            parts.append(KeyedPart("strike", "target", targets, self._strike_maker(state, el, base, who)))
        parts.append(LazyPart(OWN_SPEC_TYPES, self.later(lambda: self._own_specs(
            state, unit, el, self._move_facts(unit, el, p, enemies, hidden_near), base, who))))
        parts.append(LazyPart(MODULE_SPEC_TYPES, self.later(lambda: [
            *arcane_play.specs(self, state, unit, el, enemies, base, who),
            *machine_play.machine_specs(self, state, el, enemies, base, who),
            *structures_play.specs(self, state, unit, el, base, who),
            *optional_play.specs(self, state, unit, el, base, who, enemies),  # 15.2 Hail of Arrows
        ])))
        parts.append(CommandSpec("done", base, label=f"{who}: done"))
        return LazySpecs(parts)

    def _move_facts(self, unit: UnitState, el: ElementState, p: Profile, enemies: list[UnitState],
                    hidden_near: bool) -> tuple[FactSpec, ...]:
        """The facts a walk or run of `el` asks (before a machine's own)."""
        move_facts: tuple[FactSpec, ...] = MOVE_FACTS + ((OBSTACLE_AT,) if self.revision >= 2 else ())
        if self.shared(("horrific", unit.id), lambda: self._horrific_among(enemies)):
            move_facts = (*move_facts, NEAR_HORRIFIC)
        if p.has("Horrific"):
            move_facts = (*move_facts, HORRIFIES)
        if el.data.get("entangled"):
            move_facts = (*move_facts, DRAG)
        if el.id not in self._machines:
            move_facts = (*move_facts, *((FLY,) if p.flight else ()), *((JUMP, LANDING) if p.has("Jump Pack") else ()),
                          *(() if p.mounted else (PRONE,)))
            if self.revision >= 2:
                move_facts = (*move_facts, CRATER, *((ENDS_ON_ROUGH,) if p.flight else ()))
        if hidden_near:
            move_facts = (*move_facts, DETECTS)
        return move_facts

    def later(self, make: Callable[P, T]) -> Callable[P, T]:
        """`make` to be run when a lazy menu is read, with the memo of the decision it
        belongs to (see shared): what the models' menus share is still worked out once."""
        memo = self._menu_memo

        def run(*args: P.args, **kwargs: P.kwargs) -> T:
            before, self._menu_memo = self._menu_memo, memo
            try:
                return make(*args, **kwargs)
            finally:
                self._menu_memo = before
        return run

    def _shots(self, state: BattleState, el: ElementState, weapon: RangedWeapon, targets: list[str],
               base: dict[str, Any], who: str) -> KeyedPart:
        """A shot with `weapon` at each of `targets` (enemy unit ids), each made when read."""
        actions = el.data["actions"]

        @functools.cache
        def ways() -> tuple[tuple[FactSpec, ...], bool]:
            found = self._firing_facts(el, weapon, actions)
            return found, any(f.name == "second_weapon" for f in found)

        def shot(target: str) -> CommandSpec:
            enemy = state.unit(target)
            firing_facts, paired = ways()
            facts = self._shoot_facts(el, weapon, enemy, paired) + firing_facts
            ranked = self._ranked(enemy) and not (weapon.indirect or weapon.grenade)
            return CommandSpec(
                "shoot",
                {**base, "target": enemy.id, "weapon": weapon.name},
                (*facts, optional_play.FROM_SIDE) if ranked else facts,
                f"{who}: shoot {enemy.name} with {weapon.name}",
                odds=True,
                targets="units",
                picks=TARGET_MODEL_PICK,
            )
        return KeyedPart("shoot", "target", targets, self.later(shot))

    def _strike_maker(self, state: BattleState, el: ElementState, base: dict[str, Any], who: str) -> Callable[[str], CommandSpec]:
        def strike(target: str) -> CommandSpec:
            enemy = state.unit(target)
            facts = STRIKE_FACTS
            if self.shared(("flight", enemy.id), functools.partial(self._flying, enemy)):
                facts = (*STRIKE_FACTS, CRAMPED)
            facts = (*facts, *arcane_play.force_facts(self._armed(el), el.data))
            return CommandSpec("strike", {**base, "target": enemy.id}, facts, f"{who}: strike {enemy.name}", odds=True, targets="units",
                               picks=TARGET_MODEL_PICK)
        return self.later(strike)

    def _own_specs(self, state: BattleState, unit: UnitState, el: ElementState, move_facts: tuple[FactSpec, ...],
                   base: dict[str, Any], who: str) -> list[CommandSpec]:
        """A model's moves, readying and the rest of its own actions (OWN_SPEC_TYPES)."""
        p = self.profile(el.id)
        actions = el.data["actions"]
        specs: list[CommandSpec] = []
        move_facts = (*move_facts, *machine_play.move_facts(self._machines.get(el.id), bool(self.options.get("mire_tests"))))
        if el.id in self._movers:
            move_facts = (*move_facts, SEGMENTS)
        specs.append(CommandSpec("walk", base, move_facts, f"{who}: walk"))
        if actions >= 2:
            leap = (LEAP,) if p.has("Leap") and el.id not in self._machines else ()
            specs.append(CommandSpec("run", base, (*move_facts, *leap), f"{who}: run"))
        if p.ranged and not el.data["aim"]:
            specs.append(CommandSpec("aim", base, label=f"{who}: aim"))
        if not el.data["focus"]:
            specs.append(CommandSpec("focus", base, label=f"{who}: focus"))
        for name in el.data["unloaded"]:
            specs.append(CommandSpec("reload", {**base, "weapon": name}, label=f"{who}: reload {name}"))
        if el.data.get("entangled"):
            specs.append(CommandSpec("break_free", base, label=f"{who}: work free of the entanglement"))
        if el.id in self.shared(("entanglers",), lambda: {(e.data.get("entangled") or {}).get("by") for u in state.units for e in u.alive}):
            specs.append(CommandSpec("release", base, label=f"{who}: release its entangled opponent"))
        for name in el.data.get("disarmed", []):
            specs.append(CommandSpec("retrieve", {**base, "weapon": name}, label=f"{who}: pick up {name}"))
        melee = [w.name for w in self._armed(el).melee]
        if len(set(melee)) > 1:
            current = self._wielded(el) or (self._armed(el).melee_weapons()[0].name,)
            for name in dict.fromkeys(melee):
                if name not in current and name != el.data.get("switch_to"):
                    specs.append(CommandSpec("switch", {**base, "weapon": name}, label=f"{who}: take up {name} from its next activation"))
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
        return specs

    def _shoot_facts(self, el: ElementState, weapon: RangedWeapon, enemy: UnitState, paired: bool) -> tuple[FactSpec, ...]:
        """The facts of 18.2 for a shot at `enemy`, those that cannot change it not asked."""
        shield_wall = any(self.profile(e.id).has("Shield Wall") for e in enemy.alive)
        return shoot_facts(unused_facts(weapon, self._armed(el).sniper, shield_wall, paired))

    def _ranked(self, unit: UnitState) -> bool:
        """A unit in formation whose ranks limit direct fire (15.1, rules revision 2)."""
        return bool(self.options.get("formations") and unit.data.get("formation") and self.revision >= PART2_TABLE_FACTS)

    def _firing_facts(self, el: ElementState, weapon: RangedWeapon, actions: int) -> tuple[FactSpec, ...]:
        """The ways this weapon may fire besides the plain shot (firing.py), as facts."""
        out: list[FactSpec] = list(machine_play.arc_fact(self._machines.get(el.id), weapon.name))  # 4.4, 4.5 arcs
        if weapon.name in firing.OVERCHARGE_ATK and actions >= firing.OVERCHARGE_COST:
            out.append(FactSpec("overcharge", (False, True), False, "spend 2 actions on the shot: ATK 4d, then it must reload"))
        if weapon.autofire:
            out.append(FactSpec("burst", (), [], f"burst (A{weapon.autofire}): further targets, each with its dice, gap and cover",
                                picks="enemy_elements", parts=firing.share_parts(weapon.autofire, RANGED_FACTS["cover"])))
            out.append(FactSpec("burst_arc", (), [], "every model seen in the arc between the burst's targets, friends too: each must get dice",
                                picks="elements"))
        ranged = list(self.profile(el.id).ranged)
        others = [w.name for i, w in enumerate(ranged)
                  if i != ranged.index(weapon) and w.name not in el.data["unloaded"] and not firing.pair_problem(weapon, w)]
        if others:
            out.append(FactSpec("second_weapon", ("", *dict.fromkeys(others)), "", "fire a second weapon with this one (11.24)"))
            out.append(FactSpec("second_target_model", (), "", "the second weapon's target model (empty: the same target)",
                                picks="enemy_elements"))
        return tuple(out)

    def _targets(self, unit: UnitState) -> list[ElementState]:
        if unit.data.get("reserve") or unit.data.get("hidden"):
            return []  # off the table, or hidden at its ambush point
        return [e for e in unit.alive if e.data["incap"] is None and not passengers.inside(e)]  # PR-28: inside a hull

    def _targetable(self, unit: UnitState) -> bool:
        """Whether `_targets(unit)` has any model (asked for every enemy unit at every decision)."""
        if unit.data.get("reserve") or unit.data.get("hidden"):
            return False
        return any(e.alive and e.data["incap"] is None and not passengers.inside(e) for e in unit.elements)

    def _arrive_or_spring(self, state: BattleState, unit: UnitState, ctx: Context) -> Resolution:
        """A Drop Deployment unit may arrive (PR-29: one Hard check on its highest TQ, a
        hero's re-roll; a failure deviates 1d8" in a 1d8 direction) or stay off; an ambush
        may be sprung (placed at its point) or stay hidden. True: it stays and does nothing."""
        dropping = bool(unit.data.get("reserve"))
        what = "arrive by drop" if dropping else "spring the ambush"
        legal = (CommandSpec("choose", {"option": "go"}, label=what.capitalize()),
                 CommandSpec("choose", {"option": "stay"}, label="Stay off the table" if dropping else "Stay hidden"))
        answer = yield Decision(unit.side, f"{unit.name}: {what} now?", legal)
        if getattr(answer, "option", "") != "go":
            ctx.emit("reserve" if dropping else "hidden", f"{unit.name} {'stays in reserve' if dropping else 'stays hidden'}", unit=unit.id)
            return True
        if dropping:
            unit.data["reserve"] = False
            profiles = [self.profile(e.id) for e in unit.alive]
            hero = any(p.hero for p in profiles)
            landed, got = yield from checks.skill_check(max(p.tq for p in profiles), traits.DIFFICULTY["hard"],
                                                         f"drop: {unit.name} (Hard)", (ReRoll("hero"),) if hero else ())
            if landed:
                ctx.emit("arrives", f"{unit.name} drops onto its point ({got} successes)", unit=unit.id)
            else:
                (direction,) = yield from request_roll(8, 1, "drop deviation direction (1d8 arrow)")
                (inches,) = yield from request_roll(8, 1, "drop deviation: 1d8 inches")
                ctx.emit("arrives", f"{unit.name} drops {inches}\" off its point towards arrow {direction}",
                         unit=unit.id, direction=direction, inches=inches)
        else:
            self._reveal(unit, ctx, "springs its ambush")
        return False

    def _spring_window(self, state: BattleState, nominated: UnitState, ctx: Context, what: str = "") -> Resolution:
        """4.3 Ambush: the owner may spring a hidden unit whenever he chooses; offered as an
        enemy unit activates and (revision 2) before each of its models' actions; its own
        activation offers it too."""
        what = what or f"{nominated.name} activates"
        for unit in state.units:
            if not unit.data.get("hidden") or unit.side == nominated.side or unit.eliminated:
                continue
            legal = (CommandSpec("choose", {"option": "stay"}, label="Stay hidden"),
                     CommandSpec("choose", {"option": "go"}, label=f"Spring {unit.name}'s ambush"))
            answer = yield Decision(unit.side, f"{what}: spring {unit.name}'s ambush now?", legal)
            if getattr(answer, "option", "") == "go":
                self._reveal(unit, ctx, "springs its ambush")

    def _reveal(self, unit: UnitState, ctx: Context, how: str) -> None:
        unit.data["hidden"] = False
        ctx.emit("revealed", f"{unit.name} {how}: place it at its ambush point", unit=unit.id)

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
        elif kind == "push":
            if not self.options.get("mire_tests"):
                raise IllegalCommand("FW3 8.10", "the scenario does not use mire tests (option mire_tests)")
            machine_play.push_command(self, state, el, command, ctx)
        elif kind == "hail":
            yield from optional_play.hail(self, state, el, command, ctx)
        elif kind == "breach":
            yield from structures_play.breach(self, state, el, command, ctx)
        elif kind == "embark":
            yield from passengers.embark(self, state, el, command, ctx)
        elif kind == "disembark":
            yield from passengers.disembark(self, state, el, ctx)
        elif kind == "break_free":
            tangle = el.data.get("entangled")
            if not tangle:
                raise IllegalCommand("FW3 10.6", f"{el.name} is not entangled")
            self._spend(el, 1, "working free")
            left = tangle["actions"] - 1
            el.data["entangled"] = {**tangle, "actions": left} if left > 0 else None
            ctx.emit("break_free", f"{el.name} " + (f"works at the entanglement ({left} to go)" if left > 0 else "breaks free"), model=el.id)
        elif kind == "release":
            self._spend(el, 1, "a release")
            self._release_tangles(state, el, ctx)
        elif isinstance(command, Switch):
            if command.weapon not in {w.name for w in self._armed(el).melee}:
                raise IllegalCommand("FW3 10.5", f"{el.name} carries no melee weapon {command.weapon!r}")
            el.data["switch_to"] = command.weapon
            ctx.emit("switch", f"{el.name} will fight with its {command.weapon} from its next activation", model=el.id)
        elif isinstance(command, Retrieve):
            if command.weapon not in el.data.get("disarmed", []):
                raise IllegalCommand("FW3 7.1", f"{el.name} has not lost a {command.weapon!r} to pick up")
            self._spend(el, 1, "picking a weapon up")
            el.data["disarmed"] = [w for w in el.data["disarmed"] if w != command.weapon]
            ctx.emit("retrieve", f"{el.name} picks up its {command.weapon}", model=el.id)
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
        f = command.facts
        mode = "fly" if f.get("fly") else "jump" if f.get("jump") else "ground"
        if mode == "jump" and not p.has("Jump Pack"):
            raise IllegalCommand("FW3 4.3 Jump Pack", f"{el.name} has no Jump Pack")
        before = el.data.get("mode", "ground")
        if el.data["moved"] and before != mode and "fly" in (mode, before):
            raise IllegalCommand("FW3 4.3 Flight", f"{el.name} uses its MOV or its flight in a turn, not both")
        leap = _whole(f.get("leap", 0), "leap")
        if leap and not p.has("Leap"):
            raise IllegalCommand("FW3 4.3 Leap", f"{el.name} cannot Leap")
        if f.get("prone") and (machine is not None or p.mounted):
            raise IllegalCommand("FW3 8.8", f"{el.name} cannot go prone (vehicles, mounted and large models)")
        rough = {} if mode == "fly" else {k: f.get(k, 0) for k in ("difficult", "incline", "sheer") if f.get(k, 0)}  # 8.8
        prone = bool(el.data.get("prone"))
        if self.revision >= 2 and machine is None:
            prone = prone or bool(f.get("from_crater"))  # 8.8: climbing out of a crater costs 2" like standing up
            if mode == "fly" and f.get("ends_on_rough"):
                raise IllegalCommand("FW3 4.3 Flight", f"{el.name} flies over difficult or impassable ground but may not end its move there")
        if machine is not None and self.options.get("mire_tests") and vehicle_movement.mires(machine.locomotion, machine.vehicle):
            rough.pop("difficult", None)  # 8.10: no MOV penalty, a mire test instead
        segments = self._segments(state, el, f, inches)
        if segments is not None:
            inches = vehicle_movement.inches_moved(segments)

        def plan(n: int) -> tuple[int, int, int]:  # (allowance, cost, inches counted against 2 x MOV)
            if machine is not None:
                return allowance, movement.path_cost(n, rough, p.has("Climbing")), n
            return movement.special_move(mode, n, rough, p.has("Climbing"), mov, p.flight, running, leap, prone)

        if inches < 0:  # the full allowance
            inches = max(plan(0)[0] - (movement.STAND_UP_INCHES if prone else 0), 0)
        allowance, plain_cost, counted = plan(inches)
        cost: Fraction | int = plain_cost
        if segments is not None:  # 8.9: direction classes and turns instead of the straight inches
            turns = el.data.get("turns_moving", 0) if el.data.get("under_way") == state.round else 0
            cost = cost - inches + vehicle_movement.move_cost(self._movers[el.id], segments, self._under_way(state, el),
                                                              el.data["moved"], turns)
        stagger = machine is None and self._uncontrolled(state, state.unit(el.unit))
        if stagger and (running or inches > control.STAGGER_INCHES):  # PR-39
            raise IllegalCommand("FW3 4.3 Mindless", f"uncontrolled, {el.name} only staggers {control.STAGGER_INCHES}\" in a random direction")
        drag = _whole(f.get("drag", 0), "drag")
        if drag:  # 10.6: only away from the entangler, by a victim at least twice its size (the players' call)
            if not el.data.get("entangled"):
                raise IllegalCommand("FW3 10.6", f"{el.name} is not entangled: nothing to drag")
            if drag > inches:
                raise IllegalCommand("FW3 10.6", f"{el.name} drags for {drag}\" of a {inches}\" move")
            cost += (movement.DRAG_COST - 1) * drag
        cap = 2 * (p.flight if mode == "fly" else mov)
        extra = _whole(f.get("obstacle_extra", 0), "obstacle_extra") + (1 if _whole(f.get("jump_down", 0), "jump_down") else 0)
        if cost + extra > allowance:
            raise IllegalCommand("FW3 8.1", f"{el.name}'s path costs {cost + extra}\"; a {command.type} allows {allowance}\"")
        if inches > allowance:
            raise IllegalCommand("FW3 7.1", f"{el.name} moves at most {allowance}\" with a {command.type}")
        if el.data["moved"] + counted > cap:
            raise IllegalCommand("FW3 7.1", f"{el.name} may not move more than {cap}\" in a turn")
        self._spend(el, 2 if running else 1, command.type)
        if segments is not None:  # 8.9: it counts as moving for the rest of the turn
            turns = el.data.get("turns_moving", 0) if el.data.get("under_way") == state.round else 0
            el.data["turns_moving"] = turns + vehicle_movement.turns_while_moving(segments, self._under_way(state, el))
            el.data["under_way"] = state.round
        el.data["regroup"] = False  # a move back into coherency (9)
        el.data["mode"] = mode
        el.data["prone"] = bool(f.get("prone"))  # standing up was paid above; going prone is free (8.8)
        el.data["moved"] += counted
        if drag:
            holder = state.element(el.data["entangled"]["by"])
            ctx.emit("drag", f"{el.name} drags {holder.name} {drag}\" away", model=el.id, by=holder.id, inches=drag)
        if self.revision >= 2:  # 11.8: every inch of its moves counts, jumps and leaps included
            was = el.data.get("travelled", [0, 0])
            el.data["travelled"] = [state.round, (was[1] if was[0] == state.round else 0) + inches]
        if el.data["moved"] >= 12 or inches >= 12 or (self.revision >= 2 and el.data["travelled"][1] >= FAST_INCHES):
            el.data["fast"] = True
        ctx.emit(command.type, f"{el.name} {'runs' if running else 'walks'} {inches}\"", model=el.id, inches=inches)
        if stagger and inches:
            (way,) = yield from request_roll(control.STAGGER_DIE, 1, f"{el.name} staggers: 1d8 for the direction")
            ctx.emit("stagger", f"{el.name} staggers {inches}\" towards arrow {way}", model=el.id, direction=way)
        if machine is not None and inches:
            if self.options.get("mire_tests"):  # 8.10, a scenario option
                yield from machine_play.mire_on_move(machine, el, bool(command.facts.get("difficult_terrain")), ctx)
            yield from machine_play.after_move(el, ctx)
            passengers.after_vehicle_move(state, el)
        if mode == "ground":  # fliers and jumps pass over obstacles and gaps (8.8)
            yield from self._path_tests(state, el, f, ctx, inches, counted)
        elif mode == "jump":
            yield from self._landing(state, el, f.get("landing", "normal"), ctx)
        unit = state.unit(el.unit)
        for hidden in f.get("detects", []) or []:
            found = next((u for u in state.units if u.id == hidden and u.side != unit.side and u.data.get("hidden")), None)
            if found is None:
                raise IllegalCommand("FW3 4.3 Ambush", f"{hidden!r} is not a hidden enemy unit")
            self._reveal(found, ctx, f"is found by {el.name}")
        if command.facts.get("near_horrific"):
            yield from ctx.window(interrupts.AFTER_MOVE, actor=el.id, action=command.type)
        self._horrifies(state, el, command.facts.get("horrifies", []), ctx)
        if command.facts.get("reached_edge") and unit.data["status"] in ("falling_back", "retreating"):
            unit.data["status"] = "fled"
            unit.markers["removed"] = True
            liveness_changed()  # off the table with its models standing: caches of who stands must know
            ctx.emit("fled", f"{unit.name} leaves the table and counts as lost", unit=unit.id)

    def _landing(self, state: BattleState, el: ElementState, ground: Any, ctx: Context) -> Resolution:
        """4.3 #16: after a Jump Pack jump a skill check (a hero's re-roll) read on the landing
        table; difficult covers a spot the model could not see before it jumped."""
        if ground not in checks.LANDING:
            raise IllegalCommand("FW3 4.3 Jump Pack", f"landing is normal or difficult, not {ground!r}")
        p = self.profile(el.id)
        _, got = yield from checks.skill_check(p.tq, 1, f"landing: {el.name}", (ReRoll("hero"),) if p.hero else ())
        result = checks.landing(got, ground)
        ctx.emit("landing", f"{el.name} lands ({got} successes, {ground}): {result}", model=el.id, result=result)
        if result.endswith("DP"):
            yield from self._hurt(state, el, int(result.split()[0]), False, ctx, attack=False)
        elif result == "pinned":
            yield from self._hurt(state, el, 0, True, ctx, attack=False)

    def _segments(self, state: BattleState, el: ElementState, f: dict[str, Any], inches: int) -> Any:
        """The move's segments (8.9), or None for a move reported as straight inches."""
        raw = f.get("segments") or []
        if not raw:
            return None
        if el.id not in self._movers:
            raise IllegalCommand("FW3 8.9", f"{el.name} is not a vehicle, mecha or mounted trooper: report inches only")
        segments = vehicle_movement.parse_segments(raw)
        given = f.get("inches", -1)
        if isinstance(given, int) and given >= 0 and given != vehicle_movement.inches_moved(segments):
            raise IllegalCommand("FW3 8.9", f"the segments cover {vehicle_movement.inches_moved(segments)}\", not the {given}\" reported")
        return segments

    def _under_way(self, state: BattleState, el: ElementState) -> bool:
        """Moving already this turn: turns then cost a move's distance each (8.9)."""
        return bool(el.data["moved"]) or el.data.get("under_way") == state.round

    def _path_tests(self, state: BattleState, el: ElementState, f: dict[str, Any], ctx: Context,
                    inches: int = 0, counted: int = 0) -> Resolution:
        """8.2-8.6: the obstacle test, a jump over a gap or down, and the fall if it fails.
        Revision 2: an obstacle that stops the move cuts it where it stood (`obstacle_at`),
        and the gap at the end of the path is never reached."""
        legs = f.get("legs", "average")
        gap = _whole(f.get("jump_gap", 0), "jump_gap")
        at = f.get("obstacle_at", -1) if self.revision >= 2 else -1
        at = -1 if at == -1 else _whole(at, "obstacle_at")
        if at > inches:
            raise IllegalCommand("FW3 8.2", f"the obstacle lies {at}\" along a move of {inches}\"")
        if f.get("obstacle", "none") != "none":
            result = yield from movement.obstacle_test(f["obstacle"], f.get("obstacle_extra", 0))
            text = {"fail": "fails to cross the obstacle: the move ends before it",
                    "stop": "crosses the obstacle; the move ends on the far side",
                    "free": "crosses the obstacle easily"}[result]
            ctx.emit("obstacle", f"{el.name} {text}", model=el.id, result=result)
            if self.revision >= 2 and result != "free":
                if at >= 0:  # the inches after the obstacle were never moved
                    short = inches - at
                    el.data["moved"] -= min(short, counted)
                    el.data["travelled"][1] -= short
                    el.data["fast"] = el.data["travelled"][1] >= FAST_INCHES
                    ctx.emit("move_cut", f"{el.name}'s move ends after {at}\", at the obstacle", model=el.id, inches=at)
                gap = 0  # the gap ends the path: the model never gets there
        fallen = 0
        if gap:
            made = yield from movement.jump_gap(gap, _whole(f.get("run_up", 0), "run_up"), legs, bool(f.get("far_side_higher")))
            ctx.emit("jump", f"{el.name} {'clears' if made else 'falls short of'} the {gap}\" gap", model=el.id, made=made)
            fallen = 0 if made else _whole(f.get("fall_depth", 0), "fall_depth")
        down = _whole(f.get("jump_down", 0), "jump_down")
        if down:
            made = yield from movement.jump_down(down, legs)
            ctx.emit("jump", f"{el.name} {'jumps down' if made else 'falls'} {down}\"", model=el.id, made=made)
            fallen = max(fallen, 0 if made else down)
        if fallen:
            yield from self._fall(state, el, fallen, legs, ctx)

    def _fall(self, state: BattleState, el: ElementState, inches: int, legs: str, ctx: Context) -> Resolution:
        """8.6: DP and lost actions; actions this activation has not got are lost from its next."""
        dp, lost = movement.fall(inches, legs)
        now = min(lost, el.data["actions"])
        el.data["actions"] -= now
        el.data["lost"] = el.data.get("lost", 0) + lost - now
        ctx.emit("fall", f"{el.name} falls {inches}\": {dp} DP, {lost} action(s) lost", model=el.id, dp=dp, lost=lost)
        if dp:
            yield from self._hurt(state, el, dp, False, ctx, attack=False)

    # shooting
    def shot(self, state: BattleState, command: Shoot) -> tuple[OpposedRoll, ElementState, ElementState, RangedWeapon]:
        """The OpposedRoll a Shoot command stands for (resolution and odds both use it)."""
        el = self._own_model(state, command)
        target = self._target_model(state, el, command.target, command.target_model)
        p = self._armed(el)
        from campaign.rulesets.figwars3.profile import ProfileError

        try:
            weapon = p.ranged_weapon(command.weapon or None)
        except ProfileError as exc:
            raise IllegalCommand("FW3 17", str(exc)) from None
        if command.facts.get("in_arc", True) is False:  # 4.4, 4.5: the players say the target is out of the arc
            mount, arc = machine_play.weapon_arc(self._machines[el.id], weapon.name) if el.id in self._machines else ("", 0)
            raise IllegalCommand("FW3 4.4", f"{target.name} is outside the {arc}-degree arc of {el.name}'s {mount or 'weapon'}")
        tunit = state.unit(target.unit)
        if self._ranked(tunit) and not (weapon.indirect or weapon.grenade):
            pick = optional_play.direct_fire_target(state, tunit, str(command.facts.get("from_side", "front")), command.target_model,
                                                    self._targets(tunit))  # 15.1: the two ranks nearest the shooter
            if not pick:
                raise IllegalCommand("FW3 15.1", f"no model of {tunit.name} stands in the two ranks nearest the shooter")
            target = self._target_model(state, el, command.target, pick)
        facts = {k: v for k, v in command.facts.items() if k not in firing.SHOT_EXTRAS}
        if el.data["aim"] and not self._uncontrolled(state, state.unit(el.unit)):  # PR-39: uncontrolled shots are unaimed
            facts["aim"] = True
        if target.data.get("entangled"):
            facts["target_entangled"] = True
        if bool(target.data.get("prone")) != (facts.get("prone", "no") != "no"):  # 8.8: the engine knows who lies prone
            raise IllegalCommand("FW3 11.5", f"{target.name} {'lies prone: say where (fact prone)' if target.data.get('prone') else 'is not prone'}")
        extras = command.facts
        weapon = firing.overcharged(weapon, bool(extras.get("overcharge")))
        if extras.get("overcharge"):
            firing.shot_cost(weapon, True, 1)  # refuses a weapon that cannot be overcharged
        role = "placed" if (weapon.indirect or weapon.grenade) else "direct"
        if role == "direct" and weapon.spray:
            role = "spray_primary"
        opposed = ranged_attack(p, weapon, self._defender(target), {**facts, "role": role})
        opposed = arcane_play.warded(opposed, target.data, bool(facts.get("in_melee", False)))  # 16.5, 16.6
        second = self._second_weapon(p, weapon, extras)
        if second is not None and extras.get("burst"):
            raise IllegalCommand("FW3 11.24", "a burst is fired from one weapon, not a pair")
        if second is not None and not extras.get("second_target_model"):
            ranged_attack(p, second, self._defender(target), {**facts, "role": "direct"})  # the second weapon must reach too
            opposed = firing.pair_roll(opposed, p.has("Gunslinger"), second_atk=second.atk or 0)
        elif second is not None:
            opposed = firing.pair_roll(opposed, p.has("Gunslinger"))
        if extras.get("burst"):
            shares = firing.burst_shares(extras["burst"])
            opposed = firing.share_of(opposed, firing.split_burst(opposed.attacker.pool, weapon.autofire, shares), True)
        missed = firing.skipped(extras.get("burst_arc", []), target.id, firing.burst_shares(extras.get("burst", [])))
        if missed:
            names = ", ".join(self._any_model(state, m).name + f" ({m})" for m in missed)
            raise IllegalCommand("FW3 11.16", f"burst fire cannot skip {names} in the arc between its targets: allot dice to each")
        self._further_rolls(state, el, command, weapon)  # refused now, before anything is spent
        return opposed, el, target, weapon

    def _second_weapon(self, p: Profile, first: RangedWeapon, extras: dict[str, Any]) -> RangedWeapon | None:
        """11.24: the second ranged weapon of a pair, checked, or None."""
        name = extras.get("second_weapon", "")
        if not name:
            if extras.get("second_target_model"):
                raise IllegalCommand("FW3 11.24", "a second target needs a second weapon")
            return None
        second = next((w for w in p.ranged if w.name == name), None)
        if second is None or (name == first.name and sum(1 for w in p.ranged if w.name == name) < 2):
            raise IllegalCommand("FW3 11.24", f"{p.name} carries no second {name!r} to fire with {first.name}")
        problem = firing.pair_problem(first, second)
        if problem:
            raise IllegalCommand("FW3 11.24", problem)
        return second

    def _shot_cost(self, state: BattleState, el: ElementState, command: Shoot, weapon: RangedWeapon) -> int:
        """Actions a shot takes: slow weapons 2, an overcharged Plasma Pistol 2; a pair
        pays the dearer of its two weapons (11.24)."""
        cost = firing.shot_cost(weapon, bool(command.facts.get("overcharge")), turn.shoot_cost(weapon.slow))
        second = self._second_weapon(self.profile(el.id), weapon, command.facts)
        return max(cost, turn.shoot_cost(second.slow)) if second is not None else cost

    def _shoot(self, state: BattleState, el: ElementState, command: Shoot, ctx: Context, paid: bool = False) -> Resolution:
        opposed, _, target, weapon = self.shot(state, command)
        under = command.facts.get("under_template", [])
        if not paid:
            self._spend(el, self._shot_cost(state, el, command, weapon), "a shot")
        if interrupts.redirectable(weapon, command.facts):
            state.data.pop("redirect", None)
            yield from ctx.window(interrupts.SHOT_DECLARED, actor=el.id, target=target.id, command=command)
            redirect = state.data.pop("redirect", None)
            if redirect:
                new = state.element(redirect["model"])
                command = attrs.evolve(command, target=new.unit, target_model=new.id, facts={**command.facts, **redirect["facts"]})
                opposed, _, target, weapon = self.shot(state, command)
        for attacked in [target, *(self._any_model(state, m) for m in under)]:
            self._cancel_sentry(attacked, ctx)
        el.data["aim"] = False
        shots = el.data.setdefault("shots", {})
        shots[weapon.name] = shots.get(weapon.name, 0) + 1
        if firing.empties(weapon, bool(command.facts.get("overcharge")), shots[weapon.name]):
            el.data["unloaded"] = [*el.data["unloaded"], weapon.name]
        template = bool(weapon.blast or weapon.spray)
        landed = True
        scored = 0  # the attack (or placement) roll's successes, for the out-of-ammo rule
        if weapon.indirect or weapon.grenade:
            facts = {k: v for k, v in command.facts.items() if k in RANGED_FACTS and k != "role"}
            terms = placement_terms(self.profile(el.id), weapon, facts)
            landed, got = yield from checks.skill_check(max(sum(t.dice for t in terms), 0), 1, f"placement: {el.name} with {weapon.name}")
            scored = got
            ctx.emit("placement", f"{weapon.name} {'lands on target' if landed else 'misses its point'} ({got} successes)", model=el.id)
        if landed:
            outcome = yield from resolve(opposed)
            if not (weapon.indirect or weapon.grenade):
                scored = outcome.attacker_successes
            ctx.emit(
                "shot",
                f"{el.name} shoots {target.name}: {outcome.attacker_successes} against {outcome.defender_successes}",
                model=el.id,
                target=target.id,
            )
            direct = not (weapon.indirect or weapon.grenade or weapon.spray or weapon.blast)
            if not (weapon.indirect or weapon.grenade or weapon.spray) and weapon.blast and not placed(outcome.attacker_successes):
                landed = False
            elif direct and (yield from structures_play.cover_instead(
                    self, state, el, target, str(command.facts.get("cover", "none")), outcome.attacker_successes, outcome.dp, ctx)):
                pass  # PR-60: the cover took the shot
            elif outcome.winner == "attacker":
                yield from self._hurt(state, target, outcome.dp, outcome.judgement.pinned, ctx, explosive=template)
        scored += yield from self._further_shots(state, el, command, weapon, ctx)
        if self.options.get("out_of_ammo") and firing.ammo_check_applies(weapon) and scored == 0 and weapon.name not in el.data["unloaded"]:
            empty = yield from firing.out_of_ammo()
            if empty:
                el.data["unloaded"] = [*el.data["unloaded"], weapon.name]
                ctx.emit("out_of_ammo", f"{el.name}'s {weapon.name} is out of ammunition: reload it", model=el.id)
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
            mod = IN_MELEE_CLASS[weapon_class(weapon)] if weapon.spray and command.facts.get("in_melee") else 0
            if mod:  # PR-57: fired in melee, every roll takes the class's modifier (as ranged.spray_in_melee)
                attack = firing.with_term(attack, Term(f"{weapon_class(weapon)} weapon in melee", mod), keep_rerolls=False)
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

    def _further_rolls(self, state: BattleState, el: ElementState, command: Shoot,
                       weapon: RangedWeapon) -> list[tuple[ElementState, OpposedRoll, str, bool]]:
        """The further rolls of one shooting action, each with its target, the target's
        cover and whether the weapon fires direct (PR-60): a second weapon at a second
        target (11.24), the further shares of a burst (11.16, PR-56)."""
        p = self._armed(el)
        facts = {k: v for k, v in command.facts.items() if k in RANGED_FACTS and k != "role"}
        rolls: list[tuple[ElementState, OpposedRoll, str, bool]] = []
        second_target = command.facts.get("second_target_model", "")
        if second_target:
            second = self._second_weapon(p, weapon, command.facts)
            other = self._any_model(state, second_target)
            assert second is not None
            opposed = ranged_attack(p, second, self._defender(other), {**facts, "role": "direct"})
            rolls.append((other, firing.pair_roll(opposed, p.has("Gunslinger"), first=False), str(facts.get("cover", "none")),
                          not (second.blast or second.spray or second.indirect or second.grenade)))
        for share in firing.burst_shares(command.facts.get("burst", [])):
            other = self._any_model(state, share.model)
            opposed = ranged_attack(p, weapon, self._defender(other), {**facts, "cover": share.cover, "role": "direct"})
            rolls.append((other, firing.share_of(opposed, share.dice, False), share.cover, not (weapon.blast or weapon.spray)))
        return rolls

    def _further_shots(self, state: BattleState, el: ElementState, command: Shoot, weapon: RangedWeapon, ctx: Context) -> Resolution:
        """Rolls the further rolls of one shooting action; returns their successes."""
        rolls = self._further_rolls(state, el, command, weapon)
        scored = 0
        for other, opposed, cover, direct in rolls:
            self._cancel_sentry(other, ctx)
            outcome = yield from resolve(opposed)
            scored += outcome.attacker_successes
            ctx.emit("shot", f"{el.name} shoots {other.name}: {outcome.attacker_successes} against {outcome.defender_successes}",
                     model=el.id, target=other.id)
            if direct and (yield from structures_play.cover_instead(self, state, el, other, cover, outcome.attacker_successes, outcome.dp, ctx)):
                continue  # PR-60: this target's cover took the roll
            if outcome.winner == "attacker":
                yield from self._hurt(state, other, outcome.dp, outcome.judgement.pinned, ctx)
        return scored

    # melee
    def strike(self, state: BattleState, command: Strike) -> tuple[OpposedRoll, ElementState, ElementState]:
        el = self._own_model(state, command)
        chosen = command.target_model
        if not chosen and command.target in {u.id for u in state.units}:  # the foremost model still in reach
            chosen = next((e.id for e in self._targets(state.unit(command.target)) if not e.data.get("hovering")), "")
        target = self._target_model(state, el, command.target, chosen)
        unit = state.unit(el.unit)
        if unit.data["status"] != "normal":
            raise IllegalCommand("FW3 14.4", f"{unit.name} is withdrawing and may not start a melee")
        if target.data.get("hovering"):
            raise IllegalCommand("FW3 4.3 Flight", f"{target.name} hovers {interrupts.HOVER_INCHES}\" up and cannot be engaged until its next activation")
        struck = state.data["struck"].get(target.id, {}).get(unit.side, [])
        prior = len([m for m in struck if m != el.id])
        facts = {k: v for k, v in command.facts.items() if k not in ("cramped", "arc_points")}
        asked = facts.get("prior_attackers", 0)  # an odds query may say; the engine also counts
        facts.update(
            prior_attackers=min(max(prior, asked if isinstance(asked, int) else 0), 20),
            attacker_focus=bool(el.data["focus"]),
            defender_state="stunned" if target.data["stunned"] else ("pinned" if target.data["pins"] else "normal"),
        )
        if el.data.get("entangled"):
            facts["attacker_entangled"] = True  # 10.6: DEF -1 and MEL -1
        if target.data.get("entangled"):
            facts["defender_entangled"] = True
        mine, theirs = self._machines.get(el.id), self._machines.get(target.id)
        if theirs is not None:  # 10.10, 10.12: the machine only defends (mecha against mecha: both fight)
            mecha = mine if mine is not None and not mine.vehicle else None
            still = machine_play.record(target).immobilised  # 17.8: a Chainfist's +1 DP on a stationary target
            return strike_machine(self._armed(el), theirs, self._wielded(el), mecha_attacker=mecha, stationary=still), el, target
        if mine is not None:
            return mecha_strikes_trooper(mine, self._defender(target)), el, target
        opposed = melee_attack(self._armed(el), self._armed(target), facts, self._wielded(el), self._wielded(target))
        return arcane_play.force_weapon(opposed, self._armed(el), el.data, command.facts.get("arc_points", 0)), el, target

    def _strike(self, state: BattleState, el: ElementState, command: Strike, ctx: Context) -> Resolution:
        opposed, _, target = self.strike(state, command)
        if el.data["actions"] < 1:
            self._spend(el, 1, "a strike")  # refused before any interrupt is offered
        yield from ctx.window(interrupts.ENGAGED, actor=el.id, target=target.id, command=command)
        unit = state.unit(el.unit)
        if unit.data["status"] != "normal" or target.data.get("hovering") or not target.alive:
            return  # the unit lost its nerve or the flier lifted off: no blow is struck, no action spent
        opposed, _, target = self.strike(state, command)
        self._spend(el, 1, "a strike")
        arcane_play.spend_on_force(el, command.facts.get("arc_points", 0), ctx)  # 16.9, PR-72
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
        outcome = yield from resolve(opposed, self._package_chooser(state, el, target))
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
            yield from acid.splash(self, state, el, target, ctx)  # 17.5: a hit on acid blood splashes the weapon
        elif j.winner == "defender" and (outcome.dp or j.pinned):
            yield from self._hurt(state, el, outcome.dp, j.pinned, ctx)
        self._entangle(state, ctx)
        if j.winner and (j.package.push or j.package.disarm):
            winner, loser = (el, target) if j.winner == "attacker" else (target, el)
            yield from self._push_and_disarm(state, winner, loser, j.package, ctx)
        for model, hit in ((target, j.target_stunned), (el, j.attacker_stunned)):
            if hit and model.alive and not model.data["stunned"]:
                model.data["stunned"] = True
                ctx.emit("stunned", f"{model.name} is stunned by a Storm Hammer", model=model.id)

    def _package_chooser(self, state: BattleState, attacker: ElementState, defender: ElementState) -> Any:
        """2.7: the winner of a melee spends the margin; the default (most DP, then a pin
        with an odd success, PR-2) is offered first. A disarm needs a weapon to take."""

        def choose(j: Any) -> Resolution:
            winner, loser = (attacker, defender) if j.winner == "attacker" else (defender, attacker)
            default = margins.default_melee(j.margin)
            armed = bool(self._weapons_to_take(loser))
            options = [default] + [pk for pk in margins.legal_packages(j.margin) if pk != default and (armed or not pk.disarm)]
            legal = tuple(
                CommandSpec("choose", {"option": pk.label()}, label=pk.label() + (" (default)" if i == 0 else ""))
                for i, pk in enumerate(options)
            )
            tangle = j.margin // 2 if self._entangles(winner) else 0  # PR-43: at least 1 DP's worth
            if tangle:
                legal += (CommandSpec("choose", {"option": ENTANGLE}, label=f"entangle ({tangle} action(s) to break free)"
                                      + (" + pin" if j.margin % 2 else "")),)
            answer = yield Decision(state.unit(winner.unit).side, f"{winner.name} wins the melee by {j.margin}: spend the margin", legal)
            if tangle and getattr(answer, "option", "") == ENTANGLE:
                state.data["entangle"] = {"by": winner.id, "victim": loser.id, "actions": tangle}
                return margins.Package(pin=j.margin % 2)
            return next((pk for pk in options if pk.label() == getattr(answer, "option", "")), default)

        return choose

    def _entangles(self, el: ElementState) -> bool:
        """10.6: the model fights with a whip or chain (its melee weapons as it strikes)."""
        return el.id not in self._machines and any(w.entangling for w in self._armed(el).melee_weapons())

    def _entangle(self, state: BattleState, ctx: Context) -> None:
        """Apply an entanglement chosen in the last melee (10.6)."""
        tangle = state.data.pop("entangle", None)
        if not tangle:
            return
        victim = state.element(tangle["victim"])
        if victim.alive:
            victim.data["entangled"] = {"by": tangle["by"], "actions": tangle["actions"]}
            ctx.emit("entangled", f"{victim.name} is entangled: {tangle['actions']} action(s) to break free",
                     model=victim.id, by=tangle["by"])

    def _release_tangles(self, state: BattleState, holder: ElementState, ctx: Context) -> None:
        for unit in state.units:
            for el in unit.alive:
                if (el.data.get("entangled") or {}).get("by") == holder.id:
                    el.data["entangled"] = None
                    ctx.emit("untangled", f"{el.name} is no longer entangled", model=el.id)

    def _wielded(self, el: ElementState) -> tuple[str, ...]:
        """The melee weapon it switched to (10.5), while it still has it; () for its best."""
        name = el.data.get("wielding", "")
        return (name,) if name and any(w.name == name for w in self._armed(el).melee) else ()

    def _weapons_to_take(self, el: ElementState) -> list[str]:
        p = self.profile(el.id)
        gone = el.data.get("disarmed", []) + el.data.get("destroyed", [])
        return [n for n in dict.fromkeys([w.name for w in p.melee] + [w.name for w in p.ranged]) if n not in gone]

    def _push_and_disarm(self, state: BattleState, winner: ElementState, loser: ElementState, package: Any, ctx: Context) -> Resolution:
        """10.9 forcing back (and following), PR-4; a disarm takes one weapon (winner's pick)."""
        side = state.unit(winner.unit).side
        if package.push and loser.alive:
            facts = (
                FactSpec("into_difficult", (False, True), False, "the 1\" back ends in difficult or rough ground (Easy check or pinned)"),
                FactSpec("against_solid", (False, True), False, "the loser is pushed against a solid surface (an extra pin, PR-4)"),
            )
            answer = yield Decision(side, f"{loser.name} is forced back 1\"" + (f" and {winner.name} follows" if package.follow else "") + ": where to?",
                                    (CommandSpec("report", facts=facts, label="Report"),))
            got = answer.facts if isinstance(getattr(answer, "facts", None), dict) else {}
            ctx.emit("push", f"{loser.name} is forced back 1\"" + (f", {winner.name} follows" if package.follow else ""),
                     model=loser.id, follow=bool(package.follow))
            pinned = bool(got.get("against_solid"))
            if got.get("into_difficult"):
                ok, _ = yield from checks.skill_check(self.profile(loser.id).tq, 1, f"{loser.name} keeps its feet (Easy)")
                if not ok:
                    ctx.emit("stumble", f"{loser.name} stumbles", model=loser.id)
                    pinned = True
            if pinned:
                yield from self._hurt(state, loser, 0, True, ctx)
        if package.disarm and loser.alive:
            names = self._weapons_to_take(loser)
            answer = yield Decision(side, f"{winner.name} disarms {loser.name}: which weapon?",
                                    tuple(CommandSpec("choose", {"option": n}, label=n) for n in names))
            taken = getattr(answer, "option", names[0])
            loser.data["disarmed"] = [*loser.data.get("disarmed", []), taken]
            if not self._entangles(loser):
                self._release_tangles(state, loser, ctx)  # its whip or chain is gone (10.6)
            ctx.emit("disarm", f"{loser.name} loses its {taken}", model=loser.id, weapon=taken)

    def _armed(self, el: ElementState) -> Profile:
        """The profile with the weapons it was disarmed of left out (they lie on the ground)."""
        gone = el.data.get("disarmed", []) + el.data.get("destroyed", [])  # 17.5: weapons acid blood ate
        p = self.profile(el.id)
        if not gone:
            return p
        return attrs.evolve(p, melee=tuple(w for w in p.melee if w.name not in gone), ranged=tuple(w for w in p.ranged if w.name not in gone))

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

    # interrupts (6.3) in the windows opened above
    def interrupts(self, state: BattleState, window: str, ctx: Context, **info: Any) -> Resolution:
        if window == interrupts.NOMINATED:
            unit = state.unit(info["unit"])
            yield from self._spring_window(state, unit, ctx)
            yield from self._sentry_window(state, [e for e in unit.alive if e.data["incap"] is None], ctx)
        elif window == interrupts.BEFORE_ACTION:
            actor = state.element(info["actor"])
            if self.revision >= 2:  # 4.3 Ambush: whenever its owner chooses, between an enemy's actions too
                yield from self._spring_window(state, state.unit(actor.unit), ctx, f"{actor.name} is about to {info.get('action', 'act')}")
            yield from self._sentry_window(state, [actor], ctx)
        elif window == interrupts.SHOT_DECLARED:
            yield from self._deflection(state, state.element(info["target"]), info["command"], ctx)
        elif window == interrupts.ENGAGED:
            actor, target = state.element(info["actor"]), state.element(info["target"])
            if self.profile(target.id).has("Horrific"):
                yield from self._horrific(state, state.unit(actor.unit), ctx)
            if state.unit(actor.unit).data["status"] == "normal":
                yield from self._lift_off(state, target, info["command"], ctx)
        elif window == interrupts.AFTER_MOVE:
            yield from self._horrific(state, state.unit(state.element(info["actor"]).unit), ctx)

    def _deflection(self, state: BattleState, target: ElementState, command: Shoot, ctx: Context) -> Resolution:
        """Heroic Deflection (a hero's) and Blind Devotion (a unit-mate's): the target's owner
        may hand the shot to a friendly model within 2" on the shooter's side with room
        to step into base contact (the players vouch for all three)."""
        tunit = state.unit(target.unit)
        if self.profile(target.id).has("Heroic Deflection"):
            candidates = [e for u in state.units_of(tunit.side) if self._targets(u) for e in u.alive
                          if e.id != target.id and e.data["incap"] is None]  # not from hiding or reserve
            how = "Heroic Deflection"
        else:
            candidates = [e for e in tunit.alive if e.id != target.id and e.data["incap"] is None and self.profile(e.id).has("Blind Devotion")]
            how = "Blind Devotion"
        if not candidates:
            return
        facts = (
            FactSpec("range_band", RANGED_FACTS["range_band"], command.facts.get("range_band", RANGED_DEFAULTS["range_band"]), "range to the new target"),
            FactSpec("cover", RANGED_FACTS["cover"], command.facts.get("cover", RANGED_DEFAULTS["cover"]), "the new target's cover"),
        )
        legal = [CommandSpec("choose", {"option": "no"}, label="Take the shot")]
        legal += [CommandSpec("deflect", {"model": e.id}, facts, f"{e.name} ({e.id.rsplit('/', 1)[-1]}) steps in") for e in candidates]
        answer = yield Decision(tunit.side, f"{target.name} is shot at: hand the shot on ({how})?", tuple(legal))
        if answer.type == "deflect":
            new = state.element(answer.model)
            state.data["redirect"] = {"model": new.id, "facts": {k: v for k, v in answer.facts.items() if k in ("range_band", "cover")}}
            ctx.emit("deflect", f"{new.name} steps in front of {target.name} and takes the shot ({how})", model=new.id, target=target.id)

    def _horrific(self, state: BattleState, unit: UnitState, ctx: Context) -> Resolution:
        """PR-38: an instant morale check at PL + 1, once an activation; a failure turns the
        unit at once (its remaining actions withdraw)."""
        profiles = [self.profile(e.id) for e in unit.alive]
        abilities = set().union(*(p.abilities for p in profiles))
        if unit.data.get("horrified") or interrupts.immune_to_horror(abilities):
            return
        if morale.never_checks(abilities, self._kind(unit), any(p.hero for p in profiles)):
            return
        unit.data["horrified"] = True
        unit.data["pl"] = interrupts.horrific_panic(unit.data["pl"])
        ctx.emit("horrific", f"{unit.name} faces a horror: instant morale check at PL {unit.data['pl']}", unit=unit.id)
        yield from self._check_morale(state, unit, ctx)

    def _horrifies(self, state: BattleState, el: ElementState, units: Any, ctx: Context) -> None:
        """4.3 #15, second bullet (PR-38): enemy units a moving Horrific model approached
        take a compulsory morale check in the morale phase at PL + 1 (a marker), once a turn."""
        if not units:
            return
        if not self.profile(el.id).has("Horrific"):
            raise IllegalCommand("FW3 4.3 Horrific", f"{el.name} is not Horrific")
        side = state.unit(el.unit).side
        for unit_id in units:
            unit = next((u for u in state.units if u.id == unit_id and u.side != side and not u.eliminated and self._targets(u)), None)
            if unit is None:
                raise IllegalCommand("FW3 4.3 Horrific", f"{unit_id!r} is not an enemy unit on the table")
            profiles = [self.profile(e.id) for e in unit.alive]
            abilities = set().union(*(p.abilities for p in profiles))
            if unit.data.get("horror_phase") or interrupts.immune_to_horror(abilities):
                continue
            if morale.never_checks(abilities, hero=any(p.hero for p in profiles)):
                continue
            unit.data.update(horror_phase=True, pl=interrupts.horrific_panic(unit.data["pl"]), marker=True)
            ctx.emit("horrific", f"{unit.name} is approached by {el.name}: a morale check at PL {unit.data['pl']} in the morale phase",
                     unit=unit.id)

    def _lift_off(self, state: BattleState, target: ElementState, command: Strike, ctx: Context) -> Resolution:
        """4.3 Flight: a flier engaged in melee (not already fighting this turn) rolls 1d8 and
        lifts off on 7-8, hovering out of reach until its next activation."""
        p = self.profile(target.id)
        if not p.has("Flight") or command.facts.get("cramped") or state.data["struck"].get(target.id):
            return
        escaped = yield from interrupts.lift_off()
        if escaped:
            target.data["hovering"] = True
            ctx.emit("lift_off", f"{target.name} lifts off before the blow and hovers {interrupts.HOVER_INCHES}\" up", model=target.id)
        else:
            ctx.emit("lift_off", f"{target.name} fails to lift off", model=target.id)

    # sentry (7.2, PR-25)
    def _sentries(self, state: BattleState, side: str) -> list[ElementState]:
        return [e for u in state.units if u.side != side for e in u.elements if e.alive and e.data.get("sentry") and not u.eliminated]

    def _sentry_window(self, state: BattleState, actors: list[ElementState], ctx: Context) -> Resolution:
        """An enemy model is about to act (or its unit activates: any of its models): each
        side with a held sentry may fire it first."""
        if not actors:
            return
        actor_side = state.unit(actors[0].unit).side
        for sentry in self._sentries(state, actor_side):
            seen = [a for a in actors if a.alive]
            if not seen or not sentry.data.get("sentry"):
                continue
            sunit = state.unit(sentry.unit)
            specs = tuple(
                CommandSpec(
                    "shoot",
                    {"unit": sunit.id, "model": sentry.id, "target": actor.unit, "target_model": actor.id, "weapon": sentry.data["sentry"]},
                    self._shoot_facts(sentry, self._armed(sentry).ranged_weapon(sentry.data["sentry"]), state.unit(actor.unit), False),
                    f"{sentry.name}: fire the sentry shot at {actor.name}" + (f" ({actor.id.rsplit('/', 1)[-1]})" if len(seen) > 1 else ""),
                )
                for actor in seen
            )
            hold = CommandSpec("choose", {"option": "hold"}, label="Hold the sentry")
            what = f"{seen[0].name} acts" if len(seen) == 1 else f"{state.unit(seen[0].unit).name} activates"
            answer = yield Decision(sunit.side, f"{what}: release {sentry.name}'s sentry shot?", (hold, *specs))
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
            CommandSpec("shoot", {"unit": unit.id, "model": el.id, "target": enemy.id, "weapon": weapon},
                        self._shoot_facts(el, self._armed(el).ranged_weapon(weapon), enemy, False),
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
        wild = entities.strike_targets(state, state.unit(el.unit))
        if wild is not None and unit.id in {u.id for u in wild}:
            pass  # 16.8: a loose entity goes for the nearest model, friend or foe
        elif unit.side == state.unit(el.unit).side or unit.eliminated:
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
        p = self.profile(el.id)
        if el.data.get("outside") and self._armour.get(el.id):  # 4.4: a rider has no armour protection
            return attrs.evolve(p, defence=max(p.defence - self._armour[el.id], 0))
        return p

    def _hurt(self, state: BattleState, el: ElementState, dp: int, pin: bool, ctx: Context, explosive: bool = False,
              attack: bool = True) -> Resolution:
        machine = self._machines.get(el.id)
        if machine is not None:  # 13: the damage tables, a pin only with DP, no Dodge
            yield from machine_play.hurt(state, el, machine, dp, pin, ctx, lambda gone: self._remove(state, gone, ctx))
            return
        p = self.profile(el.id)
        if dp and attack and p.has("Dodge"):
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
            yield from entities.caster_fell(state, el, ctx)  # 16.8: his entities' d8 at once
            if p.has(acid.ACID_BLOOD):
                yield from acid.spray(self, state, el, ctx)  # 17.5: the dead bug sprays acid
        elif after.incapacitated_turn is not None:
            el.data["incap"] = state.round
            self._casualty(unit)
            ctx.emit("incapacitated", f"{el.name} is down at 0 DP; a medic may still save it", model=el.id)
        if (after.removed or after.incapacitated_turn is not None) and p.hero:
            yield from self._hero_falls(state, el, ctx)

    def _hero_falls(self, state: BattleState, hero: ElementState, ctx: Context) -> Resolution:
        """4.2: friendly units that saw a hero fall (or were within 6\" of him) check morale
        in the next morale phase at PL +2. Our choice: a hero down at 0 DP counts as fallen."""
        side = state.unit(hero.unit).side
        own = [u.id for u in state.units_of(side) if u.id != hero.unit]
        if not own:
            return

        def check(command: Any) -> None:
            seen = command.facts.get("witnesses", [])
            if not isinstance(seen, list) or any(u not in own for u in seen):
                raise IllegalCommand("FW3 4.2", f"witnesses are units of {state.side(side).name} ({', '.join(own)})")

        fact = FactSpec("witnesses", (), [], "friendly units that saw the hero fall or were within 6\" of him", picks="units")
        answer = yield Decision(side, f"{hero.name} has fallen: which friendly units saw it?",
                                (CommandSpec("report", facts=(fact,), label="Report the witnesses"),), check=check)
        for unit_id in answer.facts.get("witnesses", []):
            unit = state.unit(unit_id)
            unit.data["pl"] += morale.PL_HERO_DEATH
            unit.data["marker"] = True
            ctx.emit("hero_falls", f"{unit.name} saw {hero.name} fall: PL +{morale.PL_HERO_DEATH}", unit=unit.id)

    def _kind(self, unit: UnitState) -> str:
        """A vehicle's or mecha's unit never checks morale, so never falls back (14.1)."""
        machine = next((self._machines[e.id] for e in unit.elements if e.id in self._machines), None)
        return machine.kind if machine is not None else "trooper"

    def _casualty(self, unit: UnitState) -> None:
        unit.data["pl"] += morale.PL_CASUALTY
        unit.data["marker"] = True

    def _remove(self, state: BattleState, el: ElementState, ctx: Context) -> None:
        unit = state.unit(el.unit)
        if el.data.get("incap") is None:
            self._casualty(unit)
        el.alive = False
        self._release_tangles(state, el, ctx)  # a dead entangler lets go (10.6)
        ctx.emit("removed", f"{el.name} is taken out", model=el.id)
        self._controller_lost(state, ctx, model_gone=el)  # revision 2: the controller is a model
        entities.removed(state, el, ctx)  # 16.8: loose entities, or a caster free again
        self_destruct.on_removed(self, state, el, ctx)  # 17.5, PR-74: the last hunter's countdown
        if self.revision >= PART2_TABLE_FACTS:
            optional_play.removed(state, el, ctx)  # 15.1: those behind step up, or the formation breaks
        if unit.eliminated:
            ctx.emit("eliminated", f"{unit.name} is wiped out", unit=unit.id)
            self._controller_lost(state, ctx, unit_gone=unit)

    # --- morale phase and turn end --------------------------------------------------
    def on_round_end(self, state: BattleState, ctx: Context) -> Resolution:
        state.data["supported"] = []  # PR-40: each hero supports one unit a morale phase
        for unit in state.units:
            if unit.eliminated:
                continue
            action = morale.morale_phase_action(unit.data["marker"], unit.data["status"])
            if not action:
                continue
            profiles = [self.profile(e.id) for e in unit.alive]
            if morale.never_checks(set().union(*(p.abilities for p in profiles)), self._kind(unit), any(p.hero for p in profiles)):
                continue
            if action == "check":
                yield from self._check_morale(state, unit, ctx)
            elif unit.data.get("uncontrolled"):
                continue  # 4.3 #22: no rally without a controller
            else:
                yield from self._rally(state, unit, ctx)
        for unit in state.units:  # PR-39: a Mindless unit that held on losing its controller idles a turn
            if self.revision >= 2 and unit.data.get("lost_round") == state.round and not unit.eliminated \
                    and unit.data["status"] == "normal" and "idle_round" not in unit.data:
                unit.data["idle_round"] = state.round + 1
                ctx.emit("idle", f"{unit.name} holds without its controller: it does nothing next turn, then moves 1\" at random",
                         unit=unit.id)
        for unit in state.units:
            for el in unit.alive:
                if el.data["incap"] is not None and state.round > el.data["incap"]:
                    el.alive = False
                    ctx.emit("removed", f"{el.name} was not treated in time", model=el.id)
                    self._controller_lost(state, ctx, model_gone=el)
        for unit in state.units:  # a controller dead after the morale phase: its Mindless unit checks in the next one
            if unit.data.get("lost_round") == state.round and "idle_round" not in unit.data and not unit.eliminated:
                unit.data.update(lost_round=state.round + 1, pl_carry=control.PL_CONTROLLER_LOST)
        yield from self._turn_end_victory(state, ctx)

    def _lost(self, state: BattleState) -> dict[str, int]:
        """Models each side has lost: dead, down at 0 DP, or fled with their unit."""
        out = {side.id: 0 for side in state.sides}
        for unit in state.units:
            if entities.is_entity_unit(unit):
                continue  # no part of the force (16.8)
            fled = unit.data.get("status") == "fled"
            out[unit.side] += sum(1 for e in unit.elements if fled or not e.alive or e.data.get("incap") is not None)
        return out

    def _turn_end_victory(self, state: BattleState, ctx: Context) -> Resolution:
        """PR-26: the scenario's condition, checked at the end of every turn."""
        data = state.data
        if data.get("victory") == victory.SUDDEN_DEATH:
            verdict = victory.sudden_death(data["started"], self._lost(state), {s.id: s.name for s in state.sides})
            if verdict is not None:
                data["verdict"] = {"winner": verdict.winner, "reason": f"sudden death: {verdict.reason}"}
        limit = ctx.setup.scenario.rounds
        if data.get("verdict") is None and data.get("objectives") and ((limit and state.round >= limit) or self._wiped(state)):
            yield from self._ask_objectives(state, early=self._wiped(state))
            if data.get("victory") == victory.OBJECTIVES:
                sides = [s.id for s in state.sides]
                verdict = victory.most_objectives(victory.held_objectives(data["held"], data["objectives"], sides))
                data["verdict"] = {"winner": verdict.winner, "reason": verdict.reason}
        if data.get("verdict") is not None:
            winner = data["verdict"]["winner"]
            text = f"{state.side(winner).name} win" if winner else "a draw"
            ctx.emit("victory", f"{text}: {data['verdict']['reason']}", winner=winner)

    def _wiped(self, state: BattleState) -> bool:
        """A side has no unit left on the table: the battle ends (is_over)."""
        return any(all(u.side != side.id or u.eliminated for u in state.units) for side in state.sides)

    def _ask_objectives(self, state: BattleState, early: bool = False) -> Resolution:
        """The last turn is over, or a side is wiped out: the players say which side holds
        each objective."""
        names = list(state.data["objectives"])
        sides = [s.id for s in state.sides]

        def check(command: Any) -> None:
            try:
                victory.held_objectives(command.facts.get("held", {}), names, sides)
            except ValueError as exc:
                raise IllegalCommand("FW3 5", str(exc)) from None

        fact = FactSpec("held", (), {}, "the side holding each objective: {\"" + names[0] + "\" = \"" + sides[0] + "\"} (unnamed: nobody)")
        when = "A side is wiped out" if early else "The last turn is over"
        answer = yield Decision(sides[0], f"{when}: which side holds each objective?",
                                (CommandSpec("report", facts=(fact,), label="Report the objectives held"),), check=check)
        held = answer.facts.get("held", {}) if isinstance(answer.facts, dict) else {}
        state.data["held"] = {name: side for name, side in held.items() if side}

    def _situation(self, unit: UnitState, facts: dict[str, Any] | None = None) -> morale.MoraleSituation:
        facts = facts or {}
        profiles = [self.profile(e.id) for e in unit.alive]
        abilities = set().union(*(p.abilities for p in profiles))
        hero = facts.get("supporting_hero", "")
        return morale.MoraleSituation(
            highest_tq=max(p.tq for p in profiles),
            models=len(profiles),
            mounted=any(p.mounted for p in profiles),
            brave="Brave" in abilities,
            grizzled="Grizzled" in abilities,
            inspired=bool(facts.get("hero_in_sight")),
            out_of_coherency=bool(facts.get("out_of_coherency")),
            supporting_hero_tq=self.profile(hero).tq if hero else None,
        )

    def _coherency(self, state: BattleState, unit: UnitState, out: Any, ctx: Context) -> Resolution:
        """9, PR-34, PR-36: before its first action the owner may report models out of
        coherency with the leader's group; each checks alone (its own TQ, the unit's Brave
        and Grizzled, 1 success) and on a failure spends its next action moving back."""
        ids = [e.id for e in unit.alive if e.data["incap"] is None]
        if not isinstance(out, list) or any(m not in ids for m in out):
            raise IllegalCommand("FW3 9", f"out_of_coherency lists living models of {unit.name}")
        abilities = set().union(*(self.profile(e).abilities for e in ids))
        for model_id in out:
            el = state.element(model_id)
            alone = morale.MoraleSituation(highest_tq=self.profile(el.id).tq, models=1,
                                           brave="Brave" in abilities, grizzled="Grizzled" in abilities)
            if alone.highest_tq == 0 and el.data["actions"] >= turn.ACTION_COSTS["focus"]:  # PR-34: TQ 0 may Focus
                legal = (CommandSpec("choose", {"option": "focus"}, label=f"{el.name}: Focus for the check (+1d, 1 action)"),
                         CommandSpec("choose", {"option": "no"}, label=f"{el.name}: check without Focus"))
                answer = yield Decision(unit.side, f"{el.name} (TQ 0) checks its coherency: Focus first?", legal)
                if getattr(answer, "option", "") == "focus":
                    el.data["actions"] -= turn.ACTION_COSTS["focus"]
                    alone = attrs.evolve(alone, focus=True)
            ok, _ = yield from morale.morale_roll(alone, morale.COHERENCY_TARGET)
            el.data["regroup"] = not ok
            ctx.emit("coherency", f"{el.name} is out of coherency and {'keeps its nerve' if ok else 'must move back first'}",
                     model=el.id, passed=ok)

    def _heroes(self, state: BattleState, side: str) -> list[ElementState]:
        """The side's heroes standing on the table (they inspire and support, 4.2)."""
        return [e for u in state.units_of(side) for e in u.alive if self.profile(e.id).hero and e.data.get("incap") is None]

    def _morale_facts(self, state: BattleState, unit: UnitState, rally: bool) -> Resolution:
        """The table facts of a morale roll (14.2, PR-35, PR-40), asked of the unit's owner
        before the dice: a hero in sight (or within 6"), a hero lending his TQ and re-roll
        (each hero supports one unit a morale phase), a model out of coherency (compulsory
        checks only). Nothing is asked when none of them can apply."""
        heroes = [e for e in self._heroes(state, unit.side) if e.id not in state.data.setdefault("supported", [])]
        inspiring = [e for e in self._heroes(state, unit.side) if self.profile(e.id).has("Inspires Bravery")]
        facts: list[FactSpec] = []
        if inspiring:
            facts.append(FactSpec("hero_in_sight", (False, True), False,
                                  "a model of the unit sees a friendly hero, or is within 6\" of one (+1d)"))
        if heroes:
            facts.append(FactSpec("supporting_hero", ("", *(e.id for e in heroes)), "",
                                  "a hero within coherency lends his TQ and re-roll (one unit each a phase)"))
        if not rally and len(unit.alive) > 1:
            facts.append(FactSpec("out_of_coherency", (False, True), False, "a model of the unit is out of coherency (-1d)"))
        if not facts:
            return {}
        what = "rally" if rally else f"morale check (PL {unit.data['pl']})"
        answer = yield Decision(unit.side, f"{unit.name}: the table facts for its {what}",
                                (CommandSpec("report", facts=tuple(facts), label="Report"),))
        got = dict(answer.facts) if isinstance(getattr(answer, "facts", None), dict) else {}
        if got.get("supporting_hero"):
            state.data["supported"].append(got["supporting_hero"])
        return got

    def _check_morale(self, state: BattleState, unit: UnitState, ctx: Context) -> Resolution:
        pl = unit.data["pl"]
        facts = yield from self._morale_facts(state, unit, rally=False)
        passed, faces = yield from morale.morale_roll(self._situation(unit, facts), pl)
        if passed:
            ctx.emit("morale", f"{unit.name} holds (PL {pl})", unit=unit.id)
            return
        cowardly = any(self.profile(e.id).has("Cowardly") for e in unit.alive)
        unit.data["status"] = morale.after_failed_check(unit.data["status"], cowardly)
        ctx.emit("morale", f"{unit.name} fails its morale check (PL {pl}) and is {unit.data['status'].replace('_', ' ')}", unit=unit.id)

    def _rally(self, state: BattleState, unit: UnitState, ctx: Context, at_activation: bool = False) -> Resolution:
        facts = yield from self._morale_facts(state, unit, rally=True)
        ok, _ = yield from morale.morale_roll(self._situation(unit, facts), 0, rally=True)
        if ok:
            unit.data["status"] = morale.after_rally(unit.data["status"])
        ctx.emit("rally", f"{unit.name} {'rallies' if ok else 'fails to rally'}: {unit.data['status'].replace('_', ' ')}", unit=unit.id)

    # --- the end ------------------------------------------------------------------
    def is_over(self, state: BattleState) -> bool:
        return state.data.get("verdict") is not None or self._wiped(state)

    def end_reason(self, state: BattleState) -> str:
        if state.data.get("verdict") is not None:
            return str(state.data["verdict"]["reason"])
        gone = [side.name for side in state.sides if not state.units_of(side.id)]
        return f"{', '.join(gone)} has no unit left on the table (PR-26)" if gone else ""

    def victory_points(self, state: BattleState) -> dict[str, Fraction]:
        """PR-26: casualties inflicted (fled models and models down at 0 DP count, PR-41)."""
        out = {}
        for side in state.sides:
            lost = 0
            for unit in state.units:
                if unit.side == side.id:
                    continue
                fled = unit.data.get("status") == "fled"
                lost += sum(1 for e in unit.elements if fled or not e.alive or e.data.get("incap") is not None)
            out[side.id] = Fraction(lost)
        return out

    def _saved_after_battle(self, state: BattleState, side: str) -> bool:
        """Option down_at_end (PR-62 ends with the battle): does a model still down at 0 DP
        live on into the campaign? Default: when a Medic of its side is still standing."""
        rule = self.options.get("down_at_end", "medic")
        if rule != "medic":
            return bool(rule == "saved")
        return any(
            self.profile(e.id).has("Medic") and e.data.get("incap") is None
            for u in state.units_of(side) for e in u.alive  # a unit that fled is no longer on the table
        )

    def outcome(self, state: BattleState) -> BattleOutcome:
        """VPs are casualties inflicted (PR-26); each side's dead go back to the campaign
        per element entry (models that fled the table survive the battle)."""
        from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine

        vps = self.victory_points(state)
        objective_vp = {o.name: o.vp for o in self._scenario_objectives}
        sides = []
        for side in state.sides:
            casualties: list[Casualty] = []
            for unit in state.units:
                if unit.side != side.id or entities.is_entity_unit(unit):
                    continue
                lost: dict[int, tuple[str, int]] = {}
                saved = self._saved_after_battle(state, side.id)
                for el in unit.elements:
                    if not el.alive or (el.data.get("incap") is not None and not saved):
                        name, n = lost.get(el.entry, (el.name, 0))
                        lost[el.entry] = (name, n + 1)
                casualties.extend(Casualty(unit.name, name, entry, n) for entry, (name, n) in sorted(lost.items()))
            gone = tuple(u.name for u in state.units if u.side == side.id and u.eliminated)
            lines = [VPLine("casualties inflicted (fled models count)", vps.get(side.id, Fraction(0)), "other")]
            for name, holder in state.data.get("held", {}).items():
                if holder == side.id:
                    lines.append(VPLine(f"objective {name}", objective_vp.get(name, Fraction(0)), "objective"))
            sides.append(SideOutcome(side.id, tuple(lines), gone, tuple(casualties)))
        verdict = state.data.get("verdict")
        standing = [side.id for side in state.sides if state.units_of(side.id)]
        if verdict is None and state.data.get("victory") != victory.VP and len(standing) == 1:
            verdict = {"winner": standing[0]}  # the last side on the table wins whatever the condition
        return BattleOutcome(sides=tuple(sides), rounds_played=state.round, end_reason=state.end_reason,
                             strategic_winner=(verdict["winner"] or None) if verdict else None)

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
        if command.type == "breach":  # 12.4: a door or wall rolls its DEF only
            opposed, name, _, _ = structures_play.opposed_for(self, state, command)
            model = state.element(getattr(command, "model", "")).name
            return odds_report([ModelOdds(model, opposed, exact_odds(opposed))], opposed.notes)
        if isinstance(command, Cast) and command.power in ("spirit_strike", "teleport"):
            return arcane_play.power_report(self, state, command)  # 16.4, 16.7: no opposed pool
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

    def odds_observed(self, before: BattleState, after: BattleState, command: Command,
                      events: Sequence[Event]) -> dict[str, int] | None:
        """A shot's or strike's DP on the target unit's models, whether any was pinned, and
        (melee) the DP the counter-attacks put on the attacker's unit, read off the models'
        DP and pins (machines, whose damage goes by the tables, are not read). Not settled
        until the roll is made (the defender may first be asked about a Focus)."""
        if not isinstance(command, (Shoot, Strike)):
            return {}
        if not any(e.kind in ("shot", "melee", "placement") and e.data.get("model") == command.model for e in events):
            return None

        def dp(state: BattleState, unit_id: str) -> int:
            return sum(int(e.data["dp"]) for e in state.unit(unit_id).elements if "dp" in e.data)

        def pins(state: BattleState, unit_id: str) -> int:
            return sum(int(e.data.get("pins", 0)) for e in state.unit(unit_id).elements)

        seen = {"DP inflicted": dp(before, command.target) - dp(after, command.target),
                "pinned": int(pins(after, command.target) > pins(before, command.target))}
        if isinstance(command, Strike):
            seen["counter-attack DP"] = dp(before, command.unit) - dp(after, command.unit)
        return seen

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

    def model_names(self, state: BattleState, unit_id: str) -> dict[str, str]:
        """Each model as the panel and the actions list name it (names.model_name)."""
        return {el.id: model_name(el) for el in state.unit(unit_id).elements}

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
        ranks = (unit.data.get("formation") or {}).get("ranks") or []
        if ranks:  # 15.1: who stands where decides who may strike and shoot
            status.append(f"in formation {len(ranks[0])} wide, {len(ranks)} deep")
        rank_of = {model: RANK_WORDS[min(n, len(RANK_WORDS) - 1)] for n, rank in enumerate(ranks) for model in rank}
        side = state.side(unit.side)
        if side.data.get("extra_pool") and state.scheme.get("active_unit") == unit.id:  # where it can be spent now, not on every unit
            status.append(f"{side.data['extra_pool']} extra in the side's pool")
        lines = []
        for el in unit.alive:
            p = self.profile(el.id)
            machine = self._machines.get(el.id)
            words = machine_play.describe(machine, el) if machine else [f"DP {el.data['dp']}/{p.dp}"]
            words.extend(arcane_play.describe(el))
            words.extend(passengers.describe(state, el))
            if el.data.get("actions"):
                # short so a model's usual line (name, DP, actions) fits the panel at 80 columns
                words.append(f"{el.data['actions']} act")
            if el.data.get("pins"):
                words.append(f"pinned x{el.data['pins']}")
            for flag, word in (("stunned", "stunned"), ("extra", "extra action"), ("aim", "aiming"), ("focus", "focused"), ("fast", "fast"),
                               ("prone", "prone")):
                if el.data.get(flag):
                    words.append(word)
            if el.id in rank_of:
                words.append(rank_of[el.id])
            if el.data.get("sentry"):
                words.append(f"sentry ({el.data['sentry']})")
            if el.data.get("incap") is not None:
                words.append("down, awaiting a medic")
            if el.data.get("unloaded"):
                words.append("to reload: " + ", ".join(el.data["unloaded"]))
            lines.append(f"{model_name(el)}: " + ", ".join(words))
        return UnitView(tuple(status), tuple(lines))


FAST_INCHES = 12  # 11.8: a model that moved this far in its activation is a fast target


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise IllegalCommand("FW3 8", f"{name} is a whole number of inches, not {value!r}")
    return value


def _fires(weapon: RangedWeapon) -> bool:
    """Launchers fire through a named round; the whole weapon is not a shot of its own."""
    return not (weapon.ammo and weapon.atk is None and weapon.blast_atk is None)
