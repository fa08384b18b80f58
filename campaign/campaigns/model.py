"""The campaign record: what campaign.toml holds, as attrs classes."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import attrs

from campaign.activation import DEFAULT_SCHEME
from campaign.frozen import frozen
from campaign.vp import as_fraction

DiceMode = Literal["auto", "table"]
TieBreak = Literal["battles-won", "last-battle", "draw"]
GitCommits = Literal["off", "battle", "activation"]
END = "end"  # a track target meaning "the campaign ends here"


@frozen
class Side:
    id: str  # short, file-safe: forces/<id>.toml
    name: str
    players: tuple[str, ...] = ()
    reinforcements: Fraction = attrs.field(default=Fraction(0), converter=as_fraction)  # points banked


@frozen
class CampaignRules:
    """Every choice the rulebooks leave open, with a default (written out in campaign.toml)."""

    reinforcement_per_battle: int = 0  # points each side banks after every battle
    reinforcement_per_vp: Fraction = attrs.field(default=Fraction(0), converter=as_fraction)
    recovery_rolls: bool = False  # roll for each element lost; it returns on a success
    # None below: the ruleset's default (Ruleset.campaign_defaults), filled in by Campaign.
    recovery_die: int | None = None
    recovery_target: int | None = None  # a recovery roll succeeds on this face or more
    heals: tuple[str, ...] | None = None  # Element.state keys that reset between battles
    tie_break: TieBreak = "battles-won"  # when the campaign's VP totals are level
    declared_objective_vps: bool = True  # objectives the players declare taken score the scenario's VPs
    git_commits: GitCommits = "off"

    @property
    def recovery_roll(self) -> tuple[int, int]:
        """The recovery roll's (die, target); a Campaign's rules always have them (filled)."""
        if self.recovery_die is None or self.recovery_target is None:
            raise ValueError("these campaign rules are not filled from a ruleset yet")
        return self.recovery_die, self.recovery_target

    def filled(self, ruleset_id: str) -> CampaignRules:
        """These rules with every unset (None) field taken from the ruleset's defaults."""
        if None not in (self.recovery_die, self.recovery_target, self.heals):
            return self
        from campaign.rulesets import UnknownRuleset, ruleset_class
        from campaign.rulesets.base import CampaignDefaults

        try:
            defaults = ruleset_class(ruleset_id).campaign_defaults
        except UnknownRuleset:
            defaults = CampaignDefaults()
        return attrs.evolve(
            self,
            recovery_die=defaults.recovery_die if self.recovery_die is None else self.recovery_die,
            recovery_target=defaults.recovery_target if self.recovery_target is None else self.recovery_target,
            heals=defaults.heals if self.heals is None else self.heals,
        )


@frozen
class Branch:
    """Go to `goto` when the battle's result is `when`: a side id (that side won) or "draw"."""

    when: str
    goto: str


@frozen
class TrackStep:
    id: str
    scenario: str
    next: str = ""  # "" means the following step in the track, or the end after the last one
    branches: tuple[Branch, ...] = ()


@frozen
class LedgerLine:
    battle: int
    side: str
    vp: Fraction = attrs.field(converter=as_fraction)
    reason: str = ""


@frozen
class Spending:
    """Reinforcement points a side spent on its force between battles."""

    after_battle: int  # how many battles had been fought (0: before the first)
    side: str
    points: Fraction = attrs.field(converter=as_fraction)
    what: str = ""  # what they bought, in words ("Assault Squad: 9 -> 11 Assault Troop")


@frozen
class HistoryEntry:
    battle: int
    step: str
    scenario: str
    scenario_name: str
    file: str  # battles/01-<scenario>.toml, relative to the campaign folder
    winner: str = ""  # "" for a draw
    how: str = ""  # "vp", "strategic", ...
    vps: dict[str, Fraction] = attrs.field(factory=dict)
    losses: dict[str, int] = attrs.field(factory=dict)  # elements lost per side (after recovery)
    units_lost: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    recovered: dict[str, int] = attrs.field(factory=dict)
    summary: str = ""


@frozen
class Campaign:
    name: str
    ruleset: str
    sides: tuple[Side, ...]
    track: tuple[TrackStep, ...]
    edition: str | None = None
    options: dict[str, int | str | bool] = attrs.field(factory=dict)
    dice: DiceMode = "auto"
    activation: str = DEFAULT_SCHEME  # a registered scheme; a scenario may set its own
    rules: CampaignRules = attrs.field(factory=CampaignRules)
    position: str = ""  # the next step's id; "" once the campaign has ended
    battle_in_progress: str = ""  # the battle file being played, if any
    ledger: tuple[LedgerLine, ...] = ()
    history: tuple[HistoryEntry, ...] = ()
    seed: int = 0  # battle seeds derive from it, so a replayed campaign rolls the same dice
    note: str = ""
    activation_options: dict[str, int | str | bool] = attrs.field(factory=dict)
    spent: tuple[Spending, ...] = ()  # reinforcement points spent between battles

    def __attrs_post_init__(self) -> None:
        # Campaign rules left unset follow the ruleset, so a campaign always carries them.
        object.__setattr__(self, "rules", self.rules.filled(self.ruleset))

    @property
    def finished(self) -> bool:
        return not self.position

    def side(self, side_id: str) -> Side:
        for side in self.sides:
            if side.id == side_id:
                return side
        raise KeyError(side_id)

    def step(self, step_id: str) -> TrackStep:
        for step in self.track:
            if step.id == step_id:
                return step
        raise KeyError(step_id)

    def totals(self) -> dict[str, Fraction]:
        totals = {side.id: Fraction(0) for side in self.sides}
        for line in self.ledger:
            totals[line.side] = totals.get(line.side, Fraction(0)) + line.vp
        return totals
