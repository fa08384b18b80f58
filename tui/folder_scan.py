"""What the campaigns list shows: the campaign folders and force files found in a folder.

Its own module, read when the list is first built (`muster --demo` opens on the
dashboard: issue 17, start-up).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from campaign.frozen import frozen
from saves.errors import SaveError
from tui.workspace import Unavailable, _optional, open_campaign

EntryKind = Literal["campaign", "force", "broken"]


@frozen
class Entry:
    """One thing found in the folder Muster was opened on."""

    kind: EntryKind
    path: Path
    name: str
    detail: str = ""


def scan(folder: Path) -> list[Entry]:
    """Campaign folders and force files in `folder` (and one level down)."""
    entries: list[Entry] = []
    candidates = [folder, *sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))]
    for sub in candidates:
        if (sub / "campaign.toml").is_file():
            entries.append(_campaign_entry(sub))
    forces_module = _optional("saves.force_file")
    for path in sorted(folder.glob("*.toml")):
        # hidden files are Muster's own (the lease) or the user's, never a force to list
        if path.name == "campaign.toml" or path.name.startswith(".") or forces_module is None:
            continue
        try:
            force = forces_module.load_force(path)
        except SaveError as exc:
            entries.append(Entry("broken", path, path.name, str(exc)))
            continue
        except Exception as exc:  # a file of another kind (scenario, battle): list it as unreadable
            entries.append(Entry("broken", path, path.name, f"not a force file: {exc}"))
            continue
        units = len(force.units)
        entries.append(Entry("force", path, force.name, f"{force.ruleset} {force.edition or ''}, {units} units"))
    return entries


def _campaign_entry(folder: Path) -> Entry:
    try:
        loaded = open_campaign(folder)
    except (SaveError, Unavailable, ValueError) as exc:
        return Entry("broken", folder, folder.name, str(exc))
    camp = loaded.campaign
    number = len(camp.history) + 1
    if camp.battle_in_progress:
        state = f"battle {number} in progress"
    else:
        state = "finished" if camp.finished else f"battle {number} next"
    return Entry("campaign", folder, camp.name, f"{camp.ruleset} {camp.edition or ''}, {state}")
