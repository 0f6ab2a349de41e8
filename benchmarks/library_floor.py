"""The floor of issue 27's validate target: a process that only imports the libraries `cardgen
validate` uses — click, pydantic (one model built and validated), jinja2's sandbox, reportlab's
canvas and TrueType fonts, PyYAML — and does nothing else. Run it as a whole process beside
`cardgen validate card_data/tenjanpai` (benchmarks/README.md → "Issue 27's targets")."""
import os

os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as cardgen sets it

import click  # noqa: E402
import jinja2.sandbox  # noqa: E402
import reportlab.pdfbase.ttfonts  # noqa: E402
import reportlab.pdfgen.canvas  # noqa: E402
import yaml  # noqa: E402
from pydantic import BaseModel  # noqa: E402

LOADED = (click, jinja2.sandbox, reportlab.pdfbase.ttfonts, reportlab.pdfgen.canvas, yaml)


class Model(BaseModel):
    name: str
    count: int = 1


Model(name="x")
