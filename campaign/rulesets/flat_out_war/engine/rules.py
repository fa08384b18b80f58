"""Flat Out War's battle rules: the hooks the engine core calls (docs/engine.md).

State lives in the core's attrs classes; this module keeps Flat Out War's own facts in
their `data` and `markers` dicts:

* element.data: `die` (current base die), `lost_weapons`, `uses` / `reload` per weapon
  index, `hp` (Hit Points left), `lockout` (misfire), `lucky_turn` / `lucky_used`,
  `acted_turn` / `fired_turn` (owner-turn clocks)
* element.markers: `prone`, `airborne`, `snared`, `sticky` {die, side, source},
  `hidden`, `submerged`, `aground`, `down` (Reliant), `jumped`, `faced` (turned to meet
  the charge of that unit id, A-18; cleared when an activation ends)
* unit.data: `start`, `lost`, `morale`, `disordered`, `cost`, `officer`, `attached_to`,
  `summon_die`, `eliminated_by`, `engaged` (the enemy unit ids it touches: `contact`);
  unit.markers: this activation's `moved`, `ran`, `charging`, `charged`, `acted`, `rally_tried`
* state.effects: spells with `remaining` player-turns (`data.fresh` until the casting
  turn ends); state.data: `fear_pairs`, `objectives`, `strategic_winner`
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.commands import Command
from campaign.engine.display import UnitView
from campaign.engine.errors import IllegalCommand
from campaign.engine.events import Event
from campaign.engine.rules import BattleRules
from campaign.engine.setup import BattleSetup
from campaign.engine.state import BattleState, ElementState, liveness_epoch, marks_epoch, state_from_setup
from campaign.force import Element, Unit, Weapon
from campaign.rulesets.flat_out_war.editions import V17
from campaign.rulesets.flat_out_war.engine.combatant import (
    Combatant,
    combatant_from_element,
    static_traits,
)
from campaign.rulesets.flat_out_war.engine.commands import (
    CAST_FACTS,
    FOW_COMMANDS,
    MELEE_FACTS,
    MOVE_FACTS,
    SHOOT_FACTS,
)
from campaign.rulesets.flat_out_war.engine.options import BATTLE_OPTIONS
from campaign.rulesets.flat_out_war.engine.display import die_number, unit_view
from campaign.rulesets.flat_out_war.engine.play.actions import ActionsMixin
from campaign.rulesets.flat_out_war.engine.play.activation import ActivationMixin
from campaign.rulesets.flat_out_war.engine.play.attacks import AttackMixin
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution
from campaign.rulesets.flat_out_war.engine.play.casting import CastingMixin
from campaign.rulesets.flat_out_war.engine.play.charging import ChargeMixin
from campaign.rulesets.flat_out_war.engine.play.hits import HitsMixin
from campaign.rulesets.flat_out_war.engine.play.morale import MoraleMixin
from campaign.rulesets.flat_out_war.engine.play.movement import MovementMixin
from campaign.rulesets.flat_out_war.engine.play.odds import OddsMixin
from campaign.rulesets.flat_out_war.engine.play.outcome import OutcomeMixin
from campaign.rulesets.flat_out_war.engine.reliant import Piece, reliant_on, resolve_link
from campaign.rulesets.flat_out_war.engine.rolls import die_sides

if TYPE_CHECKING:
    from campaign.engine.context import Context

if TYPE_CHECKING:  # the card scheme is loaded only when a battle uses it
    from campaign.activation.cards.host import CardHost

ONE_DIE = 1
_NO_FLAGS = (False, False, False, False)  # a view's (airborne, prone, down, faced)
_FACED_ONLY = (False, False, False, True)
_VIEW_MARKERS = frozenset(("airborne", "prone", "down", "faced"))  # the element markers a combat view reads
FACTS_OF = {"move": MOVE_FACTS, "melee": MELEE_FACTS, "shoot": SHOOT_FACTS, "cast": CAST_FACTS}
FREE_IDS = frozenset({"contact_elsewhere"})  # unit or element ids: checked by the move itself
# the facts of each command type that name units or elements `_check_named_ids` checks
PICKED_FACTS = {kind: tuple(s for s in specs if s.picks and s.name not in FREE_IDS) for kind, specs in FACTS_OF.items()}
_CHECKERS: dict[tuple[type, str], Any] = {}  # (rules class, command type) -> its `_check_<type>` or None
_UNKNOWN = object()


def _opt_defaults() -> dict[str, Any]:
    return {o.name: o.default for o in BATTLE_OPTIONS}


# Each concern of play is a mixin in `play/`; this class holds the state they share
# (edition, options, the static elements) and dispatches commands to their
# `_check_<type>` and `_do_<type>` methods.
class FlatOutWarRules(
    ActivationMixin,
    MovementMixin,
    ChargeMixin,
    AttackMixin,
    HitsMixin,
    CastingMixin,
    ActionsMixin,
    MoraleMixin,
    OutcomeMixin,
    OddsMixin,
    PlayHelpers,
    BattleRules,
):
    id = "flat-out-war"
    snapshots = True  # _static, _traits, _views: caches of the setup and the state (new_state rebuilds them)

    def __init__(self, options: dict[str, Any] | None = None, ruleset: Any = None, edition: str | None = None) -> None:
        mine = {k: v for k, v in (options or {}).items() if k in _opt_defaults()}
        super().__init__({**_opt_defaults(), **mine}, ruleset)
        self.edition = edition or getattr(ruleset, "edition", None) or V17
        self.cost_options = {k: v for k, v in (options or {}).items() if k not in _opt_defaults()}
        self._static: dict[str, Element] = {}
        self._traits: dict[str, Any] = {}  # element id -> parsed attributes (static, parsed once)
        self._views: dict[tuple, Combatant] = {}  # combat views by everything they are built from
        # element id -> (die, Hit Points, view) of the last plain view made of it (`combatant`),
        # and of the last one with only the `faced` flag (a charge's target, A-18)
        self._plain_views: dict[str, tuple[Any, Any, Combatant]] = {}
        self._faced_views: dict[str, tuple[Any, Any, Combatant]] = {}
        # element id -> its view as created (new_state's, shared by the elements of one force
        # entry): a view with no uses, lost weapons, links, Lucky or spell is it with the
        # element's die, Hit Points, markers and id (`_combatant`)
        self._templates: dict[str, Combatant] = {}
        self._may_disable = True
        self._pace_of = {}
        self._setup: BattleSetup | None = None
        self._static_names: frozenset[str] = frozenset()
        # unit ids (of the setup) with an element created Reliant, and with one that could
        # carry an owner-turn clock (a Magic caster's misfire lockout, a Reload weapon): the
        # turn hooks look only through these (summoned troopers have neither)
        self._reliant_units: frozenset[str] = frozenset()
        self._clock_units: frozenset[str] = frozenset()
        self._entrench_units: frozenset[str] = frozenset()
        self._command_units: frozenset[str] = frozenset()
        self._clock_places: dict[str, list[tuple[int, str, tuple[int, ...]]]] = {}
        self._loss_journal = []
        self._unit_places = None
        self._specs = {}
        self._group_params = {}
        self._attack_parts = {}
        self._attack_specs = {}
        self._enemy_ids = {}
        self._bought_of = {}
        self._created_of = {}
        self._living_cache = None
        self._enemies_of = {}
        self._own_of = {}
        self._officers_of = {}
        self._sides_standing = 0
        self._faced_clean = None
        self._faced_marked = []
        self._checked: tuple[Command, BattleState, int, int, Any] | None = None

    def _static_any(self, name: str) -> bool:
        """Whether any element of the battle was created with attribute `name` (its key)."""
        return name in self._static_names

    def scheme_host(self, scheme: str, options: dict[str, Any]) -> CardHost | None:
        """The card scheme runs on Flat Out War through its host (card_host.py)."""
        from campaign.activation.cards.host import SCHEME_NAME
        from campaign.rulesets.flat_out_war.engine.card_host import FlatOutWarHost

        return FlatOutWarHost(self, options) if scheme == SCHEME_NAME else None

    def odds_observed(self, before: BattleState, after: BattleState, command: Command,
                      events: Sequence[Event]) -> dict[str, int]:
        """Casualties (the odds' one outcome): the target's models the attack destroyed, read
        off its events (the card scheme lands an action's results on the units only later)."""
        target = getattr(command, "target", "")
        if command.type not in ("melee", "shoot") or not target:
            return {}
        mine = {e.id for e in before.unit(target).alive}
        return {"casualties": len({e.data.get("element") for e in events if e.kind == "destroyed"} & mine)}

    def describe_unit(self, state: BattleState, unit_id: str) -> UnitView:
        """Morale, markers, spells, and each element's die (and the die it started with)."""

        def start_die(es: ElementState) -> int | None:
            return die_number(self._static[es.id].die) if es.id in self._static else None

        return unit_view(state, unit_id, start_die)

    def command_types(self) -> Iterable[type[Command]]:
        return FOW_COMMANDS

    def new_state(self, setup: BattleSetup) -> BattleState:
        from campaign.rulesets.flat_out_war.costs import CostOptions

        self._setup = setup
        self._static.clear()
        self._traits.clear()
        self._views.clear()
        self._plain_views.clear()
        self._faced_views.clear()
        self._templates.clear()
        self._pace_of.clear()
        self._loss_journal.clear()  # marks into it belong to the state being replaced
        self._specs.clear()
        self._group_params.clear()
        self._attack_parts.clear()
        self._attack_specs.clear()
        self._enemy_ids.clear()
        self._bought_of.clear()
        self._created_of.clear()
        self._living_cache = None
        self._enemies_of = {}
        self._own_of = {}
        self._officers_of = {}
        self._sides_standing = 0
        self._faced_clean = None
        self._faced_marked = []
        self._checked = None
        state = state_from_setup(setup)
        opts = CostOptions(ranged_base_dac=int(self.cost_options.get("ranged_base_dac", 2)))
        i = 0
        # Forces repeat their elements (a unit's models share one Element): each distinct
        # element's view, parsed traits and flags are worked out once, by id(element).
        # (view, traits, clocked: a Magic caster or a Reload weapon)
        made: dict[int, tuple[Combatant, Any, bool]] = {}
        prices: dict[tuple[int, int], tuple[Element, Any]] = {}  # (id(element), id(force)) -> its price (the same)
        traits_of = self._traits
        reliant, clocks, clocked, command = set(), set(), set(), set()
        for side in setup.sides:
            for unit in side.force.units:
                us = state.units[i]
                i += 1
                # VP basis: the unit's creation cost, every element it was created with
                cost = _unit_cost(unit, [self._price(e, side.force, opts, prices) for e in unit.elements])
                us.data.update(start=len(us.elements), lost=0, morale="steady", disordered=False,
                               cost=cost, officer="", attached_to="")
                if not us.elements:  # lost in an earlier battle: not on the table, worth nothing now
                    us.data["absent"] = True
                for es in us.elements:
                    element = unit.elements[es.entry]
                    self._static[es.id] = element
                    found = made.get(id(element))
                    if found is None:
                        traits = static_traits(element)
                        own, per_weapon = traits[0]
                        found = made[id(element)] = (
                            combatant_from_element(element, die=_state_die(element), traits=traits[0]), traits,
                            "magic" in own or any(t.get("reload") for t in per_weapon))
                    c, traits, has_clock = found
                    self._templates[es.id] = c
                    traits_of[es.id] = traits
                    es.data.update(die=c.die, hp=c.hit_points, lost_weapons=[], uses={}, reload={})
                    if c.has("stealth"):
                        es.markers["hidden"] = True
                    if c.has("entrenched") and self.edition == V17:
                        us.markers["entrenched"] = True
                    own = traits[0][0]
                    if "reliant" in own:
                        reliant.add(us.id)
                    if "command" in own:
                        command.add(us.id)
                    if has_clock:
                        clocks.add(us.id)
                        clocked.add(es.id)
        state.data.update(fear_pairs=[], objectives={}, strategic_winner="")
        # attributes some element of this battle was created with (summoned troopers have none),
        # so loops can skip rules no element could use
        self._static_names = frozenset(name for _, traits, _ in made.values() for name in traits[0][0])
        self._reliant_units, self._clock_units = frozenset(reliant), frozenset(clocks)
        # only a Reliant element is ever down, and only an Ensnare weapon snares (`_able`)
        self._may_disable = bool(reliant) or any(
            "ensnare" in own or any("ensnare" in traits for traits in per_weapon)
            for own, per_weapon in (traits[0] for _, traits, _ in made.values()))
        self._command_units = frozenset(command)
        self._clock_places = {}
        for pos, us in enumerate(state.units):
            if us.id in clocks:
                places = tuple(i for i, es in enumerate(us.elements) if es.id in clocked)
                self._clock_places.setdefault(us.side, []).append((pos, us.id, places))
        self._entrench_units = frozenset(u.id for u in state.units if u.markers.get("entrenched"))
        self._link_reliant(state)
        return state

    def _price(self, element: Element, force: Any, opts: Any, prices: dict[tuple[int, int], tuple[Element, Any]]) -> Any:
        """An element's price for `new_state` (the ruleset's, else the edition's), once per
        element and force of the setup (`prices`: forces repeat their elements)."""
        key = (id(element), id(force))
        found = prices.get(key)
        if found is None:
            if self.ruleset is not None and hasattr(self.ruleset, "price_element"):
                each = self.ruleset.price_element(element, force).each
            else:
                from campaign.rulesets.flat_out_war.costs import price_element

                each = price_element(element, self.edition, opts).each
            found = prices[key] = (element, each)
        return found[1]

    def _link_reliant(self, state: BattleState) -> None:
        """A-29: each `Reliant: NAME` element learns the element ids it relies on."""
        names: dict[int, str] = {}  # id(element) -> reliant_on (forces repeat their elements)

        def reliant_name(es_id: str) -> str:
            element = self._static[es_id]
            name = names.get(id(element))
            if name is None:
                name = names[id(element)] = reliant_on(element)
            return name

        for side in state.side_ids():
            units = state.units_of(side, alive=False)
            if not any(reliant_name(e.id) for u in units for e in u.elements):
                continue  # (most sides: nothing Reliant, no pieces to look through)
            pieces = [Piece(e.id, e.name, u.id, u.name) for u in units for e in u.elements]
            for piece in pieces:
                name = reliant_name(piece.id)
                if name:
                    es = state.element(piece.id)
                    es.data["reliant_on"] = list(resolve_link(name, piece, pieces))
                    if not es.data["reliant_on"]:
                        es.data["reliant_unknown"] = name

    def element_of(self, state: BattleState, es: ElementState) -> Element:
        if es.id in self._static:
            return self._static[es.id]
        unit = state.unit(es.unit)
        die = f"d{unit.data.get('summon_die', 4)}"
        # a summoned trooper: MOVE 4, a melee weapon of its own die, no attributes
        element = Element("Summoned trooper", die=die, move=4, weapons=(Weapon("Summoned weapon", "melee", die),))
        self._static[es.id] = element
        return element

    def combatant(self, state: BattleState, es: ElementState) -> Combatant:
        # Called for every element in most loops of play (about 4,000 instructions a call
        # until this path came first): a plain element (no markers, no spell in play) seen
        # plain before has its view while its die and Hit Points stay, and it has no uses
        # and has lost no weapon.
        # Markers a view does not read (Stealth's hidden, ...) leave an element plain; a
        # charge's target turned to face it (`faced` alone) has a plain view of its own.
        if state.effects:
            return self._combatant(state, es)
        m = es.markers
        if not m or _VIEW_MARKERS.isdisjoint(m):
            plain = self._plain_views.get(es.id)
        elif m.get("faced") and not (m.get("airborne") or m.get("prone") or m.get("down")):
            plain = self._faced_views.get(es.id)
        else:
            return self._combatant(state, es)
        if plain is not None:
            data = es.data
            try:  # (new_state and a summoning give every element these four)
                if data["die"] == plain[0] and data["hp"] == plain[1] and not (data["uses"] or data["lost_weapons"]):
                    return plain[2]
            except KeyError:
                pass
        return self._combatant(state, es)

    def _combatant(self, state: BattleState, es: ElementState) -> Combatant:
        # the key is built with no more work than its inputs need (most elements have no
        # uses, links or markers)
        data = es.data
        effects = state.effects
        extra = ("flying",) if effects and _flying(effects, es.unit) else ()
        traits = self._traits.get(es.id)
        if traits is None:
            traits = self._traits[es.id] = static_traits(self.element_of(state, es))
        own, links = traits
        m = es.markers
        raw_uses = data.get("uses")
        lost = data.get("lost_weapons")
        flags = (bool(m.get("airborne")), bool(m.get("prone")), bool(m.get("down")), bool(m.get("faced"))) \
            if m and not _VIEW_MARKERS.isdisjoint(m) else _NO_FLAGS
        if not (extra or raw_uses or lost or links) and "lucky" not in own[0] and (flags == _NO_FLAGS
                                                                                   or flags == _FACED_ONLY):
            # a plain element (most of them): its die and Hit Points are all that can differ,
            # and whether it faced a charge (then the key has a fourth item)
            switched_off: tuple[str, ...] = ()
            uses: tuple[tuple[int, Any], ...] = ()
            lucky = False
            key: tuple[Any, ...] = (es.id, data.get("die"), data.get("hp")) if flags == _NO_FLAGS else \
                (es.id, data.get("die"), data.get("hp"), True)
        else:
            # an Activate-linked attribute starts off
            switched_off = _switched_off(links, data) if links else ()
            uses = tuple(sorted((int(k), v) for k, v in raw_uses.items())) if raw_uses else ()
            lucky = "lucky" in own[0] and self._lucky_ready(state, es)
            # everything the combat view is built from: the same inputs give the same (frozen) view
            key = (es.id, extra, switched_off, data.get("die"), tuple(lost) if lost else (), uses, data.get("hp"),
                   flags, lucky)
        cached = self._views.get(key)
        if cached is not None:
            if len(key) <= 4:
                (self._plain_views if len(key) == 3 else self._faced_views)[es.id] = (key[1], key[2], cached)
            return cached
        template = self._templates.get(es.id) if not (extra or switched_off or lost or uses or lucky) else None
        if template is not None:
            # what combatant_from_element would build, without working the element out again
            die, hp = data.get("die"), data.get("hp")
            c = Combatant(
                name=template.name,
                base_die=template.base_die,
                die=die or template.base_die,
                kind=template.kind,
                mounted=template.mounted,
                large=template.large,
                attributes=template.attributes,
                params=template.params,
                weapons=template.weapons,
                airborne=flags[0],
                prone=flags[1],
                hit_points=template.hit_points if hp is None else hp,
                down=flags[2],
                faced=flags[3],
                key=es.id,
            )
        else:
            c = self.combatant_afresh(state, es, traits)
        self._views[key] = c
        if len(key) <= 4:
            (self._plain_views if len(key) == 3 else self._faced_views)[es.id] = (key[1], key[2], c)
        return c

    def combatant_afresh(self, state: BattleState, es: ElementState, traits: Any = None) -> Combatant:
        """`combatant` worked out from the element and its state alone (`traits`: the
        element's `static_traits`, if known)."""
        data = es.data
        effects = state.effects
        extra = ("flying",) if effects and _flying(effects, es.unit) else ()
        element = self.element_of(state, es)
        own, links = traits if traits is not None else static_traits(element)
        switched_off = _switched_off(links, data) if links else ()
        m = es.markers
        raw_uses = data.get("uses")
        c = combatant_from_element(
            element,
            traits=own,
            switched_off=switched_off,
            die=data.get("die"),
            lost_weapons=data.get("lost_weapons") or (),
            uses={int(k): v for k, v in raw_uses.items()} if raw_uses else {},
            hit_points=data.get("hp"),
            airborne=bool(m.get("airborne")),
            prone=bool(m.get("prone")),
            down=bool(m.get("down")),
            faced=bool(m.get("faced")),
            extra_attributes=extra,
            key=es.id,
        )
        if "lucky" in own[0] and c.has("lucky") and self._lucky_ready(state, es):
            c = attrs.evolve(c, lucky_ready=True)
        return c

    def check(self, state: BattleState, command: Command) -> None:
        self._checked = None  # (a hand-over is for the command checked last: `hand_over`)
        if command.type in PICKED_FACTS:
            self._check_named_ids(state, command)
        key = (type(self), command.type)
        checker = _CHECKERS.get(key, _UNKNOWN)  # (asked for every command: no failed getattr for most)
        if checker is _UNKNOWN:
            checker = _CHECKERS[key] = getattr(type(self), f"_check_{command.type}", None)
        if checker is not None:
            checker(self, state, command)

    def _check_named_ids(self, state: BattleState, command: Command) -> None:
        """Every fact that names units or elements (its `picks`) names ones that exist,
        and the acting unit's or the target's own where the fact says so (FOW 22)."""
        facts = getattr(command, "facts", None) or {}
        for spec in PICKED_FACTS.get(command.type, ()):
            if spec.name not in facts:
                continue
            value = facts[spec.name]
            for name in value if isinstance(value, list) else []:
                problem = self._id_problem(state, command, spec.picks, str(name))
                if problem:
                    raise IllegalCommand("FOW 22", f"{spec.name}: {problem}")

    def _id_problem(self, state: BattleState, command: Command, picks: str, name: str) -> str:
        if picks in ("units", "enemy_units"):
            try:
                state.unit(name)
            except KeyError:
                return f"there is no unit {name!r}"
            return ""
        try:
            es = state.element(name)
        except KeyError:
            return f"there is no element {name!r}"
        if not es.alive:
            return f"{es.name} ({name}) is already removed"
        owner = {"unit_elements": getattr(command, "unit", ""),
                 "target_elements": getattr(command, "target", "")}.get(picks)
        if owner:
            try:
                unit = state.unit(owner)
            except KeyError:
                return ""  # the command's own check names the missing unit
            officer = unit.data.get("officer")
            if es.unit not in (unit.id, officer):
                return f"{es.name} ({name}) is not an element of {unit.name}"
        return ""

    def hand_over(self, state: BattleState, command: Command, worked_out: Any) -> None:
        """A `_check_<type>` that passed keeps what it worked out for the command's
        resolution (`_do_<type>(..., checked=worked_out)`), so resolution does not work it
        out again. The engine resolves a command right after checking it; `resolve` hands
        it over only for that very command object, on the same state, with no element's
        liveness and no markers dict or elements list changed since (the epochs of
        campaign.engine.state), and only once: any other check or resolution drops it."""
        self._checked = (command, state, liveness_epoch(), marks_epoch(), worked_out)

    def resolve(self, state: BattleState, command: Command, ctx: Context) -> Resolution:
        # the handler's own generator (not one wrapped around it: every roll and Decision of
        # a command passes through each generator that wraps it)
        handler = getattr(self, f"_do_{command.type}", None)
        if handler is None:
            raise IllegalCommand("rules", f"{command.type} has no resolution in Flat Out War")
        held, self._checked = self._checked, None
        if held is not None and held[0] is command and held[1] is state and held[2] == liveness_epoch() \
                and held[3] == marks_epoch():
            return handler(state, command, ctx, checked=held[4])  # type: ignore[no-any-return]
        return handler(state, command, ctx)  # type: ignore[no-any-return]


def _unit_cost(unit: Unit, each: list[Any]) -> Fraction:
    """The unit's creation cost from its elements' prices (`each`, in order), as an exact
    Fraction; worked out once for each unit and prices (battles between the same forces)."""
    key = (id(unit), tuple(each))
    found = _UNIT_COSTS.get(key)
    if found is not None and found[0] is unit:
        return found[1]
    cost = sum((Fraction(x).limit_denominator(1000) * e.count for x, e in zip(each, unit.elements)), Fraction(0))
    if len(_UNIT_COSTS) >= 4096:  # keep the cache bounded, as static_traits does
        _UNIT_COSTS.clear()
    _UNIT_COSTS[key] = (unit, cost)  # (the unit is kept with it: its id stays its own)
    return cost


# (id(unit), its elements' prices) -> (unit, cost)
_UNIT_COSTS: dict[tuple[int, tuple[Any, ...]], tuple[Unit, Fraction]] = {}


def _flying(effects: list[Any], unit: str) -> bool:
    """A Fly spell is on the unit (helpers, so that `_combatant` keeps no closure cells)."""
    return any(e.kind == "Fly" and e.target == unit for e in effects)


def _switched_off(links: list[str], data: dict[str, Any]) -> tuple[str, ...]:
    on = data.get("switched_on", [])
    return tuple(a for a in links if a not in on)


def _state_die(element: Element) -> int | None:
    """A die carried over from an earlier battle (Resilient), if any."""
    raw = element.state.get("die") if element.state else None
    return die_sides(raw) if raw is not None else None
