"""Which outputs a set of changed files affects: the pure decision behind ``cardgen watch`` and
``cardgen serve`` (:func:`steps_for`), and the folders they watch (:func:`watch_paths`)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

#: Font files a role may name (fonts/ folders).
FONT_SUFFIXES = {".ttf", ".otf", ".ttc", ".otc"}
#: Card table files (CSV text and spreadsheets, see cardgen.spreadsheet).
TABLE_SUFFIXES = {".csv", ".tsv", ".xlsx", ".xlsm", ".xls", ".ods"}
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".gif", ".tif", ".tiff"}


def ignored(p: Path) -> bool:
    """Editor and tool leftovers: hidden, backup, swap and lock files, and a file without a
    suffix that is already gone (the temporary file `sed -i` and many editors write, then rename)."""
    name = p.name
    return (name.startswith(".") or name.endswith("~") or name.endswith((".swp", ".swx", ".tmp"))
            or name.startswith(("~$", ".~lock")) or "__pycache__" in p.parts
            or (not p.suffix and not p.exists()))


def _under(p: Path, folder: Path) -> bool:
    try:
        p.relative_to(folder)
        return True
    except ValueError:
        return False


def steps_for(changed: Iterable[Path | str], game_dir: Path, project_root: Path, out_root: Path | None = None) -> set[str]:
    """The build steps to redo for ``changed`` paths: a subset of ``{"sheets", "rulebook"}``,
    plus ``"validate"`` whenever anything relevant changed; empty when nothing relevant did.

    - the manifest (game.yaml) or a card table (*.csv, *.tsv, a spreadsheet in the game folder):
      validate, sheets, rulebook
      (the rulebook quotes the data);
    - a card template (templates/cards/), an image in the game folder: sheets and rulebook (the
      rulebook's card figures are drawn from the same face plans);
    - rules/*.md, templates/rulebook/: rulebook;
    - fonts (fonts/*.yaml or a font file): sheets and rulebook;
    - editor swap/backup files, hidden files, anything under the output folder: nothing.
    """
    game_dir, project_root = Path(game_dir).resolve(), Path(project_root).resolve()
    out_root = Path(out_root).resolve() if out_root is not None else None
    steps: set[str] = set()
    for raw in changed:
        p = Path(raw).resolve()
        if ignored(p) or (out_root is not None and _under(p, out_root)):
            continue
        parts = set(p.parts)
        suffix = p.suffix.lower()
        if p == game_dir / "game.yaml" or (suffix in TABLE_SUFFIXES and _under(p, game_dir)):
            steps |= {"sheets", "rulebook"}
        elif "fonts" in parts and (suffix in FONT_SUFFIXES or suffix in {".yaml", ".yml"}):
            steps |= {"sheets", "rulebook"}
        elif "templates" in parts and "cards" in parts and suffix in {".yaml", ".yml"}:
            steps |= {"sheets", "rulebook"}
        elif ("templates" in parts and "rulebook" in parts) or ("rules" in parts and _under(p, game_dir)):
            steps.add("rulebook")
        elif suffix in IMAGE_SUFFIXES and _under(p, game_dir):
            steps |= {"sheets", "rulebook"}
    if steps:
        steps.add("validate")
    return steps


def watch_paths(game_dir: Path, project_root: Path) -> list[Path]:
    """Folders to watch: the game folder and the project's templates/ and fonts/ (those that exist)."""
    paths = [Path(game_dir).resolve()]
    for sub in ("templates", "fonts"):
        d = Path(project_root).resolve() / sub
        if d.is_dir() and not _under(d, paths[0]):
            paths.append(d)
    return paths
