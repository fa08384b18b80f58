"""The card-deck activation scheme (seed 001) on the engine core.

Choose it in a battle setup with `activation = "cards"` and `activation_options` from
`options.OPTION_SPECS`. Each card turn (= one round, `state.round`):

1. the deck is shuffled and dealt through the battle's dice (one d(cards left) per
   card dealt, logged like any roll), or typed by each side in table mode;
2. each side places one card face down on each of its units (`assign_cards`, a
   Decision of that side whose `data` holds only that side's hand);
3. cards come up in order; a side holding consecutive cards may start them
   together (`activate_cards`); a single card starts by itself;
4. the active unit spends action points one action at a time: the host ruleset's
   own commands (move, shoot, melee, cast ...) plus `card_overwatch`, `card_rally`
   (forced first for a routed unit), `card_aim`, `card_prep`, `card_special`, and
   `end_activation`; before and after each action, and during a move, units holding
   an overwatch action are offered `card_interrupt` (non-active side first).

Hidden information: hands and face-down cards live in `state.secret[side]["cards"]`;
the public part in `state.scheme["cards"]`. `card_view(state, side)` says what a side
may see now. The battle's log holds the placements (it must, to replay); show it
through `visible_log` to keep unrevealed cards hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from campaign.activation.cards import options as card_options
from campaign.activation.cards.commands import CARD_ACTION_KINDS, CARD_COMMANDS, AssignCards, DealCards, Interrupt, PrepWeapon, SplitAction
from campaign.activation.cards.commands import Rally as CardRally
from campaign.activation.cards.deck import Card, CardError, chit_deck, parse_card, standard_deck
from campaign.activation.cards.host import SCHEME_NAME, CardHost, host_for
from campaign.activation.cards.results import VERIFY, HeldResults, MissedChange, Shadows
from campaign.activation.cards.rules import FlatModifier, Step, may_overwatch, plan_deal
from campaign.activation.cards.split import SplitGroup, check_split
from campaign.activation.cards.turn import CardRuleError, CardTable, CardTurn, CardUnit, SideHand
from campaign.activation.phased.host import PhasedHost, PlanSteps
from campaign.activation.phased.plan import ENGINE, Phase, TurnPlan
from campaign.activation.phased.scheme import PhasedScheme
from campaign.engine.commands import Command, CommandTypes, EndActivation
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, FactSpec, RollRequest
from campaign.engine.scheme import register_scheme
from campaign.engine.snapshot import register as snapshot_classes
from campaign.engine.state import BattleState, UnitState
from campaign.rulesets.base import Option

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.engine.odds import AttackOdds
    from campaign.engine.pending import Resolution
    from campaign.engine.report import OddsReport

SCHEME_KEY = "cards"  # state.scheme[SCHEME_KEY]: CardTurn; state.secret[side][SCHEME_KEY]: SideHand


def table_of(state: BattleState) -> CardTable:
    """The card rules over a battle state's card bookkeeping."""
    turn = state.scheme[SCHEME_KEY]
    hands = {side: state.secret.setdefault(side, {}).setdefault(SCHEME_KEY, SideHand()) for side in turn.sides}
    return CardTable(turn, hands)


def _guard(action: Callable[[], Any]) -> Any:
    """Card-rule and card-reading errors become the engine's IllegalCommand."""
    try:
        return action()
    except CardRuleError as exc:
        raise IllegalCommand(exc.rule, exc.message) from None
    except CardError as exc:
        raise IllegalCommand("CA-1.1", str(exc)) from None
    except ValueError as exc:
        raise IllegalCommand("cards", str(exc)) from None


AT_EDGE = FactSpec(
    "at_edge",
    (True, False),
    False,
    "the unit touches its own board edge, or its rout move would carry a model over it",
)


# The card turn's records in the state (state.scheme, state.secret): checkpoints and the
# snapshot cache may hold them (campaign.engine.snapshot)
snapshot_classes(CardTurn, CardUnit, SideHand, Step)


class CardTurns(PhasedHost):
    """The card turn as a turn of the phased scheme: three ENGINE phases (nobody picks:
    the deal and the cards' order decide), deal, place cards, then the cards come up.
    Each is one of the scheme's steps below; this host only orders them."""

    def __init__(self, scheme: CardScheme, cards: CardHost) -> None:
        super().__init__(cards.rules, scheme.options)
        self.scheme = scheme
        self.cards = cards

    def turn_start(self, state: BattleState, ctx: Context) -> PlanSteps:
        t = table_of(state)
        t.begin_turn()
        self.scheme._join_newcomers(state, self.cards, t)
        ctx.emit("round_start", f"Turn {state.round} begins: the cards are collected and shuffled", round=state.round)
        yield from self.scheme._touching(ctx.rules.on_round_start(state, ctx))
        for side in state.side_ids():
            yield from self.scheme._touching(ctx.rules.on_turn_start(state, side, ctx))
        self.scheme._sync(state, ctx, self.cards, t)
        if self.scheme.ended(state, ctx):
            return TurnPlan(())
        return TurnPlan(CARD_PHASES)

    def commands(self, state: BattleState, phase: Phase, side: str) -> list[CommandSpec]:
        return []  # every phase of the card turn is an ENGINE phase

    def resolve(self, state: BattleState, phase: Phase, side: str, command: Command, ctx: Context) -> Resolution:
        raise IllegalCommand("cards", f"nobody picks in the card turn's {phase.name}")
        yield  # pragma: no cover

    def engine_phase(self, state: BattleState, phase: Phase, ctx: Context) -> Resolution:
        t = table_of(state)
        if phase.id == "deal":
            yield from self.scheme._deal(state, ctx, self.cards, t)
        elif phase.id == "assign":
            yield from self.scheme._assign(state, ctx, t)
        else:
            while not self.scheme.ended(state, ctx):
                self.scheme._sync(state, ctx, self.cards, t)
                run = t.next_run()
                if not run:
                    break
                yield from self.scheme._activation(state, ctx, self.cards, t, [u.id for u in run])

    def turn_end(self, state: BattleState, ctx: Context) -> Resolution:
        table_of(state).end_turn()
        state.scheme["active_unit"] = ""
        for side in state.side_ids():
            yield from self.scheme._touching(self.cards.on_turn_end(state, side, ctx))
        yield from self.scheme._touching(ctx.rules.on_round_end(state, ctx))
        ctx.emit("round_end", f"Turn {state.round} ends: held actions lapse", round=state.round)


