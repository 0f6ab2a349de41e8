"""``cardgen validate`` into a stream whose encoding lacks characters of the report: escaped, and
``--format json`` stays JSON."""
from __future__ import annotations

import subprocess
import sys

import pytest

@pytest.mark.parametrize("fmt", ["text", "json"])
def test_validate_to_a_narrow_encoding_escapes_and_json_stays_json(fmt, tmp_path):
    # `cardgen validate GAME > report.txt` on Japanese Windows writes cp932, which lacks "−" (the
    # deck math) and "—"; cp437 lacks Japanese too. It was an internal error (exit 3) half-way through
    import json
    import os
    from pathlib import Path

    game = Path(__file__).resolve().parents[2] / "card_data" / "tenjanpai"
    env = {**os.environ, "PYTHONIOENCODING": "cp437", "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("CARDGEN_NO_CACHE", None)
    for _ in range(2):  # a cold run (font caches filled), then a warm one
        res = subprocess.run([sys.executable, "-m", "cardgen", "validate", "--format", fmt, str(game)],
                             capture_output=True, env=env, check=False)
        assert res.returncode == 0, res.stderr.decode("cp437", "replace")
        out = res.stdout.decode("cp437")
        if fmt == "json":
            assert json.loads(out)["title"] == "天雀牌"
        else:
            assert "36 \\u2212 3 \\u00d7 3 (hands)" in out
            assert out.rstrip().endswith("tenjanpai: 0 error(s), 1 warning(s)")
