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
import re  # noqa: E402
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


# --- no ruleset's words in the layers' code ------------------------------------------
# The engine's own check (tests/engine/test_engine_vocabulary.py) reads campaign/engine;
# this one reads the code (not comments or docstrings) of every layer outside the plug-in
# folders: a ruleset's folder and the card scheme's (campaign/activation/cards, whose
# actions are named by its own spec). "recovery" is the campaign's own word (a ruleset only
# sets its die). What is left is named here, so that nothing new leaks in unseen.

RULESET_WORDS = re.compile(r"\b(melee|morale|spells?|shoot\w*|charg\w*|armou?r|flank)\b", re.I)
PLUGIN_FOLDERS = ("campaign/rulesets/", "campaign/activation/cards/")
KNOWN_WORDS = {
    # the force file's container still carries Flat Out War's shape (issue 11, item 2):
    # a weapon kind of melee or ranged, and chosen spells
    "campaign/force.py": {"melee", "spells"},
    "campaign/profiles.py": {"melee"},
    "campaign/roster.py": {"spells"},
    "saves/force_file.py": {"spells"},
    "tui/cli/roster.py": {"spell", "spells"},
    "tui/screens/help_text.py": {"spells", "charge"},  # help prose giving examples
}


def _code_words(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    docs = _docstrings(tree)
    found = set()
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            text = node.value
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            text = node.name
        elif isinstance(node, ast.arg):
            text = node.arg
        if text:
            found |= {m.group(0).lower() for m in RULESET_WORDS.finditer(text.replace("_", " "))}
    return found


def test_no_ruleset_words_in_the_layers_code() -> None:
    bad = []
    for layer in LAYERS:
        for path in sorted((VOCAB_ROOT / layer).rglob("*.py")):
            rel = path.relative_to(VOCAB_ROOT).as_posix()
            if rel in ALLOWED or rel.startswith(PLUGIN_FOLDERS):
                continue
            extra = _code_words(path) - KNOWN_WORDS.get(rel, set())
            if extra:
                bad.append(f"{rel}: {', '.join(sorted(extra))}")
    assert bad == []


def test_the_word_check_sees_code_and_not_docstrings(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""Units may charge."""\n\n# a melee comment\nKIND = "melee"\n')
    assert _code_words(sample) == {"melee"}
