"""The activation loop and the clocks: which commands a unit may give, the loop that
asks for them, and the round, turn and activation hooks (Entrenched positions, the wind,
broken and rallied units, Snared and aground elements, Reliant, Sticky, spell durations,
misfire lockouts and Reload)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from campaign.engine.lazy_specs import Item, LazyPart, LazySpecs
from campaign.engine.pending import CommandSpec, Decision, RollRequest
from campaign.engine.state import BattleState, Effect, ElementState, UnitState
from campaign.rulesets.flat_out_war.editions import SO
from campaign.rulesets.flat_out_war.engine import entrench, morale as M
from campaign.rulesets.flat_out_war.engine.attack import Hit, melee_die
from campaign.rulesets.flat_out_war.engine.attack_part import AttackPart
from campaign.rulesets.flat_out_war.engine.clocks import PER_ACTIVATION, tick_reload
from campaign.rulesets.flat_out_war.engine.commands import (
    CAST_FACTS,
    ENTRENCH_FACTS,
    MELEE_FACTS,
    MOVE_FACTS,
    SHOOT_FACTS,
    fact,
)
from campaign.rulesets.flat_out_war.engine.movement import COMPASS
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution
from campaign.rulesets.flat_out_war.engine.play.casting import _spell_name
from campaign.rulesets.flat_out_war.engine.recovery import recovery_plan
from campaign.rulesets.flat_out_war.engine.rolls import step, succeeds, total_of

if TYPE_CHECKING:
    from campaign.engine.context import Context


_GUNS = " ranged weapon"  # (not an attribute name) in `_created`: an element created with a ranged weapon
_OWN_ACTIONS = frozenset({"activate", "magic"})  # attributes that give an element a command of its own
# the kinds of a unit's lazy groups (`LazyPart`): made only when the menu is read
_ATTACH = frozenset({"attach"})
_OWN = frozenset({"switch", "cast"})

# offered in every activation's every Decision: one frozen spec each, made once
_OBJECTIVE = CommandSpec("objective", {}, (), "Record a scenario objective achieved")
_STRATEGIC = CommandSpec("strategic_victory", {}, (), "Declare a strategic victory")
_ALWAYS = (_OBJECTIVE, _STRATEGIC)


class ActivationMixin(PlayHelpers):
    """`FlatOutWarRules`' legal commands, activation loop and clock hooks."""

    edition: str

    # --- legal commands and the loop ------------------------------------------
    def can_activate(self, state: BattleState, unit_id: str) -> bool:
        return self.unit_can_activate(state.unit(unit_id))

    def unit_can_activate(self, unit: UnitState) -> bool:
        """`can_activate` of a unit at hand (the card host asks it of every unit after every action)."""
        return not unit.eliminated and not unit.data.get("attached_to")

    def activatable(self, state: BattleState, side: str) -> list[UnitState]:
        """`can_activate`'s units of the side, from the standing units kept by `_living`: while
        no officer is attached, the side's standing list itself (the same list every turn
        until a unit falls; do not change it)."""
        units = self._side_standing(state, side)
        # only a unit created with a Command element can attach (`_commands_for` offers it);
        # asked every turn of a side with many such units: the C-level any of their data
        for officer in self._side_officers(state, side):  # (a loop: no generator per turn)
            if officer.data.get("attached_to"):
                return [u for u in units if not u.data.get("attached_to")]
        return units

    def _side_officers(self, state: BattleState, side: str) -> list[UnitState]:
        """The side's standing units with an element created with Command: the only ones
        that can attach to another unit (kept with the standing lists, as `_side_standing`)."""
        units = self._side_standing(state, side)
        found = self._officers_of.get(side)
        if found is None or found[0] is not units:
            command = self._command_units
            found = self._officers_of[side] = (units, [u for u in units if u.id in command])
        return found[1]

    def activation_commands(self, state: BattleState, unit_id: str) -> list[CommandSpec]:
        unit = state.unit(unit_id)
        if unit.eliminated or state.over:
            return []
        return self._commands_for(state, unit, self._able(state, unit))

    def _commands_for(self, state: BattleState, unit: UnitState, able: Sequence[ElementState]) -> list[CommandSpec]:
        """`activation_commands` for a standing unit whose `_able` elements the caller has."""
        return list(LazySpecs(self._command_items(state, unit, able)))

    def _command_items(self, state: BattleState, unit: UnitState, able: Sequence[ElementState]) -> list[Item]:
        """`_commands_for` in order, its melee and shoot specs as `AttackPart`s and its
        attach, switch and cast specs as `LazyPart`s (made as read: a replay's check makes
        only the group its command names, the autoplayer never an attach or a switch)."""
        unit_id = unit.id
        if not able:
            return []
        m = unit.markers
        morale = unit.data.get("morale", "steady")
        specs: list[Item] = []
        created, all_mobile = self._created(state, unit)
        mobile = all_mobile or any((self.element_of(state, e).move or 0) > 0 for e in able)
        if morale == "fleeing":
            if not m.get("moved") and mobile:
                specs.append(self._unit_spec("move", unit, "{} flees: run toward shelter or its own table edge"))
            elif not m.get("rally_tried"):
                specs.append(self._unit_spec("rally", unit, "{}: try to rally"))
            return specs
        # (only a Waterborne element runs aground)
        if not m.get("moved") and mobile and not ("waterborne" in created and all(e.markers.get("aground") for e in able)):
            specs.append(self._unit_spec("move", unit, "Move {}"))
        if not m.get("acted") and morale == "steady":
            # The elements' attributes as bought (a superset of what their combat views have:
            # Activate can only switch attributes off) rule out most questions without
            # building a view of every element at every Decision.
            officer_unit = "command" in created and all(
                "command" in self._bought(state, e)[0] and self.combatant(state, e).has("command") for e in able)
            if unit.data.get("officer"):
                specs.append(self._unit_spec("detach", unit, "{}: detach its officer"))
            if officer_unit:  # an officer on its own may attach, or fight like any unit
                specs.append(LazyPart(_ATTACH, partial(self._attach_specs, state, unit), self._unit_params(unit_id)))
            enemies = self._enemies(state, unit.side)
            if enemies:
                specs.append(self._attack_part("melee", unit, enemies, "melee attack on"))
                # an element created with a ranged weapon has one still unless it lost weapons
                if _GUNS in created and any(self._bought(state, e)[1] and (
                        not e.data.get("lost_weapons") or self.combatant(state, e).ranged) for e in able):
                    specs.append(self._attack_part("shoot", unit, enemies, "shoot at"))
            if not _OWN_ACTIONS.isdisjoint(created):
                specs.append(LazyPart(_OWN, partial(self._own_specs, state, unit, able), self._unit_params(unit_id)))
        elif m.get("acted") in ("melee", "shoot") and morale == "steady":
            # split fire: elements that have not attacked yet may pick other targets
            done = set(m.get("attacked", []))
            rest = [e for e in able if e.id not in done]
            kind = m["acted"]
            can = (lambda c: melee_die(c, self.edition) is not None) if kind == "melee" else (lambda c: bool(c.ranged))
            if any(can(self.combatant(state, e)) for e in rest):
                enemies = self._enemies(state, unit.side)
                if enemies:
                    verb = "melee attack on" if kind == "melee" else "shoot at"
                    specs.append(self._attack_part(kind, unit, enemies, f"the rest {verb}"))
        return specs

    def _unit_params(self, unit_id: str) -> dict[str, str]:
        """`{"unit": unit_id}`: what every spec of a unit's lazy group carries (one dict per
        unit for the battle; read only)."""
        params = self._group_params.get(unit_id)
        if params is None:
            params = self._group_params[unit_id] = {"unit": unit_id}
        return params

    def _attach_specs(self, state: BattleState, unit: UnitState) -> list[CommandSpec]:
        """The officer unit's `attach` specs: one per other standing unit of its side that has
        no officer, in unit order (made when the menu is read: a `LazyPart`)."""
        unit_id, name = unit.id, unit.name
        specs: list[CommandSpec] = []
        for other in self._side_standing(state, unit.side):  # (state.units_of, kept)
            if other.id != unit_id and not other.data.get("officer"):
                spec = self._specs.get(("attach", unit_id, other.id))
                if spec is None:
                    spec = self._specs[("attach", unit_id, other.id)] = CommandSpec(
                        "attach", {"unit": unit_id, "target": other.id}, (), f"Attach {name} to {other.name}")
                specs.append(spec)
        return specs

    def _own_specs(self, state: BattleState, unit: UnitState, able: Sequence[ElementState]) -> list[CommandSpec]:
        """The `switch` and `cast` specs of the unit's `able` elements, element by element
        (made when the menu is read: a `LazyPart`)."""
        unit_id = unit.id
        specs: list[CommandSpec] = []
        for es in able:
            own = self._bought(state, es)[0]
            if "activate" in own and self.combatant(state, es).has("activate") and self.edition == SO:
                spec = self._specs.get(("switch", unit_id, es.id))
                if spec is None:
                    spec = self._specs[("switch", unit_id, es.id)] = CommandSpec(
                        "switch", {"unit": unit_id, "element": es.id}, (),
                        f"{es.name}: switch its Activate attribute on or off")
                specs.append(spec)
            if "magic" in own and self.combatant(state, es).has("magic") and not es.data.get("lockout"):
                for spell_name in self.element_of(state, es).spells:
                    spell = _spell_name(spell_name)
                    spec = self._specs.get(("cast", unit_id, es.id, spell))
                    if spec is None:
                        spec = self._specs[("cast", unit_id, es.id, spell)] = CommandSpec(
                            "cast", {"unit": unit_id, "element": es.id, "spell": spell}, CAST_FACTS,
                            f"{es.name}: cast {spell}", odds=True, targets="units")
                    specs.append(spec)
        return specs

    def _created(self, state: BattleState, unit: UnitState) -> tuple[frozenset[str], bool]:
        """The attributes any element of the unit was created with (with _GUNS if one has a
        ranged weapon), and whether every one was created able to move: kept for the battle
        (a unit's elements never change), so a Decision asks its elements only the questions
        one of them could answer yes."""
        found = self._created_of.get(unit.id)
        if found is None:
            names: set[str] = set()
            for es in unit.elements:
                own, guns = self._bought(state, es)
                names.update(own)
                if guns:
                    names.add(_GUNS)
            mobile = all((self.element_of(state, e).move or 0) > 0 for e in unit.elements)
            found = self._created_of[unit.id] = (frozenset(names), mobile)
        return found

    def _unit_spec(self, kind: str, unit: UnitState, label: str) -> CommandSpec:
        """The legal `move`, `rally` or `detach` of a unit, made once per `label` (a template
        of the label: `{}` the unit's name, filled in when made), as _attack_spec."""
        key = (kind, unit.id, label)
        spec = self._specs.get(key)
        if spec is None:
            spec = self._specs[key] = CommandSpec(kind, {"unit": unit.id}, MOVE_FACTS if kind == "move" else (),
                                                  label.format(unit.name))
        return spec

    def _attack_part(self, kind: str, unit: UnitState, enemies: list[UnitState], verb: str) -> AttackPart:
        """`_attack_spec` for each of `enemies` (the `_enemies` list, kept while no unit's
        standing changes, so the part is too), made as read."""
        key = (kind, unit.id, verb)
        found = self._attack_parts.get(key)
        if found is None or found[0] is not enemies:
            made = self._attack_specs.get(key)
            if made is None:
                made = self._attack_specs[key] = {}
            ids = self._enemy_ids.get(unit.side)  # (the enemies' ids: one list per side's enemies)
            if ids is None or ids[0] is not enemies:
                ids = self._enemy_ids[unit.side] = (enemies, [e.id for e in enemies])
            found = self._attack_parts[key] = (
                enemies, AttackPart(kind, enemies, ids[1], made, partial(self._attack_spec, kind, unit, verb, made)))
        return found[1]

    def _attack_spec(self, kind: str, unit: UnitState, verb: str, made: dict[str, CommandSpec],
                     enemy: UnitState) -> CommandSpec:
        """The legal `melee` or `shoot` of `unit` at `enemy`, kept in `made` by the enemy's
        id: the same frozen spec every time it is offered (a battle offers each pair
        thousands of times), made on first offer."""
        spec = made[enemy.id] = CommandSpec(
            kind, {"unit": unit.id, "target": enemy.id}, MELEE_FACTS if kind == "melee" else SHOOT_FACTS,
            f"{unit.name}: {verb} {enemy.name}", odds=True, targets="units")
        return spec

    def activation(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        unit = state.unit(unit_id)
        while not unit.eliminated and not state.over and not self.is_over(state):
            able = self._able(state, unit)  # (once per choice: the commands and the flyers' 2" both read it)
            items = self._command_items(state, unit, able)
            if not items:
                return
            if self._must_flee(state, unit, items):
                # FOW 15.3: a broken unit runs as soon as it is activated; nothing else first
                # (a fleeing unit's items are plain specs: no attack part)
                legal = [s for s in items if isinstance(s, CommandSpec) and s.type == "move"]
                command = yield Decision(unit.side, f"{unit.name} flees: it runs its whole move first", tuple(legal))
                yield from self.resolve(state, command, ctx)
                continue
            items += _ALWAYS  # (a new list each Decision: `_command_items` makes it)
            if not (self.must_fly_on(state, unit, able) and any(isinstance(s, CommandSpec) and s.type == "move"
                                                                 for s in items)):
                end = self._specs.get(("end_activation", unit_id))
                if end is None:
                    end = self._specs[("end_activation", unit_id)] = CommandSpec(
                        "end_activation", {"unit": unit_id}, label="End activation")
                items.append(end)
            # made as read: a replay's check makes only the attack spec its command names
            command = yield Decision(unit.side, f"{unit.name}: choose an action or end the activation",
                                     LazySpecs(items))
            if command.type == "end_activation":
                return
            yield from self.resolve(state, command, ctx)

    def _must_flee(self, state: BattleState, unit: UnitState, legal: list[Item]) -> bool:
        return (unit.data.get("morale") == "fleeing" and not unit.markers.get("moved")
                and any(isinstance(s, CommandSpec) and s.type == "move" for s in legal))

    # --- round, turn and activation hooks -------------------------------------
    def on_round_start(self, state: BattleState, ctx: Context) -> Resolution:
        """A-39: with any Sailed element in play, the engine rolls where the wind comes from."""
        # setup 3.5: the owner writes it down, hidden (only a unit created Entrenched ever is)
        for unit in entrench.waiting(state) if self._entrench_units else ():
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
        if "wind" in state.data or not self._static_any("sailed") or not any(  # most battles have no Sailed
            self.combatant(state, e).has("sailed") for u in state.units for e in u.living
        ):
            return
        (face,) = yield RollRequest(8, 1, "1 x d8 wind direction (1 N, 2 NE ... 8 NW)")
        state.data["wind"] = COMPASS[face - 1]
        ctx.emit("wind", f"The wind blows from the {COMPASS[face - 1]} ({face})", wind=COMPASS[face - 1])

    def on_activation_end(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        self._faced_clear(state)  # a turn to meet a charge lasts the charger's activation
        return
        yield  # pragma: no cover

    def on_activation_start(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        unit = state.unit(unit_id)
        self._reveal(state, ctx, unit, "its owner reveals it and it acts at once")
        for key in PER_ACTIVATION:
            unit.markers.pop(key, None)
        morale = unit.data.get("morale", "steady")
        if morale == "broken":
            unit.data["morale"] = M.on_activation(morale)
            tight = not self._loose(state, unit)
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
        # only an Ensnare weapon snares, and only a Waterborne element runs aground: without
        # either in the battle no element has anything to roll here
        for es in unit.living if self._may_disable or self._static_any("waterborne") else ():
            if es.markers.get("snared"):  # a recovery roll frees it
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

    def _reveal(self, state: BattleState, ctx: Context, unit: UnitState, why: str) -> None:
        where = entrench.reveal(state, unit)
        if where is not None:
            ctx.emit("reveal", f"{unit.name} is revealed ({why})" + (f": entrenched at {where}" if where else ""),
                     unit=unit.id, location=where)

    def on_turn_start(self, state: BattleState, side: str, ctx: Context) -> Resolution:
        lost_before = self._loss_mark()
        # only a Reliant element is ever down, and a Sticky marker needs a Sticky attacker:
        # without one in the battle, only units with a Reliant element have anything to do
        sticky_too = self._static_any("sticky")
        reliant = self._reliant_units
        if not (sticky_too or reliant):
            yield from self._losses_morale(state, ctx, lost_before)
            return
        for unit in list(self._living(state)[1]):  # units with no living element have nothing to do
            if not sticky_too and unit.id not in reliant:
                continue
            # only marked elements have anything to do here (most carry no marker); a roll
            # below marks no other element, so choosing them first changes nothing
            for es in [e for e in unit.elements if e.alive and e.markers]:
                if unit.side == side and es.markers.get("down"):  # Reliant tries again
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

    def _sticky_follow_up(self, state: BattleState, ctx: Context, es: ElementState, sticky: dict[str, Any]) -> Resolution:
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

    def on_turn_end(self, state: BattleState, side: str, ctx: Context) -> Resolution:
        # spell durations: every player-turn counts, from the one after the casting
        lost_before = self._loss_mark()
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
            if effect.kind == "Fly":  # still airborne: a recovery roll or it crashes
                for es in unit.living:  # (a tuple: a crash leaves it as it was)
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
        # only the side's units and elements created able to carry a lockout or a reload
        # (rules.py new_state lists them), in unit order; of those, the ones alive with a
        # lockout or reload counters have a clock to tick (few do)
        units = state.units
        for pos, unit_id, places in self._clock_places.get(side, ()):
            unit = units[pos] if pos < len(units) and units[pos].id == unit_id else state.unit(unit_id)
            elements = unit.elements
            for es in [e for e in (elements[i] for i in places)
                       if e.alive and (e.data.get("lockout") or e.data.get("reload"))]:
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
        return name in self._bought(state, es)[0]  # as a fresh combatant would have it (kept per element)
