"""A scenario: what one battle is about. Data only; scenarios/ loads them from TOML."""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Mapping, Sequence
from typing import Literal

import attrs

from campaign.frozen import frozen
from campaign.vp import as_fraction

# How a scenario is won (Flat Out War section 18; the d10 rules' DP-19):
#   strategic     the first side to complete its objective wins (players declare it)
#   vp            most VPs at the end: 25% of each eliminated unit's cost plus objectives
#   position      quadrants held at the end (d10 Battle of Position)
#   objectives    markers held at the end (d10 Objectives)
#   sudden-death  an army that has lost half its models loses (d10 Sudden Death)
VictoryKind = Literal["strategic", "vp", "position", "objectives", "sudden-death"]


@frozen
class Objective:
    name: str
    vp: Fraction = attrs.field(default=Fraction(0), converter=as_fraction)
    side: str = ""  # a side role ("attacker", "defender") or id; "" means either side may take it
    text: str = ""


@frozen
class Scenario:
    id: str
    name: str
    summary: str = ""
    victory: VictoryKind = "vp"
    points_limit: int | None = None  # None: each side brings its whole force
    rounds: int | None = None  # None: the end condition decides
    end_condition: str = ""  # in words, when `rounds` is not enough
    roles: tuple[str, ...] = ()  # "attacker", "defender"...: side ids map onto them in order
    objectives: tuple[Objective, ...] = ()
    deployment: str = ""
    special_rules: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ()  # ruleset ids it was written for; empty: any
    # a registered activation scheme to play this scenario with whatever
    # the campaign's default; "" keeps the campaign's. Options replace the campaign's.
    activation: str = ""
    activation_options: dict[str, int | str | bool] = attrs.field(factory=dict)
    # inches from its own table edge that each side sets up within, where both sides
    # deploy alike; None: as `deployment` says, or the rules' own zone when it is silent
    deploy_within: int | None = None

    def objective(self, name: str) -> Objective:
        for objective in self.objectives:
            if objective.name == name:
                return objective
        raise KeyError(name)

    def claim_problem(self, claims: Mapping[str, Sequence[str]], sides: Mapping[str, str] | None = None) -> str:
        """"" if the objectives each side claims can all stand together, else why not: an
        objective is achieved by one side only, so its VPs are scored once. `sides` (id ->
        name) lets the message name the sides as players call them."""
        sides = sides or {}
        holder: dict[str, str] = {}
        for side_id, names in claims.items():
            for name in names:
                if holder.setdefault(name, side_id) != side_id:
                    first, second = sides.get(holder[name], holder[name]), sides.get(side_id, side_id)
                    return f"{name} is claimed by two sides ({first} and {second}): one side achieves it"
        return ""
