"""`cardgen build card_data/tenjanpai --edition en` (issue 33's "done when"): print sheets, rulebook
and exports whose texts are English (read back), deck math and counts equal to the Japanese
edition's, card ids and order one to one. Builds both editions of the bundled game (sheets,
rulebook, TTS and shop exports, no PNGs): about 15 s."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardgen.api import build_game
from cardgen.steps.game_check import check_game
from tests.conftest import TENJANPAI, needs_fonts
from tests.pdfread import page_texts

pytestmark = needs_fonts
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
STEPS = ("sheets", "rulebook", "tts", "shop")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("out")
    return {e: build_game(TENJANPAI, out, steps=STEPS, edition=e) for e in ("ja", "en")}


def _text(path: Path) -> str:
    return "\n".join(page_texts(path))


def test_outputs_go_to_the_edition_folder(built):
    assert built["en"].out_dir == built["ja"].out_dir / "en"
    assert (built["ja"].out_dir / "en" / "print-sheets.pdf").is_file()  # the default edition's build kept it


def test_english_texts_read_back(built):
    out = built["en"].out_dir
    files = [out / "print-sheets.pdf", out / "rulebook.pdf", *sorted((out / "shop").glob("*.pdf"))]
    for f in files:
        text = _text(f)
        assert not CJK.findall(text), f"{f.name}: {sorted(set(CJK.findall(text)))[:10]}"
    sheets = _text(out / "print-sheets.pdf")
    for words in ("Li Honglian", "Skill: Crimson Lotus Palm", "Tenpai speed · hand value", "Secret art: Frozen Heart"):
        assert words in sheets
    book = _text(out / "rulebook.pdf")
    for words in ("Tenjanpai Rulebook", "Playing a turn", "Open question:", "Hand (each)", "Dead wall", "Battle cards"):
        assert words in book
    saved = json.loads((out / "tts" / "tenjanpai.json").read_text(encoding="utf-8"))  # the TTS saved object
    assert [d["Nickname"] for d in saved["ObjectStates"]] == ["Battle cards", "Fighter cards", "Power cubes"]
    first = saved["ObjectStates"][1]["ContainedObjects"][0]
    assert first["Nickname"] == "Li Honglian" and "Gain 1 power." in first["Description"]  # TTS: plain text
    assert not CJK.findall(json.dumps(saved, ensure_ascii=False))
    ja = _text(built["ja"].out_dir / "print-sheets.pdf")
    assert "炎掌の天雀" in ja and "Li Honglian" not in ja  # (the Japanese name is set vertically)


def test_deck_math_counts_ids_and_order_equal_the_japanese_edition(built):
    ja, en = (json.loads((built[e].out_dir / "report.json").read_text(encoding="utf-8")) for e in ("ja", "en"))
    assert en["deck_math"] == ja["deck_math"] and en["deck_math"]
    assert en["cards"] == ja["cards"] == {"battle": 42, "characters": 15, "power_cubes": 40}
    jd, ed = (json.loads((built[e].out_dir / "tts" / "tenjanpai.json").read_text(encoding="utf-8"))["ObjectStates"]
              for e in ("ja", "en"))
    assert [d["DeckIDs"] for d in jd] == [d["DeckIDs"] for d in ed]  # the same cards in the same order
    assert [len(d["ContainedObjects"]) for d in ed] == [len(d["ContainedObjects"]) for d in jd] == [42, 15, 40]
    ids = [[(c.component, c.row.id, c.copy) for c in p.cards] for p in check_game(TENJANPAI, rulebook=False).plans]
    assert ids == [[(c.component, c.row.id, c.copy) for c in p.cards]
                   for p in check_game(TENJANPAI, edition="en", rulebook=False).plans]
    assert built["en"].report.player_counts == built["ja"].report.player_counts
