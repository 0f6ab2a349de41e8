"""Fonts: roles → font files, reportlab registration, metrics (pt) and glyph coverage.

``fonts/fonts.yaml`` names a font per *role* (``body``, ``heading``, ``serif``, ``number``); a game
manifest may override roles. A name is looked up as a file path, then among the fonts in the
project's ``fonts/`` folder, then in the system font folders (:mod:`cardgen.fonts.index`: file
stem, or any family / full / PostScript name of the font's ``name`` table, in any language).

Each font file is registered with reportlab once per process (reportlab subsets TrueType fonts
when it embeds them). CFF-outline ``.otf`` fonts, which reportlab cannot embed, are converted to
TrueType outlines once and cached on disk (:mod:`cardgen.fonts.convert`).
All metrics are in points (pt).
"""
from __future__ import annotations

import difflib
import functools
import os
import hashlib
import struct
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont as RLTTFont

from cardgen.core.errors import CardgenError, Problem, ProblemList, rel
from cardgen.data.game import Game
from cardgen.data.project import Project
from cardgen.fonts.convert import cff_to_truetype
from cardgen.fonts.variations import prepare as prepare_text
from cardgen.fonts.index import (DISPLAY, FONT_SUFFIXES, Index, clear_system_index, collection_size, folder_index,
                                 inside, norm, system_font_dirs, system_index)

DEFAULT_ROLES: dict[str, str] = {
    "body": "IPAexGothic",
    "heading": "IPAexGothic",
    "serif": "IPAexMincho",
    "number": "IPAexGothic",
}
_JAPANESE = (range(0x3041, 0x3097), range(0x30A1, 0x30FB), range(0x4E00, 0xA000))


# ---------------------------------------------------------------- registration

@dataclass(frozen=True)
class FontFace:
    """One resolved role: ``source`` is the file named/found, ``embedded`` the file registered
    (a converted TrueType copy for CFF fonts), ``name`` the reportlab font name."""

    role: str
    source: Path
    index: int
    name: str
    embedded: Path


_REGISTERED: dict[tuple[str, int], str] = {}  # (real path, face index) → reportlab name
_LOCK = threading.RLock()
# A process forked while another thread registers a font (the live preview forks a rebuild from
# one thread while another may be loading fonts) would inherit the lock held for ever: forks wait
# for it, and both sides let go of it after.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_LOCK.acquire, after_in_parent=_LOCK.release, after_in_child=_LOCK.release)


def clear_caches() -> None:
    """Forget the in-memory system font index and cached widths (registrations stay)."""
    clear_system_index()
    _width.cache_clear()
    _missing.cache_clear()


def _sfnt_tag(path: Path, index: int) -> bytes:
    with open(path, "rb") as fh:
        tag = fh.read(4)
        if tag == b"ttcf":
            fh.seek(12 + 4 * index)
            (offset,) = struct.unpack(">I", fh.read(4))
            fh.seek(offset)
            tag = fh.read(4)
    return tag


def _register(source: Path, index: int) -> tuple[str, Path]:
    """Register one face with reportlab (no-op when already registered); → (name, file used)."""
    key = (str(source.resolve()), index)
    with _LOCK:
        if key in _REGISTERED:
            name = _REGISTERED[key]
            return name, Path(pdfmetrics.getFont(name).face.filename)
        tag = _sfnt_tag(source, index)
        if tag in (b"wOFF", b"wOF2"):
            raise ValueError("a web font (WOFF); convert it to .ttf or .otf first")
        if tag == b"OTTO":
            embedded, sub = cff_to_truetype(source, index), 0
        elif tag in (b"\x00\x01\x00\x00", b"true"):
            embedded, sub = source, index
        else:
            raise ValueError("not a TrueType/OpenType font")
        rl = RLTTFont("_cardgen_tmp", str(embedded), subfontIndex=sub)
        ps = rl.face.name.decode("latin-1") if isinstance(rl.face.name, bytes) else str(rl.face.name)
        name = ps
        if name in _REGISTERED.values() or name in pdfmetrics.getRegisteredFontNames():
            name = f"{ps}-{hashlib.sha1(repr(key).encode()).hexdigest()[:8]}"
        rl.fontName = name
        pdfmetrics.registerFont(rl)
        _REGISTERED[key] = name
        return name, embedded


