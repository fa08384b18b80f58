"""Who may talk to `muster serve`: a secret token, and the right Host and Origin.

textual-serve itself accepts any websocket: a web page the player happens to visit
could connect to 127.0.0.1 and drive Muster (press keys, write files). So every
request is checked before textual-serve sees it:

- Host must name this server (127.0.0.1/localhost/[::1]/--host with its port, or the
  public URL): a page on another name that resolves to 127.0.0.1 (DNS rebinding) is refused.
- Origin, when the browser sends one (it always does on a websocket), must be this
  server's own: a cross-site websocket is refused.
- The token printed in the URL must come with the page (`/?token=...`); the page then
  sets it as a SameSite=Strict, HttpOnly cookie, which the websocket and downloads
  must carry. textual-serve's own static files (its JavaScript and fonts) need no token.

Anything else gets 403. Each browser session is a separate Muster process, so the
campaign's lease (saves/lease.py) keeps it to one writer like any other terminal.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

import attrs

COOKIE = "muster_token"
OPEN_PATHS = ("/static/",)  # textual-serve's own files: nothing of the player's


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _bracket(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


@attrs.define(frozen=True)
class Guard:
    token: str
    hosts: frozenset[str]  # acceptable Host headers ("127.0.0.1:8000")
    origins: frozenset[str]  # acceptable Origin headers ("http://127.0.0.1:8000")

    @classmethod
    def for_server(cls, host: str, port: int, public_url: str | None, token: str) -> Guard:
        names = {"127.0.0.1", "localhost", "[::1]", _bracket(host)}
        hosts = {f"{name}:{port}" for name in names}
        if port == 80:
            hosts |= names
        origins = {f"http://{h}" for h in hosts}
        if public_url:
            parts = urlsplit(public_url)
            if parts.netloc:
                hosts.add(parts.netloc)
                origins.add(f"{parts.scheme}://{parts.netloc}")
        return cls(token, frozenset(h.lower() for h in hosts), frozenset(o.lower() for o in origins))

    def url(self, public_url: str) -> str:
        """The address to open: the server's page with the token."""
        return f"{public_url.rstrip('/')}/?token={self.token}"

    def refusal(
        self, path: str, host: str | None, origin: str | None, token: str | None, cookie: str | None
    ) -> str:
        """Why a request is refused ("" when it may pass)."""
        if not host or host.lower() not in self.hosts:
            return "wrong Host: open the address muster serve printed"
        if path.startswith("/ws") and not origin:
            return "a websocket without an Origin is refused"
        if origin is not None and origin.lower() not in self.origins:
            return "requests from other web sites are refused"
        if any(path.startswith(p) for p in OPEN_PATHS):
            return ""
        if not (self._matches(token) or self._matches(cookie)):
            return "a token is needed: open the address muster serve printed, with its ?token="
        return ""

    def _matches(self, value: str | None) -> bool:
        return bool(value) and hmac.compare_digest(str(value).encode(), self.token.encode())


def middleware(guard: Guard):  # type: ignore[no-untyped-def]  # aiohttp's decorator is untyped
    """aiohttp middleware: refuse with 403, and hand the page's token on as a cookie."""
    from aiohttp import web

    @web.middleware
    async def check(request: web.Request, handler):  # type: ignore[no-untyped-def]
        problem = guard.refusal(
            request.path,
            request.headers.get("Host"),
            request.headers.get("Origin"),
            request.query.get("token"),
            request.cookies.get(COOKIE),
        )
        if problem:
            raise web.HTTPForbidden(text=f"Muster: {problem}\n")
        response = await handler(request)
        if request.path == "/" and guard._matches(request.query.get("token")):
            response.set_cookie(COOKIE, guard.token, httponly=True, samesite="Strict", path="/")
        return response

    return check


def guarded(server_class: type, guard: Guard) -> type:
    """textual-serve's Server with the guard in front of every route (not vendored:
    only its app factory and its startup banner are extended)."""

    class GuardedServer(server_class):
        async def _make_app(self):  # type: ignore[no-untyped-def]
            app = await super()._make_app()
            app.middlewares.append(middleware(guard))
            return app

        async def on_startup(self, app) -> None:  # type: ignore[no-untyped-def]
            # soft_wrap: the address stays on one line, whole, to be copied or clicked
            self.console.print(f"Muster is served on {guard.url(self.public_url)}", highlight=False, markup=False,
                               soft_wrap=True)  # fmt: skip
            self.console.print("Open that address (it holds this session's token); press Ctrl+C to quit.",
                               highlight=False, markup=False)  # fmt: skip

    return GuardedServer
