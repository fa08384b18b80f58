"""What the card scheme asks of the ruleset it runs on (spec section 7.1).

Seed 001 is only a sequence of play: morale, movement and combat come from a host
ruleset. A `CardHost` answers the scheme's questions about one battle's rules: how
many action points a unit has, who the field commander is, what kind of action a
ruleset command is, and how to resolve it with the scheme's flat modifier.

The defaults here run any `BattleRules` in a basic way (2 AP, no leadership bonus,
commands classified by their type name, the modifier handed over in
`state.scheme["card_modifier"]`). A ruleset gets a proper host by subclassing and
handing it out from its BattleRules.scheme_host("cards", options), kept in the ruleset's
own folder (each ruleset keeps its host beside its battle rules).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from campaign.activation.cards.rules import FlatModifier, Step, inches
from campaign.engine.commands import Command
from campaign.engine.pending import CommandSpec, Resolution, RollRequest
from campaign.engine.rules import HANDED_MODIFIER, scheme_adapter
from campaign.engine.state import BattleState, UnitState, liveness_changed

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.engine.odds import AttackOdds
    from campaign.engine.report import OddsReport
    from campaign.engine.rules import BattleRules


def hand_over(command: Command, total: int) -> dict[str, Any]:
    """The modifier for the acting unit's dice in this action (see MODIFIER_KEY)."""
    return {"unit": getattr(command, "unit", ""), "value": total, "label": CARD_LABEL}

SCHEME_NAME = "cards"  # the scheme's registry name, passed to BattleRules.scheme_host

# Where the scheme leaves the modifier of the action being resolved, for rules that read
# it from the state (campaign.engine.rules.handed_modifier): {"unit", "value", "label"}.
MODIFIER_KEY = HANDED_MODIFIER
CARD_LABEL = "card activation"

# command type -> card action kind, for rulesets with the usual command names
DEFAULT_KINDS: dict[str, str] = {
    "move": "move",
    "run": "move",
    "charge": "move",
    "shoot": "ballistic",
    "ranged": "ballistic",
    "fire": "ballistic",
    "melee": "melee",
    "strike": "melee",
    "fight": "melee",
    "cast": "cast",
}


