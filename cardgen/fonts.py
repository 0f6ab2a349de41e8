"""Fonts: roles → font files, reportlab registration, metrics (pt) and glyph coverage.

``fonts/fonts.yaml`` names a font per *role* (``body``, ``heading``, ``serif``, ``number``); a game
manifest may override roles. A name is looked up as a file path, then among the fonts in the
project's ``fonts/`` folder, then in the system font folders, by file stem or by any family /
full / PostScript name in the font's ``name`` table (any language: ``IPAexゴシック`` works).

Each font file is registered with reportlab once per process (reportlab subsets TrueType fonts
when it embeds them). CFF-outline ``.otf`` fonts, which reportlab cannot embed, are converted to
TrueType outlines once and cached in ``$XDG_CACHE_HOME/cardgen`` (``~/.cache/cardgen``).
All metrics are in points (pt).
"""
from __future__ import annotations

import difflib
import functools
import hashlib
import os
import struct
import tempfile
import threading
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import yaml
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont as RLTTFont

from .errors import CardgenError, Problem, ProblemList, rel

DEFAULT_ROLES: dict[str, str] = {
    "body": "IPAexGothic",
    "heading": "IPAexGothic",
    "serif": "IPAexMincho",
    "number": "IPAexGothic",
}
FONT_SUFFIXES = {".ttf", ".otf", ".ttc", ".otc"}
_CONVERTER_VERSION = b"cff2ttf-1"
_JAPANESE = (range(0x3041, 0x3097), range(0x30A1, 0x30FB), range(0x4E00, 0xA000))


def system_font_dirs() -> list[Path]:
    """The system folders searched for fonts, in order."""
    home = Path.home()
    return [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), home / ".fonts",
            home / ".local/share/fonts"]


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardgen"


def _norm(name: str) -> str:
    """Lookup key: NFKC, case-folded, without spaces, hyphens and underscores."""
    s = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in s if not (ch.isspace() or ch in "-_"))


# ---------------------------------------------------------------- name index (in memory)

@dataclass(frozen=True)
class _Hit:
    rank: int  # 0 file stem, 1 full/PostScript name, 2 family of a regular face, 3 other family
    path: Path
    index: int


_DISPLAY: dict[str, str] = {}  # lookup key → a name as written in a font, for hints
_REGULAR = {"regular", "book", "normal", "roman", "標準", "レギュラー"}


def _collection_size(path: Path) -> int:
    """Number of faces in a .ttc/.otc (1 for a single font). Raises OSError/ValueError."""
    with open(path, "rb") as fh:
        head = fh.read(12)
    if head[:4] != b"ttcf":
        return 1
    if len(head) < 12:
        raise ValueError("truncated collection header")
    return struct.unpack(">I", head[8:12])[0]


