"""The unquoted-colour hint (cardgen/data/yaml_hints.py) finds the same colours as the plain
pattern it started as, for any line: its key now starts only where a run of key characters
starts, so that a long line without a colon is read once instead of once per character (a
20,000-character title took 3.6 s to check, on every load of the file)."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.data.yaml_hints import comment_colours

#: The pattern as it was before the lookbehind (tried from every character: quadratic).
_PLAIN = re.compile(
    r"(?P<key>[^\s{},\[\]:#\"']+):[ \t]+(?P<colour>#(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3,4}))(?=[\s,}\]]|$)")

_PIECES = st.sampled_from(["stroke", "fill", "あ", "a", ":", ": ", ":\t", " ", "#", "#fff", "#000000", "#12345678",
                           "{", "}", ",", "[", "]", "'", '"', "-", "ab", "x1"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join))
def test_the_same_colours_as_the_plain_pattern(line):
    found = [re.search(r"the colour (\S+) after '(.*)?:' is not quoted", p.message).groups()
             for p in comment_colours(line, "f.yaml")]
    expected = [] if line.lstrip().startswith("#") else [
        (m.group("colour"), m.group("key")) for m in _PLAIN.finditer(line)
        if line[:m.start()].count('"') % 2 == 0 and line[:m.start()].count("'") % 2 == 0]
    assert found == expected, line


def test_a_colour_on_a_long_line_is_found_at_its_key():
    line = "title: " + "あ" * 20_000 + " stroke: #000000"
    (problem,) = comment_colours(line, "f.yaml")
    assert "after 'stroke:'" in problem.message and problem.line == 1


def _fullwidth(text: str, tmp_path) -> list:
    from cardgen.core.errors import CardgenError
    from cardgen.data.yaml_source import load_yaml

    (tmp_path / "f.yaml").write_text(text, encoding="utf-8")
    try:
        load_yaml(tmp_path / "f.yaml", "f.yaml")
    except CardgenError as exc:
        return [(p.line, p.code, p.message, p.hint) for p in exc.problems]
    return []


def test_fullwidth_syntax_is_named_at_its_own_line(tmp_path):
    """YAML syntax typed with an IME in full-width mode: each named at its line with what to type
    (PyYAML's own error names the line after a full-width colon, in words of its parser)."""
    found = _fullwidth("setup:\n  hand：4\n  turns: 3\n", tmp_path)
    assert [(line, code) for line, code, _m, _h in found] == [(2, "yaml-fullwidth")]
    assert "full-width colon '：'" in found[0][2] and "hand: 4" in found[0][3]
    found = _fullwidth("game:\n  players: [3, 4]\u3000\n  id: g\n", tmp_path)
    assert found[0][:2] == (2, "yaml-fullwidth") and "full-width space (U+3000)" in found[0][2]
    assert "players: [3, 4] (" in found[0][3]
    found = _fullwidth("e:\n  - {kind: text, text: “{{ card.x }}”, size: 3}\n", tmp_path)
    assert found[0][:2] == (2, "yaml-fullwidth") and 'quotes: "{{ card.x }}"' in found[0][3]
    found = _fullwidth("a:\n  x: 1\n \u3000b: 1\n", tmp_path)
    assert found[0][:2] == (3, "yaml-fullwidth") and "indented with a full-width space" in found[0][2]
    found = _fullwidth("a:\n  hand:\u30004\n  b: 1\n", tmp_path)
    assert found[0][:2] == (2, "yaml-fullwidth") and "followed by a full-width space" in found[0][2]


def test_fullwidth_characters_in_values_stay_text(tmp_path):
    """A full-width colon or space inside a value is Japanese text, not a mistake: the file loads."""
    assert _fullwidth("description: 遊び方：3人\nname: カード\u3000\ntitle: “引用”\n", tmp_path) == []


def test_fullwidth_syntax_is_not_named_in_text_beside_another_error(tmp_path):
    """The generic message stays when the full-width character near the error is text."""
    found = _fullwidth("description: 遊び方：3人\n  bad: [1\n", tmp_path)
    assert all(code != "yaml-fullwidth" for _l, code, _m, _h in found)


def test_a_fullwidth_colon_is_found_above_blank_and_comment_lines(tmp_path):
    """PyYAML gives up at the next line of text; blank lines and comments between are skipped."""
    found = _fullwidth("setup:\n  hand：4\n\n  # a note\n\n  turns: 3\n", tmp_path)
    assert [(line, code) for line, code, _m, _h in found] == [(2, "yaml-fullwidth")]
