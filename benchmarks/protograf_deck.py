"""protograf on the generated deck (benchmarks/gen.py), for the comparison in issue 19.

    python benchmarks/protograf_deck.py GAME_DIR OUT_DIR   # prints {"seconds", "cards", "bytes", …} as JSON

protograf (https://protograf.readthedocs.io, a PyPI package for print-and-play cards and boards
built on PyMuPDF) lives in its own virtual environment, benchmarks/.protograf-venv, made by
``make bench-protograf``; it is never installed into cardgen's environment and nothing here
imports it. ``write_script`` writes a protograf script (OUT_DIR/deck.py) and a copy of the
deck's CSV; the script is then run by the protograf venv's Python as a whole process, start to
exit, with OUT_DIR as its working folder (protograf writes its PDF, deck.pdf, there). Its
font-family index (protograf keeps it under ``~/.protograf``) goes to
benchmarks/.protograf-venv/home, so the user's home is not touched; the first run of a fresh
venv builds it (a few seconds), later runs read it.

What the script draws, in protograf's own terms (benchmarks/README.md lists where it differs
from the cardgen deck):
- ``Create``: landscape A4, millimetres, margins 9 mm left and right and 5 mm top and bottom;
- ``Data``: the deck's characters.csv, one card per row;
- ``Deck``: 63 × 88 mm cards, 4 columns × 2 rows, 9 mm apart, placed as the independent floor
  places them (centred on the page: 9 mm from the sides, 10.5 mm from the top), crop marks as protograf draws them (``grid_marks`` in its
  ``cross`` style: a small cross at each trim corner);
- ``Card``: a 3 mm bleed in the card colour, the band (into the bleed), the two rounded frames,
  the one-line texts (title, name, stage, the two headings and the two cost lines) as plain
  ``text`` at the template's sizes and colours, and the skill and ougi texts as wrapped text
  boxes (``wrap=True``: 51 × 15 mm, 8.5 pt, one colour, so each ``:icon:`` is a ● in the text's
  colour; ruby ``｜base《reading》`` as its base text). A wrapped box does not shrink text: the
  generated texts (at most 43 characters) fit at 8.5 pt, as they do in cardgen. protograf's HTML
  box would shrink text to fit, but each one embeds the whole font again (100 cards: 1.4 GB peak,
  see benchmarks/README.md), so it cannot run at 1,000 or 4,000 cards;
- ``CardBack``: the back (colour, rounded frame, the game title and 雀士), which protograf
  places mirrored on the following page for duplex printing;
- the IPAex Gothic font (``Font("IPAexゴシック")``: protograf indexes the family by its
  Japanese name).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SKIP_NOTE = "protograf not installed: make bench-protograf"


def venv() -> Path:
    """The protograf venv: benchmarks/.protograf-venv, or the folder named by
    ``CARDGEN_PROTOGRAF_VENV`` (another venv with protograf; the tests name one that does not exist)."""
    return Path(os.environ.get("CARDGEN_PROTOGRAF_VENV") or HERE / ".protograf-venv")


# The card (mm from the card's top-left corner; sizes in pt): the boxes of
# templates/cards/character.yaml and character_back.yaml. A plain text's y is its baseline
# (top of the box + 0.88 of the font size, as the independent floor sets it).
SCRIPT = r'''# Written by cardgen's benchmarks/protograf_deck.py: the generated deck, drawn by protograf.
import re

from protograf import *

ICON = re.compile(r":([a-z_]+):")
RUBY = re.compile(r"｜([^《]+)《[^》]*》")


def plain(text):
    """Ruby markup → its base text; :icon: → a dot (a wrapped text box has one colour)."""
    return ICON.sub("●", RUBY.sub(r"\1", text))


def base(y, size):
    return y + size * 0.88 * 25.4 / 72


FONT = "IPAexゴシック"
Create(filename="deck.pdf", paper="A4-l", units="mm", margin=5, margin_left=9, margin_right=9)
Data(filename="characters.csv")
Deck(width=63, height=88, cols=4, rows=2, spacing_x=9, spacing_y=9, offset_y=5.5,
     fill="#fbf7ee", stroke="#fbf7ee",
     grid_marks=True, grid_marks_style="cross", grid_marks_stroke="#000000",
     grid_marks_stroke_width=0.25, grid_marks_length=2)
Font(FONT)
line = dict(font_name=FONT, align="left")
box = dict(font_name=FONT, wrap=True, align="left", x=6, width=51, height=15, font_size=8.5, stroke="#000000")
Card(
    "*",
    rectangle(x=-3, y=-3, width=69, height=22, fill="#23395b", stroke="#23395b"),
    text(text=T("{{ title }}"), x=5, y=base(4.5, 7.5), font_size=7.5, stroke="#e8c77a", **line),
    text(text=T("{{ name }}"), x=5, y=base(9.5, 15), font_size=15, stroke="#ffffff", **line),
    text(text=T("{{ stage }}/3"), x=59, y=base(8, 14), font_size=14, stroke="#ffffff", font_name=FONT, align="right"),
    rectangle(x=4, y=22, width=55, height=28, rounding=2, stroke="#23395b", stroke_width=0.8, fill=None),
    text(text=T("スキル「{{ skill_name }}」"), x=6, y=base(23.5, 8.5), font_size=8.5, stroke="#23395b", **line),
    text(text="手札1枚を捨てて使う・1手番1回", x=6, y=base(29, 6), font_size=6, stroke="#6b5a44", **line),
    text(text=T("{{ skill_text }}", function=plain), y=34, **box),
    rectangle(x=4, y=53, width=55, height=28, rounding=2, stroke="#8c1c13", stroke_width=0.8, fill="#f3e6c4"),
    text(text=T("奥義「{{ ougi_name }}」"), x=6, y=base(54.5, 8.5), font_size=8.5, stroke="#8c1c13", **line),
    text(text="脱衣で発動・常時有効", x=6, y=base(60, 6), font_size=6, stroke="#6b5a44", **line),
    text(text=T("{{ ougi_text }}", function=plain), y=65, **box),
    bleed=3, bleed_fill="#fbf7ee",
)
CardBack(
    "*",
    rectangle(x=-3, y=-3, width=69, height=94, fill="#23395b", stroke="#23395b"),
    rectangle(x=4, y=4, width=55, height=80, rounding=3, stroke="#e8c77a", stroke_width=1.5, fill=None),
    text(text=@TITLE@, x=31.5, y=base(36, 24), font_size=24, stroke="#fbf7ee", font_name=FONT, align="centre"),
    text(text="雀士", x=31.5, y=base(48, 11), font_size=11, stroke="#e8c77a", font_name=FONT, align="centre"),
)
Save()
'''


def python() -> Path | None:
    """The protograf venv's Python, or None when ``make bench-protograf`` has not been run."""
    exe = venv() / "bin" / "python"
    return exe if exe.is_file() and (venv() / ".installed").is_file() else None


