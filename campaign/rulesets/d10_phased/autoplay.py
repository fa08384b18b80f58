"""A plain, deterministic player for d10 battles: for demos, simulations and tests.

It answers every Decision the d10 hooks ask with a legal command: no Super Initiative,
the sides' leaders kept, no op fire, never running away; it moves each model a few
inches over clear ground and aims each attack at the nearest-named enemy with every
model still able to attack. It reads only the Game and the Decision, never the dice.
`play_out` drives a whole battle on the phased turn through the Battle API (the
`muster simulate` player); `ASSUMPTIONS` are the table facts it takes for granted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.engine.commands import Choose, Command, Pass
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from campaign.rulesets.d10_phased.commands import Declare, Move, Report
from campaign.rulesets.d10_phased.play import D10Play, Game

if TYPE_CHECKING:
    from campaign.engine.battle import Battle

STEP = 3  # inches a model advances each movement phase
PHASE_COMMANDS = ("move", "declare", "use_special")
ASSUMPTIONS = (
    f"every model walks {STEP} inches of clear ground a movement phase",
    "close fighters reach an untouched enemy from turn 2",
    "every shot in the open: in range, no cover, gaps or modifiers",
    "no Super Initiative, op fire, running away or specials",
    "Position and Objectives: each side holds its own half",
    "no victory condition: more enemy models removed wins",
)


def answer(decision: Decision) -> Command:
    """A legal answer to a Decision the hooks raised (not the phase's own commands)."""
    for spec in decision.legal:
        if spec.type == "choose" and spec.params.get("option") in ("no", "keep"):
            return Choose(option=spec.params["option"])
    for spec in decision.legal:
        if spec.type == "pass":
            return Pass()
    spec = decision.legal[0]
    if spec.type == "choose":
        return Choose(option=spec.params["option"])
    if spec.type == "report":
        return Report(facts={})
    raise ValueError(f"autoplay has no answer for {decision.prompt!r}")


def act(rules: D10Play, game: Game, phase: str, side: str) -> Command | None:
    """The side's next command in a phase, or None to pass / end the phase."""
    legal = rules.legal(game, phase, side)
    if not legal:
        return None
    spec = legal[0]
    if spec.type == "move":
        model = game.roster.model(spec.params["model"])
        contacts: list[str] = []
        if not _ranged(model) and game.turn >= 2:
            # from the second turn, close fighters reach the first enemy nobody touches yet
            free = [m.id for m in rules.targets(game, side) if not game.touching(m.id)]
            contacts = free[:1]
        return Move(model=model.id, path=[f"clear {min(STEP, model.move)}"], contacts=contacts)
    if spec.type == "use_special":
        return None  # the smoke stays in its pots
    if spec.type == "declare":
        able = rules.attackers(game, phase, side)
        open_targets = {m.id for m in rules.targets(game, side)}
        for model in able:  # close fighters first, at a model they touch
            touched = [t for t in game.touching(model.id) if t in open_targets]
            if not _ranged(model) and touched and model.attack.get("close"):
                return Declare(target=touched[0], attackers=[model.id], close=True)
        shooters = [m.id for m in able if _ranged(m)][:2]
        if shooters:
            return Declare(target=sorted(open_targets)[0], attackers=shooters)
    return None


def _ranged(model: Any) -> bool:
    return any(w != "close" and n for w, n in model.attack.items())



def table_report(decision: Decision, game: Game) -> Report | None:
    """The end-of-game facts, as the open field has them: each side's survivors hold its own
    half (Battle of Position quadrants, Objectives markers)."""
    for spec in decision.legal:
        names = {f.name for f in spec.facts}
        a, b = game.sides
        if spec.type == "report" and "points" in names:
            alive = {s: len(game.roster.side_models(s)) for s in game.sides}
            return Report(facts={"points": {"Q1": {a: alive[a]}, "Q2": {a: alive[a]}, "Q3": {b: alive[b]}, "Q4": {a: 0, b: 0}}})
        if spec.type == "report" and "markers" in names:
            return Report(facts={"markers": {"1": [a], "2": [b], "3": [], "4": [a, b]}})
    return None


def step(battle: Battle) -> None:
    """Answer the battle's pending Decision (auto dice answer every roll)."""
    pending = battle.pending
    if not isinstance(pending, Decision):
        raise ValueError("the d10 autoplayer needs auto dice")
    rules: Any = battle.rules
    game: Game = rules.game(battle.state)
    types = {s.type for s in pending.legal}
    if types & set(PHASE_COMMANDS):
        command = act(rules.play, game, battle.state.scheme["phased"]["phase"], pending.side)
        if command is not None:
            try:
                battle.apply(command)
                return
            except IllegalCommand:  # a move the table does not allow: end the phase instead
                pass
        battle.apply({"type": "end_phase"} if "end_phase" in types else Pass())
        return
    battle.apply(table_report(pending, game) or answer(pending))


def play_out(battle: Battle, seed: int = 0, limit: int = 20_000) -> Battle:
    """Play a started d10 battle on the phased turn to its end (`seed` is not needed: the
    player is deterministic and the dice are the battle's own)."""
    if "phased" not in battle.state.scheme:
        raise ValueError("the d10 autoplayer plays the phased turn")
    for _ in range(limit):
        if battle.is_over:
            return battle
        step(battle)
    return battle
