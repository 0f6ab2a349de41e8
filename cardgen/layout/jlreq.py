"""Japanese composition rules shared by card text and the rulebook (pure, no font or PDF library).

Source: W3C *Requirements for Japanese Text Layout* (JLREQ, 2020 edition) §3.1 and Appendix A
(character classes) and JIS X 4051:2004. What is used here:

- **Line-start prohibition** (行頭禁則, JLREQ §3.1.7): closing brackets cl-02, hyphens cl-03,
  dividing punctuation cl-04, middle dots cl-05, full stops cl-06, commas cl-07, iteration marks
  cl-09, the prolonged sound mark cl-10, small kana cl-11, postfixed abbreviations cl-13, and
  their half-width forms (``｡ ､ ｣ ｧ ｰ``…).
- **Line-end prohibition** (行末禁則): opening brackets cl-01 (``「（〝｟``…), prefixed
  abbreviations cl-12 (``￥ ＄``).
- **Inseparable characters** cl-08 (``―― …… ‥‥``): never split between two of them.
- **Punctuation compression** (約物の詰め, JLREQ §3.1.4, Appendix tables of spacing between
  classes): a full-width closing bracket, full stop or comma has a half-em blank after its glyph,
  an opening bracket a half-em blank before it. Of two in a row one blank goes, so the space
  between the two glyphs is at most half an em: :func:`squeeze` gives the advance to take off.
- **Japanese–Western spacing** (和欧間, JLREQ §3.2.4 and §3.6): a quarter em between a Japanese
  letter and a Latin letter or digit, set by the typesetter (:func:`latin_gap`) where nothing
  was typed; a space the designer typed there stays (:func:`absorb_spaces` takes out only the
  spaces between two Japanese characters or beside full-width punctuation).

All widths here are fractions of an em (the font size); callers multiply by the size in pt.
"""
from __future__ import annotations

import re
import unicodedata

#: cl-01 opening brackets (and half-width forms).
OPENING = set("‘“（〔［｛〈《「『【⦅〘〖«〝｟｢([{")
#: cl-02 closing brackets (and half-width forms).
CLOSING = set("’”）〕］｝〉》」』】⦆〙〗»〟｠｣)]}")
#: cl-03 hyphens.
HYPHENS = set("‐〜゠–～")
#: cl-04 dividing punctuation.
DIVIDING = set("？！‼⁇⁈⁉?!")
#: cl-05 middle dots.
MIDDLE_DOTS = set("・：；･:;")
#: cl-06 full stops.
FULL_STOPS = set("。．｡.")
#: cl-07 commas.
COMMAS = set("、，､,")
#: cl-08 inseparable characters.
INSEPARABLE = set("—―…‥〳〴〵")
#: cl-09 iteration marks.
ITERATION = set("ヽヾゝゞ々〻")
#: cl-10 prolonged sound mark.
PROLONGED = set("ーｰ")
#: cl-11 small kana (and half-width small katakana).
SMALL_KANA = set("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
                 "ｧｨｩｪｫｬｭｮｯ")
#: cl-12 prefixed abbreviations (no break after them).
PREFIXED = set("￥＄￡＃€№$#")
#: cl-13 postfixed abbreviations (no break before them).
POSTFIXED = set("°′″℃￠％‰㏋ℓ%")

#: The (combining and spacing) voiced and semi-voiced sound marks ゛゜: they belong to the kana
#: before them and never begin a line.
SOUND_MARKS = set("\u3099\u309a\u309b\u309c\uff9e\uff9f")

#: Characters that must not begin a line (行頭禁則).
NO_START = (CLOSING | HYPHENS | DIVIDING | MIDDLE_DOTS | FULL_STOPS | COMMAS | ITERATION | PROLONGED
            | SMALL_KANA | POSTFIXED | SOUND_MARKS | set("－"))
#: Leaders that cardgen never sets at a line start (stricter than JLREQ, which allows cl-08
#: there): a line starting with … reads as a dropped word.
NO_START_LEADERS = set("…‥")
#: Characters that must not end a line (行末禁則).
NO_END = OPENING | PREFIXED

