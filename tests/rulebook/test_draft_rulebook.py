"""A forced build of a game that fails validation marks its rulebook as a draft too."""
from __future__ import annotations

import pytest

from cardgen.api import build_game
from cardgen.core.errors import CardgenError
from tests.pdfread import open_pdf


def test_forced_rulebook_is_marked_draft(tmp_path, built_games):
    with pytest.raises(CardgenError):
        build_game("card_data/yajanki", tmp_path, steps=("rulebook",))
    out = built_games("yajanki", force=True, steps=("rulebook",)).out_dir
    with open_pdf(out / "rulebook.pdf") as pdf:
        # the mark is the only large text; its characters are rotated, so join them in order
        marked = ["DRAFT – validation failed" in "".join(ch["text"] for ch in p.chars if ch["size"] > 20)
                  for p in pdf.pages]
    assert marked and all(marked)


def test_valid_rulebook_has_no_draft_mark(built_games):
    with open_pdf(built_games("tenjanpai", steps=("rulebook",)).out_dir / "rulebook.pdf") as pdf:
        assert not any("validation failed" in "".join(ch["text"] for ch in p.chars) for p in pdf.pages)
