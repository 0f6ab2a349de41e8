"""The font name index: which font file (and face of a collection) a name refers to.

A name matches a file stem or file name, or any family / full / PostScript name of the font's
``name`` table in any language (``IPAexゴシック`` works), compared after NFKC, case folding and
dropping spaces, hyphens and underscores. The system folders are indexed once per process
(:func:`system_index`); project and game folders per :func:`folder_index` call. Only the
``name`` table is read (fontTools, imported lazily), once per font file: the names are kept in
an on-disk cache keyed by path, size and modification time (:data:`NAME_CACHE`).
"""
from __future__ import annotations

import json
import os
import struct
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from cardgen.core.disk_cache import stamp as file_stamp
from cardgen.core.regular_file import open_regular
from cardgen.fonts.library_log import reading
from cardgen.fonts.folders import FONT_SUFFIXES, is_regular, system_font_dirs  # noqa: F401 - re-exported


def norm(name: str) -> str:
    """Lookup key: NFKC, case-folded, without spaces, hyphens and underscores."""
    s = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in s if not (ch.isspace() or ch in "-_"))


@dataclass(frozen=True)
class Hit:
    """A font face a name matched; a lower ``rank`` is a better match."""

    rank: int  # 0 file stem, 1 full/PostScript name, 2 family of a regular face, 3 other family
    path: Path
    index: int


DISPLAY: dict[str, str] = {}  # lookup key → a name as written in a font, for hints
_REGULAR = {"regular", "book", "normal", "roman", "標準", "レギュラー"}


#: Most faces a .ttc/.otc may hold (real collections hold a few, at most some tens: Noto Sans CJK 10).
MAX_FACES = 256


def collection_size(path: Path) -> int:
    """Number of faces in a .ttc/.otc (1 for a single font). Raises OSError/ValueError (also for
    a named pipe, device or folder: never blocks, :func:`cardgen.fonts.folders.open_regular`; a
    header claiming more than :data:`MAX_FACES` faces, or more offsets than the file holds, each
    of which fontTools would read and warn about)."""
    with open_regular(path) as fh:
        head = fh.read(12)
        size = os.fstat(fh.fileno()).st_size
    if head[:4] != b"ttcf":
        return 1
    if len(head) < 12:
        raise ValueError("truncated collection header")
    count = struct.unpack(">I", head[8:12])[0]
    if count > MAX_FACES:
        raise ValueError(f"the collection's header claims {count:,} faces, more than the {MAX_FACES} a font "
                         "collection may hold")
    if 12 + 4 * count > size:
        raise ValueError(f"the collection's header claims {count:,} faces, more than the file has room for")
    return count


def _face_names(path: Path, index: int) -> dict[int, list[str]]:
    """name-table strings by name ID (1, 2, 4, 6, 16, 17), every language; reads only `name`
    (fontTools' warnings counted, not printed: :mod:`cardgen.fonts.library_log`)."""
    fh = open_regular(path)  # never blocks on a pipe swapped in after the scan
    with reading(path):
        return _names_of(fh, index)


def _names_of(fh, index: int) -> dict[int, list[str]]:
    from fontTools.ttLib import TTFont  # lazy: +26 ms of imports here (measured)

    font = TTFont(fh, fontNumber=index, lazy=True)
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
        fh.close()


#: The names read from each font file, kept on disk between runs (JSON, in the cache folder of
#: :mod:`cardgen.fonts.convert`): file path → [size, mtime ns, faces], faces a list of
#: {name ID: [strings]} per face, or null for a file that could not be read.
NAME_CACHE = "font-names-1.json"


def _cache_file() -> Path:
    from cardgen.core.disk_cache import cache_dir  # lazy: +5 ms of imports here (measured)
    return Path(cache_dir()) / NAME_CACHE