def preload(source: Path | str, index: int = 0) -> None:
    """Register the face ``index`` of font file ``source`` with reportlab now (a no-op when it
    already is), so processes forked later find it parsed. Raises ValueError for a file that is
    not a TrueType/OpenType font, OSError when it cannot be read."""
    _register(Path(source), index)


@functools.lru_cache(maxsize=65536)
def _width(text: str, font_name: str, size_pt: float) -> float:
    return pdfmetrics.stringWidth(text, font_name, size_pt)


# ---------------------------------------------------------------- FontSet

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


@functools.lru_cache(maxsize=65536)
def _missing(font_name: str, text: str) -> tuple[str, ...]:
    """:meth:`FontSet.missing_chars` of the registered font ``font_name`` (a registered name
    always means the same face, so the answer can be kept)."""
    cmap = pdfmetrics.getFont(font_name).face.charToGlyph
    return tuple(ch for ch in dict.fromkeys(text) if not ch.isspace() and ch != "\u2060" and ord(ch) not in cmap)


# ---------------------------------------------------------------- loading

@dataclass
class _Where:
    file: str
    line: int | None
    path: str


def _read_config(cfg: Path, label: str) -> tuple[dict, dict[str, int]]:
    """fonts.yaml → (role → value, role → line). Missing file → built-in defaults. Read with the
    one capped YAML loader (:func:`cardgen.load.load_yaml`: size cap, no aliases or tags)."""
    from cardgen.data.yaml_source import load_yaml

    if not cfg.is_file():
        return dict(DEFAULT_ROLES), {}
    loaded = load_yaml(cfg, label)
    data = loaded.data
    if data is None or data == {}:
        return dict(DEFAULT_ROLES), {}
    if not isinstance(data, dict):
        raise CardgenError(Problem(label, 1, "", "expected a mapping of role → font",
                                   "e.g. `body: IPAexGothic`", code="font-config"))
    lines = {str(k): loaded.source.lines.get((k,), 1) for k in data}
    return {**DEFAULT_ROLES, **{str(k): v for k, v in data.items()}}, lines


