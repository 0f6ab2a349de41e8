"""Fuzzing the card layout: random templates (valid per the Template model and its value checks)
and random card values through :func:`cardgen.layout.card.plan_card` with the real fonts.

Properties:
- ``plan_card`` raises nothing (expected problems are findings; CardgenError is the only
  exception allowed through);
- a text element without a ``text-overflow`` finding has every one of its Text ops inside its
  box horizontally (x and x + advance width, within 0.01 pt);
- the Text ops of an element spell the laid lines, and no line that a break (not ``\\n``)
  started begins with a character of :data:`cardgen.layout.text.NO_START` (行頭禁則) or a space.

``CARDGEN_FUZZ=N`` runs N examples instead of the default (kept small for the suite).
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cardgen.core.errors import CardgenError
from cardgen.fonts.fontset import load_fontset
from cardgen.layout.card import _box, plan_card
from cardgen.layout.face import Frame
from cardgen.layout.ops import Text
from cardgen.layout import jlreq
from cardgen.layout.text import NO_START, break_lines, fit_text, line_text
from cardgen.data.template_expr import render_text
from cardgen.data.template_model import Template
from cardgen.core.units import MM
from tests.conftest import ROOT, needs_fonts

pytestmark = needs_fonts

EXAMPLES = int(os.environ.get("CARDGEN_FUZZ", "120"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
FRAME = Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM)

PIECES = ["あ", "い", "天雀牌", "聴牌", "、", "。", "」、", "」。", "）。", "」」", "「", "（", "『", "ー", "っ", "ゃ",
          "…", "！", "？", "Ron", "Tsumo", "win", "declare", ",", ".", "!", "%", "1,000", "3.5", " ", "  ",
          ":pon:", ":chi:", ":power:", "\n", "\\n", "Supercalifragilisticexpialidocious", "x" * 40,
          "－", "〜", "々", "漢字", "①", "A", "-", "{", "}", "{{", "%}"]
text_value = st.lists(st.sampled_from(PIECES), max_size=25).map("".join)
card_value = st.one_of(text_value, st.integers(-10, 10**6), st.floats(allow_nan=True), st.booleans(), st.none())

coord = st.floats(-80, 100, allow_nan=False)
length = st.floats(0.5, 90, allow_nan=False)


@st.composite
def text_element(draw, i: int):
    size = draw(st.floats(1, 60, allow_nan=False))
    min_size = draw(st.one_of(st.none(), st.floats(1, size, allow_nan=False)))
    source = draw(st.one_of(text_value, st.just(f"{{{{ card.f{i} }}}}"),
                            text_value.map(lambda t, i=i: t + f"{{{{ card.f{i} }}}}" + t)))
    return {
        "kind": "text", "name": f"t{i}", "box": [draw(coord), draw(coord), draw(length), draw(length)],
        "bleed": draw(st.booleans()), "text": source, "size": size, "min_size": min_size,
        "leading": draw(st.floats(0.5, 3, allow_nan=False)),
        "align": draw(st.sampled_from(["left", "center", "right"])),
        "valign": draw(st.sampled_from(["top", "middle", "bottom"])),
        "font": draw(st.sampled_from(["body", "heading", "serif", "number", "nosuchrole"])),
        "color": f"#0000{i:02x}",  # marks the element's Text ops
    }


@st.composite
def template_and_card(draw):
    n = draw(st.integers(1, 4))
    elements = [draw(text_element(i)) for i in range(n)]
    if draw(st.booleans()):
        elements.insert(0, {"kind": "rect", "box": [0, 0, 63, 88], "fill": "#ffffff", "bleed": True})
    template = Template.model_validate({"background": "#f7f1e3", "elements": elements})
    card = {f"f{i}": draw(card_value) for i in range(n)}
    return template, card


@pytest.fixture(scope="module")
def fonts():
    return load_fontset(ROOT)


def _check(template: Template, card: dict, fonts) -> None:
    try:
        res = plan_card(template, {"card": card, "game": {}, "design": {}}, FRAME, fonts.width, "fuzz",
                        missing_chars=fonts.missing_chars)
    except CardgenError:
        return
    overflow = {f.field for f in res.findings if f.code == "text-overflow"}
    failed = {f.field for f in res.findings if f.code.startswith("template")}
    for el in template.elements:
        if el.kind != "text" or el.name in failed:
            continue
        X, _, W, H = _box(el, FRAME)
        mine = [op for op in res.plan.ops if isinstance(op, Text) and op.color == el.color]
        if el.name not in overflow:
            for op in mine:
                # a closing mark's blank half past the line end is no ink (JLREQ line-end trim)
                right = op.x + fonts.width(op.text, op.font, op.size) - jlreq.line_end_trim(op.text[-1:]) * op.size
                assert X - 0.01 <= op.x and right <= X + W + 0.01, (el.name, op, X, W)
        try:
            text = render_text(el.text or "", {"card": card, "game": {}, "design": {}})
        except Exception:
            continue
        if not text.strip():
            assert not mine
            continue
        min_size = el.min_size if el.min_size is not None else el.size
        fitted = fit_text(text, W, H, el.font, el.size, min_size, fonts.width, el.leading, hang=el.hang, phrases=el.phrases)
        assert "".join(op.text for op in mine) == "".join(
            "".join(a.text for a in ln.atoms if a.kind != "icon") for ln in fitted.lines)
        for paragraph in text.replace("\r\n", "\n").replace("\\n", "\n").split("\n"):
            lines = break_lines(paragraph, W, el.font, fitted.size, fonts.width, hang=el.hang, phrases=el.phrases)
            for ln in lines[1:]:
                first = ln.atoms[0] if ln.atoms else None
                assert first is None or first.kind == "icon" or (first.text[:1] not in NO_START and first.kind != "space"), \
                    (el.name, [line_text(x) for x in lines])


@FUZZ
@given(template_and_card())
def test_card_layout_fuzz(fonts, case):
    _check(*case, fonts)
