"""Movement from the path the players report (spec 8.1-8.6, PR-30, PR-32): terrain costs,
the obstacle test, jumping gaps and down, tall models and falling. The engine cannot
measure; it checks the cost of a move against the allowance and rolls the tests.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from campaign.engine.dice import roll as request_roll
from campaign.engine.errors import IllegalCommand

# 8.1: inches of allowance per inch moved; None is impassable. Climbing turns a sheer
# face into an incline and an incline into a slope.
TERRAIN_COST: dict[str, int | None] = {"open": 1, "difficult": 2, "incline": 2, "ladder": 2, "sheer": None}
CLIMBING: dict[str, str] = {"sheer": "incline", "incline": "open"}

# 8.2: the obstacle test on 1d8 (modified): 1-2 fails, 3-6 crosses and stops, 7-8 crosses freely.
OBSTACLES = ("none", "low", "high")  # high: above chest height, up to twice it (-1)
OBSTACLE_HIGH = -1

# 8.5 with PR-30: leg length classes -> (jump bonus, inches taken off a fall).
LEGS: dict[str, tuple[int, int]] = {"average": (0, 0), "1-3in": (1, 2), "3-5in": (2, 4), "over_5in": (2, 4)}

# 8.6: (more than this many inches fallen, DP, actions lost), highest first.
FALLS: tuple[tuple[int, int, int], ...] = (
    (12, 6, 2), (9, 5, 2), (7, 4, 2), (5, 3, 1), (3, 2, 1), (2, 1, 1), (1, 0, 1),
)

JUMP_DIE = 8


def path_cost(inches: int, rough: dict[str, int], climbing: bool) -> int:
    """The allowance a move of `inches` uses when `rough` of them (by terrain class) were
    not open ground."""
    cost = inches
    for terrain, length in rough.items():
        if terrain not in TERRAIN_COST:
            raise IllegalCommand("FW3 8.1", f"no terrain class {terrain!r} (classes: {', '.join(TERRAIN_COST)})")
        if isinstance(length, bool) or not isinstance(length, int) or length < 0:
            raise IllegalCommand("FW3 8.1", f"{terrain}: inches are a whole number")
        if climbing and terrain in CLIMBING:
            terrain = CLIMBING[terrain]
        per = TERRAIN_COST[terrain]
        if per is None:
            raise IllegalCommand("FW3 8.1", "a sheer face is impassable without Climbing")
        cost += (per - 1) * length
    if sum(rough.values()) > inches:
        raise IllegalCommand("FW3 8.1", "more rough inches than the move's length")
    return cost


def obstacle_result(total: int) -> str:
    """'fail' (the move ends before it), 'stop' (over, the move ends), 'free' (over, go on)."""
    if total <= 2:
        return "fail"
    if total <= 6:
        return "stop"
    return "free"


def obstacle_test(height: str, extra_inches: int) -> Generator[Any, Any, str]:
    (face,) = yield from request_roll(JUMP_DIE, 1, "obstacle test: 1d8")
    mod = extra_inches + (OBSTACLE_HIGH if height == "high" else 0)
    return obstacle_result(face + mod)


def jump_bonus(run_up: int, legs: str) -> int:
    """8.3: half the inches moved straight before the edge, rounded down, plus tall legs."""
    return run_up // 2 + LEGS[legs][0]


def jump_gap(gap: int, run_up: int, legs: str, far_side_higher: bool) -> Generator[Any, Any, bool]:
    """1d8 + bonus must beat the gap (whole inches, rounded up by the players)."""
    (face,) = yield from request_roll(JUMP_DIE, 1, f"jump a {gap}\" gap: 1d8")
    return face + jump_bonus(run_up, legs) - (1 if far_side_higher else 0) > gap


def jump_down(height: int, legs: str) -> Generator[Any, Any, bool]:
    """8.4, PR-32: no run-up; 1d8 + tall legs must beat the drop."""
    (face,) = yield from request_roll(JUMP_DIE, 1, f"jump down {height}\": 1d8")
    return face + LEGS[legs][0] > height


def fall(inches: int, legs: str) -> tuple[int, int]:
    """8.6: (DP, actions lost) for a fall, after the tall-model reduction."""
    fallen = max(inches - LEGS[legs][1], 0)
    for more_than, dp, lost in FALLS:
        if fallen > more_than:
            return dp, lost
    return 0, 0


# 8.8 special movers (4.3 #11, #16, #17; PR-31 on the 2 x MOV a turn).
JUMP_PACK_INCHES = 12
LEAP_INCHES = 4
DRAG_COST = 3  # 10.6: inches of MOV per inch an entangled victim drags its entangler
STAND_UP_INCHES = 2  # standing up from prone (or climbing out of a crater) at the start of a move
MODES = ("ground", "fly", "jump")


def special_move(mode: str, inches: int, rough: dict[str, int], climbing: bool, mov: int, flight: int,
                 running: bool, leap: int = 0, stand_up: bool = False) -> tuple[int, int, int]:
    """(allowance, cost, inches counted against 2 x MOV a turn) of one walk or run.
    `ground`: MOV (doubled by a run); a run may add up to 4" of Leap, whose inches ignore
    difficult ground and are not counted (PR-31). `fly`: the flight value (doubled by a
    run), terrain ignored. `jump`: a Jump Pack's 12" over any terrain, plus MOV once on a
    run (neither doubled); only the MOV part pays for terrain or counts. Standing up
    first costs 2"."""
    if mode not in MODES:
        raise IllegalCommand("FW3 8.8", f"no way of moving {mode!r} ({', '.join(MODES)})")
    if not 0 <= leap <= LEAP_INCHES or (leap and (mode != "ground" or not running)):
        raise IllegalCommand("FW3 4.3 Leap", f"a Leap adds up to {LEAP_INCHES}\" to a run on foot")
    up = STAND_UP_INCHES if stand_up else 0
    if mode == "fly":
        if not flight:
            raise IllegalCommand("FW3 4.3 Flight", "only a flier flies")
        return flight * (2 if running else 1), inches + up, inches
    if mode == "jump":
        leapt = min(inches, JUMP_PACK_INCHES)
        ground = inches - leapt
        if ground and not running:
            raise IllegalCommand("FW3 4.3 Jump Pack", f"a walk with a Jump Pack is the {JUMP_PACK_INCHES}\" jump alone")
        allowance = JUMP_PACK_INCHES + (mov if running else 0)
        return allowance, leapt + path_cost(ground, rough, climbing) + up, ground
    eased = dict(rough)
    if leap and eased.get("difficult"):
        eased["difficult"] = max(eased["difficult"] - leap, 0)
    allowance = mov * (2 if running else 1) + leap
    return allowance, path_cost(inches, eased, climbing) + up, inches - leap