class CardHost:
    """The host adapter. Override the methods where the ruleset has something to say."""

    option_names: ClassVar[tuple[str, ...]] = ()  # host options accepted in the scheme options

    def __init__(self, rules: BattleRules, options: dict[str, Any] | None = None) -> None:
        self.rules = rules
        self.options = dict(options or {})

    # --- who takes part --------------------------------------------------------------
    def is_unit(self, state: BattleState, unit_id: str) -> bool:
        """AMB-28: whatever activates as a separate body gets a card."""
        return not state.unit(unit_id).eliminated

    def ap_max(self, state: BattleState, unit_id: str) -> int:
        return int(self.options.get("ap_max", 2))

    def move_rate(self, state: BattleState, unit_id: str) -> Fraction:
        """The unit's normal move in inches (the rout move is twice this)."""
        return Fraction(0)

    def leadership_bonus(self, state: BattleState, side: str) -> int:
        """Extra cards from the side's field commander (CA-1.4)."""
        return 0

    def weapons(self, state: BattleState, unit_id: str) -> list[tuple[str, int, bool]]:
        """(weapon name, PREP value, primary?) for CA-11.2."""
        return []

    # --- what the unit may do ----------------------------------------------------------
    def commands(self, state: BattleState, unit_id: str) -> list[CommandSpec]:
        """The ruleset's own actions for the unit now (move, shoot, melee, cast ...)."""
        return list(self.rules.activation_commands(state, unit_id))

    def action_kind(self, state: BattleState, command_type: str) -> str:
        """The card action a ruleset command type is: move | melee | ballistic | cast |
        special (CA-4.1), or "free" for a command that is no action at all (recording an
        objective): it costs no AP and does not count toward the penalties."""
        return DEFAULT_KINDS.get(command_type, "special")

    def acting_unit(self, command: Command) -> str:
        return str(getattr(command, "unit", ""))

    def target(self, command: Command) -> str | None:
        target = getattr(command, "target", None)
        return str(target) if target else None

    def weapon(self, state: BattleState, command: Command) -> str | None:
        weapon = getattr(command, "weapon", None)
        return str(weapon) if weapon else None

    def facts(self, command: Command) -> dict[str, Any]:
        facts = getattr(command, "facts", None)
        return dict(facts) if isinstance(facts, dict) else {}

    def move_step(self, state: BattleState, command: Command) -> Step:
        """The table facts of a Move (CA-8.1/8.2): inches, straight, contact, uninterrupted."""
        facts = self.facts(command)
        distance = facts.get("inches", facts.get("moved", facts.get("distance", 0)))
        return Step(
            "move",
            inches(distance),
            bool(facts.get("straight", False)),
            bool(facts.get("contact", False)),
            bool(facts.get("uninterrupted", True)),
        )

    def cast_cost(self, state: BattleState, command: Command) -> tuple[str, int]:
        """(power name, actions it costs) for CA-12.3; 1 action resolves at once."""
        return (str(getattr(command, "spell", getattr(command, "power", command.type))), 1)

    def refuse(self, state: BattleState, unit_id: str, kinds_so_far: list[str], kind: str) -> str | None:
        """A host limit on the action (e.g. FOW's one Other Action); a reason, or None."""
        return None

    def check(self, state: BattleState, command: Command) -> None:
        """Raise IllegalCommand for a ruleset command the card scheme replaces (e.g. FOW's Run)."""

    # --- CA-5 split actions and AMB-19 held results ------------------------------------------
    # The scheme may hold back the results an action has on other units (AMB-19 steps, the
    # two groups of a split) by restoring their states and merging the change in later
    # (results.py). A host whose results live outside the unit states turns this off.
    defers_results: ClassVar[bool] = True

    def models(self, state: BattleState, unit_id: str) -> int:
        """The unit's model count now (CA-5.1 splits up to half of it)."""
        return len(state.unit(unit_id).alive)

    def model_ids(self, state: BattleState, unit_id: str) -> frozenset[str]:
        """Ids of the unit's models, for hosts whose commands name the models that act."""
        return frozenset(e.id for e in state.unit(unit_id).alive)

    def group_models(self, state: BattleState, command: Command) -> frozenset[str] | None:
        """The models a command names as acting, or None when it names none (all of them)."""
        return None

    def narrow(self, state: BattleState, command: Command, models: frozenset[str]) -> Command:
        """The command limited to `models` (the other group of a split took the rest)."""
        return command

    def refuse_split(self, state: BattleState, unit_id: str, kinds: list[str]) -> str | None:
        """A host limit on what the two groups of a split may do together; a reason, or None."""
        return None

    # --- PREP kept by the host (optional) -----------------------------------------------
    def prep_owed(self, state: BattleState, unit_id: str) -> dict[str, int] | None:
        """The host's own reload counters as weapon -> actions owed, if it keeps them;
        None: the scheme's own PREP bookkeeping (from `weapons`) is the truth."""
        return None

    def prep(self, state: BattleState, unit_id: str, weapon: str) -> None:
        """A Special "prep" action on `weapon`: lower the host's counter, if it keeps one."""

    def on_turn_end(self, state: BattleState, side: str, ctx: Context) -> Resolution:
        """The host's end-of-turn clocks for `side` (once per card turn)."""
        yield from self.rules.on_turn_end(state, side, ctx)

    # --- resolution -------------------------------------------------------------------------
    def resolve(self, state: BattleState, command: Command, ctx: Context, modifier: FlatModifier) -> Resolution:
        """Resolve one action with the scheme's flat modifier added to every attack die."""
        state.scheme[MODIFIER_KEY] = hand_over(command, modifier.total)
        try:
            yield from self.rules.resolve(state, command, ctx)
        finally:
            state.scheme.pop(MODIFIER_KEY, None)

    def odds(self, state: BattleState, command: Command, modifier: FlatModifier) -> AttackOdds | OddsReport:
        """The rules' exact odds for `command` with the card modifier (same hand-over as
        `resolve`); the state is left as it was."""
        state.scheme[MODIFIER_KEY] = hand_over(command, modifier.total)
        try:
            return self.rules.odds(state, command)
        finally:
            state.scheme.pop(MODIFIER_KEY, None)

    def rally(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        """The forced Rally (CA-6.1): the host's morale check. Returns True on a pass.
        Default: one d6, 4+ passes."""
        name = state.unit(unit_id).name
        (face,) = yield RollRequest(6, 1, f"1 x d6 rally, {name}", side=state.unit(unit_id).side)
        return face >= 4

    def routed(self, state: BattleState, unit_id: str) -> bool:
        """Whether host morale has routed the unit (read after every action)."""
        return bool(state.unit(unit_id).markers.get("routed", False))

    def standing(self, state: BattleState, unit: UnitState) -> tuple[bool, dict[str, int] | None, bool]:
        """What the scheme reads back after every action, for every unit: whether it still
        takes part (not eliminated, `is_unit`), and if so its `prep_owed` and `routed`.
        One call for the three: a host may answer them with one look at the unit."""
        if unit.eliminated or not self.is_unit(state, unit.id):
            return False, None, False
        return True, self.prep_owed(state, unit.id), self.routed(state, unit.id)

    def set_routed(self, state: BattleState, unit_id: str, routed: bool) -> None:
        markers = state.unit(unit_id).markers
        if routed:
            markers["routed"] = True
        else:
            markers.pop("routed", None)

    def eliminate(self, state: BattleState, unit_id: str, ctx: Context) -> None:
        """Remove a unit that failed its rally at its own board edge (CA-6.4)."""
        state.unit(unit_id).markers["removed"] = True
        liveness_changed()


def host_for(rules: BattleRules, options: dict[str, Any] | None = None) -> CardHost:
    """The rules' own host (BattleRules.scheme_host), else the generic CardHost."""
    return scheme_adapter(rules, SCHEME_NAME, CardHost, options, CardHost)
