"""Activation schemes that live outside any one ruleset.

A scheme decides who acts when; a ruleset decides what an action does. The
card-deck scheme of seed 001 is in `campaign.activation.cards`.
"""
