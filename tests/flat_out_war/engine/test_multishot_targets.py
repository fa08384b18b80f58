"""Multi-shot (A-22): each shot may pick its own eligible target, with that target's facts."""

import pytest

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from campaign.rulesets.flat_out_war.engine.shots import ShotError, parse_shot_target, shot_numbers

from .battle_helpers import V17, Weapon, battle, el, expect_roll, force, initiative, texts

GUN = Weapon("Gun", "ranged", "d8", 12, traits=("Multi-shot 3x",))


def setup(blue=None):
    blue = blue or [("Blues", (el("B", count=2),)), ("Greens", (el("G"),))]
    b = battle(force("Red", ("Reds", (el("Gunner", weapons=(GUN,)),))), force("Blue", *blue))
    if isinstance(b.pending, Decision):  # an Entrenched unit's position first (setup 3.5)
        b.apply({"type": "entrench", "unit": b.pending.data["unit"], "facts": {"location": "the wood"}})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "reds"})
    return b


def shoot(b, *entries, **facts):
    b.apply({"type": "shoot", "unit": "reds", "target": "blues", "facts": {"shot_targets": list(entries), **facts}})


def test_entries_are_read_with_their_own_facts() -> None:
    choices = {"range_band": ("short", "long", "out")}
    e = parse_shot_target("reds/gunner:Gun#3=greens range_band=long", choices)
    assert (e.element, e.weapon, e.shot, e.target, e.facts) == ("reds/gunner", "Gun", 3, "greens", (("range_band", "long"),))
    assert parse_shot_target("#2=greens", choices).matches("any/el", "Any", 2)
    for bad in ("greens", "#0=greens", "#2=", "#2=greens colour=red", "#2=greens range_band=far"):
        with pytest.raises(ShotError):
            parse_shot_target(bad, choices)
    assert shot_numbers([("a", 0), ("a", 0), ("b", 0), ("a", 1), ("a", 0)]) == [1, 2, 1, 1, 3]


def test_without_entries_every_shot_goes_to_the_command_target() -> None:
    b = setup()
    shoot(b)
    expect_roll(b, 8, 3, "to hit, Reds shooting at Blues")


def test_one_shot_goes_to_another_unit_at_its_own_range() -> None:
    b = setup()
    shoot(b, "reds/gunner#3=greens range_band=long")
    expect_roll(b, 8, 2, "Reds shooting at Blues")
    b.roll([1, 1])  # both miss
    req = expect_roll(b, 8, 1, "Reds shooting at Greens")
    assert "long range -1" in req.purpose
    b.roll([5])  # 5 - 1 = 4: a hit on the green
    expect_roll(b, 6, 1, "recovery, G hit")
    b.roll([1])
    assert not b.state.element("greens/g").alive
    assert any("G (Greens) is hit" in t for t in texts(b))


def test_a_shot_may_name_an_element_which_allocates_the_hit() -> None:
    b = setup()
    shoot(b, "#1=blues/b-2")
    b.roll([6, 1, 1])  # one unit, same die and modifier: one batch; shot 1 hits and goes to b-2
    assert b.pending.purpose.startswith("1 x d6 recovery, B hit")
    b.roll([1])
    assert not b.state.element("blues/b-2").alive and b.state.element("blues/b").alive


def test_a_shot_at_an_ineligible_target_is_refused() -> None:
    b = setup([("Blues", (el("B"),)), ("Greens", (el("G", attributes=("Entrenched",)),))])
    with pytest.raises(IllegalCommand, match="entrenched"):
        shoot(b, "#2=greens")
    with pytest.raises(IllegalCommand, match="out of range"):
        shoot(b, "#2=blues range_band=out")
    with pytest.raises(IllegalCommand, match="A-22"):
        shoot(b, "#4=blues")  # a 3x weapon has no fourth shot
    with pytest.raises(IllegalCommand, match="no target unit 'nobody'"):
        shoot(b, "#2=nobody")
    with pytest.raises(IllegalCommand, match="no element 'blues/zz'"):
        shoot(b, "#2=blues/zz")


