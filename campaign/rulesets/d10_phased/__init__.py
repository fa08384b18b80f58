"""The d10 phased rules (seed 004): a d10 where a modified 5+ succeeds, phased turns,
super initiative, hits then one save roll per model, morale grades.

Spec: ../shared/rules/d10-phased.md; map of rules to code and tests: docs/d10-phased.md.
The modules hold the rules as pure functions and data; registration with the plug-in
core comes with the core's contract.
"""
