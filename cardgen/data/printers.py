"""The designer's printers: a measured duplex offset per printer, kept in the user's own config
(``$XDG_CONFIG_HOME/cardgen/printers.yaml``, else ``~/.config/cardgen/printers.yaml``), never in a
game folder — the shift belongs to the printer, not to the game.

The file (written by ``cardgen printer add``)::

    printers:
      office-laser: {offset: [0.5, -0.75]}   # mm, x right, y down, as seen on the back

``--printer NAME`` shifts every back page by the printer's offset (:func:`offset_of`), as
``--back-offset`` does (read it off ``cardgen calibration``'s rulers).
"""
from __future__ import annotations

import math
import os
from pathlib import Path

import yaml

from cardgen.core.errors import CardgenError, Problem, UsageError

MAX_OFFSET_MM = 20.0  #: printers drift by a few mm, not centimetres


def config_file() -> Path:
    """Where the printers are kept."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "cardgen" / "printers.yaml"


def load_printers(path: Path | None = None) -> dict[str, tuple[float, float]]:
    """Printer name → offset (mm); empty when the file does not exist.

    Raises:
        CardgenError: the file is not YAML of the shape above.
    """
    path = path or config_file()
    if not path.is_file():
        return {}
    hint = "fix it, or remove it and add the printers again with `cardgen printer add`"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        what = getattr(exc, "problem", None) or "not YAML"
        raise CardgenError(Problem(str(path), mark.line + 1 if mark else None, "printers", f"cannot be read: {what}",
                                   hint, code="printers-file")) from None
    printers = data.get("printers") if isinstance(data, dict) else None
    if not isinstance(printers, dict):
        raise CardgenError(Problem(str(path), None, "printers", "has no `printers:` mapping of names to offsets",
                                   hint, code="printers-file"))
    out = {}
    for name, entry in printers.items():
        offset = entry.get("offset") if isinstance(entry, dict) else None
        try:
            x, y = (float(v) for v in offset)
        except (TypeError, ValueError):
            raise CardgenError(Problem(str(path), None, f"printers → {name} → offset",
                                       f"{offset!r} is not two numbers (x, y in mm)",
                                       "write it as `offset: [0.5, -0.75]`, or store it again with "
                                       f"`cardgen printer add {name} --offset X,Y`", code="printers-file")) from None
        out[str(name)] = (x, y)
    return out


def check_offset(x: float, y: float, option: str = "--offset") -> tuple[float, float]:
    """``(x, y)`` when both are finite and within ±:data:`MAX_OFFSET_MM`.

    Raises:
        UsageError: otherwise.
    """
    if not all(math.isfinite(v) and abs(v) <= MAX_OFFSET_MM for v in (x, y)):
        raise UsageError(Problem(option, None, "", f"{x:g},{y:g} is out of range: each of X and Y must be a number "
                                 f"from -{MAX_OFFSET_MM:g} to {MAX_OFFSET_MM:g} mm",
                                 "read the shift off `cardgen calibration`'s rulers; it is usually under 3 mm"))
    return x, y


def add_printer(name: str, offset: tuple[float, float], path: Path | None = None) -> Path:
    """Store (or replace) printer ``name`` with ``offset`` (mm). Returns the file written."""
    path = path or config_file()
    printers = load_printers(path)
    printers[name] = check_offset(*offset)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump({"printers": {n: {"offset": [x, y]} for n, (x, y) in sorted(printers.items())}},
                          allow_unicode=True, sort_keys=True)
    tmp = path.with_suffix(".yaml.tmp")
    tmp.write_text("# cardgen printers: duplex offset in mm (x right, y down, as seen on the back)\n" + text,
                   encoding="utf-8")
    tmp.replace(path)
    return path


def offset_of(name: str, path: Path | None = None) -> tuple[float, float]:
    """The stored offset of printer ``name``.

    Raises:
        UsageError: no printer of that name (the message lists those stored).
    """
    path = path or config_file()
    printers = load_printers(path)
    if name not in printers:
        known = ", ".join(sorted(printers)) or "none yet"
        raise UsageError(Problem("--printer", None, "", f"no printer named {name!r} in {path} (stored: {known})",
                                 f"measure it with `cardgen calibration`, then `cardgen printer add {name} --offset X,Y`"))
    return printers[name]