def _face_names(path: Path, index: int) -> dict[int, list[str]]:
    """name-table strings by name ID (1, 2, 4, 6, 16, 17), every language; reads only `name`."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(path), fontNumber=index, lazy=True)
    try:
        out: dict[int, list[str]] = {}
        for rec in font["name"].names:
            if rec.nameID in (1, 2, 4, 6, 16, 17):
                try:
                    out.setdefault(rec.nameID, []).append(rec.toUnicode())
                except (UnicodeDecodeError, ValueError):
                    continue
        return out
    finally:
        font.close()


def _index_files(files: list[Path]) -> dict[str, list[_Hit]]:
    index: dict[str, list[_Hit]] = {}

    def add(text: str, hit: _Hit) -> None:
        key = _norm(text)
        if key:
            index.setdefault(key, []).append(hit)
            _DISPLAY.setdefault(key, text)

    for path in files:
        add(path.stem, _Hit(0, path, 0))
        add(path.name, _Hit(0, path, 0))
        try:
            count = _collection_size(path)
            for i in range(count):
                names = _face_names(path, i)
                sub = {_norm(s) for s in names.get(2, []) + names.get(17, [])}
                regular = not sub or bool(sub & {_norm(r) for r in _REGULAR})
                for nid in (4, 6):
                    for s in names.get(nid, []):
                        add(s, _Hit(1, path, i))
                for nid in (1, 16):
                    for s in names.get(nid, []):
                        add(s, _Hit(2 if regular else 3, path, i))
        except Exception:  # an unreadable font only loses its names here; loading it reports
            continue
    return index


def _font_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    out = []
    for root, _dirs, names in os.walk(folder, followlinks=True):
        out += [Path(root) / n for n in names if Path(n).suffix.lower() in FONT_SUFFIXES]
    return sorted(out)


_SYSTEM_INDEX: dict[tuple[str, ...], tuple[dict[str, list[_Hit]], int]] = {}
_LOCK = threading.RLock()


def _system_index() -> tuple[dict[str, list[_Hit]], int]:
    dirs = tuple(str(d) for d in system_font_dirs())
    with _LOCK:
        if dirs not in _SYSTEM_INDEX:
            files = [f for d in dirs for f in _font_files(Path(d))]
            _SYSTEM_INDEX[dirs] = (_index_files(files), len(files))
        return _SYSTEM_INDEX[dirs]


def clear_caches() -> None:
    """Forget the in-memory system font index and cached widths (registrations stay)."""
    with _LOCK:
        _SYSTEM_INDEX.clear()
    _width.cache_clear()


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


def _sfnt_tag(path: Path, index: int) -> bytes:
    with open(path, "rb") as fh:
        tag = fh.read(4)
        if tag == b"ttcf":
            fh.seek(12 + 4 * index)
            (offset,) = struct.unpack(">I", fh.read(4))
            fh.seek(offset)
            tag = fh.read(4)
    return tag


def cff_to_truetype(src: Path, index: int = 0, cache_dir: Path | None = None) -> Path:
    """Convert a CFF-outline OpenType face to a TrueType-outline ``.ttf`` in the cache folder.

    The cached file name holds a hash of the source bytes, so a conversion is reused until the
    font changes. Curves are approximated with quadratics within 1 font unit. Raises whatever
    fontTools raises for a broken font (callers turn that into a CardgenError).
    """
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    data = src.read_bytes()
    digest = hashlib.sha256(_CONVERTER_VERSION + data).hexdigest()[:16]
    folder = cache_dir or _cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        folder = Path(tempfile.gettempdir()) / "cardgen-fonts"
        folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{src.stem}-{index}-{digest}.ttf"
    if out.is_file():
        return out

    font = TTFont(str(src), fontNumber=index)
    if "CFF " not in font:
        raise ValueError("no CFF table (CFF2 variable fonts are not supported)")
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for gname in order:
        pen = TTGlyphPen(None)
        glyph_set[gname].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf.glyphs[gname] = pen.glyph()
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    for tag in ("CFF ", "VORG"):
        if tag in font:
            del font[tag]
    hmtx = font["hmtx"]
    for gname in order:
        g = glyf.glyphs[gname]
        g.recalcBounds(glyf)
        adv, _lsb = hmtx[gname]
        hmtx[gname] = (adv, getattr(g, "xMin", 0) if g.numberOfContours else 0)
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for attr, val in (("maxZones", 1), ("maxTwilightPoints", 0), ("maxStorage", 0),
                      ("maxFunctionDefs", 0), ("maxInstructionDefs", 0), ("maxStackElements", 0),
                      ("maxSizeOfInstructions", 0), ("maxComponentElements", 0),
                      ("maxComponentDepth", 0), ("maxPoints", 0), ("maxContours", 0),
                      ("maxCompositePoints", 0), ("maxCompositeContours", 0)):
        setattr(maxp, attr, val)
    font["head"].glyphDataFormat = 0
    post = font["post"]
    if post.formatType not in (2.0, 3.0):
        post.formatType = 3.0
    font.sfntVersion = "\x00\x01\x00\x00"
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".ttf", dir=folder)
    os.close(fd)
    try:
        font.save(tmp)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return out


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
            raise ValueError(f"not a TrueType/OpenType font (starts with {tag!r})")
        rl = RLTTFont("_cardgen_tmp", str(embedded), subfontIndex=sub)
        ps = rl.face.name.decode("latin-1") if isinstance(rl.face.name, bytes) else str(rl.face.name)
        name = ps
        if name in _REGISTERED.values() or name in pdfmetrics.getRegisteredFontNames():
            name = f"{ps}-{hashlib.sha1(repr(key).encode()).hexdigest()[:8]}"
        rl.fontName = name
        pdfmetrics.registerFont(rl)
        _REGISTERED[key] = name
        return name, embedded


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

    def missing_chars(self, role: str, text: str) -> list[str]:
        """Characters of ``text`` the font has no glyph for, once each, in order of first use.
        Whitespace (spaces, tabs, newlines) and U+2060 (the no-break mark of
        :mod:`cardgen.layout.text`, never drawn) are ignored."""
        cmap = pdfmetrics.getFont(self.name(role)).face.charToGlyph
        out: list[str] = []
        for ch in text:
            if not ch.isspace() and ch != "\u2060" and ord(ch) not in cmap and ch not in out:
                out.append(ch)
        return out


# ---------------------------------------------------------------- loading

@dataclass
class _Where:
    file: str
    line: int | None
    path: str


def _read_config(cfg: Path, label: str) -> tuple[dict, dict[str, int]]:
    """fonts.yaml → (role → value, role → line). Missing file → built-in defaults."""
    if not cfg.is_file():
        return dict(DEFAULT_ROLES), {}
    try:
        text = cfg.read_text(encoding="utf-8-sig")
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise CardgenError(Problem(label, mark.line + 1 if mark else None, "",
                                   f"not valid YAML: {exc.problem}", code="yaml")) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CardgenError(Problem(label, None, "", f"cannot read: {exc}", code="unreadable")) from None
    if data is None:
        return dict(DEFAULT_ROLES), {}
    if not isinstance(data, dict):
        raise CardgenError(Problem(label, 1, "", "expected a mapping of role → font",
                                   "e.g. `body: IPAexGothic`", code="font-config"))
    lines = {}
    if isinstance(node, yaml.MappingNode):
        lines = {str(k.value): k.start_mark.line + 1 for k, _v in node.value}
    return {**DEFAULT_ROLES, **{str(k): v for k, v in data.items()}}, lines


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


_Index = tuple[dict, int, Path]  # (name index, file count, folder)


def _folder_index(folder: Path, contain: Path | None = None) -> _Index:
    files = [f for f in _font_files(folder) if contain is None or _inside(f, contain)]
    return _index_files(files), len(files), folder


def _lookup(role: str, value: Any, where: _Where, base: Path, contain: Path | None,
            indexes: list[_Index], problems: ProblemList) -> tuple[Path, int] | None:
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
        if contain is not None and not _inside(cand, contain):
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
        key = _norm(name)
        sidx, scount = _system_index()
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
                hint += ". Close names: " + ", ".join(_DISPLAY.get(c, c) for c in close)
            return err(f"font '{name}' for role '{role}' not found", hint)
    path, index = found
    if want_index is not None:
        try:
            count = _collection_size(path)
        except (OSError, ValueError) as exc:
            return err(f"font file for role '{role}' cannot be read: {path}: {exc}", code="font-unreadable")
        if want_index >= count:
            return err(f"font index {want_index} for role '{role}' is out of range: {path.name} "
                       f"has {count} face(s) (0–{count - 1})", code="font-config")
        index = want_index
    return path, index


def load_fontset(project_root: Path, overrides: dict | None = None, base_dir: Path | None = None,
                 *, manifest: str | Path | None = None,
                 override_lines: Mapping[str, int] | None = None) -> FontSet:
    """Read ``project_root/fonts/fonts.yaml``, apply ``overrides``, resolve and register every role.

    Args:
        project_root: the project folder (holds ``fonts/``).
        overrides: role → font from a game manifest (same value forms as fonts.yaml). Relative
            paths resolve against ``base_dir`` and must stay inside it; names are looked up in
            font files inside ``base_dir`` first, then ``fonts/``, then the system folders.
        base_dir: the game folder (default: ``project_root``).
        manifest: file named in problems about ``overrides`` (default ``base_dir/game.yaml``).
        override_lines: role → line number of that role in ``manifest``, for messages.

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
    cfg_label = rel(cfg, project_root)
    base = Path(base_dir) if base_dir is not None else project_root
    man_label = str(manifest) if manifest is not None else rel(base / "game.yaml", project_root)

    roles, lines = _read_config(cfg, cfg_label)
    where = {r: _Where(cfg_label, lines.get(r), r) for r in roles}
    sources = {r: (v, fonts_dir, None) for r, v in roles.items()}
    for r, v in (overrides or {}).items():
        r = str(r)
        sources[r] = (v, base, base)
        where[r] = _Where(man_label, (override_lines or {}).get(r), f"fonts → {r}")

    project_index = _folder_index(fonts_dir)
    game_index = _folder_index(base, base) if overrides and base.resolve() != fonts_dir.resolve() else None
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
            problems.error(w.file, w.line, w.path,
                           f"font file for role '{role}' is unreadable or not supported: {path}: {exc}",
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
