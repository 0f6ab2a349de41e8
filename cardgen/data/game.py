"""Game folder → typed :class:`Game`, with every schema problem found in one run.

A game folder holds ``game.yaml`` (the manifest, :class:`cardgen.data.manifest.Manifest`) and the card
tables it names (CSV or inline). Problems carry ``file:line`` from the
:class:`~cardgen.data.loaded.Source` line map; the rows are typed and checked by
:mod:`cardgen.data.card_rows`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cardgen.core.boundary import confine
from cardgen.core.errors import CardgenError, Problem, ProblemList, did_you_mean, rel
from cardgen.core.unicode_text import fullwidth_words, halfwidth, ime_note
from cardgen.data.loaded import Loaded, Source
from cardgen.data.yaml_source import load_yaml
from cardgen.data.card_rows import CardRow, typed_rows
from cardgen.data.card_tables import load_table
from cardgen.data.editions import apply_edition
from cardgen.data.paths import safe_path  # noqa: F401 (re-exported: many modules import it from here)
from cardgen.data.manifest import Component, Manifest
from cardgen.data.sim_model import GameModel
from cardgen.data.model_problems import validation_problems
from cardgen.data.spreadsheet import SPREADSHEET_SUFFIXES, split_sheet

MANIFEST = "game.yaml"


@dataclass
class Game:
    """A loaded, schema-checked game.

    Attributes:
        root: the game folder.
        manifest: the typed manifest.
        source: line map of game.yaml.
        tables: component id → its card rows (empty for components without a table).
        problems: warnings found while loading (errors are raised).
        edition: the edition this game is (:func:`cardgen.data.editions.apply_edition`), or None
            for a game without ``editions:``.
    """

    root: Path
    manifest: Manifest
    source: Source
    tables: dict[str, list[CardRow]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    edition: Any = None  #: :class:`cardgen.data.editions.EditionInfo` or None
    #: the schema problems of ``insight.model`` (warnings; the model is then left out of ``manifest``)
    model_problems: list[Problem] = field(default_factory=list)

    @property
    def rules_dir(self) -> Path:
        """The folder of this edition's rules text (``rules/`` by default)."""
        return self.root / (self.edition.rules if self.edition is not None else "rules")

    @property
    def language(self) -> str:
        """The language of this game's texts (its edition's; ``ja`` without editions)."""
        return self.edition.language if self.edition is not None else "ja"

    @property
    def id(self) -> str:
        """The game id from game.yaml (``game.id``)."""
        return self.manifest.game.id

    @property
    def manifest_file(self) -> str:
        """The manifest's file name as messages show it."""
        return self.source.file

    def component(self, cid: str) -> Component | None:
        """The component with id ``cid``, or None."""
        return next((c for c in self.manifest.components if c.id == cid), None)

    def line(self, *path) -> int | None:
        """The game.yaml line of ``path`` (or of its nearest ancestor that has one)."""
        return self.source.line(tuple(path))

    def problem(self, path: tuple, message: str, hint: str = "", code: str = "", severity: str = "error") -> Problem:
        """A :class:`Problem` at ``path`` of game.yaml: line and display text from the one path
        (:meth:`cardgen.data.loaded.Source.problem`), list items named from the manifest."""
        return self.source.problem(path, message, hint, code, severity, data=self.manifest)


def _close_table(path: Path) -> str:
    """``"; did you mean 'cards.csv'?"`` naming a card table beside ``path`` (a CSV, TSV or
    spreadsheet file) spelt like it, or ``""``."""
    try:
        names = [p.name for p in path.parent.iterdir()
                 if p.suffix.lower() in (".csv", ".tsv", ".txt", *SPREADSHEET_SUFFIXES) and p.is_file()]
    except OSError:
        return ""
    return did_you_mean(path.name, names, cutoff=0.75)


