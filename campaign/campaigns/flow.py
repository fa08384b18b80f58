"""The campaign flow: create, plan and muster a battle, then the post-battle step."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import attrs

from campaign.campaigns.model import (
    END,
    Campaign,
    CampaignRules,
    HistoryEntry,
    LedgerLine,
    Side,
    Spending,
    TrackStep,
)
from campaign.campaigns.scenario import Scenario
from campaign.activation import DEFAULT_SCHEME
from campaign.findings import Finding, named
from campaign.force import Element, Force, Unit
from campaign.frozen import frozen
from campaign.inert_text import control_problem
from campaign.vp import format_vp

if TYPE_CHECKING:  # the post-battle step imports them: a new campaign has no battle yet
    from campaign.outcome import BattleOutcome, Casualty, SideOutcome

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


# --- the next battle ------------------------------------------------------------


@frozen
class BattlePlan:
    number: int
    step: str
    scenario: Scenario
    file: str  # battles/NN-<scenario>.toml
    seed: int
    roles: dict[str, str]  # side id -> the scenario's role for it ("attacker"...)
    activation: str = DEFAULT_SCHEME  # the scenario's scheme, else the campaign's
    activation_options: dict[str, int | str | bool] = attrs.field(factory=dict)

    @property
    def points_limit(self) -> int | None:
        return self.scenario.points_limit


def battle_seed(campaign: Campaign, number: int) -> int:
    return (campaign.seed * 1_000_003 + number * 7_919) % 2**31


def plan_battle(campaign: Campaign, scenarios: Mapping[str, Scenario]) -> BattlePlan:
    if campaign.finished:
        raise CampaignError("the campaign has ended: its track has no more battles")
    step = campaign.step(campaign.position)
    try:
        scenario = scenarios[step.scenario]
    except KeyError:
        raise CampaignError(f"step {step.id!r} names scenario {step.scenario!r}, which is not available") from None
    number = len(campaign.history) + 1
    roles = {side.id: role for side, role in zip(campaign.sides, scenario.roles)}
    activation, activation_options = activation_for(campaign, scenario)
    return BattlePlan(
        number=number,
        step=step.id,
        scenario=scenario,
        file=f"battles/{number:02d}-{scenario.id}.toml",
        seed=battle_seed(campaign, number),
        roles=roles,
        activation=activation,
        activation_options=activation_options,
    )


def activation_for(campaign: Campaign, scenario: Scenario) -> tuple[str, dict[str, int | str | bool]]:
    """The activation scheme a battle of `scenario` uses: the scenario's own when it names
    one (with its options), else the campaign's default. A bad choice is a CampaignError."""
    from campaign.activation.registry import check_activation

    if scenario.activation:
        name, options, source = scenario.activation, dict(scenario.activation_options), f"scenario {scenario.id!r}"
    else:
        name, options, source = campaign.activation, dict(campaign.activation_options), "the campaign"
    problem = check_activation(name, options)
    if problem:
        raise CampaignError(f"{source}: {problem}")
    return name, options


def surviving(unit: Unit) -> list[int]:
    """Indices of the unit's element entries that still have elements alive."""
    return [i for i, element in enumerate(unit.elements) if element.alive > 0]


def fielded(unit: Unit) -> Unit:
    """The unit as it takes the field: lost elements left behind, counts reduced."""
    return attrs.evolve(
        unit,
        elements=tuple(attrs.evolve(unit.elements[i], count=unit.elements[i].alive, lost=0) for i in surviving(unit)),
    )


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


@frozen
class MusterCheck:
    """Whether a mustered force may take the field, and if not, why (in words)."""

    total: float | None  # its price (None when no price was given)
    limit: int | None  # the scenario's points limit
    refusals: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.refusals


def check_muster(
    plan: BattlePlan,
    mustered: Force,
    price: Callable[[Force], float] | None = None,
    findings: Callable[[Force], Sequence[Finding]] | None = None,
) -> MusterCheck:
    """The scenario's points limit and the ruleset's error findings, as reasons to refuse."""
    refusals: list[str] = []
    total = price(mustered) if price is not None else None
    limit = plan.points_limit
    if total is not None and limit is not None and total > limit:
        refusals.append(
            f"{mustered.name} musters {total:g} points, over the scenario's limit of {limit} by {total - limit:g}"
        )
    for finding in named(mustered, list(findings(mustered))) if findings is not None else []:
        if finding.severity == "error" and finding.rule != "FOW 19 points limit":  # the limit is the scenario's
            where = f"{finding.where}: " if finding.where else ""
            refusals.append(f"{where}{finding.message} ({finding.rule})")
    return MusterCheck(total, limit, tuple(refusals))


