"""The C YAML composer (libyaml) gives what the Python composer gives: the same data, the same
line map and the same refusals, on every YAML file of the checkout (games, templates, presets,
bad-input fixtures). It is used whenever PyYAML has libyaml; this test also fails if it has not."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import cardgen.data.yaml_source as ys
from cardgen.data.loaded import Source

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for d in ("card_data", "templates", "cardgen/presets", "tests/fixtures", "fonts")
               for p in (ROOT / d).rglob("*.yaml"))


def _compose(composer, text: str, name: str):
    loader = composer(text)
    if composer is ys._Composer:
        loader.alias_lines = []
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        return ("error", str(exc.problem))
    finally:
        loader.dispose()
    if node is None:
        return None
    src, problems = Source(name), []
    data = ys._build(node, (), src, name, problems)
    return repr(data), sorted(src.lines.items(), key=repr), [(p.line, p.message) for p in problems]


def test_pyyaml_has_libyaml():
    assert yaml.__with_libyaml__ and ys._CComposer is not None


def test_c_and_python_composers_agree_on_every_yaml_file():
    assert len(FILES) > 50
    compared = 0
    for path in FILES:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        c = _compose(ys._CComposer, text, path.name)
        if c and c[0] == "error":  # a syntax error: the Python composer says it, in its words
            continue
        if ys._compose(text)[1]:  # aliases: always the Python composer (it names their lines)
            continue
        assert c == _compose(ys._Composer, text, path.name), path
        compared += 1
    assert compared > 50


@pytest.mark.parametrize("text, code", [
    ("a: 1\na: 2\n", "duplicate-key"),
    ("a: !!python/object:os.system x\n", "yaml-tag"),
    ("a: &x 1\nb: *x\n", "yaml-alias"),
    ("a: [1\n", "yaml-syntax"),
    ("a: " + "[" * 1200 + "]" * 1200 + "\n", "yaml-depth"),
])
def test_refusals_stay(tmp_path, text, code):
    f = tmp_path / "x.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ys.CardgenError) as exc:
        ys.load_yaml(f)
    assert {p.code for p in exc.value.problems} == {code}


@pytest.mark.parametrize("text", [
    "# a * in a comment\na: 1\n",
    "a: '*'\nb: \"x*y\"\nc: 2*3\n",
    "a: &x 1\n",  # an anchor no alias names
])
def test_a_star_that_is_no_alias_stays_with_libyaml(monkeypatch, text):
    """libyaml composes a document whose ``*`` is in a comment or a text (no alias), and the data
    and lines are those the Python composer gives."""
    python = _compose(ys._Composer, text, "x")
    monkeypatch.setattr(ys, "_Composer", None)  # the Python composer is not asked
    node, aliases = ys._compose(text)
    assert aliases == []
    src, problems = Source("x"), []
    data = ys._build(node, (), src, "x", problems)
    assert (repr(data), sorted(src.lines.items(), key=repr), problems) == python


@pytest.mark.parametrize("text, lines", [
    ("a: &x 1\nb: *x\n", [2]),
    ("a: &x [*x]\n", [1]),  # a self-reference: a cycle in what libyaml composes
    ("a: &a [1, 1]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n", [2, 2, 3, 3, 4, 4]),
    ("k: 'x' # *\na: &x 1\nb: *x\n", [3]),
])
def test_aliases_go_to_the_python_composer(text, lines):
    assert ys._compose(text)[1] == lines
