"""Battle files: battles/NN-<scenario>.toml.

Layout, top to bottom:

    format = "muster/1"
    kind = "battle"
    [setup] ...            ruleset, edition, options, scenario, sides, scheme, seed, dice
    # end of setup
    [[log]] ...            one table per engine log entry, appended, never rewritten
    # end of entry
    [result] ...           written once, when the battle is over
    # end of result

The "# end of ..." lines seal each part. A power cut mid-append leaves a last part
without its seal: loading drops it with a warning and keeps everything before it, and
the next append cuts it off first. Appending costs the same on turn 1 and turn 100.
Writers should hold the campaign lock (saves/lock.py).
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from campaign.campaigns.scenario import Scenario
from campaign.activation import DEFAULT_SCHEME
from campaign.force import Force
from campaign.findings import Finding
from campaign.outcome import BattleOutcome
from saves.atomic import atomic_write_bytes, atomic_write_text
from saves.campaign_codec import compact, structure
from saves.force_file import KEEP as FORCE_KEEP
from saves.force_file import ORDER as FORCE_ORDER
from saves.errors import SaveError
from saves.file_kind import FileKind
from saves.paths import check_ref as check_ref  # where it was first defined; campaign files use it too
from saves.toml_read import MAX_BATTLE_BYTES, parse_toml, read_bytes
from saves.toml_write import dumps
from saves.versions import Migration, format_name, upgrade

KIND = "battle"
FORMAT_VERSION = 1
FORMAT = format_name(FORMAT_VERSION)
SETUP_END = b"# end of setup"
ENTRY_END = b"# end of entry"
RESULT_END = b"# end of result"
_SEALS = (SETUP_END, ENTRY_END, RESULT_END)


@attrs.define(frozen=True)
class BattleSide:
    id: str
    name: str = ""
    role: str = ""  # the scenario's role for this side ("attacker", "defender"...)
    force_ref: str = ""  # the side's force file, relative to the campaign folder
    force: Force | None = None  # the force as it took the field
    override: str = ""  # why a muster over the limit or with error findings was let through


@attrs.define(frozen=True)
class BattleHeader:
    ruleset: str
    sides: tuple[BattleSide, ...]
    edition: str | None = None
    options: dict[str, int | str | bool] = attrs.field(factory=dict)
    scenario: Scenario | None = None
    activation: str = DEFAULT_SCHEME  # a registered activation scheme
    activation_options: dict[str, Any] = attrs.field(factory=dict)
    seed: int = 0
    dice: str = "auto"  # "auto" | "table"
    campaign: str = ""  # the campaign's name, if the battle belongs to one
    number: int = 0  # its number in the campaign


@attrs.define(frozen=True)
class BattleResult:
    digest: str = ""
    winner: str = ""  # "" for a draw
    vps: dict[str, Fraction] = attrs.field(factory=dict)
    summary: str = ""
    outcome: BattleOutcome | None = None


@attrs.define
class BattleFile:
    path: Path
    header: BattleHeader
    log: list[dict[str, Any]]
    result: BattleResult | None = None
    warnings: list[str] = attrs.field(factory=list)
    migrated: bool = False

    @property
    def finished(self) -> bool:
        return self.result is not None


class BattleFinished(SaveError):
    """The battle already has a result: its log is closed."""


# --- checks shared with the campaign files ----------------------------------------


def _check_header(file: str | Path, header: BattleHeader) -> None:
    ids = [s.id for s in header.sides]
    if len(ids) < 2:
        raise SaveError(file, "a battle needs two or more sides", key="setup.sides")
    for i, side in enumerate(header.sides):
        if ids.count(side.id) > 1:
            raise SaveError(file, f"side {side.id!r} appears twice", key=f"setup.sides[{i}].id")
        check_ref(file, f"setup.sides[{i}].force_ref", side.force_ref)
    if header.dice not in ("auto", "table"):
        raise SaveError(file, f"unknown dice mode {header.dice!r}", key="setup.dice", expected='"auto" or "table"')
    from campaign.activation.registry import check_scheme_name
    from campaign.engine.scheme import scheme_names

    if check_scheme_name(header.activation) is not None:
        expected = " or ".join(f'"{name}"' for name in scheme_names())
        raise SaveError(file, f"unknown activation scheme {header.activation!r}", key="setup.activation", expected=expected)


# --- writing --------------------------------------------------------------------


_KEEP = {**FORCE_KEEP, BattleSide: frozenset({"id"}), BattleHeader: frozenset({"ruleset", "seed", "dice", "activation"})}
_ORDER = {
    **FORCE_ORDER,
    BattleHeader: ("ruleset", "edition", "campaign", "number", "activation", "seed", "dice", "options",
                   "activation_options", "scenario", "sides"),
}  # fmt: skip
_HEADER_TABLES = (
    "setup", "setup.options", "setup.activation_options", "setup.scenario", "setup.scenario.objectives",
    "setup.sides", "setup.sides.force", "setup.sides.force.options", "setup.sides.force.units",
    "setup.sides.force.units.elements",
)  # fmt: skip
_RESULT_TABLES = ("result", "result.vps", "result.outcome", "result.outcome.sides")


def dump_header(header: BattleHeader) -> str:
    setup = compact(header, _ORDER, _KEEP)
    doc = {"format": FORMAT, "kind": KIND, "setup": setup}
    return dumps(doc, tables=_HEADER_TABLES) + SETUP_END.decode() + "\n"


def _entry_text(entry: Mapping[str, Any]) -> bytes:
    if not isinstance(entry, Mapping) or not entry:
        raise TypeError("a log entry is a non-empty dict of TOML values")
    try:
        text = dumps({"log": [dict(entry)]}, tables={"log"})
    except TypeError as exc:
        raise TypeError(f"a log entry holds a value TOML cannot store: {exc}") from None
    return ("\n" + text + ENTRY_END.decode() + "\n").encode("utf-8")


def _result_text(result: BattleResult) -> bytes:
    data = compact(result, keep={BattleResult: frozenset({"winner", "vps"})})
    return ("\n" + dumps({"result": data}, tables=_RESULT_TABLES) + RESULT_END.decode() + "\n").encode("utf-8")


def create_battle_file(path: str | Path, header: BattleHeader) -> Path:
    """Write a new battle file holding the setup (atomic). Refuses to replace one."""
    path = Path(path)
    _check_header(path, header)
    if path.exists():
        raise SaveError(path, "a battle file is already there", hint="pick another name or delete it first")
    atomic_write_text(path, dump_header(header))
    return path


def _is_seal(line: bytes) -> bytes:
    """The seal a line holds ("" if none). Trailing blanks and a CR are tolerated, by the
    reader and the appender alike, so the appender never cuts what the reader keeps."""
    stripped = line.rstrip(b" \t\r\n")
    return stripped if stripped in _SEALS else b""


def _sealed_end(handle: Any, size: int) -> tuple[int, bytes, bool]:
    """(offset just past the last seal line, that seal, whether that line lacks its final
    newline), scanning back from the end a window at a time."""
    block = 4096
    pos = size
    carry = b""  # the start of a line cut by the window before: completed by the next one
    while pos > 0:
        start = max(0, pos - block)
        handle.seek(start)
        chunk = handle.read(pos - start) + carry
        lines = [line + b"\n" for line in chunk.split(b"\n")]
        lines[-1] = lines[-1][:-1]  # the text after the last newline (often empty)
        first = 0
        if start > 0 and lines:
            carry, first = lines[0], 1
        offset = start + len(chunk)
        for line in reversed(lines[first:]):
            seal = _is_seal(line)
            if seal:
                return offset, seal, not line.endswith(b"\n")
            offset -= len(line)
        pos = start
    return 0, b"", False


def _needs_normalising(path: Path) -> bool:
    """A BOM or CRLF line ends (git autocrlf, some editors): looked for at the head and tail."""
    with open(path, "rb") as handle:
        head = handle.read(4096)
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - 4096))
        tail = handle.read()
    return head.startswith(codecs.BOM_UTF8) or b"\r" in head or b"\r" in tail


def _normalise(path: Path) -> list[str]:
    """Rewrite a battle file with a BOM or CRLF line ends as plain LF UTF-8, once,
    atomically, before the first append (the same TOML, so nothing recorded changes)."""
    try:
        if not _needs_normalising(path):
            return []
    except FileNotFoundError:
        raise SaveError(path, "no such battle file") from None
    raw = read_bytes(path, MAX_BATTLE_BYTES)
    fixed = raw.removeprefix(codecs.BOM_UTF8).replace(b"\r\n", b"\n")
    if fixed == raw:
        return []
    atomic_write_bytes(path, fixed)
    what = " and ".join(
        w for w, present in (("a byte-order mark", raw.startswith(codecs.BOM_UTF8)), ("CRLF line ends", b"\r\n" in raw)) if present
    )
    return [f"{path}: rewrote the file without {what} before appending (the battle itself is unchanged)"]


def _append(path: Path, data: bytes, *, closing: bool) -> list[str]:
    warnings = _normalise(path)
    try:
        handle = open(path, "r+b")
    except FileNotFoundError:
        raise SaveError(path, "no such battle file") from None
    with handle:
        head = handle.read(len(FORMAT) + 16)
        if not head.startswith(f'format = "{FORMAT}"'.encode()):
            handle.close()
            _upgrade(path)
            return warnings + _append(path, data, closing=closing)
        size = handle.seek(0, os.SEEK_END)
        end, seal, unterminated = _sealed_end(handle, size)
        if seal == b"":
            raise SaveError(path, "the setup is not sealed", expected="a line '# end of setup' after [setup]")
        if seal == RESULT_END:
            raise BattleFinished(path, "the battle is over: its result is written and its log is closed")
        if end != size:
            handle.seek(end)
            tail = handle.read(size - end)
            if tail.strip():
                warnings.append(f"{path}: cut off an unfinished last entry ({size - end} bytes) before appending")
            handle.truncate(end)
        if unterminated:  # a seal left without its newline (an editor, or a write torn at the last byte)
            data = b"\n" + data
        handle.seek(end)
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    return warnings


def append_log(path: str | Path, entry: Mapping[str, Any]) -> list[str]:
    """Append one `[[log]]` table, fsync'd. Returns warnings (a torn tail cut off)."""
    return _append(Path(path), _entry_text(entry), closing=False)


