"""`muster serve`: loopback by default, the app command it hands to textual-serve."""

from __future__ import annotations

import shlex
import sys
import types
from pathlib import Path

import pytest

from tui.cli import main


class FakeServer:
    made: list[dict[str, object]] = []

    def __init__(self, command: str, **kwargs: object) -> None:
        FakeServer.made.append({"command": command, **kwargs})

    def serve(self) -> None:
        FakeServer.made[-1]["served"] = True


@pytest.fixture
def fake_serve(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    package = types.ModuleType("textual_serve")
    server = types.ModuleType("textual_serve.server")
    server.Server = FakeServer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "textual_serve", package)
    monkeypatch.setitem(sys.modules, "textual_serve.server", server)
    FakeServer.made = []
    return FakeServer.made


def test_serve_listens_on_loopback_and_launches_the_app(fake_serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert main(["serve", str(tmp_path), "--demo"]) == 0
    (made,) = fake_serve
    assert made["host"] == "127.0.0.1" and made["port"] == 8000 and made["served"]
    words = shlex.split(str(made["command"]))
    assert words[0] == sys.executable
    assert words[-2:] == [str(tmp_path.resolve()), "--demo"]


def test_serve_warns_when_not_on_loopback(fake_serve, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["serve", str(tmp_path), "--host", "0.0.0.0", "--port", "9000"]) == 0
    assert fake_serve[0]["host"] == "0.0.0.0" and fake_serve[0]["port"] == 9000
    assert "anyone who can reach port 9000" in capsys.readouterr().err


def test_serve_without_textual_serve_says_how_to_install(monkeypatch, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "textual_serve", None)  # makes the import fail
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    assert main(["serve", str(tmp_path)]) == 2
    assert "muster[serve]" in capsys.readouterr().err


def test_serve_refuses_a_missing_folder(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["serve", str(tmp_path / "nope")]) == 2
    assert "no such folder" in capsys.readouterr().err
