"""The built-in scenario library (TOML data under library/) and its loader."""
