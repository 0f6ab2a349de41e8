"""The rulebook's markup escapes (cardgen.rulebook.markup.escape, cardgen.rulebook.ruby.quoteattr)
write exactly what xml.sax.saxutils' escape and quoteattr write, which they replace so the check
does not import urllib.request, http.client and ssl."""
import subprocess
import sys
from xml.sax.saxutils import escape as sax_escape, quoteattr as sax_quoteattr

from hypothesis import given, settings, strategies as st

from cardgen.rulebook.markup import escape
from cardgen.rulebook.ruby import quoteattr

_TEXT = st.lists(st.sampled_from(list("&<>\"'\n\r\t a;#ア漢") + ["&amp;", "&#10;"]) | st.characters(),
                 max_size=40).map("".join)


@given(_TEXT)
@settings(max_examples=500, deadline=None)
def test_escape_is_saxutils_escape(text):
    assert escape(text) == sax_escape(text)


@given(_TEXT)
@settings(max_examples=500, deadline=None)
def test_quoteattr_is_saxutils_quoteattr(text):
    assert quoteattr(text) == sax_quoteattr(text)


def test_each_quoting_case():
    for text in ('a', 'say "hi"', "it's \"x\"", "it's", "a\nb\tc\rd", "<&>"):
        assert quoteattr(text) == sax_quoteattr(text)


def test_the_rulebook_modules_do_not_load_urllib():
    code = ("import sys, cardgen.rulebook.markup, cardgen.rulebook.ruby;"
            "print(sorted(m for m in ('xml.sax.saxutils', 'urllib.request', 'http.client') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
