"""Help topics: what each screen is for, and a short reference of each ruleset.

Written for Muster in our own words. Each ruleset carries its own reference
(Ruleset.help_text, in its folder); this module only asks the registry for it.
"""

from __future__ import annotations

from campaign.rulesets import UnknownRuleset, ruleset_class

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
        "with a force each (a sample force or a force file from this folder) and its players, the scenario track (press "
        "space on scenarios in the order they are to be played) and the campaign rules. ctrl+n and ctrl+b "
        "move between pages, ctrl+s creates the campaign folder and opens its dashboard. Anything missing "
        "is explained at the bottom and nothing is written until it is complete."
    ),
    "dashboard": (
        "One campaign at a glance: the sides and their victory points, the points won battle by battle, "
        "the scenario track (done, next, branches), the battles fought so far and each side's force. "
        "b briefs the next battle (then the muster, then the battle; a battle in progress resumes at once), e edits a side's force, l shows a past battle's log, "
        "r writes the campaign report, c commits the campaign folder to git."
    ),
    "briefing": (
        "What the next scenario asks before anyone musters: its points limit, rounds or how it ends, how "
        "victory is decided, deployment, special rules and the objectives with what each is worth; then "
        "what each side can field from its survivors, and whether all of it fits the limit. Arrows and "
        "page keys scroll; Enter goes on to the muster."
    ),
    "muster": (
        "Each side ticks the units it takes into the battle, from those with elements left. Space (or "
        "Enter) takes or leaves the highlighted unit, Tab moves to the other side. Under each list: the "
        "points mustered against the scenario's limit, and why the muster would be refused (over the "
        "limit, or an error the ruleset finds). b starts the battle with the units ticked; a refused side "
        "stops it, unless o gives an override with a reason (a house rule), which the battle file keeps "
        "with that side. f forecasts the battle between the units ticked: a couple of dozen battles "
        "played by the autoplayer in the background (every side at once when there are more than two), "
        "each side's chance to win, draw or lose."
    ),
    "force-builder": (
        "Units in bold with their elements beneath, each with its cost. The panel below breaks the "
        "highlighted element's price down term by term; findings explain what the ruleset objects to "
        "but never stop you. Enter or e edits, a adds an element, u a unit, s a unit from the sample forces, "
        "d duplicates, x deletes (after asking), shift+up/down or -/+ reorder, r renames, ctrl+s saves. "
        "Once a campaign has fought a battle, what a save adds to the force's price is paid from the "
        "side's banked reinforcement points; the line at the top shows the bank and what the changes cost. "
        "p shows the force as a roster for the table and writes it as Markdown beside the force file."
    ),
    "element-editor": (
        "Change any field and the price on the right follows as you type. Attributes and spells are "
        "comma-separated; an attribute's parameter goes after its name (Jump 8\", Reload: 2). "
        "The right arrow accepts a suggested attribute name. ctrl+n adds a weapon, ctrl+o edits the "
        "highlighted one, ctrl+r removes it. ctrl+s applies the changes; Escape asks before dropping them."
    ),
    "battle": (
        "The header names the scenario, the round and the side whose decision it is; units and their "
        "markers are on the left, and on the right what the engine is waiting for, its choices, and the "
        "log of what has happened.\n"
        "\n"
        "An activation: pick a unit with the arrows and Enter, then its move and its other action in "
        "either order. Actions that depend on the table (range, line of sight, arc, cover, charge...) open "
        "a short form of table facts: each starts at your last answer for that action, or at the rules' "
        "usual value, and the exact odds below it follow as you change them. ctrl+r rolls.\n"
        "\n"
        "Facts that name units or elements (who you touch, which elements fire, where hits go) take ids, "
        "but you need not know them: on such a field press F2 for a list by name, tick the ones you mean "
        "with Space in the order you want them (hits are allocated in that order) and press Enter; the ids "
        "land in the field, where you can still edit them. Escape leaves the field as it was.\n"
        "\n"
        "Dice. With auto dice Muster rolls from the battle's seed, so the same log always replays the same. "
        "With table dice you roll real dice and type the faces shown (space-separated); Escape leaves the "
        "command waiting for them. Faces typed after a roll's own answer the rolls that follow, so a to-hit "
        "roll and all its recovery dice can be typed at once, in the order the dice are read.\n"
        "\n"
        "Undo (u) takes back the last decision, on screen and in the battle file. It stops at dice: once "
        "faces are rolled they are part of the story. e ends the battle when the players agree; when the "
        "scenario ends it, Enter goes on to the post-battle step. Every step is written as it happens, so "
        "Escape loses nothing and the battle resumes where it was left. l and a move between the log and "
        "the actions.\n"
        "\n"
        "One writer. While this screen is open it holds the campaign, and no other Muster can write it. "
        "Opened while another Muster plays the battle, it watches instead: a banner names that Muster, the "
        "log and units follow its steps, nothing can be changed here, and t takes the battle over once it "
        "has left.\n"
        "\n"
        "Card turns. Under the card scheme each side secretly puts one card from its hand on each unit. "
        "Before a hand is shown Muster asks for the keyboard to be passed: only that side's player should "
        "look. Afterwards h lets the side whose decision it is look over its own hand and placements again, "
        "behind the same hand-over; the other side's cards are never shown. Cards are turned up one at a "
        "time and the unit whose card is up acts, spending its action points one action at a time."
    ),
    "post-battle": (
        "The whole result in one page, nothing saved yet: each side's victory points line by line, "
        "the elements lost and those that remain, the campaign rules applied (recovery rolls, "
        "reinforcement points) and where the scenario track goes next.\n"
        "\n"
        "o declares what happened on the table that Muster cannot see: which scenario objectives each "
        "side achieved (their points join the breakdown, when the campaign counts declared objectives) "
        "and, if one side completed its scenario aim, the strategic winner. The page updates at once. "
        "With table dice, r asks for the recovery dice again.\n"
        "\n"
        "s saves it all into the campaign folder in one go (and commits when the campaign uses git); "
        "then n starts the next battle. Escape before saving returns to the battle untouched."
    ),
}

def screen_help(topic: str) -> str:
    return SCREENS.get(topic, SCREENS["general"])


def ruleset_help(ruleset_id: str | None) -> str:
    """The ruleset's own short reference (Ruleset.help_text), found through the registry."""
    if ruleset_id is None:
        return "Open a force or a campaign to see a short reference of its ruleset here."
    try:
        text = ruleset_class(ruleset_id).help_text
    except UnknownRuleset:
        text = ""
    return text or f"No short reference for {ruleset_id} yet; see the rules specification."
