"""A bilingual deck (editions → ja-en: `also: en`): one face carries the Japanese and the English
texts of the same card, from the same tables; ids, order and counts are the default edition's."""
from __future__ import annotations

from cardgen.layout.ops import Text
from cardgen.steps.game_check import check_game
from tests.conftest import TENJANPAI, needs_fonts

pytestmark = needs_fonts


def _texts(plan) -> str:
    return " ".join(op.text for op in plan.ops if isinstance(op, Text))


def test_one_face_carries_both_languages():
    bi = check_game(TENJANPAI, edition="ja-en", rulebook=False)
    assert not bi.errors
    chars = next(p for p in bi.plans if p.component == "characters")
    face = _texts(chars.fronts[0])
    for words in ("李紅蓮", "Li Honglian", "紅蓮掌", "Crimson Lotus Palm", "Gain 1"):
        assert words in face
    ja = check_game(TENJANPAI, rulebook=False)
    assert [(c.component, c.row.id) for p in bi.plans for c in p.cards] == \
        [(c.component, c.row.id) for p in ja.plans for c in p.cards]
    assert "Li Honglian" not in _texts(next(p for p in ja.plans if p.component == "characters").fronts[0])
