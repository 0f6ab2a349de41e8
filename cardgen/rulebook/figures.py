"""Card figures of the rulebook, laid out: pure geometry in pt (y up, origin at the figure's
bottom-left), no drawing and no fonts beyond a caption height (drawn by
:class:`cardgen.rulebook.card_figure.CardFigure`).

Two figures:

- :func:`row_layout` — cards side by side, bottom-aligned, each upright or laid **sideways**
  (turned 90° counter-clockwise, as a called card lies in a player's 河 after ポン/チー; the seed
  rules of 天雀牌 and 夜雀鬼: "取ったカードは自分の【河】の右端に横倒しにして置く"), each with an
  optional caption centred under it, and an optional title under the row.
- :func:`table_layout` — the table seen from above for 3 or 4 players: each seat's 河 (face up,
  towards the centre) and hand (face down, towards the player), the 山 (draw pile) and the
  王牌 (dead wall) in the centre. Seats are numbered in turn order, counter-clockwise from the
  bottom seat (起家); with 3 players the left seat stays empty (as in three-player mahjong,
  whose missing seat is the one before the dealer).

The rules text asks for them with ``card_row(…)`` and ``table_layout(…)``
(:mod:`cardgen.rulebook.context`), which put a :func:`marker` comment in the Markdown; the
parser turns it into a :class:`cardgen.rulebook.blocks.CardFigureBlock`.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from cardgen.core.units import MM


@dataclass(frozen=True)
class CardSpec:
    """One card of a figure: ``card_id`` of ``component`` face up, or its back (``back``: face
    down, ``card_id`` may be None); ``sideways``: turned 90° counter-clockwise."""

    component: str
    card_id: str | None
    sideways: bool = False
    caption: str = ""
    back: bool = False


@dataclass(frozen=True)
class Placed:
    """A card on the figure: its bounding box ``x, y, box_w, box_h`` (pt, bottom-left origin),
    the card's own upright size ``w × h`` (pt) and its turn ``rotation`` (degrees counter-clockwise:
    0, 90, 180 or 270; at 90 and 270 the box is ``h`` wide and ``w`` tall)."""

    spec: CardSpec
    x: float
    y: float
    w: float
    h: float
    rotation: int = 0

    @property
    def box_w(self) -> float:
        """The box's width on the figure (pt)."""
        return self.h if self.rotation % 180 else self.w

    @property
    def box_h(self) -> float:
        """The box's height on the figure (pt)."""
        return self.w if self.rotation % 180 else self.h


@dataclass(frozen=True)
class Label:
    """Text on the figure, upright: ``x`` is its centre (``anchor="middle"``), left end
    (``"start"``) or right end (``"end"``), ``y`` its baseline (pt)."""

    x: float
    y: float
    text: str
    size: float
    anchor: str = "middle"


@dataclass
class FigureLayout:
    """A laid-out figure: ``width × height`` (pt), the cards and the labels."""

    width: float
    height: float
    cards: list[Placed] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)


#: A caption's line height as a multiple of its size.
CAPTION_LEADING = 1.5


def row_layout(cards: list[CardSpec], w: float, h: float, gap: float, caption_size: float,
               title: str = "") -> FigureLayout:
    """Cards of upright size ``w × h`` (pt) in a row with ``gap`` pt between boxes, bottom-aligned
    above the captions; a sideways card takes ``h × w``. Captions (``caption_size`` pt) are
    centred under their card; ``title`` under the whole row.

    Returns a :class:`FigureLayout` exactly as wide as the cards and gaps.
    """
    line = caption_size * CAPTION_LEADING
    cap_h = line if any(c.caption for c in cards) else 0.0
    title_h = line + caption_size * 0.3 if title else 0.0
    base = title_h + cap_h
    placed: list[Placed] = []
    labels: list[Label] = []
    x = 0.0
    for spec in cards:
        p = Placed(spec, x, base, w, h, 90 if spec.sideways else 0)
        placed.append(p)
        if spec.caption:
            labels.append(Label(x + p.box_w / 2, title_h + caption_size * 0.45, spec.caption, caption_size))
        x += p.box_w + gap
    width = max(0.0, x - gap)
    if title:
        labels.append(Label(width / 2, caption_size * 0.4, title, caption_size))
    return _fit(FigureLayout(width, base + max((p.box_h for p in placed), default=0.0), placed, labels))


