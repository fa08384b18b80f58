"""The card turn's bookkeeping (spec sections 3 and 4): deal, hidden assignment, card
order, action points, overwatch, rally, PREP and casting.

`CardTurn` is plain state plus the transitions the rules allow. It knows no host
ruleset and no engine: the scheme (`scheme.py`) drives it and asks the host to
resolve what an action does. Every refusal is a `CardRuleError` naming its rule.
Cards are kept as their codes ("QH", "10S", "17") so the state stays plain data.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction

import attrs

from campaign.activation.cards import rules
from campaign.activation.cards.deck import Card, card_key, parse_card
from campaign.activation.cards.rules import Charge, FlatModifier, Step

# The action menu (CA-4.1). "prep", "aim" and "cast" are Special actions with their
# own bookkeeping; "special" is any other Special action (host-defined).
ACTION_KINDS: tuple[str, ...] = ("rally", "move", "melee", "ballistic", "special", "prep", "aim", "cast")
SPECIAL_KINDS = frozenset({"special", "prep", "aim", "cast"})
ATTACK_KINDS = frozenset({"melee", "ballistic"})


class CardRuleError(ValueError):
    """An action the card rules refuse; `rule` is the spec's rule id (CA-7.1 ...)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


@attrs.define
class CardUnit:
    """One unit's card-scheme state (spec section 2)."""

    id: str
    side: str
    ap_max: int
    move: Fraction = Fraction(0)  # normal move, for the x2 rout move (CA-9)
    card: str | None = None  # the card code once revealed; hidden in the owner's SideHand until then
    status: str = "waiting"  # waiting | active | done
    routed: bool = False
    eliminated: bool = False
    overwatch: bool = False
    held_actions: int = 0
    ap_left: int = 0
    actions_taken: int = 0  # CA-4.6: feeds the -1 per previous action
    moved_this_turn: Fraction = Fraction(0)
    moved_last_turn: Fraction = Fraction(0)
    charge_bonus: bool = False  # AMB-14: lasts the rest of the activation
    free_melee_pending: bool = False  # CA-8.3 type (b) charge
    aim_pending: bool = False  # AMB-24
    casting_power: str | None = None  # CA-12.3
    casting_paid: int = 0
    prep_value: dict[str, int] = attrs.field(factory=dict)  # weapon -> PREP value
    prep_remaining: dict[str, int] = attrs.field(factory=dict)  # weapon -> actions still owed
    steps: list[Step] = attrs.field(factory=list)  # this activation's actions (charge classification)
    kinds_this_activation: list[str] = attrs.field(factory=list)  # host limits (FOW one Other Action)

    @property
    def can_act(self) -> bool:
        return not self.eliminated and (self.status == "active" and self.ap_left > 0)

    @property
    def must_rally(self) -> bool:
        """CA-6.1: a routed unit's first action of its activation is Rally."""
        return self.status == "active" and self.routed and not self.steps


@attrs.define
class SideHand:
    """What only one side may see: its dealt cards, which unit holds which, its discards."""

    hand: list[str] = attrs.field(factory=list)
    assigned: dict[str, str] = attrs.field(factory=dict)  # unit id -> card code, face down
    discarded: list[str] = attrs.field(factory=list)
    placed: bool = False


@attrs.define
class CardTurn:
    """The public part of the card scheme's state across turns (anyone may see it)."""

    turn: int = 0
    phase: str = "setup"  # setup | deal | assign | activations | over
    card_order: str = "suit_major"
    prep_counts: str = "prep_only"
    aim_excluded: bool = True
    combined_steps: bool = True  # AMB-19: a combined group acts one action per unit per step
    use_chits: bool = False
    units: dict[str, CardUnit] = attrs.field(factory=dict)
    sides: list[str] = attrs.field(factory=list)
    dealt: dict[str, int] = attrs.field(factory=dict)  # side -> number of cards dealt (public)
    assigned_sides: list[str] = attrs.field(factory=list)  # sides whose assignment is in
    revealed_order: list[str] = attrs.field(factory=list)  # unit ids, as their cards came up
    active: list[str] = attrs.field(factory=list)  # the unit(s) now activating
    held_use: str | None = None  # a unit spending its held overwatch action right now



