"""``cardgen diff``: resolve the two drafts (folders or a git revision), compare them, and
write diff.pdf atomically into ``OUT/<new game id>/``."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.core.errors import Problem, UsageError

DIFF_PDF = "diff.pdf"


@dataclass
class DiffResult:
    """The diff report (JSON-ready) and the files written."""

    data: dict[str, Any]
    files: list[Path] = field(default_factory=list)


def run_diff(old: Path | str, new: Path | str | None = None, rev: str | None = None,
             out_root: Path | str | None = "output", pdf: bool = True) -> DiffResult:
    """Compare ``old`` with ``new`` (two game folders), or ``old`` as committed at git revision
    ``rev`` with ``old`` as it is now. With ``pdf``, write ``out_root/<new game id>/diff.pdf``.

    Raises:
        UsageError: neither or both of ``new`` and ``rev``.
        CardgenError: a bad revision, a draft that cannot be read, fonts that cannot be loaded.
    """
    from cardgen.diff.compare import diff_games  # lazy: +230 ms of imports here (measured)
    from cardgen.diff.sources import game_at_revision  # lazy: +25 ms of imports here (measured)

    if (new is None) == (rev is None):
        raise UsageError(Problem("cardgen diff", None, "", "give two game folders (cardgen diff OLD NEW) or one folder and "
                                 "--rev (cardgen diff GAME_DIR --rev HEAD~1)",
                                 "--rev compares the folder as committed at that revision with the folder as it is now",
                                 code="diff-usage"))
    if rev is not None:
        with game_at_revision(old, rev) as then:
            gd = diff_games(then, old, f"{old}@{rev}", str(old))
            return _finish(gd, out_root, pdf)
    gd = diff_games(old, new, str(old), str(new))
    return _finish(gd, out_root, pdf)


def _finish(gd, out_root, pdf: bool) -> DiffResult:
    result = DiffResult(gd.data)
    if pdf and out_root is not None:
        from cardgen.core.atomic import AtomicOutput
        from cardgen.diff.pdf import write_diff_pdf

        out_dir = Path(out_root) / gd.data["new"]["game"]
        with AtomicOutput(out_dir) as out:
            write_diff_pdf(gd, out.path(DIFF_PDF))
        result.files.append(out_dir / DIFF_PDF)
    return result
