"""Vehicles and mecha in melee (spec 10.10-10.12, PR-46-PR-48): strikes against vehicles
and mecha, mecha striking, and the three kinds of ram -- each with its exact odds.

A ram is not an opposed d6 roll of the usual kind: fixed successes (RAM, 1d8, 1d4) are
added to the pools, so it has its own description (`Ram`) read both by `resolve_ram`
(the dice) and `ram_odds` (fractions), which walk the same steps.
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import Any, Literal

import attrs

from campaign.engine.dice import roll as request_roll
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.attack import OpposedRoll, Side, Term
from campaign.rulesets.figwars3.melee import weapons_atk
from campaign.rulesets.figwars3.pool import CountsDist, pool_counts, successes
from campaign.rulesets.figwars3.profile import Profile
from campaign.rulesets.figwars3.rerolls import ReRoll, apply_dist, apply_face, pick_index
from campaign.rulesets.figwars3.vehicles import Machine

FAST_RAM_INCHES = 10  # a rammer that moved 10" or more this turn adds Mighty Blow (+1d4 DP)
RamKind = Literal["vehicle", "troops", "mecha"]


# --- strikes against and by machines (10.10, 10.12) ---------------------------------------


def strike_machine(attacker: Profile, target: Machine, attacker_weapons: tuple[str, ...] = (), mecha_attacker: Machine | None = None,
                   stationary: bool = False) -> OpposedRoll:
    """A trooper, mounted model or mecha strikes a vehicle or a mecha. A vehicle rolls its
    DEF only (10.10); a mecha attacked by troops rolls pilot TQ + DEF (10.12); neither
    fights back, and no multiple-attacker bonus applies. Mecha against mecha: both roll
    in full and either may win. A Chainfist adds 1 DP to a `stationary` (immobilised) one."""
    a_w = attacker.melee_weapons(attacker_weapons)
    if mecha_attacker is not None:
        att = [Term("pilot TQ", mecha_attacker.tq), Term("DEF", mecha_attacker.defence), Term("ATK", weapons_atk(a_w))]
    else:
        att = [Term("DEF", attacker.defence), Term("ATK", weapons_atk(a_w))]
    a_rr = tuple(r for r in (ReRoll("hero") if attacker.hero else None, ReRoll("Master Warrior") if attacker.has("Master Warrior") else None) if r)
    if target.kind == "vehicle":
        dfn = Side(target.name, (Term("DEF", target.defence),), stun_immune=True)
        counter = False
    else:
        terms = [Term("pilot TQ", target.tq), Term("DEF", target.defence)]
        counter = mecha_attacker is not None
        if counter:
            terms.append(Term("ATK", weapons_atk(target.profile().melee_weapons())))
        dfn = Side(target.name, tuple(terms), (ReRoll("hero"),) if target.hero_pilot else (), stun_immune=True)
    notes = ("the machine only defends: no counter-attack, no multiple-attacker bonus (10.10, 10.12)",) if not counter else ()
    return OpposedRoll(
        kind="melee",
        attacker=Side(
            attacker.name, tuple(att), a_rr, strong=attacker.has("Strong"), mighty_blow=attacker.has("Mighty Blow"),
            chainfist=stationary and any(w.rider == "chainfist" for w in a_w),
            stun_immune=mecha_attacker is not None,
        ),
        defender=dfn,
        counter=counter,
        notes=notes,
    )


def mecha_strikes_trooper(mecha: Machine, target: Profile, target_weapons: tuple[str, ...] = ()) -> OpposedRoll:
    """A mecha strikes a trooper (10.12): pilot TQ + DEF + ATK; the trooper rolls its normal
    melee pool and may counter-attack."""
    d_w = target.melee_weapons(target_weapons)
    att = Side(
        mecha.name,
        (Term("pilot TQ", mecha.tq), Term("DEF", mecha.defence), Term("ATK", weapons_atk(mecha.melee))),
        (ReRoll("hero"),) if mecha.hero_pilot else (),
        stun_immune=True,
    )
    d_rr = (ReRoll("hero"),) if target.hero else ()
    dfn = Side(target.name, (Term("DEF", target.defence), Term("ATK", weapons_atk(d_w))), d_rr, strong=target.has("Strong"),
               mighty_blow=target.has("Mighty Blow"), aggressive=target.has("Aggressive"))
    return OpposedRoll(kind="melee", attacker=att, defender=dfn, counter=True)


# --- rams (10.11) --------------------------------------------------------------------------


@attrs.frozen
class RamSide:
    name: str
    dice: int
    fixed: int = 0  # successes added: RAM
    extra_die: int = 0  # a die read as successes: 8 (troops' 1d8, PR-47) or 4 (a mecha's 1d4)
    rerolls: tuple[ReRoll, ...] = ()

    def describe(self) -> str:
        parts = [f"{self.dice}d"]
        if self.fixed:
            parts.append(f"+{self.fixed}")
        if self.extra_die:
            parts.append(f"+1d{self.extra_die}")
        return " ".join(parts)


@attrs.frozen
class Ram:
    kind: RamKind
    rammer: RamSide
    target: RamSide
    fast: bool = False  # moved 10" or more: +1d4 on what it inflicts (vehicles and troops; PR-46)


def ram(vehicle: Machine, target: Machine | Profile, moved: int, ram_rating: int | None = None) -> Ram:
    """The description of one ram by `vehicle` (after movement damage: pass `ram_rating`)."""
    if vehicle.kind != "vehicle":
        raise IllegalCommand("FW3 10.11", f"{vehicle.name} is not a vehicle and cannot ram")
    rating = vehicle.ram if ram_rating is None else ram_rating
    fast = moved >= FAST_RAM_INCHES
    if isinstance(target, Machine) and target.kind == "vehicle":
        return Ram(
            "vehicle",
            RamSide(vehicle.name, vehicle.tq + vehicle.defence, rating),
            RamSide(target.name, target.tq + target.defence, target.ram),
            fast,
        )
    driver = RamSide(vehicle.name, vehicle.tq, rating)  # no re-rolls for the driver (2.6)
    if isinstance(target, Machine):
        rr = (ReRoll("hero"),) if target.hero_pilot else ()
        return Ram("mecha", driver, RamSide(target.name, target.tq + target.defence, 0, 4, rr), fast)
    rr = (ReRoll("hero"),) if target.hero else ()
    return Ram("troops", driver, RamSide(target.name, target.defence, 0, 8, rr), fast)


@attrs.frozen
class RamResult:
    rammer_total: int
    target_total: int
    winner: Literal["rammer", "target", "tie"]
    target_dp: int = 0
    rammer_dp: int = 0
    displaced: bool = False  # the target avoided it and is moved aside


def judge_ram(r: Ram, a: int, d: int) -> tuple[Literal["rammer", "target", "tie"], int, int, bool]:
    """(winner, base DP on target, base DP on rammer, displaced) before any d4 (10.11)."""
    if r.kind == "vehicle":
        if a == d:
            return "tie", 1, 1, False
        margin = abs(a - d)
        win: Literal["rammer", "target"] = "rammer" if a > d else "target"
        dealt = margin // 2
        return (win, dealt, 0, False) if win == "rammer" else (win, 0, dealt, False)
    if r.kind == "troops":
        if d > a:
            return "target", 0, 0, True
        return ("tie" if a == d else "rammer"), 0, 0, False  # struck: 1d4 DP regardless of DEF
    if d > a:
        return "target", 0, 0, True
    if a == d:
        return "tie", 1, 1, False
    return "rammer", (a - d) // 2, 0, False


def _side_roll(side: RamSide, label: str) -> Generator[Any, Any, int]:
    faces: list[int] = []
    if side.dice > 0:
        faces = list((yield from request_roll(6, side.dice, f"{side.dice}d6: {side.name} {label}")))
    for reroll in side.rerolls:
        index = pick_index(faces, reroll)
        if index is not None:
            (new,) = yield from request_roll(6, 1, f"re-roll ({reroll.source}): {side.name}")
            faces = apply_face(faces, index, new, reroll)
    total = successes(faces) + side.fixed
    if side.extra_die:
        (face,) = yield from request_roll(8, 1, f"{side.name}: +1d{side.extra_die} successes" + (" (a d8 halved)" if side.extra_die == 4 else ""))
        total += face if side.extra_die == 8 else (face + 1) // 2
    return total


def _d4(purpose: str) -> Generator[Any, Any, int]:
    (face,) = yield from request_roll(8, 1, f"1d4 (a d8 halved): {purpose}")
    return (face + 1) // 2


def resolve_ram(r: Ram) -> Generator[Any, Any, RamResult]:
    """Roll a ram; the winner's self-damage (half of all it inflicted, PR-46) included."""
    a = yield from _side_roll(r.rammer, "rams")
    d = yield from _side_roll(r.target, "braces")
    winner, to_target, to_rammer, displaced = judge_ram(r, a, d)
    if r.kind == "troops" and not displaced:
        to_target = yield from _d4("run over")
        if r.fast:
            to_target += yield from _d4("Mighty Blow (moved 10\" or more)")
    elif winner == "rammer" and to_target and r.fast and r.kind == "vehicle":
        to_target += yield from _d4("Mighty Blow (moved 10\" or more)")
    if winner == "rammer" and r.kind != "troops":
        to_rammer = (to_target + 1) // 2
    elif winner == "target" and r.kind == "vehicle":
        to_target = (to_rammer + 1) // 2  # the braced vehicle won: it takes half of what it dealt
    return RamResult(a, d, winner, to_target, to_rammer, displaced)


