"""Card faces → PNG, by rasterising each face's one-card PDF with pypdfium2 (preview = print).

Each distinct face is rendered once; copies reuse its bytes. Faces are rendered a few at a time
from one PDF (a batch, :func:`render_batch`) and spread over worker processes (``jobs``);
results are collected in task order and PNGs carry no time or text chunks, so the bytes do not
depend on the job count or on which faces share a batch.

Pixel sizes: ``px(mm, dpi) = floor(mm / 25.4 × dpi + 0.5)`` (round half up) on each axis.
pdfium sizes its bitmap with ``ceil``, so the raster is cropped on the right/bottom to that
size (at most one partial pixel).
"""
from __future__ import annotations

import io
import math
import multiprocessing as mp
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from cardgen.core.budget import worker_init
from cardgen.fonts.fontset import FontSet, fonts_for
from cardgen.layout.ops import CardPlan
from cardgen.render.images import ImageCache

MM_PER_IN = 25.4


def px(length_mm: float, dpi: float) -> int:
    """Pixels for a length in mm at ``dpi`` (round half up)."""
    return int(math.floor(length_mm / MM_PER_IN * dpi + 0.5))


@dataclass(frozen=True)
class FaceTask:
    """Rasterise ``plan`` at ``scale`` px/pt, page with or without bleed, cropped to ``size``."""

    plan: CardPlan
    scale: float
    size: tuple[int, int]
    bleed: bool = True
    dpi: float | None = None  #: written into the PNG's pHYs chunk when given


def rasterise(pdf: bytes, scale: float, size: tuple[int, int]):
    """First page of ``pdf`` at ``scale`` pixels per pt, white background → PIL RGB image of ``size``."""
    return rasterise_pages(pdf, [(scale, size)])[0]


def rasterise_pages(pdf: bytes, pages: Sequence[tuple[float, tuple[int, int]]]) -> list:
    """Pages 0, 1, … of ``pdf``, each at its ``(scale, size)`` (pixels per pt; cropped to ``size``),
    white background → PIL RGB images."""
    import pypdfium2 as pdfium  # lazy: +33 ms of imports here (measured)

    out = []
    doc = pdfium.PdfDocument(pdf)
    try:
        for i, (scale, size) in enumerate(pages):
            page = doc[i]
            bitmap = page.render(scale=scale, fill_color=(255, 255, 255, 255), draw_annots=False)
            img = bitmap.to_pil().convert("RGB")
            page.close()
            out.append(img if img.size == size else img.crop((0, 0, size[0], size[1])))
    finally:
        doc.close()
    return out


#: zlib level of every PNG (Pillow's encoder, the only one here; CPU ms per card, mean size).
#: 60 generated 天雀牌 character cards at 300 dpi (815 × 1110 px, dense text): level 6
#: (Pillow's default) 19.8 ms, 103 KiB; 3: 13.5 ms, 105 KiB; 1: 13.0 ms, 108 KiB; 0: 9.3 ms,
#: 2.6 MiB. 92 cards of the four bundled games (flatter faces): 6: 11.6 ms, 37 KiB; 4: 10.4 ms,
#: 37 KiB; 3: 7.9 ms, 42 KiB; 1: 7.8 ms, 43 KiB. Level 3 is the fastest zlib strategy (1–3 cost
#: the same) and brings a card PNG to the independent Pillow floor (benchmarks/pillow_floor.py);
#: it costs 2 % (text-dense) to 13 % (flat) more bytes.
PNG_LEVEL = 3


def png_bytes(img, dpi: float | None = None) -> bytes:
    """PNG bytes without time or text chunks (byte-stable), zlib level :data:`PNG_LEVEL`."""
    buf = io.BytesIO()
    kw = {"dpi": (dpi, dpi)} if dpi else {}
    img.save(buf, "PNG", optimize=False, compress_level=PNG_LEVEL, **kw)
    return buf.getvalue()


_WORKER: dict = {}


def _init_worker(game_dir: str) -> None:
    worker_init()
    from cardgen.data.game import load_game  # lazy: +198 ms of imports here (measured)
    from cardgen.render.images import ImageCache  # lazy: +6 ms of imports here (measured)

    _WORKER["fonts"] = fonts_for(load_game(game_dir))
    _WORKER["images"] = ImageCache()


def render_face(task: FaceTask, fonts: FontSet, images) -> bytes:
    """PNG bytes of one face task."""
    return render_batch([task], fonts, images)[0]


def render_batch(tasks: Sequence[FaceTask], fonts: FontSet, images) -> list[bytes]:
    """PNG bytes of each face task, in order, rasterised from one PDF of a page per face
    (:func:`cardgen.render.card_pdf.cards_pdf`): the fonts are subset once for the batch instead of
    once per face (about a tenth of a card's PNG time). A face's pixels do not depend on the
    other faces of its batch, so the PNGs are those of one face at a time, byte for byte."""
    from cardgen.render.card_pdf import cards_pdf  # lazy: +11 ms of imports here (measured)

    pdf = cards_pdf([(t.plan, t.bleed) for t in tasks], fonts, images)
    images_ = rasterise_pages(pdf, [(t.scale, t.size) for t in tasks])
    return [png_bytes(img, t.dpi) for img, t in zip(images_, tasks)]


