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
