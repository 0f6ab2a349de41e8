"""Reference docs generated from the models (docs/manifest.md, docs/templates.md)."""