#: Full-width punctuation whose glyph fills half of its em and leaves a half-em blank after it.
_CLOSING_FW = {c for c in CLOSING | FULL_STOPS | COMMAS if unicodedata.east_asian_width(c) in "WF"}
#: Full-width opening brackets: a half-em blank before the glyph.
_OPENING_FW = {c for c in OPENING if unicodedata.east_asian_width(c) in "WF"}
_MIDDLE_FW = {c for c in MIDDLE_DOTS if unicodedata.east_asian_width(c) in "WF"}

#: Characters that pair with nothing and need no mid-line compression but count as punctuation
#: when the tests measure the space between consecutive punctuation marks.
PUNCTUATION = _CLOSING_FW | _OPENING_FW | _MIDDLE_FW

_JAPANESE = re.compile(r"[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u3006\u30fc"
                       r"\U00020000-\U0003134f]")
_LATIN = re.compile(r"[A-Za-z0-9\u00C0-\u024F]")

#: The space between a Japanese letter and a Latin letter or digit (em).
LATIN_GAP = 0.25


def squeeze(ch: str, nxt: str) -> float:
    """The advance (em) to take off ``ch`` when ``nxt`` follows it on the same line (JLREQ §3.1.4).

    - closing bracket / full stop / comma followed by another of them, an opening bracket or a
      middle dot: the half-em blank after ``ch`` goes (``」」`` ``。」`` ``」「`` ``）：``);
    - opening bracket followed by an opening bracket: the half-em blank before ``nxt`` goes,
      i.e. ``nxt`` moves half an em left (``「（``);
    - full-width middle dot or colon followed by an opening bracket: the bracket's half-em blank
      goes (``：「`` ``：【``), the quarter em after the colon stays.

    Returns 0.5 or 0.0.
    """
    if ch in _CLOSING_FW and (nxt in _CLOSING_FW or nxt in _OPENING_FW or nxt in _MIDDLE_FW):
        return 0.5
    if ch in _OPENING_FW and nxt in _OPENING_FW:
        return 0.5
    if ch in _MIDDLE_FW and nxt in _OPENING_FW:
        return 0.5  # 「：「」「：【」: a quarter em after the colon, none before the bracket (was a 0.75 em hole)
    return 0.0


def may_break(ch: str, nxt: str) -> bool:
    """May a line end between the characters ``ch`` and ``nxt`` (JLREQ §3.1.7, §3.1.10)? Not
    before a line-start-prohibited character (:data:`NO_START`), not after a line-end-prohibited
    one (:data:`NO_END`), not between two of the same inseparable character (``――`` ``……``);
    cardgen also starts no line with ``…`` or ``‥`` (:data:`NO_START_LEADERS`)."""
    if nxt in NO_START or nxt in NO_START_LEADERS or ch in NO_END:
        return False
    return not (ch == nxt and ch in INSEPARABLE)


#: Line adjustment by reduction (JLREQ §3.8.2, Appendix D, the JIS X 4051 example): the space
#: between Japanese and Latin may go from a quarter em down to an eighth (tier 1, used first);
#: the half-em blank after a closing bracket or comma, or before an opening bracket, down to
#: nothing, a quarter em beside a middle dot (tier 2). A full stop keeps its half em mid-line.
LATIN_SHRINK = 0.125


def shrinkable(ch: str, nxt: str) -> tuple[float, float]:
    """How much (em) the space between ``ch`` and ``nxt`` may be reduced when a line is set
    tighter to take more text (追い込み): ``(tier 1, tier 2)``, see :data:`LATIN_SHRINK`."""
    if latin_gap(ch, nxt):
        return LATIN_SHRINK, 0.0
    if squeeze(ch, nxt):
        return 0.0, 0.0
    if ch in _CLOSING_FW and ch not in FULL_STOPS:
        return 0.0, 0.5
    if nxt in _OPENING_FW and unicodedata.east_asian_width(ch) in "WF":
        return 0.0, 0.5  # after a narrow Latin glyph the bracket's box would start before it (text extraction reorders)
    if ch in _MIDDLE_FW or nxt in _MIDDLE_FW:
        return 0.0, 0.25
    return 0.0, 0.0


def line_end_trim(ch: str) -> float:
    """The blank (em) a full-width closing bracket, full stop or comma drops at the end of a line
    (JLREQ Appendix D, line-end column: 1/2 → 0): its glyph fills the first half of its em."""
    return 0.5 if ch in _CLOSING_FW else 0.0


