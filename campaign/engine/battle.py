"""Battle: the one object with the verbs (apply, roll, undo, replay, digest).

The battle is the activation scheme's `run` generator plus the log that drives it.
Every command answers a Decision; every die answers a RollRequest, from the dice
source (auto), from `roll(faces)` (table) or from the log (replay). State is
fold(setup, log): undo, and rebuilding after an error, replay the log, so they cannot drift.
"""

from __future__ import annotations

from collections import deque
from itertools import chain
from operator import attrgetter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.canonical import digest as _digest
from campaign.engine.collector import collector_paused
from campaign.engine.commands import GENERIC_COMMANDS, Command, CommandTypes
from campaign.engine.context import Context
from campaign.engine.dice import DiceSource, RollRecord, check_faces, dice_for
from campaign.engine.errors import IllegalCommand, ReplayError, UndoRefused
from campaign.engine.events import Event, RawEvent, make_events
from campaign.engine.lazy_specs import first_match
from campaign.engine.pending import CommandSpec, Decision, Pending, RollRequest
from campaign.engine.rules import BattleRules
from campaign.engine.scheme import ActivationScheme, get_scheme
from campaign.engine.setup import BattleSetup
from campaign.engine.snapshot import Snapshot, SnapshotError, decode, encode, prefix_digest
from campaign.engine.state import BattleState

if TYPE_CHECKING:
    from campaign.outcome import BattleOutcome


@attrs.define
class LogEntry:
    """One `[[log]]` table: the command, who gave it, and the faces of every die it used."""

    seq: int
    side: str
    command: dict[str, Any]
    rolls: list[RollRecord] = attrs.field(factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "side": self.side,
            "command": dict(self.command),
            "rolls": [r.to_dict() for r in self.rolls],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], index: int = 0) -> LogEntry:
        # (`type(...) is dict` first: what a log holds, without the Mapping ABC's slower test)
        if type(data) is not dict and not isinstance(data, Mapping):
            raise ReplayError(index, "a log entry must be a table")
        command = data.get("command")
        if type(command) is not dict and not isinstance(command, Mapping):
            raise ReplayError(index, "a log entry needs command = { type = ... }")
        rolls_raw = data.get("rolls", [])
        if type(rolls_raw) is not list and not isinstance(rolls_raw, list):
            raise ReplayError(index, "rolls must be a list of { die, faces, purpose }")
        try:
            rolls = list(map(_roll_from_dict, rolls_raw)) if rolls_raw else []
        except (ValueError, AttributeError) as exc:
            raise ReplayError(index, str(exc)) from None
        seq = data.get("seq", index)
        if type(seq) is not int and (isinstance(seq, bool) or not isinstance(seq, int)):
            raise ReplayError(index, f"seq must be a whole number, not {seq!r}")
        side = data.get("side", "")
        entry = _new(cls)  # (cls(seq, side, command, rolls), without the call's dispatch: every entry of a replay)
        entry.seq = seq
        entry.side = side if type(side) is str else str(side)
        entry.command = dict(command)
        entry.rolls = rolls
        return entry


_roll_from_dict = RollRecord.from_dict
_new = object.__new__
_ROLLS = attrgetter("rolls")
_FACES = attrgetter("faces")


@attrs.frozen
class Checkpoint:
    """The battle at a round boundary (the scheme calls ctx.checkpoint() there), reached
    while log entry `entry` was resolved, after its first `rolls` rolls: the state
    `encode`d, and the events so far (`events` holds at least `count` of them, some maybe
    still raw: campaign.engine.events.RawEvent)."""

    entry: int
    rolls: int
    state: Any
    events: list[Event | RawEvent]
    count: int


def resolve_rules(setup: BattleSetup) -> BattleRules:
    """The battle rules of the setup's ruleset, through the ruleset registry."""
    from campaign.rulesets import get_ruleset

    ruleset = get_ruleset(setup.ruleset, setup.edition, **setup.options)
    return ruleset.battle_rules()


