"""Reading TOML files so that every failure is a SaveError, never a traceback.

`read_toml(path)` turns a missing file, a folder, non-UTF-8 bytes, an empty file and a
TOML syntax error into a SaveError naming the file (and the line, where TOML gives
one). `line_of(text, path)` finds the line a key path such as
`units[2].elements[0].die` was written on, so errors found after parsing can point
at a line too.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from saves.errors import SaveError

KeyPath = Sequence[str | int]


def read_text(path: str | Path) -> str:
    """The file's text, or a SaveError saying why it cannot be read."""
    path = Path(path)
    if path.is_dir():
        raise SaveError(path, "is a folder, not a file", expected="a .toml file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(path, "no such file") from None
    except PermissionError:
        raise SaveError(path, "permission denied: cannot read the file") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read the file ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SaveError(
            path,
            f"is not UTF-8 text (bad byte 0x{data[exc.start]:02x})",
            line=line,
            expected="a UTF-8 text file",
            hint="save it again as UTF-8 in your editor",
        ) from None
    return text.removeprefix("\ufeff")  # a byte-order mark some editors add


def parse_toml(text: str, file: str | Path) -> dict[str, Any]:
    """Parse TOML text; an empty or broken document is a SaveError with the line."""
    if not text.strip():
        raise SaveError(file, "the file is empty", expected="a TOML document")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # Python 3.14 gives .msg/.lineno; earlier versions put "(at line L, column C)" in the text.
        message = getattr(exc, "msg", None) or str(exc)
        line = getattr(exc, "lineno", None)
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if found:
            line = line or int(found.group(1))
            message = message[: found.start()]
        elif re.search(r"\(at end of document\)$", message):
            line = line or text.count("\n") + 1
            message = message.removesuffix("(at end of document)").strip()
        raise SaveError(
            file, f"TOML syntax error: {message}", line=line, hint="check quotes, brackets and commas"
        ) from None


def read_toml(path: str | Path) -> tuple[dict[str, Any], str]:
    """The parsed document and its text (the text lets later errors find their line)."""
    text = read_text(path)
    return parse_toml(text, path), text


def format_path(path: KeyPath) -> str:
    """("units", 2, "elements", 0, "die") -> "units[2].elements[0].die"."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


# --- finding the line of a key path ------------------------------------------------

_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"' + r"|'[^']*'"
_KEY = rf"(?:{_BARE}|{_QUOTED})"
_DOTTED = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_AOT_HEADER = re.compile(rf"^\s*\[\[\s*({_DOTTED})\s*\]\]")
_TABLE_HEADER = re.compile(rf"^\s*\[\s*({_DOTTED})\s*\]")
_ASSIGN = re.compile(rf"^\s*({_DOTTED})\s*=")
_STRINGS = re.compile(_QUOTED)
_KEY_PART = re.compile(rf"\s*({_KEY})\s*\.?")


def _split_key(dotted: str) -> list[str]:
    parts = []
    for match in _KEY_PART.finditer(dotted):
        key = match.group(1)
        if key[0] in "\"'":
            key = key[1:-1]
        parts.append(key)
    return parts


def _resolve(names: list[str], counts: dict[tuple, int]) -> tuple:
    """Concrete path of a header: each array-of-tables segment takes its latest index."""
    path: tuple = ()
    for name in names:
        path = (*path, name)
        if path in counts:
            path = (*path, counts[path] - 1)
    return path


def line_of(text: str, path: KeyPath) -> int | None:
    """The line where the longest written prefix of `path` is defined (1-based).

    A scan of headers and `key =` lines; good enough for hand-edited files, and it
    never raises: a path it cannot place gives None.
    """
    want = tuple(path)
    best: tuple[int, int] | None = None  # (prefix length, line)
    current: tuple = ()
    counts: dict[tuple, int] = {}  # array-of-tables path -> tables seen so far
    in_multiline: str | None = None
    array: tuple | None = None  # the key of an open multi-line array, one item per line
    item = depth = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if in_multiline:
            if line.count(in_multiline) % 2 == 1:
                in_multiline = None
            continue
        found: tuple | None = None
        bare = _STRINGS.sub('""', line).split("#", 1)[0].strip()  # strings and comment removed
        if array is not None:
            if bare and not bare.startswith("]"):
                found = (*array, item)
                item += 1
            depth += bare.count("[") - bare.count("]")
            if depth <= 0:
                array = None
        elif match := _AOT_HEADER.match(line):
            names = _split_key(match.group(1))
            parent = _resolve(names[:-1], counts)
            key = (*parent, names[-1])
            counts[key] = counts.get(key, 0) + 1
            current = found = (*key, counts[key] - 1)
        elif match := _TABLE_HEADER.match(line):
            current = found = _resolve(_split_key(match.group(1)), counts)
        elif match := _ASSIGN.match(line):
            found = (*current, *_split_key(match.group(1)))
            if bare.endswith("["):
                array, item, depth = found, 0, 1
            for quote in ('"""', "'''"):
                if line.count(quote) % 2 == 1:
                    in_multiline = quote
        if found is not None and want[: len(found)] == found:
            if best is None or len(found) > best[0]:
                best = (len(found), number)
    return best[1] if best else None
