"""Optional git commits after a battle, with a message written from its events.

Only when the campaign folder is inside a git work tree and the campaign asks for it
(rules.git_commits). Git problems never stop a save: they come back as warnings.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=30, check=False
    )


def in_git_repo(folder: str | Path) -> bool:
    if shutil.which("git") is None:
        return False
    out = _git(Path(folder), "rev-parse", "--is-inside-work-tree")
    return out.returncode == 0 and out.stdout.strip() == "true"


def commit(folder: str | Path, message: str, paths: Sequence[str]) -> list[str]:
    """Stage `paths` (relative to the folder) and commit them. Returns warnings."""
    folder = Path(folder)
    if not in_git_repo(folder):
        return []
    added = _git(folder, "add", "--", *paths)
    if added.returncode != 0:
        return [f"git add failed: {added.stderr.strip()}"]
    done = _git(folder, "commit", "-q", "-m", message, "--", *paths)
    if done.returncode != 0 and "user.email" in done.stderr + done.stdout:  # no identity set up
        done = _git(folder, "-c", "user.name=Muster", "-c", "user.email=muster@localhost",
                    "commit", "-q", "-m", message, "--", *paths)  # fmt: skip
    if done.returncode != 0:
        text = (done.stdout + done.stderr).strip()
        if "nothing to commit" in text or "no changes added" in text:
            return []
        return [f"git commit failed: {text}"]
    return []
