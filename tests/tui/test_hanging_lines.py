"""The unit panel's hanging indent (`hang_wrap`): a model's line too wide for the
column goes on under its first words, broken after a comma where one fills half a line."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from tui.widgets.battle_panels import HangingText, hang_wrap, lines_of


def test_a_line_that_fits_is_unchanged() -> None:
    text = Text(" Marine Squad  8/8\n   marine-gunner: DP 1/1, 2 act\n")
    assert hang_wrap(text, 32).plain == text.plain


def test_a_long_model_line_hangs_under_its_name_and_breaks_after_a_comma() -> None:
    text = Text("   strider: DP 1/7, pilot alive, MOV halved, severely damaged\n")
    assert hang_wrap(text, 32).plain.splitlines() == [
        "   strider: DP 1/7, pilot alive,",
        "     MOV halved, severely",
        "     damaged",
    ]


def test_a_count_and_a_unit_line_hang_past_their_lead() -> None:
    text = Text("   2x hunter: DP 8/8, to reload: Assault Cannon\n Marine Squad  8/8  activated, 2 extra in the pool\n")
    assert hang_wrap(text, 32).plain.splitlines() == [
        "   2x hunter: DP 8/8,",
        "        to reload: Assault",
        "        Cannon",
        " Marine Squad  8/8  activated,",
        "   2 extra in the pool",
    ]


def test_a_word_wider_than_the_line_is_cut_and_styles_are_kept() -> None:
    text = Text("   ")
    text.append("x" * 40, style="yellow")
    out = hang_wrap(text, 20)
    assert [len(line) for line in out.plain.splitlines()] == [20, 5 + 15, 5 + 8]
    assert all(span.style == "yellow" for span in out.spans)
    assert "".join(out.plain.split()) == "x" * 40  # nothing lost


def test_lines_of_counts_as_the_panel_shows() -> None:
    console = Console(width=80)
    text = Text("   strider: DP 1/7, pilot alive, MOV halved, severely damaged\n   x\n")
    assert lines_of(text, console, 32, hang=True) == 4
    assert lines_of(text, console, 32) == 3  # Rich's own wrap, for rules that don't hang
    assert str(HangingText(text)) == text.plain  # what the tests and the screen's text read
