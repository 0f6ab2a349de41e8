"""The last, partly filled battle sheet of 天雀牌 (2 of 8 slots): each card's back prints behind
its own front, at the mirrored position (long-edge flip of a landscape A4 page mirrors y).

The back design is the same for every battle card, so a game copy prints the card id on front
and back (and swaps the last two table rows so the last sheet holds two different cards); the
test pairs the faces by that id."""
from __future__ import annotations

import pytest

from cardgen.api import build_game
from cardgen.steps.sheets import SheetOptions
from tests.conftest import copy_game, needs_fonts, replace_in
from tests.render.test_sheets_pdf import BATTLE, TOL, deck_pages, read_pdf

pytestmark = needs_fonts

ID_LINE = '  - {kind: text, name: card_id, box: [5, 8, 30, 5], text: "{{ card.id }}", font: body, size: 8, color: "#000000"}\n'


def _ids_by_box(page) -> dict[str, tuple]:
    out = {}
    for box in page.boxes:
        inside = "".join(c["text"] for c in sorted(page.chars, key=lambda c: (round(c["top"]), c["x0"]))
                         if box[0] <= (c["x0"] + c["x1"]) / 2 <= box[2] and box[1] <= page.height - (c["top"] + c["bottom"]) / 2 <= box[3])
        ids = [i for i in ("b7-pon", "b7-both") if i in inside]
        assert len(ids) == 1, inside
        out[ids[0]] = box
    return out


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_each_back_of_the_last_sheet_is_the_mirror_of_its_front(tmp_path, duplex, monkeypatch):
    game = copy_game(tmp_path / "src")
    monkeypatch.chdir(tmp_path / "src")  # the project root is where cardgen runs (docs/security.md)
    for name in ("battle.yaml", "battle_back.yaml"):
        with open(tmp_path / "src" / "templates" / "cards" / name, "a", encoding="utf-8") as f:
            f.write(ID_LINE)
    replace_in(game / "battle.csv", "b7-pon,7,1,0,1,1\nb7-both,7,1,1,2,5\n", "b7-both,7,1,1,2,5\nb7-pon,7,1,0,1,1\n")
    res = build_game(game, tmp_path / "out", SheetOptions(paper="a4", duplex=duplex), steps=("sheets",))
    pages = read_pdf(res.files[0])
    front, back = deck_pages(pages, BATTLE, "front")[-1], deck_pages(pages, BATTLE, "back")[-1]
    assert len(front.boxes) == len(back.boxes) == 2
    W, H = front.width, front.height
    mirror_x = (duplex == "long-edge") != (W > H)
    fronts, backs = _ids_by_box(front), _ids_by_box(back)
    assert fronts.keys() == backs.keys() == {"b7-pon", "b7-both"}
    for card, (x0, y0, x1, y1) in fronts.items():
        want = (W - x1, y0, W - x0, y1) if mirror_x else (x0, H - y1, x1, H - y0)
        assert list(backs[card]) == pytest.approx(list(want), abs=TOL), card
    # reading order on the front: the last sheet fills from the top-left
    assert fronts["b7-both"][0] < fronts["b7-pon"][0] and fronts["b7-both"][3] == pytest.approx(fronts["b7-pon"][3])
