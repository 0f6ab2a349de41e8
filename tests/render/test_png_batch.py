"""Card PNGs are rasterised a few faces at a time from one PDF (issue 19: the fonts are then
subset once per batch, not once per face). A face's PNG must not depend on its batch: the bytes
equal those of the face rendered alone, in any batch order and at any size."""
from __future__ import annotations

import pytest

import cardgen.render.png_cards as png_cards
from cardgen.check.print_setup import load_and_validate
from cardgen.fonts.fontset import fonts_for
from cardgen.render.images import ImageCache
from cardgen.render.png_cards import BATCH, FaceTask, px, render_batch, render_face, render_face_files, render_faces
from cardgen.steps.component_plans import plan_component
from tests.conftest import TENJANPAI, needs_fonts

pytestmark = needs_fonts


def test_a_batch_gives_each_face_its_own_png():
    game, _report = load_and_validate(TENJANPAI)
    fonts = fonts_for(game)
    comp = next(c.id for c in game.manifest.components if c.back)
    plans = plan_component(game, comp, fonts)
    faces = list({p.key: p for p in [*plans.fronts[:5], plans.backs[0]]}.values())
    tasks = [FaceTask(p, 150 / 72, (px((p.width + 2 * p.bleed) / 72 * 25.4, 150),
                                    px((p.height + 2 * p.bleed) / 72 * 25.4, 150)), True, 150) for p in faces]
    tasks.append(FaceTask(faces[0], 100 / 72, (px(faces[0].width / 72 * 25.4, 100),
                                               px(faces[0].height / 72 * 25.4, 100)), False))  # trim only
    images = ImageCache()
    alone = [render_face(t, fonts, images) for t in tasks]
    assert len(set(alone)) == len(alone)  # distinct faces, so a mix-up would show
    assert render_batch(tasks, fonts, images) == alone
    assert render_batch(tasks[::-1], fonts, images) == alone[::-1]


def _tasks(n: int) -> tuple[list[FaceTask], object]:
    """``n`` face tasks of 天雀牌 (the first fronts of its first component with a back, repeated), and its fonts."""
    game, _report = load_and_validate(TENJANPAI)
    fonts = fonts_for(game)
    plans = plan_component(game, next(c.id for c in game.manifest.components if c.back), fonts)
    tasks = [FaceTask(plans.fronts[i % len(plans.fronts)], 36 / 72, (px(69, 36), px(94, 36))) for i in range(n)]
    return tasks, fonts


@pytest.mark.parametrize("jobs, n, pool", [(None, BATCH, False), (None, BATCH + 1, True), (2, 2, True), (1, 3 * BATCH, False)])
def test_a_few_faces_are_drawn_here_unless_workers_are_asked_for(tmp_path, monkeypatch, jobs, n, pool):
    """By default (no ``--jobs``) a pool of workers starts only for more faces than one batch: for
    fewer it cost more than the faces (a 2-face build: 0.70 s of CPU with it, 0.30 s without).
    ``--jobs N`` is always N workers (the interrupt test stops a build and its PNG workers together),
    ``--jobs 1`` none; the bytes are the same either way."""
    monkeypatch.setattr(png_cards.os, "cpu_count", lambda: 2)
    tasks, fonts = _tasks(n)
    started = []
    real_pool = png_cards._pool

    def counted(*args):
        started.append(args[0])
        return real_pool(*args)

    monkeypatch.setattr(png_cards, "_pool", counted)
    got = render_faces(tasks, fonts, TENJANPAI, jobs)
    dests = [[str(tmp_path / f"{i}.png")] for i in range(n)]
    render_face_files(tasks, dests, fonts, TENJANPAI, jobs)
    assert started == ([jobs or 2] * 2 if pool else [])
    assert [(tmp_path / f"{i}.png").read_bytes() for i in range(n)] == got
    assert got == render_faces(tasks, fonts, TENJANPAI, 1)
