"""Form inputs made from a profile's field specs (campaign.profiles), for the element and
weapon editors: a choice or a die with choices is a Select, a yes/no a Select, a whole
number an integer Input with its range checked, a list or a text an Input (suggesting the
ruleset's names). What is typed is read back through the same spec.

A field shown unchanged gives back the file's own value (even one holding control
characters, shown inert), so opening and applying an editor changes nothing.
"""

from __future__ import annotations

from typing import Any

import attrs
from rich.text import Text
from textual.containers import Horizontal
from textual.suggester import Suggester
from textual.validation import Integer
from textual.widgets import Input, Label, Select

from campaign.inert_text import control_problem, inert
from campaign.profiles import FieldSpec

FieldWidget = Input | Select
YES_NO = (("yes", True), ("no", False))


class ListSuggester(Suggester):
    """Completes the last item of a comma-separated list (or the whole text) from known names."""

    def __init__(self, names: list[str], whole: bool = False) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.names = sorted(names)
        self.whole = whole

    async def get_suggestion(self, value: str) -> str | None:
        head, sep, last = ("", "", value) if self.whole else value.rpartition(",")
        stem = last.lstrip()
        if not stem:
            return None
        for name in self.names:
            if name.lower().startswith(stem.lower()) and name.lower() != stem.lower():
                prefix = head + sep + last[: len(last) - len(stem)]
                return prefix + name
        return None


def labelled(label: str, widget: FieldWidget) -> Horizontal:
    return Horizontal(Label(label, classes="field-label"), widget, classes="field")


def choices_of(spec: FieldSpec, dice: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The values a picker offers: the spec's choices, or for a die the ruleset's ladder."""
    if spec.type == "die":
        return spec.choices or dice
    return spec.choices if spec.type == "choice" else ()


def is_picker(spec: FieldSpec, dice: tuple[str, ...] = ()) -> bool:
    return spec.type == "bool" or bool(choices_of(spec, dice))


def field_widget(spec: FieldSpec, value: Any, widget_id: str, *, dice: tuple[str, ...] = (),
                 suggestions: list[str] | None = None) -> FieldWidget:
    """The input for one field, showing `value` (None: the field is not set)."""
    if spec.type == "bool":
        shown = value if isinstance(value, bool) else spec.default
        return Select(YES_NO, value=Select.NULL if shown is None else shown, id=widget_id, compact=True,
                      allow_blank=shown is None, prompt=spec.blank or "not set")
    choices = choices_of(spec, dice)
    if choices:
        values = list(dict.fromkeys([*choices, *([str(value)] if value is not None else [])]))
        shown = value if value is not None else spec.default
        return Select([(Text(inert(v)), v) for v in values], value=Select.NULL if shown is None else str(shown),
                      id=widget_id, compact=True, allow_blank=spec.default is None, prompt=spec.blank or "not set")
    placeholder = spec.placeholder or spec.blank or spec.help
    # a number at its default shows its placeholder (a melee weapon's range 0: "inches")
    at_default = spec.type == "int" and spec.placeholder and value is not None and value == spec.default
    text = "" if at_default else inert(spec.show(value))
    if spec.type == "int":
        return Input(text, id=widget_id, compact=True, type="integer", placeholder=placeholder,
                     validators=[Integer(spec.min, spec.max)], valid_empty=True)
    suggester = None
    if suggestions:
        suggester = ListSuggester(suggestions, whole=spec.type != "list")
    return Input(text, id=widget_id, compact=True, placeholder=placeholder, suggester=suggester)


Unset = object()  # a field left empty that has no value of its own: the record's default applies


def read_field(spec: FieldSpec, widget: FieldWidget, original: Any, problems: list[str], nullable: bool = True) -> Any:
    """The value the widget holds for `spec`: `original` when shown unchanged; None when
    emptied (for a nullable field or a stat); `Unset` with a problem when it cannot be
    read. Ranges are not enforced here: findings say what is off, nothing is blocked."""
    if isinstance(widget, Select):
        chosen = widget.value
        if chosen is Select.NULL:
            return None
        shown = original if original is not None else spec.default
        return original if chosen == shown else chosen
    raw = widget.value
    if raw == inert(spec.show(original)) or (not raw.strip() and original is not None and original == spec.default):
        return original
    problem = control_problem(raw)
    if problem:
        problems.append(f"{spec.called}: {problem.replace('a name cannot', 'cannot')}")
        return Unset
    if not raw.strip():
        if spec.type == "list":
            return ()
        if spec.default is not None:
            return spec.default
        if nullable:
            return None
        problems.append(f"{spec.form_label} is empty")
        return Unset
    try:
        return spec.parse(raw, check=False)
    except ValueError as exc:
        problems.append(str(exc))
        return Unset


def nullable(record: type, name: str) -> bool:
    """Whether an attrs record's field may hold None (its default is None)."""
    field = attrs.fields_dict(record).get(name)
    return field is None or field.default is None