#: A web address given as a card table (``https://docs.google.com/…``): a scheme, then ``//``.
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def _load_table(game_root: Path, comp: Component, index: int, msrc: Source, problems: ProblemList) -> list[CardRow]:
    if comp.cards is None:
        return []
    if isinstance(comp.cards, str):
        line = msrc.line(("components", index, "cards"))
        try:
            if _URL.match(comp.cards.strip()):
                raise CardgenError(Problem(msrc.file, line, f"components → {comp.id} → cards",
                                           f"{comp.cards.strip()[:80]!r} is a web address: a card table is a file "
                                           "in the game folder (cardgen never downloads while it builds)",
                                           f"run `cardgen fetch '{comp.cards.strip()[:200]}'` in the game folder: it "
                                           "writes a dated copy (cards/NAME-YYYY-MM-DD.csv) to name here; or download "
                                           "the sheet yourself (Google Sheets: File → Download → Comma-separated "
                                           "values; Excel online: File → Save as → Download a copy) and write its "
                                           "file name here, e.g. `cards: characters.csv`", code="url-source"))
            name, sheet = split_sheet(comp.cards)
            path = safe_path(game_root, name, msrc.file, line, f"components → {comp.id} → cards")
            if not path.is_file():
                raise CardgenError(Problem(msrc.file, line, f"components → {comp.id} → cards",
                                           f"the card table {name!r} does not exist" + _close_table(path),
                                           f"create {rel(path)} or fix the file name", code="missing-file"))
            loaded: Loaded = load_table(path, rel(path), sheet)
        except CardgenError as exc:
            for p in exc.problems:  # a sheet that is not there: the manifest line that names it
                problems.add(replace(p, file=msrc.file, line=line, path=f"components → {comp.id} → cards")
                             if p.code == "unknown-sheet" else p)
            return []
        raw_rows, src = loaded.data, loaded.source
        lines = [src.line((i,)) for i in range(len(raw_rows))]
        numbers = [src.lines.get(("row", i), i + 2) for i in range(len(raw_rows))]  # as the spreadsheet shows
        file = src.file
    else:
        raw_rows = comp.cards
        file = msrc.file
        lines = [msrc.line(("components", index, "cards", i)) for i in range(len(raw_rows))]
        numbers = list(range(1, len(raw_rows) + 1))
    return typed_rows(comp, raw_rows, file, lines, numbers, 1 if isinstance(comp.cards, str) else None, problems)


def load_game(game_dir: Path | str) -> Game:
    """Load and schema-check a game folder.

    Returns:
        :class:`Game` (warnings in ``problems``): its default edition (``editions:``, with its
        terms), :func:`cardgen.data.editions.apply_edition` makes another.

    Raises:
        CardgenError: every schema problem of the manifest and its card tables, at once.
    """
    root = Path(game_dir)
    manifest_path = root / MANIFEST
    if not root.is_dir():
        raise CardgenError(Problem(str(root), None, "", "no such game folder",
                                   "name a folder holding a game.yaml, e.g. card_data/tenjanpai", code="no-game"))
    if not manifest_path.is_file() and manifest_path.is_symlink() and not manifest_path.exists():
        raise CardgenError(Problem(rel(manifest_path), None, "", "game.yaml is a link to a file that does not exist",
                                   "point the link at the manifest, or replace it with the manifest itself",
                                   code="manifest-not-file"))
    if not manifest_path.is_file() and manifest_path.exists():  # a folder, a pipe, a device
        raise CardgenError(Problem(rel(manifest_path), None, "", "game.yaml is not a regular file",
                                   "the manifest must be a plain text file (start from `cardgen new`)",
                                   code="manifest-not-file"))
    if not manifest_path.is_file():
        raise CardgenError(Problem(rel(manifest_path), None, "", "the game folder has no game.yaml",
                                   "create game.yaml (start from `cardgen new`)", code="no-manifest"))
    # game.yaml itself is a file of the game: a link leading out of the folder is refused before it is read
    confine(manifest_path, [root.resolve()], rel(manifest_path), None, "", what="the manifest")
    loaded = load_yaml(manifest_path, rel(manifest_path))
    if loaded.data in ({}, None):
        raise CardgenError(Problem(loaded.source.file, 1, "", "the manifest is empty",
                                   "a manifest needs at least `game:` and `components:`", code="manifest-empty"))
    if not isinstance(loaded.data, dict):
        raise CardgenError(Problem(loaded.source.file, 1, "", "the manifest must be a mapping of keys (game:, components:, …)",
                                   code="manifest-type"))
    data, model_problems = _without_broken_model(loaded)
    try:
        manifest = Manifest.model_validate(data)
    except ValidationError as exc:
        raise CardgenError(validation_problems(exc, Manifest, loaded.source, data) + model_problems)
    problems = ProblemList()
    for p in model_problems:
        problems.add(p)
    src = loaded.source
    _check_references(manifest, src, problems)
    tables = {}
    for i, comp in enumerate(manifest.components):
        tables[comp.id] = _load_table(root, comp, i, src, problems)
    problems.raise_if_errors()
    game = Game(root, manifest, src, tables, problems.items, model_problems=model_problems)
    return apply_edition(game, None)  # the default edition


