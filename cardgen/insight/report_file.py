"""``output/<game>/report.json``: the odds and simulation results merged into the build's report.

The build writes the preflight report there; ``cardgen odds`` and ``cardgen simulate`` add
their own top-level keys (``odds``, ``simulation``) and keep everything else. Written through a
temporary file and an atomic rename, so a stopped run never leaves half a file.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def merge_report(path: Path, key: str, value: Any) -> Path:
    """Set ``key`` in the JSON object at ``path`` (created if missing or unreadable) and return the path."""
    path = Path(path)
    data: dict[str, Any] = {}
    if path.is_file():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            data = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            data = {}
    data[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".report-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
