"""``output/<game>/report.json`` and ``simulation.json``: results written as JSON.

The build writes the preflight report to report.json; ``cardgen odds`` adds its ``odds`` key and
keeps everything else. Written through a
temporary file and an atomic rename, so a stopped run never leaves half a file.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from cardgen.core.atomic import as_output


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
    return write_json(path, data)


def write_json(path: Path, data: Any) -> Path:
    """Write ``data`` as indented UTF-8 JSON through a temporary file and an atomic rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".report-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        as_output(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
