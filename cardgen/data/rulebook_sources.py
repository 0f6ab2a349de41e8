"""The rulebook sources: which Markdown files make up a game's rules (``card_data/<game>/rules/*.md``).

Shared by the validator (:mod:`cardgen.check.deck_math`: an empty file is a warning) and the rulebook
(:mod:`cardgen.rulebook.markdown`); reading and rendering them is :mod:`cardgen.rulebook.context`.
"""
from __future__ import annotations

from pathlib import Path

#: Largest rules file (bytes as read, and characters after jinja2 rendering): a rulebook of
#: 100 pages is about 200 KB of text.
MAX_RULEBOOK_SOURCE_BYTES = 2_000_000


def rulebook_source_files(rules_dir: Path, root: Path | None = None) -> list[Path]:
    """The rules files of a game, in name order (``01-intro.md``, ``02-play.md``…). Hidden files
    are not rules: ``.draft.md`` and the AppleDouble ``._rules.md`` that macOS leaves on a USB
    stick or in a zip (binary, not text) are skipped by the build and the validator alike.

    The folder and every file must resolve (symlinks followed) inside ``root`` (default: the
    folder holding ``rules_dir``, i.e. the game folder; :func:`cardgen.core.boundary.confine`).

    Raises:
        CardgenError: the rules folder or a rules file leads outside the game folder, or a
            ``*.md`` is not a regular file.
    """
    from cardgen.core.boundary import confine  # lazy: +6 ms of imports here (measured)
    from cardgen.core.errors import rel  # lazy: +18 ms of imports here (measured)

    rules_dir = Path(rules_dir)
    root = Path(root) if root is not None else rules_dir.absolute().parent
    confine(rules_dir, [root], rel(rules_dir), None, "rulebook", what="the rules folder", regular=False)
    files = sorted(p for p in rules_dir.glob("*.md") if (p.is_file() or p.is_symlink()) and not p.name.startswith("."))
    for p in files:
        confine(p, [root], rel(p), None, "rulebook", what="the rules file")
    return files


def blank_rulebook_sources(rules_dir: Path) -> list[Path]:
    """The rules files of :func:`rulebook_source_files` holding nothing but whitespace (an empty
    ``x.md`` adds nothing to the rulebook: usually a file saved before the text was written). Files
    that cannot be read or decoded are left to :func:`cardgen.rulebook.context.read_rulebook_source`
    to report."""
    from cardgen.core.errors import CardgenError  # lazy: +21 ms of imports here (measured)

    out = []
    try:
        files = rulebook_source_files(rules_dir)
    except CardgenError:  # reported by the rulebook and the validator (rules_problems)
        return []
    for p in files:
        try:
            if p.stat().st_size <= MAX_RULEBOOK_SOURCE_BYTES and not p.read_bytes().decode("utf-8-sig").strip():
                out.append(p)
        except (OSError, UnicodeDecodeError):
            continue
    return out
