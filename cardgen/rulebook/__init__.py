"""The rulebook: rules Markdown (jinja2) → blocks → PDF, with its generated tables and checks."""
