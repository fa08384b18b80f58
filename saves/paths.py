"""Paths a campaign may use: inside its own folder, even through links.

`check_ref` refuses a path *written* to leave the folder
("../x", "/etc/x"); a link can still lead out (`battles/` made a link to another
folder would send every append there). `check_inside` follows the links and
refuses what ends up outside.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from saves.errors import SaveError


def check_ref(file: str | Path, key: str, ref: str) -> None:
    """A path written in a save must stay inside the campaign folder."""
    p = PurePosixPath(ref.replace("\\", "/"))
    if ref and (p.is_absolute() or ".." in p.parts or ref.startswith("~") or ":" in ref):
        raise SaveError(file, f"path {ref!r} leaves the campaign folder", key=key, expected="a path inside the campaign folder, like forces/humans.toml")


def check_inside(folder: str | Path, path: str | Path) -> Path:
    """`path`, after checking that it stays inside `folder` once links are followed."""
    folder, path = Path(folder), Path(path)
    try:
        root = folder.resolve()
        real = path.resolve()  # follows every link that exists; a missing tail is kept as written
    except (OSError, RuntimeError) as exc:  # a link loop
        raise SaveError(path, f"cannot follow its links ({exc})") from None
    if real != root and root not in real.parents:
        raise SaveError(path, f"is a link that leaves the campaign folder (it leads to {real})",
                        expected="a file inside the campaign folder", hint="replace the link with a real file or folder")
    return path