#: The punctuation that may hang past the end of a line (ぶら下げ, JLREQ §3.8.3): 、。 and the
#: full-width comma and full stop.
HANGING = set("、。，．")


def is_japanese(text: str) -> bool:
    """True when ``text`` holds at least one Japanese letter (kana, kanji, 々, ー): how cardgen
    decides that a game speaks Japanese (its title) where the manifest does not say."""
    return _JAPANESE.search(text) is not None


def latin_gap(ch: str, nxt: str) -> float:
    """The space (em) the typesetter puts between ``ch`` and ``nxt``: :data:`LATIN_GAP` between a
    Japanese letter (kana, kanji) and a Latin letter or digit, in either order; else 0."""
    if (_JAPANESE.match(ch) and _LATIN.match(nxt)) or (_LATIN.match(ch) and _JAPANESE.match(nxt)):
        return LATIN_GAP
    return 0.0


def adjustment(ch: str, nxt: str) -> float:
    """The change (em) of ``ch``'s advance when ``nxt`` follows it: ``latin_gap − squeeze``."""
    return latin_gap(ch, nxt) - squeeze(ch, nxt)


def adjustments(text: str) -> list[float]:
    """Per character of ``text``: the change (em) of its advance caused by the character after it
    (negative: :func:`squeeze`; positive: :func:`latin_gap`). The last entry is 0."""
    return [adjustment(a, b) for a, b in zip(text, text[1:])] + ([0.0] if text else [])


#: A number typed at the start of a heading or paragraph as its label: ``1.`` ``2)`` ``1.2.``
_ENUMERATOR = re.compile(r"^(\s*[0-9]+(?:\.[0-9]+)*[.)]) +")


#: Japanese letters, full-width forms and the symbols set full-width beside them (①, ■, ★).
_FULL_WIDTH = re.compile(r"[\u2460-\u24ff\u25a0-\u25ff\u2600-\u26ff\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff"
                         r"\uff00-\uffef\U00020000-\U0003134f]")
_SPACES = re.compile(r"(?<=(.)) +(?=(.))|^ +| +$", re.DOTALL)


def _typed_space(m: re.Match) -> str:
    """One run of typed spaces: gone between two full-width characters (``打牌 する``) or beside
    full-width punctuation (``、 次``, ``「 ロン``), where JLREQ leaves no room; else one space, the
    designer's (``得点 < 30``, ``と © の``, ``攻撃力 +2 を``, ``確率 50 % です``)."""
    a, b = m.group(1), m.group(2)
    if a is None or b is None:
        return m.group(0)
    if (_FULL_WIDTH.match(a) and _FULL_WIDTH.match(b)) or a in PUNCTUATION or b in PUNCTUATION:
        return ""
    return " " if (_FULL_WIDTH.match(a) or _FULL_WIDTH.match(b)) else m.group(0)


def absorb_spaces(text: str) -> str:
    """``text`` with the ASCII spaces typed between two Japanese (full-width) characters or next to
    full-width punctuation taken out (JLREQ sets no space there). A space typed between Japanese
    and Latin text, a digit or a symbol stays, one space: it is the designer's, and the
    typesetter's automatic quarter em goes only where nothing was typed. One space after a number
    typed as a label at the start (``1. ツモ``, ``2) 打牌``) stays: it separates the label from its
    text, as in a numbered heading."""
    m = _ENUMERATOR.match(text)
    if m:
        return m.group(1) + " " + _SPACES.sub(_typed_space, text[m.end():])
    return _SPACES.sub(_typed_space, text)


def is_punct(ch: str) -> bool:
    """A full-width bracket, full stop, comma or middle dot (what :func:`squeeze` works on)."""
    return ch in PUNCTUATION


def visible_count(text: str) -> int:
    """Characters of ``text`` that are not punctuation or spaces (for the short-last-line rule)."""
    marks = OPENING | CLOSING | FULL_STOPS | COMMAS | MIDDLE_DOTS | DIVIDING | INSEPARABLE
    return sum(1 for c in text if not c.isspace() and c not in marks and c != "\u2060")