#: Seats in turn order (counter-clockwise seen from above), as turns of the bottom seat.
SEAT_TURNS = {4: (0, 90, 180, 270), 3: (0, 90, 180)}


def table_layout(rivers: list[list[CardSpec]], hand: list[CardSpec], wall: CardSpec, dead_wall: CardSpec | None,
                 w: float, h: float, gap: float, label_size: float, names: dict[str, str],
                 title: str = "") -> FigureLayout:
    """The table from above for ``len(rivers)`` players (3 or 4), cards ``w × h`` pt upright.

    Args:
        rivers: each seat's 河 in turn order (the first seat is at the bottom, the 起家).
        hand: the cards of one hand, face down (every seat shows the same).
        wall, dead_wall: one face-down card standing for the 山 and the 王牌 (drawn as a pile);
            ``dead_wall=None`` (a player count that sets no card aside): the 山 alone, centred.
        names: label texts: ``seat`` (a format with ``{n}``, the seat's turn number), ``first``
            (added to seat 1), ``river``, ``hand``, ``wall``, ``dead_wall``.

    Raises:
        ValueError: not 3 or 4 rivers.
    """
    turns = SEAT_TURNS.get(len(rivers))
    if turns is None:
        raise ValueError(f"table_layout: {len(rivers)} players; a table is drawn for 3 or 4")
    row_w = [sum((h if c.sideways else w) for c in r) + gap * max(0, len(r) - 1) for r in rivers]
    hand_w = len(hand) * w + gap * max(0, len(hand) - 1)
    pile = 2 * 0.6 * MM  # the two cards showing under a pile's top card
    apart = 4 * gap  # between the 山 and the 王牌, room for their labels
    centre = (2 * (w + pile) + apart) / 2 + gap  # 山 and 王牌 side by side
    inner = max(max(row_w + [hand_w]) / 2 + gap, centre + gap, h / 2 + label_size * 2 + gap)
    outer = inner + 2 * h + 1.5 * gap
    half = outer + gap
    lay = FigureLayout(2 * half, 2 * half)

    def put(spec: CardSpec, lx: float, ly: float, lw: float, lh: float, turn: int, own: int) -> None:
        """A card whose box in the bottom seat's frame (centre origin) is ``lx, ly, lw, lh``; the
        seat is turned by ``turn`` degrees about the centre, the card by ``own`` more."""
        bx, by, bw, bh = _turn_box(lx, ly, lw, lh, turn)
        lay.cards.append(Placed(spec, half + bx, half + by, w, h, (turn + own) % 360))

    for seat, (river, turn) in enumerate(zip(rivers, turns), 1):
        x = -row_w[seat - 1] / 2
        for c in river:  # towards the centre; a sideways card aligned to the player's side
            bw, bh = (h, w) if c.sideways else (w, h)
            put(c, x, -inner - h, bw, bh, turn, 90 if c.sideways else 0)
            x += bw + gap
        x = -hand_w / 2
        for c in hand:
            put(c, x, -outer, w, h, turn, 0)
            x += w + gap
        # the seat's name beside its hand, upright for the reader of the book
        name = names["seat"].format(n=seat) + (names["first"] if seat == 1 else "")
        reach = text_width(name, label_size) / 2 if turn % 180 == 0 else label_size
        sx, sy = _turn_point(hand_w / 2 + gap + reach, -outer + h / 2, turn)
        lay.labels.append(Label(half + sx, half + sy - label_size * 0.35, name, label_size))
    # which row is which, once, beside the bottom seat
    lay.labels.append(Label(half - row_w[0] / 2 - gap, half - inner - h / 2 - label_size * 0.35,
                            names["river"], label_size, "end"))
    lay.labels.append(Label(half - hand_w / 2 - gap, half - outer + h / 2 - label_size * 0.35,
                            names["hand"], label_size, "end"))
    piles = ([(wall, -(w + pile + apart) / 2, names["wall"]), (dead_wall, (w + pile + apart) / 2, names["dead_wall"])]
             if dead_wall is not None else [(wall, 0.0, names["wall"])])  # no 王牌 at this player count
    for spec, cx, name in piles:
        for k in (2, 1, 0):  # a pile: two cards peeking out under the top one
            lay.cards.append(Placed(spec, half + cx - (w + pile) / 2 + k * 0.6 * MM,
                                    half - h / 2 + label_size + k * 0.6 * MM, w, h))
        lay.labels.append(Label(half + cx, half - h / 2 - label_size * 0.5, name, label_size))
    if title:
        lay.labels.append(Label(half, -label_size * CAPTION_LEADING, title, label_size))
    return _fit(lay, trim=True)


