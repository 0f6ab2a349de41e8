"""diff.pdf: draws the pages of :func:`cardgen.diff.pdf_layout.layout_diff` (plans only).

Old faces are drawn with the old draft's fonts, new faces and all captions with the new
draft's. Each face is clipped to its trim; the canvas is ``invariant`` (same input, same bytes).
"""
from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardgen.diff.compare import GameDiff
from cardgen.diff.pdf_layout import PAGE_H, PAGE_W, CardItem, PairItem, layout_diff
from cardgen.render.draw import draw_ops


def diff_items(gd: GameDiff) -> tuple[list[PairItem], list[CardItem], list[CardItem]]:
    """The pairs, added and removed cards of a diff, with their face plans."""
    o, n = gd.data["old"], gd.data["new"]
    old_label, new_label = f"old · {o['title']} {o['version']}", f"new · {n['title']} {n['version']}"
    pairs = []
    for p in gd.pairs:
        get_old = gd.old.front if p.side == "front" else gd.old.back
        get_new = gd.new.front if p.side == "front" else gd.new.back
        a, b = get_old(p.component, p.old_id), get_new(p.component, p.new_id)
        if a is not None and b is not None:
            pairs.append(PairItem(p.title, a, b, p.old_boxes, p.new_boxes, p.notes, old_label, new_label))
    names = {c["id"]: c["name"] for c in gd.data["components"]}
    copies = {("old", cid, r.id): r.quantity for cid, rows in gd.old.game.tables.items() for r in rows}
    copies.update({("new", cid, r.id): r.quantity for cid, rows in gd.new.game.tables.items() for r in rows})
    added = [CardItem("new", gd.new.front(cid, rid), f"added · {names[cid]} {rid} (×{copies[('new', cid, rid)]})")
             for cid, rid in gd.added if gd.new.front(cid, rid) is not None]
    removed = [CardItem("old", gd.old.front(cid, rid), f"removed · {names[cid]} {rid} (×{copies[('old', cid, rid)]})")
               for cid, rid in gd.removed if gd.old.front(cid, rid) is not None]
    return pairs, added, removed


def write_diff_pdf(gd: GameDiff, path: Path) -> int:
    """Write diff.pdf for ``gd`` to ``path``. Returns the page count."""
    from cardgen.render.images import ImageCache  # lazy: +6 ms of imports here (measured)

    o, n = gd.data["old"], gd.data["new"]
    pairs, added, removed = diff_items(gd)
    fonts = {"old": gd.old.fonts, "new": gd.new.fonts}
    title = f"{o['title']} {o['version']} → {n['title']} {n['version']}: what looks different"
    pages = layout_diff(title, pairs, added, removed, gd.new.fonts.width,
                        added_title=f"added in {n['version']} ({len(added)})",
                        removed_title=f"removed since {o['version']} ({len(removed)})")
    c = Canvas(str(path), pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1,
               initialFontName=gd.new.fonts.name("body"))
    c.setTitle(title)
    c.setCreator("cardgen")
    images = ImageCache()
    for page in pages:
        for f in page.faces:
            c.saveState()
            c.translate(f.x, f.y)
            c.scale(f.scale, f.scale)
            clip = c.beginPath()
            clip.rect(0, 0, f.plan.width, f.plan.height)
            c.clipPath(clip, stroke=0, fill=0)
            draw_ops(c, f.plan.ops, fonts[f.draft], images)
            c.restoreState()
        draw_ops(c, page.ops, gd.new.fonts)
        c.showPage()
    c.save()
    return len(pages)
