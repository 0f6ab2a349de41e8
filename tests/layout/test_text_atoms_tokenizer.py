"""The text → atoms split (cardgen.layout.text_atoms) made in one regular-expression pass gives the
atoms the per-character rules give: a forced break, an icon, a space or tab, a Latin word, else one
character; U+2060 joins its neighbours. The rules are written out here one test at a time, as they
were implemented before the one-pass split, and compared on generated text."""
from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from cardgen.core.nobreak import NOBREAK
from cardgen.layout.ruby_text import split_ruby
from cardgen.layout.text_atoms import Atom, atoms

_ICON = re.compile(r":([a-z][a-z0-9_]*):")
_LATIN = re.compile(r"(?![,.:;!?%)\]}])(?:(?!:[a-z][a-z0-9_]*:)[!-~\u00C0-\u024F’×])+")


def _reference(text: str) -> list[tuple[str, str, str]]:
    """The atoms by the rules, tested one by one at each position."""
    text = text.replace("\r\n", "\n").replace("\\n", "\n")
    out: list[Atom] = []
    for piece, reading in split_ruby(text):
        if reading:
            out.append(Atom(piece, "ruby", reading))
            continue
        glue, i = False, 0
        while i < len(piece):
            ch = piece[i]
            if ch == NOBREAK:
                glue, i = bool(out), i + 1
                continue
            icon, word = _ICON.match(piece, i), _LATIN.match(piece, i)
            if ch == "\n":
                out.append(Atom("\n", "newline"))
                i += 1
            elif icon:
                out.append(Atom(icon.group(1), "icon"))
                i = icon.end()
            elif ch in " \t":
                out.append(Atom(" ", "space"))
                i += 1
            elif word:
                out.append(Atom(word.group(0), "word"))
                i = word.end()
            else:
                out.append(Atom(ch, "cjk"))
                i += 1
            if glue and len(out) > 1 and {out[-2].kind, out[-1].kind} <= {"cjk", "word", "space"}:
                joined = out.pop()
                out[-1] = Atom(out[-1].text + joined.text, "word")
            glue = False
    return [(a.text, a.kind, a.ruby) for a in out]


def _atoms(text: str) -> list[tuple[str, str, str]]:
    return [(a.text, a.kind, a.ruby) for a in atoms(text)]


PIECES = list("あいう漢字牌「」、。（）ー…abcXYZ019,.:;!?%)]}'’×é \t\n") + [
    NOBREAK, NOBREAK * 2, ":pon:", ":chi:", ":a_1:", ":x", "::", ":Ab:", "\\n", "\r\n", "｜聴牌《テンパイ》",
    "{牌|パイ}", "聴牌《テンパイ》", "\U00020000", "32,000", "(第20条①)"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=16).map("".join))
def test_one_pass_split_gives_the_atoms_of_the_rules(text):
    assert _atoms(text) == _reference(text)


def test_examples():
    assert _atoms("ポン:pon:を 3回") == [("ポ", "cjk", ""), ("ン", "cjk", ""), ("pon", "icon", ""), ("を", "cjk", ""),
                                         (" ", "space", ""), ("3", "word", ""), ("回", "cjk", "")]
    assert _atoms(f"第{NOBREAK}2{NOBREAK}条,x") == [("第2条", "word", ""), (",", "cjk", ""), ("x", "word", "")]
    assert _atoms(f"{NOBREAK}あ\\nい") == [("あ", "cjk", ""), ("\n", "newline", ""), ("い", "cjk", "")]
