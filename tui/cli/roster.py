"""`muster roster FORCE.toml [--format text|md|html] [--json] [-o FILE]`: a force to take to the table.

Units with each element's profile, weapons and attributes, costs where the ruleset has
points, the campaign's lasting state (elements lost, damage carried, honours), and the
rules the force uses in one line each. The document comes from campaign/roster.py;
this module only renders it.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
import textwrap
from typing import Any

import attrs

from campaign.inert_text import inert, inert_json
from campaign.roster import Roster, RosterElement, RosterUnit, roster
from tui.cli.force_arg import load_force_arg
from tui.cli.cost import finding_line, points

NAME = "roster"
HELP = "print a force as players take it to the table (text, Markdown or HTML)"
WIDTH = 80


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("force", metavar="FORCE.toml", help="a force file (a campaign's are in its forces/ folder)")
    parser.add_argument("--format", choices=("text", "md", "html"), default="text", help="output format (text)")
    parser.add_argument("--json", action="store_true", help="print the roster as JSON")
    parser.add_argument("-o", "--output", help="write to this file instead of printing")


def shown(value: Any) -> Any:
    """Every text in the roster made inert (control characters visible) before rendering,
    so wrapping and escaping see what the screen will show."""
    if isinstance(value, str):
        return inert(value)
    if isinstance(value, tuple):
        return tuple(shown(v) for v in value)
    if attrs.has(type(value)):
        return attrs.evolve(value, **{f.name: shown(getattr(value, f.name)) for f in attrs.fields(type(value)) if f.init})
    return value


def _pts(value: float | None) -> str:
    return "" if value is None else f"{points(value)} pts"


def _state(element: RosterElement) -> str:
    """"lost 2 of 9; carries die d4": what the campaign has done to an element."""
    parts = [f"lost {element.lost} of {element.count}"] if element.lost else []
    parts += [f"carries {key} {value}" for key, value in element.damage]
    return "; ".join(parts)


def _head(doc: Roster) -> tuple[str, str]:
    edition = f" {doc.edition}" if doc.edition else ""
    points_text = ""
    if doc.total is not None:
        limit = f" / {doc.points_limit}" if doc.points_limit is not None else ""
        points_text = f", {points(doc.total)}{limit} pts"
    return f"{doc.ruleset}{edition}{points_text}", f"{doc.alive} of {doc.count} elements fit to fight"


# --- plain text -------------------------------------------------------------------


def _wrap(text: str, indent: str, hang: str = "", width: int = WIDTH) -> list[str]:
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + hang) or [indent.rstrip()]


def _unit_title(unit: RosterUnit) -> str:
    cost = f"  {_pts(unit.cost)}" if unit.cost is not None else ""
    return f"{unit.name}  ({unit.alive}/{unit.count}){cost}"


def _numbers(profile: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{label} {value}" for label, value in profile)


def as_text(doc: Roster, width: int = WIDTH) -> str:
    """The roster as plain lines no wider than `width` (findings excepted)."""
    doc = shown(doc)

    def wrap(text: str, indent: str, hang: str = "") -> list[str]:
        return _wrap(text, indent, hang, width)

    sub, alive = _head(doc)
    out = [doc.force, f"{sub}; {alive}", ""]
    if doc.note:
        out += [*wrap(doc.note, ""), ""]
    for unit in doc.units:
        out.append(_unit_title(unit))
        if unit.profile:
            out += wrap(_numbers(unit.profile), "  ", "  ")
        if unit.cohesion:
            out.append(f"  Cohesion: {unit.cohesion}")
        if unit.honours:
            out += wrap("Honours: " + ", ".join(unit.honours), "  ", "  ")
        for element in unit.elements:
            numbers = "  ".join(value if label in ("Die", "Kind") else f"{label} {value}" for label, value in element.profile)
            count = f"{element.count} x " if element.count > 1 else ""
            cost = ""
            if element.cost_each is not None:
                cost = f"  {points(element.cost_each)} pts" + (f" each, {points(element.cost_total or 0)}" if element.count > 1 else "")
            out += wrap(f"{count}{element.name}  {numbers}{cost}", "  ", "    ")
            if element.weapons:
                out += wrap("Weapons: " + "; ".join(element.weapons), "      ", "  ")
            if element.attributes:
                out += wrap("Attributes: " + ", ".join(element.attributes), "      ", "  ")
            if element.spells:
                out += wrap("Spells: " + ", ".join(element.spells), "      ", "  ")
            if _state(element):
                out += wrap("Campaign: " + _state(element), "      ", "  ")
            if element.note:
                out += wrap("Note: " + element.note, "      ", "  ")
        if unit.note:
            out += wrap("Note: " + unit.note, "  ", "  ")
        out.append("")
    if doc.rules:
        out.append("Rules used")
        for rule in doc.rules:
            out += wrap(f"{rule.name}: {rule.text}", "  ", "    ")
        out.append("")
    if doc.findings:
        out.append("Findings")
        out += [f"  {finding_line(f)}" for f in doc.findings]
    return "\n".join(out).rstrip() + "\n"


# --- Markdown ---------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


def md(text: str) -> str:
    """User text inert in Markdown: its punctuation escaped, no line breaks."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def as_markdown(doc: Roster) -> str:
    doc = shown(doc)
    sub, alive = _head(doc)
    out = [f"# {md(doc.force)}", "", f"{md(sub)}; {alive}.", ""]
    if doc.note:
        out += [md(doc.note), ""]
    for unit in doc.units:
        out += [f"## {md(_unit_title(unit))}", ""]
        if unit.profile:
            out.append(f"{md(_numbers(unit.profile))}.  ")
        if unit.cohesion:
            out.append(f"Cohesion: {md(unit.cohesion)}.  ")
        if unit.honours:
            out.append(f"Honours: {md(', '.join(unit.honours))}.  ")
        if unit.note:
            out.append(f"{md(unit.note)}  ")
        if unit.profile or unit.cohesion or unit.honours or unit.note:
            out.append("")
        out += ["| Element | Qty | Profile | Weapons | Attributes | Pts | Campaign |", "|---|---:|---|---|---|---:|---|"]
        for e in unit.elements:
            numbers = ", ".join(f"{label} {value}" for label, value in e.profile)
            attributes = ", ".join((*e.attributes, *(f"spell {s}" for s in e.spells)))
            cost = str(points(e.cost_total)) if e.cost_total is not None else ""
            qty = f"{e.alive}/{e.count}" if e.lost else str(e.count)
            cells = (e.name, qty, numbers, "; ".join(e.weapons), attributes, cost, _state(e))
            out.append("| " + " | ".join(md(c) for c in cells) + " |")
        out.append("")
    if doc.rules:
        out += ["## Rules used", ""]
        out += [f"- **{md(rule.name)}**: {md(rule.text)}" for rule in doc.rules]
        out.append("")
    if doc.findings:
        out += ["## Findings", ""]
        out += [f"- {md(finding_line(f))}" for f in doc.findings]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# --- HTML -------------------------------------------------------------------------

