"""The floor of issue 27's validate target: a process that only imports the libraries `cardgen
validate` uses — click, pydantic (one model built and validated), jinja2's sandbox, reportlab's
canvas and TrueType fonts, PyYAML — and does nothing else. Run it as a whole process beside
`cardgen validate card_data/tenjanpai` (benchmarks/README.md → "Issue 27's targets").

``--uses FONT…`` is a second, wider yardstick (not the target's): the same, plus the other
libraries a validate of 天雀牌 imports — markdown-it-py (and its CJK plugin), BudouX, pyphen,
uharfbuzz, fontTools' font and `name`-table modules, reportlab's platypus (the rulebook check
measures with ``Paragraph.wrap``) — and reportlab's parse (``TTFont``) of each font file given,
the work a cold validate cannot skip by any means but a cache. ``--dictionaries`` also loads
pyphen's en_US dictionary and BudouX's Japanese model (what 天雀牌's check loads)."""
import os
import sys

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

if sys.argv[1:2] == ["--uses"]:
    import budoux  # noqa: E402
    import fontTools.ttLib  # noqa: E402
    import fontTools.ttLib.tables._n_a_m_e  # noqa: E402
    import fontTools.ttLib.tables.O_S_2f_2  # noqa: E402
    import markdown_it  # noqa: E402
    import mdit_py_cjk_friendly  # noqa: E402
    import pyphen  # noqa: E402
    import reportlab.platypus  # noqa: E402
    import uharfbuzz  # noqa: E402

    args = sys.argv[2:]
    if args[:1] == ["--dictionaries"]:
        args = args[1:]
        pyphen.Pyphen(lang="en_US")
        budoux.load_default_japanese_parser()
    for i, path in enumerate(args):
        reportlab.pdfbase.ttfonts.TTFont(f"F{i}", path)
    LOADED += (budoux, fontTools.ttLib, markdown_it, mdit_py_cjk_friendly, pyphen, reportlab.platypus, uharfbuzz)
