"""The d10 phased rules (seed 004): a d10 where a modified 5+ succeeds, phased turns,
super initiative, hits then one save roll per model, morale grades.

Spec: ../shared/rules/d10-phased.md; map of rules to code and tests: docs/d10-phased.md.
Importing the package registers the ruleset (`ruleset.D10Phased`) with the registry.
"""

from __future__ import annotations

from campaign.rulesets import register
from campaign.rulesets.d10_phased.ruleset import D10Phased

register(D10Phased)
