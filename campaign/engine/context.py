"""The context a resolution generator gets: emit events, reach the rules, scheme and setup."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from campaign.engine.events import Event

if TYPE_CHECKING:
    from campaign.engine.battle import Battle
    from campaign.engine.rules import BattleRules
    from campaign.engine.scheme import ActivationScheme
    from campaign.engine.setup import BattleSetup


class Context:
    def __init__(self, battle: Battle) -> None:
        self._battle = battle

    @property
    def rules(self) -> BattleRules:
        return self._battle.rules

    @property
    def scheme(self) -> ActivationScheme:
        return self._battle.scheme

    @property
    def setup(self) -> BattleSetup:
        return self._battle.setup

    @property
    def options(self) -> dict[str, Any]:
        """The ruleset's battle options (setup.options merged over the defaults)."""
        return self._battle.rules.options

    @property
    def replaying(self) -> bool:
        return self._battle.replaying

    def emit(self, event: Event | str, text: str = "", **data: Any) -> None:
        """`ctx.emit(Event(...))` or `ctx.emit("hit", "Rippers: 2 hits", hits=2)`: record
        an event of the step being resolved (the battle gives it its seq)."""
        battle = self._battle
        if isinstance(event, str):  # with its seq: the log entry being resolved
            seq = len(battle._log) - 1
            if battle._queue is None:  # played: apply() answers it at once
                battle._events.append(Event(event, text, data, seq if seq > 0 else 0))
            else:  # replayed: kept raw until read (RawEvent)
                battle._events.append((event, text, data, seq if seq > 0 else 0))
                battle._raw = True
        else:
            battle._record_event(event)

    def checkpoint(self) -> None:
        """The scheme is at a round boundary, where its loop could begin again from the
        state alone: the battle may keep a checkpoint here (campaign.engine.snapshot)."""
        self._battle._take_checkpoint()

    def window(self, name: str, **info: Any) -> Generator[Any, Any, None]:
        """An interrupt window the rules open (before/during/after an action); the
        activation scheme decides who may act in it. `yield from ctx.window("during", unit=...)`."""
        return self._battle.scheme.window(self._battle.state, name, self, **info)
