"""The typed game model: what a manifest (``card_data/<game>/game.yaml``) may say.

Every field carries help text; docs/manifest.md is generated from these models
(:func:`cardgen.refdocs.manifest_docs.manifest_reference`). Lengths are mm numbers or strings with a unit
(``"2.5in"``); they stay as written here and are converted by :mod:`cardgen.core.units`.
"""
# Annotations are objects, not strings (no `from __future__ import annotations`): pydantic would
# evaluate each string at class creation (the manifest's models: 5-13 ms of every command that reads a game, measured).

from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cardgen.data.edition_model import Edition
from cardgen.data.fields import MAX_GAME_ID, Colour, Id, Length, Players
from cardgen.data.loaded import RawFloat, RawInt
from cardgen.data.sim_model import GameModel


class Strict(BaseModel):
    """Base: unknown keys are errors (reported with a did-you-mean), the model is frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def _text(value: Any) -> Any:
    """Text fields keep what the designer typed: ``1.10`` stays "1.10", ``007`` stays "007"."""
    if isinstance(value, (RawInt, RawFloat)):
        return value.raw
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


class Choice(Strict):
    """An open question: a value or rule the design draft leaves open (silent, or contradicting
    itself), the options, the one this build uses and why.

    The rules text marks every paragraph that depends on it with ``{{ open_question('ID') }}``;
    the rulebook prints a boxed 【未確定】 note there and lists every open question, with its
    pages, in an appendix. ``--final`` builds refuse while any choice is still open.
    """

    id: str = Field(description="Short name the rules text uses, e.g. `pon-caller` in `{{ open_question('pon-caller') }}`.",
                    pattern=r"^[a-z0-9][a-z0-9_-]*$")
    question: str = Field(description="The question as printed in the rulebook, e.g. `不要牌をポン・チーできるのは誰か`.")
    options: list[str] = Field(description="The possible answers (at least two), as printed; `use` is one of them.",
                               min_length=2)
    use: str = Field(description="The option this build uses (one of `options`), printed in the note.")
    why: str = Field(description="Why this build uses it: what the draft says or does not say (one or two sentences).")
    decided: bool = Field(False, description="`true` once the designer has decided: the rulebook no longer marks it "
                                             "and `--final` no longer refuses (keep it as a record).")

    _v = field_validator("question", "use", "why", mode="before")(_text)


class GameInfo(Strict):
    """Who the game is and which draft this is."""

    id: Id = Field(max_length=MAX_GAME_ID,
                   description="Short machine name of the game (used for the output folder), e.g. `tenjanpai`.")
    title: str = Field(description="Title as printed, e.g. `天雀牌`.")
    subtitle: str = Field("", description="Optional subtitle printed under the title.")
    version: str = Field(description="Manifest version printed on every sheet, e.g. `draft 3` (text, never a number).")
    players: list[Players] = Field(description="Supported player counts, each from 1 to 12, e.g. `[3, 4]`; each needs a setup entry.",
                               min_length=1)
    source: str = Field("", description="Where the facts come from (a seed file, a playtest).")
    choices: list[Choice] = Field(default_factory=list,
                                  description="Open questions: values the design draft leaves open, the options, "
                                              "the one this build uses and why (see Choice).")

    _v = field_validator("title", "subtitle", "version", "source", mode="before")(_text)


class SizeSpec(Strict):
    """An explicit size."""

    width: Length = Field(description="Width (mm, or a string with a unit).")
    height: Length = Field(description="Height (mm, or a string with a unit).")


class PrintSettings(Strict):
    """How components are printed."""

    card_size: Union[str, SizeSpec] = Field("poker", description="Card size preset (`poker` 63×88 mm, `poker-us` 63.5×88.9 (2½×3½ in), `bridge` 58×89, `bridge-us` 57.15×88.9 (2¼×3½ in), `mini` 44×63, `tarot` 70×120, `mahjong` 20×27) or `{width, height}`.")
    bleed: Length = Field(3, validate_default=True, description="Bleed around every card, mm (塗り足し). Art is extended this far past the trim.")
    safe: Length = Field(3, validate_default=True, description="Safe area inset inside the trim, mm: text is kept at least this far in.")
    cut_tolerance: Length = Field(3, validate_default=True, description="Frames and text boxes keep at least this far inside the trim, mm, "
                                  "or run into the bleed (a preflight warning otherwise): home duplex and hand "
                                  "cutting are off by about 1 mm.")
    shop: str | None = Field(None, description="Print-shop preset of `cardgen shop` and the build's shop files "
                             "(`popls`, `jelly2print`, `printry`, `drivethrucards`, `thegamecrafter`; "
                             "cardgen/presets/shops.yaml, docs/printing-shops.md); `--preset` overrides it.")
    cmyk_profile: str | None = Field(None, description="CMYK ICC profile of the shop files, a file in the game "
                                     "folder (default: Ghostscript's default_cmyk.icc, docs/printing-shops.md).")
    rich_black: list[float] | None = Field(None, min_length=4, max_length=4,
                                           description="C, M, Y, K percent of large black solids in CMYK shop files "
                                           "(default: the shop's, else C40 M30 Y30 K100), e.g. `[60, 40, 40, 100]`.")

    @field_validator("rich_black")
    @classmethod
    def _percentages(cls, v):
        if v is not None and not all(0 <= x <= 100 for x in v):
            raise ValueError("each of C, M, Y, K is a percentage from 0 to 100")
        return v


class TtsFields(Strict):
    """What a card is called in Tabletop Simulator (`tts/<game>.json`): the tooltip's name and text."""

    name: str = Field("name", description="Card column whose value is the card's name (`Nickname`); a card without it is named by its id.")
    description: list[str] = Field(default_factory=list, description="Card columns whose values, one a line, are the card's text (`Description`), e.g. `[title, skill_name, skill_text]`.")


