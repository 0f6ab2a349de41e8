"""No internal error from any value in any field (issue 18): hypothesis puts arbitrary YAML values
— huge and 5,000-digit numbers, nan and 1e400, lone surrogates, control characters, markup,
wrong types, nested lists and mappings — into every field of the manifest and of a card
template, and `cardgen validate` and `cardgen build` end with exit 0 or with exit 1 and a
message, never exit 3 (internal error) or a traceback."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from attack_game import BASE
from cardgen.cli.commands import cli
from tests.treepaths import value_paths

# 240 commands run in-process, each in a build child forked from here: the fonts of the base game and
# the build's modules are loaded once, here, not again in every child (tests/conftest.warm_build_parent)
pytestmark = pytest.mark.usefixtures("warm_build_parent")

#: Stands for a plain 5,000-digit number in the YAML written (see :func:`_dump`).
BIG = "@@5000-digits@@"

MANIFEST = yaml.safe_load((BASE / "game.yaml").read_text(encoding="utf-8"))
MANIFEST["print"] = {"card_size": {"width": 63, "height": 88}, "bleed": 3, "safe": 3}
MANIFEST["design"] = {"power_bonus_cap": 2}
MANIFEST["setup"]["derive"] = {"turns": "1"}
MANIFEST["design_rules"] = [{"id": "r", "description": "x", "deck": "cards", "check": "card.number > 0"}]
MANIFEST["rulebook"] = {"values": {"v": "deck_size"}, "numbering": "plain",
                        "tables": {"setup_table": {"columns": ["players", "deck"], "headings": {"players": "人数"}}}}
MANIFEST["icons"] = {"coin": {"file": "icons/coin.svg", "label": "金", "label_colour": "white"}}
COIN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#d4a017"/></svg>\n'
TEMPLATE = yaml.safe_load((BASE / "templates" / "cards" / "card.yaml").read_text(encoding="utf-8"))
TEMPLATE["elements"].append({"kind": "icons", "name": "i", "box": [6, 70, 40, 8], "repeat": "card.number",
                             "icon": "pon", "gap": 1})


MANIFEST_PATHS = [p for p in value_paths(MANIFEST) if p]
TEMPLATE_PATHS = [p for p in value_paths(TEMPLATE) if p]

_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=30) | st.sampled_from(
    ["\ud800", "[/]", "[bold]x[/bold]", "\x1b[31mred\x1b[0m", "nan", "inf", "-1e400", "1e400", "0x10", "abc",
     "{{ 1 / 0 }}", "{{ card.nope }}", "{{ 10.0 ** 1000 }}", "{{ '%(a)s' % {} }}", "{{ '{}'.format() }}",
     "../../etc/passwd", "/etc/passwd", "a" * 5000, "9" * 5000])
_scalar = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10 ** 30, max_value=10 ** 40)
           | st.floats(allow_nan=True, allow_infinity=True) | _text | st.just(BIG))
VALUES = st.recursive(_scalar, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
                      max_leaves=6)


def _put(doc, path, value):
    doc = yaml.safe_load(yaml.safe_dump(doc, allow_unicode=True))
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def _dump(doc) -> str:
    """YAML text for ``doc`` (nan, inf and surrogates as YAML writes them); :data:`BIG` becomes a
    plain 5,000-digit number (Python cannot even turn such an int into text)."""
    text = yaml.dump(doc, allow_unicode=False, sort_keys=False, width=10 ** 6)
    return text.replace(f"'{BIG}'", "9" * 5000).replace(BIG, "9" * 5000)


def _check(tmp: Path, manifest: dict, template: dict, commands=("validate", "build")) -> None:
    game = tmp / "game"
    if game.exists():
        shutil.rmtree(game)
    shutil.copytree(BASE, game)
    (game / "icons").mkdir(exist_ok=True)
    (game / "icons" / "coin.svg").write_text(COIN, encoding="utf-8")
    (game / "game.yaml").write_text(_dump(manifest), encoding="utf-8")
    (game / "templates" / "cards" / "card.yaml").write_text(_dump(template), encoding="utf-8")
    for command in commands:
        args = [command, str(game)] + (["--out", str(tmp / "out")] if command != "validate" else [])
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
        out = result.output
        assert result.exit_code in (0, 1), (command, result.exit_code, out[-2000:])
        assert "internal error" not in out and "Traceback" not in out, out[-2000:]
        if result.exit_code == 1:
            assert "error" in out


@pytest.fixture(scope="module")
def tmp_module(tmp_path_factory):
    return tmp_path_factory.mktemp("any-value")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(MANIFEST_PATHS), value=VALUES)
def test_any_value_in_any_manifest_field(tmp_module, path, value):
    _check(tmp_module, _put(MANIFEST, path, value), TEMPLATE)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(TEMPLATE_PATHS), value=VALUES)
def test_any_value_in_any_template_field(tmp_module, path, value):
    _check(tmp_module, MANIFEST, _put(TEMPLATE, path, value))


@pytest.mark.parametrize("where,value", [
    (("game", "version"), BIG),                        # a 5,000-digit number
    (("game", "title"), "\ud800"),                            # a lone surrogate
    (("print", "card_size", "width"), "abc"),
    (("print", "bleed"), float("nan")),
    (("print", "safe"), float("inf")),
    (("setup", "derive", "turns"), "10.0 ** 1000"),
    (("setup", "derive", "turns"), "'{}'.format()"),
    (("setup", "derive", "turns"), "'%(a)s' % {}"),
    (("rulebook", "values", "v"), "1 / 0"),
    (("game", "title"), "[/]\x1b[31m"),
])
def test_issue_examples_in_the_manifest(tmp_path, where, value):
    _check(tmp_path, _put(MANIFEST, where, value), TEMPLATE)


@pytest.mark.parametrize("where,value", [
    (("elements", 0, "box", 2), float("nan")),
    (("elements", 0, "stroke_width"), float("inf")),
    (("elements", 3, "gap"), 1e400),
    (("elements", 1, "size"), BIG),
    (("elements", 2, "text"), "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}"),  # recursive macro
    (("elements", 2, "text"), "{{ 1 / 0 }}"),
    (("elements", 3, "repeat"), BIG),  # jinja reads the literal with int(): more than 4,300 digits (an internal error once)
])
def test_issue_examples_in_the_template(tmp_path, where, value):
    _check(tmp_path, MANIFEST, _put(TEMPLATE, where, value))
