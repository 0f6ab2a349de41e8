"""The largest files cardgen reads from a game folder, refused before they are read."""
from __future__ import annotations

from pathlib import Path

from cardgen.core.errors import CardgenError, Problem

#: Largest manifest or template (YAML) and card table (CSV) cardgen reads, in bytes.
MAX_YAML_BYTES = 5_000_000
MAX_CSV_BYTES = 20_000_000


def read_capped(path: Path, file: str, limit: int) -> bytes:
    """The bytes of ``path`` (named ``file`` in messages), refusing a file above ``limit`` bytes
    before reading it. Raises CardgenError: unreadable (missing, no permission) or too large."""
    try:
        size = path.stat().st_size
        if size <= limit:
            return path.read_bytes()
    except OSError as exc:
        raise CardgenError(Problem(file, None, "", f"cannot read the file: {exc.strerror or exc}",
                                   "check that the file exists and is readable", code="unreadable"))
    raise CardgenError(Problem(file, None, "", f"the file is {size:,} bytes, more than the limit of {limit:,}",
                               "a manifest, template or card table is far smaller; check that this is the "
                               "right file", code="file-too-large"))