class Component(Strict):
    """A physical component: a deck of cards, a sheet of tokens or tiles, or something not included."""

    id: Id = Field(description="Short machine name, e.g. `battle`.")
    name: str = Field(description="Name as printed, e.g. `闘牌カード`.")
    kind: Literal["deck", "tokens", "tiles", "strips", "reference", "not_included", "data"] = Field(
        "deck", description="`deck` (cards with fronts and backs), `tokens` (punch-out tokens), `tiles` (stickers for tiles), `strips` (point-stick strips), `reference` (a reference card), `not_included` (listed, never printed), `data` (a table the rules, templates and rulebook read, e.g. a yaku list; never printed).")
    count: int | None = Field(None, ge=0, description="Declared number of physical pieces; the validator checks the table adds up to it.")
    cards: Union[str, list[dict[str, Any]], None] = Field(None, description="Card table: a file in the game folder — CSV (`,` `;` or tab separated) or a spreadsheet (`.xlsx`, `.ods`; `cards.xlsx#battle` names the sheet, else the first) — or a list of rows inline. Each row needs `id`; a `count` column gives copies per row (default 1).")
    quantity: str = Field("count", description="Column holding copies per row.")
    fields: dict[str, Literal["int", "float", "bool", "text"]] = Field(default_factory=dict, description="Column types of the card table (`int`, `float`, `bool`, `text`); columns not named here are text.")
    template: str | None = Field(None, description="Face template: a name in the game's own templates/cards/ (without `.yaml`), or `shared/NAME` for the project's shared templates/cards/NAME.yaml (a plain name never falls back on a shared template).")
    back: str | None = Field(None, description="Back template, named as `template` is (`NAME` in the game's own templates/cards/, `shared/NAME`), or none for no backs.")
    size: Union[str, SizeSpec, None] = Field(None, description="Piece size; default is `print.card_size`.")
    tts: TtsFields = Field(default_factory=TtsFields, description="The card's name and text in the Tabletop Simulator saved object (see TtsFields).")
    cut: Literal["separate", "shared"] = Field("separate", description="How the print sheets are cut: `separate` (each piece keeps its own bleed: two cuts between neighbours) or `shared` (pieces touch at their trim lines, one cut between neighbours, the bleed and the crop marks only around the outside of the block: for a flat background that runs to the edge, e.g. tokens).")
    note: str = Field("", description="A note printed in the component list, e.g. why it is not included.")
    draft: bool = Field(False, description="The whole component is draft content (listed as a warning).")
    translate: list[str] = Field(default_factory=list, description="Text columns an edition translates (`editions`), e.g. `[name, skill_text]`; every other column is shared by all editions.")

    _v = field_validator("name", "note", mode="before")(_text)


