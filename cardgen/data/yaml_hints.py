"""Specific hints for the two YAML mistakes designers make most, found in the text as written.

- An unquoted colour, ``stroke: #000000``: YAML reads ``#`` after a space as the start of a
  comment, so the value is empty — silently in block style, and in a flow mapping
  (``{stroke: #000000, size: 1}``) the comment eats the closing ``}`` and PyYAML reports a
  syntax error on a *later* line. :func:`comment_colours` finds the line where it happened.
- An unquoted ``: `` inside a text value, ``description: 遊び方: 3人``: YAML reads the second
  colon as the start of another key. :func:`colon_in_value` names the key and shows the value
  quoted.

- Full-width syntax typed with a Japanese IME left in full-width mode (:func:`fullwidth_syntax`): a
  full-width colon ``hand：4`` (PyYAML names the *next* line), a full-width space U+3000 in the
  indentation, after ``key:`` or at the end of a line, a value in typographic quotes
  ``“{{ card.number }}”``. Each is named with the half-width form to type; none is read as if
  it were half-width.

All are found from the line text, not by re-parsing: YAML's own error names only the place
where parsing gave up. Every check is linear in a line's length.
"""
from __future__ import annotations

import re

from cardgen.core.errors import Problem
from cardgen.core.unicode_text import ime_note

#: ``key: #hex`` with the ``#`` right after the space: a colour that YAML reads as a comment. The
#: key starts where a run of key characters starts (the lookbehind): tried from every character
#: of a run, a 20,000-character line without a colon took 3.6 s (the match is the same).
_COMMENT_COLOUR = re.compile(
    r"(?<![^\s{},\[\]:#\"'])(?P<key>[^\s{},\[\]:#\"']+):[ \t]+(?P<colour>#(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3,4}))(?=[\s,}\]]|$)")
#: The last ``key: value`` before a column: the key and where its value starts.
#: A line that starts as ``key: value`` (a mapping key, not prose that holds a colon).
_LEADING_KEY = re.compile(r"([A-Za-z_][\w-]*):[ \t]")
_KEY_BEFORE = re.compile(r"(?:^|[\s{,\[-])(?P<key>[^\s{},\[\]:#\"']+):[ \t]+(?P<value>[^{},\[\]\"']*)$")


def _outside_quotes(line: str, pos: int) -> bool:
    """True when ``pos`` in ``line`` is not inside a '…' or "…" string (a simple count)."""
    before = line[:pos]
    return before.count('"') % 2 == 0 and before.count("'") % 2 == 0


def comment_colours(text: str, file: str, first: int = 1, last: int | None = None) -> list[Problem]:
    """Unquoted colours (``key: #rrggbb``) read by YAML as comments, one error each, on lines
    ``first``…``last`` (1-based, inclusive; default: the whole text).

    Returns:
        list of :class:`Problem` (code ``yaml-colour-comment``) naming the key and the colour,
        with the quoted form as the hint. Lines that are comments themselves are skipped.
    """
    problems: list[Problem] = []
    lines = text.splitlines()
    last = len(lines) if last is None else min(last, len(lines))
    for number in range(max(first, 1), last + 1):
        line = lines[number - 1]
        if line.lstrip().startswith("#"):
            continue
        for m in _COMMENT_COLOUR.finditer(line):
            if not _outside_quotes(line, m.start()):
                continue
            key, colour = m.group("key"), m.group("colour")
            problems.append(Problem(
                file, number, "", f"the colour {colour} after '{key}:' is not quoted, so YAML reads it as a "
                "comment and the value is empty",
                f'put the colour in quotes: {key}: "{colour}"', code="yaml-colour-comment"))
    return problems


def colon_in_value(lines: list[str], line: int, column: int, file: str) -> Problem | None:
    """The unquoted ``: `` YAML refused at ``column`` (0-based) of line ``line`` (1-based) of
    ``lines``, when it lies inside the value of a ``key:`` on that line, or inside a plain value
    continued from a ``key:`` line above it; else None (the generic syntax message stays).

    Returns:
        a :class:`Problem` at ``line`` (code ``yaml-colon-in-value``) naming the key, whose hint
        shows the value in quotes.
    """
    text = lines[line - 1]
    if not text[column:column + 1] == ":":
        return None
    m = _KEY_BEFORE.search(text[:column])
    if m and m.group("value").strip():
        key, value = m.group("key"), _value_from(text, m.start("key"), m.start("value"), column)
    else:  # a plain value continued over lines: its key is on the nearest less indented line above
        indent = len(text) - len(text.lstrip(" "))
        parts = [text.strip()]
        for above in range(line - 2, -1, -1):
            prev = lines[above]
            if not prev.strip():
                return None
            if len(prev) - len(prev.lstrip(" ")) >= indent:
                parts.insert(0, prev.strip())
                continue
            m = _KEY_BEFORE.search(prev)
            if not m or not m.group("value").strip():
                return None
            if len(parts) == 1 and _LEADING_KEY.match(parts[0]):  # `key: value` one step too deep
                sibling = _LEADING_KEY.match(parts[0]).group(1)
                depth = m.start("key")  # the column of the key above (after a list's "- ")
                return Problem(file, line, "", f"'{sibling}:' is indented deeper than '{m.group('key')}:' on line "
                               f"{above + 1}, so YAML reads it as more of that key's value",
                               f"indent '{sibling}:' by {depth} spaces, as '{m.group('key')}:' is (or, if the ': ' "
                               f"belongs to the text, quote the value of '{m.group('key')}')",
                               code="yaml-indentation")
            key, value = m.group("key"), " ".join([m.group("value").strip(), *parts])
            break
        else:
            return None
    if " #" in value:
        value = value[:value.index(" #")].rstrip()
    return Problem(file, line, "", f"the value of '{key}' holds ': ' (a colon and a space), which YAML reads as "
                   "the start of another key",
                   f'put the whole value in quotes: {key}: "{value}"', code="yaml-colon-in-value")


