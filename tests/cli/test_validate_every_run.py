"""``cardgen validate`` prints the verdict of a full check on every run: nothing of an earlier run's
verdict is kept. Edits to inputs outside the game folder, which a stored verdict's key did not
list, show in the next run: a font that ``fonts/fonts.yaml`` names by a path elsewhere on disk,
replaced by one without Japanese glyphs (its modification time set back as it was)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import copy_game, needs_fonts

GOTHIC = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
LATIN = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _validate(game: Path, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home)}
    env.pop("CARDGEN_NO_CACHE", None)  # the font caches on, as a designer runs it
    return subprocess.run([sys.executable, "-m", "cardgen", "--project", str(game.parent.parent), "validate", str(game)],
                          capture_output=True, text=True, env=env, timeout=300)


@needs_fonts
def test_a_font_named_by_path_replaced_in_place_gives_the_new_verdict(tmp_path, monkeypatch):
    if not LATIN.is_file():
        import pytest
        pytest.skip("needs DejaVuSans (fonts-dejavu-core)")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    game = copy_game(tmp_path / "project")
    elsewhere = tmp_path / "elsewhere" / "body.ttf"
    elsewhere.parent.mkdir()
    shutil.copyfile(GOTHIC, elsewhere)
    fonts_yaml = tmp_path / "project" / "fonts" / "fonts.yaml"
    fonts_yaml.write_text(fonts_yaml.read_text(encoding="utf-8").replace("body: IPAexGothic", f"body: {elsewhere}"),
                          encoding="utf-8")
    home = tmp_path / "home"  # nothing of the user's own home is read
    home.mkdir()
    first = _validate(game, home)
    assert first.returncode == 0 and "tenjanpai: 0 error(s)" in first.stdout, first.stderr[-2000:]
    assert _validate(game, home).stdout == first.stdout  # the same inputs, the same verdict
    st = os.stat(elsewhere)
    shutil.copyfile(LATIN, elsewhere)  # another font under the same name
    os.utime(elsewhere, ns=(st.st_atime_ns, st.st_mtime_ns))
    second = _validate(game, home)
    assert second.returncode == 1, second.stdout + second.stderr[-2000:]
    assert "tenjanpai: 0 error(s)" not in second.stdout
    assert "body" in second.stderr and ("glyph" in second.stderr or "character" in second.stderr), second.stderr[-2000:]