class Removal(Strict):
    """Cards taken out of the deck for a player count."""

    where: dict[str, Any] = Field(description="Field values the removed cards have, e.g. `{number: 2}`.")
    count: Union[int, Literal["all"]] = Field(1, description="How many matching cards to remove, or `all`.")


class PlayerCount(Strict):
    """Setup for one player count (the deck math the validator checks)."""

    players: Players = Field(description="How many players this entry is for: a whole number from 1 to 12, one entry per count listed in `game.players`, e.g. `- players: 4`.")
    remove: list[Removal] = Field(default_factory=list, description="Cards removed from the deck before play.")
    hand: int | None = Field(None, ge=0, description="Cards dealt to each player (手札); leave out when the game has no dealt deck (no deck math then).")
    dead_wall: int = Field(0, ge=0, description="Cards set aside, never drawn (王牌).")
    turns: int | None = Field(None, ge=0, description="Turns each player takes in a round, as the rules declare; checked against the deck math.")
    wins_per_round: int | None = Field(None, ge=0, description="Wins allowed in one round, where the rules set it (e.g. players − 1); checked against `setup.derive.wins_per_round` when that is given.")
    values: dict[str, int] = Field(default_factory=dict, description="Other per-player-count numbers the rules state (name → whole number); each is checked against `setup.derive` when it names the same key.")


class Setup(Strict):
    """What the deck math runs over."""

    deck: str | None = Field(None, description="Component id of the deck that is dealt and drawn; leave out for games without a dealt deck (then only `derive` is computed).")
    derive: dict[str, str] = Field(default_factory=dict, description="Numbers computed for every player count from an expression over `players` and `design`, e.g. `wins_per_round: players - 1`. They appear in the report and the rulebook; a player count stating the same key (`wins_per_round:` or under `values:`) is checked against them.")
    player_counts: list[PlayerCount] = Field(description="One entry per supported player count.", min_length=1)


class DesignRule(Strict):
    """A design rule the validator checks: a small expression (jinja2 sandboxed syntax)."""

    id: str = Field(description="Short name of the rule.")
    description: str = Field(description="The rule in words, shown when it fails.")
    deck: str = Field(description="Component id whose table the rule runs over: any component with a card table (a deck, tiles, point sticks, a yaku list…).")
    scope: Literal["card", "deck"] = Field("card", description="`card`: `check` must hold for every card row (`card`); `deck`: once for the whole table (`cards`). Every component's rows are also available as `tables.<component id>`.")
    when: str | None = Field(None, description="Only card rows where this expression is true are checked (scope `card`).")
    check: str = Field(description="The expression that must be true, e.g. `card.power == card.pon + card.chi`.")
    explain: str | None = Field(None, description="Optional expression evaluated when the check fails; its value is added to the message (e.g. which tiles are missing).")
    severity: Literal["error", "warning"] = Field("error", description="`error` stops a build; `warning` is reported only.")


class TableSettings(Strict):
    """Columns and words of one generated rulebook table (`rulebook.tables.<table>`, e.g.
    `setup_table`). What is not given keeps the built-in words (Japanese mahjong terms: 王牌,
    手番…) and columns; the keys of each table are listed under "Generated rulebook tables" below."""

    columns: list[str] | None = Field(None, description="Column keys in the order printed, e.g. `[players, deck, hand, draw_pile]` for a game without a dead wall; `setup_table` also takes any `setup.derive` name. Leave out for the default columns.")
    headings: dict[str, str] = Field(default_factory=dict, description="Column key (or word key, e.g. `players_unit`, `removed_note`, `total`) → text as printed, e.g. `{dead_wall: 伏せ札, turns: 手番（1人）}`; keys not given keep their default.")