def text_width(text: str, size: float) -> float:
    """A generous width estimate (pt) of a label: an em per character, half for ASCII."""
    return sum(size * (0.55 if ch.isascii() else 1.0) for ch in text)


def _label_box(lb: Label) -> tuple[float, float, float, float]:
    tw = text_width(lb.text, lb.size)
    x0 = lb.x - (tw / 2 if lb.anchor == "middle" else tw if lb.anchor == "end" else 0.0)
    return x0, lb.y - lb.size * 0.25, x0 + tw, lb.y + lb.size * 0.9


def _fit(lay: FigureLayout, trim: bool = False) -> FigureLayout:
    """``lay`` moved and grown so every card and label lies inside ``0 … width × 0 … height``;
    ``trim``: sized to what it holds, nothing around it (an empty seat takes no room, so the
    figure centres on the cards)."""
    boxes = [(p.x, p.y, p.x + p.box_w, p.y + p.box_h) for p in lay.cards] + [_label_box(lb) for lb in lay.labels]
    if not trim:
        boxes.append((0.0, 0.0, lay.width, lay.height))
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    return FigureLayout(x1 - x0, y1 - y0,
                        [Placed(p.spec, p.x - x0, p.y - y0, p.w, p.h, p.rotation) for p in lay.cards],
                        [Label(lb.x - x0, lb.y - y0, lb.text, lb.size, lb.anchor) for lb in lay.labels])


def _turn_point(x: float, y: float, turn: int) -> tuple[float, float]:
    """``(x, y)`` turned ``turn`` degrees counter-clockwise about the origin (multiples of 90)."""
    for _ in range(turn // 90 % 4):
        x, y = -y, x
    return x, y


def _turn_box(x: float, y: float, w: float, h: float, turn: int) -> tuple[float, float, float, float]:
    """The box ``x, y, w, h`` turned about the origin: its new bottom-left corner and size."""
    xs, ys = zip(*(_turn_point(px, py, turn) for px, py in ((x, y), (x + w, y + h))))
    return min(xs), min(ys), abs(xs[1] - xs[0]), abs(ys[1] - ys[0])


# ------------------------------------------------------------------ the marker in the Markdown

_MARK = re.compile(r"<!--\s*card-figure:(\{.*?\})\s*-->", re.S)


def marker(data: dict) -> str:
    """The Markdown a figure helper puts in the rendered rules text: an HTML comment carrying the
    figure as JSON (``<`` ``>`` ``-`` escaped, so the comment cannot close early)."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return "<!-- card-figure:" + text.replace("<", "\\u003c").replace(">", "\\u003e").replace("-", "\\u002d") + " -->"


def marker_data(html: str) -> dict | None:
    """The figure of a :func:`marker` comment, or None for any other HTML."""
    m = _MARK.search(html or "")
    return json.loads(m.group(1)) if m else None
