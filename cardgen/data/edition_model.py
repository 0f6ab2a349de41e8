"""The manifest's ``editions:`` block: one game in several languages, from one card id space.

The first edition listed is the **default edition**: its texts are the card tables' and the
manifest's own. Every other edition supplies the translated values of the fields it changes in
one sidecar table (``translations:``, see :mod:`cardgen.data.editions`), its own rules folder,
fonts and terms. Numbers, counts, icons and the deck math are shared: nothing numeric can be
translated. docs/editions.md says why the translations are a sidecar table and not
``name@en`` columns.
"""
# Annotations are objects, not strings (no `from __future__ import annotations`): pydantic would
# evaluate each string at class creation (the manifest's models: 5-13 ms of every command that reads a game, measured).

from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field

#: Languages set with Western line breaking and hyphenation (:mod:`cardgen.layout.western`).
LATIN_LANGUAGES = ("en", "fr", "de", "es", "it", "nl", "pt", "sv", "da", "nb", "fi", "pl", "cs")
#: Edition ids that would clash with what a build writes into ``output/<game>/`` (the default
#: edition's files): another edition's folder sits beside them.
RESERVED_EDITION_IDS = ("cards", "tts", "shop", "backs", "all")


class Edition(BaseModel):
    """One edition of the game (`editions.<id>`): its language and what it changes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    language: str = Field(description="Language of the edition's texts, a BCP 47 tag: `ja`, `en`, `en-GB`, `fr`. "
                                      "Latin-script languages get Western line breaking and hyphenation (pyphen).",
                          pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
    name: str = Field("", description="The edition's name as a designer says it, e.g. `English edition`.")
    translations: str | None = Field(None, description="The edition's translation table, a CSV or spreadsheet file in "
                                     "the game folder (columns `table, id, field, source_hash, text`; see "
                                     "docs/editions.md). The default edition has none.")
    rules: str = Field("rules", description="Folder of the edition's rules text (`rules/*.md` of the default edition), "
                                            "e.g. `rules_en`.")
    fonts: dict[str, Union[str, dict[str, Any]]] = Field(default_factory=dict, description="Font per role for this "
                                                         "edition, over the game's `fonts:` (e.g. a Latin face for `body`).")
    terms: dict[str, str] = Field(default_factory=dict, description="The edition's words for templates "
                                  "(`{{ terms.skill }}`) and the rulebook's generated tables and notes "
                                  "(`setup_table.hand`, `open_question`…). Every term of the default edition "
                                  "needs one in each other edition (validate reports the missing ones).")
    templates: dict[str, str] = Field(default_factory=dict, description="Component id → face template this edition "
                                      "uses instead (a bilingual face, a longer text box), e.g. "
                                      "`{characters: character_bilingual}`; leave out to share the default's.")
    also: str | None = Field(None, description="A bilingual edition: the id of a second edition whose texts the "
                                               "faces also show (templates read them as `also.<field>`).")