def write_result(path: str | Path, result: BattleResult) -> list[str]:
    """Append the `[result]` table: the battle is over and its log is closed."""
    return _append(Path(path), _result_text(result), closing=True)


def text_with_result(path: str | Path, result: BattleResult) -> str:
    """The battle file's whole new text with `result` closing it, for a journaled
    post-battle save: the sealed text kept byte for byte (BOM and CRLF dropped, a torn
    tail cut), a result already there replaced. Nothing is written here."""
    path = Path(path)
    raw = read_bytes(path, MAX_BATTLE_BYTES).removeprefix(codecs.BOM_UTF8).replace(b"\r\n", b"\n")
    battle = parse_battle(path, raw)
    if battle.migrated:  # an older format is written out whole in the current one
        return dumps_battle(attrs.evolve(battle, result=result))
    lines = raw.split(b"\n")
    keep = max((i for i, line in enumerate(lines) if _is_seal(line) in (SETUP_END, ENTRY_END)), default=-1)
    text = b"\n".join(lines[: keep + 1]) + b"\n" + _result_text(result)
    closed = parse_battle(path, text)
    if closed.log != battle.log or closed.header != battle.header or closed.result is None:
        raise SaveError(path, "the battle file does not take its result cleanly", hint="check it with `muster validate`")
    return text.decode("utf-8")


