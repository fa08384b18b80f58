"""Flat Out War (v1.7 and Special Operations). Filled in by the foundation work."""
