"""``output/<game>/insight.pdf``: the simulation's distributions and the exact odds, as matplotlib pages.

Pages (A4 landscape, one figure each): the model's estimates per player count (± 1.96 standard
errors) for each side, and its whole games' (a model with ``game:``) on a page of their own; the comparison's differences with their 95 % intervals (when
``--compare`` or ``--compare-option`` was given); the exact odds tables. Text uses
the game's body font (Japanese), registered with matplotlib from the font file cardgen uses.
"""
from __future__ import annotations

import os
import tempfile
import unicodedata
from pathlib import Path

import numpy as np

from cardgen.core.atomic import as_output
from cardgen.layout.phrases import phrases

A4_LANDSCAPE_IN = (11.69, 8.27)
COLORS = ["#1f5e8c", "#b3261e", "#7a5a12", "#2e7d32", "#6a3d9a"]


def _font(font_path: Path | None) -> str | None:
    """Register ``font_path`` with matplotlib and return its family name (None: the default font)."""
    if font_path is None or not Path(font_path).is_file():
        return None
    from matplotlib import font_manager  # lazy: +150 ms of imports here (measured)

    font_manager.fontManager.addfont(str(font_path))
    return font_manager.FontProperties(fname=str(font_path)).get_name()


def _comparison(fig, comparison, a_label, b_label):
    from cardgen.insight.estimates import MIN_EVENTS  # lazy: +5 ms of imports here (measured)

    rows = [r for r in comparison if r["percent"] and np.isfinite(r["se"]) and min(r["a_n"], r["b_n"]) >= MIN_EVENTS]
    ax = fig.subplots(1, 1)
    y = np.arange(len(rows))
    ax.errorbar([r["diff"] * 100 for r in rows], y, xerr=[1.96 * r["se"] * 100 for r in rows], fmt="o",
                color=COLORS[1], capsize=3)
    ax.axvline(0, color="#888888", linewidth=0.8)
    ax.set_yticks(y, [f"{r['players']}人 {r['label']}" for r in rows], fontsize=5 if len(rows) > 40 else 7)
    ax.invert_yaxis()
    ax.set_xlabel(f"差（ポイント、{b_label} − {a_label}）±95%")
    ax.set_title(f"比較：{b_label} − {a_label}（同じ配牌・同じ乱数）")


#: Height of one odds-table row and of a table's title, as a fraction of the page's axes.
ODDS_ROW, ODDS_TITLE, ODDS_GAP = 0.045, 0.05, 0.06
#: The model's description above its estimates: characters a line (9 pt Japanese text across the
#: axes of an A4 landscape page hold about 72) and a line's height as a fraction of the axes.
DESCRIPTION_CHARS, DESCRIPTION_LINE = 68, 0.035


def _odds_cells(r) -> tuple[list[str], list[list[str]]]:
    """The header and rows of one declared odds table."""
    from cardgen.insight.odds import pct  # lazy: +210 ms of imports here (measured)

    counts = sorted(r.counts, key=lambda c: c.players)
    head = [""] + [f"{c.players}人（{c.cards}枚 / {c.deck}枚）" for c in counts]
    cells = [[line.label] + [pct(c.lines[i].p) for c in counts] for i, line in enumerate(counts[0].lines)]
    cells += [[f"期待値 {k}"] + [f"{c.expected[k]:,.1f}" for c in counts] for k in counts[0].expected]
    if r.kind == "pairs":
        for v in dict.fromkeys(x["value"] for c in counts for x in c.per_value):
            row = [next(x.get("label", f"{r.by} {v}") for c in counts for x in c.per_value if x["value"] == v)
                   + "：1枚以上 / 2枚以上"]
            for c in counts:
                pv = next((x for x in c.per_value if x["value"] == v), None)
                row.append(f"{pct(pv['p_one'])} / {pct(pv['p_two'])}" if pv else "—")
            cells.append(row)
    return head, cells


def _odds_height(r) -> float:
    return ODDS_TITLE + ODDS_ROW * (len(_odds_cells(r)[1]) + 1) + ODDS_GAP


def odds_pages(odds: list) -> list[list]:
    """The declared odds tables, as many to a page as fit (a table taller than a page gets one of
    its own): every declaration is drawn, none falls off the page's foot."""
    pages: list[list] = []
    room = 0.0
    for r in odds:
        h = _odds_height(r)
        if not pages or h > room:
            pages.append([])
            room = 0.97
        pages[-1].append(r)
        room -= h
    return pages


def _odds_page(fig, odds):
    ax = fig.subplots(1, 1)
    ax.axis("off")
    y = 0.97
    for r in odds:
        ax.text(0, y, f"正確な確率：{r.label}", fontsize=13, transform=ax.transAxes, va="top")
        y -= ODDS_TITLE
        head, cells = _odds_cells(r)
        h = ODDS_ROW * (len(cells) + 1)
        table = ax.table(cellText=cells, colLabels=head, loc="upper left", bbox=[0, y - h, 1, h], cellLoc="center")
        table.auto_set_font_size(False)
        table.set_fontsize(9)
        y -= h + ODDS_GAP


