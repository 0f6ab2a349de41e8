"""The bundled rules say what the drafts say, with their numbers from the data:

- no digit typed into rules text equals a number of the game's data (manifest, setup, deck math,
  card tables) unless it is marked literal with ``{{ lit(…) }}``;
- 天雀牌's number distribution (seed 001: 2〜7 = 8・8・7・7・6・6) is a design rule: seven 2s and nine
  3s (still 42 cards) fail validation naming it;
- NKO麻雀: the validator reports that UNKO＋UNKO, a listed winning shape, scores no base yaku;
- 夜雀鬼: each character card's back, read from the print sheets, carries its turned-side skill
  (seed 000: the undressed card is turned over and becomes a new skill).
"""
from __future__ import annotations

import re
import shutil
from dataclasses import asdict

import pytest

from cardgen.api import validate_game
from cardgen.check.print_setup import load_and_validate
from cardgen.data.game import load_game
from cardgen.data.rulebook_sources import rulebook_source_files
from cardgen.core.units import MM
from tests.pdfread import CARD_DATA, ROOT, open_pdf

GAMES = ["tenjanpai", "yajanki", "nko_mahjong", "majan"]
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_MARKER = re.compile(r"^(\s*(?:#+\s*)?)\d+\.(?=\s)", re.M)  # "1. " list items, "### 1. " step headings
_NUMBER = re.compile(r"[0-9０-９][0-9０-９,，]*")
_WIDE = str.maketrans("０１２３４５６７８９，", "0123456789,")


def _ints(value, out: set) -> None:
    """Every whole number in a nested value (mapping keys that are numbers too)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        out.add(value)
    elif isinstance(value, str) and value.strip().isdigit():
        out.add(int(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            _ints(k, out)
            _ints(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _ints(v, out)


def data_numbers(game, report) -> set[int]:
    """The numbers of a game's data: players, component counts, setup and deck math, design
    constants, every whole-number cell and copy count of the card tables. 0 and 1 are left out:
    they are counting words (1枚引く, 0として数える) far more often than data."""
    out: set[int] = set()
    m = game.manifest
    _ints(m.game.players, out)
    _ints([c.count for c in m.components], out)
    if m.setup:
        _ints([pc.model_dump() for pc in m.setup.player_counts], out)
    _ints([asdict(pc) for pc in report.player_counts], out)
    _ints(m.design, out)
    for rows in game.tables.values():
        for r in rows:
            _ints(r.values, out)
            out.add(r.quantity)
    return {n for n in out if n > 1}


def typed_data_numbers(game_dir) -> list[str]:
    """``file:line: N`` for every number typed in the rules text that equals a data number
    (text inside ``{{ }}``, ``{% %}`` and ``{# #}`` is not typed; nor are list and step numbers)."""
    game, report = load_and_validate(game_dir)
    numbers = data_numbers(game, report)
    found = []
    for f in rulebook_source_files(game_dir / "rules"):
        source = f.read_text(encoding="utf-8")
        text = _JINJA.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), source)  # keep line numbers
        text = _MARKER.sub(lambda m: m.group(1), text)
        for i, line in enumerate(text.splitlines(), 1):
            for m in _NUMBER.finditer(line):
                n = int(m.group().translate(_WIDE).replace(",", "").rstrip(",") or 0)
                if n in numbers:
                    found.append(f"{f.parent.parent.name}/rules/{f.name}:{i}: {m.group()}")
    return found


@pytest.mark.parametrize("name", GAMES)
def test_numbers_in_rules_text_come_from_the_data(name):
    assert typed_data_numbers(CARD_DATA / name) == []


def test_a_typed_data_number_is_found(tmp_path):
    game = tmp_path / "tenjanpai"
    shutil.copytree(CARD_DATA / "tenjanpai", game)
    rules = game / "rules" / "02_play.md"
    text = rules.read_text(encoding="utf-8")
    text = text.replace("{{ tsumo_threshold }}以上", "20以上").replace("{{ ron_matches }}枚以上", "２枚以上")
    rules.write_text(text + "\n{{ lit(20) }}は書いた数。\n", encoding="utf-8")
    found = typed_data_numbers(game)
    lines = text.splitlines()
    assert found == [f"tenjanpai/rules/02_play.md:{lines.index(ln) + 1}: {n}"
                     for n, ln in (("20", next(ln for ln in lines if "20以上" in ln)),
                                   ("２", next(ln for ln in lines if "２枚以上" in ln)))]