def _without_broken_model(loaded: Loaded) -> tuple[Any, list[Problem]]:
    """The manifest's data, and the schema problems of its ``insight.model`` (a misspelt key…) as
    warnings — printing does not depend on the model, so they do not stop a build; ``cardgen
    simulate`` refuses them (:attr:`Game.model_problems`). With such problems the model is left
    out of the data, so that the rest of the manifest is read as usual."""
    data = loaded.data
    insight = data.get("insight") if isinstance(data, dict) else None
    if not isinstance(insight, dict) or insight.get("model") is None:
        return data, []
    try:
        GameModel.model_validate(insight["model"])
        return data, []
    except ValidationError:
        pass
    try:
        Manifest.model_validate(data)
        return data, []
    except ValidationError as exc:
        found = validation_problems(exc, Manifest, loaded.source, data)
    mine = [replace(p, severity="warning") for p in found if p.path.startswith("insight → model")]
    return {**data, "insight": {k: v for k, v in insight.items() if k != "model"}}, mine


def _check_references(m: Manifest, src: Source, problems: ProblemList) -> None:
    ids = [c.id for c in m.components]
    seen: dict[str, int] = {}
    for i, c in enumerate(m.components):
        if c.id in seen:
            problems.add(src.problem(("components", i, "id"), f"the component id {c.id!r} is used twice",
                                     "give each component its own id", code="duplicate-id", data=m))
        seen[c.id] = i
        if c.kind != "not_included" and c.kind in ("deck", "tokens", "tiles") and c.template is None and c.cards is not None:
            problems.add(src.problem(("components", i, "template"), "a printed component needs a face template",
                                     "add `template: NAME` (templates/cards/NAME.yaml)", code="missing-template", data=m))

    def ref(cid: str, path: tuple, label: str) -> None:
        if cid not in ids and halfwidth(cid).strip() in ids:  # `deck: cards　` (U+3000), `ｃａｒｄｓ`: an IME's
            meant = halfwidth(cid).strip()
            fix = "delete the full-width space" if cid.strip("\u3000 ") == meant else "type it half-width"
            problems.add(src.problem(path, f"{cid!r} is typed with {fullwidth_words(cid)}, so it is not the component "
                                     f"id {meant!r}", f"{fix}: {path[-1]}: {meant}{ime_note()}", code="unknown-component", data=m))
        elif cid not in ids:
            problems.add(src.problem(path, f"no component has the id {cid!r}" + did_you_mean(cid, ids),
                                     f"{label} must name one of: {', '.join(ids)}", code="unknown-component", data=m))

    if m.setup:
        if m.setup.deck is not None:
            ref(m.setup.deck, ("setup", "deck"), "setup.deck")
        counts = [pc.players for pc in m.setup.player_counts]
        for n in m.game.players:  # each from 1 to 12 (data.fields.Players)
            if n not in counts:
                problems.add(src.problem(("game", "players"), f"{n} players is supported but setup has no entry for it",
                                         f"add a `- players: {n}` entry under setup → player_counts",
                                         code="missing-setup", data=m))
        for i, pc in enumerate(m.setup.player_counts):
            if pc.players not in m.game.players:
                problems.add(src.problem(("setup", "player_counts", i, "players"),
                                         f"setup for {pc.players} players, but game.players is {m.game.players}",
                                         "add the count to game.players or remove this entry",
                                         code="unknown-player-count", data=m))
            if pc.players in counts[:i]:
                problems.add(src.problem(("setup", "player_counts", i, "players"),
                                         f"a second setup entry for {pc.players} players", "keep one",
                                         code="duplicate-setup", data=m))
    for i, r in enumerate(m.design_rules):
        ref(r.deck, ("design_rules", i, "deck"), "design_rules.deck")