def test_fire_linked_weapons_fire_together_at_one_target() -> None:
    from .battle_helpers import SO

    guns = (Weapon("Cannon", "ranged", "d8", 12), Weapon("Coax", "ranged", "d6", 6, mount="extra", traits=("Reload: 1",)))
    for edition in (V17, SO):
        b = battle(force("Red", ("Tank", (el("Tank", kind="vehicle", weapons=guns,
                                                attributes=("Fire Linked", "Extra weapon")),)), edition=edition),
                   force("Blue", ("Blues", (el("B"),)), ("Greens", (el("G"),)), edition=edition), edition=edition)
        initiative(b, "red")
        b.apply({"type": "activate", "unit": "tank"})
        with pytest.raises(IllegalCommand, match="fire together or not at all"):
            b.apply({"type": "shoot", "unit": "tank", "target": "blues", "facts": {"weapons": ["Cannon"]}})
        if edition == SO:  # a reloading Coax keeps the Cannon from firing too
            b.state.element("tank/tank").data["reload"] = {"1": 1}
            with pytest.raises(IllegalCommand, match="every Fire Linked weapon must be able to fire"):
                b.apply({"type": "shoot", "unit": "tank", "target": "blues"})
            b.state.element("tank/tank").data["reload"] = {}
        b.apply({"type": "shoot", "unit": "tank", "target": "blues"})
        assert b.pending.count == 1 and "Blues" in b.pending.purpose  # one roll per weapon


# --- odds for the whole action (A-22) ----------------------------------------------
from fractions import Fraction as F  # noqa: E402

HIT = F(5, 8)  # a d8 shot hits on 4+
P_D6 = HIT * F(1, 2)  # ... and a d6 fails its recovery on 1-3
P_D10 = HIT * F(3, 10)  # ... a d10 on 1-3


def odds(b, *entries, **facts):
    return b.rules.odds(b.state, b.types.from_dict(
        {"type": "shoot", "unit": "reds", "target": "blues", "facts": {"shot_targets": list(entries), **facts}}))


def test_odds_cover_every_target_unit_and_the_total() -> None:
    b = setup()
    o = odds(b, "reds/gunner#3=greens range_band=long")
    assert o.p_hit == (HIT, HIT, F(1, 2))  # the third shot at long range: d8 -1
    assert o.p_casualty == (P_D6, P_D6, F(1, 4))
    blues = {0: (1 - P_D6) ** 2, 1: 2 * P_D6 * (1 - P_D6), 2: P_D6 ** 2}  # one shot on each blue
    assert o.by_target == {"blues": blues, "greens": {0: F(3, 4), 1: F(1, 4)}}
    total = {k: blues.get(k, 0) * F(3, 4) + blues.get(k - 1, 0) * F(1, 4) for k in range(4)}
    assert o.casualties == total and sum(total.values()) == 1
    assert o.expected_casualties == 2 * P_D6 + F(1, 4)
    assert "long range -1" in o.notes[2]
    assert set(o.to_json()["by_target"]) == {"blues", "greens"}


def test_odds_without_entries_are_the_target_units_alone() -> None:
    b = setup()
    o = odds(b)
    assert o.p_hit == (HIT,) * 3 and list(o.by_target) == ["blues"]
    assert o.by_target["blues"] == o.casualties
    assert o.casualties[0] == (1 - P_D6) ** 3  # any shot that hits and is not recovered kills a blue


def test_odds_follow_the_elements_the_shots_name() -> None:
    b = setup([("Blues", (el("B"), el("Big", "d10"))), ("Greens", (el("G"),))])
    p, q = P_D6, P_D10
    # shots 1 and 2 at Big (the second falls through to B once Big is gone), shot 3 at B
    o = odds(b, "#1=blues/big", "#2=blues/big")
    assert o.p_casualty == (q, q, p)
    assert o.casualties == {
        0: (1 - q) ** 2 * (1 - p),
        1: q * (1 - p) ** 2 + (1 - q) * q * (1 - p) + (1 - q) ** 2 * p,
        2: q * (p + (1 - p) * p) + (1 - q) * q * p,
    }
    plain = odds(b)  # round robin: B, Big, B
    assert plain.p_casualty == (p, q, p) and plain.casualties != o.casualties


def test_odds_refuse_an_entry_they_cannot_read() -> None:
    b = setup()
    with pytest.raises(IllegalCommand, match="A-22"):
        odds(b, "#2=")
    with pytest.raises(IllegalCommand, match="no element 'blues/zz'"):
        odds(b, "#2=blues/zz")