def _value_from(text: str, key_at: int, value_at: int, column: int) -> str:
    """The value as written from ``value_at``: to the end of the line, or in a flow mapping
    (``{`` before the key) to the next ``,`` or ``}`` after the refused colon at ``column``."""
    rest = text[value_at:]
    if "{" in text[:key_at]:
        cut = re.search(r"[,}]", text[column:])
        if cut:
            rest = text[value_at:column + cut.start()]
    return rest.rstrip()


#: ``key：`` (a full-width colon U+FF1A) or ``key:`` + U+3000 where a mapping key starts: at the line's
#: start (after the indentation and a list's ``- ``), or after a flow mapping's ``{`` or ``,``. The key
#: is one run that cannot hold either colon, so a failed attempt is linear and attempts do not overlap.
_FW_KEY = re.compile("(?:^[ \u3000]*(?:-[ \u3000]+)?|(?<=[{,])[ \u3000]*)"
                     "(?P<key>[^\\s:\uff1a#'\"{}\\[\\],]+)(?P<colon>\uff1a|:\u3000)")
#: A value opened with a typographic quote “ or ‘ where YAML looks for a quote (after ``:``, ``-``,
#: ``[``, ``{`` or ``,`` and spaces).
_CURLY_VALUE = re.compile("(?:^|(?<=[:\\[{,-]))[ \t]*(?P<quote>[\u201c\u2018])")
_STRAIGHT = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})


def fullwidth_syntax(lines: list[str], first: int, last: int, file: str) -> list[Problem]:
    """YAML syntax typed full-width on lines ``first``…``last`` (1-based, inclusive) of ``lines``,
    one error each, at its own line: a full-width colon after a key (``hand：4``), a full-width
    space (U+3000) in the indentation, after ``key:`` or ending a line after ``:``, ``]``, ``}`` or
    a quote, a value in typographic quotes (``“…”``). For a syntax error PyYAML reported there; a
    full-width character inside a value (``遊び方：3人``, ``カード　``) is text and is not named.

    Returns:
        list of :class:`Problem` (code ``yaml-fullwidth``), each naming the character and the line
        as it should be typed.
    """
    out: list[Problem] = []
    for number in range(max(first, 1), min(last, len(lines)) + 1):
        line = lines[number - 1]
        body = line.lstrip(" \u3000")
        if body.startswith("#") or not body:
            if "\u3000" in line and not body:
                out.append(_fw(file, number, "the line holds only a full-width space (U+3000), which YAML reads "
                               "as a value", "delete the full-width space (an empty line is fine)"))
            continue
        if "\u3000" in line[:len(line) - len(body)]:
            out.append(_fw(file, number, "the line is indented with a full-width space (U+3000); YAML indents "
                           "with half-width spaces only", "retype the indentation with half-width spaces"))
            continue
        kept = line.rstrip(" ")
        if kept.endswith("\u3000"):
            core = kept.rstrip(" \u3000")
            if core[-1:] in (":", "]", "}", '"', "'"):
                out.append(_fw(file, number, f"the line ends in a full-width space (U+3000) after "
                               f"'{core.strip()[-30:]}', which YAML reads as one more value",
                               f"delete the full-width space at the end of the line: {_short(core.strip())}"))
                continue
        m = _FW_KEY.search(line)
        if m:
            key, rest = m.group("key"), line[m.end():].lstrip(" \u3000")
            what = ("is a full-width colon '：' (U+FF1A)" if m.group("colon") == "\uff1a"
                    else "is followed by a full-width space (U+3000)")
            out.append(_fw(file, number, f"the colon after '{key}' {what}, so YAML does not read '{key}' as a key",
                           "type a half-width colon and a half-width space: "
                           + _short(f"{line[:m.start('key')].lstrip(' ')}{key}: {rest}".rstrip())))
            continue
        q = _CURLY_VALUE.search(line)
        if q:
            opening = q.group("quote")
            closing = "\u201d" if opening == "\u201c" else "\u2019"
            end = line.find(closing, q.end())
            value = line[q.start("quote"):end + 1 if end >= 0 else len(line)].rstrip()
            out.append(_fw(file, number, f"the value {value[:60]} is in typographic quotes {opening}{closing} "
                           f"(U+{ord(opening):04X}, U+{ord(closing):04X}); YAML quotes a value only with straight "
                           "quotes \" or '", f"type straight (half-width) quotes: {_short(value.translate(_STRAIGHT))}"))
    return out


def _short(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[:most] + "…"


def _fw(file: str, line: int, message: str, hint: str) -> Problem:
    return Problem(file, line, "", message, hint + ime_note("YAML's syntax"), code="yaml-fullwidth")
