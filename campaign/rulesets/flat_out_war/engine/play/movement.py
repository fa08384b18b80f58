"""Moving a unit: the move check, its allowance, the move itself (markers, terrain
tests, leaving the table), and what a move sets off: charges with their Stand shots, and
Fearsome. The pure movement rules are in `engine.movement`."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from campaign.engine.errors import IllegalCommand
from campaign.engine.state import BattleState, ElementState, UnitState, liveness_changed
from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine import contact
from campaign.rulesets.flat_out_war.engine.attack import Hit
from campaign.rulesets.flat_out_war.engine.combatant import Combatant
from campaign.rulesets.flat_out_war.engine.commands import MOVE_FACTS, Move, fact, facts_of
from campaign.rulesets.flat_out_war.engine.formation import depth_problem
from campaign.rulesets.flat_out_war.engine.movement import (
    SAIL_FRACTION,
    TERRAIN_COST,
    WHOLE,
    IllegalMove,
    Segment,
    allowance,
    can_go_prone,
    can_run,
    check_path,
    declares_turns,
    turning_problem,
)
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution
from campaign.rulesets.flat_out_war.engine.rolls import die_sides, succeeds

if TYPE_CHECKING:
    from campaign.engine.context import Context


# Move facts that set or clear a marker on every moving element:
# (fact, marker, the value that sets it, event kind, (words when set, words when cleared)).
MARKER_MOVES: tuple[tuple[str, str, str, str, tuple[str, str]], ...] = (
    ("fly", "airborne", "take_off", "flight", ("takes off", "lands")),
    ("submerge", "submerged", "dive", "submerge", ("dives", "surfaces")),
)


class MoveChecked(NamedTuple):
    """What the move check hands over to the move's resolution: every move fact (the
    command's or its default: `facts_of`) and the inches it says were moved (`_inches`)."""

    facts: dict[str, Any]
    inches: Fraction | int


