"""Fonts: roles → font files, metrics (pt) and glyph coverage (:class:`FontSet`).

``fonts/fonts.yaml`` names a font per *role* (``body``, ``heading``, ``serif``, ``number``); a game
manifest may override roles. Each value is resolved to a file by :mod:`cardgen.fonts.lookup`
(a file path, then the project's ``fonts/`` folder, then the system font folders) and registered
with reportlab once per process by :mod:`cardgen.fonts.registration` (reportlab subsets
TrueType fonts when it embeds them). All metrics are in points (pt).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from reportlab.pdfbase import pdfmetrics

from cardgen.core.boundary import inside
from cardgen.core.errors import CardgenError, Problem, ProblemList, rel
from cardgen.data.project import Project
from cardgen.fonts.index import clear_system_index, folder_index
from cardgen.fonts.library_log import library_warnings
from cardgen.fonts.licence import embedding_restriction
from cardgen.fonts.lookup import DEFAULT_ROLES, Where, lookup, read_config
from cardgen.fonts.registration import FontFace, preload, register  # preload: re-exported (__all__)
from cardgen.fonts.variations import prepare as prepare_text
from cardgen.fonts.vertical_forms import forms as vertical_forms

if TYPE_CHECKING:
    from cardgen.data.game import Game

__all__ = ["DEFAULT_ROLES", "FontFace", "FontSet", "clear_caches", "fonts_for", "load_fontset", "preload"]

_JAPANESE = (range(0x3041, 0x3097), range(0x30A1, 0x30FB), range(0x4E00, 0xA000))


def clear_caches() -> None:
    """Forget the in-memory system font index and cached widths (registrations stay)."""
    clear_system_index()
    _width.cache_clear()
    _missing.cache_clear()


@functools.lru_cache(maxsize=65536)
def _width(text: str, font_name: str, size_pt: float) -> float:
    return pdfmetrics.stringWidth(text, font_name, size_pt)


#: ``pdfmetrics.stringWidth(text, font_name, size_pt)`` of a registered font, kept (a registered
#: name always means the same face in this process; :func:`clear_caches` forgets them).
string_width = _width


@dataclass
class FontSet:
    """Resolved fonts per role. Unknown roles fall back to ``body``.

    ``problems`` holds warnings found while loading (e.g. a ``body`` font without Japanese glyphs).
    """

    faces: dict[str, FontFace]
    problems: list[Problem] = field(default_factory=list)

    def _face(self, role: str) -> FontFace:
        return self.faces.get(role) or self.faces["body"]

    def roles(self) -> list[str]:
        """The configured role names (``body`` first)."""
        return sorted(self.faces, key=lambda r: (r != "body", r))

    def name(self, role: str) -> str:
        """The reportlab-registered font name for ``role`` (use with ``canvas.setFont``)."""
        return self._face(role).name

    def path(self, role: str) -> Path:
        """The font file for ``role`` as found (not the converted cache copy)."""
        return self._face(role).source

    def width(self, text: str, role: str, size_pt: float) -> float:
        """Advance width of ``text`` set in ``role`` at ``size_pt``, in pt (no kerning). Cached."""
        return _width(text, self._face(role).name, float(size_pt))

    def width_key(self) -> tuple[tuple[str, str], ...]:
        """Everything :meth:`width` depends on: each role's registered font name (a registered name
        always means the same face in this process). Two font sets with equal keys measure alike
        (an edition that keeps the default edition's fonts), so the layout's memos
        (:func:`cardgen.layout.text.measure_key`) serve both."""
        return tuple(sorted((role, face.name) for role, face in self.faces.items()))

    def ascent(self, role: str, size_pt: float) -> float:
        """Ascent above the baseline in pt (positive), from the font's OS/2 typo metrics."""
        return pdfmetrics.getFont(self.name(role)).face.ascent * size_pt / 1000.0

    def descent(self, role: str, size_pt: float) -> float:
        """Descent in pt, **negative** (below the baseline), as reportlab reports it."""
        return pdfmetrics.getFont(self.name(role)).face.descent * size_pt / 1000.0

    def prepare(self, role: str, text: str) -> str:
        """``text`` as the ``role`` font draws it (:func:`cardgen.fonts.variations.prepare`): NFC,
        variation sequences the font has kept, other invisible characters dropped."""
        return prepare_text(text, self.name(role))

    def missing_chars(self, role: str, text: str) -> list[str]:
        """Characters of ``text`` the font has no glyph for, once each, in order of first use.
        Whitespace (spaces, tabs, newlines) and U+2060 (the no-break mark of
        :mod:`cardgen.layout.text`, never drawn) are ignored. Cached by font and text."""
        return list(_missing(self.name(role), text))

    def without_vertical_form(self, role: str, chars) -> list[str]:
        """The characters of ``chars`` the ``role`` font draws but has no vertical form for
        (``vert``/``vrt2``, :mod:`cardgen.fonts.vertical_forms`), once each, in order."""
        name = self.name(role)
        cmap = pdfmetrics.getFont(name).face.charToGlyph
        vf = vertical_forms(name)
        return [ch for ch in dict.fromkeys(chars) if ord(ch) in cmap and not vf.has_form(ch)]


@functools.lru_cache(maxsize=65536)
def _missing(font_name: str, text: str) -> tuple[str, ...]:
    """:meth:`FontSet.missing_chars` of the registered font ``font_name`` (a registered name
    always means the same face, so the answer can be kept)."""
    cmap = pdfmetrics.getFont(font_name).face.charToGlyph
    return tuple(ch for ch in dict.fromkeys(text) if not ch.isspace() and ch != "\u2060" and ord(ch) not in cmap)


def load_fontset(project_root: Path, overrides: dict | None = None, base_dir: Path | None = None,
                 *, manifest: str | Path | None = None,
                 override_lines: Mapping[str, int] | None = None, trusted_config: bool = True) -> FontSet:
    """Read ``project_root/fonts/fonts.yaml``, apply ``overrides``, resolve and register every role.

    Args:
        project_root: the project folder (holds ``fonts/``).
        overrides: role → font from a game manifest (same value forms as fonts.yaml). Relative
            paths resolve against ``base_dir`` and must stay inside it; names are looked up in
            font files inside ``base_dir`` first, then ``fonts/``, then the system folders.
        base_dir: the game folder (default: ``project_root``).
        manifest: file named in problems about ``overrides`` (default ``base_dir/game.yaml``).
        override_lines: role → line number of that role in ``manifest``, for messages.
        trusted_config: False when ``project_root`` is the game folder itself (its
            ``fonts/fonts.yaml`` is then the game's, and its paths must stay inside the folder).

    Returns:
        a :class:`FontSet`; its ``problems`` lists warnings (e.g. ``body`` has no Japanese glyphs).

    Raises:
        CardgenError: with one Problem per failing role — font not found (the hint lists what
        was searched), a path leaving ``base_dir``, a bad index, an unreadable/corrupt font
        file, or invalid ``fonts.yaml``.
    """
    project_root = Path(project_root)
    fonts_dir = project_root / "fonts"
    cfg = fonts_dir / "fonts.yaml"
    cfg_label = rel(cfg, project_root) if trusted_config else rel(cfg)
    base = Path(base_dir) if base_dir is not None else project_root
    man_label = str(manifest) if manifest is not None else rel(base / "game.yaml", project_root)

    config_contain = None if trusted_config else project_root
    roles, lines = read_config(cfg, cfg_label, config_contain)
    where = {r: Where(cfg_label, lines.get(r), r) for r in roles}
    sources = {r: (v, fonts_dir, config_contain) for r, v in roles.items()}
    for r, v in (overrides or {}).items():
        r = str(r)
        sources[r] = (v, base, base)
        where[r] = Where(man_label, (override_lines or {}).get(r), f"fonts → {r}")

    project_index = folder_index(fonts_dir, config_contain)
    game_index = folder_index(base, base) if overrides and base.resolve() != fonts_dir.resolve() else None
    problems = ProblemList()
    faces: dict[str, FontFace] = {}
    for role, (value, search_base, contain) in sources.items():
        indexes = [project_index] if contain is None or game_index is None else [game_index, project_index]
        found = lookup(role, value, where[role], search_base, contain, indexes, problems)
        if found is None:
            continue
        path, index = found
        try:
            name, embedded = register(path, index)
        except Exception as exc:  # reportlab TTFError, fontTools errors, struct/OS errors
            w = where[role]
            why = str(exc) if type(exc) is ValueError else "not a font file cardgen can read"  # never its bytes
            problems.error(w.file, w.line, w.path,
                           f"font file for role '{role}' is unreadable or not supported: {rel(path)}: {why}",
                           "use a .ttf, .ttc or .otf file that allows embedding", "font-unreadable")
            continue
        faces[role] = FontFace(role, path, index, name, embedded)
    for role, face in faces.items():  # the shop step makes these errors for shop outputs (steps/shop.py)
        why = embedding_restriction(face.source, face.index)
        if why:
            w = where[role]
            problems.warning(w.file, w.line, w.path, f"font for role '{role}' ({face.source.name}) {why}; cardgen "
                             "embeds a subset of it in every PDF", "check the font's licence allows embedding, or "
                             "use a font that does (e.g. IPAexGothic)", "font-licence")
    used = {str(f.source) for f in faces.values()}
    logged = [Problem(rel(Path(path)), None, "fonts", f"the font library reported {count:,} problem(s) while reading "
                      f"this font, the first: {first}", "the file may be damaged: download or export it again",
                      severity="warning", code="font-library-warnings")
              for path, count, first in library_warnings() if path in used or inside(Path(path), base)]
    if problems.errors:
        raise CardgenError(problems.errors + logged)
    for p in logged:
        problems.add(p)

    body = faces["body"]
    cmap = pdfmetrics.getFont(body.name).face.charToGlyph
    if not any(c in cmap for rng in _JAPANESE for c in rng):
        w = where["body"]
        problems.warning(w.file, w.line, w.path,
                         f"font for role 'body' ({body.source.name}) has no Japanese glyphs",
                         "Japanese text will not show; use e.g. IPAexGothic", "font-no-japanese")
    return FontSet(faces, problems.warnings)


def fonts_for(game: Game) -> FontSet:
    """The game's font set: fonts/fonts.yaml of the project, with the manifest's overrides.
    Raises CardgenError (see :func:`load_fontset`) naming the manifest line."""
    project = Project.for_game(game.root)
    lines = {role: game.line("fonts", role) for role in game.manifest.fonts}
    return load_fontset(project.root, dict(game.manifest.fonts) or None, game.root,
                        manifest=game.manifest_file, override_lines=lines, trusted_config=project.trusted_config)