class RulebookSettings(Strict):
    """How the rulebook (``cardgen rulebook``) is set: numbering, paper, extra values.

    The rules text lives in ``card_data/<game>/rules/*.md`` (jinja2 + Markdown); the page
    design in ``templates/rulebook/<template>.yaml``. See :mod:`cardgen.rulebook.markdown` and
    :mod:`cardgen.rulebook.numbering`.
    """

    numbering: Literal["plain", "decimal", "statute"] = Field(
        "plain", description="Heading numbers: `plain` (none), `decimal` (1. / 1.1), `statute` (第1章 / 第1条 / 1項; see `item_style`).")
    number_from: int = Field(2, ge=1, le=6, description="Markdown heading level that gets the first number (2: `#` is the book title, `##` are chapters).")
    depth: int = Field(2, ge=1, le=4, description="How many heading levels, from `number_from` down, are numbered.")
    first_chapter: int = Field(1, ge=1, description="Statute style: number of the first chapter, e.g. `4` when the rules restate chapter 4 of a longer code (第4章).")
    first_article: int = Field(1, ge=1, description="Statute style: number of the first article (第19条); articles count on from it across chapters.")
    item_style: Literal["ko", "circled"] = Field("ko", description="Statute style, third level: `ko` (1項) or `circled` (①).")
    toc: bool = Field(True, description="Print a table of contents after the title.")
    toc_depth: int = Field(2, ge=1, le=4, description="Heading levels listed in the table of contents, from `number_from` down.")
    glossary: bool = Field(False, description="End the rulebook with a list of every term the rules text gives a reading (ruby: `｜聴牌《テンパイ》`, `{聴牌|テンパイ}`), in the order of the readings (五十音順).")
    paper: Literal["a5", "a4", "b5", "letter"] = Field("a5", description="Paper of the rulebook (A5 booklet by default); `cardgen rulebook --paper` overrides it.")
    template: str = Field("default", description="Page design: a name in the game's own templates/rulebook/ (without `.yaml`; `default`: the built-in design when the game has none), or `shared/NAME` for the project's shared templates/rulebook/NAME.yaml.")
    breakdown_by: str = Field("number", description="Column of the setup deck that `breakdown_table` groups by.")
    breakdown_columns: list[str] = Field(default_factory=list, description="Int columns of the setup deck shown in `breakdown_table` as the number of cards that have them (> 0), e.g. `[pon, chi]`.")
    values: dict[str, str] = Field(default_factory=dict, description="Extra names for the rules text, each a jinja2 expression over the rulebook context, e.g. `character_count: components.characters.count`.")
    tables: dict[str, TableSettings] = Field(default_factory=dict, description="Generated table name (`setup_table`, `component_table`, `breakdown_table`, `scoring_table`) → its columns and headings (TableSettings); the defaults are the built-in Japanese words.")


class OddsDeclaration(Strict):
    """One set of exact odds ``cardgen odds`` computes from the card table (see :mod:`cardgen.insight.odds`)."""

    id: str = Field(description="Name of the result, used by `odds_table('<id>')` in the rules text and in report.json, e.g. `pair`.",
                    pattern=r"^[a-z0-9][a-z0-9_-]*$")
    kind: Literal["pairs", "yaku"] = Field(
        description="`pairs`: the chance that a hand holds two or more cards of the same `by` value (a ron is possible), "
                    "and per value the chance of holding one and two of it. `yaku`: the chance that the hand plus "
                    "`extra` cards forms each yaku of the `yaku` table, any base yaku, and the expected points.")
    by: str = Field("number", description="Column of the setup deck that makes two cards the same kind (`number`, `kana`).")
    extra: int = Field(0, ge=0, le=4, description="Cards drawn on top of the dealt hand before the hand is judged (1 = the first draw).")
    yaku: str | None = Field(None, description="`kind: yaku`: component id of the yaku table (`name`, `points`, `bonus`, `tiles` columns; `tiles` in the tile-pattern notation of the design rules).")
    label: str = Field("", description="A heading for the terminal and the rulebook table, e.g. `配牌の対子`.")