def _lookup(role: str, value: Any, where: _Where, base: Path, contain: Path | None,
            indexes: list[Index], problems: ProblemList) -> tuple[Path, int] | None:
    """Resolve one role value to (file, face index), adding an error to ``problems`` if not.

    ``indexes`` are the local folders searched by name before the system folders."""
    def err(msg: str, hint: str = "", code: str = "font-not-found") -> None:
        problems.error(where.file, where.line, where.path, msg, hint, code)

    want_index: int | None = None
    if isinstance(value, dict):
        extra = set(value) - {"file", "index"}
        if extra or not isinstance(value.get("file"), str):
            return err(f"font for role '{role}' must be a name or {{file: path, index: N}}"
                       + (f"; unknown key(s) {', '.join(sorted(map(str, extra)))}" if extra else ""),
                       "e.g. `{file: MyFonts.ttc, index: 1}`", "font-config")
        want_index = value.get("index", None)
        if want_index is not None and (not isinstance(want_index, int) or isinstance(want_index, bool)
                                       or want_index < 0):
            return err(f"font index for role '{role}' must be a whole number ≥ 0, not {want_index!r}",
                       code="font-config")
        name, pathlike = value["file"], True
    elif isinstance(value, str) and value.strip():
        name = value.strip()
        pathlike = "/" in name or "\\" in name or Path(name).suffix.lower() in FONT_SUFFIXES
    else:
        return err(f"font for role '{role}' must be a name or {{file: path, index: N}}, not {value!r}",
                   "e.g. `body: IPAexGothic`", "font-config")

    searched: list[str] = []
    found: tuple[Path, int] | None = None
    if pathlike:
        cand = Path(name).expanduser()
        cand = cand if cand.is_absolute() else base / cand
        if contain is not None and not inside(cand, contain):
            return err(f"font file for role '{role}' is outside the game folder: {name}",
                       f"put the font inside {contain} (or in the project's fonts/ folder and "
                       "name it by family name)", "font-path-escape")
        searched.append(str(cand))
        if cand.is_file():
            found = (cand, 0)
        elif "/" in name or "\\" in name:
            return err(f"font file for role '{role}' not found: {name}",
                       f"looked for {cand}", "font-not-found")
    if found is None:
        key = norm(name)
        sidx, scount = system_index()
        searched += [f"{count} font file(s) in {folder}" for _i, count, folder in indexes]
        searched.append(f"{scount} font file(s) in " + ", ".join(map(str, system_font_dirs())))
        all_idx = [i for i, _c, _f in indexes] + [sidx]
        for idx in all_idx:
            hits = sorted(idx.get(key, []), key=lambda h: (h.rank, str(h.path), h.index))
            if hits:
                found = (hits[0].path, hits[0].index)
                break
        if found is None:
            close = difflib.get_close_matches(key, [k for i in all_idx for k in i], n=3, cutoff=0.75)
            hint = ("searched: " + "; ".join(searched) + ". Name a font by family name "
                    f"(e.g. IPAexGothic), file name, or a file path relative to {base} "
                    "(collections: {file: My.ttc, index: 0})")
            if close:
                hint += ". Close names: " + ", ".join(DISPLAY.get(c, c) for c in close)
            return err(f"font '{name}' for role '{role}' not found", hint)
    path, index = found
    if want_index is not None:
        try:
            count = collection_size(path)
        except (OSError, ValueError) as exc:
            return err(f"font file for role '{role}' cannot be read: {path}: {exc}", code="font-unreadable")
        if want_index >= count:
            return err(f"font index {want_index} for role '{role}' is out of range: {path.name} "
                       f"has {count} face(s) (0–{count - 1})", code="font-config")
        index = want_index
    return path, index


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

    roles, lines = _read_config(cfg, cfg_label)
    where = {r: _Where(cfg_label, lines.get(r), r) for r in roles}
    config_contain = None if trusted_config else project_root
    sources = {r: (v, fonts_dir, config_contain) for r, v in roles.items()}
    for r, v in (overrides or {}).items():
        r = str(r)
        sources[r] = (v, base, base)
        where[r] = _Where(man_label, (override_lines or {}).get(r), f"fonts → {r}")

    project_index = folder_index(fonts_dir, config_contain)
    game_index = folder_index(base, base) if overrides and base.resolve() != fonts_dir.resolve() else None
    problems = ProblemList()
    faces: dict[str, FontFace] = {}
    for role, (value, search_base, contain) in sources.items():
        indexes = [project_index] if contain is None or game_index is None else [game_index, project_index]
        found = _lookup(role, value, where[role], search_base, contain, indexes, problems)
        if found is None:
            continue
        path, index = found
        try:
            name, embedded = _register(path, index)
        except Exception as exc:  # reportlab TTFError, fontTools errors, struct/OS errors
            w = where[role]
            why = str(exc) if type(exc) is ValueError else "not a font file cardgen can read"  # never its bytes
            problems.error(w.file, w.line, w.path,
                           f"font file for role '{role}' is unreadable or not supported: {rel(path)}: {why}",
                           "use a .ttf, .ttc or .otf file that allows embedding", "font-unreadable")
            continue
        faces[role] = FontFace(role, path, index, name, embedded)
    problems.raise_if_errors()

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
