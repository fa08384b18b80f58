"""An attached officer belongs to its unit: hits may be handed to it (A-23), it rolls its
own recovery, and losing it takes away the unit's +2 on morale."""

from .battle_helpers import SO, battle, el, expect_roll, force, initiative, texts


def setup():
    b = battle(force("Red", ("Reds", (el("A", count=3),)), edition=SO),
               force("Blue", ("Captain", (el("Captain", "d8", attributes=("Command",)),)), ("Blues", (el("B"),)),
                     edition=SO), edition=SO)
    initiative(b, "red")
    # the captain attached to Blues earlier (an attach command, tested in test_battle_rules)
    b.state.unit("blues").data["officer"] = "captain"
    b.state.unit("captain").data["attached_to"] = "blues"
    return b


def melee(b, **facts):
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues", "facts": facts})


def test_the_attacker_may_hand_a_hit_to_the_officer_which_rolls_its_own_recovery() -> None:
    b = setup()
    assert b.rules._morale_roll(b.state, b.state.unit("blues"), rally=False)[0].modifier == 2
    melee(b, allocate=["captain/captain"])
    b.roll([6, 1, 1])  # the first attacker's die goes to the captain
    expect_roll(b, 8, 1, "recovery, Captain hit")  # its own d8
    b.roll([2])
    assert not b.state.element("captain/captain").alive
    assert b.state.element("blues/b").alive
    assert b.state.unit("blues").data["officer"] == "" and b.state.unit("captain").data["attached_to"] == ""
    assert "Blues loses its officer Captain: no more +2 on morale" in texts(b)
    assert b.rules._morale_roll(b.state, b.state.unit("blues"), rally=False)[0].modifier == 0
    assert b.state.unit("captain").data["eliminated_by"] == "red"


def test_a_surviving_officer_stays_attached() -> None:
    b = setup()
    melee(b, allocate=["captain/captain"])
    b.roll([6, 1, 1])
    b.roll([4])
    assert b.state.element("captain/captain").alive and b.state.unit("blues").data["officer"] == "captain"


def test_by_default_hits_go_to_the_unit_first_and_the_officer_after() -> None:
    b = setup()
    melee(b)
    b.roll([1, 6, 1])  # three dice, two targets: b, then the captain, then b again
    expect_roll(b, 8, 1, "recovery, Captain hit")


def test_odds_see_the_officer_among_the_targets() -> None:
    b = setup()
    b.apply({"type": "activate", "unit": "reds"})
    specs, targets = b.rules.declared(b.state, b.command(
        next(s for s in b.legal_commands() if s.type == "melee" and s.params["target"] == "blues"),
        facts={"allocate": ["captain/captain"]}))
    assert [t.name for t in targets] == ["Captain", "B"]
