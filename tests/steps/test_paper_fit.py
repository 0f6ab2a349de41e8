"""A card too big for the print-sheet paper is found by the check (validate and build alike), at
the size's line, with a hint that works: the paper it fits on, a smaller margin, or a smaller size."""
from __future__ import annotations

import pypdf
import pytest

from cardgen.api import build_game
from cardgen.core.errors import CardgenError
from cardgen.steps.game_check import check_game
from cardgen.steps.sheets import SheetOptions
from tests.minigame import MANIFEST, write_game


def _game(tmp_path, width, height):
    comp = {**MANIFEST["components"][0], "size": {"width": width, "height": height}}
    return write_game(tmp_path, manifest={"components": [comp]})


def _no_fit(check):
    return [p for p in check.errors if p.code == "no-fit"]


@pytest.mark.parametrize("size, hint", [
    ((192, 200), "print on larger paper (--paper letter) or give cards a smaller size"),
    ((195, 280), "print with a smaller printer margin (--margin 0, if your printer reaches the edge) or give cards a "
                 "smaller size"),
    ((250, 350), "give cards a smaller size: 250 × 350 mm fits on none of the papers cardgen prints on (a4, letter, b5) "
                 "with bleed and crop marks"),
])
def test_too_big_for_a4_names_the_fix(tmp_path, size, hint) -> None:
    game_dir = _game(tmp_path, *size)
    [p] = _no_fit(check_game(game_dir))
    assert (p.file.endswith("game.yaml"), p.path) == (True, "components → cards → size")
    lines = (game_dir / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[p.line - 1].strip().startswith("size:")
    assert p.message == f"not one card fits on the paper inside the printer margin ({size[0]} × {size[1]} mm on a4)"
    assert p.hint == hint


def test_the_paper_asked_for_is_the_one_checked(tmp_path) -> None:
    """192 × 200 mm fits on letter: a build with --paper letter prints it; the check with letter finds nothing."""
    game_dir = _game(tmp_path, 192, 200)
    assert _no_fit(check_game(game_dir, sheets=SheetOptions(paper="letter"))) == []
    assert _no_fit(check_game(game_dir, sheets=False)) == []
    with pytest.raises(CardgenError) as exc:
        build_game(game_dir, tmp_path / "out", steps=("sheets",))
    assert [p.code for p in exc.value.problems if p.severity == "error"] == ["no-fit"]
    result = build_game(game_dir, tmp_path / "out", options=SheetOptions(paper="letter"), steps=("sheets",))
    pdf = pypdf.PdfReader(next(f for f in result.files if f.name == "print-sheets.pdf"))
    w, h = (float(v) / 72 * 25.4 for v in pdf.pages[0].mediabox.upper_right)
    assert sorted((round(w, 1), round(h, 1))) == [215.9, 279.4]
