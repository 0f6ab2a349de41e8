"""A text element with ``direction: vertical`` on a card: its text set in columns
(:func:`cardgen.layout.vertical.fit_columns`, memoised), the block of columns placed in the box,
ruby on the right of its base, inline icons upright, and the same findings and red outline as
horizontal text (:mod:`cardgen.layout.card_text`). Pure, pt, y up.

Placement: columns run right to left from the block's right edge; ``align`` places the block in
the box (``left``, ``center``, ``right``), ``valign`` each column along it (``top``: from the top,
``middle``: centred, ``bottom``: at the bottom).
"""
from __future__ import annotations


from cardgen.core.units import MM
from cardgen.data.template_model import TextElement
from cardgen.layout.card_text import fit_findings, largest_size, outside, overflow_mark, replay_laid
from cardgen.layout.face import Face
from cardgen.layout.ops import VerticalText
from cardgen.layout.text import measure_key
from cardgen.layout.text_atoms import ruby_size
from cardgen.layout.vertical import (ICON, RUBY, TCY, TURNED, UPRIGHT, FittedColumns, fit_columns, placed,
                                     needs_form)

_FIT_CACHE: dict[tuple, FittedColumns] = {}
_OPS_CACHE: dict[tuple, tuple[list, list[tuple[str, str, str]]]] = {}
_CACHE_MAX = 2048  # like card_text's caches: serves text shared between rows


def fit_vertical_cached(text: str, W: float, H: float, el: TextElement, min_size: float, measure) -> FittedColumns:
    """:func:`fit_columns` memoised per (text, box, font, sizes, leading, options, measure); shared: not to be mutated."""
    key = (text, W, H, el.font, largest_size(el), min_size, el.leading, el.tcy_digits, el.upright_caps, el.phrases,
           measure_key(measure))
    hit = _FIT_CACHE.get(key)
    if hit is None:
        if len(_FIT_CACHE) >= _CACHE_MAX:
            _FIT_CACHE.clear()
        hit = _FIT_CACHE[key] = fit_columns(text, W, H, el.font, largest_size(el), min_size, measure, el.leading,
                                            el.tcy_digits, el.upright_caps, el.phrases)
    return hit


def plan_vertical_text(el: TextElement, text: str, X: float, Y: float, W: float, H: float, name: str,
                       face: Face) -> None:
    """Add the ops and findings of vertical text element ``el`` showing ``text`` in the box
    ``X, Y, W, H`` (pt, y up) to ``face``: as :func:`cardgen.layout.card_text.plan_text` does for
    horizontal text (the same findings and messages; worked out once per key and replayed)."""
    if not text.strip():
        return
    frame = face.frame
    key = (text, X, Y, W, H, el.font, el.size, el.min_size, el.max_size, el.leading, el.align, el.valign, el.color,
           el.tcy_digits, el.upright_caps, el.phrases, measure_key(face.measure), frame.width, frame.height, frame.safe,
           tuple(face.icons.items()), face.at, face.element_at, face.element_text)
    replay_laid(_OPS_CACHE, _CACHE_MAX, key, lambda probe: _lay(el, text, X, Y, W, H, name, probe), face, name)


def vertical_form_problems(text: str, font: str, name: str, face: Face) -> None:
    """A warning (``no-vertical-form``) naming the characters of ``text`` that vertical text
    needs the vertical forms of (、。, small kana: :func:`~cardgen.layout.vertical.needs_form`)
    which the ``font`` role's font lacks: they would be drawn as in horizontal text. (Brackets,
    ー and 〜 without a form are turned, as UAX #50 says, and come out right.)"""
    if face.without_vertical_form is None:
        return
    lacking = face.without_vertical_form(font, [ch for ch in text if needs_form(ch)])
    if lacking:
        face.found_chars("warning", name, f"the {font} font has no vertical form for", lacking,
                         ": set vertically, it is drawn as in horizontal text", "no-vertical-form")


def _overflow(fitted: FittedColumns, W: float, H: float) -> str:
    """By how much vertical text overflows its box, for the message."""
    need = fitted.width()
    if need > W + 0.01:
        return f"; its {len(fitted.columns)} columns need {need / MM:.1f} mm of width"
    tall = max((c.length for c in fitted.columns), default=0.0)
    return f"; a column needs {tall / MM:.1f} mm of height" if tall > H + 0.01 else ""


def _lay(el: TextElement, text: str, X: float, Y: float, W: float, H: float, name: str, face: Face) -> None:
    card, ops, findings = face.card, face.ops, face.findings
    min_size = el.min_size if el.min_size is not None else el.size
    fitted = fit_vertical_cached(text, W, H, el, min_size, face.measure)
    findings += fit_findings(el, fitted, text, W, H, min_size, card, name, _overflow(fitted, W, H),
                             "a column", "that no other column break avoids; reword the text or make the box taller")
    placed_ops, extent = column_ops(fitted, X, Y, W, H, el.align, el.valign, el.font, el.color,
                                    lambda icon, x, y, size: face.icon(icon, name, x, y, size))
    outside(extent, (X, Y, W, H), name, face, el.bleed)
    ops.extend(placed_ops)
    if not fitted.fits:
        ops.extend(overflow_mark(X, Y, W, H))


def column_ops(fitted: FittedColumns, X: float, Y: float, W: float, H: float, align: str, valign: str, font: str,
               color: str, icon) -> tuple[list, tuple[float, float, float, float]]:
    """The ops of ``fitted`` columns placed in the box ``X, Y, W, H`` (pt, y up): the block of
    columns by ``align`` (left, center, right), each column along the box by ``valign`` (top,
    middle, bottom); ``icon(name, x, y, size)`` makes the op of an inline icon in that square.
    → (ops, the text's extent ``(left, right, bottom, top)`` in pt). Shared by card text and the
    rulebook's vertical blocks."""
    ops: list = []
    s = fitted.size
    rs = ruby_size(s)
    block = fitted.width()
    right = X + {"left": block, "center": (W + block) / 2, "right": W}[align]
    bottom, highest = Y + H, Y
    edge = right
    for col in fitted.columns:
        if col.has_ruby:
            edge -= rs
        cx = edge - s / 2
        edge -= fitted.pitch
        top = Y + H - {"top": 0.0, "middle": (H - col.length) / 2, "bottom": H - col.length}[valign]
        bottom, highest = min(bottom, top - col.length), max(highest, top)
        items: list[tuple[str, str, float]] = []
        readings: list[VerticalText] = []  # after the column's own text: the PDF's text in reading order
        for p, off in placed(col.pieces(), s):
            if p.mode in (UPRIGHT, TURNED, TCY):
                items.append((p.mode, p.text, off))
            elif p.mode == ICON:
                ops.append(icon(p.text, cx - s / 2, top - off - s, s))
            elif p.mode == RUBY:
                base = len(p.text) * s
                start = off + (p.advance - base) / 2
                items.extend((UPRIGHT, ch, start + i * s) for i, ch in enumerate(p.text))
                rstart = off + (p.advance - len(p.ruby) * rs) / 2
                readings.append(VerticalText(cx + s / 2 + rs / 2, top, font, rs, color,
                                             tuple((UPRIGHT, ch, rstart + i * rs) for i, ch in enumerate(p.ruby))))
        if items:
            ops.append(VerticalText(cx, top, font, s, color, tuple(items)))
        ops.extend(readings)
    return ops, (right - block, right, bottom, highest)
