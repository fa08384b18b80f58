"""Reading TOML files so that every failure is a SaveError, never a traceback.

`read_toml(path)` turns a missing file, a folder, non-UTF-8 bytes, an empty file and a
TOML syntax error into a SaveError naming the file (and the line, where TOML gives
one). `line_of(text, path)` finds the line a key path such as
`units[2].elements[0].die` was written on, so errors found after parsing can point
at a line too. Files are read only if they are regular files under a size limit, and
parsed documents nested deeper than MAX_DEPTH or holding integers beyond 64 bits are
refused, so no file can hang Muster, exhaust its memory or overflow its stack.
"""

from __future__ import annotations

import functools
import os
import re
import stat
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from saves.errors import SaveError

KeyPath = Sequence[str | int]


# Generous limits that no real save comes near, so a damaged or hostile file is refused
# in a moment instead of eating memory (a 50 MB campaign.toml took 6 GB to parse).
MAX_FILE_BYTES = 4 * 1024 * 1024  # campaign.toml, force and scenario files
MAX_BATTLE_BYTES = 32 * 1024 * 1024  # a battle file holds its whole log
MAX_DEPTH = 32  # tables and lists inside each other; Muster's own files use about 12
INT64 = (-(2**63), 2**63 - 1)  # TOML integers are 64-bit


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's bytes, or a SaveError saying why it cannot be read.

    A FIFO, a device (a link to /dev/zero), a folder or a file over `limit` is refused
    before any of it is read, so nothing can hang or fill the memory.
    """
    path = Path(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not wait for one.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise SaveError(path, "no such file") from None
    except IsADirectoryError:
        raise SaveError(path, "is a folder, not a file", expected="a .toml file") from None
    except PermissionError:
        raise SaveError(path, "permission denied: cannot read the file") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read the file ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SaveError(path, "is a folder, not a file", expected="a .toml file")
        if not stat.S_ISREG(info.st_mode):
            raise SaveError(path, f"is not a regular file (a {_file_type(info.st_mode)})", expected="a .toml file")
        if info.st_size > limit:
            raise SaveError(path, f"is too big ({_size(info.st_size)}; the limit is {_size(limit)})",
                            hint="this is not a file Muster wrote; check what it is")
        chunks, total = [], 0
        while True:  # a file that grows while read is still cut at the limit
            chunk = os.read(fd, min(1024 * 1024, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise SaveError(path, f"is too big (over {_size(limit)})", hint="this is not a file Muster wrote")
        return b"".join(chunks)
    except OSError as exc:
        raise SaveError(path, f"cannot read the file ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def _file_type(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "pipe"), (stat.S_ISCHR, "device"), (stat.S_ISBLK, "device"),
                       (stat.S_ISSOCK, "socket")):  # fmt: skip
        if test(mode):
            return name
    return "special file"


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB" if n >= 1024 * 1024 else f"{n} bytes"


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The file's text, or a SaveError saying why it cannot be read."""
    path = Path(path)
    data = read_bytes(path, limit)
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
        data = tomllib.loads(text)
    except RecursionError:
        raise SaveError(file, f"nested too deeply (more than {MAX_DEPTH} levels)", expected="a Muster file") from None
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
    check_shape(data, file, text)
    return data


def check_shape(data: dict[str, Any], file: str | Path, text: str | None = None) -> None:
    """Refuse nesting deeper than MAX_DEPTH and integers beyond 64 bits (which TOML forbids
    but Python's reader accepts); walked without recursion, so any depth is safe."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            items: Any = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            if isinstance(value, int) and not isinstance(value, bool) and not INT64[0] <= value <= INT64[1]:
                line = line_of(text, path) if text is not None else None
                raise SaveError(file, "the number is too big for a TOML file (64-bit integers at most)",
                                key=format_path(path), line=line, expected="a whole number of at most 19 digits")
            continue
        if len(path) >= MAX_DEPTH:
            line = line_of(text, path) if text is not None else None
            raise SaveError(file, f"nested too deeply (more than {MAX_DEPTH} levels)", key=format_path(path[:8]) + "...",
                            line=line, expected="a Muster file")
        stack.extend((v, (*path, k)) for k, v in items)


def read_toml(path: str | Path, limit: int = MAX_FILE_BYTES) -> tuple[dict[str, Any], str]:
    """The parsed document and its text (the text lets later errors find their line)."""
    text = read_text(path, limit)
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


class _Patterns(NamedTuple):
    aot_header: re.Pattern[str]
    table_header: re.Pattern[str]
    assign: re.Pattern[str]
    strings: re.Pattern[str]
    key_part: re.Pattern[str]


@functools.cache
def _patterns() -> _Patterns:
    """Compiled on first use: only a file with a problem needs its lines found (start-up)."""
    return _Patterns(
        aot_header=re.compile(rf"^\s*\[\[\s*({_DOTTED})\s*\]\]"),
        table_header=re.compile(rf"^\s*\[\s*({_DOTTED})\s*\]"),
        assign=re.compile(rf"^\s*({_DOTTED})\s*="),
        strings=re.compile(_QUOTED),
        key_part=re.compile(rf"\s*({_KEY})\s*\.?"),
    )


def _split_key(dotted: str) -> list[str]:
    parts = []
    for match in _patterns().key_part.finditer(dotted):
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
    patterns = _patterns()
    for number, line in enumerate(text.splitlines(), start=1):
        if in_multiline:
            if line.count(in_multiline) % 2 == 1:
                in_multiline = None
            continue
        found: tuple | None = None
        bare = patterns.strings.sub('""', line).split("#", 1)[0].strip()  # strings and comment removed
        if array is not None:
            if bare and not bare.startswith("]"):
                found = (*array, item)
                item += 1
            depth += bare.count("[") - bare.count("]")
            if depth <= 0:
                array = None
        elif match := patterns.aot_header.match(line):
            names = _split_key(match.group(1))
            parent = _resolve(names[:-1], counts)
            key = (*parent, names[-1])
            counts[key] = counts.get(key, 0) + 1
            current = found = (*key, counts[key] - 1)
        elif match := patterns.table_header.match(line):
            current = found = _resolve(_split_key(match.group(1)), counts)
        elif match := patterns.assign.match(line):
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
