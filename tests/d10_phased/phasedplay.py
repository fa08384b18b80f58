"""A deterministic bot for d10 battles on the core's phased turn, through the Battle API:
the phase's own commands come from `autoplay.act`, every other question from
`autoplay.answer`, and the end-of-game reports from the card bot's table facts."""

from __future__ import annotations

from campaign.activation.phased import phase_view
from campaign.engine.battle import Battle
from campaign.engine.commands import Pass
from campaign.engine.pending import Decision
from campaign.rulesets.d10_phased.autoplay import act, answer
from campaign.rulesets.d10_phased.commands import Report
from campaign.rulesets.d10_phased.phased_host import D10Turn

PHASE_COMMANDS = ("move", "declare", "use_special")


def step(battle: Battle) -> None:
    pending = battle.pending
    assert isinstance(pending, Decision), "auto dice answer every roll"
    game = battle.rules.game(battle.state)  # type: ignore[attr-defined]
    types = {s.type for s in pending.legal}
    if types & set(PHASE_COMMANDS):
        view = phase_view(battle.state)
        assert view is not None
        phase = battle.state.scheme["phased"]["phase"]
        command = act(battle.rules.play, game, phase, pending.side)  # type: ignore[attr-defined]
        if command is not None:
            try:
                battle.apply(command)
                return
            except Exception:  # a move the table does not allow: end the phase instead
                pass
        battle.apply({"type": "end_phase"} if "end_phase" in types else Pass())
        return
    for spec in pending.legal:
        names = {f.name for f in spec.facts}
        if spec.type == "report" and "points" in names:  # each side's survivors hold its own half
            alive = {s: len(game.roster.side_models(s)) for s in game.sides}
            a, b = game.sides
            battle.apply(Report(facts={"points": {"Q1": {a: alive[a]}, "Q2": {a: alive[a]}, "Q3": {b: alive[b]}, "Q4": {a: 0, b: 0}}}))
            return
        if spec.type == "report" and "markers" in names:
            a, b = game.sides
            battle.apply(Report(facts={"markers": {"1": [a], "2": [b], "3": [], "4": [a, b]}}))
            return
    battle.apply(answer(pending))


def play_out(battle: Battle, limit: int = 5000) -> Battle:
    assert isinstance(battle.scheme.host(battle.ctx), D10Turn)  # type: ignore[attr-defined]
    for _ in range(limit):
        if battle.is_over:
            return battle
        step(battle)
    raise AssertionError("the battle did not end")