@functools.lru_cache(maxsize=1024)
def _code_key(code: str, order: str) -> int:
    """A card code's key (read for every waiting unit at every card: a few dozen codes)."""
    return card_key(parse_card(code), order)


class CardTable:
    """The card rules acting on a CardTurn (public) and the sides' SideHands (hidden).

    Nothing is stored here: the scheme keeps the turn in `state.scheme` and each hand in
    `state.secret[side]`, and wraps them in a CardTable to act on them.
    """

    def __init__(self, turn: CardTurn, hands: dict[str, SideHand]) -> None:
        self.turn = turn
        self.hands = hands

    @property
    def units(self) -> dict[str, CardUnit]:
        return self.turn.units

    @property
    def sides(self) -> list[str]:
        return self.turn.sides

    def card_of(self, unit_id: str) -> str | None:
        """The unit's card (revealed or not): engine knowledge, never shown to the other side."""
        unit = self.turn.units[unit_id]
        hand = self.hands.get(unit.side)
        return unit.card or (hand.assigned.get(unit_id) if hand else None)

    # --- setup --------------------------------------------------------------------------
    def add_unit(
        self,
        unit_id: str,
        side: str,
        ap_max: int,
        move: object = 0,
        weapons: Sequence[tuple[str, int, bool]] = (),
    ) -> CardUnit:
        """Register a unit. `weapons` are (name, prep value, primary): the primary starts
        prepped, others with a PREP value start unprepped (GAME_SETUP, AMB-17)."""
        if ap_max < 1:
            raise CardRuleError("CA-4.1", f"{unit_id}: action points must be at least 1, not {ap_max}")
        unit = CardUnit(unit_id, side, ap_max, rules.inches(move))
        for name, value, primary in weapons:
            unit.prep_value[name] = max(0, value)
            unit.prep_remaining[name] = 0 if primary else max(0, value)
        self.units[unit_id] = unit
        if side not in self.sides:
            self.sides.append(side)
        self.hands.setdefault(side, SideHand())
        return unit

    def live_units(self, side: str | None = None) -> list[CardUnit]:
        return [u for u in self.units.values() if not u.eliminated and (side is None or u.side == side)]

    # --- TURN_START, DEAL ----------------------------------------------------------------
    def begin_turn(self) -> None:
        """TURN_START: reset the per-turn counters; last turn's cards are collected."""
        self.turn.turn += 1
        self.turn.phase = "deal"
        self.turn.dealt, self.turn.assigned_sides = {}, []
        self.turn.revealed_order, self.turn.active, self.turn.held_use = [], [], None
        for hand in self.hands.values():
            hand.hand, hand.assigned, hand.discarded, hand.placed = [], {}, [], False
        for unit in self.units.values():
            unit.card, unit.status = None, "waiting"
            unit.actions_taken, unit.overwatch, unit.held_actions = 0, False, 0
            unit.charge_bonus = unit.free_melee_pending = unit.aim_pending = False
            unit.ap_left, unit.steps, unit.kinds_this_activation = 0, [], []

    def plan(self, leadership: Mapping[str, int], rounding: str = "ceil", jokers: int = 0) -> rules.DealPlan:
        """CA-1: how many cards each side gets this turn (and whether chits replace the deck)."""
        counts = {side: len(self.live_units(side)) for side in self.sides}
        plan = rules.plan_deal(counts, leadership, rounding, jokers)
        self.turn.use_chits = plan.use_chits
        return plan

    def set_hand(self, side: str, cards: Sequence[Card]) -> None:
        """Give `side` its dealt cards (face down to everyone else)."""
        codes = [c.code for c in cards]
        taken = {code for s, hand in self.hands.items() if s != side for code in hand.hand}
        dupes = sorted(set(codes) & taken | {c for c in codes if codes.count(c) > 1})
        if dupes:
            raise CardRuleError("AMB-5", f"card(s) dealt twice: {', '.join(dupes)}")
        self.hands[side].hand = codes
        self.turn.dealt[side] = len(codes)
        if len(self.turn.dealt) == len(self.sides):
            self.turn.phase = "assign"

    # --- ASSIGN (CA-2) ----------------------------------------------------------------------
    def check_assignment(self, side: str, mapping: Mapping[str, str]) -> dict[str, str]:
        """Validate a side's card placement; returns unit id -> card code."""
        if self.turn.phase != "assign":
            raise CardRuleError("CA-2.1", "cards are placed after the deal and before the first card is turned")
        if side in self.turn.assigned_sides:
            raise CardRuleError("CA-2.1", f"{side} has already placed its cards this turn")
        hand = self.hands[side].hand
        wanted = {u.id for u in self.live_units(side)}
        given = set(mapping)
        if given - wanted:
            extra = ", ".join(sorted(given - wanted))
            raise CardRuleError("CA-2.1", f"not units of {side} that can take a card: {extra}")
        if wanted - given:
            missing = ", ".join(sorted(wanted - given))
            raise CardRuleError("CA-2.1", f"every unit needs one card; missing: {missing}")
        codes = {}
        for unit_id, text in mapping.items():
            code = parse_card(text).code
            if code not in hand:
                raise CardRuleError("CA-2.1", f"{code} is not in {side}'s hand")
            codes[unit_id] = code
        if len(set(codes.values())) != len(codes):
            raise CardRuleError("CA-2.1", "each card can go to one unit only")
        return codes

    def assign(self, side: str, mapping: Mapping[str, str]) -> list[str]:
        """Put one dealt card face down on each of `side`'s units; returns the discards.

        `mapping` is unit id -> card as typed ("QH"). Every live unit of the side needs
        exactly one card from the side's own hand; the rest are discarded unseen (CA-2.2).
        """
        codes = self.check_assignment(side, mapping)
        hand = self.hands[side]
        hand.assigned = dict(sorted(codes.items()))
        hand.discarded = [c for c in hand.hand if c not in set(codes.values())]
        hand.placed = True
        self.turn.assigned_sides.append(side)
        if len(self.turn.assigned_sides) == len(self.sides):
            self.turn.phase = "activations"
        return list(hand.discarded)

    # --- NEXT_CARD (CA-3, CA-4.5) ------------------------------------------------------------
    def key(self, code: str) -> int:
        return _code_key(code, self.turn.card_order)

    def _key_of(self, unit: CardUnit) -> int:
        card = self.card_of(unit.id)
        return self.key(card) if card else 10_000

    def queue(self) -> list[CardUnit]:
        """Units still to activate this turn, in card order (eliminated units skipped, AMB-7)."""
        waiting: list[tuple[int, int, CardUnit]] = []
        order = self.turn.card_order
        for n, u in enumerate(self.units.values()):
            if u.status == "waiting" and not u.eliminated:
                card = self.card_of(u.id)
                if card:
                    waiting.append((_code_key(card, order), n, u))
        waiting.sort()  # by key, then the units' order (n is unique: units are never compared)
        return [u for _, _, u in waiting]

    def order(self) -> list[CardUnit]:
        """Every carded unit this turn in card order (engine knowledge: not for display)."""
        return sorted((u for u in self.units.values() if self.card_of(u.id)), key=self._key_of)

    def next_run(self) -> list[CardUnit]:
        """The next card's unit plus the same side's units on the cards straight after it
        (CA-4.5 "in sequence"). Empty when the turn is over."""
        queue = self.queue()
        if not queue:
            return []
        run = [queue[0]]
        for unit in queue[1:]:
            if unit.side != run[0].side:
                break
            run.append(unit)
        return run

    def activate(self, unit_ids: Sequence[str]) -> None:
        """Reveal the cards and start the activation of one unit or an in-sequence group."""
        run = [u.id for u in self.next_run()]
        if not unit_ids or list(unit_ids) != run[: len(unit_ids)]:
            raise CardRuleError(
                "CA-4.5",
                f"next to activate is {run[0] if run else 'nobody'}; a group must be that unit "
                "and the same side's cards straight after it",
            )
        self.turn.active = list(unit_ids)
        for unit_id in unit_ids:
            unit = self.units[unit_id]
            unit.card, unit.status = self.card_of(unit_id), "active"
            unit.ap_left, unit.steps, unit.kinds_this_activation = unit.ap_max, [], []
            unit.charge_bonus = unit.free_melee_pending = False
            self.turn.revealed_order.append(unit_id)

    # --- actions (CA-4 .. CA-12) -----------------------------------------------------------
    def check_action(
        self, unit_id: str, kind: str, weapon: str | None = None, held: bool = False
    ) -> bool:
        """Refuse what the card rules forbid; returns True if this is the free charge melee."""
        unit = self._unit(unit_id)
        if kind not in ACTION_KINDS:
            raise CardRuleError("CA-4.1", f"{kind!r} is not an action (menu: {', '.join(ACTION_KINDS)})")
        if held:
            if unit.held_actions < 1 and self.turn.held_use != unit_id:
                raise CardRuleError("CA-7.2", f"{unit_id} has no held overwatch action")
            if kind == "rally":
                raise CardRuleError("CA-6.1", "a held action cannot be a Rally")
            self._check_prep(unit, kind, weapon)
            return False
        if unit_id not in self.turn.active or unit.status != "active":
            raise CardRuleError("CA-3.2", f"{unit_id} is not activating now")
        if kind == "rally":
            if not unit.must_rally:
                raise CardRuleError("CA-6.1", "Rally is the first action of a routed unit only")
            return False
        if unit.must_rally:
            raise CardRuleError("CA-6.1", f"{unit_id} is routed: its first action must be Rally")
        free = unit.free_melee_pending and kind == "melee"
        if not free and unit.ap_left < 1:
            raise CardRuleError("CA-4.1", f"{unit_id} has no action points left")
        if not free and not self.in_step(unit_id):
            raise CardRuleError(
                "AMB-19",
                f"{unit_id} waits for the next step: in a combined activation each unit takes one action per step",
            )
        self._check_prep(unit, kind, weapon)
        return free

    def step_actions(self, unit_id: str) -> int:
        """Actions the unit has taken in this activation's steps (the free melee aside)."""
        unit = self.units[unit_id]
        return len(unit.steps) - unit.kinds_this_activation.count("free_melee")

    def in_step(self, unit_id: str) -> bool:
        """AMB-19: in a combined activation a unit may take its next action only once every
        other unit of the group still able to act has taken as many (free melee aside)."""
        if not self.turn.combined_steps or len(self.turn.active) < 2:
            return True

        able = [u for u in self.turn.active if self.units[u].ap_left > 0]
        return not able or self.step_actions(unit_id) <= min(self.step_actions(u) for u in able)

    def step_complete(self, step: int) -> bool:
        """AMB-19: step `step` (1, 2 ...) is over once every unit of the group that can
        still act has taken that many actions."""
        able = [u for u in self.turn.active if self.units[u].ap_left > 0]
        return all(self.step_actions(u) >= step for u in able)

    def _check_prep(self, unit: CardUnit, kind: str, weapon: str | None) -> None:
        if kind == "ballistic" and weapon is not None and unit.prep_remaining.get(weapon, 0) > 0:
            owed = unit.prep_remaining[weapon]
            raise CardRuleError("CA-11.2", f"{weapon} needs {owed} more prep action(s) before it can fire")
        if kind == "prep":
            unprepped = [w for w, n in unit.prep_remaining.items() if n > 0]
            if weapon is not None and unit.prep_remaining.get(weapon, 0) < 1:
                raise CardRuleError("CA-11.2", f"{weapon} is already prepped")
            if weapon is None and not unprepped:
                raise CardRuleError("CA-11.2", "no weapon of this unit needs prepping")

    def target_moved(self, target_id: str) -> Fraction:
        """CA-11.3: this turn's movement once the target has activated, else last turn's."""
        target = self.units[target_id]
        return target.moved_this_turn if target.status != "waiting" else target.moved_last_turn

    def modifier(self, unit_id: str, kind: str, target: str | None = None) -> FlatModifier:
        """The seed-001 flat modifier for an attack now (CA-10.2, CA-11.3, CA-11.4, CA-8.3)."""
        unit = self._unit(unit_id)
        if kind not in ATTACK_KINDS:
            return FlatModifier(previous_actions=unit.actions_taken)
        charge = 1 if kind == "melee" and unit.charge_bonus and self.turn.held_use != unit_id else 0
        movement = 0
        aim = 0
        if kind == "ballistic":
            if target is not None and target in self.units:
                movement = rules.target_move_penalty(self.target_moved(target))
            aim = 1 if unit.aim_pending else 0
        return FlatModifier(unit.actions_taken, charge, movement, aim)

    def record_action(
        self,
        unit_id: str,
        kind: str,
        *,
        step: Step | None = None,
        weapon: str | None = None,
        free: bool = False,
        held: bool = False,
        also: Sequence[tuple[str, str | None]] = (),
    ) -> Charge:
        """Book an action that has been resolved: AP, the previous-actions counter,
        movement, PREP and the charge it completed (if a Move). `also` holds the
        (kind, weapon) of a split action's second group (CA-5): still one action."""
        unit = self._unit(unit_id)
        for other_kind, other_weapon in also:
            if not held:
                unit.kinds_this_activation.append(other_kind)
            if other_kind == "ballistic":
                unit.aim_pending = False
                if other_weapon is not None and other_weapon in unit.prep_value:
                    unit.prep_remaining[other_weapon] = unit.prep_value[other_weapon]
        step = step or Step(kind)
        if kind == "move":
            unit.moved_this_turn += step.inches
        if held:
            unit.held_actions = 0
            steps = [step]
        else:
            if not free:
                unit.ap_left -= 1
            unit.steps.append(step)
            unit.kinds_this_activation.append("free_melee" if free else kind)
            steps = unit.steps
        unit.free_melee_pending = False  # taken now, or lapsed: it comes at once or not at all (CA-8.3)
        if not (kind == "aim" and self.turn.aim_excluded):
            unit.actions_taken += 1
        if kind == "aim":
            unit.aim_pending = True
        if kind == "ballistic":
            unit.aim_pending = False
        self._tick_prep(unit, kind, weapon)
        charge = rules.classify_charge(steps) if kind == "move" else rules.NO_CHARGE
        if charge.bonus and not held:
            unit.charge_bonus = True
            if charge.free_melee:
                unit.free_melee_pending = True
        return charge

    def _tick_prep(self, unit: CardUnit, kind: str, weapon: str | None) -> None:
        if kind == "ballistic" and weapon is not None and weapon in unit.prep_value:
            for other in unit.prep_remaining:
                if other != weapon and rules.prep_ticks(kind, self.turn.prep_counts):
                    unit.prep_remaining[other] = max(0, unit.prep_remaining[other] - 1)
            unit.prep_remaining[weapon] = unit.prep_value[weapon]
            return
        if not rules.prep_ticks(kind, self.turn.prep_counts):
            return
        owed = [w for w, n in unit.prep_remaining.items() if n > 0]
        if kind == "prep":
            # a prep action works on the named weapon, else the first one waiting
            owed = [weapon] if weapon is not None else owed[:1]
        for name in owed:
            unit.prep_remaining[name] = max(0, unit.prep_remaining[name] - 1)

    def pay_cast(self, unit_id: str, power: str, cost: int) -> rules.CastProgress:
        """CA-12.3: pay one action toward `power`; the power resolves when fully paid."""
        unit = self._unit(unit_id)
        current = (
            rules.CastProgress(unit.casting_power, unit.casting_paid, cost)
            if unit.casting_power is not None
            else None
        )
        progress = rules.pay_cast(current, power, cost)
        if progress.complete:
            unit.casting_power, unit.casting_paid = None, 0
        else:
            unit.casting_power, unit.casting_paid = progress.power, progress.paid
        return progress

    def end_free_melee(self, unit_id: str) -> None:
        self._unit(unit_id).free_melee_pending = False

    # --- overwatch (CA-7) ----------------------------------------------------------------------
    def go_overwatch(self, unit_id: str) -> None:
        """CA-7.1/7.2: with at least half the AP (rounded up) left, hold exactly one action."""
        unit = self._unit(unit_id)
        if unit_id not in self.turn.active or unit.status != "active":
            raise CardRuleError("CA-7.4", f"{unit_id} can go on overwatch only during its own activation")
        if unit.must_rally:
            raise CardRuleError("CA-6.1", f"{unit_id} is routed: its first action must be Rally")
        need = rules.overwatch_minimum(unit.ap_max)
        if unit.ap_left < need:
            raise CardRuleError(
                "CA-7.1",
                f"{unit_id} has {unit.ap_left} of {unit.ap_max} actions left; overwatch needs {need}",
            )
        unit.overwatch, unit.held_actions, unit.ap_left = True, 1, 0
        unit.free_melee_pending = False

    def held_units(self, exclude: Sequence[str] = ()) -> list[CardUnit]:
        """Units holding an overwatch action, in card-key order (AMB-25's second key)."""
        held = [
            u for u in self.units.values()
            if u.held_actions > 0 and not u.eliminated and u.id not in exclude and not u.routed
        ]
        return sorted(held, key=self._key_of)

    def interrupt_sides(self, acting_side: str, exclude: Sequence[str] = ()) -> list[str]:
        """Sides with held units for a window: the non-active side(s) first (AMB-25)."""
        sides = {u.side for u in self.held_units(exclude)}
        return [s for s in self.sides if s in sides and s != acting_side] + (
            [acting_side] if acting_side in sides else []
        )

    # --- rally (CA-6) --------------------------------------------------------------------------
    def rally_result(self, unit_id: str, passed: bool, at_edge: bool = False) -> str:
        """Book the forced Rally: "rallied", "routed" (x2 move, rest forfeited) or "eliminated"."""
        unit = self._unit(unit_id)
        unit.steps.append(Step("rally"))
        unit.kinds_this_activation.append("rally")
        unit.actions_taken += 1
        unit.ap_left = 0
        if passed:
            unit.routed = False
            unit.overwatch, unit.held_actions = True, 1  # AMB-11: even below half AP
            return "rallied"
        unit.casting_power, unit.casting_paid = None, 0  # AMB-23
        if at_edge:
            self.eliminate(unit_id)
            return "eliminated"
        unit.moved_this_turn += 2 * unit.move  # CA-9: free, counts as movement for CA-11.3
        return "routed"

    def rout(self, unit_id: str, distance: object | None = None) -> Fraction:
        """A free rout move (CA-9) after host morale: x2 move, no AP, not an action."""
        unit = self._unit(unit_id)
        moved = rules.inches(distance) if distance is not None else 2 * unit.move
        unit.routed = True
        unit.moved_this_turn += moved
        unit.casting_power, unit.casting_paid = None, 0
        return moved

    def eliminate(self, unit_id: str) -> None:
        unit = self._unit(unit_id)
        unit.eliminated, unit.held_actions, unit.ap_left = True, 0, 0
        unit.casting_power, unit.casting_paid = None, 0
        if unit_id in self.turn.active:
            unit.status = "done"
            self.turn.active.remove(unit_id)

    # --- ACTIVATION_END, TURN_END ----------------------------------------------------------------
    def end_activation(self, unit_id: str) -> None:
        """ACTIVATION_END: AP left are lost (CA-4.3); the held action stays."""
        unit = self._unit(unit_id)
        unit.ap_left, unit.status = 0, "done"
        unit.charge_bonus = unit.free_melee_pending = False
        unit.steps, unit.kinds_this_activation = [], []
        if unit_id in self.turn.active:
            self.turn.active.remove(unit_id)

    def end_turn(self) -> None:
        """TURN_END: held actions lapse (AMB-10); this turn's movement becomes last turn's."""
        for unit in self.units.values():
            unit.overwatch, unit.held_actions, unit.aim_pending = False, 0, False
            unit.moved_last_turn, unit.moved_this_turn = unit.moved_this_turn, Fraction(0)
        self.turn.active, self.turn.held_use = [], None
        self.turn.phase = "deal"

    def _unit(self, unit_id: str) -> CardUnit:
        try:
            unit = self.units[unit_id]
        except KeyError:
            raise CardRuleError("CA-2.1", f"no unit {unit_id!r} in this battle") from None
        if unit.eliminated:
            raise CardRuleError("CA-3.3", f"{unit_id} has been eliminated")
        return unit
