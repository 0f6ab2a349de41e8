"""The output folder holds exactly what the last build wrote.

cardgen records, per step, the files it wrote into a game's output folder in a small manifest,
``.cardgen-written.json`` (``{"version": 1, "steps": {"png": ["cards/…png", …], …}}``, paths
relative to the folder, ``/``-separated). When a step runs again, the files it wrote last time
and did not write this time are removed (a renamed card id leaves no old PNG; a changed back no
stale back PNG), then the manifest is rewritten. Steps that did not run keep their entries and
their files (``cardgen png`` leaves print-sheets.pdf alone).

A step's files are recorded by *kind*: the files an option adds (``--booklet``'s
rulebook-booklet.pdf, ``png --sides back|both``'s ``…-back.png``) are their own kind, pruned only
by a run of that step that asked for them again, so a plain build or ``cardgen watch`` keeps the
booklet and the back PNGs an earlier command wrote on purpose (:func:`kind_of`).

A file cardgen never recorded is never touched: a file the user put in the folder survives, and
so does anything a manifest names outside the folder (``..``, absolute paths) or a path that is
now a symlink. Folders cardgen emptied (``cards/``, ``tts/``, ``shop/``) are removed when empty.
"""
from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath

MANIFEST = ".cardgen-written.json"


def read_written(out_dir: Path) -> dict[str, list[str]]:
    """The per-step file lists of the last build in ``out_dir`` ({} when there is none or it
    cannot be read: then nothing is removed)."""
    try:
        data = json.loads((Path(out_dir) / MANIFEST).read_text(encoding="utf-8"))
        steps = data["steps"]
        return {str(k): [str(p) for p in v] for k, v in steps.items() if isinstance(v, list)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


#: The kinds of file an option of a step adds (step → (kind, test of the relative path)).
OPTIONAL_KINDS = {"rulebook": ("rulebook:booklet", lambda rel: rel == "rulebook-booklet.pdf"),
                  "png": ("png:back", lambda rel: rel.endswith("-back.png"))}


def kind_of(step: str, rel: str) -> str:
    """The kind a file written by ``step`` is recorded under: ``step`` itself, or the kind of
    :data:`OPTIONAL_KINDS` when an option of the step added it."""
    kind, test = OPTIONAL_KINDS.get(step, (None, None))
    return kind if kind is not None and test(rel) else step


def by_kind(step: str, files: list[str]) -> dict[str, list[str]]:
    """``files`` of ``step`` split by :func:`kind_of` (the step's own kind always present)."""
    out: dict[str, list[str]] = {step: []}
    for rel in files:
        out.setdefault(kind_of(step, rel), []).append(rel)
    return out


def _inside(out_dir: Path, rel: str) -> Path | None:
    """``out_dir / rel`` when ``rel`` is a plain relative path inside the folder, else None."""
    p = PurePosixPath(rel)
    if p.is_absolute() or not p.parts or ".." in p.parts or rel.startswith("~"):
        return None
    return out_dir.joinpath(*p.parts)


def record_and_prune(out_dir: Path, written: dict[str, list[str]]) -> list[str]:
    """Remove what the steps in ``written`` (step → files it wrote now, relative to ``out_dir``)
    wrote last time and not now, then record ``written`` (merged over the steps that did not
    run) in the manifest. Returns the removed paths (relative, sorted).

    Raises:
        OSError: the manifest cannot be written (the outputs themselves are already in place).
    """
    out_dir = Path(out_dir)
    before: dict[str, list[str]] = {}
    for step, files in read_written(out_dir).items():  # a manifest written before kinds: split it
        for kind, part in by_kind(step, files).items():
            before.setdefault(kind, []).extend(part)
    keep = {f for step, files in before.items() if step not in written for f in files}
    now = {f for files in written.values() for f in files} | keep
    removed = []
    for step in written:
        for rel in before.get(step, []):
            if rel in now or rel == MANIFEST:
                continue
            path = _inside(out_dir, rel)
            if path is None or path.is_symlink() or not path.is_file():
                continue
            path.unlink()
            removed.append(rel)
            parent = path.parent
            while parent != out_dir and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent
    merged = {step: sorted(set(files)) for step, files in before.items() if step not in written}
    merged.update({step: sorted(set(files)) for step, files in written.items()})
    tmp = out_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps({"version": 1, "steps": dict(sorted(merged.items()))}, ensure_ascii=False,
                              indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, out_dir / MANIFEST)
    return sorted(removed)