#: Faces rendered from one PDF in this process (a batch's PNGs are held until it is written).
BATCH = 8


def _batches(items: Sequence, size: int) -> list:
    return [items[i:i + size] for i in range(0, len(items), size)]


def _work(tasks: Sequence[FaceTask]) -> list[bytes]:
    return render_batch(tasks, _WORKER["fonts"], _WORKER["images"])


def _work_write(items: Sequence[tuple[FaceTask, tuple[str, ...]]]) -> int:
    datas = render_batch([t for t, _ in items], _WORKER["fonts"], _WORKER["images"])
    for (_t, dests), data in zip(items, datas):
        for d in dests:
            Path(d).write_bytes(data)
    return len(items)


def _pool(jobs: int, n: int, fonts: FontSet, game_dir: Path) -> ProcessPoolExecutor:
    """Worker processes. Forked workers inherit this process's fonts (already registered with
    reportlab); other start methods load them from ``game_dir``."""
    if mp.get_start_method() == "fork":
        from cardgen.core.budget import before_fork, worker_init
        from cardgen.render.images import ImageCache
        _WORKER.update(fonts=fonts, images=ImageCache())
        before_fork()  # the workers are forked from this process (as they start, inheriting this mark)
        return ProcessPoolExecutor(max_workers=min(jobs, n), initializer=worker_init)
    return ProcessPoolExecutor(max_workers=min(jobs, n), initializer=_init_worker, initargs=(str(game_dir),))


def _workers(jobs: int | None, n: int) -> int:
    """Worker processes for ``n`` faces: ``jobs`` when given; by default (None) ``os.cpu_count()``,
    but none (1: this process) for at most :data:`BATCH` faces. Those are one batch, one PDF here,
    ≈ 25 ms a face; a pool forks its workers, hands out a face at a time (a PDF and a font subset
    each) and stops them again, which cost more than the faces themselves: `cardgen build` of a
    6-card, 2-face game spent 0.70 s of CPU with the default pool and 0.30 s with ``--jobs 1``
    (benchmarks/README.md, "the suitecpu change")."""
    if jobs is None:
        return 1 if n <= BATCH else os.cpu_count() or 1
    return jobs


def _chunk(n: int, jobs: int) -> int:
    """Faces per hand-out (one batch, one PDF): small (≤ :data:`BATCH`, ~0.2 s of work) so no worker idles
    while another finishes a long last chunk; a face costs ~25 ms, its pickled plan ~2 KB, so
    hand-out overhead is small."""
    return max(1, min(BATCH, n // (jobs * 4)))


def render_face_files(tasks: Sequence[FaceTask], dests: Sequence[Sequence[str]], fonts: FontSet, game_dir: Path,
                      jobs: int | None = None, on_done: Callable[[], None] | None = None) -> None:
    """Render each task once and write its PNG to every path in ``dests[i]`` (copies of a face).

    Workers write the files themselves, so PNG bytes never travel back to this process and are
    never all held in memory. ``jobs``: worker processes (default: :func:`_workers`); 1 renders
    here. Tasks are handed out in order, a few at a time (:func:`_chunk`).

    Raises:
        CardgenError: from image loading (missing, unreadable, too large).
    """
    from cardgen.render.images import ImageCache  # lazy: +6 ms of imports here (measured)

    items = [(t, tuple(str(d) for d in ds)) for t, ds in zip(tasks, dests)]
    jobs = _workers(jobs, len(items))
    if jobs <= 1 or len(items) <= 1:
        images = ImageCache()
        for batch in _batches(items, BATCH):
            for (_t, ds), data in zip(batch, render_batch([t for t, _ in batch], fonts, images)):
                for d in ds:
                    Path(d).write_bytes(data)
                if on_done:
                    on_done()
        return
    with _pool(jobs, len(items), fonts, game_dir) as ex:
        for done in ex.map(_work_write, _batches(items, _chunk(len(items), jobs))):
            for _ in range(done):
                if on_done:
                    on_done()


def render_faces(tasks: Sequence[FaceTask], fonts: FontSet, game_dir: Path, jobs: int | None = None,
                 on_done: Callable[[], None] | None = None) -> list[bytes]:
    """PNG bytes per task, in task order.

    Args:
        fonts: the build's font set (used when rendering in this process).
        game_dir: the game folder; worker processes load their fonts from it.
        jobs: worker processes (default: :func:`_workers`); 1 renders in this process.
    Raises:
        CardgenError: from image loading (missing, unreadable, too large).
    """
    jobs = _workers(jobs, len(tasks))
    out: list[bytes] = []
    if jobs <= 1 or len(tasks) <= 1:
        images = ImageCache()
        for batch in _batches(list(tasks), BATCH):
            for data in render_batch(batch, fonts, images):
                out.append(data)
                if on_done:
                    on_done()
        return out
    with _pool(jobs, len(tasks), fonts, game_dir) as ex:
        for datas in ex.map(_work, _batches(list(tasks), _chunk(len(tasks), jobs))):
            for data in datas:
                out.append(data)
                if on_done:
                    on_done()
    return out


def face_id(plan: CardPlan) -> tuple:
    """What makes two faces draw the same (key and size)."""
    return (plan.key, round(plan.width, 3), round(plan.height, 3), round(plan.bleed, 3))