def muster(
    plan: BattlePlan,
    force: Force,
    units: Sequence[str] | None = None,
    price: Callable[[Force], float] | None = None,
    *,
    findings: Callable[[Force], Sequence[Finding]] | None = None,
    override: str = "",
) -> Force:
    """The force a side takes into the battle: chosen units, survivors only, within the limit.

    `units` None takes every unit with survivors. `price` (a ruleset's cost of a force)
    checks the scenario's points limit and `findings` (a ruleset's validate) the errors;
    without them nothing is checked. A force over the limit or with error findings is
    refused with the reasons, unless `override` says why it may muster anyway (a house
    rule); the caller logs that reason with the battle (BattleSide.override).
    """
    names = [u.name for u in force.units if surviving(u)] if units is None else list(units)
    chosen: list[Unit] = []
    for name in names:
        try:
            unit = force.unit(name)
        except KeyError:
            raise CampaignError(f"{force.name} has no unit named {name!r}") from None
        if not surviving(unit):
            raise CampaignError(f"{name!r} has no elements left to field")
        if any(u.name == name for u in chosen):
            raise CampaignError(f"{name!r} is mustered twice")
        chosen.append(fielded(unit))
    if not chosen:
        raise CampaignError(f"{force.name} musters no units")
    mustered = attrs.evolve(force, units=tuple(chosen), points_limit=plan.points_limit)
    check = check_muster(plan, mustered, price, findings)
    if not check.ok and not override.strip():
        raise CampaignError("; ".join(check.refusals) + " (an override with a reason lets it muster as a house rule)")
    return mustered


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


# --- after the battle -----------------------------------------------------------


@frozen
class PostBattle:
    campaign: Campaign
    forces: dict[str, Force]
    entry: HistoryEntry
    events: tuple[str, ...]  # readable lines: VPs, losses, recoveries, the next step


def _took_the_field(roster: Force | None, c: Casualty) -> bool:
    """The casualty names an element of the frozen roster the battle was fought with."""
    if roster is None:
        return False
    unit = next((u for u in roster.units if u.name == c.unit), None)
    return unit is not None and 0 <= c.index < len(unit.elements) and unit.elements[c.index].name == c.element


def _casualty_slots(
    force: Force, outcome_side: SideOutcome, roster: Force | None = None
) -> tuple[list[tuple[int, int, Casualty]], list[Casualty]]:
    """Each casualty mapped onto the campaign force as (unit index, element index,
    casualty), and the casualties that no longer have a place in it.

    The outcome's element index is its position among the elements that took the field
    (see `fielded`); it maps back through `surviving`. `roster` is the force as it was
    mustered (the battle file's setup): an element of it renamed in the force file since
    is found by its position, and one removed since is left out (the caller says so)
    instead of refusing the whole post-battle step. Without a roster, or for a casualty
    the roster does not hold, a name that matches nothing is an error.
    """
    slots: list[tuple[int, int, Casualty]] = []
    gone: list[Casualty] = []
    for c in outcome_side.casualties:
        fought = _took_the_field(roster, c)
        ui = next((i for i, u in enumerate(force.units) if u.name == c.unit), None)
        if ui is None:
            if fought:
                gone.append(c)
                continue
            raise CampaignError(f"the outcome names unit {c.unit!r}, which {force.name} does not have")
        unit = force.units[ui]
        live = surviving(unit)
        at = live[c.index] if 0 <= c.index < len(live) else None
        ei = at if at is not None and unit.elements[at].name == c.element else None
        if ei is None:
            ei = next((i for i in live if unit.elements[i].name == c.element), None)
        if ei is None and fought:
            ei = at  # renamed in the force file since the muster: the same place
        if ei is None:
            if fought:
                gone.append(c)
                continue
            raise CampaignError(f"the outcome names element {c.element!r} of {c.unit!r}, which is not in the field")
        slots.append((ui, ei, c))
    return slots, gone


def recovery_dice_needed(
    campaign: Campaign,
    forces: Mapping[str, Force],
    outcome: BattleOutcome,
    mustered: Mapping[str, Force] | None = None,
) -> dict[str, int]:
    """How many recovery dice each side rolls after this battle (0 when the rule is off).

    `mustered`: each side's frozen roster from the battle file (see `post_battle`)."""
    needed = {side.id: 0 for side in campaign.sides}
    if not campaign.rules.recovery_rolls:
        return needed
    for side_out in outcome.sides:
        force = forces[side_out.side]
        slots, _gone = _casualty_slots(force, side_out, (mustered or {}).get(side_out.side))
        for ui, ei, c in slots:
            element = force.units[ui].elements[ei]
            needed[side_out.side] += min(c.lost, element.alive)
    return needed


