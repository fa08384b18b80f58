"""The Flat Out War point-cost calculator (rules spec section 19, rulings A-55..A-59).

Order of evaluation (A-59):
1. each weapon's price, then its own modifiers: Exhaustible (divide, round up),
   [SO] Reload, Capture, Ensnare (-1DAC of the weapon die each), [SO] Inaccurate;
2. base die + weapons + MOVE + every other attribute (Activate halves the attribute
   it switches; Multi-shot's extra shots are priced here, not divided by Exhaustible);
3. [1.7] Reload off the element's total;
4. a total below 1 becomes 1; then [SO] Hit Points, each costing half of that total.

DACs come from the base die for MOVE and every xDAC attribute (A-55), from the
weapon's die for weapons, Multi-shot shots, the weapon-cost cuts and [SO]
Inaccurate, and from the carried die for Transport. Every "per N inches" step and
every division rounds up (A-57). Text that cannot be read is priced at 0 here;
`validation.py` reports it.
"""

from __future__ import annotations

from fractions import Fraction

from campaign.costing import CostLine, ElementCost, ForceCost, UnitCost
from campaign.findings import Finding
from campaign.force import Element, Force
from campaign.frozen import frozen
from campaign.rulesets.flat_out_war.attributes import AttributeSpec, ParsedAttribute
from campaign.rulesets.flat_out_war.dice import base_cost, dac
from campaign.rulesets.flat_out_war.editions import (
    ADDON_RANGE_STEP,
    DEFAULT_LOOSE_INCHES,
    EDITION_COSTS,
    JUMP_STEP,
    LOOSE_STEP,
    MOVE_STEP,
    EditionCosts,
)
from campaign.rulesets.flat_out_war.reading import (
    Placed,
    base_die,
    main_ranged_index,
    placed_attributes,
    weapon_die,
)


@frozen
class CostOptions:
    """The cost options in force for one pricing (ruleset options + Force.options)."""

    ranged_base_dac: int = 2
    free_attributes: frozenset[str] = frozenset()  # 19.1 step 6: canonical names left out of costs


