"""Layout findings of the planned components as problems naming the card and the field, with hints."""
from __future__ import annotations

import difflib
from pathlib import Path

from cardgen.core.errors import Problem, did_you_mean
from cardgen.data.game import Game
from cardgen.layout.icon_names import BUILTIN_ICONS, UNKNOWN_ICON_HINT
from cardgen.steps.component_plans import ComponentPlans


#: The font roles of fonts/fonts.yaml every game has (card templates and the rulebook use them).
STANDARD_ROLES = ("body", "heading", "serif", "number")


def unused_font_roles(game: Game, roles, plans: list[ComponentPlans]) -> list[Problem]:
    """A warning for each role of game.yaml's ``fonts:`` that is a new role (not one of ``roles``
    that came from fonts/fonts.yaml, nor a standard one), close to an existing role's name, and
    drawn by no card face: ``bdoy: MyFont`` meant to change ``body``, which keeps its font. (A
    new role a template uses, ``title: MyFont``, is a legitimate choice and is not named.)"""
    declared = dict(game.manifest.fonts)
    existing = sorted((set(roles) - set(declared)) | set(STANDARD_ROLES))
    used = {getattr(op, "font", None) for p in plans for face in (*p.fronts, *p.backs) if face is not None
            for op in face.ops}
    out = []
    for role in declared:
        close = difflib.get_close_matches(role, existing, 1, 0.7)
        if role not in existing and role not in used and close:
            out.append(game.problem(("fonts", role), f"no card face uses the font role {role!r}; did you mean "
                                    f"{close[0]!r}?", f"the role {close[0]!r} keeps its font from fonts/fonts.yaml; "
                                    "rename the key to change it", code="unused-font-role", severity="warning"))
    return out


#: The words of the manifest's ``terms:`` that cardgen reads besides column and icon names (deck
#: math, the pair odds, the simulator's reports; see the field's description in data/manifest.py).
TERM_WORDS = ("hands", "dead_wall", "turns", "pair", "win", "dealer", "non_dealer", "exhaustive_draw")


def unknown_terms(game: Game) -> list[Problem]:
    """A warning for each key of game.yaml's ``terms:`` that cardgen reads nowhere: none of
    :data:`TERM_WORDS`, a column of a card table (or of the simulator's own deck) or an icon name
    (``hnads: 手札`` meant ``hands``, which keeps its default word), with the closest name."""
    m = game.manifest
    if not m.terms:
        return []
    columns = {k for rows in game.tables.values() for r in rows[:1] for k in r.values}
    if m.insight.model is not None:
        columns |= {k for row in m.insight.model.deck for k in row if k != "count"}
    known = [*TERM_WORDS, *sorted(columns - set(TERM_WORDS)), *BUILTIN_ICONS, *m.icons]
    words = ", ".join(TERM_WORDS)
    return [game.problem(("terms", key), f"no word, card column or icon is called {key!r}, so this term is "
                         f"never used{did_you_mean(key, known)}",
                         f"a term renames one of {words}, a card column (e.g. the pair odds' or breakdown_table's "
                         "`by`) or an icon; rename the key, or remove it", code="unknown-term", severity="warning")
            for key in m.terms if key not in known]


def layout_problems(game: Game, plans: list[ComponentPlans]) -> list[Problem]:
    """Layout findings as problems naming the card and the field.

    The same finding on several cards (a template expression that fails for every card, an
    image file used by many rows) is one problem naming the cards: at the template line when
    the template is at fault, else at the first card's row."""
    groups: dict[tuple, list] = {}
    for p in plans:
        for f in p.findings:
            at_template = f.file != f.card.file  # else at the card's row
            where = (f.file, f.line) if at_template else ("", None)
            # images named from each card's row (art/{{ card.id }}.png) in a folder that is not there:
            # one finding for the field, naming the folder (the file's path is as messages show it)
            gone = (f.detail or {}).get("file") if f.code == "missing-file" and not at_template else None
            missing = bool(gone) and not Path(gone).parent.is_dir()
            key = (*where, p.component, f.field, "" if missing else f.message, f.severity, f.code)
            groups.setdefault(key, []).append(f)
    out = []
    for (file, line, comp, fld, message, severity, code), hits in groups.items():
        f = hits[0]
        cards = list(dict.fromkeys(h.card.label.removeprefix(f"{comp} ") for h in hits))
        hint = _HINTS.get(code, "")
        if not message:  # images of several cards in a missing folder (see above)
            files = list(dict.fromkeys(h.detail["file"] for h in hits))
            folders = list(dict.fromkeys(str(Path(x).parent) for x in files))
            message = (f.message if len(files) == 1 else
                       f"the folder {folders[0]}/ does not exist: none of the {len(files)} images can be drawn"
                       if len(folders) == 1 else f"{len(files)} images are in folders that do not exist: "
                       + ", ".join(x + "/" for x in folders[:3]) + (f" and {len(folders) - 3} more" if len(folders) > 3 else ""))
            if len(files) > 1:
                hint = "make the folder in the game folder and put the images in it, or fix the file name the template makes"
        if not f.card.card_id:  # a back shared by every card (shared_face_findings)
            message = f"{message} (the back shared by every card of {comp})"
        elif len(cards) > 1 or file:
            shown = ", ".join(cards[:3]) + (f" and {len(cards) - 3} more" if len(cards) > 3 else "")
            message = f"{message} (card{'s' if len(cards) > 1 else ''} {shown})"
        if file:
            where, at, path = file, line, f"elements → {fld}"
        else:
            where, at = f.card.file or game.manifest_file, f.card.line
            path = f"{f.card.label} → {fld}" if len(cards) == 1 else f"{comp} → {fld}"
        out.append(Problem(where, at, path, message, hint, severity, code,
                           card=f.card if len(cards) == 1 else None, field=fld))
    return out


_HINTS = {
    "unknown-icon": UNKNOWN_ICON_HINT,
    "bad-colour": "write a colour in this cell of the card table: #rgb, #rrggbb, #rrggbbaa or a CSS colour name such as red",
    "text-overflow": "shorten the text, or give the box more room or a smaller min_size in the template",
    "text-shrunk": "the text is smaller than the template's preferred size; shorten it for a uniform look",
    "outside-safe": "keep text at least the safe distance inside the trim",
    "past-trim": "move the box inside the card, the safe distance (print.safe) from its edges: boxes are [x, y, width, "
                 "height] in mm from the trim's top-left corner",
    "cut-tolerance": "move the box in (print.cut_tolerance in game.yaml sets the distance), or set bleed: true",
    "small-text": "give the box more room or shorten the text; min_size below 6 pt says it is meant",
    "template-expr": "check the field names used in the template against the card table's columns",
    "template-sandbox": "templates may read card, game and design values only",
    "template-limit": "keep numbers, strings and loops small (docs/security.md lists the limits)",
    "missing-file": "put the image in the game folder, or fix the file name (it is relative to the game folder)",
    "missing-glyph": "use another character, or a font that has it (fonts: in game.yaml or fonts/fonts.yaml)",
    "no-vertical-form": "use a font with vertical forms (the OpenType vert feature: IPAex, Noto Sans/Serif CJK), or set this text horizontally",
    "bad-image": "save it as PNG or JPEG",
    "image-too-large": "scale the image down (300 dpi at the printed size is enough)",
    "path-escape": "name a file inside the game folder, relative to it",
    "icons-overflow": "lower the number or give the box more room",
}
