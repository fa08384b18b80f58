"""Help topics: what each screen is for, and a short reference of each ruleset.

Written for Muster in our own words; the rules specs under shared/rules are the
authority, and the rulesets' own catalogues give the numbers.
"""

from __future__ import annotations

SCREENS: dict[str, str] = {
    "general": (
        "Muster keeps your campaigns as folders of plain TOML. Everything works from the keyboard: "
        "the footer lists the keys of the screen you are on, ctrl+p opens the command palette with "
        "every action, Escape goes back (asking first if something is unsaved)."
    ),
    "campaigns": (
        "The campaigns and force files in the folder Muster was opened on. Enter opens the highlighted "
        "entry (so does o), n starts a new campaign, f starts a new force, g rescans the folder."
    ),
    "new-campaign": (
        "Four short pages: the basics (name, folder, ruleset and edition, dice mode, activation), the sides "
        "with a force each (a sample force or a force file from this folder), the scenario track (press "
        "space on scenarios in the order they are to be played) and the campaign rules. ctrl+n and ctrl+b "
        "move between pages, ctrl+s creates the campaign folder and opens its dashboard. Anything missing "
        "is explained at the bottom and nothing is written until it is complete."
    ),
    "dashboard": (
        "One campaign at a glance: the sides and their victory points, the points won battle by battle, "
        "the scenario track (done, next, branches), the battles fought so far and each side's force. "
        "b starts the next battle, e edits a side's force, l shows a past battle's log, "
        "r writes the campaign report, c commits the campaign folder to git."
    ),
    "force-builder": (
        "Units in bold with their elements beneath, each with its cost. The panel below breaks the "
        "highlighted element's price down term by term; findings explain what the ruleset objects to "
        "but never stop you. Enter or e edits, a adds an element, u a unit, s a unit from the sample forces, "
        "d duplicates, x deletes (after asking), shift+up/down or -/+ reorder, r renames, ctrl+s saves."
    ),
    "element-editor": (
        "Change any field and the price on the right follows as you type. Attributes and spells are "
        "comma-separated; an attribute's parameter goes after its name (Jump 8\", Reload: 2). "
        "The right arrow accepts a suggested attribute name. ctrl+n adds a weapon, ctrl+o edits the "
        "highlighted one, ctrl+r removes it. ctrl+s applies the changes; Escape asks before dropping them."
    ),
}

RULESETS: dict[str, str] = {
    "flat-out-war": (
        "Flat Out War in brief\n"
        "\n"
        "Dice. Each element has one base die from d4 up to d20. A test is one roll of the right die plus "
        "any modifiers; a total of 4 or better succeeds. Modifiers from attributes are small (-2 to +2) and "
        "apply only where the attribute says.\n"
        "\n"
        "Rounds. At the start of a round every player rolls a d6 and turns go from the highest roll down "
        "(only tied players roll again). On a turn a player activates one unit or passes. An activated unit "
        "may move and take one other action (melee, shooting or a spell), in either order.\n"
        "\n"
        "Damage. An element that is hit rolls to recover: 4 or better and it stays. Elements with several "
        "weapons roll for each weapon and lose the ones that fail.\n"
        "\n"
        "Morale. Each time a unit loses another quarter of its starting size it tests on its best base die, "
        "at -1 for every quarter already gone. A failed test sends it fleeing until it rallies.\n"
        "\n"
        "Points. An element's price is its die, its weapons, its MOVE (paid per 2 inches) and its "
        "attributes, some a flat sum and some a multiple of the die's DAC. A unit costs the sum of its "
        "elements.\n"
        "\n"
        "Victory. Either a side completes its scenario objective, or, counting points, each unit wiped out "
        "is worth a quarter of what it cost, plus the agreed objective values."
    ),
}


def screen_help(topic: str) -> str:
    return SCREENS.get(topic, SCREENS["general"])


def ruleset_help(ruleset_id: str | None) -> str:
    if ruleset_id is None:
        return "Open a force or a campaign to see a short reference of its ruleset here."
    return RULESETS.get(ruleset_id, f"No short reference for {ruleset_id} yet; see the rules specification.")