def drop_last_log(path: str | Path) -> dict[str, Any]:
    """Undo: cut the last log entry off the file and return it (refused after the result)."""
    path = Path(path)
    battle = load_battle_file(path)
    if battle.finished:
        raise BattleFinished(path, "the battle is over: its log is closed")
    if not battle.log:
        raise SaveError(path, "the log is empty: nothing to undo")
    _normalise(path)
    with open(path, "r+b") as handle:
        size = handle.seek(0, os.SEEK_END)
        end, _seal, _open = _sealed_end(handle, size)
        handle.seek(0)
        body = handle.read(end)
        start = body.rfind(b"\n[[log]]\n")
        handle.truncate(start if start >= 0 else end)
        handle.flush()
        os.fsync(handle.fileno())
    return battle.log[-1]


def _upgrade(path: Path) -> None:
    """Rewrite an older-format battle file in the current format (once, before appending)."""
    atomic_write_text(path, dumps_battle(load_battle_file(path)))


# --- reading --------------------------------------------------------------------


def _split_torn(path: Path, raw: bytes) -> tuple[bytes, list[str]]:
    """The sealed part of the file, and a warning if an unsealed tail was dropped."""
    lines = raw.split(b"\n")
    last_seal = None
    setup_seen = False
    for i, line in enumerate(lines):
        seal = _is_seal(line)
        if seal:
            last_seal = i
            setup_seen = setup_seen or seal == SETUP_END
    if last_seal is None or not setup_seen:
        return raw, []  # not our layout: let the TOML parser and the checks speak
    tail = b"\n".join(lines[last_seal + 1 :])
    if not tail.strip():
        return raw, []
    kept = b"\n".join(lines[: last_seal + 1]) + b"\n"
    first = next((ln.strip() for ln in lines[last_seal + 1 :] if ln.strip()), b"")
    what = "log entry" if first.startswith(b"[[log") else "result" if first.startswith(b"[result") else "text"
    line_no = last_seal + 2
    return kept, [
        f"{path}:{line_no}: the last {what} was cut short (a crash or power cut while saving) and was dropped; "
        "everything before it is intact"
    ]


