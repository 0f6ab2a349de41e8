"""Justified paragraphs (両端揃え) in the rulebook, read back from the PDFs with pdfplumber.

Every bundled rulebook is built once. A paragraph is found on the page as a run of body-size
lines exactly one leading apart (a list item's bullet starts one); every line of it but the last must end at the measure (the
frame's right edge, or a quote box's inner edge) with the extra space spread evenly, and the
last line is set at its natural width from the left edge.
"""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas

from cardgen.layout import jlreq
from cardgen.layout.text import NO_START
from cardgen.fonts.fontset import fonts_for
from cardgen.check.print_setup import load_and_validate
from cardgen.rulebook.design import load_design
from cardgen.rulebook.pdf import page_margins
from cardgen.rulebook.kinsoku import MAX_PUSH_SPACE, KinsokuParagraph
from cardgen.core.units import MM
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["tenjanpai", "yajanki", "nko_mahjong", "majan"]
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
pytestmark = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts not installed")

DESIGN, _ = load_design([ROOT / "templates" / "rulebook"], "default")
SIZE, LEADING = DESIGN.body.size, DESIGN.body.size * DESIGN.body.leading
RIGHT_PAD = 6.0  #: reportlab's default cell padding (pt): a quote's text ends this far inside its box
ICON_GAP = 5.0  #: a gap this wide between two characters is an inline icon


@pytest.fixture(scope="module")
def books(written_rulebooks):
    result = {}
    for name in GAMES:
        with open_pdf(written_rulebooks(name)) as doc:  # yajanki's draft fails: a draft book
            result[name] = [_page(p) for p in doc.pages]
    return result


def _page(p) -> dict:
    rows = defaultdict(list)
    for c in p.chars:
        if abs(c["size"] - SIZE) < 0.01 and c.get("upright", True):
            rows[round(c["bottom"], 1)].append(c)
    rows_sorted = [sorted(v, key=_ink_start) for _k, v in sorted(rows.items())]
    rows_sorted = [ln for ln in rows_sorted if ".  ." not in "".join(c["text"] for c in ln)]  # table of contents
    lines = [_unbullet(ln) for ln in rows_sorted]
    bulleted = [len(b) != len(ln) for b, ln in zip(lines, rows_sorted)]  # a list item starts here
    paras, cur = [], []
    for ln, item in zip(lines, bulleted):
        # list items are one leading apart on the baseline grid: a bullet starts a paragraph too
        if cur and not item and abs(ln[0]["bottom"] - cur[-1][0]["bottom"] - LEADING) < 0.05:
            cur.append(ln)
        else:
            cur and paras.append(cur)
            cur = [ln]
    cur and paras.append(cur)
    boxes = [(r["x1"], r["top"], r["bottom"]) for r in p.rects if r.get("fill") and r["x1"] - r["x0"] > 100]
    # inline icons: the square or circle each is drawn as (ポン, チー, power), about one em across
    labels = [o for o in p.curves + p.rects if abs(o["width"] - o["height"]) < 0.5 and 0.8 * SIZE < o["width"] < 1.1 * SIZE]
    body = p.filter(lambda o: o.get("object_type") != "char" or abs(o["size"] - SIZE) < 0.01)  # no DRAFT mark
    text_lines = [(t["top"], t["bottom"], t["text"]) for t in body.extract_text_lines()]
    return {"width": p.width, "paras": paras, "boxes": boxes, "labels": labels, "text": text_lines}


def _ink_start(c) -> float:
    """Where a glyph's ink starts: a full-width opening bracket's blank first half may be taken
    off where a line is set tighter (追い込み), so its box can start inside the glyph before it."""
    return c["x0"] + (c["size"] / 2 if c["text"] in "（「『【〔［｛〈《" else 0.0)


def _unbullet(line: list) -> list:
    """The line without a list item's bullet (•, 1., ①: drawn apart from the item's text)."""
    for n in range(1, 4):
        head = "".join(c["text"] for c in line[:n])
        if n < len(line) and line[n]["x0"] - line[n - 1]["x1"] > 2 and re.fullmatch(r"•|\d+\.|[①-⑳]", head):
            return line[n:]
    return line


def _measure_right(page, line) -> float:
    """Where the line's measure ends: the frame's right edge, or inside the quote box it sits in."""
    right = page["width"] - page_margins(DESIGN, (page["width"] / MM, 0))["right"]  # a whole number of ems
    for x1, top, bottom in page["boxes"]:
        if top <= line[0]["top"] and line[0]["bottom"] <= bottom:
            right = min(right, x1 - RIGHT_PAD)
    return right


