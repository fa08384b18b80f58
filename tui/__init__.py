"""The Textual application and the `muster` command line."""