def _write_pdf(path: Path, title: str, font_path: Path | None, pages) -> Path:
    """Write a PDF of matplotlib pages through a temporary file (given the outputs' mode, then
    renamed into place); ``pages``: ``(constrained layout, suptitle, draw(fig))`` per page."""
    import matplotlib  # lazy: +148 ms of imports here (measured)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: +459 ms of imports here (measured)
    from matplotlib.backends.backend_pdf import PdfPages  # lazy: +510 ms of imports here (measured)

    family = _font(font_path)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".insight-", suffix=".pdf", dir=path.parent)
    os.close(fd)
    style = {"font.family": [family, "sans-serif"] if family else ["sans-serif"], "pdf.fonttype": 42}
    try:
        with plt.rc_context(style), PdfPages(tmp, metadata={"Title": title}) as pdf:
            for constrained, heading, draw in pages:
                fig = plt.figure(figsize=A4_LANDSCAPE_IN, layout="constrained" if constrained else None)
                fig.suptitle(heading, fontsize=10)
                draw(fig)
                pdf.savefig(fig)
                plt.close(fig)
        as_output(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _odds_entries(title: str, odds) -> list:
    return [(False, f"{title} — exact odds from the card data", lambda fig, part=part: _odds_page(fig, part))
            for part in odds_pages(odds or [])]


#: The simulator's default side labels, as the Japanese page says them.
SIDE_LABELS = {"as built": "データのまま", "as built (again)": "データのまま（もう一度）"}


def side_label(label: str) -> str:
    """A side's label on the page: a variant's own label, an option (``twos_down=1``), or the
    default side's name in Japanese."""
    return SIDE_LABELS.get(label, label)


def _cells(text: str) -> int:
    """Width of ``text`` in half-width cells (a Japanese letter is two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap_phrases(text: str, chars: int) -> list[str]:
    """``text`` in lines of at most ``chars`` full-width letters, broken between its phrases
    (:func:`cardgen.layout.phrases.phrases`, BudouX), inside one only when a phrase is longer
    than a line."""
    lines = [""]
    for phrase in phrases(text):
        while _cells(phrase) > 2 * chars:  # longer than a line: cut where the line is full
            room = 2 * chars - _cells(lines[-1])
            cut = next(i for i in range(len(phrase), 0, -1) if _cells(phrase[:i]) <= room or i == 1)
            lines[-1] += phrase[:cut]
            lines.append("")
            phrase = phrase[cut:]
        if lines[-1] and _cells(lines[-1] + phrase) > 2 * chars:
            lines.append("")
        lines[-1] += phrase
    return [line for line in lines if line]


def _model_page(fig, result, estimates: dict) -> None:
    """One table of estimates (a player count's rounds, or its whole games) with what the model leaves out."""
    ax = fig.subplots(1, 1)
    ax.axis("off")
    from matplotlib.table import Table  # lazy: +390 ms of imports here (measured; matplotlib, as _write_pdf)

    cells = [[e["label"], f"{e['value'] * 100:.2f}% ± {1.96 * e['se'] * 100:.2f}"
              if e["percent"] else f"{e['value']:.3f} ± {1.96 * e['se']:.3f}"]
             for e in estimates.values()]
    top = 0.9
    if result.description:
        lines = wrap_phrases(f"このモデルが扱わないこと：{result.description}", DESCRIPTION_CHARS)
        ax.text(0, 1.0, "\n".join(lines), fontsize=9, transform=ax.transAxes, va="top", linespacing=1.4)
        top = 0.97 - DESCRIPTION_LINE * len(lines)
    row = min(ODDS_ROW, top / (len(cells) + 1))  # a long description or many estimates: rows shrink to fit
    # labels read from the left, figures line up on the right (their ± and decimals under each other)
    table = Table(ax, bbox=[0, top - row * (len(cells) + 1), 1, row * (len(cells) + 1)])
    for r, (label, value) in enumerate([["推定", "値（± は95%信頼区間）"], *cells]):
        for col, width, text, loc in ((0, 0.6, label, "left"), (1, 0.4, value, "right")):
            cell = table.add_cell(r, col, width, row, text=text, loc="center" if r == 0 else loc)
            cell.PAD = 0.03  # of the cell's width (matplotlib's 0.1 indents a label by a sixteenth of the page)
    table.auto_set_font_size(False)
    table.set_fontsize(9)
    ax.add_table(table)


def write_model_pdf(path: Path, result, odds=None, font_path: Path | None = None, other=None,
                    comparison=None) -> Path:
    """insight.pdf of a game with ``insight.model``: one page of the model's estimates per player
    count (± 1.96 standard errors) of each side, the paired differences of a comparison, then the
    exact odds tables."""
    pages = []
    for r in [result] + ([other] if other is not None else []):
        for c in r.counts:
            pages.append((False, f"{r.title} — {r.model}（{side_label(r.label)}）：{c['players']}人・{c['rounds']:,}局・"
                          f"方針 {r.policy}・シード {r.seed}", lambda fig, r=r, c=c: _model_page(fig, r, c["estimates"])))
            if "game" in c:  # whole games (insight.model.game): their own page
                g = c["game"]
                pages.append((False, f"{r.title} — {g['name']}（{side_label(r.label)}）：{c['players']}人・"
                              f"{g['games']:,}回・方針 {r.policy}・シード {r.seed}",
                              lambda fig, r=r, g=g: _model_page(fig, r, g["estimates"])))
    if comparison:
        pages.append((True, f"{result.title} — {result.model}", lambda fig: _comparison(
            fig, comparison, side_label(result.label), side_label(other.label))))
    return _write_pdf(path, f"{result.title} insight", font_path, pages + _odds_entries(result.title, odds))
