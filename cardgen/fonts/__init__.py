"""Fonts: roles → files (fonts.yaml, manifest overrides), registration with reportlab, metrics in pt."""
