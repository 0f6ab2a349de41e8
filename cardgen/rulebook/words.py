"""The rulebook's own words per language: what the rulebook prints that no rules file says (the
open-question notes and their appendix, the table of contents, the generated tables' headings,
the figures' labels), in Japanese (the built-in words every game has printed so far) and English.

An edition (:mod:`cardgen.data.editions`) may change any of them with a term of the same key:
``open_question: "Undecided:"`` for a note's label, ``setup_table.hand: "Cards in hand"`` for a
table heading. A language without words of its own gets the English ones.
"""
from __future__ import annotations


#: Words of the rulebook outside its generated tables, by language.
BOOK_WORDS: dict[str, dict[str, str]] = {
    "ja": {"open_question": "【未確定】", "in_this_edition": "この版では：", "options": "選択肢：", "why": "理由：",
           "where": "該当箇所：", "page": "{n}ページ", "pages_sep": "・", "not_in_text": "本文に記載なし",
           "options_sep": "／", "open_questions_title": "付録　未確定事項の一覧", "contents": "目次",
           "rulebook": "ルールブック", "wall": "山", "wall_count": "山（{n}枚）", "dead_wall": "王牌（{n}枚）",
           "glossary_title": "付録　用語と読み", "term": "用語", "reading": "読み",
           "seat": "{n}番手", "first_dealer": "（起家）", "river": "河", "hand": "手札"},
    "en": {"open_question": "Open question: ", "in_this_edition": "This edition uses: ", "options": "Options: ",
           "why": "Why: ", "where": "Where: ", "page": "page {n}", "pages_sep": ", ", "not_in_text": "not in the text",
           "options_sep": " / ", "open_questions_title": "Appendix: open questions", "contents": "Contents",
           "rulebook": "Rulebook", "wall": "Wall", "wall_count": "Wall ({n})", "dead_wall": "Dead wall ({n})",
           "glossary_title": "Appendix: terms and readings", "term": "Term", "reading": "Reading",
           "seat": "Player {n}", "first_dealer": " (first dealer)", "river": "River", "hand": "Hand"},
}

#: English words of the generated tables (:data:`cardgen.rulebook.tables.TABLE_WORDS` holds the
#: Japanese ones); ``unit_<kind>`` follows a component's count, ``removed_each`` / ``removed_for``
#: make the note under the setup table.
TABLE_WORDS_EN: dict[str, dict[str, str]] = {
    "setup_table": {"players": "Players", "removed": "Removed", "deck": "Cards used", "hand": "Hand (each)",
                    "dead_wall": "Dead wall", "draw_pile": "Wall", "turns": "Turns (each)", "players_unit": "",
                    "removed_note": "Cards removed", "none": "—", "removed_each": "one card each of {values}",
                    "removed_for": "{players} players: {what}", "removed_sep": "; ", "note_colon": ": ",
                    "values_sep": ", ", "removed_none": "none",
                    "removed_all": "every {what}", "removed_count": "{count} × {what}", "where_sep": ", ",
                    "where_pair": "{field} {value}", "where_cards": "the cards with {pairs}"},
    "component_table": {"name": "Component", "count": "Quantity", "note": "Notes", "not_included": "not included",
                        "unit_deck": "", "unit_tokens": "", "unit_tiles": "", "unit_strips": "", "unit_reference": ""},
    "breakdown_table": {"by": "Number", "count": "Cards", "has": "With {column}", "total": "Total"},
    "scoring_table": {"power": ":power: held", "bonus": "Power bonus (points)", "power_unit": "", "bonus_unit": "",
                      "or_more": " or more"},
}

#: The Japanese forms of the setup note's words (the table builders' defaults before editions).
SETUP_NOTE_JA = {"removed_each": "{values}を各1枚", "removed_for": "{players}{players_unit}のとき、{what}", "removed_sep": "／",
                 "note_colon": "：", "values_sep": "・", "removed_none": "なし",
                 "removed_all": "{what}をすべて", "removed_count": "{what}を{count}枚", "where_sep": "・",
                 "where_pair": "{field}{value}", "where_cards": "{pairs}のカード"}


def words_language(language: str) -> str:
    """The key of :data:`BOOK_WORDS` used for ``language``: ``ja`` for Japanese (and games without
    editions), else ``en`` (the Western words for every Latin-script language)."""
    return "ja" if language.split("-")[0].lower() == "ja" else "en"


def book_words(game) -> dict[str, str]:
    """The rulebook words of ``game``'s edition: the language's, then the edition's terms."""
    base = dict(BOOK_WORDS[words_language(game.language)])
    terms = game.edition.terms if game.edition is not None else {}
    base.update({k: v for k, v in terms.items() if k in base})
    return base


def table_defaults(game, name: str, japanese: dict[str, str]) -> dict[str, str]:
    """The words of generated table ``name`` for ``game``'s edition: ``japanese`` (the built-in
    words) or, for a Western edition, :data:`TABLE_WORDS_EN`; then the edition's terms
    ``<name>.<key>``."""
    words = dict(japanese)
    if name == "setup_table":
        words.update(SETUP_NOTE_JA)
    if words_language(game.language) == "en":
        words.update(TABLE_WORDS_EN.get(name, {}))
    terms = game.edition.terms if game.edition is not None else {}
    prefix = name + "."
    words.update({k[len(prefix):]: v for k, v in terms.items() if k.startswith(prefix)})
    return words
