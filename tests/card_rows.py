"""Edit one card row of a CSV card table in place, as a designer saving a cell would (the preview
tests and benchmarks/preview.py)."""
from __future__ import annotations

import csv
from pathlib import Path


def edit_row(path: Path, card_id: str, **values: str) -> None:
    """Set ``values`` (column → text) in the row whose ``id`` is ``card_id`` and write the file back."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        if r["id"] == card_id:
            r.update(values)
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