# DEAL (CA-1), ASSIGN (CA-2), then NEXT_CARD/ACTIVATION until the cards run out (CA-3, CA-4)
CARD_PHASES = (Phase("deal", "Deal", ENGINE), Phase("assign", "Place cards", ENGINE), Phase("cards", "Cards", ENGINE))


@register_scheme
class CardScheme(PhasedScheme):
    """Seed 001's card deck: hidden card order, action points, overwatch, rally. A turn of
    the phased loop (CardTurns); its bookkeeping is the card state alone (book_key None)."""

    name: ClassVar[str] = SCHEME_NAME
    option_specs: ClassVar[tuple[Option, ...]] = card_options.OPTION_SPECS
    book_key: ClassVar[str | None] = None

    def __init__(self, host: CardHost | None = None, **options: Any) -> None:
        self.options = card_options.resolve_options(options)
        self._cards = host
        self._host: PhasedHost | None = None
        self._scratch: dict[str, Any] = {}
        # unit copies HeldResults.before may use again, and the Watch that says when the
        # units may have changed (caches, not state: see results.py)
        self._shadows = Shadows()
        # the host's `standing` answers per unit, kept while the Watch stays (see _sync)
        self._standings: dict[str, tuple[bool, dict[str, int] | None, bool]] = {}
        self._standings_of: tuple[BattleState | None, list[UnitState] | None, int] = (None, None, -1)
        self._menu: dict[tuple[str, str], tuple[CommandSpec, ...]] = {}  # see _own_specs

    def command_types(self) -> Iterable[type[Command]]:
        return CARD_COMMANDS

    def odds(self, state: BattleState, command: Command, ctx: Context) -> AttackOdds | OddsReport:
        """The host's odds with the card modifier the acting unit would get now."""
        from campaign.activation.cards.odds import scheme_odds

        return scheme_odds(self, state, command, ctx)

    def card_host(self, ctx: Context) -> CardHost:
        """What the rules plug into the card deck (BattleRules.scheme_host)."""
        if self._cards is None or self._cards.rules is not ctx.rules:
            self._cards = host_for(ctx.rules, self.options)
        return self._cards

    def host(self, ctx: Context) -> PhasedHost:
        """The card turn's phases, around the rules' card host."""
        cards = self.card_host(ctx)
        if not isinstance(self._host, CardTurns) or self._host.cards is not cards:
            self._host = CardTurns(self, cards)
        return self._host

    # --- the battle loop: the phased scheme's, with the card turn's plan -----------------------
    def run(self, state: BattleState, ctx: Context) -> Resolution:
        if SCHEME_KEY not in state.scheme:  # a battle resumed at a turn boundary keeps its cards
            self._setup(state, self.card_host(ctx))
        return (yield from super().run(state, ctx))

    def turn_over(self, state: BattleState, ctx: Context) -> bool:
        """The rules' end, then the turn limit (the scenario's rounds, else the option)."""
        if self.ended(state, ctx):
            return True
        limit = ctx.setup.scenario.rounds or self.options["turns"]
        if state.round >= limit:
            state.over = True
            state.end_reason = f"turn limit ({limit}) reached"
        return state.over

    def _setup(self, state: BattleState, host: CardHost) -> None:
        """GAME_SETUP: every unit's AP, move and weapons; primary weapons prepped."""
        turn = CardTurn(
            card_order=self.options["card_order"],
            prep_counts=self.options["prep_counts"],
            aim_excluded=self.options["aim_excluded_from_penalty"],
            combined_steps=self.options["combined_steps"],
            sides=state.side_ids(),
        )
        state.scheme[SCHEME_KEY] = turn
        state.scheme["active_unit"] = ""
        state.scheme["current"] = ""
        t = table_of(state)
        self._join_newcomers(state, host, t)

    def _join_newcomers(self, state: BattleState, host: CardHost, t: CardTable) -> None:
        """Units that are not in the card bookkeeping yet get a card from the next deal (AMB-7)."""
        for unit in state.units:
            cu = t.units.get(unit.id)
            if cu is not None and cu.eliminated and not unit.eliminated and host.is_unit(state, unit.id):
                cu.eliminated = False  # an officer detached again: back in the deal
                continue
            if unit.id not in t.units and host.is_unit(state, unit.id):
                t.add_unit(
                    unit.id,
                    unit.side,
                    host.ap_max(state, unit.id),
                    host.move_rate(state, unit.id),
                    host.weapons(state, unit.id),
                )
                t.units[unit.id].routed = host.routed(state, unit.id)

    def _touching(self, steps: Resolution) -> Resolution:
        """Run host or rules code that may change units (resolution, morale, hooks): the
        Watch moves once it is done, so what the scheme knows of the units is looked at
        again (held-result copies, the standings _sync keeps). Every such call goes
        through here or touches the Watch itself."""
        try:
            return (yield from steps)
        finally:
            self._shadows.watch.touch()

    def _touched(self) -> None:
        """A plain (not generator) host call that may have changed units."""
        self._shadows.watch.touch()

    def _sync(self, state: BattleState, ctx: Context, host: CardHost, t: CardTable) -> None:
        """Read back what the host's rules did: eliminations (skip their cards, AMB-7) and
        routs from host morale (a free rout move, CA-9).

        The host's answers (`standing`) are kept per unit while the Watch stays: _sync runs
        after every action and again before the next, mostly with nothing changed between."""
        units = t.units
        mark = (state, state.units, self._shadows.watch.count)
        seen = self._standings_of
        if seen[0] is not state or seen[1] is not state.units or seen[2] != mark[2]:
            self._standings = {}
            self._standings_of = mark
        standings = self._standings
        verify = VERIFY[0]
        for unit in state.units:
            cu = units.get(unit.id)
            if cu is None or cu.eliminated:
                continue
            answer = standings.get(unit.id)
            if answer is None:
                answer = standings[unit.id] = host.standing(state, unit)
            elif verify and answer != host.standing(state, unit):
                raise MissedChange(f"{unit.id}'s standing changed while the card scheme's Watch said nothing could change it")
            takes_part, owed, routed = answer
            if not takes_part:
                was_waiting = cu.status == "waiting" and t.card_of(unit.id) is not None
                t.eliminate(unit.id)
                if was_waiting:
                    why = "is gone" if unit.eliminated else "no longer acts on its own"
                    ctx.emit("card_skipped", f"{unit.name} {why}; its card will be skipped", unit=unit.id)
                continue
            if owed is not None and (owed or cu.prep_remaining):  # the host keeps the reload counters: mirror them
                cu.prep_remaining = dict(sorted(owed.items()))
                for weapon in owed:
                    cu.prep_value.setdefault(weapon, owed[weapon])
            if routed and not cu.routed:
                moved = t.rout(unit.id)
                ctx.emit(
                    "rout_move",
                    f"{unit.name} routs: a free move of {_inch(moved)} away from the enemy",
                    unit=unit.id,
                    inches=_inch(moved),
                )
            elif not routed and cu.routed:
                cu.routed = False

    # --- DEAL -----------------------------------------------------------------------------
    def _typed_deal(self, ctx: Context) -> bool:
        mode = self.options["deal"]
        return mode == "typed" or (mode == "auto" and ctx.setup.dice == "table")

    def _deal(self, state: BattleState, ctx: Context, host: CardHost, t: CardTable) -> Resolution:
        playing = [s for s in state.side_ids() if t.live_units(s)]
        leadership = {s: host.leadership_bonus(state, s) for s in playing}
        t.turn.sides = list(state.side_ids())
        counts = {s: len(t.live_units(s)) for s in playing}
        plan = plan_deal(counts, leadership, self.options["three_quarter_rounding"], self.options["jokers"])
        t.turn.use_chits = plan.use_chits
        deck = chit_deck(plan.deck_size) if plan.use_chits else standard_deck(self.options["jokers"])
        summary = ", ".join(f"{state.side(s).name} {n}" for s, n in plan.counts.items())
        chits = f"; numbered chits 1-{plan.deck_size} replace the deck" if plan.use_chits else ""
        ctx.emit("deal", f"Cards dealt: {summary}{chits}", counts=dict(plan.counts), chits=plan.use_chits)
        remaining = list(deck)
        for side in state.side_ids():
            count = plan.counts.get(side, 0)
            name = state.side(side).name
            if self._typed_deal(ctx) and count:
                left = list(remaining)

                def check_dealt(cmd: DealCards, left: list[Card] = left, count: int = count) -> None:
                    _guard(lambda: _typed_cards(cmd.cards, left, count))

                command = yield Decision(
                    side,
                    f"{name}: type the {count} cards you were dealt (e.g. QH 10S AC)",
                    (CommandSpec("deal_cards", label=f"Enter {count} cards"),),
                    check=check_dealt,
                    data={"hidden": True, "count": count, "chits": plan.use_chits},
                )
                cards = _typed_cards(command.cards, left, count)
            else:
                cards = []
                for k in range(count):
                    face = 1
                    if len(remaining) > 1:
                        purpose = f"deal card {k + 1} of {count} to {name} (1 x d{len(remaining)})"
                        (face,) = yield RollRequest(len(remaining), 1, purpose, side=side)
                    cards.append(remaining[face - 1])
                    remaining.pop(face - 1)
            remaining = [c for c in remaining if c not in cards]
            t.set_hand(side, cards)
        for side in state.side_ids():  # sides with no unit left take no cards
            if side not in t.turn.dealt:
                t.set_hand(side, [])

    # --- ASSIGN ---------------------------------------------------------------------------
    def _assign(self, state: BattleState, ctx: Context, t: CardTable) -> Resolution:
        for side in state.side_ids():
            units = t.live_units(side)
            if not units:
                t.assign(side, {})
                continue
            name = state.side(side).name
            hand = list(t.hands[side].hand)
            command = yield Decision(
                side,
                f"{name}: place one card face down on each unit ({len(hand) - len(units)} will be discarded)",
                (CommandSpec("assign_cards", label="Place cards"),),
                check=partial(_check_assignment, t, side),
                data={
                    "hidden": True,
                    "hand": hand,
                    "units": [(u.id, state.unit(u.id).name) for u in units],
                    "order": self.options["card_order"],
                },
            )
            discards = _guard(lambda: t.assign(side, command.cards))
            ctx.emit(
                "cards_placed",
                f"{name} places {len(units)} card(s) face down and discards {len(discards)}",
                side=side,
            )

    # --- NEXT_CARD and ACTIVATION -----------------------------------------------------------
    def _activation(self, state: BattleState, ctx: Context, host: CardHost, t: CardTable, run: list[str]) -> Resolution:
        side = t.units[run[0]].side
        group = run[:1]
        if len(run) > 1 and self.options["combined_activation"]:
            unit_names = [state.unit(u).name for u in run]
            together = tuple(
                CommandSpec(
                    "activate_cards",
                    {"units": tuple(run[:k])},
                    label=f"Activate {' + '.join(unit_names[:k])}" + (" together" if k > 1 else " alone"),
                )
                for k in range(1, len(run) + 1)
            )
            command = yield Decision(
                side,
                f"{state.side(side).name}: {len(run)} of your cards come up in sequence; activate together?",
                together,
            )
            group = list(command.units)
        _guard(lambda: t.activate(group))
        state.turn += 1
        state.scheme["current"] = side
        for unit_id in group:
            card = parse_card(t.units[unit_id].card or "")
            unit = state.unit(unit_id)
            ctx.emit(
                "card_up",
                f"{card.label}: {unit.name} ({state.side(side).name}) activates",
                unit=unit_id,
                side=side,
                card=card.code,
            )
        state.scheme["active_unit"] = group[0]
        for unit_id in group:
            yield from self._touching(ctx.rules.on_activation_start(state, unit_id, ctx))
        results = HeldResults(shadows=self._shadows) if self._defers(host, group) else None
        while True:
            if results is not None and results.pending and t.step_complete(results.step):
                self._release(state, ctx, host, t, results)
            if self.ended(state, ctx):
                break
            self._sync(state, ctx, host, t)
            for unit_id in list(t.turn.active):
                cu = t.units[unit_id]
                if cu.ap_left < 1 and not cu.free_melee_pending:
                    yield from self._end(state, ctx, t, unit_id)
            if not t.turn.active:
                break
            legal: list[CommandSpec] = []
            for unit_id in t.turn.active:
                legal.extend(self._specs(state, host, t, unit_id))
            names = " + ".join(state.unit(u).name for u in t.turn.active)
            aps = ", ".join(f"{state.unit(u).name} {t.units[u].ap_left} AP" for u in t.turn.active)
            command = yield Decision(
                side,
                f"{names}: choose an action ({aps})",
                tuple(legal),
                check=lambda cmd: self._check_action(state, host, t, cmd, held=False),
                data={"active": list(t.turn.active)},
            )
            yield from self._do(state, ctx, host, t, command, results)
        if results is not None and results.pending:
            self._release(state, ctx, host, t, results)
        state.scheme["active_unit"] = ""
        state.scheme["current"] = ""

    def _defers(self, host: CardHost, group: list[str]) -> bool:
        """AMB-19: a combined group's results wait for the end of each step."""
        return (
            len(group) > 1
            and self.options["combined_steps"]
            and self.options["step_results"] == "end_of_step"
            and host.defers_results
        )

    def _release(self, state: BattleState, ctx: Context, host: CardHost, t: CardTable, results: HeldResults) -> None:
        changed = results.release(state)
        if changed:
            names = ", ".join(state.unit(u).name for u in changed)
            ctx.emit("results_applied", f"The results take effect together: {names}", units=changed)
        self._sync(state, ctx, host, t)

    def _end(self, state: BattleState, ctx: Context, t: CardTable, unit_id: str) -> Resolution:
        lost = t.units[unit_id].ap_left
        t.end_activation(unit_id)
        if lost:
            ctx.emit("ap_lost", f"{state.unit(unit_id).name} ends its activation; {lost} AP lost", unit=unit_id)
        if not state.unit(unit_id).eliminated:
            yield from self._touching(ctx.rules.on_activation_end(state, unit_id, ctx))

    def _specs(self, state: BattleState, host: CardHost, t: CardTable, unit_id: str) -> list[CommandSpec]:
        """What one active unit may do now (the menu of CA-4.1 and the host's commands)."""
        cu = t.units[unit_id]
        name = state.unit(unit_id).name
        if cu.must_rally:
            return [CommandSpec("card_rally", {"unit": unit_id}, (AT_EDGE,), f"{name}: Rally (forced first action)")]
        specs = []
        waiting = not t.in_step(unit_id)  # AMB-19: the rest of the group acts first
        # the host's kind of each command type and its refusal of each kind, asked once a
        # menu (they depend on the type or kind alone: a menu lists many attacks of a kind)
        kinds: dict[str, str] = {}
        refused: dict[str, bool] = {}
        for spec in host.commands(state, unit_id):
            kind = kinds.get(spec.type)
            if kind is None:
                kind = kinds[spec.type] = host.action_kind(state, spec.type)
            if kind == "free":
                specs.append(spec)
                continue
            free = cu.free_melee_pending and kind == "melee"
            if (cu.ap_left < 1 or waiting) and not free:
                continue
            asked = "free_melee" if free else kind
            no = refused.get(asked)
            if no is None:
                no = refused[asked] = bool(host.refuse(state, unit_id, cu.kinds_this_activation, asked))
            if no:
                continue
            if free or not spec.label:  # (a copy only where the label changes: menus are made after every action)
                label = spec.label or spec.type
                spec = attrs.evolve(spec, label=f"{label} (free charge melee)" if free else label)
            specs.append(spec)
        own = self._own_specs(unit_id, name)
        if (cu.ap_left >= 1 and not waiting or cu.free_melee_pending) and host.models(state, unit_id) >= 2:
            specs.append(own[0])
        if cu.ap_left >= 1 and may_overwatch(cu.ap_left, cu.ap_max):
            specs.append(own[1])
        if cu.ap_left >= 1 and not waiting:
            specs.append(own[2])
            for weapon, owed in cu.prep_remaining.items():
                if owed > 0:
                    specs.append(
                        CommandSpec("card_prep", {"unit": unit_id, "weapon": weapon}, label=f"{name}: prep {weapon} ({owed} to go)")
                    )
            specs.append(own[3])
        specs.append(own[4])
        return specs

    def _own_specs(self, unit_id: str, name: str) -> tuple[CommandSpec, ...]:
        """The scheme's fixed menu lines for a unit: split, overwatch, aim, special, end
        (made once per unit and name: every menu offers them)."""
        key = (unit_id, name)
        found = self._menu.get(key)
        if found is None:
            found = self._menu[key] = (
                CommandSpec("card_split", {"unit": unit_id}, label=f"{name}: split the action between two groups"),
                CommandSpec("card_overwatch", {"unit": unit_id}, label=f"{name}: go on Overwatch"),
                CommandSpec("card_aim", {"unit": unit_id}, label=f"{name}: Aim"),
                CommandSpec("card_special", {"unit": unit_id}, label=f"{name}: other special action"),
                CommandSpec("end_activation", {"unit": unit_id}, label=f"{name}: end activation"),
            )
        return found

    def _kind(self, state: BattleState, host: CardHost, command: Command) -> str:
        return CARD_ACTION_KINDS.get(command.type) or host.action_kind(state, command.type)

    def _check_action(self, state: BattleState, host: CardHost, t: CardTable, command: Command, held: bool) -> None:
        if command.type in ("end_activation", "card_overwatch", "card_rally", "pass", "card_interrupt"):
            return
        if isinstance(command, SplitAction):
            self._split_parts(state, host, t, command, held)
            return
        host.check(state, command)
        kind = self._kind(state, host, command)
        if kind == "free":
            return
        unit_id = host.acting_unit(command)
        weapon = getattr(command, "weapon", None) if command.type == "card_prep" else host.weapon(state, command)
        free = _guard(lambda: t.check_action(unit_id, kind, weapon=weapon or None, held=held))
        cu = t.units[unit_id]
        reason = host.refuse(state, unit_id, cu.kinds_this_activation if not held else [], "free_melee" if free else kind)
        if reason:
            raise IllegalCommand("host", reason)

    def check(self, state: BattleState, command: Command) -> None:
        """Scheme-level refusals for commands answered outside an action Decision."""

    def _split_parts(
        self, state: BattleState, host: CardHost, t: CardTable, command: SplitAction, held: bool
    ) -> tuple[list[tuple[Command, SplitGroup]], bool]:
        """Read and check a split action (CA-5): each group's command (limited to its
        models where the host names them) and group record; and whether it is the free
        charge melee."""
        unit_id = command.unit
        name = state.unit(unit_id).name
        if len(command.actions) != 2:
            raise IllegalCommand("CA-5.1", f"a split action has exactly two groups, not {len(command.actions)}")
        types = CommandTypes(host.rules.command_types())
        specs = host.commands(state, unit_id)
        inner: list[Command] = []
        for data in command.actions:
            part = types.from_dict(data)
            if host.acting_unit(part) != unit_id:
                raise IllegalCommand("CA-5.1", f"both groups of {name}'s split must be {name}'s own models")
            if not any(spec.matches(part) for spec in specs):
                raise IllegalCommand("CA-5.1", f"{part.describe()} is not an action {name} may take now")
            [spec for spec in specs if spec.matches(part)][0].check_facts(part)
            host.check(state, part)
            host.rules.check(state, part)
            inner.append(part)
        kinds = [self._kind(state, host, part) for part in inner]
        if "free" in kinds:
            raise IllegalCommand("CA-5.1", "recording an objective is not an action and cannot be split")
        if "cast" in kinds and any(host.cast_cost(state, p)[1] > 1 for p, k in zip(inner, kinds) if k == "cast"):
            raise IllegalCommand("CA-12.3", "a power paid over several actions cannot be part of a split")
        named = [host.group_models(state, part) for part in inner]
        everyone = host.model_ids(state, unit_id)
        if named[0] is None and named[1] is not None:
            named[0] = everyone - named[1]  # the unnamed group is the rest of the unit
        elif named[1] is None and named[0] is not None:
            named[1] = everyone - named[0]
        if named[0] is not None and named[1] is not None:
            counts = [len(named[0]), len(named[1])]
            if command.models and list(command.models) != counts:
                raise IllegalCommand("CA-5.1", f"models {list(command.models)} do not match the models named ({counts})")
        elif len(command.models) == 2:
            counts = list(command.models)
        else:
            raise IllegalCommand("CA-5.1", "say how many models are in each group: models = [n, m]")
        groups = [SplitGroup(k, host.target(p), n, m) for k, p, n, m in zip(kinds, inner, counts, named)]
        _guard(lambda: check_split(groups, host.models(state, unit_id), self.options["split_other_action"]))
        reason = host.refuse_split(state, unit_id, kinds)
        if reason:
            raise IllegalCommand("host", reason)
        frees = []
        for part, kind in zip(inner, kinds):
            weapon = host.weapon(state, part)
            frees.append(_guard(lambda: t.check_action(unit_id, kind, weapon=weapon or None, held=held)))
            so_far = t.units[unit_id].kinds_this_activation if not held else []
            reason = host.refuse(state, unit_id, so_far, "free_melee" if frees[-1] else kind)
            if reason:
                raise IllegalCommand("host", reason)
        parts = [
            (host.narrow(state, part, models) if models is not None else part, group)
            for part, group, models in zip(inner, groups, named)
        ]
        return parts, all(frees)

    def _do(
        self, state: BattleState, ctx: Context, host: CardHost, t: CardTable, command: Command,
        results: HeldResults | None = None,
    ) -> Resolution:
        unit_id = command.unit if isinstance(command, EndActivation) else host.acting_unit(command)
        name = state.unit(unit_id).name if unit_id else ""
        if command.type == "end_activation":
            yield from self._end(state, ctx, t, unit_id)
        elif command.type == "card_overwatch":
            _guard(lambda: t.go_overwatch(unit_id))
            ctx.emit("overwatch", f"{name} goes on overwatch, holding one action", unit=unit_id)
            yield from self._end(state, ctx, t, unit_id)
        elif isinstance(command, CardRally):
            yield from self._rally(state, ctx, host, t, command)
        elif isinstance(command, SplitAction):
            yield from self._split(state, ctx, host, t, command, held=False, results=results)
        else:
            yield from self._action(state, ctx, host, t, command, held=False, results=results)

    def _rally(self, state: BattleState, ctx: Context, host: CardHost, t: CardTable, command: CardRally) -> Resolution:
        unit_id = command.unit
        name = state.unit(unit_id).name
        passed = yield from self._touching(host.rally(state, unit_id, ctx))
        at_edge = bool(command.facts.get("at_edge", False))
        result = t.rally_result(unit_id, bool(passed), at_edge)
        if result == "rallied":
            host.set_routed(state, unit_id, False)
            self._touched()
            ctx.emit("rallied", f"{name} rallies, may turn to face the fight, and goes on overwatch", unit=unit_id)
        elif result == "eliminated":
            host.eliminate(state, unit_id, ctx)
            self._touched()
            ctx.emit("eliminated", f"{name} fails to rally at its own board edge and is eliminated", unit=unit_id)
        else:
            moved = 2 * t.units[unit_id].move
            ctx.emit(
                "rout_move",
                f"{name} fails to rally and routs {_inch(moved)}; its remaining actions are forfeited",
                unit=unit_id,
                inches=_inch(moved),
            )
        if unit_id in t.turn.active:
            yield from self._end(state, ctx, t, unit_id)
        yield from self._offer(state, ctx, host, t, "after", unit_id, "rally")

    def _split(
        self, state: BattleState, ctx: Context, host: CardHost, t: CardTable, command: SplitAction, held: bool,
        results: HeldResults | None = None,
    ) -> Resolution:
        """A split action (CA-5): one action, two groups, each with its own target and card
        modifier; both resolve against the same enemy and their results apply together."""
        unit_id = command.unit
        name = state.unit(unit_id).name
        parts, free = self._split_parts(state, host, t, command, held)
        what = " and ".join(f"{g.count} model(s) {g.kind}" + (f" at {state.unit(g.target).name}" if g.target in _ids(state) else "") for _, g in parts)
        ctx.emit("split", f"{name} splits its action: {what}", unit=unit_id, counts=[g.count for _, g in parts])
        yield from self._offer(state, ctx, host, t, "before", unit_id, parts[0][1].kind)
        if state.unit(unit_id).eliminated:
            return
        modifiers = [t.modifier(unit_id, g.kind, g.target) for _, g in parts]  # both before either resolves
        own = results if results is not None else (HeldResults(shadows=self._shadows) if host.defers_results else None)
        for (part, group), modifier in zip(parts, modifiers):
            if state.unit(unit_id).eliminated:
                break
            if group.kind in ("melee", "ballistic") and modifier.lines():
                items = ", ".join(f"{text} {value:+d}" for text, value in modifier.lines())
                ctx.emit("card_modifier", f"{name}: card modifiers {modifier.total:+d} ({items})", unit=unit_id, total=modifier.total)
            before = own.before(state, unit_id) if own is not None else None
            yield from self._touching(host.resolve(state, part, ctx, modifier))
            if own is not None and before is not None:
                own.hold_back(state, before)
        if own is not None and own is not results:
            self._release(state, ctx, host, t, own)
        (main, first), (other, second) = parts
        step = host.move_step(state, main) if first.kind == "move" else Step(first.kind)
        if not state.unit(unit_id).eliminated:
            t.record_action(
                unit_id, first.kind, step=step, weapon=host.weapon(state, main) or None, free=free, held=held,
                also=[(second.kind, host.weapon(state, other) or None)],
            )
            if results is not None:
                results.step = max(results.step, t.step_actions(unit_id))
        self._sync(state, ctx, host, t)
        yield from self._offer(state, ctx, host, t, "after", unit_id, first.kind)

    def _action(
        self, state: BattleState, ctx: Context, host: CardHost, t: CardTable, command: Command, held: bool,
        results: HeldResults | None = None,
    ) -> Resolution:
        """One action (AP-paid, free charge melee, or a held overwatch action)."""
        kind = self._kind(state, host, command)
        if kind == "free":  # not an action: no AP, no windows (an objective recorded ...)
            yield from self._touching(host.resolve(state, command, ctx, FlatModifier()))
            self._sync(state, ctx, host, t)
            return
        unit_id = host.acting_unit(command)
        name = state.unit(unit_id).name
        weapon = command.weapon if isinstance(command, PrepWeapon) else host.weapon(state, command)
        free = _guard(lambda: t.check_action(unit_id, kind, weapon=weapon or None, held=held))
        yield from self._offer(state, ctx, host, t, "before", unit_id, kind)
        if state.unit(unit_id).eliminated:
            return  # shot down in the before window
        # CA-12.3: a power costing several actions is paid one action at a time
        if kind == "cast":
            power, cost = host.cast_cost(state, command)
            if cost > 1:
                progress = t.pay_cast(unit_id, power, cost)
                if not progress.complete:
                    t.record_action(unit_id, "cast", held=held)
                    ctx.emit(
                        "casting",
                        f"{name} pays 1 action toward {power}: {progress.paid} of {cost}",
                        unit=unit_id,
                        power=power,
                        paid=progress.paid,
                        cost=cost,
                    )
                    self._sync(state, ctx, host, t)
                    yield from self._offer(state, ctx, host, t, "after", unit_id, kind)
                    return
        modifier = t.modifier(unit_id, kind, host.target(command))
        if kind in ("melee", "ballistic") and modifier.lines():
            parts = ", ".join(f"{text} {value:+d}" for text, value in modifier.lines())
            ctx.emit("card_modifier", f"{name}: card modifiers {modifier.total:+d} ({parts})", unit=unit_id, total=modifier.total)
        if command.type in CARD_ACTION_KINDS:
            what = getattr(command, "action", "")
            label = {"aim": "aims", "prep": f"preps {weapon}", "special": f"takes a special action {what}".rstrip()}
            ctx.emit("special", f"{name} {label[kind]}", unit=unit_id, kind=kind)
            if kind == "prep":
                host.prep(state, unit_id, weapon or "")  # no weapon named: "" names none
                self._touched()
            elif self.options["prep_counts"] == "any_action":
                for owed_weapon, owed in (host.prep_owed(state, unit_id) or {}).items():
                    if owed > 0:
                        host.prep(state, unit_id, owed_weapon)
                        self._touched()
        else:
            owed_before = host.prep_owed(state, unit_id)
            before = results.before(state, unit_id) if results is not None else None
            yield from self._touching(host.resolve(state, command, ctx, modifier))
            if results is not None and before is not None:
                results.hold_back(state, before)  # AMB-19: applied when the step ends
            if owed_before and self.options["prep_counts"] == "any_action":
                for held_weapon, owed in owed_before.items():  # AMB-17 option: any action reloads
                    if owed > 0:
                        host.prep(state, unit_id, held_weapon)
                        self._touched()
        step = host.move_step(state, command) if kind == "move" else Step(kind)
        if not state.unit(unit_id).eliminated:
            charge = t.record_action(unit_id, kind, step=step, weapon=weapon or None, free=free, held=held)
            if results is not None:
                results.step = max(results.step, t.step_actions(unit_id))
            if charge.bonus:
                extra = " and a free melee action" if charge.free_melee and not held else ""
                ctx.emit("charge", f"{name} charges: +1 in melee this activation{extra}", unit=unit_id, kind=charge.kind)
        self._sync(state, ctx, host, t)
        yield from self._offer(state, ctx, host, t, "after", unit_id, kind)

    # --- overwatch interrupts (CA-7.6) -------------------------------------------------------
    def window(self, state: BattleState, name: str, ctx: Context, **info: Any) -> Resolution:
        """Windows the host's rules open are not used: the scheme itself opens "before" and
        "after" around every action, and offers "during" with the "before" of a Move (the
        interrupter picks the point on the path at the table, CA-7.6)."""
        return
        yield  # pragma: no cover

    def _offer(
        self, state: BattleState, ctx: Context, host: CardHost, t: CardTable, window: str, acting: str, kind: str
    ) -> Resolution:
        """Offer each side holding an overwatch action the chance to spend it now; the
        non-active side first (AMB-25). After an interrupt, every side is asked again."""
        acting_side = state.unit(acting).side
        passed: set[str] = set()
        while not state.over:
            sides = [s for s in t.interrupt_sides(acting_side, exclude=[acting]) if s not in passed]
            if not sides:
                return
            side = sides[0]
            held = [u for u in t.held_units(exclude=[acting]) if u.side == side]
            windows = [window] + (["during"] if window == "before" and kind == "move" else [])
            legal = [
                CommandSpec(
                    "card_interrupt",
                    {"unit": u.id, "window": w},
                    label=f"{state.unit(u.id).name}: use the held action {_WINDOW_TEXT[w]}",
                )
                for u in held
                for w in windows
            ]
            legal.append(CommandSpec("pass", label="Do not interrupt"))
            what = f"{state.unit(acting).name}'s {kind}"
            command = yield Decision(
                side,
                f"{state.side(side).name}: interrupt {_WINDOW_TEXT[window]} {what}?",
                tuple(legal),
                data={"window": window, "acting": acting, "kind": kind},
            )
            if command.type == "pass":
                passed.add(side)
                continue
            acted = yield from self._held(state, ctx, host, t, command)
            # after an interrupt every side may answer it; a side that took back its
            # choice is done with this window
            passed = set() if acted else passed | {side}

    def _held(self, state: BattleState, ctx: Context, host: CardHost, t: CardTable, interrupt: Interrupt) -> Resolution:
        """The interrupting unit picks and spends its held action; returns whether it acted."""
        unit_id = interrupt.unit
        name = state.unit(unit_id).name
        ctx.emit("interrupt", f"{name} interrupts {_WINDOW_TEXT[interrupt.window]}", unit=unit_id, window=interrupt.window)
        before = state.scheme.get("active_unit", "")
        before_held = t.turn.held_use  # interrupts can nest: restore the outer one after
        state.scheme["active_unit"] = unit_id
        t.turn.held_use = unit_id
        try:
            cu = t.units[unit_id]
            legal = [s for s in host.commands(state, unit_id) if not host.refuse(state, unit_id, [], host.action_kind(state, s.type))]
            legal.append(CommandSpec("card_aim", {"unit": unit_id}, label=f"{name}: Aim"))
            for weapon, owed in cu.prep_remaining.items():
                if owed > 0:
                    legal.append(CommandSpec("card_prep", {"unit": unit_id, "weapon": weapon}, label=f"{name}: prep {weapon}"))
            legal.append(CommandSpec("card_special", {"unit": unit_id}, label=f"{name}: other special action"))
            if host.models(state, unit_id) >= 2:
                legal.append(CommandSpec("card_split", {"unit": unit_id}, label=f"{name}: split the held action"))
            legal.append(CommandSpec("pass", label="Keep the held action"))
            command = yield Decision(
                cu.side,
                f"{name}: choose the held action",
                tuple(legal),
                check=lambda cmd: self._check_action(state, host, t, cmd, held=True),
                data={"held": unit_id},
            )
            if command.type == "pass":
                ctx.emit("interrupt_cancelled", f"{name} keeps its held action", unit=unit_id)
                return False
            cu.held_actions = 0  # spent as soon as it is declared, so it cannot answer itself
            if isinstance(command, SplitAction):
                yield from self._split(state, ctx, host, t, command, held=True)
            else:
                yield from self._action(state, ctx, host, t, command, held=True)
            return True
        finally:
            t.turn.held_use = before_held
            state.scheme["active_unit"] = before


_WINDOW_TEXT = {"before": "before", "during": "during", "after": "after"}


def _inch(value: Any) -> str:
    text = f"{float(value):g}"
    return f'{text}"'


def _ids(state: BattleState) -> set[str]:
    return {u.id for u in state.units}


def _check_assignment(t: CardTable, side: str, cmd: AssignCards) -> None:
    _guard(lambda: t.check_assignment(side, cmd.cards))


def _typed_cards(codes: Iterable[str], left: list[Card], count: int) -> list[Card]:
    """Table mode: the typed hand, checked against the deck and the cards already dealt."""
    cards = [parse_card(c) for c in codes]
    if len(cards) != count:
        raise CardRuleError("CA-1.2", f"{count} cards were dealt; {len(cards)} typed")
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardRuleError("AMB-5", f"{card.code} typed twice")
        seen.add(card)
        if card not in left:
            raise CardRuleError("CA-1.1", f"{card.code} is not in the deck or was already dealt")
    return cards
