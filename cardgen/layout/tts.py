"""Tabletop Simulator deck sheets: pure geometry (no Pillow here).

TTS's custom deck dialog takes a "face" image holding a grid of cards (at most 10 columns ×
7 rows, at most 4096 px on a side — larger images are refused or blurred by the game), the
number of cards across and down, and one "back" image. The last slot of every grid shows the
card TTS uses for hidden cards (in another player's hand). So one sheet holds at most 69
cards, read left→right, top→bottom.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096


@dataclass(frozen=True)
class TtsSheet:
    """One face image: ``cols × rows`` cells of ``cell`` px; ``cards`` are deck positions per slot."""

    number: int  #: 1-based
    cols: int
    rows: int
    cell: tuple[int, int]
    cards: list[int] = field(default_factory=list)

    @property
    def hidden_slot(self) -> int:
        """The last slot, which Tabletop Simulator shows as the hidden card."""
        return self.cols * self.rows - 1

    @property
    def size(self) -> tuple[int, int]:
        """The sheet's size in pixels (width, height)."""
        return self.cols * self.cell[0], self.rows * self.cell[1]

    def slot_box(self, slot: int) -> tuple[int, int]:
        """Top-left pixel of ``slot`` (y down, image coordinates)."""
        r, c = divmod(slot, self.cols)
        return c * self.cell[0], r * self.cell[1]


def cell_size(card_w: float, card_h: float, cols: int = MAX_COLS, rows: int = MAX_ROWS,
              max_px: int = MAX_PX) -> tuple[int, int]:
    """Largest cell (px) with the card's aspect ratio such that ``cols × rows`` cells fit in ``max_px``."""
    scale = min(math.floor(max_px / cols) / card_w, math.floor(max_px / rows) / card_h)
    return min(math.floor(max_px / cols), int(card_w * scale + 0.5)), min(math.floor(max_px / rows), int(card_h * scale + 0.5))


MIN_ROWS = 2  #: Tabletop Simulator's custom deck dialog takes 2 to 7 cards down


def tts_sheets(count: int, card_w: float, card_h: float) -> list[TtsSheet]:
    """Sheets for ``count`` cards of trim size ``card_w × card_h`` (any unit): 10 columns and as
    many rows (2 to 7) as the sheet's cards and the hidden-card slot need, the last slot kept
    for the hidden-card image. The cell size is that of a full 10 × 7 sheet, so every sheet
    of a deck has the same pixels per card."""
    per = MAX_COLS * MAX_ROWS - 1
    cell = cell_size(card_w, card_h)
    out = []
    for n, start in enumerate(range(0, count, per), 1):
        cards = list(range(start, min(count, start + per)))
        rows = min(MAX_ROWS, max(MIN_ROWS, math.ceil((len(cards) + 1) / MAX_COLS)))
        out.append(TtsSheet(n, MAX_COLS, rows, cell, cards))
    return out


# ------------------------------------------------------------------ the saved object

#: Tabletop Simulator's card shape for a custom deck (0: rectangle with rounded corners).
CARD_TYPE = 0
#: The shape of a deck of tokens (1: a rectangle with square corners, as a token is cut).
TOKEN_TYPE = 1
#: The width (mm) of a card at scale 1 in Tabletop Simulator (a poker card): a token's scale is
#: its width over this, so 16 mm tokens lie on the table at about a quarter of a card's width.
TTS_CARD_MM = 63.5
SPACING = 3.0  #: table units between two decks laid side by side


def card_id(deck_id: int, slot: int) -> int:
    """A card's id in a saved object: its sheet's ``CustomDeck`` key × 100 + its slot on the sheet."""
    return deck_id * 100 + slot


def transform(x: float = 0.0, face_down: bool = True, scale: float = 1.0) -> dict:
    """An object's ``Transform``: at ``x`` on the table, face down (rotZ 180) like a deck in play,
    ``scale`` times a card's size across the table (its thickness kept)."""
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def token_scale(width_mm: float) -> float:
    """The ``Transform`` scale of a token ``width_mm`` wide (:data:`TTS_CARD_MM`), to 3 decimals."""
    return round(width_mm / TTS_CARD_MM, 3)


def custom_deck(face_url: str, back_url: str, sheet: TtsSheet, unique_back: bool, card_type: int = CARD_TYPE) -> dict:
    """One ``CustomDeck`` entry: a face sheet, its back (a sheet of the same grid when
    ``unique_back``), the grid, the back shown for hidden cards, the shape (``card_type``:
    :data:`CARD_TYPE` or :data:`TOKEN_TYPE`)."""
    return {"FaceURL": face_url, "BackURL": back_url, "NumWidth": sheet.cols, "NumHeight": sheet.rows,
            "BackIsHidden": True, "UniqueBack": unique_back, "Type": card_type}


def deck_object(name: str, cards: list[tuple[int, dict, str, str]], decks: dict[int, dict], x: float,
                scale: float = 1.0) -> dict:
    """A ``DeckCustom`` object (``CardCustom`` for a single card): ``cards`` are ``(CardID, its
    CustomDeck entry's key → entry, Nickname, Description)`` in deck order; ``decks`` every
    ``CustomDeck`` entry the cards use, by id; ``scale`` (:func:`transform`) for tokens."""
    contained = [{"Name": "Card", "Transform": transform(x, scale=scale), "Nickname": nick, "Description": desc,
                  "CardID": cid, "CustomDeck": deck, "Tooltip": True}
                 for cid, deck, nick, desc in cards]
    if len(contained) == 1:
        return {**contained[0], "Name": "CardCustom"}
    return {"Name": "DeckCustom", "Transform": transform(x, scale=scale), "Nickname": name, "Description": "",
            "DeckIDs": [c["CardID"] for c in contained], "CustomDeck": {str(k): v for k, v in decks.items()},
            "ContainedObjects": contained}


def saved_object(name: str, objects: list[dict]) -> dict:
    """A Tabletop Simulator save holding ``objects`` (what "Saved Objects" loads as it is)."""
    return {"SaveName": name, "GameMode": "", "Date": "", "VersionNumber": "", "Gravity": 0.5, "PlayArea": 0.5,
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "TabStates": {}, "ObjectStates": objects}
