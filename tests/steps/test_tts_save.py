"""天雀牌's Tabletop Simulator saved object (tts/tenjanpai.json) against the saved-object field
list: the save's keys, one DeckCustom per deck with Nickname, DeckIDs, CustomDeck entries
{FaceURL, BackURL, NumWidth, NumHeight, BackIsHidden, UniqueBack}, every card a Card with
Nickname (the card's name field), Description (its text fields) and CardID = deck × 100 + slot —
and the card at that slot of that sheet's image is the card (same row, same pixels). A deck of
84 cards is split into two CustomDecks (69 + 15). Tokens are a deck too (square corners, their
size beside the cards, a one-sided token's face on both sides)."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from PIL import Image

from cardgen.api import build_game
from cardgen.steps.exports import ExportOptions
from tests.conftest import ROOT, copy_game, needs_fonts, replace_in

pytestmark = needs_fonts

SAVE_KEYS = {"SaveName", "GameMode", "Date", "Table", "Sky", "Note", "Rules", "XmlUI", "LuaScript",
             "LuaScriptState", "TabStates", "ObjectStates"}
DECK_KEYS = {"Name", "Transform", "Nickname", "Description", "DeckIDs", "CustomDeck", "ContainedObjects"}
CARD_KEYS = {"Name", "Transform", "Nickname", "Description", "CardID", "CustomDeck"}
CUSTOM_DECK_KEYS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"}
TRANSFORM_KEYS = {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _physical(rows: list[dict]) -> list[dict]:
    return [r for r in rows for _ in range(int(r.get("count") or 1))]


def _file(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(url[len("file://"):])


def _check(save: dict, decks: dict[str, list[dict]], name_of, text_of) -> dict:
    sheets: dict[str, Image.Image] = {}

    def _sheet(url: str) -> Image.Image:
        """A deck sheet's image as RGB, decoded once (not once per card on it)."""
        if url not in sheets:
            with Image.open(_file(url)) as im:
                sheets[url] = im.convert("RGB")
        return sheets[url]

    assert SAVE_KEYS <= set(save) and isinstance(save["ObjectStates"], list)
    got = {}
    ids: set[str] = set()
    for obj in save["ObjectStates"]:
        assert obj["Name"] == "DeckCustom" and DECK_KEYS <= set(obj)
        assert TRANSFORM_KEYS <= set(obj["Transform"])
        cards = decks[obj["Nickname"]]
        contained = obj["ContainedObjects"]
        assert len(contained) == len(obj["DeckIDs"]) == len(cards)
        assert [c["CardID"] for c in contained] == obj["DeckIDs"]
        assert not ids & set(obj["CustomDeck"])  # CustomDeck keys are unique in the file
        ids |= set(obj["CustomDeck"])
        for entry in obj["CustomDeck"].values():
            assert CUSTOM_DECK_KEYS <= set(entry)
            assert entry["NumWidth"] <= 10 and 2 <= entry["NumHeight"] <= 7
            assert isinstance(entry["BackIsHidden"], bool) and isinstance(entry["UniqueBack"], bool)
        faces: dict[str, list] = {}
        for card, row in zip(contained, cards):
            assert card["Name"] == "Card" and CARD_KEYS <= set(card)
            deck_id, slot = divmod(card["CardID"], 100)
            assert list(card["CustomDeck"]) == [str(deck_id)] and str(deck_id) in obj["CustomDeck"]
            entry = obj["CustomDeck"][str(deck_id)]
            assert slot < entry["NumWidth"] * entry["NumHeight"] - 1  # the last slot is the hidden card's
            assert card["Nickname"] == name_of(row) and card["Description"] == text_of(row)
            im = _sheet(entry["FaceURL"])
            cw, ch = im.size[0] // entry["NumWidth"], im.size[1] // entry["NumHeight"]
            r, c = divmod(slot, entry["NumWidth"])
            cell = im.crop((c * cw, r * ch, (c + 1) * cw, (r + 1) * ch)).tobytes()
            faces.setdefault(row["id"], []).append(cell)
        # every card's cell shows its row's face: copies alike, different rows different
        assert all(len(set(cells)) == 1 for cells in faces.values())
        assert len({cells[0] for cells in faces.values()}) == len(faces)
        got[obj["Nickname"]] = obj
    assert set(got) == set(decks)
    return got


CHAR_TEXT = ("title", "skill_name", "skill_text", "ougi_name", "ougi_text")