def _read_cache(path: Path) -> dict:
    """The name cache as stored, or {} when missing, unreadable, not in the expected shape or
    the cache is off (``CARDGEN_NO_CACHE``)."""
    from cardgen.core.disk_cache import enabled, read_regular  # lazy: +5 ms of imports here (measured)
    if not enabled():
        return {}
    raw = read_regular(path)  # a link, a pipe or a huge file in its place is not read
    try:
        data = json.loads(raw.decode("utf-8")) if raw is not None else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _write_cache(path: Path, data: dict) -> None:
    """Store the name cache (written whole, then renamed); an unwritable cache folder is ignored
    (no temporary file is left); nothing is written when the cache is off (``CARDGEN_NO_CACHE``).

    Written as ASCII JSON: a font path whose name is not valid UTF-8 (a byte Python keeps as a lone
    surrogate, ``caf\udce9.ttf``) is stored as a ``\udce9`` escape, which reads back as the same
    path (lossless), where UTF-8 text cannot hold it."""
    from cardgen.core.disk_cache import enabled  # lazy: +5 ms of imports here (measured)
    if not enabled():
        return
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        text = json.dumps(data, ensure_ascii=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(text.encode("ascii"))
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def _file_faces(path: Path, cache: dict, changed: list) -> list[dict[int, list[str]]] | None:
    """Names of every face of ``path`` (None: unreadable), from ``cache`` while the file's size,
    modification and change times and inode are those recorded, else read (fontTools) and recorded in ``cache``."""
    try:
        st = path.stat()
    except OSError:
        return None

    stamp = list(file_stamp(st))
    hit = cache.get(str(path))
    if isinstance(hit, list) and len(hit) == 2 and hit[0] == stamp:
        faces = hit[1]
        if faces is None:
            return None
        if isinstance(faces, list) and all(isinstance(f, dict) and all(
                k.isdigit() and isinstance(v, list) and all(isinstance(x, str) for x in v) for k, v in f.items())
                for f in faces):
            return [{int(k): v for k, v in f.items()} for f in faces]
    try:
        faces = [_face_names(path, i) for i in range(collection_size(path))]
    except (OSError, MemoryError):  # this run's trouble (no file descriptor left, a memory limit), not
        return None  # the font's: not recorded, so the cache does not keep it
    except Exception:  # an unreadable font only loses its names here; loading it reports
        faces = None
    cache[str(path)] = [stamp, faces]
    changed.append(path)
    return faces


def index_files(files: list[Path]) -> dict[str, list[Hit]]:
    """Name index of ``files``: :func:`norm` key → every face that name matches. A font that
    cannot be read is indexed by its file name only (loading it reports the error).

    The names of each file are read once and kept in the on-disk cache (:data:`NAME_CACHE`,
    keyed by path and stamp), so a later run reads no font it has seen."""
    index: dict[str, list[Hit]] = {}
    cache_path = _cache_file()
    cache = _read_cache(cache_path) if files else {}
    changed: list[Path] = []

    def add(text: str, hit: Hit) -> None:
        key = norm(text)
        if key:
            index.setdefault(key, []).append(hit)
            DISPLAY.setdefault(key, text)

    for path in files:
        add(path.stem, Hit(0, path, 0))
        add(path.name, Hit(0, path, 0))
        faces = _file_faces(path, cache, changed)
        for i, names in enumerate(faces or []):
            sub = {norm(s) for s in names.get(2, []) + names.get(17, [])}
            regular = not sub or bool(sub & {norm(r) for r in _REGULAR})
            for nid in (4, 6):
                for s in names.get(nid, []):
                    add(s, Hit(1, path, i))
            for nid in (1, 16):
                for s in names.get(nid, []):
                    add(s, Hit(2 if regular else 3, path, i))
    if changed:  # entries of files that are gone are dropped
        _write_cache(cache_path, {k: v for k, v in cache.items() if os.path.exists(k)})
    return index


def font_files(folder: Path) -> list[Path]:
    """Every font file (by suffix) below ``folder``, following links, sorted; ``[]`` if no folder.
    Only regular files: a named pipe, device or folder with a font's name is skipped (opening a
    pipe would block for ever)."""
    if not folder.is_dir():
        return []
    out = []
    for root, _dirs, names in os.walk(folder, followlinks=True):
        out += [Path(root) / n for n in names if Path(n).suffix.lower() in FONT_SUFFIXES]
    return sorted(p for p in out if is_regular(p))


_SYSTEM_INDEX: dict[tuple[str, ...], tuple[dict[str, list[Hit]], int]] = {}
_LOCK = threading.RLock()


def system_index() -> tuple[dict[str, list[Hit]], int]:
    """``(name index, file count)`` of the :func:`system_font_dirs`, built once per process."""
    dirs = tuple(str(d) for d in system_font_dirs())
    with _LOCK:
        if dirs not in _SYSTEM_INDEX:
            files = [f for d in dirs for f in font_files(Path(d))]
            _SYSTEM_INDEX[dirs] = (index_files(files), len(files))
        return _SYSTEM_INDEX[dirs]


def clear_system_index() -> None:
    """Forget the in-memory system font index (the next lookup walks the folders again)."""
    with _LOCK:
        _SYSTEM_INDEX.clear()


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` resolves (links followed) to a place inside ``folder``."""
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


Index = tuple[dict, int, Path]  # (name index, file count, folder)


def folder_index(folder: Path, contain: Path | None = None) -> Index:
    """``(name index, file count, folder)`` of the fonts below ``folder`` (only those that
    resolve inside ``contain`` when given: a game folder's link cannot reach outside it)."""
    files = [f for f in font_files(folder) if contain is None or inside(f, contain)]
    return index_files(files), len(files), folder
