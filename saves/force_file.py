"""Force files: one hand-editable TOML file per force.

    format = "muster/1"
    ruleset = "flat-out-war"
    edition = "special-ops"
    name = "Human Force"

    [[units]]
    name = "Assault Squad"

    [[units.elements]]
    name = "Assault Troop"
    count = 9
    die = "d6"
    move = 4
    attributes = ["Agile", "Brave"]
    weapons = [{ name = "Power Claw", kind = "melee", die = "d8" }]

Reading: tomllib, then the strict cattrs converter (saves/convert.py), then checks
that need the ruleset (its dice, its attribute names, its editions and options).
Writing: a canonical layout (saves/toml_write.py) with fields at their default left
out, so loading and saving an unchanged file gives the same bytes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from campaign.findings import Finding
from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets import Ruleset, UnknownRuleset, get_ruleset, ruleset_ids
from saves.atomic import atomic_write_text
from saves.convert import compact, structure
from saves.errors import SaveError
from saves.file_kind import FileKind
from saves.toml_read import KeyPath, format_path, line_of, parse_toml, read_text
from saves.toml_write import dumps
from saves.versions import Migration, format_name, upgrade

FORMAT_VERSION = 1
FORMAT = format_name(FORMAT_VERSION)

# version N -> function turning a muster/N document into muster/N+1 (none yet).
MIGRATIONS: dict[int, Migration] = {}

# The canonical key order of each record, and the keys written even at their default.
ORDER: dict[type, tuple[str, ...]] = {
    Force: ("ruleset", "edition", "name", "points_limit", "note", "options", "units"),
    Unit: ("name", "cohesion", "honours", "stats", "note", "elements"),
    Element: (
        "name", "count", "die", "move", "kind", "mounted", "large", "attributes",
        "spells", "weapons", "stats", "lost", "state", "note",
    ),
    Weapon: ("name", "kind", "die", "range", "mount", "traits"),
}  # fmt: skip
KEEP: dict[type, frozenset[str]] = {
    Force: frozenset({"name", "ruleset"}),
    Unit: frozenset({"name"}),
    Element: frozenset({"name", "count"}),
    Weapon: frozenset({"name", "kind"}),
}
TABLES = ("options", "units", "units.elements")


# --- writing -------------------------------------------------------------------------


def dump_force(force: Force) -> str:
    """The force as canonical TOML text."""
    doc = {"format": FORMAT, **compact(force, order=ORDER, keep=KEEP)}
    return dumps(doc, tables=TABLES)


dump = dump_force  # the short name other modules were promised


def save_force(path: str | Path, force: Force) -> None:
    """Write atomically: a reader sees the old file or the new one."""
    atomic_write_text(path, dump_force(force))


# --- reading -------------------------------------------------------------------------


def load_force(path: str | Path) -> Force:
    """Read and check a force file; any problem is a SaveError naming file, line and key."""
    return parse_force(read_text(path), path)


def parse_force(text: str, file: str | Path = "<force>") -> Force:
    data = parse_toml(text, file)
    return force_from_dict(data, file, text=text)


def force_from_dict(data: dict[str, Any], file: str | Path, *, text: str | None = None) -> Force:
    doc = upgrade(data, file, current=FORMAT_VERSION, migrations=MIGRATIONS, text=text)
    force = structure(doc, Force, file=file, text=text)
    problems = force_problems(force, file, text=text)
    if problems:
        raise problems[0]
    return force


def looks_like_force(path: Path, data: dict[str, Any]) -> bool:
    """A parsed TOML document that is meant to be a force file."""
    return data.get("kind", "force") == "force" and "units" in data and "ruleset" in data


def check_force_file(path: Path) -> list[Finding]:
    """Load the file (SaveError if unusable) and return the ruleset's findings."""
    from campaign.findings import named

    force = load_force(path)
    return named(force, ruleset_for(force, path).validate(force))


FILE_KIND = FileKind("force", looks_like_force, check_force_file)


# --- checks that need the ruleset ----------------------------------------------------