def test_tenjanpai_number_distribution_is_a_design_rule(tmp_path):
    game = tmp_path / "tenjanpai"
    shutil.copytree(CARD_DATA / "tenjanpai", game)
    for d in ("templates", "fonts"):
        (tmp_path / d).symlink_to(ROOT / d)
    csv = game / "battle.csv"
    text = csv.read_text(encoding="utf-8")
    # seven 2s and nine 3s: still 42 cards, every other rule still holds
    text = text.replace("b2-chi,2,0,1,0,8", "b2-chi,2,0,1,0,7").replace("b3-none,3,0,0,0,2", "b3-none,3,0,0,0,3")
    csv.write_text(text, encoding="utf-8")
    rep = validate_game(game).to_json()
    assert not rep["ok"]
    errors = [e for e in rep["errors"]]
    assert len(errors) == 1, errors
    assert errors[0]["path"] == "design_rules → number-counts"
    assert "2〜7の枚数は 8・8・7・7・6・6 枚" in errors[0]["message"]
    assert "2: 7 (expected 8), 3: 9 (expected 8)" in errors[0]["message"]
    assert validate_game(CARD_DATA / "tenjanpai").ok


def test_nko_reports_that_unko_unko_scores_no_base_yaku():
    rep = validate_game(CARD_DATA / "nko_mahjong").to_json()
    shape = [w for w in rep["warnings"] if w["path"] == "design_rules → shapes-score"]
    assert len(shape) == 1
    msg = shape[0]["message"]
    assert "3文字ワード＋3文字ワード: うんこうんこ — only the bonus yaku Double word fits, and a bonus yaku " \
           "cannot win alone" in msg
    assert "まんこまんこ" in msg
    assert "うんちうんち" not in msg  # = ちちんん＋うう: CHINCHIN, a base yaku
    assert shape[0]["line"]


def _card_texts(pdf, label: str) -> list[str]:
    """The text of each card (its bleed box: trim 63 × 88 mm + 3 mm bleed) on the pages whose
    label holds ``label``, whitespace and the DRAFT mark removed."""

    out = []
    with open_pdf(str(pdf)) as doc:
        for page in doc.pages:
            body = page.filter(lambda o: o.get("object_type") != "char" or (o.get("upright", True) and o["size"] < 20))
            if label not in (body.extract_text() or ""):
                continue
            for r in page.rects:
                if abs(r["width"] - 69 * MM) < 0.5 and abs(r["height"] - 94 * MM) < 0.5:
                    box = body.crop((r["x0"], r["top"], r["x1"], r["bottom"]))
                    out.append(re.sub(r"\s+", "", box.extract_text() or ""))
    return out


def test_yajanki_character_backs_carry_the_turned_side(built_games):
    pdf = built_games("yajanki", force=True, steps=("sheets",)).out_dir / "print-sheets.pdf"
    backs = _card_texts(pdf, "雀士カード · 裏 back")
    fronts = _card_texts(pdf, "雀士カード · 表 front")
    game = load_game(CARD_DATA / "yajanki")
    limit = game.manifest.design["undress_limit"]
    rows = game.tables["characters"]
    assert len(rows) == len(backs) == len(fronts) == 15
    for r in rows:
        ougi = re.sub(r"\s+", "", r.values["ougi_text"])
        back = [b for b in backs if ougi in b]
        assert len(back) == 1, (r.id, "turned side not on exactly one back")
        assert r.values["name"] in back[0] and f"{r.values['stage']}枚目の裏" in back[0]
        unused = f"【未確定】{limit}回目の脱衣で終局するため使われない"
        # the last card is never turned (that undress ends the game): its back says so
        assert (unused in back[0]) == (r.values["stage"] >= limit), r.id
        assert not any(ougi in f for f in fronts), (r.id, "turned side printed on a front")
        assert any(re.sub(r"\s+", "", r.values["skill_text"]) in f for f in fronts)
