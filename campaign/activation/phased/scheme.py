"""The phased turn: a turn is an ordered list of phases the rules plan each turn.

Choose it with `activation = "phased"`. Each turn the host's `turn_start` rolls and asks
what it needs (initiative, a turn template) and returns a `TurnPlan`; the scheme then runs
the phases in order:

- ONE_SIDE: the phase's side gives commands, one model or unit at a time, until it ends
  the phase (`end_phase`) or has nothing left;
- EACH_SIDE: the same for every listed side in turn;
- ALTERNATE: the listed sides take turns to pick one command or pass; when every side has
  passed in a row (two passes with two sides) the phase ends. A side with nothing left
  passes by itself;
- ENGINE: nobody picks; the host's `engine_phase` rolls and asks.

Around each phase the host's `phase_start` and `phase_end` run (the latter settles what
the phase held back); after the last phase `turn_end`; once at the end `game_end`. The
battle ends when the rules say so or after the scenario's turn limit.

Bookkeeping (plain data, for replay and screens) sits in `state.scheme[KEY]`: the turn's
phases, the phase now, its kind, whose pick it is, passes in a row. `phase_view(state)`
reads it for a screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from campaign.activation.phased.host import SCHEME_NAME, PhasedHost, Steps, host_for
from campaign.activation.phased.plan import ALTERNATE, EACH_SIDE, ENGINE, FINAL, ONE_SIDE, Phase, TurnPlan
from campaign.engine.commands import Command
from campaign.engine.pending import CommandSpec, Decision
from campaign.engine.scheme import ActivationScheme, register_scheme
from campaign.engine.state import BattleState
from campaign.options import Option

if TYPE_CHECKING:
    from campaign.engine.context import Context

KEY = "phased"  # state.scheme[KEY]: the turn's bookkeeping


@attrs.define(frozen=True)
class EndPhase(Command):
    """A side ends its part of a ONE_SIDE or EACH_SIDE phase."""

    type: ClassVar[str] = "end_phase"


@attrs.frozen
class PhaseView:
    """What a screen shows of the turn: the phases, the one now, whose pick it is."""

    turn: int
    phases: tuple[str, ...]  # this turn's phase names, in order
    index: int  # the phase now (-1 before the first)
    phase: str  # its name ("" between turns)
    kind: str
    picking: str  # the side whose pick (or command) is next, "" when nobody picks
    passes: int  # passes in a row in an ALTERNATE phase
    first: str  # the turn's first mover
    note: str  # what shaped the turn (a template's name)


def phase_view(state: BattleState) -> PhaseView | None:
    """The phased turn's bookkeeping as a view, or None if the battle is not phased."""
    book = state.scheme.get(KEY)
    if not isinstance(book, dict):
        return None
    return PhaseView(
        turn=state.round,
        phases=tuple(book.get("phases", ())),
        index=int(book.get("index", -1)),
        phase=str(book.get("phase_name", "")),
        kind=str(book.get("kind", "")),
        picking=str(book.get("picking", "")),
        passes=int(book.get("passes", 0)),
        first=str(book.get("first", "")),
        note=str(book.get("note", "")),
    )


