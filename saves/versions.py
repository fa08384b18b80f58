"""Format versions: `format = "muster/N"` at the top of every file.

Each file kind keeps a table of migrations, `{N: function}`, where the function turns
a parsed document of version N into one of version N + 1. Loading an older file runs
the chain up to the current version; a newer file is refused with FormatTooNew.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from saves.errors import FormatTooNew, SaveError
from saves.toml_read import line_of

Migration = Callable[[dict[str, Any]], dict[str, Any]]
_FORMAT = re.compile(r"muster/(\d+)")


def format_name(version: int) -> str:
    return f"muster/{version}"


def upgrade(
    data: dict[str, Any],
    file: str | Path,
    *,
    current: int,
    migrations: Mapping[int, Migration],
    text: str | None = None,
) -> dict[str, Any]:
    """Check `format`, migrate an older document to `current`, and drop the key.

    The returned dict no longer holds `format`; the input is not changed.
    """
    def line() -> int | None:  # only for an error: finding it scans the whole text
        return line_of(text, ["format"]) if text is not None else None

    expected = f'format = "{format_name(current)}"'
    if "format" not in data:
        raise SaveError(
            file,
            "missing format version",
            key="format",
            expected=expected,
            hint=f"add the line {expected} at the top of the file",
        )
    value = data["format"]
    found = _FORMAT.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise SaveError(
            file, f"unknown format {value!r}", line=line(), key="format", expected=expected
        )
    version = int(found.group(1))
    if version > current:
        raise FormatTooNew(
            file,
            f"written by a newer Muster ({value}); this Muster reads up to {format_name(current)}",
            line=line(),
            key="format",
            expected=f"{format_name(current)} or older",
            hint="upgrade Muster to open this file",
        )
    doc = {k: v for k, v in data.items() if k != "format"}
    while version < current:
        step = migrations.get(version)
        if step is None:
            raise SaveError(
                file,
                f"{value} files cannot be upgraded by this Muster",
                line=line(),
                key="format",
                expected=expected,
            )
        doc = step(doc)
        version += 1
    return doc
