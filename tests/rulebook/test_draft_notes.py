"""Two rulebook regressions read against the drafts (issue 31): 天雀牌's 脱衣 step says what
happens to the character card, as an open question with the option in use; NKO's list of which
base yaku a "same 3-letter word twice" hand forms comes from the tile patterns (the validator's
own reading), not from typed text. Each reads one rulebook (built once per test run, shared:
tests/conftest.built_games)."""
from __future__ import annotations

import re


from cardgen.check.multiset import base_yaku_of, hands
from cardgen.data.game import load_game
from tests.conftest import ROOT, needs_fonts
from tests.pdfread import open_pdf

pytestmark = needs_fonts


def _text(built_games, game: str) -> str:
    with open_pdf(built_games(game, steps=("rulebook",)).out_dir / "rulebook.pdf") as pdf:
        return re.sub(r"\s+", "", "".join(p.extract_text() or "" for p in pdf.pages))


def test_tenjanpai_undress_says_what_happens_to_the_card_as_an_open_question(built_games):
    text = _text(built_games, "tenjanpai")
    section = text[text.index("得点のあと、脱衣が起こります"):]
    assert section.index("一番上の1枚を外します") < section.index("【未確定】脱衣したとき、外した天雀カードをどうするか")
    assert "この版では：表向きのまま自分の前に置き、その奥義を見えるようにしておく" in section


def test_nko_same_word_hands_are_listed_from_the_tile_patterns(built_games):
    """Only UNKO×2 and MANKO×2 form no base yaku; UNCHI×2 and CHINKO×2 are CHINCHIN hands."""
    rows = [r.values for r in load_game(ROOT / "card_data" / "nko_mahjong").tables["yaku"]]
    assert {h: base_yaku_of(h, rows) for h in hands("{うんち|うんこ|まんこ|ちんこ}2")} == {
        "うんちうんち": ["CHINCHIN"], "うんこうんこ": [], "まんこまんこ": [], "ちんこちんこ": ["CHINCHIN"]}
    text = _text(built_games, "nko_mahjong")
    assert ("うんち＋うんち：CHINCHIN•うんこ＋うんこ：基本の役なし（Doublewordだけ）•まんこ＋まんこ：基本の役なし"
            "（Doublewordだけ）•ちんこ＋ちんこ：CHINCHIN") in text
    assert "【未確定】基本の役が付かない「同じ3文字ワード2つ」の手でアガれるか" in text
