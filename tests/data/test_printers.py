"""cardgen.data.printers: the user's printers file — added, replaced, read back; a broken file or
an offset out of range is one clear message naming the file or the option."""
from __future__ import annotations

import pytest

from cardgen.core.errors import CardgenError, UsageError
from cardgen.data.printers import add_printer, config_file, load_printers, offset_of


def test_add_replace_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_file() == tmp_path / "cardgen" / "printers.yaml"
    add_printer("office", (0.5, -0.75))
    add_printer("home", (0.0, 1.25))
    add_printer("office", (0.25, -0.5))
    assert load_printers() == {"home": (0.0, 1.25), "office": (0.25, -0.5)}
    assert offset_of("office") == (0.25, -0.5)
    with pytest.raises(UsageError) as exc:
        offset_of("offce")
    assert "home, office" in exc.value.problems[0].message


def test_broken_file_and_bad_offsets(tmp_path):
    path = tmp_path / "printers.yaml"
    path.write_text("printers:\n  office: {offset: [0.5]}\n", encoding="utf-8")
    with pytest.raises(CardgenError) as exc:
        load_printers(path)
    assert str(path) in exc.value.problems[0].file
    with pytest.raises(UsageError):
        add_printer("x", (float("nan"), 0.0), tmp_path / "other.yaml")
    with pytest.raises(UsageError):
        add_printer("x", (25.0, 0.0), tmp_path / "other.yaml")
    assert not (tmp_path / "other.yaml").exists()
