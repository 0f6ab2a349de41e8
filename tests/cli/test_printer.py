"""``cardgen printer add NAME --offset 0.5,-0.75`` stores the offset in the user's config (not the
game), and ``cardgen sheets --printer NAME`` shifts every back page's cards by exactly it (read
back from the PDF: x right, y down as seen on the back), fronts unchanged."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT, needs_fonts
from tests.sheet_geometry import read_sheets

pytestmark = needs_fonts
MM = 72 / 25.4


def _cardgen(*args, env):
    return subprocess.run([sys.executable, "-m", "cardgen", *args], capture_output=True, text=True, env=env, cwd=ROOT)


def test_printer_offset_shifts_every_back_page(tmp_path):
    import os
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    r = _cardgen("printer", "add", "office", "--offset", "0.5,-0.75", env=env)
    assert r.returncode == 0, r.stderr
    stored = (tmp_path / "config" / "cardgen" / "printers.yaml").read_text(encoding="utf-8")
    assert "office" in stored and "-0.75" in stored
    game = ROOT / "card_data" / "tenjanpai"
    assert "office" not in (game / "game.yaml").read_text(encoding="utf-8")
    for name, extra in (("plain", []), ("shifted", ["--printer", "office"])):
        r = _cardgen("sheets", str(game), "--out", str(tmp_path / name), "-q", *extra, env=env)
        assert r.returncode == 0, r.stderr
    plain = read_sheets(tmp_path / "plain" / "tenjanpai" / "print-sheets.pdf")
    shifted = read_sheets(tmp_path / "shifted" / "tenjanpai" / "print-sheets.pdf")
    assert len(plain) == len(shifted)
    backs = 0
    for k, (a, b) in enumerate(zip(plain, shifted)):
        assert len(a.boxes) == len(b.boxes)
        if k % 2 == 0:  # a front page: unchanged
            assert [v for bx in b.boxes for v in bx] == pytest.approx([v for bx in a.boxes for v in bx], abs=0.01)
            continue
        for p, q in zip(a.boxes, b.boxes):  # a back page: 0.5 mm right, -0.75 mm down = 0.75 mm up (PDF y is up)
            assert ((q[0] - p[0]) / MM, (q[1] - p[1]) / MM) == pytest.approx((0.5, 0.75), abs=0.01)
            assert ((q[2] - p[2]) / MM, (q[3] - p[3]) / MM) == pytest.approx((0.5, 0.75), abs=0.01)
            backs += 1
    assert backs == 42 + 15


def test_unknown_printer_is_a_usage_error(tmp_path):
    import os
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    r = _cardgen("sheets", str(ROOT / "card_data" / "tenjanpai"), "--out", str(tmp_path / "o"), "--printer", "nope", env=env)
    assert r.returncode == 2
    assert "no printer named 'nope'" in r.stderr and "cardgen printer add nope" in r.stderr
    assert not (tmp_path / "o" / "tenjanpai" / "print-sheets.pdf").exists()
