"""Persistence: TOML files <-> campaign objects, format versions, safe writes."""

FORMAT = "muster/1"
