"""Helpers every part of Flat Out War's play shares: dice (with Lucky), unit lookup,
the elements able to act, the enemies, spell effects on a unit and an attack's Situation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from campaign.engine.commands import Reroll
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, RollRequest
from campaign.engine.pending import Resolution as Resolution  # the mixins import it from here
from campaign.engine.state import BattleState, ElementState, UnitState, liveness_epoch, revival_epoch
from campaign.rulesets.flat_out_war.editions import V17
from campaign.rulesets.flat_out_war.engine.commands import Attack, FactCommand, Shoot, fact, facts_of
from campaign.rulesets.flat_out_war.engine.rolls import Mod
from campaign.rulesets.flat_out_war.engine.situation import Situation

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.engine.commands import Command
    from campaign.force import Element
    from campaign.rulesets.flat_out_war.engine.attack import Hit
    from campaign.rulesets.flat_out_war.engine.attack_part import AttackPart
    from campaign.rulesets.flat_out_war.engine.combatant import Arm, Combatant
    from campaign.rulesets.flat_out_war.engine.declare import UnderTemplate
    from campaign.rulesets.flat_out_war.engine.odds import AttackSpec
    from campaign.rulesets.flat_out_war.engine.shots import ShotTarget


class PlayHelpers:
    """Shared helpers of `FlatOutWarRules` (rules.py), which mixes this in; every mixin
    of play/ subclasses it, so each one type-checks against what the others provide."""

    edition: str
    options: dict[str, Any]
    _traits: dict[str, Any]  # element id -> parsed attributes (FlatOutWarRules fills it)
    _static_names: frozenset[str]  # attributes some element was created with (`_static_any`)
    # tests set it: resolution then checks what a check handed over (rules.py `hand_over`)
    # against what it would work out afresh
    verify_hand_over = False

    if TYPE_CHECKING:
        # What the mixins ask of each other and of FlatOutWarRules, declared for the type
        # checker only (at run time the real methods come first in FlatOutWarRules' MRO).
        # rules.py
        def combatant(self, state: BattleState, es: ElementState) -> Combatant: ...
        def element_of(self, state: BattleState, es: ElementState) -> Element: ...
        def resolve(self, state: BattleState, command: Command, ctx: Context) -> Resolution: ...
        def hand_over(self, state: BattleState, command: Command, worked_out: Any) -> None: ...
        def _static_any(self, name: str) -> bool: ...
        # activation.py
        def _reveal(self, state: BattleState, ctx: Context, unit: UnitState, why: str) -> None: ...
        def _static_has(self, state: BattleState, es: ElementState, name: str) -> bool: ...
        def _created(self, state: BattleState, unit: UnitState) -> tuple[frozenset[str], bool]: ...
        # movement.py
        def must_fly_on(self, state: BattleState, unit: UnitState,
                        able: Sequence[ElementState] | None = None) -> bool: ...
        # charging.py
        def _contact_made(self, state: BattleState, ctx: Context, charger: UnitState, defenders: list[UnitState],
                          elsewhere: set[str]) -> Resolution: ...
        def _faced_clear(self, state: BattleState) -> None: ...
        # attacks.py
        def _aim_shots(self, state: BattleState, cmd: Attack | None, sit: Situation, target: UnitState, cs: list[Combatant],
                       specs: list[AttackSpec]) -> list[tuple[UnitState, list[AttackSpec]]]: ...
        def _allocation(self, state: BattleState, target: UnitState, cmd: Attack | None) -> list[ElementState]: ...
        def _covered(self, state: BattleState, cmd: Attack | None, unit: UnitState, what: str) -> Resolution: ...
        def _fire(self, state: BattleState, ctx: Context, unit: UnitState, target: UnitState, shooters: list[ElementState],
                  sit: Situation, cmd: Attack | None, names: set[str] | None = None,
                  cs: list[Combatant] | None = None) -> Resolution: ...
        def _members(self, state: BattleState, unit: UnitState) -> list[ElementState]: ...
        def _participants(self, state: BattleState, unit: UnitState, chosen: list[str] | None,
                          kind: str = "") -> list[ElementState]: ...
        def _rank_room(self, state: BattleState, unit: UnitState, kind: str, used: int) -> int | None: ...
        def _shot_targets(self, cmd: Attack) -> list[ShotTarget]: ...
        def _take_action(self, state: BattleState, unit: UnitState, cmd: FactCommand, specs: tuple,
                         attackers: list[ElementState] | None = None) -> None: ...
        def _weapon_problem(self, state: BattleState, c: Combatant, w: Arm) -> str | None: ...
        def attack_modifiers(self, state: BattleState, unit: UnitState, target: UnitState) -> tuple[Mod, ...]: ...
        def formation_words(self, unit: UnitState) -> str: ...
        def under_template(self, state: BattleState, unit: UnitState,
                           covered: list[ElementState]) -> list[UnderTemplate]: ...
        # hits.py
        def _harmless_hit(self, state: BattleState, ctx: Context, attacker: ElementState, es: ElementState,
                          spec: AttackSpec) -> Resolution: ...
        def _hit(self, state: BattleState, ctx: Context, es: ElementState, hit: Hit, by_side: str | None) -> Resolution: ...
        def _mark_eliminated(self, state: BattleState, unit: UnitState, by_side: str | None) -> None: ...
        def _orphans(self, state: BattleState, ctx: Context, by_side: str | None) -> None: ...
        def _remove(self, state: BattleState, ctx: Context, es: ElementState, by_side: str | None) -> None: ...
        def _sticky_mark(self, state: BattleState, ctx: Context, attacker: ElementState, es: ElementState,
                         spec: AttackSpec) -> None: ...
        # morale.py
        def _losses_morale(self, state: BattleState, ctx: Context, mark: int) -> Resolution: ...
        def _morale(self, state: BattleState, ctx: Context, unit: UnitState, reason: str,
                    rally: bool = False) -> Resolution: ...
        # outcome.py
        def is_over(self, state: BattleState) -> bool: ...

    # Every element `_remove` takes off counts one loss of its unit (the only place a unit's
    # `lost` grows in play): the unit and its count before are appended here, so a casualty
    # morale check after an action asks "which units lost elements since the mark, from what
    # count?" without copying every unit's count before the action (`_loss_mark`). Units, not
    # ids: another state's losses never count.
    _loss_journal: list[tuple[UnitState, int]]
    # id(unit) -> its place in the units list kept here (with that list's length): morale.py
    _unit_places: tuple[list[UnitState], int, dict[int, int]] | None
    # legal command specs offered again and again (activation.py): built once per battle,
    # as their labels name units, keyed by what they are made of
    _specs: dict[tuple[str, ...], CommandSpec]
    _group_params: dict[str, dict[str, str]]  # unit id -> {"unit": id}: its lazy groups' params (activation.py)
    # (kind, unit id, verb) -> (the enemies list it was made for, its attack specs as read)
    _attack_parts: dict[tuple[str, ...], tuple[list[UnitState], AttackPart]]
    # (kind, unit id, verb) -> enemy id -> its attack spec (`_attack_spec`: made once per battle)
    _attack_specs: dict[tuple[str, ...], dict[str, CommandSpec]]
    _enemy_ids: dict[str, tuple[list[UnitState], list[str]]]  # side -> (its `_enemies` list, their ids)
    # element id -> its attributes as created and whether it has a ranged weapon (activation.py)
    _bought_of: dict[str, tuple[dict[str, Any], bool]]
    # unit id -> what its elements were created with (activation.py `_created`)
    _created_of: dict[str, tuple[frozenset[str], bool]]
    # _living's lists with the units list, (epoch, count) and revival epoch they were made for
    # (and the loss journal's length then: `_living` after losses alone looks only at their units)
    _living_cache: tuple[list[UnitState], tuple[int, int], list[UnitState], list[UnitState], int, int] | None
    _enemies_of: dict[str, list[UnitState]]  # side -> its enemies standing, made with _living's lists
    _own_of: dict[str, list[UnitState]]  # side -> its own units standing, made with _living's lists
    # side -> (its `_own_of` list, the units of it with an element created with Command)
    _officers_of: dict[str, tuple[list[UnitState], list[UnitState]]]
    _sides_standing: int  # how many sides have a unit standing, counted with _living's lists
    # charging.py: the elements turned to face a charge since the last clearing, and the state
    # and marks epoch (campaign.engine.state) of that clearing (no element of it faced then)
    _faced_marked: list[ElementState]
    _reliant_units: frozenset[str]  # unit ids with an element created Reliant (rules.py new_state)
    _clock_units: frozenset[str]  # unit ids with a Magic element or a Reload weapon (owner-turn clocks)
    # side -> (place in state.units, unit id, places in its elements of those created with a
    # clock) for each unit of `_clock_units`, in unit order (rules.py new_state)
    _clock_places: dict[str, list[tuple[int, str, tuple[int, ...]]]]
    _faced_clean: tuple[BattleState, int] | None
    _entrench_units: frozenset[str]  # unit ids hidden Entrenched at the start (rules.py new_state)
    _command_units: frozenset[str]  # unit ids with an element created with Command (rules.py new_state)
    # an element of the battle can be snared (an Ensnare weapon) or down (Reliant): `_able` looks
    _may_disable: bool
    _pace_of: dict[str, int | None]  # unit id -> the MOVE of all its elements, if one and > 0 (`_allowance`)

    def _loss_mark(self) -> int:
        """Where the loss journal stands now: `_losses_morale(..., mark)` checks the losses since."""
        return len(self._loss_journal)

    def effects_on(self, state: BattleState, unit_id: str) -> frozenset[str]:
        if not state.effects:  # (most of the time: no spell lasts)
            return _NO_EFFECTS
        return frozenset(e.kind for e in state.effects if e.target == unit_id)

    def _bought(self, state: BattleState, es: ElementState) -> tuple[dict[str, Any], bool]:
        """The element's attributes as created (parsed once) and whether it was created with
        a ranged weapon: a superset of what its combat view has (but the `flying` a Fly spell
        lends): Activate only switches attributes off and losses only take weapons away, so a
        question most elements answer "no" is asked here first, without building a view of
        each (`combatant`)."""
        found = self._bought_of.get(es.id)
        if found is None:
            from campaign.rulesets.flat_out_war.engine.combatant import static_traits

            element = self.element_of(state, es)
            traits = self._traits.get(es.id)
            if traits is None:
                traits = self._traits[es.id] = static_traits(element)
            found = self._bought_of[es.id] = (traits[0][0], any(w.kind == "ranged" for w in element.weapons))
        return found

    def _able(self, state: BattleState, unit: UnitState) -> Sequence[ElementState]:
        """Elements that may move and act: alive, not snared, not down (do not change it:
        it may be the unit's own `living` tuple)."""
        if not self._may_disable:  # no element could be snared or down: the living ones
            return unit.living
        return [e for e in unit.elements
                if e.alive and not (e.markers and (e.markers.get("snared") or e.markers.get("down")))]

    def _loose(self, state: BattleState, unit: UnitState) -> bool:
        """A loose-cohesion unit ([1.7]: vehicles are loose by default), whose elements
        act for themselves where the rules say so (fleeing in disorder, turning to a charge)."""
        if self.edition != V17 and "loose cohesion" not in self._created(state, unit)[0]:
            return False  # (none of its elements was created loose)
        return any(self.combatant(state, e).has("loose cohesion")
                   or (self.edition == V17 and self.combatant(state, e).kind == "vehicle") for e in unit.living
                   if "loose cohesion" in self._bought(state, e)[0] or self.edition == V17)

    def _enemies(self, state: BattleState, side: str) -> list[UnitState]:
        """The units of other sides not eliminated, in unit order: the same list (do not
        change it) until one's standing changes."""
        self._living(state)
        enemies = self._enemies_of.get(side)
        if enemies is None:
            enemies = self._enemies_of[side] = [u for u in self._standing(state) if u.side != side]
        return enemies

    def _side_standing(self, state: BattleState, side: str) -> list[UnitState]:
        """The side's units not eliminated, in unit order (`state.units_of(side)`): the same
        list (do not change it) until one's standing changes."""
        self._living(state)
        own = self._own_of.get(side)
        if own is None:
            own = self._own_of[side] = [u for u in self._standing(state) if u.side == side]
        return own

    def _standing(self, state: BattleState) -> list[UnitState]:
        """The units not eliminated, in unit order (do not change the list)."""
        return self._living(state)[0]

    def _living(self, state: BattleState) -> tuple[list[UnitState], list[UnitState]]:
        """(the units not eliminated, the units with a living element), in unit order: asked
        many times a turn, and a long battle's many lost units are looked through each time,
        so both are kept until the liveness epoch (campaign.engine.state) or the units move.
        A loss that leaves every unit standing keeps the lists made from the standing ones
        (the enemies, and the attack specs made for them: `_attack_specs`)."""
        units = state.units
        key = (liveness_epoch(), len(units))
        cached = self._living_cache
        if cached is not None and cached[0] is units and cached[1] == key:
            return cached[2], cached[3]
        journal = self._loss_journal
        scan = units
        if cached is not None and cached[0] is units and cached[1][1] == key[1] and cached[4] == revival_epoch():
            # nothing revived since the lists were made: only the units that had a living
            # element can have changed (the ones without stay without, not looked through)
            scan = cached[3]
            done = cached[5]
            if key[0] - cached[1][0] == len(journal) - done:
                # and every move of the epoch since was an element `_remove` took (each moves
                # it once and is journaled): only the journaled units can have lost their last
                return self._after_losses(units, key, cached, journal, done)
        standing: list[UnitState] = []
        with_alive: list[UnitState] = []
        for u in scan:  # (one pass: UnitState.eliminated is "removed" or no living element)
            for e in u.elements:
                if e.alive:
                    with_alive.append(u)
                    if not u.markers.get("removed"):
                        standing.append(u)
                    break
        return self._keep_living(units, key, cached, standing, with_alive)

    def _after_losses(self, units: list[UnitState], key: tuple[int, int], cached: Any,
                      journal: list[tuple[UnitState, int]], done: int) -> tuple[list[UnitState], list[UnitState]]:
        """`_living` after losses alone: the kept lists without the journaled units that have
        no living element left (by identity: a unit of another state is in neither list)."""
        gone = set()
        for u, _ in journal[done:]:
            for e in u.elements:
                if e.alive:
                    break
            else:
                gone.add(id(u))
        if not gone:
            self._living_cache = (units, key, cached[2], cached[3], cached[4], len(journal))
            return cached[2], cached[3]
        standing = [u for u in cached[2] if id(u) not in gone]
        with_alive = [u for u in cached[3] if id(u) not in gone]
        return self._keep_living(units, key, cached, standing, with_alive)

    def _keep_living(self, units: list[UnitState], key: tuple[int, int], cached: Any, standing: list[UnitState],
                     with_alive: list[UnitState]) -> tuple[list[UnitState], list[UnitState]]:
        """Keep `_living`'s new lists; the standing list (and what is made from it) stays the
        kept one while the same units stand."""
        if cached is not None and cached[0] is units and _same(cached[2], standing):
            standing = cached[2]
        else:
            self._enemies_of, self._own_of = {}, {}  # (made again from the new lists when asked)
            self._sides_standing = len({u.side for u in standing})
        self._living_cache = (units, key, standing, with_alive, revival_epoch(), len(self._loss_journal))
        return standing, with_alive

    def _situation(self, state: BattleState, unit: UnitState, target: UnitState | None, cmd: FactCommand,
                   specs: tuple) -> Situation:
        tgt_flying = bool(target) and any(
            e.markers.get("airborne") or e.markers.get("jumped") for e in target.living  # type: ignore[union-attr]
        )
        f = facts_of(cmd, specs).get  # (one dict for the half dozen facts asked)
        return Situation(
            aspect=f("aspect") or "front",
            range_band=f("range_band") or "short",
            los=f("los") or "open",
            ran=bool(unit.markers.get("ran")) or bool(f("will_run")),
            charging=bool(unit.markers.get("charging")),
            moved=bool(unit.markers.get("moved")) or bool(f("will_move")),
            attacker_effects=self.effects_on(state, unit.id),
            target_effects=self.effects_on(state, target.id) if target else frozenset(),
            target_flying=tgt_flying,
        )

    def _unit(self, state: BattleState, unit_id: str, role: str = "unit") -> UnitState:
        try:
            return state.unit(unit_id)
        except KeyError:
            raise IllegalCommand("FOW 1", f"there is no {role} {unit_id!r}") from None

    def _roll(self, state: BattleState, ctx: Context, die: int, count: int, purpose: str, side: str,
              lucky: ElementState | None = None, good: Callable[[int], bool] | None = None) -> Resolution:
        """Dice, with a Lucky element's offer to re-roll a single die; `good(face)` says
        whether the face already does what the roll is for (the Decision's data carries it,
        so a player, or the odds' policy of re-rolling every failure, can read it)."""
        faces = yield RollRequest(die, count, purpose, side)  # (positional: a record made for every roll)
        faces = tuple(faces)
        # (_lucky_ready's own first test, in place: most battles have no Lucky element)
        if lucky is not None and count == 1 and "lucky" in self._static_names and self._lucky_ready(state, lucky):
            data = {"lucky": lucky.id, "face": faces[0]}
            if good is not None:
                data["good"] = bool(good(faces[0]))
            choice = yield Decision(side, f"{lucky.name} is Lucky: re-roll the {faces[0]} ({purpose})?", (
                CommandSpec("reroll", {}, (), "Re-roll (Lucky)"), CommandSpec("keep", {}, (), "Keep the roll")),
                data=data)
            if isinstance(choice, Reroll):
                again = yield RollRequest(die=die, count=1, purpose=f"Lucky re-roll: {purpose}", side=side)
                lucky.data["lucky_turn" if self.edition == V17 else "lucky_used"] = state.turn if self.edition == V17 else True
                best = max(faces[0], tuple(again)[0])
                ctx.emit("lucky", f"{lucky.name} re-rolls with Lucky: {faces[0]} then {tuple(again)[0]}, keeps {best}",
                         element=lucky.id, first=faces[0], second=tuple(again)[0])
                faces = (best,)
        return faces

    def _has_lucky(self, state: BattleState, es: ElementState) -> bool:
        """Lucky bought for the element (and switched on, if Activate links it), read from
        the parsed traits so `combatant` can ask without asking itself."""
        from campaign.rulesets.flat_out_war.engine.combatant import static_traits

        traits = self._traits.get(es.id)
        if traits is None:
            element = self.element_of(state, es)
            traits = self._traits[es.id] = static_traits(element)
        (own, _), links = traits
        return "lucky" in own and ("lucky" not in links or "lucky" in es.data.get("switched_on", []))

    def _lucky_ready(self, state: BattleState, es: ElementState) -> bool:
        # (most battles have no Lucky element at all: asked for every die rolled)
        if not self.options["lucky_prompt"] or not self._static_any("lucky") or not self._has_lucky(state, es):
            return False
        if self.edition == V17:
            return es.data.get("lucky_turn") != state.turn
        return not es.data.get("lucky_used")


_NO_EFFECTS: frozenset[str] = frozenset()


def _same(old: list[UnitState], new: list[UnitState]) -> bool:
    """The same units in the same order (by identity: a unit's == compares all its state)."""
    return len(old) == len(new) and all(a is b for a, b in zip(old, new))


def _mods_text(mods: tuple[Mod, ...] | list[Mod]) -> str:
    if not mods:
        return ""
    return " (" + ", ".join(f"{m.label} {m.value:+d}" for m in mods) + ")"
