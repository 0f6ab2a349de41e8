"""Every card text of the four bundled games set as JLREQ asks (issue 30), checked on the lines
the card plans were made from (the plans are made once per component, as ``cardgen validate``
makes them; no PDF is built): no paragraph ends in a line of ≤ 2 characters, no line starts or
ends with a character JLREQ forbids there, no break inside a phrase (BudouX) that would fit on
the line, and ``）。`` / ``、「`` advance at most one em together. The rulebooks, on the lines the
rulebook check breaks (as the build does): no line start or end JLREQ forbids, no justified line
spread more than 1/8 em per gap, no short last line (the PDFs are read back by
tests/rulebook/test_rulebook_justify.py and test_rulebook_jlreq.py)."""
from __future__ import annotations

import pytest

from cardgen.check.print_setup import load_and_validate
from cardgen.data.game import load_game
from cardgen.fonts.fontset import fonts_for
from cardgen.layout import card_text, jlreq, phrases
from cardgen.layout.text import NO_END, NO_START, line_text
from cardgen.steps.component_plans import plan_component
from cardgen.rulebook import kinsoku
from cardgen.steps.rulebook import check_rulebook
from tests.conftest import ROOT, needs_fonts

pytestmark = needs_fonts
GAMES = ["tenjanpai", "yajanki", "nko_mahjong", "majan"]


def _set_texts(game_name: str, monkeypatch) -> list:
    """``(component, text, box width, fitted)`` for every text box of every card of the game: the
    fitted text of the plans, caught where the planner fits it."""
    game = load_game(ROOT / "card_data" / game_name)
    fonts = fonts_for(game)
    seen: list = []
    real = card_text.fit_cached

    def spy(text, width, height, font, size, min_size, measure, leading, *args, **kw):
        fitted = real(text, width, height, font, size, min_size, measure, leading, *args, **kw)
        phrases = (args[1:2] or [kw.get("phrases", True)])[0]
        seen.append((current[0], text, width, font, phrases, fitted))
        return fitted

    monkeypatch.setattr(card_text, "fit_cached", spy)
    monkeypatch.setattr(card_text, "_OPS_CACHE", {})  # every text box fitted here, none replayed
    current = [""]
    for comp in game.manifest.components:
        if not comp.template:
            continue
        current[0] = comp.id
        plan_component(game, comp.id, fonts)
    return [(c, t, w, f, ph, fitted, fonts) for c, t, w, f, ph, fitted in seen]


def _paragraphs(lines):
    para = []
    for ln in lines:
        para.append(ln)
        if ln.forced:
            yield para
            para = []
    if para:
        yield para


@pytest.mark.parametrize("game", GAMES)
def test_every_card_text_is_set_by_jlreq(game, monkeypatch):
    found = _set_texts(game, monkeypatch)
    assert found
    bad = []
    for comp, text, width, font, phrase_mode, fitted, fonts in found:
        size = fitted.size
        for para in _paragraphs(fitted.lines):
            texts = [line_text(ln) for ln in para]
            where = f"{game}/{comp}: {texts}"
            if len(para) > 1 and jlreq.visible_count(texts[-1]) < 3:
                bad.append(f"short last line: {where}")
            for ln in para[1:]:
                if ln.atoms and ln.atoms[0].kind != "icon" and ln.atoms[0].text[:1] in NO_START:
                    bad.append(f"line starts with {ln.atoms[0].text[:1]}: {where}")
            for ln in para[:-1]:
                if ln.atoms and ln.atoms[-1].kind != "icon" and ln.atoms[-1].text[-1:] in NO_END:
                    bad.append(f"line ends with {ln.atoms[-1].text[-1:]}: {where}")
            for ln in para:  # 「）。」「、「」: the first mark advances half an em
                for a, b, adv in zip(ln.atoms, ln.atoms[1:], ln.advances):
                    if jlreq.squeeze(a.text[-1:], b.text[:1]) and adv > size * 0.5 + 1e-6:
                        bad.append(f"{a.text}{b.text} advances {adv / size:.2f} em + 0.5 em: {where}")
            if phrase_mode:
                bad += _split_phrases(para, width, font, size, fonts, where)
    assert not bad, "\n".join(bad)


def _split_phrases(para, width, font, size, fonts, where) -> list[str]:
    """Breaks of the paragraph that fall inside a BudouX phrase which, set alone, fits the line."""
    pieces = [("〓" if a.kind == "icon" else a.text, a) for ln in para for a in ln.atoms]
    text = "".join(t for t, _a in pieces)
    cuts = {0, len(text), *phrases.boundaries(text)}
    at, out = 0, []
    for ln in para[:-1]:
        at += sum(len("〓" if a.kind == "icon" else a.text) for a in ln.atoms)
        if at in cuts or text[at - 1:at] == " " or text[at:at + 1] == " ":
            continue
        start = max(c for c in cuts if c < at)
        end = min(c for c in cuts if c > at)
        phrase = text[start:end]
        if fonts.width(phrase.replace("〓", "あ"), font, size) <= width + 1e-6:
            out.append(f"split inside the phrase {phrase!r} that fits: {where}")
    return out


@pytest.mark.parametrize("game", GAMES)
def test_rulebook_lines_by_jlreq(game, monkeypatch):
    """The rulebook check's own line breaking (every paragraph, list item and quote it breaks, as
    the build breaks them): no line start or end JLREQ forbids, no justified line spread more than
    1/8 em per gap, no short last line reported."""
    g, report = load_and_validate(ROOT / "card_data" / game)
    made = []
    real = kinsoku.compose

    def spy(pieces, width, **kw):
        comp = real(pieces, width, **kw)
        made.append((pieces, kw.get("widths") or [width], kw.get("justify"), comp))
        return comp

    monkeypatch.setattr(kinsoku, "compose", spy)
    assert not [p for p in check_rulebook(g, report, fonts_for(g)) if p.code == "rules-short-last-line"]
    assert len(made) > 20
    bad, lines = [], 0
    for pieces, widths, justify, comp in made:
        for k, ln in enumerate(comp.lines):
            shown = [p for p in pieces[ln.start:ln.end] if p.kind == "text" and p.text.strip()]
            if not shown:
                continue
            lines += 1
            text = "".join(p.text for p in shown)
            after_break = k > 0 and not comp.lines[k - 1].forced
            if after_break and shown[0].text[:1] in NO_START:
                bad.append(f"starts with {shown[0].text[:1]}: {text}")
            if not ln.forced and k < len(comp.lines) - 1 and shown[-1].text[-1:] in NO_END:
                bad.append(f"ends with {shown[-1].text[-1:]}: {text}")
            if justify and not ln.forced and k < len(comp.lines) - 1:
                w = widths[min(k, len(widths) - 1)]
                gaps = sum(1 for p in pieces[ln.start:ln.end] if p.kind != "mark") - 1
                if gaps and (w - ln.width) / gaps > 0.125 * shown[0].size + 1e-6:
                    bad.append(f"spread {(w - ln.width) / gaps / shown[0].size:.3f} em per gap: {text}")
    assert lines > 50
    assert not bad, "\n".join(bad)