def _line_right(page, visible) -> float:
    """Right edge of a line's last glyph (a closing mark's blank half dropped at the line end,
    JLREQ), or of an inline icon that ends the line (its ポン/チー label is small text centred in
    an icon one body size × 0.95 wide)."""
    right = visible[-1]["x1"] - jlreq.line_end_trim(visible[-1]["text"]) * visible[-1]["size"]
    top, bottom = visible[-1]["top"], visible[-1]["bottom"]
    after = [c for c in page["labels"] if top <= (c["top"] + c["bottom"]) / 2 <= bottom and c["x0"] > right]
    if after:
        centre = (min(c["x0"] for c in after) + max(c["x1"] for c in after)) / 2
        right = centre + SIZE * 0.95 / 2
    return right


def _gaps(line) -> list[float]:
    """The space between neighbouring glyphs beyond what JLREQ sets there (punctuation
    compression, the Japanese–Latin quarter em): the justification spacing alone. Pairs whose
    space a tight line may reduce (追い込み: after 、 or 」, before 「, beside Latin) are left out
    when the line was set tighter there, and must not go below what JLREQ allows."""
    out = []
    for a, b in zip(line, line[1:]):
        g = b["x0"] - a["x1"] - jlreq.adjustment(a["text"], b["text"]) * a["size"]
        room = sum(jlreq.shrinkable(a["text"], b["text"])) * a["size"]
        assert g >= -room - 0.01, (a["text"], b["text"], g, room)
        if not (room and g < -0.01):
            out.append(g)
    return out


def test_every_line_but_the_last_fills_the_measure(books):
    justified = 0
    for name, pages in books.items():
        for page in pages:
            for para in page["paras"]:
                for i, line in enumerate(para):
                    visible = [c for c in line if c["text"].strip()]
                    small = [g for g in _gaps(line) if g < ICON_GAP]
                    if i < len(para) - 1:
                        end = _measure_right(page, line)
                        assert abs(_line_right(page, visible) - end) <= 0.3, (name, "".join(c["text"] for c in line), end)
                        assert max(small) - min(small) < 0.01, (name, small)  # spread evenly
                        assert -0.01 <= min(small) < MAX_PUSH_SPACE * SIZE + 1e-6  # 追い出し widens a line at most this much
                        justified += 1
                    else:  # the last line: natural width, from the left edge of the paragraph
                        assert all(abs(g) < 0.01 for g in small), (name, "".join(c["text"] for c in line), small)
                        if i:
                            assert abs(line[0]["x0"] - para[i - 1][0]["x0"]) < 0.01 or \
                                abs(line[0]["x0"] - para[i - 1][1]["x0"]) < 0.01  # after a list bullet
    assert justified > 100


def test_no_line_starts_with_a_no_start_character(books):
    for name, pages in books.items():
        for page in pages:
            for para in page["paras"]:
                for line in para:
                    first = next(c["text"] for c in line if c["text"].strip())
                    assert first not in NO_START, (name, "".join(c["text"] for c in line))


#: A space pdfplumber reads where JLREQ puts a quarter em between Japanese and Latin text.
JP_LATIN_SPACE = re.compile(r"(?<=[^\x00-\x7f]) (?=[!-~])|(?<=[!-~]) (?=[^\x00-\x7f])")


def test_text_extraction_inserts_no_spaces(books):
    checked = 0
    for name, pages in books.items():
        for page in pages:
            for para in page["paras"]:
                for line in para[:-1]:
                    if any(g >= ICON_GAP for g in _gaps(line)):
                        continue  # an icon's place reads as a space, as it did unjustified
                    mid = (line[0]["top"] + line[0]["bottom"]) / 2
                    text = next(t for top, bottom, t in page["text"] if top < mid < bottom)
                    text = JP_LATIN_SPACE.sub("", text)  # the JLREQ quarter em reads as a space
                    drawn = JP_LATIN_SPACE.sub("", "".join(c["text"] for c in line).strip())  # a typed space is drawn
                    assert text.endswith(drawn), (name, text)
                    checked += 1
    assert checked > 100


