"""Ways of firing beyond one weapon at one model (spec 11.16, 11.22, 11.24, 17.7): burst
fire split among models, two ranged weapons at once, the Plasma weapons' specials and
the optional out-of-ammo roll. Pure rules: each function turns the facts of a shot into
changes to the `OpposedRoll` that ranged.py builds, or says why the shot is refused,
so odds and resolution read the same description.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import Any

import attrs

from campaign.engine.dice import roll as request_roll
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import FactSpec
from campaign.rulesets.figwars3.attack import OpposedRoll, Side, Term
from campaign.rulesets.figwars3.weapons import RangedWeapon

# Facts a Shoot may carry besides the table facts of 18.2 (ranged.RANGED_FACTS).
SHOT_EXTRAS = ("under_template", "overcharge", "second_weapon", "second_target_model", "burst", "burst_arc", "from_side", "in_arc")

# 17.7: R* weapons. The Plasma Pistol may spend 2 actions on one shot (Aim not counted)
# for ATK 4d and must then be reloaded; the Plasma Rifle is emptied by its second shot
# in a turn. Other R weapons reload after every shot.
OVERCHARGE_ATK: dict[str, int] = {"Plasma Pistol": 4}
OVERCHARGE_COST = 2
EMPTIED_BY_SHOT: dict[str, int] = {"Plasma Rifle": 2}

# 11.22 optional rule (PR-58): a weapon scoring no success rolls 1d8, empty on 1-3.
OUT_OF_AMMO_DIE = 8
OUT_OF_AMMO_FACES = (1, 2, 3)

# 11.24: two ranged weapons fired by one action.
PAIR_ONE_TARGET = -1
PAIR_TWO_TARGETS = -2
GUNSLINGER_PAIR = {PAIR_ONE_TARGET: 0, PAIR_TWO_TARGETS: -1}


def shot_cost(weapon: RangedWeapon, overcharge: bool, base: int) -> int:
    """Actions a shot takes: the weapon's (slow: 2), or 2 for an overcharged pistol."""
    if overcharge:
        if weapon.name not in OVERCHARGE_ATK:
            raise IllegalCommand("FW3 17.7", f"{weapon.name} cannot be overcharged")
        return max(base, OVERCHARGE_COST)
    return base


def overcharged(weapon: RangedWeapon, overcharge: bool) -> RangedWeapon:
    return attrs.evolve(weapon, atk=OVERCHARGE_ATK[weapon.name]) if overcharge and weapon.name in OVERCHARGE_ATK else weapon


def empties(weapon: RangedWeapon, overcharge: bool, shots_this_turn: int) -> bool:
    """Whether this shot leaves the weapon needing a Reload (shots counted with this one)."""
    if weapon.name in OVERCHARGE_ATK:
        return overcharge
    if weapon.name in EMPTIED_BY_SHOT:
        return shots_this_turn >= EMPTIED_BY_SHOT[weapon.name]
    return weapon.reload


def ammo_check_applies(weapon: RangedWeapon) -> bool:
    """PR-58: any non-R ranged weapon but hand grenades (thrown and arcane attacks are not
    ranged weapons here); R* weapons count as R."""
    return not weapon.reload and not weapon.grenade


def out_of_ammo() -> Generator[Any, Any, bool]:
    (face,) = yield from request_roll(OUT_OF_AMMO_DIE, 1, "out of ammo? 1d8, empty on 1-3")
    return face in OUT_OF_AMMO_FACES


def with_term(opposed: OpposedRoll, term: Term, keep_rerolls: bool = True) -> OpposedRoll:
    """The same roll with one more attacker term (and, if not `keep_rerolls`, none of its re-rolls)."""
    side = attrs.evolve(opposed.attacker, terms=(*opposed.attacker.terms, term),
                        rerolls=opposed.attacker.rerolls if keep_rerolls else ())
    return attrs.evolve(opposed, attacker=side)


def pair_problem(first: RangedWeapon, second: RangedWeapon) -> str:
    """Why two weapons may not fire together (11.24), or ""."""
    for w in (first, second):
        if w.heavy or w.sniper:
            return f"{w.name} is a heavy or sniper weapon and cannot be fired as a pair"
        if w.blast or w.spray or w.grenade or w.indirect:
            return f"{w.name} is a template or placed weapon: fire it alone"
    return ""


def pair_penalty(two_targets: bool, gunslinger: bool) -> int:
    penalty = PAIR_TWO_TARGETS if two_targets else PAIR_ONE_TARGET
    return GUNSLINGER_PAIR[penalty] if gunslinger else penalty


