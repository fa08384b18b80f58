"""`muster serve [DIR] [--demo]`: the same app in a web browser, via textual-serve.

Loopback only unless --host says otherwise, since anyone who can reach the port can
drive Muster (and write to the campaign folder). Every request must carry the token
printed with the address and come from this server's own Host and Origin
(tui/serve_guard.py). textual-serve is an optional extra: `pip install 'muster[serve]'`.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

NAME = "serve"
HELP = "serve the Muster app in a web browser (textual-serve; loopback by default)"

LOOPBACK = ("127.0.0.1", "localhost", "::1")
# textual-serve runs a shell command per browser session; this one opens the app.
LAUNCH = "import sys; from tui.cli import main; sys.exit(main(sys.argv[1:]))"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", nargs="?", default=None, help="folder of campaigns (default: here)")
    parser.add_argument(
        "--demo", action="store_true",
        help="open a fresh copy of the demo campaign (written into DIR if given, else the user data folder)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    parser.add_argument("--public-url", help="the URL browsers use, when behind a proxy")


def app_command(folder: str | None, demo: bool) -> str:
    """The shell command textual-serve runs for each browser session (a demo with no
    folder named goes to the user data folder, as `muster --demo` does)."""
    words = [sys.executable, "-c", LAUNCH]
    if folder is not None or not demo:
        words.append(str(Path(folder or ".").resolve()))
    if demo:
        words.append("--demo")
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    if args.dir is not None and not Path(args.dir).is_dir():
        print(f"muster serve: {args.dir}: no such folder", file=sys.stderr)
        return 2
    try:
        from textual_serve.server import Server
    except ModuleNotFoundError:
        print("muster serve: textual-serve is not installed; install it with pip install 'muster[serve]'",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.host not in LOOPBACK:
        print(f"warning: serving on {args.host}: anyone who can reach port {args.port} can use this Muster",
              file=sys.stderr)  # fmt: skip
    from tui.serve_guard import Guard, guarded, new_token

    guard = Guard.for_server(args.host, args.port, args.public_url, new_token())
    server = guarded(Server, guard)(
        app_command(args.dir, args.demo), host=args.host, port=args.port, title="Muster", public_url=args.public_url
    )
    server.serve()
    return 0
