"""The largest files cardgen reads from a game folder, refused before they are read."""
from __future__ import annotations

import os
from pathlib import Path

from cardgen.core.errors import CardgenError, Problem
from cardgen.core.regular_file import open_regular

#: Largest manifest or template (YAML) and card table (CSV) cardgen reads, in bytes.
MAX_YAML_BYTES = 5_000_000
MAX_CSV_BYTES = 20_000_000


def read_capped(path: Path, file: str, limit: int) -> bytes:
    """The bytes of ``path`` (named ``file`` in messages), refusing a file above ``limit`` bytes
    before reading it, and anything but a regular file before it can block (a named pipe: its
    open would wait for a writer for ever; :func:`cardgen.core.regular_file.open_regular`).

    Raises:
        CardgenError: unreadable (missing, no permission, not a regular file) or too large."""
    try:
        with open_regular(path) as fh:
            size = os.fstat(fh.fileno()).st_size
            if size <= limit:
                return fh.read()
    except ValueError as exc:
        raise CardgenError(Problem(file, None, "", f"cannot read the file: {exc}",
                                   "name a file (not a folder, pipe or device)", code="not-a-file"))
    except OSError as exc:
        raise CardgenError(Problem(file, None, "", f"cannot read the file: {exc.strerror or exc}",
                                   "check that the file exists and is readable", code="unreadable"))
    raise CardgenError(Problem(file, None, "", f"the file is {size:,} bytes, more than the limit of {limit:,}",
                               "a manifest, template or card table is far smaller; check that this is the "
                               "right file", code="file-too-large"))