#: TTS shows text only: the card text's icons as 天雀牌's words (its `terms: power:` and the call kana)
ICON_TEXT = {":power:": "パワー", ":pon:": "ポン", ":chi:": "チー"}


def _text(row: dict) -> str:
    text = "\n".join(row[k] for k in CHAR_TEXT if row.get(k)) if "name" in row else ""
    for markup, words in ICON_TEXT.items():
        text = text.replace(markup, words)
    return text


def _name(row: dict) -> str:
    return row["name"] if "name" in row else row["number"] if "number" in row else row["id"]


#: 天雀牌's power tokens (game.yaml: 40 of one face, 16 mm, no back), as the save holds them
TOKENS = [{"id": "power"}] * 40


def test_tenjanpai_tts_save(tmp_path):
    res = build_game(ROOT / "card_data" / "tenjanpai", tmp_path, steps=("tts",), exports=ExportOptions(jobs=2))
    save = json.loads((res.out_dir / "tts" / "tenjanpai.json").read_text(encoding="utf-8"))
    data = ROOT / "card_data" / "tenjanpai"
    decks = {"闘牌カード": _physical(_rows(data / "battle.csv")), "天雀カード": _physical(_rows(data / "characters.csv")),
             "パワーキューブ": TOKENS}
    got = _check(save, decks, _name, _text)
    assert len(got["闘牌カード"]["DeckIDs"]) == 42 and len(got["天雀カード"]["DeckIDs"]) == 15
    tokens = got["パワーキューブ"]
    [entry] = tokens["CustomDeck"].values()
    assert entry["Type"] == 1 and all(e["Type"] == 0 for o in ("闘牌カード", "天雀カード") for e in got[o]["CustomDeck"].values())
    assert entry["BackURL"] == entry["FaceURL"] and entry["UniqueBack"]  # no back: the face up or down
    scale = tokens["Transform"]
    assert abs(scale["scaleX"] - 16 / 63.5) < 0.001 and scale["scaleZ"] == scale["scaleX"]  # 16 mm beside a 63.5 mm card
    assert scale["scaleY"] == 1.0
    assert got["闘牌カード"]["Transform"]["scaleX"] == 1.0
    assert {c["Nickname"] for c in got["天雀カード"]["ContainedObjects"]} >= {"李紅蓮"}
    texts = [c["Description"] for o in save["ObjectStates"] for c in o["ContainedObjects"]]
    assert not [t for t in texts if re.search(r":[a-z][a-z0-9_]*:", t)]  # no raw icon markup
    assert any("パワーを1個得る。" in t for t in texts) and any("ポン" in t for t in texts)
    assert not (res.out_dir / "tts" / "decks.json").exists()


def test_a_deck_past_69_cards_is_split(tmp_path):
    game = copy_game(tmp_path / "copy")
    csv_path = game / "battle.csv"
    rows = _rows(csv_path)
    for r in rows:
        r["count"] = str(2 * int(r["count"]))
    with csv_path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    replace_in(game / "game.yaml", "    count: 42\n", "    count: 84\n")
    res = build_game(game, tmp_path / "out", steps=("tts",), exports=ExportOptions(jobs=2), force=True)
    save = json.loads((res.out_dir / "tts" / "tenjanpai.json").read_text(encoding="utf-8"))
    decks = {"闘牌カード": _physical(rows), "天雀カード": _physical(_rows(game / "characters.csv")), "パワーキューブ": TOKENS}
    got = _check(save, decks, _name, _text)
    battle = got["闘牌カード"]
    assert len(battle["CustomDeck"]) == 2
    per_sheet = [sum(1 for i in battle["DeckIDs"] if i // 100 == int(k)) for k in battle["CustomDeck"]]
    assert per_sheet == [69, 15]


def test_base_url(tmp_path):
    res = build_game(ROOT / "card_data" / "tenjanpai", tmp_path, steps=("tts",),
                     exports=ExportOptions(jobs=2, tts_base_url="https://example.com/tj/tts/"))
    save = json.loads((res.out_dir / "tts" / "tenjanpai.json").read_text(encoding="utf-8"))
    urls = [e[k] for o in save["ObjectStates"] for e in o["CustomDeck"].values() for k in ("FaceURL", "BackURL")]
    assert urls and all(u.startswith("https://example.com/tj/tts/") and "//" not in u[8:] for u in urls)
    assert all((res.out_dir / "tts" / u.rsplit("/", 1)[1]).is_file() for u in urls)
