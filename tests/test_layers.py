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
