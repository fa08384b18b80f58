"""The layer rule: campaign, saves and scenarios never import Textual or the TUI."""

import subprocess
import sys

import pytest

CHECK = """
import sys, pkgutil, importlib
import {pkg}
for mod in pkgutil.walk_packages({pkg}.__path__, "{pkg}."):
    importlib.import_module(mod.name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "tui", "rich"))
print(",".join(bad))
"""


@pytest.mark.parametrize("pkg", ["campaign", "saves", "scenarios"])
def test_lower_layers_do_not_import_textual(pkg: str) -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHECK.format(pkg=pkg)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "", f"{pkg} pulled in {out.stdout.strip()}"


def test_campaign_does_no_file_io_or_clock() -> None:
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parent.parent / "campaign"
    pattern = re.compile(r"\bopen\(|\.read_text\(|\.write_text\(|\btime\.time\(|datetime\.now\(|\bimport time\b")
    offenders = [
        str(p.relative_to(root)) for p in root.rglob("*.py") if pattern.search(p.read_text())
    ]
    assert offenders == []


def test_headless_cli_does_not_import_textual() -> None:
    code = (
        "import sys\nimport tui.cli\ntui.cli._subcommands()\n"
        "print(sorted(m for m in sys.modules if m.startswith('textual')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- no ruleset named outside its folder -------------------------------------------
# The core, saves, scenarios' code and the TUI ask the registry (docs/rulesets.md). Comments
# and docstrings may mention a ruleset as an example; code may not import a ruleset package
# or spell a ruleset's id or alias.

import ast  # noqa: E402
from pathlib import Path  # noqa: E402

from campaign.rulesets import ruleset_class, ruleset_ids  # noqa: E402

VOCAB_ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("campaign", "saves", "scenarios", "tui")
# The demo campaigns are of one ruleset each by design: their data names their ruleset.
ALLOWED = {"scenarios/demo.py", "scenarios/demo_figwars.py", "scenarios/demo_d10.py"}


def _names() -> set[str]:
    out = set()
    for rid in ruleset_ids():
        out |= {rid, *ruleset_class(rid).aliases}
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def offences(path: Path, packages: set[str], names: set[str]) -> list[str]:
    tree = ast.parse(path.read_text())
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for module in modules:
                if any(module == p or module.startswith(p + ".") for p in packages):
                    found.append(f"{node.lineno}: imports {module}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value in names:
                found.append(f"{node.lineno}: names {node.value!r}")
    return found


def test_no_ruleset_is_named_outside_its_folder() -> None:
    folders = {rid: VOCAB_ROOT / "campaign" / "rulesets" / ruleset_class(rid).__module__.split(".")[2] for rid in ruleset_ids()}
    packages = {f"campaign.rulesets.{folder.name}" for folder in folders.values()}
    names = _names()
    bad = []
    for layer in LAYERS:
        for path in sorted((VOCAB_ROOT / layer).rglob("*.py")):
            rel = path.relative_to(VOCAB_ROOT).as_posix()
            if rel in ALLOWED or any(path.is_relative_to(folder) for folder in folders.values()):
                continue
            bad += [f"{rel}:{line}" for line in offences(path, packages, names)]
    assert bad == []
