"""Widgets shared by Muster's screens. User text is always passed as Text/Content, never markup."""