class Battle:
    def __init__(
        self,
        setup: BattleSetup,
        *,
        dice: DiceSource | None = None,
        rules: BattleRules | None = None,
        scheme: ActivationScheme | None = None,
        checkpoints: bool = False,
    ) -> None:
        """A battle before its first step; use Battle.start, Battle.replay or Battle.resume.

        With `checkpoints`, the battle keeps its latest round-boundary checkpoint (every
        CHECKPOINT_EVERY log entries at most): undo rebuilds from it instead of from the
        start, and `snapshot()` hands it out for a cache, so a resume replays only the rest."""
        self.setup = setup
        self.rules = rules if rules is not None else resolve_rules(setup)
        self.scheme = scheme if scheme is not None else get_scheme(setup.activation, **setup.activation_options)
        self.dice = dice if dice is not None else dice_for(setup.dice, setup.seed)
        self.types = CommandTypes(GENERIC_COMMANDS, self.scheme.command_types(), self.rules.command_types())
        # (a scheme that keeps the base class's check, which allows everything, is not asked)
        self._scheme_checks = type(self.scheme).check is not ActivationScheme.check
        self.ctx = Context(self)
        self.checkpoints = checkpoints and getattr(self.rules, "snapshots", False)
        self._checkpoint: Checkpoint | None = None
        self._built: Command | None = None  # the last command `command()` built
        self._owned = False  # replaying log entries made for that replay alone (see _replay)
        # no state yet: start and replay build it (from the log) at once, and a state built
        # here too would be thrown away unused (a whole new_state per battle)

    # --- construction -----------------------------------------------------------
    @classmethod
    def start(
        cls,
        setup: BattleSetup,
        dice: DiceSource | None = None,
        *,
        rules: BattleRules | None = None,
        scheme: ActivationScheme | None = None,
        checkpoints: bool = False,
    ) -> Battle:
        battle = cls(setup, dice=dice, rules=rules, scheme=scheme, checkpoints=checkpoints)
        battle._replay([LogEntry(0, "", {"type": "start"})])
        return battle

    @classmethod
    def replay(
        cls,
        setup: BattleSetup,
        log: Iterable[LogEntry | Mapping[str, Any]],
        dice: DiceSource | None = None,
        *,
        rules: BattleRules | None = None,
        scheme: ActivationScheme | None = None,
        progress: Callable[[int, int], None] | None = None,
        every: int = 25,
        checkpoints: bool = False,
    ) -> Battle:
        """Fold the log over the setup. ReplayError names the first entry that does not fit.

        `progress`, if given, is called with (entries done, total) after every `every`
        entries and after the last, so a screen can show how far a long replay has got.
        """
        entries: list[LogEntry] = []
        owned = True  # every entry made here from its dict: the battle's log may keep them
        for i, e in enumerate(log):
            if isinstance(e, LogEntry):
                owned = False
                entries.append(e)
            else:
                entries.append(LogEntry.from_dict(e, i))
        battle = cls(setup, dice=dice, rules=rules, scheme=scheme, checkpoints=checkpoints)
        battle._replay(entries, progress, max(1, every), owned=owned)
        return battle

    @classmethod
    def resume(
        cls,
        setup: BattleSetup,
        log: Sequence[Mapping[str, Any]],
        snapshot: Snapshot,
        dice: DiceSource | None = None,
        *,
        rules: BattleRules | None = None,
        scheme: ActivationScheme | None = None,
        progress: Callable[[int, int], None] | None = None,
        every: int = 25,
    ) -> Battle:
        """The battle of `log` rebuilt from `snapshot` plus the entries after it: the same
        battle `replay` gives, in time bounded by what follows the snapshot. SnapshotError
        if the snapshot does not stand for this log's prefix, or its state is not the one
        it claims (its digest); the caller replays instead. Checkpoints are kept."""
        if snapshot.prefix != prefix_digest(log, snapshot.entry, snapshot.rolls):
            raise SnapshotError("the snapshot is of another log")
        state = snapshot.state if isinstance(snapshot.state, BattleState) else decode(snapshot.state)
        try:
            good = isinstance(state, BattleState) and _digest(state) == snapshot.digest
        except TypeError:  # a value canonical JSON refuses: not a state the engine made
            good = False
        if not good:
            raise SnapshotError("the snapshot's state is not the one it was taken of")
        events = snapshot.events if isinstance(snapshot.events, list) else decode(snapshot.events)
        if not isinstance(events, list) or not all(isinstance(e, Event) for e in events):
            raise SnapshotError("the snapshot's events are damaged")
        entries = [LogEntry.from_dict(e, i) for i, e in enumerate(log)]
        battle = cls(setup, dice=dice, rules=rules, scheme=scheme, checkpoints=True)
        if not battle.checkpoints:
            raise SnapshotError("these rules cannot resume from a snapshot")
        start = Checkpoint(snapshot.entry, snapshot.rolls, encode(state), list(events), len(events))
        battle._replay(entries, progress, max(1, every), start=start)
        return battle

    # --- what the battle waits for ----------------------------------------------
    @property
    def state(self) -> BattleState:
        return self._state

    @property
    def pending(self) -> Pending | None:
        return self._pending

    @property
    def is_over(self) -> bool:
        return self._pending is None

    @property
    def replaying(self) -> bool:
        return self._queue is not None

    def legal_commands(self) -> list[CommandSpec]:
        return list(self._pending.legal) if isinstance(self._pending, Decision) else []

    def command(self, spec: CommandSpec | str, **fields: Any) -> Command:
        """Build a command from a legal spec (or a type name) and the remaining fields."""
        if isinstance(spec, CommandSpec):
            data = {"type": spec.type, **spec.params, **fields}
        else:
            data = {"type": spec, **fields}
        command = self.types.from_dict(data)
        self._built = command  # already in its logged form: apply need not rebuild it
        return command

    # --- the verbs --------------------------------------------------------------
    def apply(self, command: Command | Mapping[str, Any]) -> list[Event]:
        """Answer the pending Decision. Returns the events it caused; IllegalCommand leaves
        the battle as it was."""
        decision = self._pending
        if decision is None:
            raise IllegalCommand("battle", f"the battle is over ({self._state.end_reason})")
        if isinstance(decision, RollRequest):
            raise IllegalCommand("dice", f"waiting for dice first: {decision.describe()}")
        if command is not self._built:  # (a command `command()` built is in that form already)
            if not isinstance(command, Mapping):
                command = command.to_dict()
            command = self.types.from_dict(command)  # the logged form is what resolution sees
        self._built = None
        self._check(decision, command)
        entry = _new(LogEntry)  # (LogEntry(seq, side, command), without the call's dispatch)
        entry.seq, entry.side, entry.command, entry.rolls = len(self._log), decision.side, self.types.logged(command), []
        self._log.append(entry)
        first = len(self._events)
        self._guarded(command, keep_rolls=None)
        return self._events_from(first)

    def roll(self, faces: Sequence[int] | None = None) -> list[Event]:
        """Answer a pending RollRequest with faces rolled on the table; with no faces the
        engine rolls this request itself (logged as `by = "engine"`)."""
        request = self._pending
        if not isinstance(request, RollRequest):
            raise IllegalCommand("dice", "no dice are wanted now")
        by = ""
        if faces is None:
            faces = self.dice.assist(request)
            by = "engine" if self.dice.mode == "table" else ""
        faces = check_faces(request, faces)
        keep = len(self._log[-1].rolls)
        self._log[-1].rolls.append(RollRecord(request.die, faces, request.purpose, by))
        first = len(self._events)
        self._guarded(faces, keep_rolls=keep)
        return self._events_from(first)

    @property
    def can_undo(self) -> bool:
        """Whether undo() would be accepted now (for greying out an undo key)."""
        return len(self._log) > 1 and not self._log[-1].rolls

    def undo(self) -> LogEntry:
        """Take back the last decision. Refused if its dice are already rolled."""
        if len(self._log) <= 1:
            raise UndoRefused("nothing to undo: no command has been given yet")
        last = self._log[-1]
        if last.rolls:
            rolled = "; ".join(r.purpose or f"{len(r.faces)} x d{r.die}" for r in last.rolls)
            raise UndoRefused(
                f"cannot undo {self.types.from_dict(last.command).plain(self._state.names())}: its dice are rolled"
                f" ({rolled}) and a roll is a fact; use a re-roll where the rules allow one"
            )
        self._replay(self._log[:-1], start=self._checkpoint)
        return last

    @property
    def log(self) -> list[LogEntry]:
        return list(self._log)

    @property
    def log_length(self) -> int:
        """How many entries the log holds (without copying it, as `len(battle.log)` does)."""
        return len(self._log)

    @property
    def events(self) -> list[Event]:
        return self._events_from(0)

    def log_dicts(self, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """The log as plain TOML-able dicts, one per `[[log]]` table; `start` and `stop`
        take a slice (a saver appending the newest entries serialises only those)."""
        return [e.to_dict() for e in self._log[start:stop]]

    def digest(self) -> str:
        return _digest(self._state)

    @property
    def checkpoint_entry(self) -> int | None:
        """The log entry the latest checkpoint was taken in (None: no checkpoint yet)."""
        return None if self._checkpoint is None else self._checkpoint.entry

    def snapshot(self, within: int | None = None) -> Snapshot | None:
        """The latest checkpoint as a Snapshot for a cache (None without one). `within`:
        only a checkpoint taken inside the first `within` log entries (those saved)."""
        point = self._checkpoint
        if point is None or (within is not None and point.entry >= within):
            return None
        log = self.log_dicts(0, point.entry + 1)
        return Snapshot(
            entry=point.entry, rolls=point.rolls, prefix=prefix_digest(log, point.entry, point.rolls),
            digest=_digest(decode(point.state)), state=point.state, events=encode(make_events(point.events[: point.count])),
        )

    def outcome(self) -> BattleOutcome:
        """The rules' BattleOutcome with this battle's digest filled in."""
        result = self.rules.outcome(self._state)
        if attrs.has(type(result)) and hasattr(result, "digest"):
            result = attrs.evolve(result, digest=self.digest())
        return result

    # --- internals --------------------------------------------------------------
    def _reset(self) -> None:
        self._checkpoint = None
        self._state = self.rules.new_state(self.setup)
        self._log: list[LogEntry] = []
        self._events: list[Event | RawEvent] = []  # (see RawEvent: made into Events when read)
        self._made = 0  # _events[:_made] are Events
        self._raw = False  # whether any event after _made is raw (only a replay's are)
        self._pending: Pending | None = None
        self._queue: deque[RollRecord] | None = None
        self._gen = self.scheme.run(self._state, self.ctx)

    CHECKPOINT_EVERY = 100  # log entries at least between two checkpoints (each encodes the state)

    def _take_checkpoint(self) -> None:
        """Called by the scheme at a round boundary: keep the state there (see Checkpoint)."""
        if not self.checkpoints:
            return
        entry = len(self._log) - 1
        if self._checkpoint is not None and entry - self._checkpoint.entry < self.CHECKPOINT_EVERY:
            return
        try:
            state = encode(self._state)
        except TypeError:  # state a snapshot cannot hold: no checkpoint (replays stay whole)
            return
        self._checkpoint = Checkpoint(entry, len(self._log[-1].rolls), state, self._events, len(self._events))

    def _event_seq(self) -> int:
        """The seq of an event recorded now: the log entry being resolved."""
        return max(len(self._log) - 1, 0)

    def _record_event(self, event: Event) -> None:
        seq = self._event_seq()
        if event.seq != seq:
            event = attrs.evolve(event, seq=seq)
        self._events.append(event)

    def _events_from(self, first: int) -> list[Event]:
        """The events from `first` on, every one an Event (the raw ones are made now, once)."""
        events = self._events
        if self._raw:
            make_events(events, self._made)
            self._raw = False
        self._made = len(events)
        return events[first:]  # type: ignore[return-value]

    def _check(self, decision: Decision, command: Command) -> None:
        found = first_match(decision.legal, command)  # (the first that matches: its facts are the ones checked)
        if found is None:
            options = "; ".join(s.label or s.type for s in decision.legal)
            raise IllegalCommand(
                "legal commands", f"{command.plain(self._state.names())} is not allowed now ({decision.prompt}: {options})"
            )
        if found.facts:  # (CommandSpec.check_facts has nothing to check without them)
            found.check_facts(command)
        if decision.check is not None:
            decision.check(command)
        if self._scheme_checks:
            self.scheme.check(self._state, command)
        self.rules.check(self._state, command)

    def _guarded(self, value: Any, *, keep_rolls: int | None) -> None:
        """Drive the generator; if resolution fails, rebuild the state from the log before
        the failed step, so a refusal leaves no trace."""
        try:
            self._drive(value)
        except Exception:
            entries = self._log
            if keep_rolls is not None:  # a table roll: drop its faces (and any after), keep the command
                del entries[-1].rolls[keep_rolls:]
            else:
                entries = entries[:-1]
            self._replay(entries, start=self._checkpoint)
            raise

    def _drive(self, value: Any) -> None:
        """Send `value` in and run until the engine must wait (or the battle ends)."""
        send = self._gen.send
        rolls = self._log[-1].rolls  # (the entry being resolved: nothing logs another meanwhile)
        while True:
            try:
                request = send(value)
            except StopIteration:
                self._pending = None
                if not self._state.over:
                    self._state.over = True
                    self._state.end_reason = self._state.end_reason or "battle over"
                return
            if type(request) is not RollRequest:  # (the dice first: a battle asks for more of them)
                if isinstance(request, Decision):
                    self._pending = request
                    return
                if not isinstance(request, RollRequest):
                    raise TypeError(f"resolution yielded {request!r}; expected a RollRequest or a Decision")
            record = self._answer(request)
            if record is None:
                self._pending = request
                return
            rolls.append(record)
            value = record.faces

    def _answer(self, request: RollRequest) -> RollRecord | None:
        """The roll that answers `request` now: from the log (replay), the auto dice, or
        None when the players must roll."""
        queue = self._queue
        if queue is not None:  # replaying: the log answers
            if not queue:
                return None
            record = queue.popleft()
            die, faces = request.die, record.faces
            if record.die != die or len(faces) != request.count:
                raise ReplayError(
                    len(self._log) - 1,
                    f"the log has {len(record.faces)} x d{record.die} where the engine asks for"
                    f" {request.describe()} ({request.count} x d{request.die})",
                )
            if type(faces) is tuple:  # (as the log gives them: check_faces' test of each face, inline)
                for face in faces:
                    if type(face) is not int or not 1 <= face <= die:
                        break
                else:
                    if record.purpose == request.purpose:
                        return record  # (frozen: the logged record is the one that would be made)
                    return RollRecord(die, faces, request.purpose, record.by)
            try:
                faces = check_faces(request, record.faces)
            except IllegalCommand as exc:
                raise ReplayError(len(self._log) - 1, exc.message) from None
            if faces == record.faces and record.purpose == request.purpose:
                return record  # (frozen: the logged record is the one that would be made)
            return RollRecord(request.die, faces, request.purpose, record.by)
        drawn = self.dice.draw(request)
        return None if drawn is None else RollRecord(request.die, drawn, request.purpose)

    def _replay(
        self, entries: Sequence[LogEntry], progress: Callable[[int, int], None] | None = None, every: int = 25,
        start: Checkpoint | None = None, owned: bool = False,
    ) -> None:
        """Rebuild the battle from `entries`; from `start` (a checkpoint within them) when
        given, replaying only the entries after it. `owned`: the entries were made for this
        replay alone, so each becomes the log's own entry as it is replayed (not a copy)."""
        entries = list(entries)
        if start is not None and (start.entry >= len(entries) or start.rolls > len(entries[start.entry].rolls)):
            start = None  # a checkpoint inside what is being taken back
        self._reset()
        if not entries or entries[0].command.get("type") != "start":
            raise ReplayError(0, 'the log must begin with the start entry (command = { type = "start" })')
        first = 0
        self._owned = owned
        try:
            with collector_paused():  # (a batch of steps: campaign.engine.collector)
                if start is not None:
                    self._restore(start, entries)
                    self._replayed(start.entry, entries, progress, every)
                    first = start.entry + 1
                no_rolls: deque[RollRecord] = deque()  # (the queue of every entry without dice: never added to)
                for index in range(first, len(entries)):
                    entry = entries[index]
                    queue = self._queue = deque(entry.rolls) if entry.rolls else no_rolls
                    if index == 0:
                        self._log.append(LogEntry(0, "", {"type": "start"}))
                        self._drive(None)
                    else:
                        self._replay_entry(index, entry)
                    if queue or progress is not None or isinstance(self._pending, RollRequest):
                        self._replayed(index, entries, progress, every)  # (nothing to check otherwise)
        finally:
            self._queue = None
            self._owned = False
        if self.dice.mode == "auto":  # (every face of the log counted in C: a long log has thousands)
            self.dice.restore(sum(map(len, map(_FACES, chain.from_iterable(map(_ROLLS, self._log))))))
        else:
            self.dice.restore(sum([len(r.faces) for e in self._log for r in e.rolls if r.by == "engine"]))
        if isinstance(self._pending, RollRequest) and self.dice.mode == "auto":
            self._drive(self._draw_pending())

    def _restore(self, start: Checkpoint, entries: list[LogEntry]) -> None:
        """Put the battle where `start` was taken and resolve the rest of its entry: the
        scheme's loop begins again at the round boundary, from the state alone."""
        k = start.entry
        self._state = decode(start.state)
        self._gen = self.scheme.run(self._state, self.ctx)
        self._events = list(start.events[: start.count])
        self._made, self._raw = 0, True
        self._log = [LogEntry(e.seq, e.side, dict(e.command), list(e.rolls)) for e in entries[:k]]
        last = entries[k]
        self._log.append(LogEntry(last.seq, last.side, dict(last.command), list(last.rolls[: start.rolls])))
        self._checkpoint = start
        self._queue = deque(last.rolls[start.rolls :])
        self._drive(None)

    def _replayed(self, index: int, entries: list[LogEntry], progress: Callable[[int, int], None] | None,
                  every: int) -> None:
        """The checks after entry `index` is replayed: all its dice used, none missing."""
        if self._queue and index:
            raise ReplayError(index, f"the log holds {len(self._queue)} roll(s) more than the command used")
        if self._queue:
            raise ReplayError(index, f"the log holds {len(self._queue)} roll(s) more than the start used")
        if isinstance(self._pending, RollRequest) and index < len(entries) - 1:
            raise ReplayError(index, f"dice are missing: {self._pending.describe()}")
        if progress is not None and ((index + 1) % every == 0 or index == len(entries) - 1):
            progress(index + 1, len(entries))

    def _draw_pending(self) -> tuple[int, ...]:
        assert isinstance(self._pending, RollRequest)
        faces = self.dice.draw(self._pending)
        assert faces is not None
        self._log[-1].rolls.append(RollRecord(self._pending.die, faces, self._pending.purpose))
        return faces

    def _replay_entry(self, index: int, entry: LogEntry) -> None:
        decision = self._pending
        if decision is None:
            raise ReplayError(index, "the battle was already over")
        if isinstance(decision, RollRequest):
            raise ReplayError(index, f"the engine waits for dice ({decision.describe()}), the log has a command")
        try:
            command = self.types.from_dict(entry.command)
            self._check(decision, command)
        except IllegalCommand as exc:
            raise ReplayError(index, str(exc)) from None
        if entry.side and entry.side != decision.side:
            raise ReplayError(index, f"the log says {entry.side!r} decided, the engine waits for {decision.side!r}")
        if self._owned:  # (its rolls are in the queue: the log's entry gets them back as they are used)
            entry.seq, entry.side, entry.command = index, decision.side, self.types.logged(command)
            entry.rolls.clear()
            self._log.append(entry)
        else:
            self._log.append(LogEntry(index, decision.side, self.types.logged(command)))
        try:
            self._drive(command)
        except IllegalCommand as exc:
            raise ReplayError(index, str(exc)) from None