def version() -> str:
    """protograf's installed version (asked of the protograf venv's Python)."""
    out = subprocess.run([str(python()), "-c", "import importlib.metadata as m; print(m.version('protograf'))"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def font_index() -> Path:
    """protograf's font-family index in the venv's home: built by the first run, read by the next."""
    return venv() / "home" / ".protograf" / "font_families.pickle"


def write_script(game: Path, out: Path) -> Path:
    """Write OUT/deck.py (the protograf script) and OUT/characters.csv for the generated deck
    ``game`` (a folder from benchmarks/gen.py); returns the script's path."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(game / "characters.csv", out / "characters.csv")
    title = re.search(r"title: (.*)", (game / "game.yaml").read_text(encoding="utf-8")).group(1).strip()
    script = out / "deck.py"
    script.write_text(SCRIPT.replace("@TITLE@", json.dumps(title, ensure_ascii=False)), encoding="utf-8")
    return script


def command(game: Path, out: Path) -> tuple[list[str], dict, Path]:
    """(argv, environment, working folder) of one protograf run on ``game``; the script and
    CSV are written first. Raises SystemExit with the note when protograf is not installed."""
    exe = python()
    if exe is None:
        raise SystemExit(SKIP_NOTE)
    script = write_script(game, out)
    home = venv() / "home"  # protograf's font-family index (~/.protograf) goes here, not in the user's home
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
    return [str(exe), script.name], env, out


def cards(game: Path) -> int:
    """Cards in the generated deck ``game`` (rows of its characters.csv)."""
    with (game / "characters.csv").open(encoding="utf-8") as fh:
        return sum(1 for _ in fh) - 1


if __name__ == "__main__":
    game, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    argv, env, cwd = command(game, out)
    pdf = cwd / "deck.pdf"
    pdf.unlink(missing_ok=True)
    t = time.perf_counter()
    with (cwd / "protograf.log").open("wb") as log:
        rc = subprocess.call(argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    dt = time.perf_counter() - t
    if rc != 0 or not pdf.is_file():
        raise SystemExit(f"protograf failed (exit {rc}); see {cwd / 'protograf.log'}")
    print(json.dumps({"seconds": dt, "cards": cards(game), "bytes": pdf.stat().st_size}))
