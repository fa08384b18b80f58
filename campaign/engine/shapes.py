"""What a plain value must look like, by the name of its type, in words a player reads.

Command fields (by their declared type) and free-form facts (by their default's type)
are checked here, so a wrong value is refused by name instead of failing deeper down.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# type name -> (what the value must be, what it must not be, in words); 1 is not `true`
SHAPES: dict[str, tuple[type | tuple[type, ...], type | tuple[type, ...], str]] = {
    "str": (str, (), "text"),
    "int": (int, bool, "a whole number"),
    "bool": (bool, (), "true or false"),
    "list": (list, (), "a list"),
    "ids": (list, (), "a list of names or ids"),  # a free-form list fact: its items are text
    "dict": (Mapping, (), "a table of name = value"),
}


def shape_problem(value: Any, type_name: str) -> str:
    """"" if `value` fits the type named, else what it should have been."""
    shape = SHAPES.get(type_name)
    if shape is None:
        return ""
    must, must_not, words = shape
    if not isinstance(value, must) or isinstance(value, must_not):
        return words
    if type_name == "ids" and isinstance(value, list) and not all(isinstance(v, str) for v in value):
        return words
    return ""
