"""Where each font role's file is: ``fonts.yaml`` read, and a role's value resolved to a file.

A value is a file path (inside the game folder for a game's own fonts), or a name looked up in
the game folder's fonts, the project's ``fonts/`` folder, then the system font folders
(:mod:`cardgen.fonts.index`: file stem, or any family / full / PostScript name of the font's
``name`` table, in any language), or ``{file: path, index: N}`` for a face of a collection.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.core.boundary import confine
from cardgen.core.errors import CardgenError, Problem, ProblemList
from cardgen.fonts.index import (
    DISPLAY,
    FONT_SUFFIXES,
    Index,
    collection_size,
    inside,
    norm,
    system_font_dirs,
    system_index,
)

DEFAULT_ROLES: dict[str, str] = {
    "body": "IPAexGothic",
    "heading": "IPAexGothic",
    "serif": "IPAexMincho",
    "number": "IPAexGothic",
}


@dataclass
class Where:
    """Where a role's value was written, for messages: file, line, field path."""

    file: str
    line: int | None
    path: str


def read_config(cfg: Path, label: str, contain: Path | None = None) -> tuple[dict, dict[str, int]]:
    """fonts.yaml → (role → value, role → line). Missing file → built-in defaults. Read with the
    one capped YAML loader (:func:`cardgen.load.load_yaml`: size cap, no aliases or tags).

    ``contain``: the game folder when ``cfg`` is the game's own (a game that is its own project):
    the file, links followed, must then lie inside it (:func:`cardgen.core.boundary.confine`).

    Raises:
        CardgenError: ``path-escape`` (leads outside ``contain``; its content is never shown),
            ``not-a-file`` (a folder, pipe or device named fonts.yaml), or invalid YAML.
    """
    from cardgen.data.yaml_source import load_yaml  # lazy: +21 ms of imports here (measured)

    if contain is not None or cfg.exists():  # (exists: stat only, never opens a pipe)
        if contain is not None:  # named as in messages (``label``: relative to the working folder)
            cfg = confine(Path(label), [contain], label, None, "", what="the font settings file")
        else:  # the user's own file may link anywhere, but must be a file
            cfg = confine(cfg, [cfg.resolve().parent], label, None, "", what="the font settings file")
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


def lookup(role: str, value: Any, where: Where, base: Path, contain: Path | None,
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
        if cand.exists() and not cand.is_file():  # a pipe would block the font scan for ever
            return err(f"font file for role '{role}' is not a regular file: {name}",
                       "name a font file (not a folder, pipe or device)", "not-a-file")
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
            mean = f"; did you mean {DISPLAY.get(close[0], close[0])!r}?" if close else ""
            return err(f"font '{name}' for role '{role}' not found{mean}", hint)
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
