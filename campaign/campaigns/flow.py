"""The campaign flow's first and in-between steps: create and check a campaign, the
ruleset's price and battle options, and reinforcements between battles.

The other steps have their own modules, loaded when they are taken (a new campaign's
dashboard takes none; issue 17: start-up): `battle_plan` (the next battle), `mustering`
(the forces that take the field) and `after_battle` (the post-battle step).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import attrs

from campaign.campaigns.model import END, Campaign, CampaignRules, Side, Spending, TrackStep
from campaign.activation import DEFAULT_SCHEME
from campaign.force import Force
from campaign.inert_text import control_problem
from campaign.vp import format_vp

SIDE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class CampaignError(ValueError):
    """A campaign step that cannot be taken, with the reason in words."""


# --- creating and checking ------------------------------------------------------


def check_campaign(campaign: Campaign, scenario_ids: set[str] | None = None) -> list[tuple[str, str]]:
    """Problems as (key path, message); empty when the campaign is consistent."""
    problems: list[tuple[str, str]] = []
    ids = [side.id for side in campaign.sides]
    if len(ids) < 2:
        problems.append(("sides", "a campaign needs two or more sides"))
    for i, side in enumerate(campaign.sides):
        if not SIDE_ID.match(side.id):
            problems.append((f"sides[{i}].id", f"{side.id!r} is not a short lower-case id (letters, digits, - and _)"))
        if ids.count(side.id) > 1:
            problems.append((f"sides[{i}].id", f"side {side.id!r} appears twice"))
    steps = [step.id for step in campaign.track]
    if not steps:
        problems.append(("track", "the scenario track is empty"))
    targets = set(steps) | {END}
    for i, step in enumerate(campaign.track):
        if steps.count(step.id) > 1:
            problems.append((f"track[{i}].id", f"step {step.id!r} appears twice"))
        if scenario_ids is not None and step.scenario not in scenario_ids:
            problems.append((f"track[{i}].scenario", f"no scenario {step.scenario!r} in the library or the campaign"))
        if step.next and step.next not in targets:
            problems.append((f"track[{i}].next", f"no step {step.next!r} in the track"))
        for j, branch in enumerate(step.branches):
            if branch.when not in (*ids, "draw"):
                problems.append((f"track[{i}].branches[{j}].when", f"{branch.when!r} is neither a side nor \"draw\""))
            if branch.goto not in targets:
                problems.append((f"track[{i}].branches[{j}].goto", f"no step {branch.goto!r} in the track"))
    if campaign.position and campaign.position not in steps:
        problems.append(("position", f"no step {campaign.position!r} in the track"))
    from campaign.activation.registry import check_activation, check_scheme_name

    problem = check_activation(campaign.activation, dict(campaign.activation_options), campaign.ruleset)
    if problem:
        bad_name = check_scheme_name(campaign.activation, campaign.ruleset)
        problems.append(("activation_options" if campaign.activation_options and not bad_name else "activation", problem))
    for i, line in enumerate(campaign.ledger):
        if line.side not in ids:
            problems.append((f"ledger[{i}].side", f"no side {line.side!r}"))
    for i, spending in enumerate(campaign.spent):
        if spending.side not in ids:
            problems.append((f"spent[{i}].side", f"no side {spending.side!r}"))
    die, target = campaign.rules.recovery_roll
    if die < 2 or not 1 <= target <= die:
        problems.append(("rules.recovery_target", f"must be between 1 and the recovery die ({die})"))
    return problems


def create_campaign(
    name: str,
    ruleset: str,
    sides: Sequence[Side],
    track: Sequence[TrackStep],
    *,
    edition: str | None = None,
    options: Mapping[str, int | str | bool] | None = None,
    dice: str = "auto",
    activation: str = DEFAULT_SCHEME,
    activation_options: Mapping[str, int | str | bool] | None = None,
    rules: CampaignRules | None = None,
    seed: int = 0,
    scenario_ids: set[str] | None = None,
) -> Campaign:
    if not name.strip():
        raise CampaignError("a campaign needs a name")
    for label, typed in [("the campaign's name", name), *((f"side {s.id}", s.name) for s in sides)]:
        problem = control_problem(typed)  # typed names only; a file's are shown inert instead
        if problem:
            raise CampaignError(f"{label}: {problem}")
    if dice not in ("auto", "table"):
        raise CampaignError(f"dice mode must be auto or table, not {dice!r}")
    campaign = Campaign(
        name=name,
        ruleset=ruleset,
        edition=edition,
        options=dict(options or {}),
        sides=tuple(sides),
        track=tuple(track),
        dice=dice,  # type: ignore[arg-type]
        activation=activation,
        activation_options=dict(activation_options or {}),
        rules=rules or CampaignRules(),
        position=track[0].id if track else "",
        seed=seed,
    )
    problems = check_campaign(campaign, scenario_ids)
    if problems:
        raise CampaignError("; ".join(f"{key}: {msg}" for key, msg in problems))
    return campaign


def ruleset_price(campaign: Campaign) -> Callable[[Force], float]:
    """The campaign's ruleset pricing a force (what `muster` checks the points limit with)."""
    from campaign.rulesets import get_ruleset

    ruleset = get_ruleset(campaign.ruleset, campaign.edition, **campaign.options)
    return lambda force: ruleset.price(force).total