class _Problems:
    def __init__(self, file: str | Path, text: str | None, force: Force | None = None) -> None:
        self.file, self.text, self.force = file, text, force
        self.found: list[SaveError] = []

    def add(self, path: KeyPath, message: str, expected: str = "", hint: str = "") -> None:
        from campaign.findings import path_names

        line = line_of(self.text, path) if self.text is not None else None
        where = path_names(self.force, format_path(path)) if self.force is not None else ""
        message = f"{where}: {message}" if where else message  # the players' names beside the key path
        self.found.append(
            SaveError(
                self.file, message, line=line, key=format_path(path), expected=expected, hint=hint
            )
        )


def _nearest(word: str, choices: Iterable[str]) -> str:
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered:
        return f"did you mean {lowered[word.lower()]!r}?"
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close:
        close = [
            lowered[c] for c in difflib.get_close_matches(word.lower(), lowered, n=1, cutoff=0.6)
        ]
    return f"did you mean {close[0]!r}?" if close else ""


def ruleset_for(force: Force, file: str | Path = "<force>") -> Ruleset:
    """The ruleset instance for the force's ruleset, edition and options."""
    problems = _Problems(file, None)
    ruleset = _ruleset(force, problems)
    if ruleset is None:
        raise problems.found[0]
    return ruleset


def _ruleset(force: Force, problems: _Problems) -> Ruleset | None:
    try:
        plain = get_ruleset(force.ruleset)
    except UnknownRuleset:
        known = ruleset_ids()  # only for the message: listing them imports every ruleset
        problems.add(
            ["ruleset"],
            f"unknown ruleset {force.ruleset!r}",
            "one of " + ", ".join(known),
            _nearest(force.ruleset, known),
        )
        return None
    except ValueError:  # no default edition: the force must name one
        plain = None
    cls = type(plain) if plain is not None else None
    try:
        get_ruleset(force.ruleset, force.edition)  # the ruleset may accept spellings ("SO")
    except ValueError as exc:
        editions = cls.editions if cls is not None else ()
        problems.add(
            ["edition"],
            f"{force.ruleset} has no edition {force.edition!r}" if editions else str(exc),
            "one of " + ", ".join(editions) if editions else "",
            _nearest(force.edition or "", editions),
        )
        return None
    specs = {o.name: o for o in cls.option_specs} if cls is not None else {}
    for key, value in force.options.items():
        spec = specs.get(key)
        if cls is not None and spec is None:
            problems.add(
                ["options", key],
                f"unknown option {key!r}",
                "one of " + ", ".join(sorted(specs)) if specs else "no options",
                _nearest(key, specs),
            )
        elif spec is not None and spec.choices and value not in spec.choices:
            problems.add(
                ["options", key],
                f"{value!r} is not allowed",
                "one of " + ", ".join(map(str, spec.choices)),
            )
    if problems.found:
        return None
    try:
        return get_ruleset(force.ruleset, force.edition, **force.options)
    except (ValueError, TypeError) as exc:
        problems.add(["options"] if force.options else ["ruleset"], str(exc))
        return None


def _key(text: str) -> str:
    # Rulesets match attribute names loosely (case, spaces, hyphens, punctuation).
    return re.sub(r"[^a-z0-9]", "", text.lower())


_PLACEHOLDER = r"(?i)\s*(?::\s*X|\s+X|\s*\(X\))\s*$"  # compiled on first use (re's cache): not at start-up


# Each ruleset edition's catalogue and its names' `_key`s: the same for every force of it,
# and a few hundred regex substitutions to make (issue 17: most of a force file's load).
_CATALOGUES: dict[tuple[type, str | None], tuple[list[str], tuple[str, ...]]] = {}


def _attribute_catalogue(ruleset: Ruleset) -> tuple[list[str], tuple[str, ...]]:
    """Attribute names of every edition of the ruleset, placeholders ("Reload: X") cut off,
    and their `_key`s.

    An attribute from another edition is left to the ruleset's own findings, which say
    which edition has it; only a name no edition knows is a load error (a typo).
    """
    cache_key = (type(ruleset), ruleset.edition)
    found = _CATALOGUES.get(cache_key)
    if found is not None:
        return found
    names = set(ruleset.attribute_names())
    for edition in type(ruleset).editions:
        if edition != ruleset.edition:
            try:
                names.update(get_ruleset(ruleset.id, edition).attribute_names())
            except (ValueError, TypeError):
                pass
    catalogue = sorted({re.sub(_PLACEHOLDER, "", n).strip() for n in names if _key(n)})
    found = _CATALOGUES[cache_key] = (catalogue, tuple(_key(name) for name in catalogue))
    return found


