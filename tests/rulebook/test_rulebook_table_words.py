"""Generated rulebook tables take their columns and words from the manifest
(``rulebook.tables``); without it they print the built-in Japanese words (the bundled games'
rulebooks are unchanged, see tests/test_rulebook.py). Read back from the rulebook PDF."""
from __future__ import annotations

import pytest

from cardgen.api import build_game
from cardgen.core.errors import CardgenError

from tests.conftest import copy_game, needs_fonts, replace_in
from tests.pdfread import open_pdf

TABLES = """  tables:
    setup_table:
      columns: [players, deck, hand, draw_pile, turns]
      headings: {players: 遊ぶ人数, draw_pile: 山の枚数, turns: 引く回数, players_unit: 名}
    component_table:
      headings: {name: 入っているもの, count: 数}
"""


def _with_tables(tmp_path, tables: str):
    """A copy of 天雀牌 whose manifest has ``tables`` (YAML lines) under ``rulebook:``."""
    game = copy_game(tmp_path)
    replace_in(game / "game.yaml", "  breakdown_columns: [pon, chi]\n", "  breakdown_columns: [pon, chi]\n" + tables)
    return game


def _rulebook_problems(game, tmp_path) -> list:
    """The problems that stop the rulebook of ``game``."""
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("rulebook",))
    return exc.value.problems


def _lines(pdf) -> list[str]:
    with open_pdf(str(pdf)) as doc:
        return [line["text"] for page in doc.pages for line in page.extract_text_lines()]


@needs_fonts
def test_setup_and_component_tables_use_the_manifests_words(tmp_path):
    game = _with_tables(tmp_path, TABLES)
    res = build_game(game, tmp_path / "out", steps=("rulebook",))
    lines = _lines(res.out_dir / "rulebook.pdf")
    head = [line for line in lines if line.startswith("遊ぶ人数")]
    assert head == ["遊ぶ人数 使う枚数 手札（1人） 山の枚数 引く回数"], head
    at = lines.index(head[0])
    # 4 players: 42 cards, 3 each, 6 in the dead wall (not shown) → 24 to draw, 6 turns; 3 players: 6 removed
    assert lines[at + 1:at + 3] == ["3名 36 3 21 7", "4名 42 3 24 6"], lines[at + 1:at + 3]
    assert any(line.startswith("入っているもの 数 備考") for line in lines)
    assert not any(line.startswith("人数 ") or line.startswith("内容物 ") for line in lines)


@needs_fonts
def test_unknown_column_is_named_with_the_known_ones(tmp_path):
    game = _with_tables(tmp_path, "  tables:\n    setup_table: {columns: [players, dead_walls]}\n")
    (p,) = [p for p in _rulebook_problems(game, tmp_path) if p.code == "rulebook-data"]
    assert p.message == "setup_table has no column 'dead_walls'; did you mean 'dead_wall'?"
    assert "players, removed, deck, hand, dead_wall, draw_pile, turns" in p.hint
    assert p.file.endswith("game.yaml")  # where it is fixed, at the columns' line
    assert p.line == (game / "game.yaml").read_text(encoding="utf-8").splitlines().index(
        "    setup_table: {columns: [players, dead_walls]}") + 1


@needs_fonts
def test_unknown_table_name_is_an_error_at_its_line(tmp_path):
    game = _with_tables(tmp_path, "  tables:\n    setup_tabel: {headings: {players: 人}}\n")
    (p,) = [p for p in _rulebook_problems(game, tmp_path) if p.code == "rulebook-table"]
    assert p.message == "no generated table 'setup_tabel' takes words" and "setup_table" in p.hint
    assert p.line == (game / "game.yaml").read_text(encoding="utf-8").splitlines().index("    setup_tabel: {headings: {players: 人}}") + 1
