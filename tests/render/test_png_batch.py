"""Card PNGs are rasterised a few faces at a time from one PDF (issue 19: the fonts are then
subset once per batch, not once per face). A face's PNG must not depend on its batch: the bytes
equal those of the face rendered alone, in any batch order and at any size."""
from __future__ import annotations

from cardgen.check.print_setup import load_and_validate
from cardgen.fonts.fontset import fonts_for
from cardgen.render.images import ImageCache
from cardgen.render.png_cards import FaceTask, px, render_batch, render_face
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
