"""Every output is registered once (cardgen.steps.registry.STEPS): build_game runs what is
registered, in build order, and ``cardgen build`` makes every registered step."""
from __future__ import annotations

import shutil

import pytest

from cardgen.api import build_game
from cardgen.core.errors import UsageError
from cardgen.steps import registry
from cardgen.steps.registry import STEPS, Step
from tests.conftest import ROOT, needs_fonts

BASE = ROOT / "tests" / "fixtures" / "bad" / "_base"


def test_the_steps_in_build_order():
    assert tuple(STEPS) == ("sheets", "png", "tts", "shop", "calibration", "rulebook")
    assert [s for s, step in STEPS.items() if step.cards] == ["sheets", "png", "tts", "shop"]


def test_an_unknown_step_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="unknown step.*'pdf'.*steps: sheets, png"):
        build_game(BASE, tmp_path, steps=("pdf",))


@needs_fonts
def test_a_new_output_is_one_registered_function(tmp_path, monkeypatch):
    def write_hello(run) -> list[str]:
        run.out.path("hello.txt").write_text(f"{run.game.id}: {len(run.plans)} component(s)\n", encoding="utf-8")
        return ["hello.txt"]

    monkeypatch.setitem(registry.STEPS, "hello", Step("hello", write_hello, cards=True))
    game = tmp_path / "g"
    shutil.copytree(BASE, game)
    res = build_game(game, tmp_path / "out", steps=("hello",))
    assert res.files == [tmp_path / "out" / "g" / "hello.txt", tmp_path / "out" / "g" / "report.json"]
    assert (tmp_path / "out" / "g" / "hello.txt").read_text(encoding="utf-8") == "g: 1 component(s)\n"
