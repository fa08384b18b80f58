"""The built-in scenario library (TOML data under library/ and demo/) and its loader.

`builtin_scenarios()` gives every built-in scenario by id; `scenarios_for(folder)`
adds a campaign's own scenarios/*.toml (a campaign's file wins over a built-in one
with the same id). `demo_campaign()` builds the demo: three linked Flat Out War
battles with the Special Operations Human and Alien forces.
"""

from scenarios.loader import LIBRARY, builtin_scenario_ids, builtin_scenarios, scenarios_for, scenarios_named

__all__ = ["LIBRARY", "builtin_scenario_ids", "builtin_scenarios", "scenarios_for", "scenarios_named"]
