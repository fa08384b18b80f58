"""TUI test fixtures: the toy ruleset is registered on import, apps run at 80x24."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

import tests.tui.toy_ruleset  # noqa: F401  (registers "toy-war")
from tui.app import MusterApp


@pytest.fixture(autouse=True)
def steady_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inputs keep their cursor shown: a blink every 0.5 s made snapshots depend on the machine's load."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture
def empty_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "table"
    folder.mkdir()
    return folder


@pytest.fixture
def app(empty_folder: Path) -> MusterApp:
    return MusterApp(empty_folder)