def battle_options(campaign: Campaign) -> dict[str, int | str | bool]:
    """The ruleset options a new battle of the campaign records: the campaign's, plus any
    its ruleset stamps on new battles only (`Ruleset.new_battle_options`)."""
    from campaign.rulesets import get_ruleset

    ruleset = get_ruleset(campaign.ruleset, campaign.edition, **campaign.options)
    return ruleset.new_battle_options(campaign.options)


# --- between battles: reinforcements -----------------------------------------------


def reinforcement_cost(
    campaign: Campaign, before: Force, after: Force, price: Callable[[Force], float]
) -> Fraction:
    """What an edit to a side's force costs from its bank: the growth of the force's price
    once a battle has been fought (before the first, forces are still being built and
    edits are free; an edit that makes a force cheaper costs nothing and refunds nothing)."""
    if not campaign.history:
        return Fraction(0)
    grown = Fraction(price(after)) - Fraction(price(before))
    return grown if grown > 0 else Fraction(0)


def spend_reinforcements(campaign: Campaign, side_id: str, points: Fraction | int, what: str = "") -> Campaign:
    """Take `points` from a side's bank, recorded in `campaign.spent`. Refused during a
    battle (the battle fights its frozen roster; changes wait for it to end), after the
    campaign, or beyond what the side has banked."""
    points = Fraction(points)
    try:
        side = campaign.side(side_id)
    except KeyError:
        raise CampaignError(f"no side {side_id!r}") from None
    if campaign.battle_in_progress:
        raise CampaignError(
            f"battle {len(campaign.history) + 1} is in progress: reinforcements are spent between battles"
        )
    if campaign.finished:
        raise CampaignError("the campaign has ended: there is nothing left to reinforce for")
    if points <= 0:
        raise CampaignError("nothing to spend: the change does not make the force dearer")
    if points > side.reinforcements:
        raise CampaignError(
            f"{side.name} have {format_vp(side.reinforcements)} reinforcement points banked; "
            f"this costs {format_vp(points)}"
        )
    sides = tuple(
        attrs.evolve(s, reinforcements=s.reinforcements - points) if s.id == side_id else s for s in campaign.sides
    )
    record = Spending(len(campaign.history), side_id, points, what)
    return attrs.evolve(campaign, sides=sides, spent=campaign.spent + (record,))


def force_changes(before: Force, after: Force) -> str:
    """The edit in words, for the spending record: units added, element counts changed."""
    old = {u.name: u for u in before.units}
    parts: list[str] = []
    for unit in after.units:
        if unit.name not in old:
            parts.append(f"new unit {unit.name}")
            continue
        counts = {e.name: e.count for e in old[unit.name].elements}
        for element in unit.elements:
            was = counts.get(element.name)
            if was is None:
                parts.append(f"{unit.name}: new {element.name}" + (f" x{element.count}" if element.count > 1 else ""))
            elif was != element.count:
                parts.append(f"{unit.name}: {element.name} {was} -> {element.count}")
    return "; ".join(parts) or "changes to the force"

