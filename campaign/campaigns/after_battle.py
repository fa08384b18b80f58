"""The post-battle step, pure: VPs and the winner, losses and recovery written into the
forces, healing, reinforcements, honours, the ledger, the history line and the next step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import attrs

from campaign.campaigns.flow import CampaignError
from campaign.campaigns.model import END, Campaign, HistoryEntry, LedgerLine, TrackStep
from campaign.campaigns.mustering import surviving
from campaign.campaigns.scenario import Scenario
from campaign.force import Element, Force
from campaign.frozen import frozen
from campaign.vp import format_vp

if TYPE_CHECKING:  # loaded already: whoever made the outcome imported it
    from campaign.outcome import BattleOutcome, Casualty, SideOutcome


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
    (see `mustering.fielded`); it maps back through `surviving`. `roster` is the force as it was
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
