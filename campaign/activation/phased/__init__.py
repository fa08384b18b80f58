"""The phased turn (a turn of named phases the rules plan each turn), registered as
"phased". Modules: `plan` (phases and a turn's plan as data), `host` (the hooks the rules
give it), `held` (effects held to a phase's end), `scheme` (the ActivationScheme),
`initiative` (the core's initiative turn, "initiative", built from these parts)."""

from campaign.activation.phased.held import held, hold, release
from campaign.activation.phased.host import PhasedHost, UnitTurns, host_for, no_steps
from campaign.activation.phased.plan import (
    ALTERNATE, EACH_SIDE, ENGINE, FINAL, IN_A_ROW, ONE_SIDE, PASSING, PHASE_KINDS, Phase, TurnPlan,
)
from campaign.activation.phased.scheme import EndPhase, PhasedScheme, PhaseView, phase_view  # registers "phased"
from campaign.activation.phased.initiative import InitiativeScheme, InitiativeTurn  # registers "initiative"

__all__ = [
    "ALTERNATE", "EACH_SIDE", "ENGINE", "FINAL", "IN_A_ROW", "ONE_SIDE", "PASSING", "PHASE_KINDS", "EndPhase",
    "InitiativeScheme", "InitiativeTurn", "Phase", "PhaseView", "PhasedHost",
    "PhasedScheme", "TurnPlan", "UnitTurns", "held", "hold", "host_for", "no_steps", "phase_view", "release",
]