class MovementMixin(PlayHelpers):
    """`FlatOutWarRules`' move command: check, allowance, resolution, charge and fear."""

    edition: str
    options: dict[str, Any]

    def _check_move(self, state: BattleState, cmd: Move) -> None:
        unit = self._unit(state, cmd.unit)
        facts = facts_of(cmd, MOVE_FACTS)
        f = facts.get  # (a move asks for two dozen facts)
        given = getattr(cmd, "facts", None) or {}
        for name in _MEASURED:  # inches, degrees and turns are measured, never negative (the defaults are 0)
            if name in given and given[name] < 0:
                raise IllegalCommand("FOW 6", f"{name} cannot be negative ({given[name]})")
        able = self._able(state, unit)
        made: list[Combatant] = []

        def views() -> list[Combatant]:
            """The able elements' combat views, built when a check first needs them: a
            plain move (most of them) asks none of its questions of the elements."""
            if not made and able:
                made.extend(self.combatant(state, e) for e in able)
            return made

        run = bool(f("run"))
        fleeing = unit.data.get("morale") == "fleeing"
        if unit.markers.get("held_still"):
            raise IllegalCommand("FOW 20 Sharpshooter", "its shot took Sharpshooter's +1 for not moving this "
                                                        "activation; declare will_move with the shot to move after it")
        if run and not fleeing:
            reason = can_run(views(), self.edition)
            if reason:
                raise IllegalCommand("FOW 6.4", reason)
            if unit.markers.get("acted") and not unit.markers.get("ran"):
                raise IllegalCommand("A-13", "cannot run after an Other Action taken without the running -1; "
                                             "declare will_run with the action")
        if f("prone") == "down":
            for c in views():
                reason = can_go_prone(c, self.edition)
                if reason:
                    raise IllegalCommand("FOW 6.5", f"{c.name}: {reason}")
        fly = f("fly")
        if fly and not all(c.has("flying") for c in views()):
            raise IllegalCommand("FOW 20 Flying", "only Flying elements take off or land")
        if f("jump") and not all(c.has("jump") for c in views()):
            raise IllegalCommand("FOW 20 Jump", "only elements with Jump may jump")
        distance_moved = _inches(cmd)
        if f("jump"):
            reach = min((c.param("jump") or 0) for c in views())
            if distance_moved > reach:
                raise IllegalCommand("FOW 20 Jump", f"a jump reaches at most {reach}\" (the bought distance)")
        whole_move = "landing" if fly == "land" else ("diving or surfacing" if f("submerge") else "")
        if whole_move and (distance_moved or f("path")):
            raise IllegalCommand("FOW 20", f"{whole_move} takes the whole move: no distance can be moved")
        if f("submerge") and not all(c.has("submersible") for c in views()):
            raise IllegalCommand("FOW 20 Submersible", "only Submersible elements dive or surface")
        airborne = self._flies(state, unit, cmd)
        if airborne and distance_moved < 2 and not all(c.has("hover") for c in views()):
            raise IllegalCommand("FOW 20 Flying", "a flying element moves at least 2\" every turn (Hover is exempt)")
        why = depth_problem(len(unit.living), f("depth") or "")
        if why:
            raise IllegalCommand("FOW 5.1", why)
        if f("in_cohesion") is False:
            raise IllegalCommand("A-08", "the unit must end its move in cohesion, as one connected group")
        pivot_start, pivot_end = int(f("pivot_start") or 0), int(f("pivot_end") or 0)
        turns_during, line_move = int(f("turns_during") or 0), f("line_move") or "straight"
        if declares_turns(pivot_start, pivot_end, turns_during, line_move):
            cs = views()
            tight = not any(c.has("loose cohesion") or (self.edition == V17 and c.kind == "vehicle") for c in cs)
            turning = turning_problem(
                cs, tight_line=tight and len(cs) > 1
                and (f("formation") or unit.data.get("formation", "line")) == "line"
                and not unit.data.get("disordered") and not fleeing,
                pivot_start=pivot_start,
                pivot_end=pivot_end,
                turns_during=turns_during,
                line_move=line_move,
                about_face=bool(f("about_face")),
            )
            if turning:
                raise IllegalCommand("FOW 6.3", turning)
        sailing = self._static_any("sailed") and any(c.has("sailed") for c in views())
        heading = f("heading")
        if heading == "into_wind":
            raise IllegalCommand("FOW 20 Sailed", "a Sailed element may never head straight into the wind")
        if sailing and distance_moved and not heading:
            raise IllegalCommand("FOW 20 Sailed", "give the heading relative to the wind (downwind, crosswind, upwind)")
        path = _parse_path(f("path") or "")
        jumping = bool(f("jump"))
        budget = self._allowance(state, unit, cmd, run or fleeing, able, airborne, f) if able else 0
        used = distance_moved  # (ints while the inches are whole: the same comparisons, no Fraction made)
        if able and not path and not jumping and not whole_move and distance_moved > budget:
            # a distance is inches of open ground: it can never exceed the allowance (FOW 6.1)
            raise IllegalCommand("FOW 6.1", f"a move of {distance_moved}\" is more than the unit's allowance "
                                            f"of {float(budget):g}\"")
        if path and able:
            # on open ground no element's exemptions change the cost: one element's check is all
            movers = [self.combatant(state, able[0])] if all(seg.terrain == "open" for seg in path) else views()
            for c in movers:
                try:
                    used = check_path(path, budget, c, self.edition, running=run or fleeing,
                                      airborne=airborne, jumping=jumping)
                except IllegalMove as exc:
                    raise IllegalCommand(exc.rule, f"{c.name}: {exc}") from None
        said = bool(distance_moved or path)  # a flight given no distance or path runs its whole move
        if fleeing and able and said and not f("left_table") and not f("stopped"):
            # FOW 15.3: the flight uses all the movement the unit has (short by less than an inch)
            last = path[-1].terrain if path else "open"
            step = max(1, TERRAIN_COST.get(last) or 1)
            if budget - used >= step:
                raise IllegalCommand("FOW 15.3", f"a fleeing unit runs its whole move ({float(budget):g}\"), "
                                                 f"not {float(used):g}\" (say `stopped` if something stopped it)")
        for uid in list(f("contact") or []) + list(f("near") or []):
            self._unit(state, uid)
        for uid in f("contact") or []:
            other = state.unit(uid)
            if other.side == unit.side or other.eliminated:
                why = "gone" if other.eliminated else "on the same side"
                raise IllegalCommand("FOW 8", f"contact names the enemy units touched; {other.name} is {why}")
        charged = set(f("contact") or [])
        for key in f("contact_elsewhere") or []:
            owner = key if key in charged else key.rsplit("/", 1)[0]  # an element id is "unit/element"
            if owner not in charged or (key != owner and not any(e.id == key for e in state.unit(owner).elements)):
                raise IllegalCommand("FOW 8", f"{key!r} is not a unit this move contacts, nor one of its elements")
        embark = f("embark")
        if embark:
            try:
                carrier = state.element(embark)
            except KeyError:
                raise IllegalCommand("FOW 20 Transport", f"there is no element {embark!r}") from None
            if not carrier.alive or not self.combatant(state, carrier).has("transport"):
                raise IllegalCommand("FOW 20 Transport", f"{carrier.name} cannot carry others (needs Transport)")
            if state.unit(carrier.unit).side != unit.side:
                raise IllegalCommand("FOW 20 Transport", "a unit boards a transport of its own side")
            why = self._load_problem(state, carrier, self._able(state, unit))
            if why:
                raise IllegalCommand("FOW 20 Transport", why)
        self.hand_over(state, cmd, MoveChecked(facts, distance_moved))

    def _load_problem(self, state: BattleState, carrier: ElementState, boarding: Sequence[ElementState]) -> str | None:
        """The loads the Transport was bought for (`Transport 10 x d6`, or alternatives):
        the carried elements, those aboard and those boarding, must fit one of them."""
        from campaign.rulesets.flat_out_war.attributes import AttributeTextError, parse_attribute

        loads: tuple[tuple[int, str], ...] = ()
        for text in self.element_of(state, carrier).attributes:
            try:
                parsed = parse_attribute(text)
            except AttributeTextError:
                continue
            if parsed.name == "Transport":
                loads = parsed.params.loads
        if not loads:
            return None  # no load written: the players' word stands (costing flags it)
        aboard = [e for u in state.units for e in u.living if e.markers.get("carried_by") == carrier.id]
        riders = aboard + [e for e in boarding if e not in aboard]
        dice = [self.combatant(state, e).base_die for e in riders]
        for count, die in loads:
            if len(riders) <= count and all(d <= die_sides(die) for d in dice):
                return None
        said = " or ".join(f"{n} x {d}" for n, d in loads)
        return f"{carrier.name} carries {said}: {len(riders)} element(s) of up to d{max(dice)} do not fit"

    def inches_moved(self, state: BattleState, cmd: Move, inches: Fraction | int | None = None) -> Fraction:
        """How far the unit moves with this command: the one answer for every rule that
        asks (Stealth, flyers' 2", the allowance, a card charge's 8", the card penalty for
        a target that moved). A flight that names no distance runs its whole move.
        `inches`: `_inches(cmd)`, when the caller has it."""
        if inches is None:
            told = _distance(cmd)
        else:
            told = inches if type(inches) is Fraction else Fraction(inches)
        if told or fact(cmd, "stopped", MOVE_FACTS) or fact(cmd, "left_table", MOVE_FACTS):
            return told
        unit = self._unit(state, cmd.unit)
        if unit.data.get("morale") == "fleeing":
            return self.move_allowance(state, unit.id, getattr(cmd, "facts", None))
        return told

    def _flies(self, state: BattleState, unit: UnitState, cmd: Move) -> bool:
        """Whether this move is made in the air: take-off is declared before the move, a
        landing takes the whole move (FOW 20 Flying); airborne flyers pass over terrain."""
        fly = fact(cmd, "fly", MOVE_FACTS)
        if fly == "take_off":
            return True
        return fly != "land" and any(e.markers.get("airborne") for e in unit.living)

    def must_fly_on(self, state: BattleState, unit: UnitState, able: Sequence[ElementState] | None = None) -> bool:
        """An airborne unit (Hover aside) that has not moved yet this activation still owes
        its 2\" (FOW 20 Flying): it may not end the activation without moving or landing.
        `able`: `_able(unit)`, when the caller has it."""
        if unit.markers.get("moved"):  # (asked at every Decision of an activation: the cheap test first)
            return False
        if able is None:
            able = self._able(state, unit)
        return (bool(able) and all(e.markers.get("airborne") for e in able)
                and not all(self.combatant(state, e).has("hover") for e in able))

    def move_allowance(self, state: BattleState, unit_id: str, facts: dict[str, Any] | None = None) -> Fraction:
        """The inches of open ground the unit may move now with these move facts (a
        fleeing unit runs)."""

        unit = self._unit(state, unit_id)
        cmd = Move(unit=unit_id, facts=dict(facts or {}))
        able = self._able(state, unit)
        running = bool(fact(cmd, "run", MOVE_FACTS)) or unit.data.get("morale") == "fleeing"
        return Fraction(self._allowance(state, unit, cmd, running, able)) if able else Fraction(0)

    def _allowance(self, state: BattleState, unit: UnitState, cmd: Move, running: bool,
                   able: Sequence[ElementState] | None = None, airborne: bool | None = None,
                   f: Callable[[str], Any] | None = None) -> Fraction | int:
        """`able`, `airborne` and `f`: `_able(unit)`, `_flies(unit, cmd)` and
        `facts_of(cmd, MOVE_FACTS).get`, when the caller has them. Whole inches are an int."""
        if able is None:
            able = self._able(state, unit)
        # crewed artillery (MOVE 0) goes with its crew (FOW 16): the movers set the pace
        pace = self._pace(state, unit)
        if pace is not None and able:
            move = pace
        else:
            move = min((m for m in (self.element_of(state, e).move or 0 for e in able) if m > 0), default=0)
        effects = self.effects_on(state, unit.id)
        if airborne is None:
            airborne = self._flies(state, unit, cmd)
        if f is None:
            f = facts_of(cmd, MOVE_FACTS).get
        return allowance(
            move,
            fast="Fast" in effects,
            slow="Slow" in effects,
            running=running,
            flying_so=airborne and self.edition == SO,
            # (only a Submersible element dives: most battles have none)
            submerged=self._static_any("submersible") and any(e.markers.get("submerged") for e in unit.living),
            formation_change=bool(f("formation_change")) or (
                bool(f("formation"))
                and f("formation") != unit.data.get("formation", "line")) or (
                bool(f("depth"))
                and f("depth") != unit.data.get("depth", "single")),
            stand_up=f("prone") == "up",
            sailed=SAIL_FRACTION.get(f("heading") or "", WHOLE) if self._static_any("sailed") and any(
                self.combatant(state, e).has("sailed") for e in able) else WHOLE,
        )

    def _pace(self, state: BattleState, unit: UnitState) -> int | None:
        """The MOVE every element of the unit was created with, when they share one above 0
        (then it is the pace of any of them that may move); None otherwise. Kept for the
        battle: a unit's elements never change."""
        if unit.id in self._pace_of:
            return self._pace_of[unit.id]
        moves = {self.element_of(state, e).move or 0 for e in unit.elements}
        pace = self._pace_of[unit.id] = moves.pop() if len(moves) == 1 and min(moves) > 0 else None
        return pace

    def _do_move(self, state: BattleState, cmd: Move, ctx: Context, checked: MoveChecked | None = None) -> Resolution:
        unit = state.unit(cmd.unit)
        if checked is not None and self.verify_hand_over:
            assert checked == MoveChecked(facts_of(cmd, MOVE_FACTS), _inches(cmd)), "the move check's hand-over"
        # (a move asks for two dozen facts: the check's, when it handed them over)
        f = (checked.facts if checked is not None else facts_of(cmd, MOVE_FACTS)).get
        m = unit.markers
        fleeing = unit.data.get("morale") == "fleeing"
        run = bool(f("run")) or fleeing
        m["moved"] = True
        if run:
            m["ran"] = True
        distance = self.inches_moved(state, cmd, checked.inches if checked is not None else None)
        verb = "flees" if fleeing else ("runs" if run else "moves")
        ctx.emit("move", f"{unit.name} {verb}" + (f" {_shown(distance)}\"" if distance else ""), unit=unit.id, run=run)
        # moving breaks off from every unit it is not still touching (A-17: touching again is a charge)
        keep = [] if fleeing else f("contact") or []
        for other in contact.break_off(state, unit, keep):
            ctx.emit("break_off", f"{unit.name} breaks off from {other.name}", unit=unit.id, other=other.id)
        able = self._able(state, unit)
        for es in unit.living:
            es.markers.pop("jumped", None)
        # stealth: re-hide after a move of 4"+ without firing (A-68)
        if distance >= 4 and self._static_any("stealth"):
            for es in able:  # (created without Stealth: no view of it has it)
                if "stealth" in self._bought(state, es)[0] and self.combatant(state, es).has("stealth") \
                        and es.data.get("fired_turn") != state.turn:
                    es.markers["hidden"] = True
        for name, marker, on, kind, words in MARKER_MOVES:
            value = f(name)
            if not value:
                continue
            for es in able:
                if value == on:
                    es.markers[marker] = True
                else:
                    es.markers.pop(marker, None)
            ctx.emit(kind, f"{unit.name} {words[0] if value == on else words[1]}", unit=unit.id)
        if f("aground"):
            boats = [es for es in able if self.combatant(state, es).has("waterborne")]
            for es in boats:  # only Waterborne elements are stuck by shallow water
                es.markers["aground"] = True
            if boats:
                ctx.emit("aground", f"{unit.name} runs aground in shallow water", unit=unit.id)
        formation = f("formation")
        depth = f("depth")
        if (formation and formation != unit.data.get("formation", "line")) or (
                depth and depth != unit.data.get("depth", "single")):
            unit.data["formation"] = formation or unit.data.get("formation", "line")
            unit.data["depth"] = depth or unit.data.get("depth", "single")
            ctx.emit("formation", f"{unit.name} forms a {self.formation_words(unit)} (half its move)", unit=unit.id)
        prone = f("prone")
        if prone == "down":
            for es in able:
                es.markers["prone"] = True
            ctx.emit("prone", f"{unit.name} goes prone", unit=unit.id)
        elif prone == "up":
            for es in able:
                es.markers.pop("prone", None)
            ctx.emit("stand", f"{unit.name} stands up", unit=unit.id)
        embark = f("embark")
        if embark:
            for es in able:
                es.markers["carried_by"] = embark
            ctx.emit("embark", f"{unit.name} boards {state.element(embark).name}", unit=unit.id)
        elif f("disembark"):
            for es in able:
                es.markers.pop("carried_by", None)
            ctx.emit("disembark", f"{unit.name} gets off and is placed touching its transport (A-31)", unit=unit.id)
        for uid in f("within_6") or []:
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
        if f("ends_into_wind"):
            m["into_wind"] = True
        lost_before = self._loss_mark()
        # running through light terrain: base-die test, failure is a hit (A-14 exemptions)
        for eid in f("light_terrain") or []:
            es = state.element(eid)
            c = self.combatant(state, es)
            if not run or not es.alive or self._ignores_light(c, es):
                continue
            (face,) = yield from self._roll(state, ctx, c.die, 1, f"1 x d{c.die} running through light terrain, {es.name}",
                                            side, es)
            if not succeeds(face, 0):
                ctx.emit("terrain_hit", f"{es.name} stumbles in light terrain ({face}): a hit", element=es.id)
                yield from self._hit(state, ctx, es, Hit(attack_die=c.die, source="running through light terrain"), None)
        if f("jump"):
            for es in able:
                es.markers["jumped"] = True
        for eid in f("jump_heavy") or []:
            es = state.element(eid)
            c = self.combatant(state, es)
            if not es.alive:
                continue
            (face,) = yield from self._roll(state, ctx, c.die, 1, f"1 x d{c.die} jump in heavy terrain, {es.name}", side, es)
            if not succeeds(face, 0):
                ctx.emit("terrain_hit", f"{es.name} lands badly in heavy terrain ({face}): a hit", element=es.id)
                yield from self._hit(state, ctx, es, Hit(attack_die=c.die, source="jumping in heavy terrain"), None)
        if fleeing and f("left_table"):
            unit.markers["removed"] = True
            liveness_changed()
            unit.data["fled"] = True
            ctx.emit("fled", f"{unit.name} flees off the table and is lost for the game (A-50)", unit=unit.id)
            self._mark_eliminated(state, unit, None)
            self._orphans(state, ctx, None)
            return
        contacts = [state.unit(u) for u in f("contact") or []]
        if contacts and not fleeing:
            elsewhere = set(f("contact_elsewhere") or [])
            yield from self._contact_made(state, ctx, unit, contacts, elsewhere)
        near = [state.unit(u) for u in f("near") or []]
        yield from self._fear(state, ctx, unit, near)
        yield from self._losses_morale(state, ctx, lost_before)

    def _ignores_light(self, c: Combatant, es: ElementState) -> bool:
        if es.markers.get("airborne"):
            return True
        if self.edition == V17 and (c.has("tracked") or c.has("walker")):
            return True
        return self.edition == SO and c.has("skimmer")

    def _fear(self, state: BattleState, ctx: Context, mover: UnitState, near: list[UnitState]) -> Resolution:
        """Fearsome: an enemy unit that gets within 8" for the first time rolls (A-47)."""
        pairs = state.data.setdefault("fear_pairs", [])
        for other in near:
            if other.side == mover.side or other.eliminated:
                continue
            for scary, scared in ((mover, other), (other, mover)):
                key = f"{scary.id}|{scared.id}"
                if key in pairs or not any(self.combatant(state, e).has("fearsome") for e in scary.living):
                    continue
                pairs.append(key)
                if scared.eliminated:
                    continue
                yield from self._morale(state, ctx, scared, f"fear of {scary.name}")


