"""The names of the icons a card may use, as ``:name:`` in text or as ``icon:`` of an
``icon``/``icons`` element: the built-in ones (drawn by :mod:`cardgen.render.icons`) and a
game's own (``icons:`` in game.yaml, :class:`IconSpec`, drawn by :mod:`cardgen.render.svg_icons`),
and the finding for a name that is none of them."""
from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass

#: Call icons, each also as ``<name>_off`` (the call is not available on this card).
CALL_ICONS = ("pon", "chi", "ron", "tsumo", "kan")
#: Every built-in icon name.
BUILTIN_ICONS: tuple[str, ...] = ("power", "power_empty", "stick_dot") + CALL_ICONS + tuple(f"{n}_off" for n in CALL_ICONS)


#: The words of the call icons, as their kana labels print (and in Latin letters for a Latin-script edition).
CALL_WORDS = {"pon": "ポン", "chi": "チー", "ron": "ロン", "tsumo": "ツモ", "kan": "カン"}
LATIN_CALL_WORDS = {"pon": "PON", "chi": "CHI", "ron": "RON", "tsumo": "TSUMO", "kan": "KAN"}
_ICON_MARKUP = re.compile(r":([a-z][a-z0-9_]*):")


def icon_words(own: Mapping[str, "IconSpec"], terms: Mapping[str, str], latin: bool = False) -> dict[str, str]:
    """Each icon name the card text may use → the plain words that stand for it where no icon can
    be drawn (a Tabletop Simulator description): the game's ``terms`` entry of that name, else a
    game icon's label, else a call's word (ポン, or PON in a Latin-script edition; ``pon_off``:
    ポン不可 / no PON), else the name itself."""
    calls = LATIN_CALL_WORDS if latin else CALL_WORDS
    words = {n: n for n in BUILTIN_ICONS}
    words.update(calls)
    words.update({f"{n}_off": (f"no {w}" if latin else f"{w}不可") for n, w in calls.items()})
    words.update({n: spec.label or n for n, spec in own.items()})
    words.update({n: str(terms[n]) for n in words if terms.get(n)})
    return words


def plain_icons(text: str, words: Mapping[str, str]) -> str:
    """``text`` with each ``:name:`` of a known icon (:func:`icon_words`) written as its words;
    anything else, unknown names included, as typed."""
    return _ICON_MARKUP.sub(lambda m: words.get(m.group(1), m.group(0)), text)


@dataclass(frozen=True)
class IconSpec:
    """One of the game's own icons as layout needs it: ``file`` (resolved path of the SVG or
    PNG; layout never opens it), ``label`` printed across it, ``label_colour``."""

    file: str
    label: str = ""
    label_colour: str = "#000000"


#: The smallest size (pt) a game's own icon prints its label at; below it the icon is drawn
#: without the label (its picture only), as the built-in icons draw their symbol instead of kana.
LABEL_MIN_PT = 6.0


def label_size(icon_size: float, label: str) -> float:
    """The size (pt) of the label printed across a game's own icon ``icon_size`` pt square: one
    character at 0.55 of it, two at 0.38 (:func:`cardgen.render.svg_icons.draw_game_icon`)."""
    return icon_size * (0.55 if len(label) == 1 else 0.38)


#: How to fix an unknown icon name, wherever it is typed (card text, a template, the rules text).
UNKNOWN_ICON_HINT = "use one of the known icon names (`:power:` in text, `icon: power` in a template)"


def unknown_icon(name: str, known: tuple[str, ...] = BUILTIN_ICONS) -> str | None:
    """None for a known icon name (``known``: the built-in names, plus the game's own); else the message naming the closest known name and listing
    them all, e.g. ``unknown icon 'powr' (did you mean 'power'?); known icons: power, …``."""
    if name in known:
        return None
    close = difflib.get_close_matches(name, known, 1, 0.5)
    guess = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown icon {name!r}{guess}; known icons: {', '.join(known)}"