_CSS = (
    "body{font-family:sans-serif;max-width:60em;margin:1em auto}"
    "table{border-collapse:collapse;width:100%;margin-bottom:1em}"
    "th,td{border:1px solid #999;padding:.2em .4em;text-align:left;vertical-align:top}"
    "td.n{text-align:right}@media print{body{max-width:none}}"
)


def as_html(doc: Roster) -> str:
    doc = shown(doc)
    e_ = html.escape
    sub, alive = _head(doc)
    out = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>{e_(doc.force)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
        f"<h1>{e_(doc.force)}</h1>", f"<p>{e_(sub)}; {e_(alive)}.</p>",
    ]  # fmt: skip
    if doc.note:
        out.append(f"<p>{e_(doc.note)}</p>")
    for unit in doc.units:
        out.append(f"<h2>{e_(_unit_title(unit))}</h2>")
        extra = [_numbers(unit.profile)] if unit.profile else []
        extra += [f"Cohesion: {unit.cohesion}"] if unit.cohesion else []
        extra += [f"Honours: {', '.join(unit.honours)}"] if unit.honours else []
        extra += [unit.note] if unit.note else []
        if extra:
            out.append("<p>" + "<br>".join(e_(x) for x in extra) + "</p>")
        out.append("<table><tr><th>Element</th><th>Qty</th><th>Profile</th><th>Weapons</th>"
                   "<th>Attributes</th><th>Pts</th><th>Campaign</th></tr>")  # fmt: skip
        for e in unit.elements:
            numbers = ", ".join(f"{label} {value}" for label, value in e.profile)
            attributes = ", ".join((*e.attributes, *(f"spell {s}" for s in e.spells)))
            cost = str(points(e.cost_total)) if e.cost_total is not None else ""
            qty = f"{e.alive}/{e.count}" if e.lost else str(e.count)
            out.append(
                f"<tr><td>{e_(e.name)}</td><td class=\"n\">{e_(qty)}</td><td>{e_(numbers)}</td>"
                f"<td>{'<br>'.join(e_(w) for w in e.weapons)}</td><td>{e_(attributes)}</td>"
                f"<td class=\"n\">{e_(cost)}</td><td>{e_(_state(e))}</td></tr>"
            )
        out.append("</table>")
    if doc.rules:
        out.append("<h2>Rules used</h2><dl>")
        out += [f"<dt>{e_(rule.name)}</dt><dd>{e_(rule.text)}</dd>" for rule in doc.rules]
        out.append("</dl>")
    if doc.findings:
        out.append("<h2>Findings</h2><ul>")
        out += [f"<li>{e_(finding_line(f))}</li>" for f in doc.findings]
        out.append("</ul>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def as_json(doc: Roster) -> dict[str, Any]:
    data = attrs.asdict(doc)
    data["findings"] = [
        {"severity": f.severity, "rule": f.rule, "message": f.message, "path": f.path, "where": f.place}
        for f in doc.findings
    ]
    return data


RENDERERS = {"text": as_text, "md": as_markdown, "html": as_html}


def render(doc: Roster, fmt: str) -> str:
    return RENDERERS[fmt](doc)


def run(args: argparse.Namespace) -> int:
    from saves.atomic import atomic_write_text

    loaded = load_force_arg(args.force, NAME)
    if loaded is None:
        return 2
    force, ruleset = loaded
    try:
        doc = roster(force, ruleset)
    except Exception as exc:  # noqa: BLE001 - a force the ruleset cannot read: say so, no traceback
        print(inert(f"muster roster: {args.force}: cannot make a roster of this force ({exc})"), file=sys.stderr)
        return 2
    text = inert_json(as_json(doc), indent=2, ensure_ascii=False) + "\n" if args.json else render(doc, args.format)
    if args.output:
        try:
            atomic_write_text(args.output, text)
        except OSError as exc:
            print(inert(f"muster roster: cannot write {args.output}: {exc.strerror}"), file=sys.stderr)
            return 2
        print(inert(f"roster written to {args.output}"))
    else:
        sys.stdout.write(text)
    return 0
