"""The Other Actions that neither attack nor cast: an officer attaching to a unit or
detaching from it (A-06), and switching an Activate attribute (A-61)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.engine.errors import IllegalCommand
from campaign.engine.state import BattleState
from campaign.rulesets.flat_out_war.engine.combatant import static_traits
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution
from campaign.rulesets.flat_out_war.engine.commands import Attach, Detach, Switch

if TYPE_CHECKING:
    from campaign.engine.context import Context


class ActionsMixin(PlayHelpers):
    """`FlatOutWarRules`' attach, detach and switch commands."""

    _traits: dict[str, Any]

    def _check_attach(self, state: BattleState, cmd: Attach) -> None:
        officer = self._unit(state, cmd.unit)
        target = self._unit(state, cmd.target, "target unit")
        if target.side != officer.side:
            raise IllegalCommand("FOW 20 Command", "an officer attaches to a unit of its own side")
        if not all(self.combatant(state, e).has("command") for e in officer.living):
            raise IllegalCommand("FOW 20 Command", f"{officer.name} is not an officer (needs Command)")

    def _do_attach(self, state: BattleState, cmd: Attach, ctx: Context) -> Resolution:
        officer, target = state.unit(cmd.unit), state.unit(cmd.target)
        officer.data["attached_to"] = target.id
        target.data["officer"] = officer.id
        officer.markers["acted"] = True
        ctx.emit("attach", f"{officer.name} attaches to {target.name}", unit=officer.id, target=target.id)
        return
        yield  # pragma: no cover

    def _do_detach(self, state: BattleState, cmd: Detach, ctx: Context) -> Resolution:
        unit = state.unit(cmd.unit)
        officer = state.unit(unit.data["officer"])
        officer.data["attached_to"] = ""
        unit.data["officer"] = ""
        ctx.emit("detach", f"{officer.name} detaches from {unit.name}", unit=officer.id)
        return
        yield  # pragma: no cover

    def _do_switch(self, state: BattleState, cmd: Switch, ctx: Context) -> Resolution:
        """[SO] Activate: switching the linked attribute uses the Other Action (A-61)."""
        unit = state.unit(cmd.unit)
        es = state.element(cmd.element)
        unit.markers["acted"] = True
        links = static_traits(self.element_of(state, es))[1]
        on = es.data.get("switched_on", [])
        now = [] if on else list(links)
        es.data["switched_on"] = now
        names = ", ".join(links) or "nothing"
        ctx.emit("switch", f"{es.name} switches {names} {'on' if now else 'off'}", element=es.id, on=bool(now))
        return
        yield  # pragma: no cover