def _replace_element(force: Force, ui: int, ei: int, element: Element) -> Force:
    unit = force.units[ui]
    elements = unit.elements[:ei] + (element,) + unit.elements[ei + 1 :]
    units = force.units[:ui] + (attrs.evolve(unit, elements=elements),) + force.units[ui + 1 :]
    return attrs.evolve(force, units=units)


def _next_step(campaign: Campaign, step: TrackStep, winner: str | None) -> str:
    result = winner or "draw"
    for branch in step.branches:
        if branch.when == result:
            return branch.goto
    if step.next:
        return step.next
    ids = [s.id for s in campaign.track]
    i = ids.index(step.id)
    return ids[i + 1] if i + 1 < len(ids) else END


def _known(scenario: Scenario, name: str) -> bool:
    try:
        scenario.objective(name)
    except KeyError:
        return False
    return True


def post_battle(
    campaign: Campaign,
    scenario: Scenario,
    forces: Mapping[str, Force],
    outcome: BattleOutcome,
    *,
    file: str = "",
    strategic_winner: str | None = None,
    declared_objectives: Mapping[str, Sequence[str]] | None = None,
    recovery_faces: Mapping[str, Sequence[int]] | None = None,
    scenario_names: Mapping[str, str] | None = None,
    mustered: Mapping[str, Force] | None = None,
) -> PostBattle:
    """Everything after a battle, in one step, without side effects.

    `mustered` (side id -> the force as it took the field, from the battle file) lets
    losses land on a force file edited during the battle: see `_casualty_slots`.

    `scenario_names` (scenario id -> name) lets the events name the next scenario.

    VPs (the outcome's, plus the scenario VPs of objectives the players declare taken),
    the winner (declared strategic winner, else most VPs), losses written into the
    forces, recovery rolls (faces given, one per element lost, in outcome order),
    healing, reinforcements, honours, the ledger, the history line and the next step.
    """
    from campaign.outcome import VPLine  # loaded already: whoever made `outcome` imported it

    if campaign.finished:
        raise CampaignError("the campaign has ended")
    ids = [side.id for side in campaign.sides]
    seen = [s.side for s in outcome.sides]
    if sorted(seen) != sorted(ids):
        raise CampaignError(f"the outcome has sides {seen}, the campaign has {ids}")
    for side_id in ids:
        if side_id not in forces:
            raise CampaignError(f"no force for side {side_id!r}")
    declared = {k: list(v) for k, v in (declared_objectives or {}).items()}
    for side_id, objective_names in declared.items():
        if side_id not in ids:
            raise CampaignError(f"objectives declared for unknown side {side_id!r}")
        for name in objective_names:
            try:
                scenario.objective(name)
            except KeyError:
                raise CampaignError(f"{scenario.name} has no objective {name!r}") from None
    merged: dict[str, list[str]] = {s.side: [line.label.removeprefix("objective ") for line in s.vp_lines
                                             if line.kind == "objective"] for s in outcome.sides}
    for side_id, objective_names in declared.items():
        merged.setdefault(side_id, []).extend(n for n in objective_names if n not in merged[side_id])
    clash = scenario.claim_problem({k: [n for n in v if _known(scenario, n)] for k, v in merged.items()})
    if clash:
        raise CampaignError(clash)
    strategic = strategic_winner or outcome.strategic_winner
    if strategic is not None and strategic not in ids:
        raise CampaignError(f"strategic winner {strategic!r} is not a side")

    rules = campaign.rules
    recovery_die, recovery_target = rules.recovery_roll
    number = len(campaign.history) + 1
    events: list[str] = []

    # VPs: the outcome's lines, then declared objectives the outcome did not already score.
    lines: dict[str, list[VPLine]] = {s.side: list(s.vp_lines) for s in outcome.sides}
    if rules.declared_objective_vps:
        for side_id, objective_names in declared.items():
            scored = {line.label.removeprefix("objective ") for line in lines[side_id] if line.kind == "objective"}
            for name in objective_names:
                if name not in scored:
                    lines[side_id].append(VPLine(name, scenario.objective(name).vp, "objective"))
    vps = {side_id: sum((line.vp for line in lines[side_id]), Fraction(0)) for side_id in ids}
    how: str
    if strategic is not None:
        winner: str | None = strategic
        how = scenario.victory if scenario.victory != "vp" else "strategic"
    elif scenario.victory in ("position", "objectives", "sudden-death"):
        # These are won by the position on the table, never by VPs: nobody named means a draw.
        winner, how = None, ""
    else:
        best = max(vps.values())
        leaders = [s for s in ids if vps[s] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        how = "vp"
    names = {side.id: side.name for side in campaign.sides}

    # Losses into the forces, then recovery, then healing.
    new_forces = dict(forces)
    losses = {side_id: 0 for side_id in ids}
    recovered = {side_id: 0 for side_id in ids}
    needed = recovery_dice_needed(campaign, forces, outcome, mustered)
    faces_in = {k: list(v) for k, v in (recovery_faces or {}).items()}
    if rules.recovery_rolls:
        for side_id in ids:
            got = len(faces_in.get(side_id, []))
            if got != needed[side_id]:
                raise CampaignError(
                    f"{names[side_id]} needs {needed[side_id]} recovery dice (d{recovery_die}), got {got}"
                )
            bad = [f for f in faces_in.get(side_id, []) if not 1 <= f <= recovery_die]
            if bad:
                raise CampaignError(f"recovery faces {bad} are not faces of a d{recovery_die}")
    for side_out in outcome.sides:
        side_id = side_out.side
        force = new_forces[side_id]
        faces = iter(faces_in.get(side_id, []))
        slots, gone = _casualty_slots(forces[side_id], side_out, (mustered or {}).get(side_id))
        for c in gone:
            events.append(
                f"{names[side_id]}: {c.lost} {c.element} lost from {c.unit} not written: "
                "the force file no longer has them (edited during the battle)"
            )
        for ui, ei, casualty in slots:
            element = force.units[ui].elements[ei]
            newly = min(casualty.lost, element.alive)
            back = 0
            if rules.recovery_rolls:
                back = sum(1 for _ in range(newly) if next(faces) >= recovery_target)
            state = {**element.state, **casualty.state}
            force = _replace_element(force, ui, ei, attrs.evolve(element, lost=element.lost + newly - back, state=state))
            losses[side_id] += newly - back
            recovered[side_id] += back
            if back:
                events.append(f"{names[side_id]}: {back} of {newly} {element.name} lost from {casualty.unit} recover")
        for unit_name, honours in side_out.honours.items():
            at = next((i for i, u in enumerate(force.units) if u.name == unit_name), None)
            if at is None:
                raise CampaignError(f"honours for unit {unit_name!r}, which {force.name} does not have")
            unit = force.units[at]
            unit = attrs.evolve(unit, honours=unit.honours + tuple(h for h in honours if h not in unit.honours))
            force = attrs.evolve(force, units=force.units[:at] + (unit,) + force.units[at + 1 :])
        if rules.heals:
            force = _heal(force, rules.heals)
        new_forces[side_id] = force

    # Reinforcements, ledger, history and the track.
    sides = tuple(
        attrs.evolve(
            side,
            reinforcements=side.reinforcements + rules.reinforcement_per_battle + rules.reinforcement_per_vp * vps[side.id],
        )
        for side in campaign.sides
    )
    ledger = campaign.ledger + tuple(
        LedgerLine(number, side_id, line.vp, line.label) for side_id in ids for line in lines[side_id]
    )
    step = campaign.step(campaign.position)
    nxt = _next_step(campaign, step, winner)
    units_lost = {s.side: tuple(s.units_eliminated) for s in outcome.sides}
    vp_text = ", ".join(f"{names[s]} {format_vp(vps[s])} VP" for s in ids)
    result_text = f"{names[winner]} win" if winner else "a draw"
    lost_total = sum(len(v) for v in units_lost.values())
    summary = f"Battle {number}, {scenario.name}: {vp_text}; {result_text}"
    summary += f" ({how})" if winner else ""
    summary += f"; {lost_total} unit{'s' if lost_total != 1 else ''} lost"
    entry = HistoryEntry(
        battle=number,
        step=step.id,
        scenario=scenario.id,
        scenario_name=scenario.name,
        file=file,
        winner=winner or "",
        how=how if winner else "",
        vps=vps,
        losses=losses,
        units_lost=units_lost,
        recovered=recovered,
        summary=summary,
    )
    events.insert(0, summary)
    if nxt == END:
        events.append("The scenario track ends here: the campaign is over.")
    else:
        following = campaign.step(nxt).scenario
        next_name = (scenario_names or {}).get(following)
        events.append(f"Next: {next_name}." if next_name else f"Next: {following} (step {nxt}).")
    new_campaign = attrs.evolve(
        campaign,
        sides=sides,
        ledger=ledger,
        history=campaign.history + (entry,),
        position="" if nxt == END else nxt,
        battle_in_progress="",
    )
    return PostBattle(new_campaign, new_forces, entry, tuple(events))


def _heal(force: Force, keys: Sequence[str]) -> Force:
    units = []
    for unit in force.units:
        elements = tuple(
            attrs.evolve(e, state={k: v for k, v in e.state.items() if k not in keys}) if e.state else e
            for e in unit.elements
        )
        units.append(attrs.evolve(unit, elements=elements))
    return attrs.evolve(force, units=tuple(units))
