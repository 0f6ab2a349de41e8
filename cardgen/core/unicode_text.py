"""Unicode as people type it: one normal form, invisible characters named.

- :func:`nfc`: text in Normalization Form C (Unicode Standard Annex #15), so ト + U+3099
  (combining dakuten, as macOS writes file names and some IMEs type) is the one character ド.
  CJK compatibility ideographs (U+F900–U+FAFF, U+2F800–U+2FA1F) are kept as typed: NFC would
  replace them by their unified ideograph and lose the glyph the designer chose.
- :data:`IGNORABLE`: the Default_Ignorable_Code_Point characters of Unicode's
  DerivedCoreProperties.txt (soft hyphen, zero-width space and joiners, bidi marks, variation
  selectors, BOM, tags…). They have no visible form of their own; U+2060 (word joiner) is
  excluded, it is cardgen's no-break mark (:mod:`cardgen.core.nobreak`).
- :func:`shown`: a text for messages, every invisible character written ``U+XXXX``.
"""
from __future__ import annotations

import re
import unicodedata

#: Default_Ignorable_Code_Point (Unicode 15.1, DerivedCoreProperties.txt) without U+2060.
IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2061-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")

#: Variation selectors: standardized (VS1–16, Mongolian FVS1–4) and ideographic (VS17–256).
VARIATION_SELECTOR = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")

_COMPAT_IDEOGRAPH = re.compile("([\uf900-\ufaff\U0002f800-\U0002fa1f])")

#: What :func:`shown` writes as ``U+XXXX``: controls, the ignorables, combining marks on their own.
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2060" + IGNORABLE.pattern[1:-1] + "]")


def nfc(text: str) -> str:
    """``text`` in Unicode Normalization Form C, CJK compatibility ideographs kept as typed."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    parts = _COMPAT_IDEOGRAPH.split(text)  # odd positions: the compatibility ideographs themselves
    return "".join(p if i % 2 else unicodedata.normalize("NFC", p) for i, p in enumerate(parts))


def plain(text: str) -> str:
    """``text`` in NFC (:func:`nfc`) without default-ignorable characters (:data:`IGNORABLE`:
    soft hyphens, zero-width spaces, variation selectors…; the no-break mark U+2060 stays). For
    text set in several fonts at once (the rulebook), where no font's variation sequences apply."""
    text = nfc(text)
    return text if text.isascii() else IGNORABLE.sub("", text)


def code_points(text: str) -> str:
    """Every character of ``text`` as ``U+XXXX``, space-separated (``ド`` → ``U+30C8 U+3099``)."""
    return " ".join(f"U+{ord(c):04X}" for c in text)


def shown(text: str) -> str:
    """``text`` for a message: control and invisible characters (zero-width space, soft hyphen,
    variation selectors, bidi marks, the no-break mark…) written as ``U+XXXX``; newlines and tabs
    kept."""
    return _INVISIBLE.sub(lambda m: f"U+{ord(m.group()):04X}", text)


def forms(name: str) -> str:
    """For a message about ``name`` (a file name as written): ``""`` when it is in NFC, else
    `` (written decomposed, NFD: U+…; composed, NFC: 'ポ')`` so two names that look the same can be
    told apart."""
    composed = nfc(name)
    if composed == name:
        return ""
    differing = "".join(c for c in name if c not in composed) or name
    return f" (written in decomposed Unicode: {code_points(differing)}; composed (NFC) it is {composed!r})"


#: The full-width forms of ASCII (U+FF01–U+FF5E) and the ideographic space U+3000, as a Japanese
#: IME types them, → their ASCII characters (``３６`` → ``36``, ``：`` → ``:``, ``　`` → a space).
HALFWIDTH = {**{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}, 0x3000: 0x20}


#: Why full-width syntax happens, said after a hint's fix (``ime_note()`` → `` (a Japanese IME …)``).
_IME = "a Japanese IME in full-width mode types these: switch it to half-width, 半角英数"


def ime_note(for_what: str = "") -> str:
    """`` (a Japanese IME in full-width mode types these: switch it to half-width, 半角英数[, for
    FOR_WHAT])``: the end of a full-width problem's hint."""
    return f" ({_IME}{', for ' + for_what if for_what else ''})"


def halfwidth(text: str) -> str:
    """``text`` with its full-width ASCII forms and ideographic spaces typed half-width (ASCII):
    ``３６`` → ``36``, ``ｎｕｍｂｅｒ`` → ``number``; anything else (kana, kanji, 「」) as it is."""
    return text if text.isascii() else text.translate(HALFWIDTH)


def fullwidth_words(text: str) -> str:
    """The full-width characters of ``text`` (:data:`HALFWIDTH`) in words, for a message:
    ``full-width digits``, ``full-width letters``, ``a full-width space (U+3000)``, ``full-width
    commas '，'``, joined by "and"; ``""`` when it has none."""
    found = [c for c in dict.fromkeys(text) if ord(c) in HALFWIDTH]
    parts: list[str] = []
    for kind, test in (("digit", str.isdigit), ("letter", str.isalpha)):
        typed = sum(test(c) for c in text if ord(c) in HALFWIDTH)
        if typed:
            parts.append(f"full-width {kind}s" if typed > 1 else f"a full-width {kind}")
    for c in found:
        if c.isalnum():
            continue
        several = text.count(c) > 1
        if c == "\u3000":
            parts.append("full-width spaces (U+3000)" if several else "a full-width space (U+3000)")
        else:
            name = unicodedata.name(c, "").removeprefix("FULLWIDTH ").lower() or f"U+{ord(c):04X}"
            parts.append(f"full-width {name}s '{c}'" if several else f"a full-width {name} '{c}'")
    return " and ".join(parts)
