"""The d10 rules' BattleRules: the core's state with the d10 `Game` inside it.

What does not depend on the turn's shape is here: the starting state built from the
forces (model ids are the core's element ids), the command types, odds, the end of the
battle and its outcome, and the core elements kept in step with the d10 records so any
screen sees who is still on the table. The phase hooks come from `play.D10Play`; they
are plugged into the core's phased turn once the core has one (docs/d10-phased.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from campaign.engine.commands import Command
from campaign.engine.errors import IllegalCommand
from campaign.engine.events import Event
from campaign.engine.rules import BattleRules
from campaign.engine.setup import BattleSetup
from campaign.engine.snapshot import register as snapshot_classes
from campaign.engine.state import BattleState, state_from_setup
from campaign.engine.rules import Resolution
from campaign.rulesets.d10_phased.commands import CARD_COMMANDS, COMMANDS, Declare
from campaign.rulesets.d10_phased.forces import RULESET_ID, force_to_army
from campaign.rulesets.d10_phased.odds import DeclarationOdds
from campaign.rulesets.d10_phased.play import D10Play, Game, new_game
from campaign.rulesets.d10_phased import attack, morale
from campaign.rulesets.d10_phased.state import ModelState, Roster, add_unit
from campaign.rulesets.d10_phased.state import UnitState as D10UnitState
from campaign.rulesets.d10_phased.victory import MODES, TURN_LIMIT, Verdict

if TYPE_CHECKING:
    from campaign.activation.cards.host import CardHost
    from campaign.activation.phased.host import PhasedHost
    from campaign.engine.context import Context
    from campaign.outcome import BattleOutcome

GAME = "d10"  # the key of the Game in BattleState.data


def roster_from_setup(setup: BattleSetup, state: BattleState) -> Roster:
    """One ModelState per core element, matched to the force's models in order."""
    roster = Roster()
    for side in setup.sides:
        army, found = force_to_army(side.force)
        errors = [f for f in found if f.severity == "error"]
        if errors:
            raise IllegalCommand(errors[0].rule, f"{side.force.name}: {errors[0].path}: {errors[0].message}")
        core_units = [u for u in state.units if u.side == side.id]
        for unit, core in zip(army.units, core_units, strict=True):
            add_unit(roster, unit, side.id, core.id, [e.id for e in core.elements])
    return roster


# The records the game keeps in the state (state.data[GAME]): checkpoints and the snapshot
# cache may hold them (campaign.engine.snapshot)
snapshot_classes(Game, Roster, ModelState, D10UnitState, attack.Contribution, attack.DiceGroup, attack.Declaration,
                 attack.Hits, attack.Pending, attack.Ledger, morale.Check, morale.MoraleFacts, Verdict)