def driver_check_after_run_over(tq: int) -> Generator[Any, Any, bool]:
    """An Easy (1+) check once per ram move that struck troops; failing: stop at the end
    of the move and take 1 DP (PR-46). No re-rolls for the driver."""
    faces: list[int] = []
    if tq > 0:
        faces = list((yield from request_roll(6, tq, "driver's Easy check after running troops over")))
    return successes(faces) >= 1


# --- exact odds ---------------------------------------------------------------------------


def _side_dist(side: RamSide) -> dict[int, Fraction]:
    dist: CountsDist = pool_counts(side.dice)
    for reroll in side.rerolls:
        dist = apply_dist(dist, reroll)
    out: dict[int, Fraction] = {}
    extras = {0: Fraction(1)}
    if side.extra_die == 8:
        extras = {k: Fraction(1, 8) for k in range(1, 9)}
    elif side.extra_die == 4:
        extras = {k: Fraction(1, 4) for k in range(1, 5)}
    for counts, p in dist.items():
        for e, pe in extras.items():
            k = counts.total + side.fixed + e
            out[k] = out.get(k, Fraction(0)) + p * pe
    return out


D4: dict[int, Fraction] = {k: Fraction(1, 4) for k in range(1, 5)}


@attrs.frozen
class RamOdds:
    winner: dict[str, Fraction]
    target_dp: dict[int, Fraction]
    rammer_dp: dict[int, Fraction]

    @property
    def p_struck(self) -> Fraction:
        return sum((p for w, p in self.winner.items() if w != "target"), Fraction(0))


