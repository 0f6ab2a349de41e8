"""Draft to draft: what changed between two versions of a game (``cardgen diff``) and reprint
sheets of only the changed cards. See docs/ARCHITECTURE.md (``cardgen/diff/``) for the modules."""
