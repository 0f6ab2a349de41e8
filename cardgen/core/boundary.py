"""The one boundary for files: which folders a game may read from, and where its project is.

A game folder is untrusted. Every file it names — card tables, card templates, the rules
folder and its files, images, fonts (its own ``fonts:`` and a ``fonts/fonts.yaml`` inside it),
the rulebook page design — is resolved once, symlinks included, by :func:`confine`, and must
lie inside the game folder or inside the trusted shared folders: the ``templates/`` and
``fonts/`` of the project root (the checkout cardgen runs from, the folder cardgen was started
in, or the one named with ``--project``). Configuration found in a folder *above* the game
folder is used only when that folder is such a project root (:func:`project_root`); anything
else above a game folder is ignored, so a folder sent with a game cannot pose as the project.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from cardgen.core.unicode_text import halfwidth, nfc

#: The project root named with ``--project`` (or ``CARDGEN_PROJECT``); see :func:`trusted_roots`.
_PROJECT: list[Path] = []


def set_project(path: Path | str | None) -> None:
    """Name the project root for this process (the CLI's ``--project``); None forgets it."""
    _PROJECT[:] = [Path(path).resolve()] if path else []


def checkout() -> Path | None:
    """The cardgen checkout this code runs from (the folder holding ``cardgen/`` and
    ``templates/``), or None for an installed package without one."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "templates").is_dir() else None


def trusted_roots() -> list[Path]:
    """Folders that may act as a project root above a game folder: ``--project`` (or the
    ``CARDGEN_PROJECT`` environment variable), the current folder, and the checkout."""
    roots = list(_PROJECT)
    env = os.environ.get("CARDGEN_PROJECT")
    if env:
        roots.append(Path(env).resolve())
    roots.append(Path.cwd().resolve())
    co = checkout()
    if co is not None:
        roots.append(co)
    return list(dict.fromkeys(roots))


def _is_project(p: Path) -> bool:
    return (p / "templates" / "cards").is_dir() or (p / "fonts").is_dir()


def project_root(game_dir: Path) -> Path:
    """The project root of ``game_dir`` (resolved): the game folder itself when it holds
    ``templates/cards`` and ``fonts/``; else the nearest folder above it that is a trusted root
    (:func:`trusted_roots`) holding ``templates/cards`` or ``fonts/`` and no ``game.yaml`` (never
    another game's folder); else the checkout; else the game folder. Never raises."""
    game_dir = Path(game_dir).resolve()
    if (game_dir / "templates" / "cards").is_dir() and (game_dir / "fonts").is_dir():
        return game_dir
    trusted = set(trusted_roots())
    for p in game_dir.parents:
        if p in trusted and _is_project(p) and not (p / "game.yaml").is_file():  # never another game's folder
            return p
    co = checkout()
    return co if co is not None else game_dir


def output_outside(game_dir: Path) -> Path:
    """The output root for a build run from inside the game folder ``game_dir`` (where the
    working folder's ``output/`` would be inside the game): ``output/`` of its project root when
    the game folder lies inside it (a checkout's ``card_data/<game>`` → ``<checkout>/output``, where
    a build from the checkout writes too), else ``output/`` beside the game folder. Never raises."""
    g = Path(game_dir).resolve()
    root = project_root(g)
    return (root if root != g and inside(g, root) else g.parent) / "output"


def default_output(game_dirs) -> Path:
    """The default output root (``--out`` not given) for ``game_dirs``: ``output`` in the working
    folder; or, when that would lie inside one of the game folders or hold one,
    :func:`output_outside` of that game (relative to the working folder). Never raises."""
    out = Path("output")
    here = out.resolve()
    for d in game_dirs:
        g = Path(d).resolve()
        if inside(here, g) or inside(g, here):
            return Path(os.path.relpath(output_outside(g)))
    return out


def shared_dirs(root: Path, game_dir: Path) -> list[Path]:
    """The trusted shared folders a game's files may also lie in: ``templates/`` and ``fonts/``
    of the project root when it is not the game folder itself, and of the checkout."""
    root, game_dir = Path(root).resolve(), Path(game_dir).resolve()
    roots = [r for r in (root, checkout()) if r is not None and r != game_dir]
    return [r / sub for r in dict.fromkeys(roots) for sub in ("templates", "fonts") if (r / sub).is_dir()]


def inside(path: Path, folder: Path) -> bool:
    """Whether the resolved ``path`` lies in the resolved ``folder``."""
    try:
        Path(path).relative_to(Path(folder).resolve())
        return True
    except ValueError:
        return False


def on_disk(path: Path | str) -> Path:
    """``path`` as it is spelt on disk when it exists only under another Unicode form of its
    name: macOS writes ポ decomposed (ホ + U+309A, NFD), a card table or keyboard gives it
    composed (NFC), and the two are different names to Linux. Each missing part is matched
    against its folder's entries by NFC; ``path`` itself when it exists or nothing matches."""
    p = Path(path)
    if p.as_posix().isascii() or p.exists() or p.is_symlink():
        return p
    current = Path(p.anchor) if p.is_absolute() else Path(".")
    for part in p.parts[1:] if p.is_absolute() else p.parts:
        step = current / part
        if not (step.exists() or step.is_symlink()):
            want = nfc(part)
            try:
                match = sorted(n for n in os.listdir(current or ".") if nfc(n) == want)
            except OSError:
                return p
            if not match:
                return p
            step = current / match[0]
        current = step
    return current


def spelt_otherwise(path: Path | str) -> Path | None:
    """The file ``path`` names as it is spelt on disk when the name as written is missing but one
    differing only in letter case (``art/natsu3.png`` for ``art/Natsu3.png``: one name on macOS
    and Windows, two on Linux and in a zip), Unicode form or full-width letters is there, part by
    part; None when ``path`` exists or nothing is that close."""
    p = Path(path)
    if p.exists() or p.is_symlink():
        return None
    current = Path(p.anchor) if p.is_absolute() else Path(".")
    for part in p.parts[1:] if p.is_absolute() else p.parts:
        step = current / part
        if not (step.exists() or step.is_symlink()):
            want = halfwidth(nfc(part)).casefold()
            try:
                match = sorted(n for n in os.listdir(current) if halfwidth(nfc(n)).casefold() == want)
            except OSError:
                return None
            if not match:
                return None
            step = current / match[0]
        current = step
    return current if current.is_file() else None


def confine(path: Path | str, roots: list[Path], file: str, line: int | None, field: str, *,
            what: str = "the file", regular: bool = True) -> Path:
    """``path`` resolved once (symlinks followed), refused unless it lies in one of ``roots``.

    Args:
        roots: the allowed folders (the game folder, :func:`shared_dirs`).
        file, line, field: where the path was named, for the message.
        regular: also refuse anything but a regular file that exists (a FIFO, a device, a folder).

    Returns:
        the resolved path, also when nothing is there (the caller says the file is missing); a
        name found only in another Unicode form (NFC/NFD) is the one on disk (:func:`on_disk`).

    Raises:
        CardgenError: ``path-escape`` (outside every root; the message names only the path as
            written, never the content of what it points to) or ``not-a-file``.
    """
    from cardgen.core.errors import CardgenError, Problem  # lazy: +16 ms of imports here (measured)

    raw = on_disk(path)
    try:
        resolved = raw.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        raise CardgenError(Problem(file, line, field, f"{what} {str(raw)!r} cannot be resolved (a link loop?)",
                                   "name a plain file inside the game folder", code="path-escape"))
    if not any(inside(resolved, r) for r in roots):
        raise CardgenError(Problem(file, line, field, f"{what} {str(path)!r} leads outside the game folder",
                                   "copy the file into the game folder (links and paths that leave it are "
                                   "refused; docs/security.md)", code="path-escape"))
    if regular:
        try:
            mode = resolved.stat().st_mode
        except OSError:
            return resolved
        if not stat.S_ISREG(mode):
            raise CardgenError(Problem(file, line, field, f"{what} {str(path)!r} is not a regular file",
                                       "name a file (not a folder, pipe or device)", code="not-a-file"))
    return resolved
