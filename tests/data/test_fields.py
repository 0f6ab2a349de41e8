"""Shared field types (cardgen/data/fields.py): lengths become pt once, at validation."""
from __future__ import annotations

import pytest

from cardgen.core.units import MM
from cardgen.data.game import load_game
from tests.minigame import MANIFEST, write_game


@pytest.mark.parametrize("written, pt", [(3, 3 * MM), ("0.125in", 9.0), ("12pt", 12.0), ("0.3cm", 3 * MM)])
def test_print_lengths_are_points_after_load(tmp_path, written, pt):
    game = load_game(write_game(tmp_path, manifest={"print": {"bleed": written, "safe": written}}))
    assert type(game.manifest.print.bleed) is float  # a plain float: reportlab formats it as any other
    assert game.manifest.print.bleed == pytest.approx(pt, abs=1e-9)
    assert game.manifest.print.safe == pytest.approx(pt, abs=1e-9)


def test_defaults_are_converted_too(tmp_path):
    root = write_game(tmp_path, manifest={"print": {"bleed": None, "safe": None}})  # None: key left out
    assert "bleed" not in (root / "game.yaml").read_text(encoding="utf-8")
    game = load_game(root)
    p = game.manifest.print
    assert (p.bleed, p.safe, p.cut_tolerance) == pytest.approx((3 * MM, 3 * MM, 3 * MM))


def test_json_dump_shows_mm(tmp_path):
    comp = {**MANIFEST["components"][0], "size": {"width": "2.5in", "height": 88}}
    game = load_game(write_game(tmp_path, manifest={"components": [comp]}))
    size = game.manifest.components[0].model_dump(mode="json")["size"]
    assert size == {"width": 63.5, "height": 88.0}
