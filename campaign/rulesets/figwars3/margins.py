"""What a margin buys (spec 2.7, PR-2, PR-3): the ranged ladder and the melee price list.

Ranged: DP = margin // 2, plus one pin when the margin is odd.
Melee: the winner spends the margin on a package; the engine's default package is
"as many DP as possible, then a pin with an odd success left", the same as the ladder.
"""

from __future__ import annotations

from itertools import product

import attrs

MELEE_PRICES: dict[str, int] = {"pin": 1, "push": 1, "push_follow": 2, "dp": 2, "disarm": 4}


@attrs.frozen(order=True)
class Package:
    pin: int = 0
    push: int = 0  # 1: force back 1"
    follow: int = 0  # 1: the push is a push and follow (implies push)
    dp: int = 0
    disarm: int = 0

    @property
    def cost(self) -> int:
        push_cost = MELEE_PRICES["push_follow"] if self.follow else MELEE_PRICES["push"] * self.push
        return (
            MELEE_PRICES["pin"] * self.pin
            + push_cost
            + MELEE_PRICES["dp"] * self.dp
            + MELEE_PRICES["disarm"] * self.disarm
        )

    def label(self) -> str:
        parts = []
        if self.pin:
            parts.append("pin")
        if self.follow:
            parts.append("push+follow")
        elif self.push:
            parts.append("push")
        if self.dp:
            parts.append(f"{self.dp} DP")
        if self.disarm:
            parts.append("disarm")
        return "+".join(parts) if parts else "nothing"


def ranged_effects(margin: int) -> Package:
    """The ranged ladder, extended past 5 by PR-2."""
    if margin <= 0:
        return Package()
    return Package(pin=margin % 2, dp=margin // 2)


def default_melee(margin: int) -> Package:
    """PR-2's default allocation: maximise DP, then a pin with an odd success."""
    return ranged_effects(margin)


def check_package(package: Package, margin: int) -> str | None:
    """Why a chosen melee package is not allowed for this margin, or None."""
    if package.pin > 1:
        return "at most one pinned result per attack (2.7)"
    if package.push > 1 or package.follow > 1 or (package.follow and not package.push):
        return "at most one push per attack; a follow is part of the push (2.7)"
    if package.disarm > 1:
        return "at most one disarm per attack (PR-3)"
    if package.cost > margin:
        return f"{package.label()} costs {package.cost}, more than the margin of {margin}"
    return None


def legal_packages(margin: int) -> list[Package]:
    """Every package whose cost is exactly the margin (2.7's lists), maximal ones above 5."""
    out = []
    for pin, push, follow, disarm in product((0, 1), (0, 1), (0, 1), (0, 1)):
        if follow and not push:
            continue
        base = Package(pin, push, follow, 0, disarm)
        rest = margin - base.cost
        if rest < 0 or rest % 2:
            continue
        out.append(attrs.evolve(base, dp=rest // 2))
    return sorted(out, key=lambda p: (p.cost, p.label()))
