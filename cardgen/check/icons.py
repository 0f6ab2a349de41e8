"""Checks of the game's own icons (``icons:`` in game.yaml), run by ``cardgen validate`` and
every build (:mod:`cardgen.steps.game_check`):

- errors: a name that is not lower-case letters, digits and ``_`` or that is a built-in icon's;
  a file that is not ``.svg`` / ``.png``, lies outside the game folder, is missing, or cannot be
  drawn (an SVG that refers to other files, a PNG that cannot be read); a label colour that is
  not a colour;
- a warning for two icons that look alike in greyscale (rasterised at 48 × 48 px, mean
  difference under 6 of 255 grey levels) and carry the same label: colour-blind players and
  greyscale printers cannot tell them apart (the fix: a different shape, or a ``label``).
"""
from __future__ import annotations

import io
import re
from itertools import combinations
from pathlib import Path

from cardgen.core.colours import parse_colour
from cardgen.core.errors import CardgenError, Problem
from cardgen.data.game import Game, safe_path
from cardgen.layout.icon_names import BUILTIN_ICONS, IconSpec
from cardgen.render.svg_icons import draw_game_icon, load_svg

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
SUFFIXES = (".svg", ".png")
#: Greyscale renderings closer than this (mean absolute difference, 0–255) look alike.
ALIKE_GREY = 6.0
_PX = 48


def icon_specs(game: Game) -> dict[str, IconSpec]:
    """The game's own icons that layout may place: name → :class:`IconSpec` with the file's
    resolved path. Icons whose name or path is wrong are left out (:func:`check_icons` names
    them); a card using one then gets the unknown-icon error. Never raises."""
    out: dict[str, IconSpec] = {}
    for name, decl in game.manifest.icons.items():
        if not _NAME.match(name) or name in BUILTIN_ICONS or Path(decl.file).suffix.lower() not in SUFFIXES:
            continue
        try:
            path = safe_path(game.root, decl.file, game.manifest_file, None, f"icons → {name} → file")
        except CardgenError:
            continue
        out[name] = IconSpec(str(path), decl.label, decl.label_colour)
    return out


def check_icons(game: Game) -> list[Problem]:
    """Every problem of the game's own icons (see the module doc), at their game.yaml lines."""
    from cardgen.render.images import image_size  # lazy: +24 ms of imports here (measured)

    problems: list[Problem] = []
    drawable: dict[str, Path] = {}
    for name, decl in game.manifest.icons.items():
        where = ("icons", name)
        if not _NAME.match(name):
            problems.append(game.problem(where, f"the icon name {name!r} is not lower-case letters, digits and _",
                                         "name it like `coin` or `moon_full` (it is typed as :name: in card text)",
                                         code="icon-name"))
            continue
        if name in BUILTIN_ICONS:
            problems.append(game.problem(where, f"{name!r} is a built-in icon",
                                         "give your icon another name, e.g. " + repr(f"my_{name}"), code="icon-name"))
            continue
        if parse_colour(decl.label_colour) is None:
            problems.append(game.problem(where + ("label_colour",), f"{decl.label_colour!r} is not a colour",
                                         "write #rgb, #rrggbb or a CSS name such as white", code="icon-colour"))
        suffix = Path(decl.file).suffix.lower()
        if suffix not in SUFFIXES:
            problems.append(game.problem(where + ("file",), f"the icon file {decl.file!r} is not .svg or .png",
                                         "save the icon as SVG (vector) or PNG", code="icon-format"))
            continue
        try:
            path = safe_path(game.root, decl.file, game.manifest_file, game.line(*where, "file"),
                             f"icons → {name} → file")
            if not path.is_file():
                raise CardgenError(game.problem(where + ("file",), f"the icon file {decl.file!r} does not exist",
                                                "put the file in the game folder, or fix the name", code="missing-file"))
            load_svg(path) if suffix == ".svg" else image_size(path)
        except CardgenError as exc:
            problems.extend(game.problem(where + ("file",), p.message, p.hint, code=p.code or "bad-icon")
                            if p.file != game.manifest_file else p for p in exc.problems)
            continue
        drawable[name] = path
    problems.extend(_alike(game, drawable))
    return problems


def _grey(path: Path):
    """The icon rasterised at 48 × 48 px on white (as printed), greyscale, as a numpy array."""
    import numpy as np  # lazy: +86 ms of imports here (measured)
    import pypdfium2  # lazy: +28 ms of imports here (measured)
    from reportlab.pdfgen.canvas import Canvas  # lazy: +49 ms of imports here (measured)

    from cardgen.layout.ops import GameIcon  # lazy: +11 ms of imports here (measured)

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(_PX, _PX), invariant=1)
    draw_game_icon(c, GameIcon("probe", 0, 0, _PX, str(path)), "Helvetica")
    c.showPage()
    c.save()
    page = pypdfium2.PdfDocument(buf.getvalue())[0]
    return np.asarray(page.render(scale=1).to_pil().convert("L"), dtype=float)


def _alike(game: Game, drawable: dict[str, Path]) -> list[Problem]:
    """A warning per pair of icons with the same label that look alike in greyscale."""
    if len(drawable) < 2:
        return []
    labels = {n: game.manifest.icons[n].label for n in drawable}
    greys = {}
    out = []
    for a, b in combinations(drawable, 2):
        if labels[a] != labels[b]:
            continue
        for n in (a, b):
            if n not in greys:
                greys[n] = _grey(drawable[n])
        diff = float(abs(greys[a] - greys[b]).mean())
        if diff < ALIKE_GREY:
            out.append(game.problem(("icons", b), f"the icons {a!r} and {b!r} look alike in greyscale (mean difference "
                                    f"{diff:.1f} of 255 grey levels): colour-blind players and greyscale printers "
                                    "cannot tell them apart",
                                    f"give one a different shape, or a label (e.g. `label: {b[:1]}`)",
                                    severity="warning", code="icons-alike"))
    return out
