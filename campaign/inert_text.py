"""Text from a file, made safe to show: control characters become visible marks.

A name in a save is whatever a hand or a program wrote there. Sent raw to a terminal,
an ESC sequence clears the screen or retitles a window, a newline forges a line, a
bidi override reverses what follows. `inert(text)` shows each such character instead
(a newline as "⏎", others as `\\x1b`-style escapes), so what is on screen is always
exactly what is in the file, one line per line. `control_problem(text)` is the
refusal for places where a name is typed.
"""

from __future__ import annotations

import re
from typing import Any

# C0 controls, DEL and C1 controls; the Unicode line and paragraph separators (which
# split lines like a newline); the bidirectional controls that reorder what follows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# what json.dumps leaves unescaped (compiled by `re` on first use: only the JSON commands need it)
_JSON_UNESCAPED = "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
_SHOWN = {"\n": "⏎", "\t": "\\t", "\r": "\\r"}


def _visible(char: str) -> str:
    shown = _SHOWN.get(char)
    if shown is not None:
        return shown
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: object) -> str:
    """`text` as one line with every control character shown, never acted on."""
    text = text if isinstance(text, str) else str(text)
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: _visible(m.group()), text)


def inert_lines(text: object) -> str:
    """Like `inert`, but keeps the newlines: for text whose lines the program made."""
    return "\n".join(inert(line) for line in str(text).split("\n"))


def control_problem(text: str) -> str | None:
    """Why `text` cannot be a name (it holds a control character), or None when it can."""
    found = _CONTROL.search(text)
    if found is None:
        return None
    return f"a name cannot hold control characters (found {_visible(found.group())})"


def inert_json(data: Any, **options: Any) -> str:
    """json.dumps that also escapes DEL, C1 and bidi controls (json escapes only C0)."""
    import json  # only the commands that print JSON: not at start-up

    text = json.dumps(data, **options)
    return re.sub(_JSON_UNESCAPED, lambda m: f"\\u{ord(m.group()):04x}", text)
