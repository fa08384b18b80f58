"""Every attribute of Flat Out War (rules spec section 20) as data, and the parser
that reads attribute text such as `Jump 8"`, `Multi-shot 3x` or `Transport 10 x d6`.

An attribute's price is a `CostRule` per edition: flat points, a multiple of the
base die's DAC, or a named formula that the calculator in `costs.py` implements.
Prerequisites are `Requirement` records, checked by `validation.py`.
Summaries are one line each, written for Muster (not quoted from the rulebooks).
"""

from __future__ import annotations

import difflib
import functools
import re
from typing import Literal

from campaign.frozen import frozen
from campaign.rulesets.flat_out_war.dice import normalize_die
from campaign.rulesets.flat_out_war.editions import EDITIONS, SO, V17

ParamKind = Literal["none", "inches", "rate", "turns", "count", "loads", "attribute", "text"]
Resolution = Literal["E", "T", "M"]
Formula = Literal[
    "",
    "loose_cohesion",  # 1DAC (base) per 4" of cohesion range
    "jump",  # 1DAC (base) per 4" of jump
    "multi_shot",  # per extra shot: 1DAC + 1DAC per 6" of the weapon die
    "mount",  # Extra weapon / Sponson / [SO] Turret: priced from the mounted weapon
    "transport",  # 1DAC of the carried die per element carried; best of the loads
    "exhaustible",  # weapon price / 2 or / 4, rounded up
    "reload",  # -1DAC per turn ([1.7] off the element, [SO] off the weapon)
    "hit_points",  # [SO] each HP costs 50% of the total before HP
    "activate",  # [SO] the linked attribute costs half
    "weapon_minus_dac",  # [SO] Capture / Ensnare: the ranged weapon's price -1DAC
    "inaccurate",  # [1.7] 0; [SO] -1DAC of the weapon die
]


@frozen
class CostRule:
    """How one edition prices an attribute."""

    kind: Literal["points", "dac", "formula"]
    amount: int = 0  # points, or the DAC multiple (negative for weaknesses)
    formula: Formula = ""

    def describe(self) -> str:
        if self.kind == "points":
            return f"{self.amount:+d}"
        if self.kind == "dac":
            return f"{self.amount:+d}DAC"
        return f"special ({self.formula.replace('_', ' ')})"


def pts(amount: int) -> CostRule:
    return CostRule("points", amount)


def dacs(amount: int) -> CostRule:
    return CostRule("dac", amount)


def special(formula: Formula) -> CostRule:
    return CostRule("formula", 0, formula)


@frozen
class Requirement:
    """A build-time prerequisite (section 20's list; A-69)."""

    kind: Literal["any_attribute", "ranged_weapon", "extra_weapon", "vehicle"]
    names: tuple[str, ...] = ()  # for any_attribute: one of these is needed
    editions: tuple[str, ...] = EDITIONS  # where the requirement applies
    ruling: str = ""  # "A-69" when the requirement is inferred rather than printed

    def describe(self) -> str:
        if self.kind == "any_attribute":
            return " or ".join(self.names)
        return {
            "ranged_weapon": "a ranged weapon",
            "extra_weapon": "an Extra weapon (a weapon with mount = extra)",
            "vehicle": "a vehicle (kind = vehicle)",
        }[self.kind]


RANGED = Requirement("ranged_weapon", ruling="A-69")


@frozen
class AttributeSpec:
    name: str
    costs: tuple[tuple[str, CostRule], ...]  # (edition, rule) for each edition that has it
    summary: str
    res: Resolution
    aliases: tuple[str, ...] = ()
    param: ParamKind = "none"
    param_required: bool = False
    requires: tuple[Requirement, ...] = ()
    # Priced against one weapon (its die, range or price): Exhaustible, Multi-shot, ...
    weapon_bound: bool = False

    @property
    def editions(self) -> tuple[str, ...]:
        return tuple(edition for edition, _ in self.costs)

    def in_edition(self, edition: str) -> bool:
        return edition in self.editions

    def cost(self, edition: str) -> CostRule | None:
        for key, rule in self.costs:
            if key == edition:
                return rule
        return None

    def vehicle_only(self, edition: str) -> bool:
        return any(r.kind == "vehicle" and edition in r.editions for r in self.requires)


def both(rule: CostRule) -> tuple[tuple[str, CostRule], ...]:
    return ((V17, rule), (SO, rule))


def only(edition: str, rule: CostRule) -> tuple[tuple[str, CostRule], ...]:
    return ((edition, rule),)


