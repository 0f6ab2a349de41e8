"""Locations written once: the line of a finding and the text naming it come from one data path
(:meth:`Source.problem`, :meth:`Game.problem`), so they cannot drift apart."""
from __future__ import annotations

import shutil

from pydantic import BaseModel

from cardgen.check.print_setup import load_and_validate
from cardgen.data.loaded import Source, display_path
from tests.conftest import ROOT

BASE = ROOT / "tests" / "fixtures" / "bad" / "_base"


class _Count(BaseModel):
    players: int


class _Setup(BaseModel):
    player_counts: list[_Count]


def test_display_path_names_list_items_in_documents_and_models():
    doc = {"components": [{"id": "battle"}], "setup": {"player_counts": [{"players": 4, "remove": [{"count": 2}]}]}}
    assert display_path(("components", 0, "count"), doc) == "components → battle → count"
    assert display_path(("setup", "player_counts", 0, "remove", 0), doc) == \
        "setup → player_counts → 4 players → remove → item 1"
    assert display_path(("player_counts", 0, "players"), _Setup(player_counts=[_Count(players=5)])) == \
        "player_counts → 5 players → players"
    assert display_path(("elements", 2, "box")) == "elements → item 3 → box"  # no data: positions only


def test_source_problem_takes_line_and_text_from_one_path():
    src = Source("game.yaml", {("setup",): 10, ("setup", "player_counts", 0): 12})
    data = {"setup": {"player_counts": [{"players": 3}]}}
    p = src.problem(("setup", "player_counts", 0, "hand"), "too big", "lower it", code="x", data=data)
    assert (p.file, p.line, p.path, p.code) == ("game.yaml", 12, "setup → player_counts → 3 players → hand", "x")
    assert src.problem(("print", "bleed"), "m").line is None  # no line for the path or any ancestor


def test_a_second_setup_entry_is_named_by_its_player_count(tmp_path):
    """The same list item reads ``5 players`` wherever it is named (it read ``player_counts → 1`` here)."""
    game = tmp_path / "g"
    shutil.copytree(BASE, game)
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text + "    - players: 2\n      hand: 2\n      turns: 1\n", encoding="utf-8")
    line = len(text.splitlines()) + 1
    _game, report = load_and_validate(game, check_print_setup=False)
    dup = [p for p in report.errors if p.code == "duplicate-setup"]
    assert [(p.line, p.path) for p in dup] == [(line, "setup → player_counts → 2 players → players")]