def test_inline_icons_stay_between_their_neighbours(books):
    """An icon is centred between the characters either side of it, each gap widened alike."""
    checked = 0
    for page in books["tenjanpai"]:
        for para in page["paras"]:
            for line in para:
                for a, b in zip(line, line[1:]):
                    if b["x0"] - a["x1"] < ICON_GAP:
                        continue
                    inside = [c for c in page["labels"] if a["x1"] - 0.5 < c["x0"] < b["x0"]
                              and c["top"] < a["bottom"] and a["top"] < c["bottom"]]
                    if not inside:
                        continue
                    centre = (min(c["x0"] for c in inside) + max(c["x1"] for c in inside)) / 2
                    assert abs(centre - (a["x1"] + b["x0"]) / 2) < 0.02, ("".join(c["text"] for c in line), centre)
                    checked += 1
    assert checked >= 4


def test_forced_break_and_split_paragraph(tmp_path):
    """A line ending at <br/> stays left-aligned; when a paragraph is split across frames, the
    last line of the first part is justified (it is not the paragraph's last line)."""
    g, _r = load_and_validate(ROOT / "card_data" / "tenjanpai")
    fonts = fonts_for(g)
    style = ParagraphStyle("j", fontName=fonts.name("body"), fontSize=10, leading=14, wordWrap="CJK",
                           alignment=TA_JUSTIFY)
    text = ("あいうえおかきくけこさしすせそたちつてとなにぬ<br/>はひふへほまみむめも、Latin words やゆよ"
            "らりるれろわをんアイウエオカキクケコサシスセソタチツテトナニヌネノ。")
    width = 101.0
    pdf = tmp_path / "j.pdf"
    c = Canvas(str(pdf), pagesize=(300, 400), invariant=1)
    whole = KinsokuParagraph(text, style)
    whole.wrap(width, 1000)
    n = len(whole.blPara.lines)
    first, second = whole.split(width, 14 * 4)
    first.wrap(width, 14 * 4)
    first.drawOn(c, 20, 380 - first.height)
    second.wrap(width, 1000)
    second.drawOn(c, 20, 300 - second.height)
    c.save()
    assert len(first.blPara.lines) == 4 and n > 6
    with open_pdf(pdf) as doc:
        rows = defaultdict(list)
        for ch in doc.pages[0].chars:
            rows[round(ch["bottom"], 1)].append(ch)
    lines = [sorted(v, key=lambda ch: ch["x0"]) for _k, v in sorted(rows.items())]
    texts = ["".join(ch["text"] for ch in ln) for ln in lines]
    assert texts[:4] == ["あいうえおかきくけこ", "さしすせそたちつてと", "なにぬ", "はひふへほまみむめ"], texts
    assert texts[4].startswith("も、Latin words")
    assert "".join(texts) == text.replace("<br/>", "")  # no space added, none lost
    for i, t in enumerate(texts):
        gaps = [g for g in _gaps(lines[i]) if g < ICON_GAP]
        if i in (2, len(texts) - 1):  # ends at the forced break / the paragraph's last line
            assert all(abs(g) < 0.01 for g in gaps), t
            assert lines[i][-1]["x1"] < 20 + width - 5
        else:  # the first part's last line (3) too: it is not the paragraph's last line
            assert abs(lines[i][-1]["x1"] - (20 + width)) <= 0.3, t
            assert min(gaps) > 0.05 and max(gaps) - min(gaps) < 0.01, t


def test_a_line_broken_at_a_latin_space_ends_at_the_measure(tmp_path):
    """The space a line is broken at (between Latin words) is not drawn past the measure."""
    g, _r = load_and_validate(ROOT / "card_data" / "tenjanpai")
    style = ParagraphStyle("j", fontName=fonts_for(g).name("body"), fontSize=10, leading=14, wordWrap="CJK",
                           alignment=TA_JUSTIFY)
    para = KinsokuParagraph("あいうえおかきくけ Latin wordsの説明です。", style)
    pdf = tmp_path / "l.pdf"
    c = Canvas(str(pdf), pagesize=(300, 200), invariant=1)
    para.wrap(101, 1000)
    para.drawOn(c, 20, 180 - para.height)
    c.save()
    assert ["".join(w.text for w in ln.words) for ln in para.blPara.lines][0] == "あいうえおかきくけ "
    with open_pdf(pdf) as doc:
        chars = doc.pages[0].chars
        text = doc.pages[0].extract_text()
    assert max(ch["x1"] for ch in chars) <= 20 + 101 + 0.01
    first = [ch for ch in chars if ch["top"] < chars[0]["bottom"]]
    assert abs(first[-1]["x1"] - 121) < 0.01 and first[-1]["text"] == "け"
    # 「明です。」 would need 0.2 em per gap on the line before (more than 1/8 em): the last line
    # keeps two characters, the most a re-break gives within 1/8 em per gap
    assert text == "あいうえおかきくけ\nLatin words の説明\nです。"