def _known_attribute(text: str, keys: tuple[str, ...]) -> bool:
    """"Jump 8\"" and "multi-shot 3x" are known when "Jump" and "Multi-shot" are
    (`keys`: the known names' `_key`s)."""
    return _key(text).startswith(keys)


def _attribute_word(text: str) -> str:
    """The name part of "Jump 8\"" or "Reload: 2", for suggestions."""
    return re.split(r"[:(]|\s+\d", text, maxsplit=1)[0].strip() or text


def force_problems(
    force: Force, file: str | Path = "<force>", *, text: str | None = None
) -> list[SaveError]:
    """Everything that makes the force unusable (not the ruleset's findings), in file order."""
    problems = _Problems(file, text, force)
    ruleset = _ruleset(force, problems)
    dice = tuple(ruleset.dice) if ruleset is not None else ()
    names, keys = _attribute_catalogue(ruleset) if ruleset is not None else ([], ())

    def check_name(path: list[str | int], name: str, what: str) -> None:
        if not name.strip():
            problems.add([*path, "name"], f"the {what} has an empty name", "a name in quotes")

    def check_die(path: list[str | int], die: str | None) -> None:
        if die is not None and dice and die not in dice:
            problems.add(path, f"unknown die {die!r}", "one of " + ", ".join(dice), _nearest(die, dice))

    verdict: dict[str, set[str] | None] = {}

    def ruleset_rejects(path: list[str | int]) -> bool:
        # Rulesets may accept spellings their attribute_names() does not list
        # ("Heavy Armor" for "Heavy Armour"); text is a typo only if they reject it too.
        if "errors" not in verdict:
            try:
                found = ruleset.validate(force) if ruleset is not None else []
                verdict["errors"] = {f.path for f in found if f.severity == "error"}
            except Exception:  # a ruleset that cannot check this force: trust the names
                verdict["errors"] = None
        errors = verdict["errors"]
        return errors is None or format_path(path) in errors

    def check_attributes(path: list[str | int], values: tuple[str, ...]) -> None:
        if not names:
            return
        for i, value in enumerate(values):
            if not value.strip():
                problems.add([*path, i], "empty attribute", "an attribute name")
            elif not _known_attribute(value, keys) and ruleset_rejects([*path, i]):
                problems.add(
                    [*path, i],
                    f"unknown attribute {value!r}",
                    f"an attribute of {(ruleset.name if ruleset is not None else '') or force.ruleset}",
                    _nearest(_attribute_word(value), names),
                )

    check_name([], force.name, "force")
    if force.points_limit is not None and force.points_limit < 0:
        problems.add(["points_limit"], "negative points limit", "a whole number, 0 or more")
    if not force.units:
        problems.add(["units"], "the force has no units", "at least one [[units]] table")
    for u, unit in enumerate(force.units):
        at_unit: list[str | int] = ["units", u]
        check_name(at_unit, unit.name, "unit")
        if not unit.elements:
            problems.add(
                [*at_unit, "elements"],
                f"unit {unit.name!r} has no elements",
                "at least one [[units.elements]] table after its [[units]]",
            )
        for e, element in enumerate(unit.elements):
            at: list[str | int] = [*at_unit, "elements", e]
            check_name(at, element.name, "element")
            if element.count < 1:
                problems.add([*at, "count"], f"count is {element.count}", "a whole number, 1 or more")
            if not 0 <= element.lost <= max(element.count, 0):
                problems.add([*at, "lost"], f"lost is {element.lost}", f"0 to {element.count} (the count)")
            if element.move is not None and element.move < 0:
                problems.add([*at, "move"], f"move is {element.move}", "a whole number, 0 or more")
            check_die([*at, "die"], element.die)
            check_attributes([*at, "attributes"], element.attributes)
            for w, weapon in enumerate(element.weapons):
                at_w: list[str | int] = [*at, "weapons", w]
                check_name(at_w, weapon.name, "weapon")
                check_die([*at_w, "die"], weapon.die)
                if weapon.range < 0:
                    problems.add([*at_w, "range"], f"range is {weapon.range}", "inches, 0 or more")
                check_attributes([*at_w, "traits"], weapon.traits)
    return problems.found
