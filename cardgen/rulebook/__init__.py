"""The rulebook: rules Markdown (jinja2) → blocks → PDF, with its generated tables and checks."""
from cardgen.rulebook.lazy_uri import defer_url_pattern

defer_url_pattern()  # before any rulebook module imports reportlab.platypus: ~40 ms less at import