def ram_odds(r: Ram) -> RamOdds:
    winner: dict[str, Fraction] = {}
    target_dp: dict[int, Fraction] = {}
    rammer_dp: dict[int, Fraction] = {}

    def add(dist: dict[Any, Fraction], k: Any, p: Fraction) -> None:
        dist[k] = dist.get(k, Fraction(0)) + p

    for a, pa in _side_dist(r.rammer).items():
        for d, pd in _side_dist(r.target).items():
            p = pa * pd
            win, to_t, to_r, displaced = judge_ram(r, a, d)
            add(winner, win, p)
            if r.kind == "troops" and not displaced:
                for x, px in D4.items():
                    if r.fast:
                        for y, py in D4.items():
                            add(target_dp, x + y, p * px * py)
                    else:
                        add(target_dp, x, p * px)
                add(rammer_dp, 0, p)
                continue
            hits = {to_t: Fraction(1)}
            if win == "rammer" and to_t and r.fast and r.kind == "vehicle":
                hits = {to_t + x: px for x, px in D4.items()}
            for t, pt in hits.items():
                if win == "rammer" and r.kind != "troops":
                    add(target_dp, t, p * pt)
                    add(rammer_dp, (t + 1) // 2, p * pt)
                elif win == "target" and r.kind == "vehicle":
                    add(target_dp, (to_r + 1) // 2, p)
                    add(rammer_dp, to_r, p)
                else:
                    add(target_dp, t, p * pt)
                    add(rammer_dp, to_r, p * pt)
    clean = lambda d: {k: d[k] for k in sorted(d) if d[k]}  # noqa: E731
    return RamOdds(clean(winner), clean(target_dp), clean(rammer_dp))
