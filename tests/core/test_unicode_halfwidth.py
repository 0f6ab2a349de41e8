"""Full-width ASCII forms (cardgen/core/unicode_text.py): typed half-width, and named in words for messages."""
from __future__ import annotations

from cardgen.core.unicode_text import fullwidth_words, halfwidth


def test_halfwidth_and_the_words_for_fullwidth_characters():
    assert halfwidth("３６") == "36" and halfwidth("ｎｕｍｂｅｒ") == "number" and halfwidth("0，0") == "0,0"
    assert halfwidth("カード　「札」") == "カード 「札」"  # kana and brackets are not ASCII forms
    assert fullwidth_words("３６") == "full-width digits"
    assert fullwidth_words("６") == "a full-width digit"
    assert fullwidth_words("３ｍｍ") == "a full-width digit and full-width letters"
    assert fullwidth_words("0，0，63") == "full-width commas '，'"
    assert fullwidth_words("hand：4\u3000") == "a full-width colon '：' and a full-width space (U+3000)"
    assert fullwidth_words("遊び方") == ""
