"""Vehicle weapons (spec 17.2), in the same row format as the troops' weapons.

Launchers with several munitions keep them as ammunition rounds (`ammo`), each with the
launcher's range and letters. Heavy weapons on a vehicle fire from a moving vehicle as
normal weapons (17.2 note); the heavy autocannon's anti-personnel round is the one
autofire weapon with a blast (PR-54: a single blast attack, no burst).
"""

from __future__ import annotations

from campaign.rulesets.figwars3.weapons import RANGED, RangedWeapon, ammo, ranged


def _catalogue(*weapons: RangedWeapon) -> dict[str, RangedWeapon]:
    return {w.name: w for w in weapons}


VEHICLE_RANGED: dict[str, RangedWeapon] = _catalogue(
    ranged("light autocannon", "25", "50", "100", "4d", "A2, H2"),
    ranged("rotary light autocannon", "20", "40", "80", "5d", "A2, H2"),
    ammo(
        ranged("heavy autocannon", "30", "60", "120", "-", "A2, H2"),
        (("standard solid munitions", "5d", "-"), ("anti-personnel munitions", "5d (1d)", "b")),
    ),
    ammo(
        ranged("light cannon", "40", "80", "160", "-", "H2"),
        (("high explosive (HE)", "6d (2d)", "B"), ("high explosive armor piercing (HEAP)", "7d (1d)", "b")),
    ),
    ammo(
        ranged("heavy cannon", "50", "100", "200", "-", "H2, S"),
        (
            ("high explosive (HE)", "7d (3d)", "B"),
            ("high explosive armor piercing (HEAP)", "8d (1d)", "b"),
            ("armor piercing dart (APD)", "9d", "-"),
        ),
    ),
)

# Everything a vehicle or mecha may mount: its own list and every troop weapon.
MOUNTABLE: dict[str, RangedWeapon] = {**RANGED, **VEHICLE_RANGED}