class D10Rules(BattleRules):
    id = RULESET_ID
    snapshots = True  # the game lives in state.data[GAME]; D10Play keeps only its options

    def __init__(self, options: dict[str, Any] | None = None, ruleset: Any = None) -> None:
        super().__init__(options, ruleset)
        self.play = D10Play(self.options)

    # --- building the battle --------------------------------------------------------
    def new_state(self, setup: BattleSetup) -> BattleState:
        state = state_from_setup(setup)
        victory = setup.scenario.victory if setup.scenario.victory in MODES else ""
        limit = setup.scenario.rounds or int(self.options.get("turn_limit", TURN_LIMIT))
        game = new_game(roster_from_setup(setup, state), [s.id for s in setup.sides], victory, limit)
        game.names = {s.id: s.name for s in setup.sides}
        state.data[GAME] = game
        return state

    def command_types(self) -> Iterable[type[Command]]:
        return (*COMMANDS, *CARD_COMMANDS)

    def scheme_host(self, scheme: str, options: dict[str, Any]) -> CardHost | PhasedHost | None:
        if scheme == "cards":
            from campaign.rulesets.d10_phased.card_host import D10CardHost

            return D10CardHost(self, options)
        if scheme == "phased":
            from campaign.rulesets.d10_phased.phased_host import D10Turn

            return D10Turn(self, options)
        return None

    # --- a turn: the card scheme's rounds are d10 turns --------------------------------
    def on_round_start(self, state: BattleState, ctx: Context) -> Resolution:
        from campaign.rulesets.d10_phased.upkeep import start_turn

        game = self.game(state)
        start_turn(game.roster)
        game.turn += 1
        return
        yield  # pragma: no cover

    def on_activation_start(self, state: BattleState, unit_id: str, ctx: Context) -> Resolution:
        """Under the card deck: command control for the unit about to act (7.4)."""
        if "cards" not in state.scheme:
            return
        from campaign.rulesets.d10_phased.card_host import D10CardHost

        yield from D10CardHost(self, {}).activation_start(state, unit_id, ctx)

    def on_round_end(self, state: BattleState, ctx: Context) -> Resolution:
        yield from self.play.turn_end(self.game(state), ctx.emit)
        self.sync(state)

    @staticmethod
    def game(state: BattleState) -> Game:
        game = state.data[GAME]
        assert isinstance(game, Game)
        return game

    def sync(self, state: BattleState) -> None:
        """Mirror the d10 records on the core's elements: alive, and the marker shown."""
        roster = self.game(state).roster
        for unit in state.units:
            for element in unit.elements:
                model = roster.models.get(element.id)
                if model is None:
                    continue
                # written only when it differs: each write of `alive` moves the liveness epoch
                # (campaign.engine.state), which every cache of who stands is keyed on, and this
                # runs for every model after every step
                if element.alive != model.alive:
                    element.alive = model.alive
                markers = element.markers
                for key, on in (("pinned", model.marker == "pinned"), ("routed", model.marker == "routed"), ("out_of_command", model.out_of_command)):
                    if on:
                        if markers.get(key) is not True:
                            markers[key] = True
                    elif key in markers:
                        del markers[key]

    # --- display ----------------------------------------------------------------------
    def describe_unit(self, state: BattleState, unit_id: str) -> Any:
        """Grade, the leader, and a line per living model: its dice and hits left,
        markers, out of command, pending hits this phase, critical flags."""
        from campaign.engine.display import UnitView

        game = self.game(state)
        unit = game.roster.units[unit_id]
        status = [unit.grade] + (["character"] if unit.character else [])
        if unit.checked_this_turn:
            status.append("checked morale")
        lines = []
        for model in game.roster.members(unit_id):
            dice = ", ".join(f"{'close' if w == 'close' else w} {n}" for w, n in model.attack.items())
            words = [f"{dice}; save {model.save}; hits {model.hits_left}/{model.hits}"]
            if model.id == unit.leader and not unit.character:
                words.append("leader")
            words += [w for w, on in ((model.marker, bool(model.marker)), ("out of command", model.out_of_command)) if on]
            pending = game.ledger.pending.get(model.id)
            if pending and pending.hits:
                words.append(f"{pending.hits} hit(s) pending")
            if model.crit_no_move:
                words.append("no move (critical)")
            if model.crit_no_attack_turn is not None and model.crit_no_attack_turn >= game.turn:
                words.append(f"no attacks turn {model.crit_no_attack_turn} (critical)")
            # a line saying more than the profile names the model ("Legionary 3"); plain
            # lines keep the bare name, so the panel can fold namesakes into "7x Legionary"
            lines.append(f"{model.label if len(words) > 1 else model.name}: " + "; ".join(words))
        return UnitView(tuple(status), tuple(lines))

    # --- odds -----------------------------------------------------------------------
    def odds(self, state: BattleState, command: Command) -> DeclarationOdds:  # type: ignore[override]
        if not isinstance(command, Declare):
            raise IllegalCommand("odds", f"the d10 rules give odds for declare, not {command.type}")
        game = self.game(state)
        attackers = command.attackers
        if not attackers or attackers[0] not in game.roster.models:
            raise IllegalCommand("odds", "name the attacking models")
        side = game.roster.model(attackers[0]).side
        return self.play.odds(game, side, command)

    def odds_observed(self, before: BattleState, after: BattleState, command: Command,
                      events: Sequence[Event]) -> dict[str, int] | None:
        """An attack's outcomes on its target model, read off the damage report: a card action's
        at once (7.4), a declaration's when the phase ends (the saves are rolled there,
        AMB-17), so not settled before the next phase begins."""
        if command.type not in ("declare", "fire", "close"):
            return {}
        if command.type == "declare" and not any(e.kind == "phase" for e in events) and not after.over:
            return None
        target = getattr(command, "target", "")
        report = next((e for e in events if e.kind in ("damage", "destroyed") and e.data.get("model") == target), None)
        if report is None:  # no hit and nothing owed: no save roll, no report
            return {"removed": 0, "hits": 0, "unsaved": 0, "absorbed": 0, "critical": 0}
        destroyed = report.kind == "destroyed"
        unsaved = int(report.data["unsaved"])
        return {"removed": int(destroyed), "hits": int(report.data["hits"]), "unsaved": unsaved,
                "absorbed": 0 if destroyed else unsaved, "critical": int(not destroyed and bool(report.data["criticals"]))}

    def odds_query(self, state: BattleState, unit_id: str, target_id: str, action: str, facts: dict[str, Any]) -> Command:
        """`muster odds`: every living model of the unit declares on the target unit's first
        living model (or `target_model`). `action` is fire or close. Facts: `modifiers`
        (a list, before the cap), `attacker_state` (pinned or routed) and `out_of_command`
        set the attackers' state in this throwaway battle; `contact` names how many models
        touch the target; the rest are the shot's facts (situation.FIRE_FACTS)."""
        if action not in ("fire", "close"):
            raise IllegalCommand("odds", f"the d10 rules take --action fire or close, not {action!r}")
        game = self.game(state)
        facts = dict(facts)
        raw = facts.pop("modifiers", [])
        try:
            mods = [int(m) for m in (raw if isinstance(raw, list) else [raw])]
        except (TypeError, ValueError):
            raise IllegalCommand("odds", f"modifiers must be whole numbers, not {raw!r}") from None
        marker = facts.pop("attacker_state", "")
        if marker not in ("", "none", "pinned", "routed"):
            raise IllegalCommand("odds", f"attacker_state is pinned or routed, not {marker!r}")
        out = facts.pop("out_of_command", False)
        if not isinstance(out, bool):
            raise IllegalCommand("odds", f"out_of_command is true or false, not {out!r}")
        wanted = str(facts.pop("target_model", ""))
        touching = facts.pop("contact", 0)
        if isinstance(touching, bool) or not isinstance(touching, int) or touching < 0:
            raise IllegalCommand("odds", f"contact is how many models touch the target, not {touching!r}")
        attackers = game.roster.members(unit_id)
        targets = game.roster.members(target_id)
        if not attackers or not targets:
            raise IllegalCommand("odds", "both units need a model on the table")
        target = next((m for m in targets if wanted in (m.id, m.name)), targets[0]) if wanted else targets[0]
        for m in attackers:
            m.marker = "" if marker == "none" else marker
            m.out_of_command = out
        others = [m.id for m in targets if m.id != target.id][:touching]
        facts["bonus"] = sum(m for m in mods if m > 0) + int(facts.get("bonus", 0))
        facts["penalty"] = -sum(m for m in mods if m < 0) + int(facts.get("penalty", 0))
        from campaign.rulesets.d10_phased.commands import Declare

        return Declare(target=target.id, attackers=[m.id for m in attackers], close=action == "close", contact=others, facts=facts)

    # --- the end ----------------------------------------------------------------------
    def is_over(self, state: BattleState) -> bool:
        return self.play.is_over(self.game(state))

    def end_reason(self, state: BattleState) -> str:
        verdict = self.game(state).verdict
        return verdict.reason if verdict else ""

    def victory_points(self, state: BattleState) -> dict[str, Fraction]:
        """No points in these rules: the winner of the victory condition scores 1. A battle
        with no d10 victory condition (an open field) scores the enemy models each side
        removed (our ruling: the sources always name a condition)."""
        game = self.game(state)
        if not game.victory:
            lost = game.lost()
            return {s.id: Fraction(sum(n for other, n in lost.items() if other != s.id)) for s in state.sides}
        verdict = game.verdict
        return {s.id: Fraction(1 if verdict and verdict.winner == s.id else 0) for s in state.sides}

    def outcome(self, state: BattleState) -> BattleOutcome:
        import attrs

        from campaign.outcome import Casualty

        base = super().outcome(state)
        game = self.game(state)
        sides = []
        for side in base.sides:
            lost: list[Casualty] = []
            for unit in state.units:
                if unit.side != side.side:
                    continue
                per_entry: dict[int, int] = {}
                for element in unit.elements:
                    if not game.roster.model(element.id).alive:
                        per_entry[element.entry] = per_entry.get(element.entry, 0) + 1
                names = {e.entry: e.name for e in unit.elements}
                lost += [Casualty(unit.name, names[i], i, n) for i, n in sorted(per_entry.items())]
            sides.append(attrs.evolve(side, casualties=tuple(lost)))
        winner = game.verdict.winner if game.verdict else None
        return attrs.evolve(base, sides=tuple(sides), strategic_winner=winner or None, rounds_played=game.turn)