class InsightSettings(Strict):
    """What ``cardgen odds`` and ``cardgen simulate`` compute for this game."""

    odds: list[OddsDeclaration] = Field(default_factory=list, description="Exact odds computed from the card table per player count.")
    model: GameModel | None = Field(None, description="One round of this game described as data, played by `cardgen simulate` (see docs/insight-model.md).")


class IconDeclaration(Strict):
    """One of the game's own icons (`icons.<name>` in game.yaml), used like the built-in ones:
    `:<name>:` in card text, `icon: <name>` in an `icon` or `icons` element. The name is
    lower-case letters, digits and `_`, and not a built-in icon's."""

    file: str = Field(description="The icon's file in the game folder: SVG (drawn as vector paths, sharp at any size) or PNG (drawn as an image; 300 dpi at the printed size is enough), e.g. `icons/coin.svg`.")
    label: str = Field("", max_length=2, description="One or two characters printed across the icon's centre, e.g. `金`. Give one when two icons differ only in colour: `cardgen validate` warns about icons that look alike in greyscale (colour-blind players and greyscale printers cannot tell them apart).")
    label_colour: Colour = Field("#000000", description="Colour of the label.")


class Manifest(Strict):
    """A game manifest: ``card_data/<game>/game.yaml``."""

    game: GameInfo = Field(description="Title, version and player counts.")
    print: PrintSettings = Field(default_factory=PrintSettings, description="Card size, bleed and safe area.")
    fonts: dict[str, Union[str, dict[str, Any]]] = Field(default_factory=dict, description="Font per role for this game (overrides fonts/fonts.yaml), a file in the game folder or an installed font name.")
    components: list[Component] = Field(description="Every physical component, in the order of the component list.", min_length=1)
    setup: Setup | None = Field(None, description="Deal and draw per player count.")
    design: dict[str, Any] = Field(default_factory=dict, description="Named design constants the rules and rulebook use (e.g. `tsumo_threshold: 20`).")
    design_rules: list[DesignRule] = Field(default_factory=list, description="Rules the card tables must follow.")
    rulebook: RulebookSettings = Field(default_factory=RulebookSettings, description="Rulebook settings: heading numbering, paper, table of contents, extra values for the rules text.")
    insight: InsightSettings = Field(default_factory=InsightSettings, description="Exact odds (`cardgen odds`) and the playtest simulator (`cardgen simulate`) for this game.")
    terms: dict[str, str] = Field(default_factory=dict, description="The words of the game where cardgen's messages and odds tables name a thing of it: `hands`, `dead_wall`, `turns` (deck math), `pair` (what two alike cards in hand are for, printed after the pair odds' label), a column name (the pair odds' `by`, e.g. `number: 数字`, `kana: 牌`, and that column's heading in the rulebook's `breakdown_table` unless `rulebook.tables.breakdown_table.headings` gives one), an icon name (`power: パワー`: the words a Tabletop Simulator name or description writes for `:power:`, which it cannot draw; without one, a game icon's label, a call's kana or the name), and the simulator's words `win` (和了), `dealer` (親), `non_dealer` (子), `exhaustive_draw` (流局). Deck math names the dead wall only where a player count sets one aside; `cardgen validate` warns of a key that is none of these.")
    editions: dict[Id, Edition] = Field(default_factory=dict, description="Editions of the game in other languages, from the same cards: edition id → Edition (see docs/editions.md). The first is the default edition, whose texts are the tables' own, e.g. `{ja: {language: ja}, en: {language: en, translations: editions/en.csv, rules: rules_en}}`.")
    icons: dict[str, IconDeclaration] = Field(default_factory=dict, description="The game's own icons: name → IconDeclaration (an SVG or PNG file), e.g. `coin: {file: icons/coin.svg}`; used as `:coin:` in card text and `icon: coin` in templates.")
