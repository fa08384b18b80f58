"""Muster's domain: forces, rulesets, the rules engine and campaigns.

Pure Python: no Textual, no file I/O, no clock. `saves` reads and writes files,
`tui` draws the screen.
"""
