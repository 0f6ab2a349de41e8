"""reportlab.platypus is imported without compiling paragraph.py's URL pattern (cardgen.rulebook.lazy_uri):
the rulebook package places the hook before its modules load, and the lazy pattern answers as the
compiled one."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

RULEBOOK = Path(__file__).resolve().parents[2] / "cardgen" / "rulebook"


def test_the_rulebook_package_defers_the_pattern_before_its_modules_load():
    """The hook is placed by the package's __init__, which Python runs before any rulebook module."""
    tree = ast.parse((RULEBOOK / "__init__.py").read_text(encoding="utf-8"))
    calls = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    assert calls == ["defer_url_pattern"]


_PROBE = r"""
import json, re, sys
import cardgen.rulebook.pdf  # the rulebook's first platypus import
from reportlab.platypus import paragraph
from cardgen.rulebook.lazy_uri import LazyPattern

lazy = paragraph.uri_pat
out = {"lazy_at_import": isinstance(lazy, LazyPattern) and lazy._compiled is None,
       "hook_gone": not any(type(f).__name__ == "_Finder" for f in sys.meta_path)}
real = re.compile(lazy._args[0], lazy._args[1])
uris = ["https://example.com/a/b", "HTTPS://EXAMPLE.COM/A", "http://例え.テスト/パス", "ftp://user:pw@10.0.0.1:21/x",
        "not a url", "http://[::1]/", "//example.com"]
out["split"] = [paragraph._uri_split_pairs(u) for u in uris]
out["same"] = all((lazy.match(u) and lazy.match(u).groups()) == (real.match(u) and real.match(u).groups()) for u in uris)
out["flags"] = lazy.flags == real.flags and lazy.pattern == real.pattern
out["others_compiled"] = isinstance(paragraph._hy_letters_pat, re.Pattern)
paragraph.uri_pat = real
out["split_real"] = [paragraph._uri_split_pairs(u) for u in uris]
print(json.dumps(out))
"""


def test_the_url_pattern_is_compiled_on_first_use_and_matches_as_compiled():
    run = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
    out = json.loads(run.stdout)
    assert out["lazy_at_import"] and out["hook_gone"]
    assert out["same"] and out["flags"] and out["others_compiled"]
    assert out["split"] == out["split_real"]
    assert ["https://", "example.com/a/b"] in out["split"][0]
    assert out["split"][1] is not None  # case-insensitive, as reportlab compiled it
    assert out["split"][4] is None