def parse_battle(path: str | Path, raw: bytes) -> BattleFile:
    path = Path(path)
    kept, warnings = _split_torn(path, raw.removeprefix(codecs.BOM_UTF8))
    try:
        text = kept.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = kept[: exc.start].count(b"\n") + 1
        raise SaveError(path, "not UTF-8 text", line=line) from None
    data = parse_toml(text, path)
    migrated = data.get("format") != FORMAT
    data = upgrade(data, path, current=FORMAT_VERSION, migrations=MIGRATIONS, text=text)
    if data.get("kind", KIND) != KIND:
        raise SaveError(path, f"this is a {data.get('kind')!r} file, not a battle", key="kind", expected='"battle"')
    extra = sorted(set(data) - {"kind", "setup", "log", "result"})
    if extra:
        raise SaveError(path, f"unknown key(s): {', '.join(extra)}", key=extra[0], expected="format, kind, setup, log, result")
    if not isinstance(data.get("setup"), dict):
        raise SaveError(path, "no [setup] table", key="setup")
    header = structure(data["setup"], BattleHeader, file=path, text=text, prefix=("setup",))
    _check_header(path, header)
    log = data.get("log", [])
    if not isinstance(log, list) or not all(isinstance(e, dict) for e in log):
        raise SaveError(path, "log must be [[log]] tables", key="log")
    result = None
    if "result" in data:
        if not isinstance(data["result"], dict):
            raise SaveError(path, "result must be a table", key="result")
        result = structure(data["result"], BattleResult, file=path, text=text, prefix=("result",))
    return BattleFile(path, header, log, result, warnings, migrated)


def load_battle_file(path: str | Path) -> BattleFile:
    path = Path(path)
    return parse_battle(path, read_bytes(path, MAX_BATTLE_BYTES))


def load_battle_header(path: str | Path) -> BattleHeader:
    """Only a battle file's setup (who took the field, how it mustered): the log after the
    setup's seal is not parsed, so this stays quick for a long battle."""
    path = Path(path)
    raw = read_bytes(path, MAX_BATTLE_BYTES)
    seal = raw.find(b"\n" + SETUP_END + b"\n")
    if seal >= 0:  # a file without the seal (an older format) is read whole
        raw = raw[: seal + len(SETUP_END) + 2]
    return parse_battle(path, raw).header


def dumps_battle(battle: BattleFile) -> str:
    """The whole file as text (what create + appends + result would have written)."""
    text = dump_header(battle.header) + b"".join(_entry_text(e) for e in battle.log).decode()
    if battle.result is not None:
        text += _result_text(battle.result).decode()
    return text


# muster/0 battle files kept the setup keys at the top level, with the sides as
# a table keyed by id; muster/1 gathers them under [setup] with [[setup.sides]].
def _battle_0_to_1(data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data)
    out: dict[str, Any] = {"kind": KIND}
    for key in ("log", "result"):
        if key in data:
            out[key] = data.pop(key)
    sides = data.pop("sides", {})
    data["sides"] = [{"id": sid, **body} for sid, body in sides.items()]
    out["setup"] = data
    return out


MIGRATIONS: dict[int, Migration] = {0: _battle_0_to_1}


# --- `muster validate` ------------------------------------------------------------


def looks_like_battle(path: Path, data: dict[str, Any]) -> bool:
    return data.get("kind") == KIND or ("setup" in data and path.parent.name == "battles")


def check_battle_file(path: Path) -> list[Finding]:
    """Load the file (a torn tail is a warning) and replay its log (saves/battle_replay.py)."""
    from saves.battle_replay import replay_findings

    battle = load_battle_file(path)
    return [*(Finding("warning", "battle file", w) for w in battle.warnings), *replay_findings(battle)]


def battle_text(path: Path, text: str) -> bool:
    """A battle file by its opening lines, even when its tail is torn."""
    head = text[:200]
    return f'kind = "{KIND}"' in head and head.startswith("format = ")


FILE_KIND = FileKind(
    "battle", looks_like_battle, check_battle_file, order=50, salvage=battle_text
)
