"""Melee and shooting: their checks, who attacks, the batches of attack dice and where
their hits go, Trigger, and shooting's special procedures (templates, scatter, Linear
Artillery bounce). What a hit then does is in `hits`."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from campaign.engine.commands import Choose
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision
from campaign.engine.rules import handed_modifier
from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.force import Element
from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.artillery import bounce, scatter
from campaign.rulesets.flat_out_war.engine import contact
from campaign.rulesets.flat_out_war.engine.attack import AttackKind, heavy_armour_blocks, hit_from
from campaign.rulesets.flat_out_war.engine.combatant import Arm, Combatant
from campaign.rulesets.flat_out_war.engine.commands import MELEE_FACTS, SHOOT_FACTS, Attack, FactCommand, Melee, Shoot, fact
from campaign.rulesets.flat_out_war.engine.declare import (
    NoAttack,
    UnderTemplate,
    melee_attacks,
    own_procedure,
    ranged_attacks,
    template_area,
    weapon_problem,
)
from campaign.rulesets.flat_out_war.engine.formation import fighting_ranks
from campaign.rulesets.flat_out_war.engine.modifiers import melee_modifiers, ranged_modifiers
from campaign.rulesets.flat_out_war.engine.odds import AttackSpec
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution, _mods_text
from campaign.rulesets.flat_out_war.engine.rolls import Mod, succeeds, total_of
from campaign.rulesets.flat_out_war.engine.shots import (
    ShotError,
    ShotTarget,
    fire_linked_problem,
    parse_shot_target,
    shot_numbers,
)
from campaign.rulesets.flat_out_war.engine.situation import Situation

if TYPE_CHECKING:
    from campaign.engine.context import Context


_SHOT_CHOICES = {f.name: f.choices for f in SHOOT_FACTS}  # each shoot fact's allowed values (`_shot_targets`)


class ShootChecked(NamedTuple):
    """What the shoot check hands over to the shot's resolution: the shooting elements
    (`_participants`) and their combat views."""

    shooters: list[ElementState]
    views: list[Combatant]


class AttackMixin(PlayHelpers):
    """`FlatOutWarRules`' melee and shoot commands: checks, attack dice and special fire."""

    edition: str
    options: dict[str, Any]

    # --- checks ---------------------------------------------------------------
    def _check_attackers(self, state: BattleState, unit: UnitState, names: list[str] | None, kind: str) -> None:
        done = set(unit.markers.get("attacked", [])) if unit.markers.get("acted") in ("melee", "shoot") else set()
        again = sorted(set(names or []) & done)
        if again:
            raise IllegalCommand("FOW 4.3", f"{', '.join(again)} already attacked this activation")
        if unit.markers.get("acted") and unit.markers.get("acted") != kind:
            raise IllegalCommand("FOW 4.3", "a unit takes one kind of Other Action per activation")
        if names and not self._participants(state, unit, names, kind):
            raise IllegalCommand("FOW 10", "none of the named elements can attack")

    def _check_hidden(self, target: UnitState) -> None:
        if target.markers.get("entrenched"):
            raise IllegalCommand("FOW 20 Entrenched", f"{target.name} is entrenched and hidden until it is revealed")

    def _check_melee(self, state: BattleState, cmd: Melee) -> None:
        unit = self._unit(state, cmd.unit)
        target = self._unit(state, cmd.target, "target unit")
        self._check_hidden(target)
        self._check_attackers(state, unit, fact(cmd, "attackers", MELEE_FACTS), "melee")
        if all(e.markers.get("submerged") for e in target.living) and not any(
            self.combatant(state, e).has("submersible weapon") for e in unit.living
        ):
            raise IllegalCommand("FOW 20 Submersible", "a submerged target can only be attacked with Submersible Weapon")
        if not fact(cmd, "in_contact", MELEE_FACTS):
            raise IllegalCommand("FOW 10", "melee needs base contact with the target")
        if not fact(cmd, "target_in_front", MELEE_FACTS):
            raise IllegalCommand("FOW 10", "the target must be in the attacker's front facing")
        self._check_aspect(state, target, fact(cmd, "aspect", MELEE_FACTS))

    def _check_aspect(self, state: BattleState, target: UnitState, aspect: str) -> None:
        if aspect == "front":
            return
        if target.living and all(es.markers.get("faced") for es in target.living):
            raise IllegalCommand("FOW 8 A-18", f"{target.name} turned to face the charge: the attack comes from "
                                               "its front")
        if aspect != "flank":
            return
        for es in target.living:
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

    def _check_shoot(self, state: BattleState, cmd: Shoot) -> None:
        unit = self._unit(state, cmd.unit)
        target = self._unit(state, cmd.target, "target unit")
        self._check_hidden(target)
        self._check_attackers(state, unit, fact(cmd, "shooters", SHOOT_FACTS), "shoot")
        band = fact(cmd, "range_band", SHOOT_FACTS)
        shooters = self._participants(state, unit, fact(cmd, "shooters", SHOOT_FACTS), "shoot")
        cs = [self.combatant(state, e) for e in shooters]
        if band == "out":
            longest = max((w.range for c in cs for w in c.ranged), default=0)
            raise IllegalCommand("FOW 11", f"target is out of range (long range is {2 * longest}\")")
        if fact(cmd, "los", SHOOT_FACTS) == "none" and not any(
            c.weapon_has(w, "arcing artillery") for c in cs for w in c.ranged
        ):
            raise IllegalCommand("FOW 11", "no line of sight to the target (only Arcing Artillery ignores it)")
        if not fact(cmd, "in_arc", SHOOT_FACTS) and not any(w.mount == "turret" for c in cs for w in c.ranged):
            raise IllegalCommand("FOW 11", "the target is not in the firing elements' arc")
        if any(e.markers.get("hidden") for e in target.living) and not fact(cmd, "within_12", SHOOT_FACTS):
            raise IllegalCommand("FOW 20 Stealth", "a hidden Stealth target can only be chosen from 12\" or less")
        if all(e.markers.get("submerged") for e in target.living) and not any(
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
                    state, unit, target, cmd, SHOOT_FACTS), c)) for w in c.ranged if w.mount in ("main", "extra")]
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
        self.hand_over(state, cmd, ShootChecked(shooters, cs))  # (after the shot targets' own checks)

    def _shot_targets(self, cmd: Attack) -> list[ShotTarget]:
        texts = fact(cmd, "shot_targets", SHOOT_FACTS)
        if not texts:  # (most shots: nothing to read)
            return []
        try:
            return [parse_shot_target(t, _SHOT_CHOICES) for t in texts]
        except ShotError as exc:
            raise IllegalCommand("A-22", str(exc)) from None

    def _shot_unit(self, state: BattleState, entry: ShotTarget) -> UnitState:
        if "/" in entry.target:
            try:
                return state.unit(state.element(entry.target).unit)
            except KeyError:
                raise IllegalCommand("A-22", f"there is no element {entry.target!r}") from None
        return self._unit(state, entry.target, "target unit")

    def _aim_shots(self, state: BattleState, cmd: Attack | None, sit: Situation, target: UnitState, cs: list[Combatant],
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
            entry = None
            if c is not None and w is not None and w.shots > 1:
                entry = next((e for e in entries if e.matches(c.key, w.name, shot)), None)
            if c is None or w is None or entry is None:  # (an entry is only found with both)
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

    # --- melee and the attack dice --------------------------------------------
    def _do_melee(self, state: BattleState, cmd: Melee, ctx: Context) -> Resolution:
        unit, target = state.unit(cmd.unit), state.unit(cmd.target)
        attackers = self._participants(state, unit, fact(cmd, "attackers", MELEE_FACTS), "melee")
        self._take_action(state, unit, cmd, MELEE_FACTS, attackers)
        if self._fell_before(state, ctx, unit, target, "melee"):
            return
        contact.engage(unit, target)  # the players said they touch (in_contact)
        sit = self._situation(state, unit, target, cmd, MELEE_FACTS)
        lost_before = self._loss_mark()
        ctx.emit("melee", f"{unit.name} attacks {target.name} in melee", unit=unit.id, target=target.id)
        att_cs = [self.combatant(state, e) for e in attackers]
        flame = [c for c in att_cs if c.flame is not None]
        plain = [c for c in att_cs if c not in flame] if flame else att_cs
        if plain:
            try:
                order = self._allocation(state, target, cmd)
                specs = melee_attacks(plain, [self.combatant(state, e) for e in order], sit, self.edition)
            except NoAttack as exc:
                raise IllegalCommand("FOW 10", str(exc)) from None
            yield from self._attack_batch(state, ctx, unit, target, specs, "in melee")
        for c in flame:  # Flame template in melee: every covered element
            weapon = c.flame
            assert weapon is not None
            covered = yield from self._covered(state, cmd, unit, f"{c.name}'s flame template")
            yield from self._roll_each(state, ctx, unit, state.element(c.key), weapon, covered, sit, "flame")
        yield from self._trigger(state, ctx, target, unit, "attacked in melee")
        yield from self._losses_morale(state, ctx, lost_before)

    def _fell_before(self, state: BattleState, ctx: Context, unit: UnitState, target: UnitState, what: str) -> bool:
        """True (and said so) when the target has nobody standing as the attack resolves.
        A declared target was standing; it can fall in a window opened just before the
        attack (the card deck's overwatch), and then the spent action finds nobody."""
        if self._members(state, target):
            return False
        ctx.emit("no_target", f"{unit.name}'s {what} finds nobody: {target.name} has no one left standing",
                 unit=unit.id, target=target.id)
        return True

    def _trigger(self, state: BattleState, ctx: Context, unit: UnitState, enemy: UnitState, what: str) -> Resolution:
        """[SO] Trigger: the owner says whether an element's written condition is met; if
        so it makes a melee attack on the enemy now, outside its own activation (A-71)."""
        if self.edition != SO or enemy.eliminated or not self._static_any("trigger"):
            return
        ready = [e for e in self._able(state, unit)
                 if "trigger" in self._bought(state, e)[0] and self.combatant(state, e).has("trigger")]
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
                                  [self.combatant(state, e) for e in enemy.living], sit, self.edition)
        except NoAttack:
            return
        yield from self._attack_batch(state, ctx, unit, enemy, specs, "(Trigger) in melee")

    def _participants(self, state: BattleState, unit: UnitState, chosen: list[str] | None,
                      kind: str = "") -> list[ElementState]:
        """The attacking elements: those named, else every able element that has not
        attacked yet this activation. A tight unit attacks with its first rank in melee
        and its first two ranks shooting (FOW 10, 11): named elements beyond that are
        refused; by default the first elements in unit order fill those ranks."""
        # split fire: only while this Other Action is under way (a new one starts afresh)
        done = set(unit.markers.get("attacked", [])) if unit.markers.get("acted") in ("melee", "shoot") else set()
        able = [e for e in self._able(state, unit) if e.id not in done]
        if not able and not chosen:  # every element has attacked: a further action starts afresh
            able = list(self._able(state, unit))  # (only an activation scheme that allows one offers it)
            done = set()
        picked = [e for e in able if e.id in set(chosen)] if chosen else able
        room = self._rank_room(state, unit, kind, len(done))
        if room is None or len(picked) <= room:
            return picked
        if chosen:
            ranks = "first rank" if kind == "melee" else "first two ranks"
            raise IllegalCommand("FOW 10" if kind == "melee" else "FOW 11",
                                 f"{unit.name} is a tight {self.formation_words(unit)}: only its {ranks} "
                                 f"({room + len(done)} elements) may {'fight' if kind == 'melee' else 'shoot'}")
        return picked[:room]

    def _rank_room(self, state: BattleState, unit: UnitState, kind: str, used: int) -> int | None:
        """How many more elements of a tight unit may attack in this Other Action."""
        if kind not in ("melee", "shoot") or self._loose(state, unit) or unit.data.get("disordered"):
            return None
        cap = fighting_ranks(len(unit.living), unit.data.get("formation", "line"), unit.data.get("depth", "single"),
                             kind)  # type: ignore[arg-type]
        return max(cap - used, 0)

    def formation_words(self, unit: UnitState) -> str:
        formation = unit.data.get("formation", "line")
        double = unit.data.get("depth") == "double"
        if formation == "column":
            return "column of two files" if double else "column"
        return "line of two ranks" if double else "line"

    def _take_action(self, state: BattleState, unit: UnitState, cmd: FactCommand, specs: tuple,
                     attackers: list[ElementState] | None = None) -> None:
        earlier = unit.markers.get("attacked", []) if unit.markers.get("acted") == cmd.type else []
        if attackers is not None and earlier and set(earlier) >= {e.id for e in self._able(state, unit)}:
            earlier = []  # a fresh Other Action (see _participants)
        unit.markers["acted"] = cmd.type if attackers is not None else True
        if attackers is not None:
            unit.markers["attacked"] = sorted({*earlier, *(e.id for e in attackers)})
        if fact(cmd, "will_run", specs):
            unit.markers["ran"] = True
        for es in unit.living:
            es.data["acted_turn"] = state.turn

    def _allocation(self, state: BattleState, target: UnitState, cmd: Attack | None) -> list[ElementState]:
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
        return [*unit.living, *state.unit(officer).living] if officer else list(unit.living)

    def attack_modifiers(self, state: BattleState, unit: UnitState, target: UnitState) -> tuple[Mod, ...]:
        """Extra modifiers on every attack die of `unit` against `target`: none in Flat
        Out War itself; an activation scheme may hand the acting unit one (the card deck)."""
        value, label = handed_modifier(state, unit.id)
        return (Mod(label, value),) if value else ()

    def _attack_batch(self, state: BattleState, ctx: Context, unit: UnitState, target: UnitState,
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
        members = self._members(state, target)
        by_id = {e.id: e for e in members}  # (most named targets are among them: no state.element)
        keyed = [by_id.get(k) or state.element(k) for k in dict.fromkeys(s.target_key for s in specs if s.target_key)]
        seen = {id(e) for e in keyed}  # (by identity: comparing element states field by field is slow)
        declared = keyed + [e for e in members if id(e) not in seen]
        ready: dict[str, bool] = {}  # attacker id -> Lucky re-roll ready (nothing changes while grouping)
        any_lucky = self._static_any("lucky")  # (most battles have no Lucky element: no lookups then)

        def lucky_ready(attacker: str) -> bool:
            if not any_lucky:
                return False
            if attacker not in ready:
                ready[attacker] = self._lucky_ready(state, state.element(attacker))
            return ready[attacker]

        # each spec's modifier summed once (the grouping, the rolls and the hand-out all read it),
        # and once for each tuple of modifiers the specs share (a declaration makes one per kind
        # of pair)
        modifier: dict[int, int] = {}
        summed: dict[int, int] = {}
        for s in live:
            mods = s.mods
            total = summed.get(id(mods))
            if total is None:
                total = summed[id(mods)] = total_of(mods)
            modifier[id(s)] = total
        # a group is the first spec of a die and modifier, and every later one of them whose
        # attacker has no Lucky re-roll ready; a Lucky attacker's dice roll alone
        groups: list[list[AttackSpec]] = []
        open_groups: dict[tuple[int, int], list[AttackSpec]] = {}
        for spec in live:
            if any_lucky and lucky_ready(spec.attacker):
                groups.append([spec])
                continue
            key = (spec.die, modifier[id(spec)])
            group = open_groups.get(key)
            if group is None:
                group = open_groups[key] = [spec]
                groups.append(group)
            else:
                group.append(spec)
        results: list[tuple[AttackSpec, int]] = []
        for group in groups:
            g = group[0]
            mod = modifier[id(g)]
            mods_text = ", ".join(f"{m.label} {m.value:+d}" for m in g.mods)
            purpose = f"{len(group)} x d{g.die} to hit, {unit.name} {how} {target.name}" + (f" ({mods_text})" if mods_text else "")
            # (a Lucky re-roll is only ever offered for one die of an element created Lucky)
            lucky_es = state.element(g.attacker) if any_lucky and len(group) == 1 else None
            faces = yield from self._roll(state, ctx, g.die, len(group), purpose, unit.side, lucky_es,
                                          partial(succeeds, modifier=mod) if lucky_es is not None else None)
            hits = sum(1 for f in faces if succeeds(f, mod))
            ctx.emit("attack_roll", f"{unit.name} rolls {list(faces)} {how} {target.name}: {hits} hit(s)",
                     unit=unit.id, target=target.id, faces=list(faces), modifier=mod, hits=hits)
            results.extend(zip(group, faces))
        if len(groups) > 1:  # (one group rolled the specs in their declared order)
            order = {id(s): i for i, s in enumerate(specs)}
            results.sort(key=lambda pair: order[id(pair[0])])  # hits are handed out in declared order
        sticky = self.edition == SO and self._static_any("sticky")  # (_sticky_mark's own first test)
        position: dict[str, int] = {}  # element id -> its first place among the declared
        for i, e in enumerate(declared):
            position.setdefault(e.id, i)
        for spec, face in results:
            if not succeeds(face, modifier[id(spec)]):
                continue
            es = self._hit_target(declared, position.get(spec.target_key, spec.target_index or 0))
            if es is None:
                break
            if spec.harmless:
                yield from self._harmless_hit(state, ctx, state.element(spec.attacker), es, spec)
                continue
            ctx.emit("hit", f"{es.name} ({target.name}) is hit by {spec.label}", element=es.id, attacker=spec.attacker)
            yield from self._hit(state, ctx, es, spec.hit, unit.side)
            if sticky:
                self._sticky_mark(state, ctx, state.element(spec.attacker), es, spec)

    def _hit_target(self, declared: list[ElementState], index: int) -> ElementState | None:
        """The declared target (an index among the elements alive when the attack was
        declared); if it is already gone, the next living element after it."""
        n = len(declared)
        for k in range(index, index + n):
            es = declared[k % n]
            if es.alive:
                return es
        return None

    # --- shooting -------------------------------------------------------------
    def _covered(self, state: BattleState, cmd: Attack | None, unit: UnitState, what: str) -> Resolution:
        """The elements under a template: the command's `covered` fact, or else the
        players are asked (the engine never guesses who stands under it, FOW 17)."""
        ids = (fact(cmd, "covered", SHOOT_FACTS) or []) if cmd is not None else []
        if not ids:
            return (yield from self._report(state, unit.side, f"Which elements are under {what}?"))
        out = []
        for eid in ids:
            try:
                out.append(state.element(eid))
            except KeyError:
                raise IllegalCommand("FOW 17", f"there is no element {eid!r}") from None
        return [e for e in out if e.alive]

    def _do_shoot(self, state: BattleState, cmd: Shoot, ctx: Context, checked: ShootChecked | None = None) -> Resolution:
        unit, target = state.unit(cmd.unit), state.unit(cmd.target)
        if checked is None:
            shooters = self._participants(state, unit, fact(cmd, "shooters", SHOOT_FACTS), "shoot")
        else:  # the check's (rules.py `hand_over`)
            shooters = checked.shooters
            if self.verify_hand_over:
                assert shooters == self._participants(state, unit, fact(cmd, "shooters", SHOOT_FACTS), "shoot")
        self._take_action(state, unit, cmd, SHOOT_FACTS, shooters)
        if self._fell_before(state, ctx, unit, target, "shot"):
            return
        sit = self._situation(state, unit, target, cmd, SHOOT_FACTS)
        ctx.emit("shoot", f"{unit.name} shoots at {target.name}", unit=unit.id, target=target.id)
        names = set(fact(cmd, "weapons", SHOOT_FACTS) or [])
        # (the shooters' combat views: what the check worked out stands, as taking the action
        # changes nothing a view is made of)
        cs = checked.views if checked is not None else [self.combatant(state, e) for e in shooters]
        if self.verify_hand_over:
            assert cs == [self.combatant(state, e) for e in shooters], "the shoot check's hand-over"
        if not sit.moved and any(c.weapon_has(w, "sharpshooter") for c in cs for w in c.ranged):
            unit.markers["held_still"] = True  # Sharpshooter's +1: the unit may not move after it
        yield from self._fire(state, ctx, unit, target, shooters, sit, cmd, names, cs)

    def _fire(self, state: BattleState, ctx: Context, unit: UnitState, target: UnitState, shooters: list[ElementState],
              sit: Situation, cmd: Attack | None, names: set[str] | None = None,
              cs: list[Combatant] | None = None) -> Resolution:
        """`cs`: the shooters' combat views, when the caller has them."""
        lost_before = self._loss_mark()
        if cs is None:
            cs = [self.combatant(state, e) for e in shooters]

        def extra(c: Combatant, w: Arm) -> str | None:
            if names and w.name not in names:
                return "not chosen"
            if own_procedure(c, w):
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
                   if own_procedure(c, w)
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
            es.markers.pop("hidden", None)  # firing reveals a Stealth element
            arm = next((w for w in self.combatant(state, es).weapons if w.index == index), None) if es.alive else None
            if arm is None:
                continue
            if arm.uses is not None:
                es.data.setdefault("uses", {})[str(index)] = arm.uses - 1
            if arm.reload:
                es.data.setdefault("reload", {})[str(index)] = arm.reload
        yield from self._losses_morale(state, ctx, lost_before)

    def _special_fire(self, state: BattleState, ctx: Context, unit: UnitState, target: UnitState, es: ElementState,
                      w: Arm, sit: Situation, cmd: Attack | None) -> Resolution:
        """Templates, Inaccurate scatter and Linear Artillery bounce (section 17)."""
        c = self.combatant(state, es)
        template = c.template_of(w)
        if template == "flame":
            covered = yield from self._covered(state, cmd, unit, f"{es.name}'s flame template")
            yield from self._roll_each(state, ctx, unit, es, w, covered, sit, "flame")
            return
        order = self._allocation(state, target, cmd)
        if not order:
            return
        marker = order[0]  # the marker goes on the first element hits are handed to (as the odds)
        tc = self.combatant(state, marker)
        mods = ranged_modifiers(c, w, tc, sit, self.edition)
        if heavy_armour_blocks(c, "ranged", w.die, tc, self.edition, w) and not template:
            ctx.emit("no_effect", f"{es.name}'s {w.name} cannot harm {marker.name} (Heavy Armour, A-19)", element=es.id)
            return
        (face,) = yield from self._roll(state, ctx, w.die, 1, f"1 x d{w.die} to hit, {es.name}'s {w.name} aiming at "
                                        f"{marker.name}" + _mods_text(mods), unit.side, es,
                                        lambda f: succeeds(f, total_of(mods)))
        hit = succeeds(face, total_of(mods))
        ctx.emit("attack_roll", f"{es.name}'s {w.name} rolls {face}: {'on target' if hit else 'misses'}",
                 element=es.id, faces=[face], hits=int(hit))
        if c.weapon_has(w, "linear artillery"):
            if hit:
                yield from self._land(state, ctx, unit, es, w, target, cmd, marker, sit, template)
            purpose, verb = ("bounce", "bounces") if hit else ("overshoot", "overshoots")
            inches = yield from self._bounce(state, ctx, unit, es, w, purpose, verb)
            if inches is not None and not hit and self.options["linear_miss"] == "table_again":
                # [SO] text: the marker moves, then the table is rolled again for stop or bounce
                inches = yield from self._bounce(state, ctx, unit, es, w, "bounce after the overshoot", "bounces")
            if inches is None:
                return
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

    def _bounce(self, state: BattleState, ctx: Context, unit: UnitState, es: ElementState, w: Arm, purpose: str,
                verb: str) -> Resolution:
        """One d6 on the stop/bounce table: the inches the shot goes on, or None if it stops."""
        (b,) = yield from self._roll(state, ctx, 6, 1, f"1 x d6 {purpose}, {w.name}", unit.side)
        inches = bounce(b)
        if inches is None:
            ctx.emit("bounce", f"{w.name}'s shot stops ({b})", element=es.id)
        else:
            ctx.emit("bounce", f"{w.name}'s shot {verb} {inches}\" ({b})", element=es.id)
        return inches

    def _land(self, state: BattleState, ctx: Context, unit: UnitState, es: ElementState, w: Arm, target: UnitState,
              cmd: Attack | None, marker: ElementState, sit: Situation, template: str | None) -> Resolution:
        c = self.combatant(state, es)
        if not template:
            ctx.emit("hit", f"{marker.name} is hit by {es.name}'s {w.name}", element=marker.id)
            yield from self._hit(state, ctx, marker, hit_from(c, w.die, self.edition, weapon=w, source=w.name), unit.side)
            return
        covered = yield from self._covered(state, cmd, unit, f"{es.name}'s {template}\" template (on {marker.name})")
        area = template_area(c, w, self.combatant(state, marker), marker.unit, self.under_template(state, unit, covered),
                             lambda u: attrs.evolve(sit, target_effects=self.effects_on(state, u.unit)), self.edition,
                             mode=self.options["template_mode"], friendly_fire=self.options["template_friendly_fire"])
        for victim in area:  # exactly the list the odds enumerate
            es_v = state.element(victim.key)
            if not es_v.alive:
                continue
            if victim.blocked:
                ctx.emit("no_effect", f"{es_v.name} is not harmed (template: Heavy Armour, A-19)", element=es_v.id)
                continue
            if victim.rolled:
                mods = victim.mods
                (face,) = yield from self._roll(state, ctx, w.die, 1, f"1 x d{w.die} template attack on {es_v.name}"
                                                + _mods_text(mods), unit.side, es, lambda f: succeeds(f, total_of(mods)))
                if not succeeds(face, total_of(mods)):
                    ctx.emit("miss", f"{es_v.name} is missed (template, {face})", element=es_v.id)
                    continue
                ctx.emit("hit", f"{es_v.name} is hit (template, {face})", element=es_v.id)
            else:
                ctx.emit("hit", f"{es_v.name} is under the {template}\" template: a hit", element=es_v.id)
            yield from self._hit(state, ctx, es_v, victim.hit, unit.side)

    def under_template(self, state: BattleState, unit: UnitState, covered: list[ElementState]) -> list[UnderTemplate]:
        """The reported elements as the template rules see them: whose side each is on."""
        return [UnderTemplate(self.combatant(state, e), e.unit, state.unit(e.unit).side == unit.side) for e in covered]

    def _report(self, state: BattleState, side: str, prompt: str) -> Resolution:
        answer = yield Decision(side, prompt, (CommandSpec("report", {}, (), "Report the elements"),))
        out = []
        for eid in getattr(answer, "elements", []):
            try:
                out.append(state.element(eid))
            except KeyError:
                raise IllegalCommand("FOW 17", f"there is no element {eid!r}") from None
        return [e for e in out if e.alive]

    def _roll_each(self, state: BattleState, ctx: Context, unit: UnitState, es: ElementState, w: Arm,
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
            kind: AttackKind = "ranged" if w.kind == "ranged" else "melee"
            if heavy_armour_blocks(c, kind, w.die, vc, self.edition, w):
                ctx.emit("no_effect", f"{victim.name} is not harmed ({how}: Heavy Armour, A-19)", element=victim.id)
                continue
            (face,) = yield from self._roll(state, ctx, w.die, 1, f"1 x d{w.die} {how} attack on {victim.name}"
                                            + _mods_text(mods), unit.side, es, lambda f: succeeds(f, total_of(mods)))
            if succeeds(face, total_of(mods)):
                ctx.emit("hit", f"{victim.name} is hit ({how}, {face})", element=victim.id)
                yield from self._hit(state, ctx, victim, hit_from(c, w.die, self.edition, weapon=w, source=w.name),
                                     unit.side)
            else:
                ctx.emit("miss", f"{victim.name} is missed ({how}, {face})", element=victim.id)


def _trigger_text(element: Element) -> str:
    for text in element.attributes:
        if text.strip().lower().startswith("trigger"):
            rest = text.split(":", 1)[1].strip() if ":" in text else ""
            return rest or "its condition"
    return "its condition"