A = AttributeSpec
ATTRIBUTES: tuple[AttributeSpec, ...] = (
    A("Activate", only(SO, special("activate")),
      "Switches one other attribute on and off with an Other Action; that attribute costs half.",
      "E", param="attribute", param_required=True),
    A("Adaptive Armor", only(SO, dacs(1)),
      "Against an attack made with a smaller die than its base die, recovers with one die higher.",
      "E", aliases=("Adaptive Armour",)),
    A("Aggressive", both(dacs(1)), "+1 on its melee attack rolls.", "E"),
    A("Agile", both(dacs(2)), "Moves its whole MOVE in any direction, turning freely.", "T"),
    A("Amphibious", both(pts(8)), "Water terrain does not hinder it.", "M"),
    A("Anti-flyer", only(SO, dacs(1)),
      "+1 when shooting at targets that are flying, hovering or jumping.",
      "E", aliases=("Anti-flier", "Antiflyer")),
    A("Arcing Artillery", both(dacs(2)), "Its ranged weapon needs no line of sight.", "E",
      aliases=("Arc-Artillery", "Arc Artillery", "Arcing"), requires=(RANGED,)),
    A("Brave", both(dacs(1)), "+1 on morale rolls.", "E"),
    A("Capture", only(SO, special("weapon_minus_dac")),
      "Its ranged weapon deals no damage; a hit pulls the smaller element into melee with the larger.",
      "M", requires=(RANGED,), weapon_bound=True),
    A("Charge", both(pts(4)), "+1 to its melee rolls in an activation in which it charged.", "E"),
    A("Command", both(pts(8)),
      "An officer: no morale rolls; attached to a unit it gives +2 to that unit's morale but takes no Other Action.",
      "M", aliases=("Commander", "Officer")),
    A("Cumbersome", both(dacs(-1)), "Its pivots at the start and end of a move are at most 45 degrees.", "T"),
    A("Deny Charge", both(pts(4)), "Chargers get no Charge bonus against it.", "E"),
    A("Ensnare", only(SO, special("weapon_minus_dac")),
      "Its ranged weapon deals no damage; a hit snares the target until it passes a recovery roll.",
      "E", requires=(RANGED,), weapon_bound=True),
    A("Entrenched", only(V17, dacs(2)),
      "Deploys hidden at a secretly written spot; revealed by its owner or when an enemy comes within 6\".",
      "M"),
    A("Exhaustible Weapon", ((V17, special("exhaustible")), (SO, special("exhaustible"))),
      "A weapon with four uses in the whole game (grenades, missiles); its price is cut.",
      "E", aliases=("Exhaustible", "Exhaustible Weapons"), weapon_bound=True),
    A("Extra weapon", both(special("mount")),
      "A second weapon firing forward, bought on top of the main one.",
      "M", aliases=("Extra weapons", "Extra ranged weapon", "Extra"), param="count"),
    A("Fearsome", both(pts(8)), "Each enemy unit that first comes within 8\" of it takes a morale roll.", "M"),
    A("Fire Linked", both(dacs(-1)),
      "Main and Extra weapons always fire together at one target.",
      "E", aliases=("FireLinked", "Fire-Linked", "Firelinked"),
      requires=(Requirement("extra_weapon"),)),
    A("Flying", both(dacs(3)),
      "Takes off and lands; airborne it passes over terrain and units ([SO] at triple MOVE); a natural 1 on recovery is a crash.",
      "M", aliases=("Flyer", "Flier")),
    A("Frail", both(dacs(-1)), "-1 on recovery rolls.", "E"),
    A("Glide", only(SO, dacs(1)), "Doubles its horizontal move when it drops at least 4\".", "T"),
    A("Heavy Armour", both(dacs(1)),
      "Cannot be harmed by attacks with a die below d10 unless the attacker has a Heavy weapon attribute.",
      "E", aliases=("Heavy Armor",)),
    A("Heavy Melee Weapon", both(dacs(1)), "Its melee attacks harm Heavy Armour normally.", "E",
      aliases=("Heavy Melee Weapons", "Heavy Melee")),
    A("Heavy Ranged Weapon", both(dacs(1)), "Its ranged attacks harm Heavy Armour normally.", "E",
      aliases=("Heavy Ranged Weapons", "Heavy Ranged"), requires=(RANGED,)),
    A("Hit Points", only(SO, special("hit_points")),
      "Each failed recovery spends one Hit Point instead of removing the element.",
      "E", aliases=("Hit Point", "HP"), param="count", param_required=True),
    A("Hover", both(pts(4)), "An airborne flyer that may stay still.", "E",
      requires=(Requirement("any_attribute", ("Flying",)),)),
    A("Inaccurate", both(special("inaccurate")),
      "A missed artillery shot scatters 6\" on a d4 and lands on whoever is there.",
      "M", requires=(Requirement("any_attribute", ("Arcing Artillery",)),), weapon_bound=True),
    A("Jump", both(special("jump")),
      "May jump its bought distance over terrain, units and low obstacles instead of moving.",
      "M", param="inches", param_required=True),
    A("Linear Artillery", both(dacs(1)), "Its shots may bounce on or overshoot (d6 table).", "M",
      aliases=("Linear",), requires=(RANGED,)),
    A("Loose Cohesion", both(special("loose_cohesion")),
      "Its unit keeps loose cohesion at the bought range instead of base contact.",
      "M", aliases=("Loose",), param="inches"),
    A("Lucky", ((V17, dacs(2)), (SO, dacs(1))),
      "Re-rolls one of its own rolls and keeps the better ([1.7] once a turn, [SO] once a game).", "E"),
    A("Magic", both(pts(16)), "Casts the spells chosen for it (a budget of 6 difficulty).", "M",
      aliases=("Psychic", "Psionics")),
    A("Multi-shot", both(special("multi_shot")),
      "The weapon fires 2, 3 or 4 times in one action.",
      "E", aliases=("Multishot", "Multi shot", "Multi-shots"), param="rate", param_required=True,
      requires=(RANGED,), weapon_bound=True),
    A("Penetrator", only(V17, dacs(1)), "Targets it hits take -1 on their recovery roll.", "E"),
    A("Reload", ((V17, special("reload")), (SO, special("reload"))),
      "After firing, the weapon needs 1 or 2 turns without Other Actions before it fires again.",
      "E", aliases=("Reload: X",), param="turns", param_required=True, weapon_bound=True),
    A("Reliant", only(SO, dacs(-2)),
      "A failed recovery leaves it down rather than dead; it goes when what it relies on goes.", "E",
      param="text"),  # `Reliant: Hive Node`: the element or unit it relies on
    A("Resilient", only(SO, dacs(3)),
      "A failed recovery steps its base die down instead of removing it.", "E"),
    A("Sailed", both(dacs(-1)), "Moves full, half or a quarter by its heading to the wind.", "M",
      aliases=("Sail", "Sails")),
    A("Sharpshooter", both(dacs(1)), "+1 to shoot in an activation in which it stayed put.", "E",
      requires=(RANGED,)),
    A("Skimmer", only(SO, dacs(1)), "Floats over every ground-level terrain feature.", "M"),
    A("Sponson", both(special("mount")),
      "A side-mounted extra weapon covering its side's 90 degrees of the front.",
      "M", aliases=("Sponsons",), param="count"),
    A("Stand", both(pts(4)), "Gets a free shot at an element that charges it.", "M",
      requires=(Requirement("ranged_weapon"),)),
    A("Stealth", both(dacs(1)), "Hidden: cannot be targeted from beyond 12\" until it shoots.", "M"),
    A("Sticky", only(SO, dacs(3)),
      "A hit leaves a marker that keeps attacking each turn with a shrinking die.", "E"),
    A("Submersible", both(pts(12)),
      "Can dive in Deep Water: half MOVE, no weapons, cannot be attacked.",
      "M", requires=(Requirement("any_attribute", ("Amphibious", "Waterborne")),)),
    A("Submersible Weapon", both(pts(6)), "Can attack while submerged and attack submerged targets.", "E",
      aliases=("Submersible Weapons",)),
    A("Template: 2\"", both(dacs(1)), "The weapon hits with a 2\" burst template.", "M",
      aliases=("Template 2\"", "Template 2"), requires=(RANGED,)),
    A("Template: 4\"", both(dacs(2)), "The weapon hits with a 4\" burst template.", "M",
      aliases=("Template 4\"", "Template 4"), requires=(RANGED,)),
    A("Template: 6\"", both(dacs(3)), "The weapon hits with a 6\" burst template.", "M",
      aliases=("Template 6\"", "Template 6"), requires=(RANGED,)),
    A("Template: Flame", both(dacs(2)),
      "The weapon uses a flame template laid against the element's front (melee or ranged).",
      "M", aliases=("Template Flame", "Flame Template")),
    A("Torso", only(V17, pts(4)), "A vehicle with two facings, front and rear.", "E",
      requires=(Requirement("vehicle"),)),
    A("Tough", both(dacs(1)), "+1 on recovery rolls.", "E"),
    A("Tracked", both(dacs(1)),
      "Pivots up to 360 degrees at the start and end of a move ([1.7] also ignores Light terrain).", "M"),
    A("Transport", both(special("transport")),
      "Carries other elements; passengers roll recovery if it is destroyed.",
      "M", param="loads", param_required=True),
    A("Trigger", only(SO, dacs(2)),
      "Takes an Other Action in an opponent's turn when its set condition happens.",
      "M", param="text"),
    A("Turn", both(dacs(1)), "May make two 45-degree turns during its move.", "T"),
    A("Turret", ((V17, dacs(1)), (SO, special("mount"))),
      "The turret weapon may fire through any facing.", "E", aliases=("Turrets",)),
    A("Walker", ((V17, dacs(1)), (SO, pts(4))),
      "[1.7] vehicle legs: ignores Light terrain, Heavy counts as Light. [SO] two facings, never flanked.",
      "M", requires=(Requirement("vehicle", editions=(V17,)),)),
    A("Waterborne", both(pts(-8)),
      "Stays in Deep Water; running aground in shallows needs a 6 on a d6 to get free.", "M"),
    A("Unfeeling", both(dacs(2)),
      "No fear and no morale rolls, +1 on recovery, never runs or goes prone.", "E"),
)
del A


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


