"""`muster unlock DIR [--other-host]`: show who holds a campaign's lease and break a stale one.

A lease whose process is gone on this machine is broken by the next Muster anyway;
this command is for a lease taken on another host (a shared or synced folder), which
Muster cannot check from here and never breaks by itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from campaign.inert_text import inert

NAME = "unlock"
HELP = "show who holds a campaign for writing; break a lease left by a Muster that is gone"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", help="the campaign folder")
    parser.add_argument(
        "--other-host", action="store_true",
        help="also break a lease taken on another host (only when you know that Muster is gone)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from saves.errors import SaveError
    from saves.lease import CampaignBusy, break_lease, current_holder, holder_alive

    folder = Path(args.dir)
    if not (folder / "campaign.toml").is_file():
        print(inert(f"muster unlock: {folder}: no campaign here"), file=sys.stderr)
        return 2
    holder = current_holder(folder)
    if holder is None:
        print(inert("Nobody holds this campaign: any Muster may write it."))
        return 0
    if holder_alive(holder) is True:
        print(inert(f"muster unlock: held by a running Muster ({holder.describe()}); close it there"),
              file=sys.stderr)  # fmt: skip
        return 1
    try:
        broken = break_lease(folder, other_host=args.other_host)
    except CampaignBusy as exc:
        print(inert(f"muster unlock: {exc.message}; if it is gone, run again with --other-host"), file=sys.stderr)
        return 1
    except SaveError as exc:
        print(inert(f"muster unlock: {exc}"), file=sys.stderr)
        return 2
    if broken is not None:
        print(inert(f"Broke the lease of {broken.describe()}."))
    return 0
