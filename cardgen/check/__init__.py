"""Findings over a loaded game: deck math, design rules, print setup, and the preflight over laid-out cards."""