def ceil_div(a: int | Fraction, b: int) -> int:
    """Division rounding up (A-57), exact for negative numbers too."""
    return -((-Fraction(a)) // b)


def steps(inches: int, per: int) -> int:
    """Number of `per`-inch steps in `inches`, a partial step counting whole (A-57)."""
    return max(0, ceil_div(inches, per))


def _weapon_lines(
    element: Element, index: int, placed: list[Placed], ed: EditionCosts, opts: CostOptions
) -> list[CostLine]:
    """A-59 step 1: one weapon's price and the modifiers that act on that price."""
    weapon = element.weapons[index]
    wdie = weapon_die(element, weapon)
    if wdie is None:
        return [CostLine(f"{weapon.name}: die not on the ladder, not priced", 0)]
    wdac = dac(wdie)
    rng = max(weapon.range, 0)
    mount = weapon.mount
    if mount in ("extra", "sponson") or (mount == "turret" and ed.turret == "weapon"):
        n = 1 + steps(rng, ADDON_RANGE_STEP)
        label = f"{weapon.name} {wdie} R{rng}\" ({mount}: 1DAC + 1DAC/{ADDON_RANGE_STEP}\" = {n}DAC)"
    elif weapon.kind == "ranged":
        n = opts.ranged_base_dac + steps(rng, ed.range_step)
        label = (
            f"{weapon.name} {wdie} R{rng}\" ({opts.ranged_base_dac}DAC + 1DAC/{ed.range_step}\" = {n}DAC)"
        )
    else:
        n = 2
        label = f"{weapon.name} {wdie} (melee 2DAC)"
    price = n * wdac
    lines = [CostLine(label, price)]
    mine = [p for p in placed if p.weapon == index]
    for p in mine:  # Exhaustible first: it divides the weapon's own price
        if p.parsed.spec.name == "Exhaustible Weapon":
            divided = ceil_div(price, ed.exhaustible_divisor)
            lines.append(
                CostLine(f"  Exhaustible ({price} / {ed.exhaustible_divisor}, round up)", divided - price)
            )
            price = divided
    for p in mine:
        spec, params = p.parsed.spec, p.parsed.params
        if spec.name == "Reload" and ed.reload_from == "weapon":
            turns = params.turns or 0
            lines.append(CostLine(f"  Reload: {turns} (-{turns}DAC of {wdie})", -turns * wdac))
        elif spec.name in ("Capture", "Ensnare") and spec.in_edition(ed.key):
            lines.append(CostLine(f"  {spec.name} (-1DAC of {wdie})", -wdac))
        elif spec.name == "Inaccurate":
            if ed.inaccurate_dac:
                lines.append(CostLine(f"  Inaccurate (-{ed.inaccurate_dac}DAC of {wdie})", -ed.inaccurate_dac * wdac))
            else:
                lines.append(CostLine("  Inaccurate (no value printed, 0: A-58)", 0))
    return lines


def _attribute_points(
    parsed: ParsedAttribute, element: Element, weapon: int | None, bdie: str, ed: EditionCosts
) -> tuple[int, str] | None:
    """A-59 step 2 price of one attribute and a label; None when priced elsewhere."""
    spec: AttributeSpec = parsed.spec
    params = parsed.params
    rule = spec.cost(ed.key)
    bdac = dac(bdie)
    if rule is None:
        return 0, f"{parsed.text} (not in this edition, not priced)"
    if rule.kind == "points":
        return rule.amount, f"{parsed.text} ({rule.amount:+d})"
    if rule.kind == "dac":
        return rule.amount * bdac, f"{parsed.text} ({rule.amount:+d}DAC of {bdie})"
    formula = rule.formula
    if formula == "loose_cohesion":
        inches = params.inches if params.inches is not None else DEFAULT_LOOSE_INCHES
        free = ed.vehicle_free_loose_inches if element.kind == "vehicle" else 0
        n = steps(inches - free, LOOSE_STEP)
        note = f", first {free}\" free for a vehicle: A-43" if free else ""
        return n * bdac, f"{spec.name} {inches}\" ({n}DAC of {bdie}{note})"
    if formula == "jump":
        n = steps(params.inches or 0, JUMP_STEP)
        return n * bdac, f"{parsed.text} ({n}DAC of {bdie})"
    if formula == "transport":
        options = [(count * dac(die), count, die) for count, die in params.loads]
        best = max(options, default=(0, 0, "d4"))
        alt = " (highest load)" if len(options) > 1 else ""
        return best[0], f"Transport {best[1]} x {best[2]} ({best[1]} x 1DAC of {best[2]}){alt}"
    if formula == "multi_shot":
        if weapon is None:
            return 0, f"{parsed.text} (no ranged weapon, not priced)"
        w = element.weapons[weapon]
        wdie = weapon_die(element, w)
        if wdie is None:
            return 0, f"{parsed.text} (weapon die unknown, not priced)"
        extra = (params.rate or 1) - 1
        per = 1 + steps(w.range, ADDON_RANGE_STEP)
        return (
            extra * per * dac(wdie),
            f"{parsed.text} on {w.name} ({extra} extra x (1DAC + 1DAC/6\") = {extra * per}DAC of {wdie})",
        )
    if formula == "activate":
        linked = params.linked
        if linked is None:
            return 0, parsed.text
        target = main_ranged_index(element) if linked.spec.weapon_bound else weapon
        inner = _attribute_points(linked, element, target, bdie, ed)
        full = inner[0] if inner else 0
        half = ceil_div(full, 2)
        return half, f"Activate: {linked.text} (half of {full}, round up)"
    if formula == "mount":
        return 0, f"{parsed.text} (priced with its weapon)"
    # exhaustible, reload, hit_points, weapon_minus_dac, inaccurate: priced in another step
    return None


def price_element(element: Element, edition: str, opts: CostOptions | None = None) -> ElementCost:
    """One element's cost, each term a CostLine (the breakdown a UI can show). The cost (a
    frozen record, shared) is worked out once for each element, edition and options: every
    battle between the same forces (a replay, `muster simulate`) prices them again."""
    opts = opts or CostOptions()
    # (the options by their fields: hashing the record itself would have attrs make its
    # hash on first use, a compile on the way to a process's first battle)
    key = (id(element), edition, opts.ranged_base_dac, opts.free_attributes)
    found = _PRICED.get(key)
    if found is not None and found[0] is element:
        return found[1]
    cost = _price_element(element, edition, opts)
    if len(_PRICED) >= 4096:  # forces edited for hours in one process: keep the cache bounded
        _PRICED.clear()
    _PRICED[key] = (element, cost)  # (the element is kept with its cost: its id stays its own)
    return cost


# (id(element), edition, each field of the options) -> (element, its cost). The price reads
# the element's die, MOVE, weapons and attributes, all frozen with it.
_PRICED: dict[tuple[int, str, int, frozenset[str]], tuple[Element, ElementCost]] = {}


def _price_element(element: Element, edition: str, opts: CostOptions) -> ElementCost:
    """`price_element` worked out."""
    ed = EDITION_COSTS[edition]
    bdie = base_die(element)
    if bdie is None:
        return ElementCost(element.name, element.count, 0, (CostLine("no valid base die, not priced", 0),))
    bdac = dac(bdie)
    placed, _bad = placed_attributes(element)
    lines: list[CostLine] = [CostLine(f"Base die {bdie}", base_cost(bdie))]
    # Step 1: weapons with their own modifiers.
    for index in range(len(element.weapons)):
        lines.extend(_weapon_lines(element, index, placed, ed, opts))
    # Step 2: MOVE and attributes.
    move = element.move or 0
    if move > 0:
        n = steps(move, MOVE_STEP)
        lines.append(CostLine(f"MOVE {move}\" ({n}DAC of {bdie})", n * bdac))
    turrets = sum(1 for w in element.weapons if w.mount == "turret")
    for p in placed:
        spec = p.parsed.spec
        if spec.name in opts.free_attributes:
            lines.append(CostLine(f"{p.parsed.text} (free: every element in the game has it, 19.1)", 0))
            continue
        if spec.name == "Turret" and ed.turret == "flat":
            continue  # priced below, once per turret
        priced = _attribute_points(p.parsed, element, p.weapon, bdie, ed)
        if priced is not None:
            lines.append(CostLine(priced[1], priced[0]))
    if ed.turret == "flat":
        listed = any(p.parsed.spec.name == "Turret" for p in placed)
        count = max(turrets, 1 if listed else 0)
        if count and "Turret" not in opts.free_attributes:
            lines.append(CostLine(f"Turret x{count} (+1DAC of {bdie} each)", count * bdac))
    # Step 3: [1.7] Reload off the element's total.
    if ed.reload_from == "element":
        for p in placed:
            if p.parsed.spec.name == "Reload" and p.parsed.spec.name not in opts.free_attributes:
                turns = p.parsed.params.turns or 0
                lines.append(CostLine(f"{p.parsed.text} (-{turns}DAC of {bdie} off the total)", -turns * bdac))
    total = sum(int(line.points) for line in lines)
    if total < 1:
        lines.append(CostLine("floor: an element costs at least 1 point (A-59)", 1 - total))
        total = 1
    # Step 4: [SO] Hit Points, each half of the total so far.
    for p in placed:
        spec = p.parsed.spec
        if spec.name == "Hit Points" and spec.in_edition(edition) and spec.name not in opts.free_attributes:
            count = p.parsed.params.count or 0
            each = ceil_div(total, 2)
            lines.append(CostLine(f"Hit Points {count} ({count} x 50% of {total}, round up)", count * each))
    each_cost = sum(int(line.points) for line in lines)
    return ElementCost(element.name, element.count, each_cost, tuple(lines))


def price_force(force: Force, edition: str, opts: CostOptions, findings: list[Finding]) -> ForceCost:
    units = tuple(
        UnitCost(unit.name, tuple(price_element(e, edition, opts) for e in unit.elements))
        for unit in force.units
    )
    return ForceCost(units, tuple(findings))
