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


# --- who may talk to the server (tui/serve_guard.py) ------------------------------

from tui.serve_guard import COOKIE, Guard  # noqa: E402

TOKEN = "s3cret-token"
GUARD = Guard.for_server("127.0.0.1", 8000, None, TOKEN)
HOST = "127.0.0.1:8000"
ORIGIN = "http://127.0.0.1:8000"


def test_the_page_needs_the_token_and_the_websocket_the_cookie() -> None:
    assert GUARD.refusal("/", HOST, None, TOKEN, None) == ""
    assert GUARD.refusal("/", "localhost:8000", None, TOKEN, None) == ""
    assert "token is needed" in GUARD.refusal("/", HOST, None, None, None)
    assert "token is needed" in GUARD.refusal("/", HOST, None, "guess", None)
    assert GUARD.refusal("/ws", HOST, ORIGIN, None, TOKEN) == ""
    assert "token is needed" in GUARD.refusal("/ws", HOST, ORIGIN, None, None)
    assert "token is needed" in GUARD.refusal("/download/abc", HOST, None, None, "guess")
    assert GUARD.refusal("/static/js/textual.js", HOST, None, None, None) == ""  # textual-serve's own files


def test_other_sites_and_other_host_names_are_refused() -> None:
    assert "other web sites" in GUARD.refusal("/ws", HOST, "http://evil.example", None, TOKEN)
    assert "other web sites" in GUARD.refusal("/ws", HOST, "null", None, TOKEN)
    assert "without an Origin" in GUARD.refusal("/ws", HOST, None, None, TOKEN)
    # DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends its own Host and Origin
    assert "wrong Host" in GUARD.refusal("/ws", "evil.example:8000", "http://evil.example:8000", None, TOKEN)
    assert "wrong Host" in GUARD.refusal("/", None, None, TOKEN, None)
    assert "wrong Host" in GUARD.refusal("/static/js/textual.js", "evil.example:8000", None, None, None)
    assert "wrong Host" in GUARD.refusal("/", "127.0.0.1:9999", None, TOKEN, None)


def test_a_public_url_is_accepted_as_host_and_origin() -> None:
    guard = Guard.for_server("0.0.0.0", 8000, "https://muster.example.org", TOKEN)
    assert guard.refusal("/ws", "muster.example.org", "https://muster.example.org", None, TOKEN) == ""
    assert "other web sites" in guard.refusal("/ws", "muster.example.org", "http://muster.example.org", None, TOKEN)
    assert guard.url("https://muster.example.org/") == f"https://muster.example.org/?token={TOKEN}"


def test_the_guarded_server_over_http_on_loopback() -> None:  # type: ignore[no-untyped-def]
    """The real textual-serve app with the guard in front: 403s, the cookie, the websocket
    handshake refused cross-origin and accepted from the page (no app is started)."""
    import asyncio
    import socket

    pytest.importorskip("textual_serve")
    from aiohttp import web
    from aiohttp.test_utils import TestClient, TestServer
    from textual_serve.server import Server

    from tui.serve_guard import guarded

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    guard = Guard.for_server("127.0.0.1", port, None, TOKEN)
    host, origin = f"127.0.0.1:{port}", f"http://127.0.0.1:{port}"

    async def run() -> None:
        server = guarded(Server, guard)("true", host="127.0.0.1", port=port, title="Muster")
        reached: list[str] = []

        async def fake_websocket(request: web.Request) -> web.Response:  # instead of starting an app
            reached.append(request.path)
            return web.Response(text="ok")

        server.handle_websocket = fake_websocket
        from io import StringIO

        from rich.console import Console

        printed = StringIO()
        server.console = Console(file=printed, width=40)  # narrow: the address must not be broken
        await server.on_startup(None)
        assert f"http://127.0.0.1:{port}/?token={TOKEN}" in printed.getvalue().splitlines()[0]
        app = await server._make_app()
        app.on_startup.clear()
        async with TestClient(TestServer(app, host="127.0.0.1", port=port)) as client:
            page = await client.get("/", headers={"Host": host})
            assert page.status == 403 and "token is needed" in await page.text()
            page = await client.get(f"/?token={TOKEN}", headers={"Host": host})
            assert page.status == 200 and "/ws" in await page.text()
            cookie = page.cookies[COOKIE]
            assert cookie.value == TOKEN and cookie["httponly"] and cookie["samesite"] == "Strict"
            evil = await client.get("/ws", headers={"Host": host, "Origin": "http://evil.example"})
            assert evil.status == 403
            rebound = await client.get("/ws", headers={"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"})
            assert rebound.status == 403
            assert reached == []
            ok = await client.get("/ws", headers={"Host": host, "Origin": origin})  # the cookie from the page
            assert ok.status == 200 and reached == ["/ws"]

    asyncio.run(run())