def pair_roll(opposed: OpposedRoll, gunslinger: bool, second_atk: int | None = None, first: bool = True) -> OpposedRoll:
    """One roll of a two-weapon shot (11.24), from the roll of one weapon alone.
    With `second_atk`, both weapons at one target: both ATKs, TQ once, -1d (Gunslinger:
    none). Without, one weapon of a split at two targets: -2d (Gunslinger -1d), the
    shooter's re-rolls with the `first` roll only. Refused when no die is left (2.2)."""
    out = opposed
    if second_atk is not None:
        out = with_term(out, Term("second weapon ATK", second_atk))
    penalty = pair_penalty(second_atk is None, gunslinger)
    if penalty:  # a split always has one, so its second roll loses the re-rolls here
        out = with_term(out, Term("two weapons", penalty), keep_rerolls=first)
    if out.attacker.pool <= 0:
        raise IllegalCommand("FW3 2.2", f"{out.attacker.name}'s two-weapon shot comes to {out.attacker.pool} dice")
    return out


@attrs.frozen
class BurstShare:
    model: str
    dice: int
    gap: int = 0  # inches from the previous target's base (PR-56)
    cover: str = "none"


def share_parts(autofire: int, covers: tuple[str, ...]) -> tuple[FactSpec, ...]:
    """What each further target of a burst carries after its model id (model:dice:gap:cover):
    a picker fills in these defaults (the least share, no gap, no cover)."""
    return (FactSpec("dice", (), autofire, f"dice for this target (at least A{autofire})"),
            FactSpec("gap", (), 0, "inches from the previous target's base"),
            FactSpec("cover", covers, "none", "this target's cover"))


def _share_text(text: str) -> dict[str, Any]:
    """"model:dice[:gap[:cover]]", as a typed list gives it."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) < 2 or not all(p.isdigit() for p in parts[1:3]):
        raise IllegalCommand("FW3 11.16", f"a burst target is model:dice[:gap[:cover]], not {text!r}")
    item: dict[str, Any] = {"model": parts[0], "dice": int(parts[1])}
    if len(parts) > 2:
        item["gap"] = int(parts[2])
    if len(parts) > 3:
        item["cover"] = parts[3]
    return item


def burst_shares(value: Any) -> list[BurstShare]:
    """The further targets of a burst as the command gives them: [{model, dice, gap, cover}]
    or ["model:dice:gap:cover"]."""
    if not isinstance(value, list):
        raise IllegalCommand("FW3 11.16", "burst is a list of further targets: {model, dice, gap, cover}")
    out = []
    for item in value:
        if isinstance(item, str):
            item = _share_text(item)
        if not isinstance(item, Mapping) or not isinstance(item.get("model"), str):
            raise IllegalCommand("FW3 11.16", f"a burst target needs a model id, not {item!r}")
        dice, gap = item.get("dice", 0), item.get("gap", 0)
        if isinstance(dice, bool) or not isinstance(dice, int) or isinstance(gap, bool) or not isinstance(gap, int) or gap < 0:
            raise IllegalCommand("FW3 11.16", f"{item['model']}: dice and gap are whole numbers")
        out.append(BurstShare(item["model"], dice, gap, str(item.get("cover", "none"))))
    return out


def gap_cost(autofire: int, gap: int) -> int:
    """11.16: A dice for every full 2" between targets; under 2" costs nothing."""
    return autofire * (gap // 2)


def split_burst(pool: int, autofire: int, shares: Sequence[BurstShare]) -> int:
    """The initial target's dice once the further shares and gaps are paid (PR-56); every
    share at least the autofire rating. IllegalCommand when the dice do not go round."""
    if not autofire:
        raise IllegalCommand("FW3 11.16", "only an autofire (A#) weapon can burst")
    for share in shares:
        if share.dice < autofire:
            raise IllegalCommand("FW3 11.16", f"each burst target takes at least A{autofire} dice; {share.model} gets {share.dice}")
    first = pool - sum(s.dice + gap_cost(autofire, s.gap) for s in shares)
    if first < autofire:
        raise IllegalCommand("FW3 11.16", f"the burst's {pool} dice leave {first} for the first target, fewer than A{autofire}")
    return first


def skipped(arc: Any, first: str, shares: Sequence[BurstShare]) -> list[str]:
    """11.16: burst fire skips no visible model in the arc between its targets, friend or
    foe. `arc` lists the models the players see there; those not allotted dice."""
    if not isinstance(arc, list) or not all(isinstance(m, str) for m in arc):
        raise IllegalCommand("FW3 11.16", "burst_arc is a list of model ids")
    targets = {first, *(s.model for s in shares)}
    return [m for m in arc if m not in targets]


def share_of(opposed: OpposedRoll, dice: int, first: bool) -> OpposedRoll:
    """One share of a burst: `dice` from the whole pool; re-rolls go with the first share."""
    side = Side(opposed.attacker.name, (Term("burst share", dice),), opposed.attacker.rerolls if first else ())
    return attrs.evolve(opposed, attacker=side)
