"""Exact odds (cardgen odds) against brute force over card ids, and their outputs.

The brute force enumerates every combination of physical card ids (not kinds) and classifies
each hand with yaku checks written here from seed 002's definitions, independent of
cardgen/check/multiset.py and of the enumeration over multisets in cardgen/insight/odds.py.
"""
from __future__ import annotations

import itertools
import json
import shutil
from collections import Counter
from math import comb
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from cardgen.insight.odds import compute_odds
from cardgen.data.game import load_game
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
NKO = ROOT / "card_data" / "nko_mahjong"
TEN = ROOT / "card_data" / "tenjanpai"

# seed 002: UNCHI / UNKO / MANKO / CHINKO; shapes of each yaku
WORDS3 = ["うんち", "うんこ", "まんこ", "ちんこ"]
NOT_N = "おうまちこ"


def _same(hand: Counter, tiles: str) -> bool:
    return hand == Counter(tiles)


def seed_yaku(hand: Counter) -> set[str]:
    """Yaku a 6-tile hand forms, straight from the seed's text."""
    out = set()
    for a, b in itertools.product(WORDS3, repeat=2):
        if _same(hand, a + b):
            out.add("standard" if a != b else "double_word")
    for x in NOT_N:
        if _same(hand, "ちちんん" + x + x):
            out.add("chinchin")
        if _same(hand, "おまんこ" + x + x):
            out.add("omanko")
        if _same(hand, "おちちんん" + x):
            out.add("ochinchin")
    return out


def _ids(game, component: str, column: str) -> list:
    """The value of ``column`` of every physical card id (rows × copies)."""
    return [r.values[column] for r in game.tables[component] for _ in range(r.quantity)]


def brute_force(values: list, k: int) -> Counter:
    """Count of each hand (as a sorted tuple of values) over all C(len(values), k) id subsets."""
    kinds = sorted(set(values))
    code = np.array([kinds.index(v) for v in values], dtype=np.int64)
    combos = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(len(values)), k)),
                         dtype=np.int16).reshape(-1, k)
    keys = np.zeros(len(combos), dtype=np.int64)
    for j in range(k):
        keys += (k + 1) ** code[combos[:, j]]
    uniq, counts = np.unique(keys, return_counts=True)
    out = Counter()
    for key, n in zip(uniq.tolist(), counts.tolist()):
        hand = []
        for i, kind in enumerate(kinds):
            hand += [kind] * ((key // (k + 1) ** i) % (k + 1))
        out[tuple(hand)] += n
    assert sum(out.values()) == comb(len(values), k)
    return out


def test_nko_six_tile_odds_match_brute_force_over_tile_ids():
    game = load_game(NKO)
    tiles = _ids(game, "tiles", "kana")
    assert len(tiles) == 36
    hands = brute_force(tiles, 6)
    hits = Counter()
    any_yaku = 0
    points = 0
    pts = {"standard": 1000, "chinchin": 3000, "omanko": 4000, "ochinchin": 8000}  # seed 002
    for hand, n in hands.items():
        ys = seed_yaku(Counter(hand))
        for y in ys:
            hits[y] += n
        base = [pts[y] for y in ys if y in pts]
        if base:
            any_yaku += n
            points += n * max(base)
    (result,) = compute_odds(game)
    for c in result.counts:
        assert c.total == comb(36, 6) == 1_947_792
        got = {line.key: line.hands for line in c.lines}
        assert got == {**{y: hits[y] for y in ["standard", "double_word", "chinchin", "omanko", "ochinchin"]},
                       "any": any_yaku}
        assert c.expected["base_points"] == pytest.approx(points / comb(36, 6), rel=1e-12)
    assert hits["omanko"] > 0 and any_yaku > hits["standard"]


def test_tenjanpai_pair_odds_match_brute_force_over_card_ids():
    game = load_game(TEN)
    (result,) = compute_odds(game)
    four = next(c for c in result.counts if c.players == 4)
    numbers = _ids(game, "battle", "number")
    hands = brute_force(numbers, 3)
    pair = sum(n for h, n in hands.items() if max(Counter(h).values()) >= 2)
    triple = sum(n for h, n in hands.items() if max(Counter(h).values()) >= 3)
    assert [four.lines[0].hands, four.lines[1].hands, four.total] == [pair, triple, comb(42, 3)]
    for pv in four.per_value:
        assert pv["hands_two"] == sum(n for h, n in hands.items() if h.count(pv["value"]) >= 2)
    # 3 players: one card of each number removed (36 cards)
    three = next(c for c in result.counts if c.players == 3)
    assert three.deck == 36 and three.total == comb(36, 3)


def test_cardgen_odds_writes_report_json_and_keeps_other_keys(tmp_path):
    out = tmp_path / "out"
    (out / "tenjanpai").mkdir(parents=True)
    (out / "tenjanpai" / "report.json").write_text(json.dumps({"game": "tenjanpai", "findings": []}))
    res = CliRunner().invoke(cli, ["odds", str(TEN), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "40.73%" in res.output  # 4,676 / 11,480
    data = json.loads((out / "tenjanpai" / "report.json").read_text())
    assert data["findings"] == [] and data["odds"][0]["id"] == "pair"
    four = next(c for c in data["odds"][0]["player_counts"] if c["players"] == 4)
    assert four["lines"][0]["hands"] == 4676 and four["total"] == 11480


def test_odds_table_in_the_rulebook(tmp_path):
    """``{{ odds_table('yaku') }}`` prints the computed odds in the rulebook PDF."""

    game = tmp_path / "nko_mahjong"
    shutil.copytree(NKO, game)
    (game / "rules" / "zz_notes.md").write_text("## 設計メモ\n\n{{ odds_table('yaku') }}\n", encoding="utf-8")
    res = CliRunner().invoke(cli, ["rulebook", str(game), "--out", str(tmp_path / "out"), "--force"])
    assert res.exit_code == 0, res.output
    with open_pdf(tmp_path / "out" / "nko_mahjong" / "rulebook.pdf") as pdf:
        text = "".join(p.extract_text() or "" for p in pdf.pages).replace(" ", "")
    assert "設計メモ" in text and "8.29%" in text and "5.78%" in text