@register_scheme
class PhasedScheme(ActivationScheme):
    """A turn of named phases planned by the rules each turn (docs/rulesets.md)."""

    name: ClassVar[str] = SCHEME_NAME
    option_specs: ClassVar[tuple[Option, ...]] = ()
    # where the turn's bookkeeping is kept in state.scheme; None: not kept in the state (a
    # scheme built on these parts whose state must stay as it was, the initiative turn's)
    book_key: ClassVar[str | None] = KEY

    def __init__(self, host: PhasedHost | None = None, **options: Any) -> None:
        super().__init__(**options)
        self._host = host
        self._scratch: dict[str, Any] = {}
        self._decisions: dict[str, Decision] = {}  # each side's last Decision of `alternate`

    def _decision(self, side: str, prompt: str, offer: Sequence[CommandSpec]) -> Decision:
        """Decision(side, prompt, offer): the side's last one again while it is the same
        (frozen; a host hands back the same offer while the rules answer the same units)."""
        kept = self._decisions.get(side)
        if kept is not None and kept.legal is offer and kept.prompt == prompt:
            return kept
        made = self._decisions[side] = Decision(side, prompt, offer)
        return made

    def command_types(self) -> Iterable[type[Command]]:
        return (EndPhase,)

    def host(self, ctx: Context) -> PhasedHost:
        if self._host is None or self._host.rules is not ctx.rules:
            self._host = host_for(ctx.rules, self.options)
        return self._host

    def book(self, state: BattleState) -> dict[str, Any]:
        """The turn's bookkeeping (phase_view reads it from the state)."""
        if self.book_key is None:
            return self._scratch
        book: dict[str, Any] = state.scheme.setdefault(self.book_key, {})
        return book

    def turn_over(self, state: BattleState, ctx: Context) -> bool:
        """After a turn's end hook: whether the battle ends here (the rules, then the turn
        limit; a scheme may weigh them the other way)."""
        return self.ended(state, ctx) or self.past_round_limit(state, ctx)

    # --- the battle loop ---------------------------------------------------------------
    def run(self, state: BattleState, ctx: Context) -> Steps:
        host = self.host(ctx)
        book = self.book(state)
        while not self.ended(state, ctx):
            # everything this loop carries from turn to turn is in the state (the hosts keep
            # nothing): a battle resumed from a checkpoint taken here runs it from the top
            ctx.checkpoint()
            state.round += 1
            book.update(phases=[], index=-1, phase="", phase_name="", kind="", picking="", passes=0, first="", note="")
            plan = yield from host.turn_start(state, ctx)
            if not isinstance(plan, TurnPlan):
                raise TypeError(f"{type(host).__name__}.turn_start must return a TurnPlan, not {plan!r}")
            book.update(phases=[p.name for p in plan.phases], first=plan.first, note=plan.note)
            for index, phase in enumerate(plan.phases):
                if self.ended(state, ctx):
                    break
                book["index"] = index
                yield from self.phase(state, host, phase, ctx)
            book.update(phase="", phase_name="", kind="", picking="", passes=0)
            if self.ended(state, ctx):
                break
            yield from host.turn_end(state, ctx)
            if self.turn_over(state, ctx):
                break
        yield from host.game_end(state, ctx)

    def phase(self, state: BattleState, host: PhasedHost, phase: Phase, ctx: Context) -> Steps:
        book = self.book(state)
        book.update(phase=phase.id, phase_name=phase.name, kind=phase.kind, picking="", passes=0)
        yield from host.phase_start(state, phase, ctx)
        if phase.kind == ENGINE:
            yield from host.engine_phase(state, phase, ctx)
        elif phase.kind in (ONE_SIDE, EACH_SIDE):
            for side in phase.sides:
                yield from self.one_side(state, host, phase, side, ctx)
        elif phase.kind == ALTERNATE:
            yield from self.alternate(state, host, phase, ctx)
        book["picking"] = ""
        if not self.ended(state, ctx):
            yield from host.phase_end(state, phase, ctx)

    def one_side(self, state: BattleState, host: PhasedHost, phase: Phase, side: str, ctx: Context) -> Steps:
        """`side` gives commands one at a time until it ends its part or has nothing left."""
        book = self.book(state)
        name = state.side(side).name
        while not self.ended(state, ctx):
            book["picking"] = side
            legal = host.commands(state, phase, side)
            if not legal:
                ctx.emit("pass", f"{name} has nothing to do in {phase.name}", side=side, forced=True)
                return
            end = CommandSpec("end_phase", label=f"End {phase.name}")
            command = yield Decision(side, f"{name}: {host.prompt(state, phase, side)}", (*legal, end))
            if command.type == "end_phase":
                ctx.emit("pass", f"{name} ends {phase.name}", side=side)
                return
            yield from host.resolve(state, phase, side, command, ctx)

    def alternate(self, state: BattleState, host: PhasedHost, phase: Phase, ctx: Context) -> Steps:
        """Picks go round the sides, each turn between the host's pick_start and pick_end.
        IN_A_ROW: a full round of passes in a row ends the phase. FINAL: a pass takes the
        side out of the phase, which ends when every side is out. A side that has made the
        phase's `picks` is out too."""
        book = self.book(state)
        sides = phase.sides
        final = phase.passing == FINAL
        turn, passes = 0, 0
        made = dict.fromkeys(sides, 0)
        out: set[str] = set()
        live = len(sides)  # how many of `sides` are not out
        idle: set[str] = set()  # sides told they have nothing left (said once a phase)
        while not self.ended(state, ctx):
            if not live or passes >= live and not final:
                break
            side = sides[turn % len(sides)]
            turn += 1
            if side in out:
                continue
            book["picking"] = side
            yield from host.pick_start(state, phase, side, ctx)
            legal = host.commands(state, phase, side)
            picked = False
            if not legal:
                if final or side not in idle:
                    idle.add(side)
                    ctx.emit("pass", host.pass_text(state, phase, side, True), side=side, forced=True)
                passes += 1
                book["passes"] = passes
            else:
                idle.discard(side)
                name = state.side(side).name
                offer = host.menu(state, phase, side, legal, host.may_pass(state, phase, side))
                command = yield self._decision(side, f"{name}: {host.prompt(state, phase, side)}", offer)
                if command.type == "pass":
                    passes += 1
                    book["passes"] = passes
                    ctx.emit("pass", host.pass_text(state, phase, side, False), side=side)
                else:
                    picked = True
                    passes = 0
                    book["passes"] = 0
                    yield from host.resolve(state, phase, side, command, ctx)
            made[side] += picked
            if (final and not picked) or (phase.picks and made[side] >= phase.picks):
                out.add(side)
                live -= sides.count(side)
            yield from host.pick_end(state, phase, side, picked, ctx)
