"""A text element on a card: its text fitted into the box (:func:`cardgen.layout.text.fit_text`,
memoised), lines aligned, ruby set above its base, inline icons, turned 180° for a corner index
read from across the table, and a dashed outline around text that does not fit. Pure, pt, y up.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial

from cardgen.core.errors import card_problem
from cardgen.core.units import EPS, MM
from cardgen.data.template_model import TextElement
from cardgen.layout.face import Face
from cardgen.layout.ops import GameIcon, Icon, Line, Text, TurnedIcon, TurnedText
from cardgen.layout.print_checks import past_trim, small_text_message
from cardgen.layout.text import Fitted, Measure, fit_text, measure_key, placed_runs
from cardgen.layout.text_atoms import ruby_size
from cardgen.data.editions import is_latin
from cardgen.layout.western import break_western

ASCENT = 0.88  #: font ascent as a fraction of the size, for the first baseline (plan_card's default)

_FIT_CACHE: dict[tuple, Fitted] = {}
_FIT_CACHE_MAX = 2048  # plans are kept per distinct face, so this only serves text shared between rows


def fit_cached(text: str, width: float, height: float, font: str, size: float, min_size: float,
               measure: Measure, leading: float, hang: bool = False, phrases: bool = True,
               language: str = "ja", label_indent: bool = False) -> Fitted:
    """:func:`fit_text`, memoised per (text, box, font, sizes, leading, measure, language); the
    measure by :func:`~cardgen.layout.text.measure_key` (the fonts it measures with).

    ``language``: a Latin-script language (:func:`cardgen.data.editions.is_latin`) is broken at
    spaces and hyphenated (:func:`cardgen.layout.western.break_western`), any other with the
    JLREQ rules of :func:`fit_text`.

    The same text in the same box (a fixed label, a shared back, copies of a card) is fitted
    once per process. The result is shared: callers must not mutate it.
    """
    key = (text, width, height, font, size, min_size, leading, measure_key(measure), hang, phrases, language,
           label_indent)
    hit = _FIT_CACHE.get(key)
    if hit is None:
        if len(_FIT_CACHE) >= _FIT_CACHE_MAX:
            _FIT_CACHE.clear()
        breaker = partial(break_western, language=language) if is_latin(language) else None
        hit = _FIT_CACHE[key] = fit_text(text, width, height, font, size, min_size, measure, leading,
                                         hang=hang, phrases=phrases, breaker=breaker, label_indent=label_indent)
    return hit


_OPS_CACHE: dict[tuple, tuple[list, list[tuple[str, str, str]]]] = {}
_OPS_CACHE_MAX = 2048  # like _FIT_CACHE: serves text shared between rows (labels, recurring lines)


def plan_text(el: TextElement, text: str, X: float, Y: float, W: float, H: float, name: str, face: Face) -> None:
    """Add the ops of text element ``el`` showing ``text`` in the box ``X, Y, W, H`` (pt, y up) to
    ``face``, and its findings: text that does not fit even at ``min_size`` (error, and the
    dashed :func:`overflow_mark` around the box), text shrunk to fit, text below 6 pt, lines
    reaching outside the safe area (warnings). Empty text adds nothing.

    The ops and findings depend only on the text, the element's settings, the box, the card
    geometry, the fonts measured with, the game's icons and where a finding about the template's
    own text is placed (the element's file and line), so they are worked out once per process
    for each such key (a fixed label, a text recurring on many cards, the same card in two
    editions with the same fonts) and replayed onto later faces: the same (immutable) ops, the
    same findings made for this face's card."""
    if not text.strip():
        return
    frame = face.frame
    key = (text, X, Y, W, H, el.font, el.size, el.min_size, el.max_size, el.leading, el.align, el.valign, el.color, el.rotate,
           el.mirror, el.hang, el.phrases, el.label_indent, measure_key(face.measure), face.ascent, frame.width,
           frame.height, frame.safe, frame.language, tuple(face.icons.items()), face.at, face.element_at, face.element_text)
    replay_laid(_OPS_CACHE, _OPS_CACHE_MAX, key, lambda probe: _lay_text(el, text, X, Y, W, H, name, probe),
                face, name)


def replay_laid(cache: dict, limit: int, key: tuple, lay, face: Face, name: str) -> None:
    """Lay a text box out once per ``key`` on a blank copy of ``face`` (``lay(probe)``), keep its ops
    and findings in ``cache`` (cleared past ``limit`` entries), and replay them onto ``face``: the
    same (immutable) ops, the same findings made for this face's card (a finding about the
    template's own line stays at that line). Shared by horizontal and vertical text."""
    hit = cache.get(key)
    if hit is None:
        if len(cache) >= limit:
            cache.clear()
        probe = replace(face, ops=[], findings=[])
        lay(probe)
        hit = cache[key] = (probe.ops, [(p.severity, p.message, p.code,
                                         (p.file, p.line) if p.file != p.card.file else None)
                                        for p in probe.findings])
    face.ops.extend(hit[0])
    for severity, message, code, at in hit[1]:
        if at is not None:  # the template's own mistake (an icon name typed in its text): at its line
            face.findings.append(card_problem(severity, face.card, name, message, code, *at))  # type: ignore[arg-type]
        else:
            face.found(severity, name, message, code)  # type: ignore[arg-type]


def _overflow(fitted, W: float, H: float) -> str:
    """By how much a text that does not fit overflows its ``W`` × ``H`` pt box, for the message:
    ``"; its 7 lines need 23.4 mm of height"`` or ``"; a line needs 31.0 mm of width"``."""
    s, lines = fitted.size, fitted.lines
    need = s + (len(lines) - 1) * fitted.leading + sum(ruby_size(s) for ln in lines if ln.has_ruby)
    if need > H + 0.01:
        return f"; its {len(lines)} lines need {need / MM:.1f} mm of height"
    wide = max((ln.width for ln in lines), default=0.0)
    return f"; a line needs {wide / MM:.1f} mm of width" if wide > W + 0.01 else ""



def largest_size(el: TextElement) -> float:
    """The size a text box is first tried at: ``max_size`` when the template lets it grow, else ``size``."""
    return el.max_size if el.max_size is not None else el.size


def fit_findings(el: TextElement, fitted, text: str, W: float, H: float, min_size: float, card, name: str,
                 overflow: str, unit: str, short_fix: str) -> list:
    """The findings of a fitted text box, horizontal or vertical (the same words, codes and
    severities): text-overflow, text-shrunk, short-last-line (``unit``: "a line" / "a column",
    ``short_fix`` what avoids it) and small-text."""
    found = []
    if not fitted.fits:
        found.append(card_problem(
            "error", card, name,
            f"the text does not fit its box ({W / MM:.1f} × {H / MM:.1f} mm) even at {min_size:g} pt"
            f"{overflow}: {text[:40]!r}", "text-overflow"))
    elif fitted.size < el.size - 1e-9:  # below the preferred size (a max_size text may be above it)
        found.append(card_problem("warning", card, name,
                                  f"the text was shrunk from {el.size:g} pt to {fitted.size:g} pt to fit", "text-shrunk"))
    if fitted.fits and fitted.short:
        found.append(card_problem(
            "warning", card, name,
            f"a paragraph ends in {unit} of {len(fitted.short[0].strip())} character(s) "
            f"({fitted.short[0].strip()!r}) {short_fix}", "short-last-line"))
    small = small_text_message(fitted.size, el.min_size)
    if small:
        found.append(card_problem("warning", card, name, small, "small-text"))
    return found

def outside(ink, box, name: str, face: Face, bleed: bool = False) -> None:
    """The finding for text whose ``ink`` (left, right, bottom, top, pt) leaves the safe area.
    Past the trim, where the element's ``box`` reaches past it, it will be cut off: an error at
    the template element's line (the box is the mistake; ``bleed: true`` means it). Inside the
    trim but outside the safe area: a warning, at the template's line too when the box reaches
    past the trim, else at the card (as for text overflowing a box inside the trim, whose
    overflow is the error). Shared with vertical text."""
    frame, safe = face.frame, face.frame.safe
    crossed, reach = past_trim(tuple(ink), box, frame.width, frame.height)
    card = f"{frame.width / MM:g} × {frame.height / MM:g} mm card"
    if crossed and reach and not bleed:  # (text overflowing a box inside the trim: the overflow is the error)
        face.findings.append(card_problem("error", face.card, name, "the text runs past the trim and will be cut off: "
                                          f"its box reaches {reach} of the {card}", "past-trim", *face.element_at))
    elif ink[0] < safe - EPS or ink[1] > frame.width - safe + EPS or ink[2] < safe - EPS \
            or ink[3] > frame.height - safe + EPS:
        if reach and not bleed:
            face.findings.append(card_problem(
                "warning", face.card, name, f"the text box reaches {reach} of the {card}, so text set there would be "
                "cut off; here it stays inside the trim, but outside the safe area", "past-trim", *face.element_at))
        else:
            face.findings.append(card_problem("warning", face.card, name, "text reaches outside the safe area",
                                              "outside-safe"))


def _lay_text(el: TextElement, text: str, X: float, Y: float, W: float, H: float, name: str, face: Face) -> None:
    """:func:`plan_text` for one face, worked out (not from the cache)."""
    frame, measure, ascent, card, ops, findings = face.frame, face.measure, face.ascent, face.card, face.ops, face.findings
    min_size = el.min_size if el.min_size is not None else el.size
    fitted = fit_cached(text, W, H, el.font, largest_size(el), min_size, measure, el.leading, el.hang, el.phrases,
                        frame.language, el.label_indent)
    findings += fit_findings(el, fitted, text, W, H, min_size, card, name, _overflow(fitted, W, H),
                             "a line", "that neither tighter setting nor other line breaks avoid; reword the text "
                             "or widen the box")
    s = fitted.size
    first = len(ops)
    raise_ = [ruby_size(s) if ln.has_ruby else 0.0 for ln in fitted.lines]  # room for ruby above a line
    block = s * ascent + (len(fitted.lines) - 1) * fitted.leading + sum(raise_)
    top = Y + H
    if el.valign == "middle":
        top = Y + H - (H - block - s * 0.12) / 2
    elif el.valign == "bottom":
        top = Y + block + s * 0.12
    ink = [float("inf"), float("-inf"), float("inf"), float("-inf")]  # left, right, bottom, top of every line
    for i, line in enumerate(fitted.lines):
        base = top - s * ascent - i * fitted.leading - sum(raise_[:i + 1])
        set_width = line.width - line.hang  # hanging punctuation sits past the measure, not in it
        room = W - line.indent  # a continuation line under a label starts after it
        x = X + line.indent + {"left": 0.0, "center": (room - set_width) / 2, "right": room - set_width}[el.align]
        ink = [min(ink[0], x), max(ink[1], x + line.width), min(ink[2], base - 0.12 * s), max(ink[3], base + s * ascent)]
        edges = (x, x + set_width)  # the line's own start and end: ruby does not overhang them
        for kind, value, advance in placed_runs(line):
            if kind == "icon":
                ops.append(face.icon(value, name, x + s * 0.025, base - s * 0.12, s * 1.0))
            elif kind == "ruby":  # its reading kept inside the line at its start or end
                ops.extend(ruby_ops(value, x, base, el.font, s, el.color, measure, ascent, edges)[0])
            else:
                ops.append(Text(x, base, value, el.font, s, el.color))
            x += advance
    if fitted.lines:
        outside(ink, (X, Y, W, H), name, face, el.bleed)
    if el.rotate == 180:  # turned about the box centre: read from across the table
        ops[first:] = [_turned(op, X + W / 2, Y + H / 2) for op in ops[first:]]
    if el.mirror:  # the same text turned through the card's centre: the opposite corner's index, same size
        ops.extend([_turned(op, frame.width / 2, frame.height / 2) for op in ops[first:]])
    if not fitted.fits:  # a forced build prints the card: the proof shows where the text does not fit
        ops.extend(overflow_mark(X, Y, W, H))


def ruby_ops(value: tuple[str, str], x: float, base: float, font: str, size: float, color: str,
             measure: Measure, ascent: float, bounds: tuple[float, float] | None = None) -> tuple[list[Text], float]:
    """The two :class:`Text` ops of a ruby run ``value = (base_text, reading)`` (a ``"ruby"`` run of
    :func:`cardgen.layout.text.runs`) whose atom starts at ``x`` on the baseline ``base`` (pt, y up),
    and the atom's width (pt, the advance to the next run). Group ruby: the reading, at
    :func:`ruby_size` of ``size`` pt, centred over the whole base, both centred in the atom; the
    reading may overhang each neighbour by half a ruby em; its em box sits on the base's (the
    line's ascent, ``ascent`` × ``size``). The caller leaves ``ruby_size(size)`` of room above a line
    holding ruby (:attr:`cardgen.layout.text.LaidLine.has_ruby`). ``bounds`` (the line's start and
    end, pt): a reading that would overhang past them — ruby at a line start or end — is moved
    inside, its start at the line's start (JLREQ: ruby may overhang the kana beside it, never the
    edge of the line, so never the text box's); the base stays where it is."""
    text, reading = value
    rs = ruby_size(size)
    bw, rw = measure(text, font, size), measure(reading, font, rs)
    aw = max(bw, rw - rs)
    rx = x + (aw - rw) / 2
    if bounds is not None:
        rx = max(bounds[0], min(rx, bounds[1] - rw)) if rw <= bounds[1] - bounds[0] else bounds[0]
    return [Text(x + (aw - bw) / 2, base, text, font, size, color),
            Text(rx, base + size * ascent + rs * 0.12, reading, font, rs, color)], aw


def _turned(op, cx: float, cy: float):
    """``op`` turned 180° about ``(cx, cy)`` (pt): text becomes :class:`TurnedText` anchored at
    the mirrored baseline start; an inline icon becomes :class:`TurnedIcon` (a game's own icon a
    :class:`GameIcon` with ``angle`` 180), its square moved to the mirrored place and the drawing
    turned upside down in it."""
    if isinstance(op, Text):
        return TurnedText(2 * cx - op.x, 2 * cy - op.y, op.text, op.font, op.size, op.color, 180.0)
    if isinstance(op, Icon):
        return TurnedIcon(op.name, 2 * cx - op.x - op.size, 2 * cy - op.y - op.size, op.size, 180.0)
    if isinstance(op, GameIcon):
        return replace(op, x=2 * cx - op.x - op.size, y=2 * cy - op.y - op.size, angle=(op.angle + 180.0) % 360)
    return op


OVERFLOW_COLOR = "#e0001b"  #: dashes of the outline around a text box whose text does not fit
OVERFLOW_GAP_COLOR = "#ffffff"  #: the dashes between them, so the outline shows on any background
_DASH = 1.5 * MM


def overflow_mark(x: float, y: float, w: float, h: float, width: float = 1.0) -> list[Line]:
    """A dashed outline (``Line`` dashes, pt), red and white in turn so it shows on a light or a
    dark card, around the box ``x, y, w, h`` (pt, y up): drawn on top of a card whose text
    overflows its box, so the sheets and PNGs of a forced build show where."""
    out: list[Line] = []
    for (x0, y0, x1, y1) in ((x, y, x + w, y), (x + w, y, x + w, y + h), (x + w, y + h, x, y + h), (x, y + h, x, y)):
        length = abs(x1 - x0) + abs(y1 - y0)
        dx, dy = (x1 - x0) / length, (y1 - y0) / length
        t, k = 0.0, 0
        while t < length - EPS:
            e = min(t + _DASH, length)
            out.append(Line(x0 + dx * t, y0 + dy * t, x0 + dx * e, y0 + dy * e, width,
                            OVERFLOW_GAP_COLOR if k % 2 else OVERFLOW_COLOR))
            t, k = e, k + 1
    return out