_BY_KEY: dict[str, AttributeSpec] = {}
for _spec in ATTRIBUTES:
    for _name in (_spec.name, *_spec.aliases):
        _BY_KEY[_key(_name)] = _spec
ATTRIBUTE_NAMES: tuple[str, ...] = tuple(s.name for s in ATTRIBUTES)


def attribute(name: str) -> AttributeSpec:
    """The spec for an attribute name or alias (no parameters); KeyError if unknown."""
    return _BY_KEY[_key(name)]


def names_in(edition: str) -> list[str]:
    return [s.name for s in ATTRIBUTES if s.in_edition(edition)]


# --- parsing attribute text ------------------------------------------------


class AttributeTextError(ValueError):
    """Attribute text that cannot be read; `suggestion` is the nearest known name."""

    def __init__(self, message: str, text: str, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.text = text
        self.suggestion = suggestion


@frozen
class AttributeParams:
    inches: int | None = None  # Jump 8", Loose Cohesion 4"
    rate: int | None = None  # Multi-shot 3x -> 3
    turns: int | None = None  # Reload: 2
    count: int | None = None  # Hit Points 2, Sponson x2
    loads: tuple[tuple[int, str], ...] = ()  # Transport 10 x d6 or 2 x d12
    linked: "ParsedAttribute | None" = None  # Activate: Stealth
    text: str = ""  # Trigger: when attacked in melee


@frozen
class ParsedAttribute:
    spec: AttributeSpec
    params: AttributeParams
    text: str  # as written

    @property
    def name(self) -> str:
        return self.spec.name


# Inch marks as they appear in files and OCR: ", °, ', ″, ”, “, or the words.
_INCH_MARKS = re.compile(r"[\"°'″”“’]")
_INCH_WORDS = re.compile(r"(\d+)\s*(?:inches|inch|in)\b", re.IGNORECASE)
_INT = re.compile(r"^(\d+)$")
_TIMES = r"(?i)^(?:x\s*)?(\d+)\s*(?:x)?$"  # compiled on first use (re's cache): not at start-up
_LOAD = re.compile(r"^(\d+)\s*x\s*(d\s*\d+)$", re.IGNORECASE)
_LOAD_SPLIT = re.compile(r"\s*(?:\bor\b|/|\||;)\s*", re.IGNORECASE)


def _normalize(text: str) -> str:
    text = _INCH_WORDS.sub(r'\1"', text)
    text = _INCH_MARKS.sub('"', text)
    text = text.replace(":", ": ").replace("(", " ").replace(")", " ")
    return " ".join(text.split())


def _strip_value(text: str) -> str:
    return text.strip().strip(":\"").strip()


def _suggest(text: str) -> str | None:
    # Compare the name part only: drop trailing tokens that carry numbers or dice.
    tokens = _normalize(text).split()
    while tokens and re.search(r"\d", tokens[-1]):
        tokens.pop()
    wanted = _key(" ".join(tokens) or text)
    if not wanted:
        return None
    keys = list(_BY_KEY)
    close = difflib.get_close_matches(wanted, keys, n=1, cutoff=0.6)
    return _BY_KEY[close[0]].name if close else None


def _inches(spec: AttributeSpec, raw: str) -> AttributeParams:
    value = _strip_value(raw)
    match = _INT.match(value)
    if not match:
        raise ValueError(f'{spec.name} takes a distance in inches, like `{spec.name} 8"`')
    return AttributeParams(inches=int(match.group(1)))


def _rate(spec: AttributeSpec, raw: str) -> AttributeParams:
    match = re.match(_TIMES, _strip_value(raw))
    if not match or int(match.group(1)) not in (2, 3, 4):
        raise ValueError(f"{spec.name} takes a rate of fire of 2x, 3x or 4x, like `{spec.name} 3x`")
    return AttributeParams(rate=int(match.group(1)))


def _turns(spec: AttributeSpec, raw: str) -> AttributeParams:
    match = _INT.match(_strip_value(raw))
    if not match:
        raise ValueError(f"{spec.name} takes a number of turns, like `{spec.name}: 2`")
    return AttributeParams(turns=int(match.group(1)))


def _count(spec: AttributeSpec, raw: str) -> AttributeParams:
    match = re.match(_TIMES, _strip_value(raw))
    if not match or int(match.group(1)) < 1:
        raise ValueError(f"{spec.name} takes a whole number of at least 1, like `{spec.name} 2`")
    return AttributeParams(count=int(match.group(1)))


def _loads(spec: AttributeSpec, raw: str) -> AttributeParams:
    loads = []
    for part in _LOAD_SPLIT.split(_strip_value(raw)):
        match = _LOAD.match(part.strip())
        die = normalize_die(match.group(2)) if match else None
        if not match or die is None:
            raise ValueError(
                f"{spec.name} takes loads like `{spec.name} 10 x d6` "
                f"(alternatives separated by `or`); could not read {part.strip()!r}"
            )
        loads.append((int(match.group(1)), die))
    return AttributeParams(loads=tuple(loads))


def _linked(spec: AttributeSpec, raw: str) -> AttributeParams:
    inner = parse_attribute(_strip_value(raw))
    if inner.spec is spec:
        raise ValueError(f"{spec.name} cannot switch itself")
    return AttributeParams(linked=inner)


_PARAM_READERS = {
    "inches": _inches,
    "rate": _rate,
    "turns": _turns,
    "count": _count,
    "loads": _loads,
    "attribute": _linked,
    "text": lambda spec, raw: AttributeParams(text=_strip_value(raw)),
}


def parse_attribute(text: str) -> ParsedAttribute:
    """Read attribute text as stored in Element.attributes / Weapon.traits.

    `Loose Cohesion 4"`, `Jump 8"`, `Multi-shot 3x`, `Reload: 2`, `Hit Points 2`,
    `Transport 10 x d6`, `Template: 4"`, `Template Flame`, `Sponson x2`,
    `Activate: Stealth`. Names are matched ignoring case, spaces, hyphens and
    punctuation, and through aliases (`Heavy Armor`, `FireLinked`, `Arc-Artillery`).
    Raises AttributeTextError with a nearest-name suggestion when it cannot.
    """
    if not isinstance(text, str):
        raise AttributeTextError("an attribute cannot be empty", str(text))
    return _parse_cached(text)


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> ParsedAttribute:
    """parse_attribute's work, once per text: combat reads the same few texts over and over
    and the result is frozen (errors are not cached: they are raised again each time)."""
    if not isinstance(text, str) or not text.strip():
        raise AttributeTextError("an attribute cannot be empty", str(text))
    tokens = _normalize(text).split()
    for cut in range(len(tokens), 0, -1):
        spec = _BY_KEY.get(_key(" ".join(tokens[:cut])))
        if spec is None:
            continue
        rest = " ".join(tokens[cut:])
        if not _strip_value(rest):
            if spec.param_required:
                raise AttributeTextError(
                    f"{spec.name} needs a value ({_EXAMPLES[spec.param].format(name=spec.name)})", text
                )
            return ParsedAttribute(spec, AttributeParams(), text)
        if spec.param == "none":
            raise AttributeTextError(f"{spec.name} takes no value, but {rest!r} follows it", text)
        try:
            params = _PARAM_READERS[spec.param](spec, rest)
        except AttributeTextError as exc:
            raise AttributeTextError(f"{spec.name}: {exc}", text, exc.suggestion) from None
        except ValueError as exc:
            raise AttributeTextError(str(exc), text) from None
        return ParsedAttribute(spec, params, text)
    suggestion = _suggest(text)
    hint = f" (did you mean {suggestion!r}?)" if suggestion else ""
    raise AttributeTextError(f"unknown attribute {text!r}{hint}", text, suggestion)


_EXAMPLES = {
    "inches": 'like `{name} 8"`',
    "rate": "like `{name} 3x`",
    "turns": "like `{name}: 2`",
    "count": "like `{name} 2`",
    "loads": "like `{name} 10 x d6`",
    "attribute": "the attribute it switches, like `{name}: Stealth`",
    "text": "like `{name}: when attacked in melee`",
    "none": "",
}
