from fractions import Fraction

from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine, format_vp


def _outcome(**kw):
    humans = SideOutcome("humans", (VPLine("Eliminated Rippers (25% of 90)", "45/2"), VPLine("Hill", 10, "objective")))
    aliens = SideOutcome("aliens", (VPLine("Eliminated Squad", 30),), ("rippers",), (Casualty("rippers", "Ripper", 0, 3),))
    return BattleOutcome((humans, aliens), **kw)


def test_vp_sums_exact_quarters():
    out = _outcome()
    assert out.vps() == {"humans": Fraction(65, 2), "aliens": Fraction(30)}
    assert out.winner() == "humans"
    assert format_vp(Fraction(65, 2)) == "32.5" and format_vp(Fraction(30)) == "30"


def test_strategic_winner_beats_vps():
    assert _outcome(strategic_winner="aliens").winner() == "aliens"


def test_tie_is_draw():
    out = BattleOutcome((SideOutcome("a", (VPLine("x", 5),)), SideOutcome("b", (VPLine("y", 5),))))
    assert out.winner() is None