# the move facts measured in inches, degrees or turns (whole numbers, never negative)
_MEASURED: tuple[str, ...] = tuple(
    spec.name for spec in MOVE_FACTS if isinstance(spec.default, int) and not isinstance(spec.default, bool))


def _shown(inches: Fraction) -> str:
    """`f"{float(inches):g}"` (a move's text), without the float for whole inches: a whole
    number under a million is written by 'g' as its digits."""
    n, d = inches.numerator, inches.denominator
    if d == 1 and -1_000_000 < n < 1_000_000:
        return str(n)
    return f"{float(inches):g}"


def _distance(cmd: Move) -> Fraction:
    """Inches the command says were moved: the `distance` fact, or else the length of
    the declared path (0 if it says neither)."""
    told = _inches(cmd)
    return told if type(told) is Fraction else Fraction(told)


def _inches(cmd: Move) -> Fraction | int:
    """`_distance`'s value, an int while it is a whole `distance` (or nothing): the move
    check compares it many times and makes no Fraction for it."""
    given = fact(cmd, "distance", MOVE_FACTS) or 0
    if type(given) is not int:
        given = Fraction(given)
    if given:
        return given
    segments = _parse_path(fact(cmd, "path", MOVE_FACTS) or "")
    return sum((seg.inches for seg in segments), Fraction(0)) if segments else 0


_SEGMENT = re.compile(r"^\s*(open|light|heavy|impassable)\s+(\d+(?:\.\d+)?|\d+/\d+)\s*(water|ground)?\s*(water|ground)?\s*$", re.I)


def _parse_path(text: str) -> list[Segment]:
    """'open 3, light 2, heavy 1 water' -> segments; IllegalCommand on anything else."""
    if not text or not str(text).strip():
        return []
    return list(_segments(str(text)))


@functools.lru_cache(maxsize=1024)
def _segments(text: str) -> tuple[Segment, ...]:
    """The segments of a path text, read once per text (a move reads its path several times)."""
    out = []
    for part in str(text).split(","):
        match = _SEGMENT.match(part)
        if not match:
            raise IllegalCommand("FOW 6.2", f"cannot read path segment {part.strip()!r} "
                                            "(write e.g. \"open 3, light 2, heavy 1 water\")")
        tags = {t.lower() for t in match.groups()[2:] if t}
        out.append(Segment(match.group(1).lower(), Fraction(match.group(2)), "water" in tags, "ground" in tags))  # type: ignore[arg-type]
    return tuple(out)
