"""Activation schemes that live outside any one ruleset.

A scheme decides who acts when; a ruleset decides what an action does. The
card-deck scheme of seed 001 is in `campaign.activation.cards`; every package here is
found by the scheme registry (campaign.engine.scheme) without being named.
"""

# The core's own turn order (campaign.activation.phased.initiative.InitiativeScheme), played when
# nothing names another scheme. Kept here, in a module that imports nothing, so the
# campaign records and the battle setup can use it without an import cycle.
DEFAULT_SCHEME = "initiative"
