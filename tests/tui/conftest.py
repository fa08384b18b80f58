"""TUI test fixtures: the toy ruleset is registered on import, apps run at 80x24."""

from __future__ import annotations

import asyncio
import inspect
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


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop (no asyncio plugin needed)."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
        return True
    return None
