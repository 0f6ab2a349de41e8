"""What the rules text can read: the rulebook context, generated tables, sandboxed jinja2.

The rules of a game are Markdown files in ``card_data/<game>/rules/*.md`` (read in name order).
Each file is a jinja2 template, rendered in an :class:`ImmutableSandboxedEnvironment` with
strict undefined values: a name the context does not have fails with a :class:`CardgenError`
naming the file and line. The rendered text is Markdown (see :mod:`cardgen.rulebook.markdown`).

Names every game gets (:func:`build_context`):

- ``game`` (title, subtitle, version, players…), ``design`` (the manifest's design constants;
  each is also a top-level name, so ``{{ tsumo_threshold }}`` works), ``player_counts`` (the
  validator's deck math per player count, as dicts: players, deck, removed, hand, dead_wall,
  draw_pile, turns…), ``components`` (id → {id, name, kind, count, note, unit}), ``decks``
  (id → list of card rows, each a dict of the table's columns plus ``count``), ``deck_size``
  (cards in the setup deck).
- ``card_image(component, card_id, width=22, caption=None)`` / ``card_images(component, [ids], …)``:
  Markdown images with the ``card:`` scheme, captioned; ``card_row(…)`` (cards in a row, some
  laid sideways) and ``table_layout(…)`` (the table for 3 or 4 players): card figures drawn from
  the card templates (:mod:`cardgen.rulebook.figure_helpers`).
- Every table builder of :data:`TABLES` under its name (``component_table``, ``setup_table``,
  ``breakdown_table``, ``scoring_table``…). Builders run only when the text uses them.
- ``open_question('ID')``: a boxed 【未確定】 note for the open question ``ID`` of
  ``game.choices`` (put it on a line of its own after the paragraph it qualifies);
  ``lit(value)``: a number typed on purpose rather than read from the data.
- The manifest's ``rulebook.values``: name → jinja2 expression over this context, e.g.
  ``character_count: components.characters.count``.

Extending for another game (two ways, no change to the renderer):

1. Data only: put constants under ``design:`` and derived names under ``rulebook.values``.
2. A new generated table: write a function ``(data: RulebookData) -> str`` returning Markdown
   (a pipe table, a list…) and register it::

       @table("payment_table")
       def payment_table(data):
           rows = data.design["payments"]          # read the manifest, never type numbers
           return md_table(["点", "子の支払い"], [[r["points"], r["child"]] for r in rows])

   Raise :func:`missing` (a CardgenError) when the game lacks what the builder needs.
   Builders live in :mod:`cardgen.rulebook.tables` (imported here, so they register); the
   registry, :class:`RulebookData` and ``md_table`` in :mod:`cardgen.rulebook.table_registry`.
"""
from __future__ import annotations

import importlib
import re
import sys
import traceback
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

from jinja2 import StrictUndefined, TemplateError, TemplateSyntaxError, Undefined
from jinja2.exceptions import SecurityError, UndefinedError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import missing as _NO_OBJECT

from cardgen.check.deck_math import Report
from cardgen.check.multiset import base_yaku_of, hands
from cardgen.check.open_questions import marker
from cardgen.core.errors import CardgenError, Problem, did_you_mean, rel
from cardgen.core.numfmt import FILTERS, num
from cardgen.core.sandbox import (BudgetExceeded, SafeSandbox, evaluation, expression_error, field_list,
                                  misread_lines, missing_name)
from cardgen.core.size_guards import LIMIT_HINT, LimitError
from cardgen.data.game import Game
from cardgen.data.rulebook_sources import MAX_RULEBOOK_SOURCE_BYTES
from cardgen.rulebook.figure_helpers import figure_helpers
from cardgen.rulebook.odds_tables import odds_table_helper
from cardgen.rulebook.table_registry import TABLES, UNITS, RulebookData, TableBuilder, md_table, missing
from cardgen.rulebook.tables import table_words


class _Lazy:
    """A generated table, built the first time the text prints it."""

    def __init__(self, name: str, fn: TableBuilder, data: RulebookData):
        self.name, self.fn, self.data, self.value = name, fn, data, None

    def __str__(self) -> str:
        if self.value is None:
            self.value = "\n" + self.fn(self.data).strip("\n") + "\n"
        return self.value


def _fmt(value: Any) -> str:
    """A cell: numbers with thousands separators (:func:`cardgen.core.numfmt.num`), booleans as ○/—."""
    if isinstance(value, bool):
        return "○" if value else "—"
    return "—" if value is None else num(value)


def _table_of(data: RulebookData) -> Callable:
    def table_of(component: str, columns: dict, where: str | None = None, total: str | None = None) -> str:
        """A pipe table of a component's rows: ``columns`` maps column → header (``count`` = copies);
        ``where`` keeps rows whose column is true; ``total`` adds a 計 row summing that column."""
        if component not in data.game.tables:
            raise missing(data, f"table_of: no component {component!r} with a card table",
                          "name one of: " + ", ".join(data.game.tables))
        rows = [r for r in data.rows(component) if where is None or r.get(where)]
        for col in columns:
            if rows and col not in rows[0]:
                raise missing(data, f"table_of: the table {component!r} has no column {col!r}",
                              "columns: " + ", ".join(rows[0]))
        body = [[_fmt(r[c]) for c in columns] for r in rows]
        if total is not None:
            body.append(["計" if i == 0 else (_fmt(sum(r[c] for r in rows)) if c == total else "")
                         for i, c in enumerate(columns)])
        return "\n" + md_table([str(h) for h in columns.values()], body) + "\n"
    return table_of


def _player_count_table(data: RulebookData) -> Callable:
    def player_count_table(columns: dict) -> str:
        """Per player count: ``columns`` maps a name of the validator's numbers (deck, hand, turns…)
        or of ``setup.derive`` (e.g. ``wins_per_round``) → header."""
        rows = []
        words = table_words(data, "setup_table")[1]  # the players heading and unit are setup_table's
        for pc in sorted(data.report.player_counts, key=lambda p: p.players):
            values = {**asdict(pc), **pc.derived}
            for col in columns:
                if col not in values:
                    raise missing(data, f"player_count_table: no number {col!r} per player count",
                                  "use one of: " + ", ".join(values))
            rows.append([f"{pc.players}{words['players_unit']}", *[_fmt(values[c]) for c in columns]])
        return "\n" + md_table([words["players"], *[str(h) for h in columns.values()]], rows) + "\n"
    return player_count_table


def _open_question(data: RulebookData) -> Callable:
    ids = {c.id: c for c in data.game.manifest.game.choices}

    def open_question(choice_id: str) -> str:
        """The marker of a boxed 【未確定】 note (on a line of its own); nothing once decided. An id
        the manifest lacks prints nothing here: the validator reports it at its line
        (:func:`cardgen.check.open_questions.check_open_questions`, run by every build)."""
        choice = ids.get(str(choice_id))
        return "" if choice is None or choice.decided else marker(choice.id)
    return open_question


def _lit(value: Any) -> str:
    """A number typed on purpose, not taken from the data (e.g. an article number of the source
    text): ``{{ lit(4) }}`` prints ``4``; the numbers-from-data test skips it."""
    return str(value)


def build_context(game: Game, report: Report) -> dict[str, Any]:
    """The names the rules text can use (see the module doc). Tables are built lazily."""
    importlib.import_module("cardgen.rulebook.tables")  # registers the @table builders

    data = RulebookData(game, report)
    m = game.manifest
    components = {c.id: {"id": c.id, "name": c.name, "kind": c.kind, "count": data.count(c.id),
                         "note": c.note, "unit": UNITS.get(c.kind, "")} for c in m.components}
    ctx: dict[str, Any] = dict(m.design)
    ctx.update({
        "game": m.game.model_dump(),
        "design": dict(m.design),
        "components": components,
        "decks": {c.id: data.rows(c.id) for c in m.components if c.id in game.tables},
        "player_counts": [asdict(pc) for pc in report.player_counts],
        "deck_size": data.count(m.setup.deck) if m.setup else None,
        **figure_helpers(data),
        "table_of": _table_of(data),
        "player_count_table": _player_count_table(data),
        "odds_table": odds_table_helper(game, game.manifest_file),
        "open_question": _open_question(data),
        "tile_hands": hands,  # the hands of a tile pattern, as the validator reads them
        "base_yaku_of": base_yaku_of,  # the base yaku a hand forms (the validator's own finding)
        "lit": _lit,
    })
    ctx.update({name: _Lazy(name, fn, data) for name, fn in TABLES.items()})
    env = environment()
    for name, expr in m.rulebook.values.items():
        line = game.line("rulebook", "values", name)
        try:
            with evaluation(f"{game.manifest_file}:{line}", f"the rulebook value {name!r}"):
                ctx[name] = env.compile_expression(expr, undefined_to_none=False)(**ctx)
        except MemoryError:
            raise
        except LimitError as exc:
            raise CardgenError(Problem(game.manifest_file, line, f"rulebook → values → {name}",
                                       f"too much asked: {exc}", LIMIT_HINT, code="rulebook-value-limit"))
        except Exception as exc:  # noqa: BLE001 - the expression is the designer's: any failure is a message
            raise CardgenError(Problem(game.manifest_file, line, f"rulebook → values → {name}",
                                       f"cannot evaluate {expr[:200]!r}: {expression_error(exc)}",
                                       "name only things the rulebook context has: " + ", ".join(usable_names(ctx)),
                                       code="rulebook-value"))
    return ctx


#: Helpers over tile patterns (a deck with a ``tiles`` column, as NKO麻雀's yaku): offered to every
#: game, named in a hint only to a game whose cards have tiles.
_TILE_HELPERS = ("tile_hands", "base_yaku_of")


def usable_names(ctx: dict[str, Any]) -> list[str]:
    """The names of ``ctx`` this game's rules text can use, sorted, for a hint: a generated table
    that this game lacks the data for (``payment_table`` without ``design.scoring``,
    ``scoring_table`` without ``design.power_bonus_cap``) and the tile helpers without a deck of
    tiles are left out, so a hint names no other game's tables. Builds each table (cached)."""
    tiles = any(rows and "tiles" in rows[0] for rows in (ctx.get("decks") or {}).values())
    names = []
    for name, value in ctx.items():
        if name.startswith("_") or name in _TILE_HELPERS and not tiles:
            continue
        if isinstance(value, _Lazy):
            try:
                str(value)
            except Exception:  # noqa: BLE001 - a builder that fails for this game: not usable here
                continue
        names.append(name)
    return sorted(names)


class _Noting(Undefined):
    """An undefined value that notes where it is used and reads as nothing: the second render of a
    rules file that failed on one (:func:`_every_undefined`), to find them all. ``_notes`` ((line,
    name) → the object that lacks it) and ``_template`` are set on a subclass made for that render."""

    __slots__ = ()
    _notes: dict
    _template: Any

    def _note(self) -> "_Noting":
        frame, line = sys._getframe(1), None
        while frame is not None:
            if frame.f_code.co_filename == self._template.filename:
                line = self._template.get_corresponding_lineno(frame.f_lineno)
                break
            frame = frame.f_back
        self._notes.setdefault((line, self._undefined_name), self._undefined_obj)  # a loop notes a line once
        return self

    def _fail_with_undefined_error(self, *args, **kwargs):  # arithmetic, calls, attributes: go on
        return self._note()

    def __str__(self) -> str:
        self._note()
        return ""

    def __iter__(self):
        self._note()
        return iter(())

    def __bool__(self) -> bool:
        self._note()
        return False

    def __len__(self) -> int:
        self._note()
        return 0


#: What a field is read of, just before ``.name`` or ``['name']``: ``components.cards``, ``pc``, ``decks['x'][0]``.
_OWNER = re.compile(r"([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*|\[[^\]\[]{0,40}\])*)\s*(?:\.\s*|\[\s*['\"])$")


# jinja2's Undefined binds its operators to its own _fail_with_undefined_error: bound again here to the
# noting one (an operator gives another undefined value, a conversion to a number gives 0)
for _op in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__div__", "__rdiv__",
            "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pos__",
            "__neg__", "__call__", "__getitem__", "__lt__", "__le__", "__gt__", "__ge__", "__pow__", "__rpow__"):
    setattr(_Noting, _op, _Noting._fail_with_undefined_error)
for _op in ("__int__", "__float__", "__complex__"):
    setattr(_Noting, _op, lambda self, _zero=0: (self._note(), _zero)[1])


def _owner(source_line: str, name: str) -> str:
    """What the rules text reads ``name`` of on ``source_line``: ``components.cards`` for
    ``{{ components.cards.cout }}``, ``pc`` for ``{{ pc.dead_wal }}``; "the value" when unclear.
    Looked for in the 120 characters before each place the name is written (a long line is not
    searched from every character)."""
    at = source_line.find(name)
    while at >= 0:
        m = _OWNER.search(source_line[max(0, at - 120):at])
        if m and not source_line[at + len(name):at + len(name) + 1].isalnum():
            return re.sub(r"\s+", "", m.group(1))
        at = source_line.find(name, at + 1)
    return "the value"


def _every_undefined(path: Path, source: str, ctx: dict[str, Any]) -> list[Problem]:
    """Every undefined name and missing field of a rules file, each once at its line: the file is
    rendered again (it failed on the first) with undefined values that note their use and read as
    nothing; [] when that render finds none (the caller keeps the first error's words)."""
    env = environment()
    code = env.compile(source, name=path.name, filename=str(path))
    tmpl = env.template_class.from_code(env, code, env.make_globals(None))
    notes: dict = {}
    env.undefined = type("_NotingHere", (_Noting,), {"_notes": notes, "_template": tmpl})
    try:
        with evaluation(rel(path), f"rendering {path.name}"):
            tmpl.render(**ctx)
    except Exception:  # noqa: BLE001 - a later error of another kind: the undefined ones found so far
        pass
    lines = source.splitlines()
    names: list[str] | None = None
    out: dict[tuple, Problem] = {}
    for (line, name), obj in notes.items():
        if name is None:
            continue
        if obj is _NO_OBJECT:
            names = usable_names(ctx) if names is None else names
            out[(line, name)] = Problem(rel(path), line, "rulebook", f"{name!r} is undefined" + did_you_mean(name, names),
                                        "names available: " + ", ".join(names), code="rulebook-undefined")
            continue
        owner = _owner(lines[line - 1] if line and line <= len(lines) else "", name)
        if isinstance(obj, dict):
            keys, listed = field_list(obj)
            message = (f"{owner} has no field {name!r}" + did_you_mean(name, keys)
                       + (f" ({owner} fields: {listed})" if keys else f" ({owner} is empty)"))
        elif isinstance(obj, (list, tuple)):
            message = (f"{owner} has no field {name!r}: it is a list of {len(obj)}; read the field of each item, "
                       f"{{% for item in {owner} %}}{{{{ item.{name} }}}}{{% endfor %}}")
        else:
            kind = {str: "a text", int: "a number", float: "a number"}.get(type(obj), "not a mapping")
            message = f"{owner} has no field {name!r} (it is {kind})"
        hint = (f"fix the name in this rules file, or add `{name}:` under `design:` in game.yaml" if owner == "design"
                else "fix the name in this rules file")
        out[(line, name)] = Problem(rel(path), line, "rulebook", message, hint, code="rulebook-undefined")
    return sorted(out.values(), key=lambda p: p.line or 0)


def environment(loader=None) -> ImmutableSandboxedEnvironment:
    """The sandboxed jinja2 environment of rules text (strict undefined, no autoescape), with the
    ``num`` filter of :mod:`cardgen.core.numfmt` (``{{ starting_points | num }}`` → ``30,000``)."""
    env = SafeSandbox(loader=loader, undefined=StrictUndefined, keep_trailing_newline=True,
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(FILTERS)
    return env


def _template_line(exc: BaseException, filename: str) -> int | None:
    """The template line an exception was raised at (jinja2 puts template frames in tracebacks)."""
    line = getattr(exc, "lineno", None)
    for fr in traceback.extract_tb(exc.__traceback__):
        if fr.filename == filename:
            line = fr.lineno
    return line



#: jinja2 statements that read other templates: rules text has no loader (each file stands alone).
_LOADER_TAGS = ("include", "import", "extends", "from")


def read_rulebook_source(path: Path) -> str:
    """The text of one rules file (UTF-8, a BOM is dropped).

    Raises:
        CardgenError: not UTF-8, larger than :data:`MAX_RULEBOOK_SOURCE_BYTES`, or unreadable.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        data = path.read_bytes() if size <= MAX_RULEBOOK_SOURCE_BYTES else b""
    except OSError as exc:
        raise CardgenError(Problem(rel(path), None, "rulebook", f"cannot read the rules file: {exc.strerror or exc}",
                                   "check that the file exists and that you may read it (its permissions)",
                                   code="unreadable"))
    if size > MAX_RULEBOOK_SOURCE_BYTES:
        raise CardgenError(Problem(rel(path), None, "rulebook", f"the rules file is {size:,} bytes, more than the "
                                   f"limit of {MAX_RULEBOOK_SOURCE_BYTES:,}", "split the rules or shorten them; "
                                   "generated tables belong in the data, not typed out", code="rules-too-large"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise CardgenError(Problem(rel(path), line, "rulebook", f"the rules file is not UTF-8 text (byte "
                                   f"0x{data[exc.start]:02x} at line {line})", "save it as UTF-8 (in Excel or "
                                   "Notepad: 'Save as' → encoding UTF-8)", code="rules-encoding"))


def _named(message: str) -> str | None:
    """The name a message about an undefined name or a missing field is about."""
    m = re.match(r"'([^']+)' is undefined", message) or re.search(r" has no field '([^']+)'", message)
    return m.group(1) if m else None


def _misread(env, source: str, ctx: dict[str, Any]) -> list[tuple[int, str]]:
    """Every name the rules file ``source`` reads that ``ctx`` lacks, with its line
    (:func:`cardgen.core.sandbox.misread_lines`); [] when it cannot be read."""
    try:
        return sorted(misread_lines(env, [(source, False)], ctx, list_names=False), key=lambda m: m[0])
    except (TemplateError, RecursionError):
        return []


def render_rulebook_source(path: Path, ctx: dict[str, Any]) -> str:
    """Render one rules file with ``ctx`` (at most :data:`cardgen.core.sandbox.MAX_SECONDS`).

    Raises:
        CardgenError: not UTF-8, syntax errors, undefined names, sandbox violations,
            ``{% include %}``/``import``/``extends`` — ``file:line``.
    """
    path = Path(path)
    env = environment()
    source = read_rulebook_source(path)
    fname = str(path)
    try:
        code = env.compile(source, name=path.name, filename=fname)
        tmpl = env.template_class.from_code(env, code, env.make_globals(None))
        with evaluation(rel(path), f"rendering {path.name}"):
            text = tmpl.render(**ctx)
        size = len(text.encode("utf-8", "surrogatepass"))  # the cap is in bytes, as the file's own (kana: 3 each)
        if size > MAX_RULEBOOK_SOURCE_BYTES:
            raise CardgenError(Problem(rel(path), None, "rulebook", f"the rendered rules text is {size:,} bytes, "
                                       f"more than the limit of {MAX_RULEBOOK_SOURCE_BYTES:,}",
                                       "check the loops in this file", code="rules-too-large"))
        return text
    except BudgetExceeded as exc:
        raise CardgenError(Problem(rel(path), _template_line(exc, fname), "rulebook", str(exc),
                                   "check the loops and macros in this file", code="rules-budget"))
    except LimitError as exc:
        raise CardgenError(Problem(rel(path), _template_line(exc, fname), "rulebook", f"too much asked: {exc}",
                                   LIMIT_HINT, code="rules-limit"))
    except CardgenError as exc:
        line = _template_line(exc, fname)
        # a problem already at its own line (a game.yaml setting the table reads) stays there
        raise CardgenError([p if p.line is not None else
                            Problem(rel(path), line, p.path or "rulebook", p.message, p.hint, p.severity, p.code)
                            for p in exc.problems])
    except TemplateSyntaxError as exc:
        raise CardgenError(Problem(rel(path), exc.lineno, "rulebook", f"template syntax: {exc.message}",
                                   "jinja2 syntax: {{ name }} for values, {% if … %}…{% endif %} for blocks",
                                   code="rulebook-syntax"))
    except (UndefinedError, SecurityError, TemplateError, TypeError, AttributeError, ValueError, OverflowError,
            ZeroDivisionError, RecursionError) as exc:
        if isinstance(exc, TypeError) and "no loader" in str(exc):
            tag = next((t for t in _LOADER_TAGS if re.search(r"{%-?\s*" + t + r"\b", source)), "include")
            raise CardgenError(Problem(rel(path), _template_line(exc, fname), "rulebook",
                                       f"{{% {tag} %}} is not available in rules text: a rules file cannot read "
                                       "other files", "put the text in this file, or in its own rules file (all "
                                       "rules/*.md are read in name order: 01-intro.md, 02-play.md…)",
                                       code="rules-include"))
        names = usable_names(ctx)
        if isinstance(exc, UndefinedError):
            # every misspelt name of the file, each at its own line: the file rendered once more finds what
            # the rendering reaches (a loop's item, components.cards); the reading of its text (_misread)
            # what it does not (a branch not taken)
            every = _every_undefined(path, source, ctx)
            seen = {(p.line, _named(p.message)) for p in every}
            every += [Problem(rel(path), line, "rulebook", message,
                              "fix the name in this rules file" if " has no field " in message else
                              "names available: " + ", ".join(names), code="rulebook-undefined")
                      for line, message in _misread(env, source, ctx) if (line, _named(message)) not in seen]
            if every:
                raise CardgenError(sorted(every, key=lambda p: p.line or 0))
        named = missing_name(exc, ctx, source)  # {{ game.verson }}: which name lacks the field, the close one
        if named:
            raise CardgenError(Problem(rel(path), _template_line(exc, fname), "rulebook", named,
                                       "fix the name in this rules file", code="rulebook-undefined"))
        missing = re.fullmatch(r"'([^']+)' is undefined", str(exc)) if isinstance(exc, UndefinedError) else None
        raise CardgenError(Problem(rel(path), _template_line(exc, fname), "rulebook",
                                   f"{exc}" + (did_you_mean(missing.group(1), names) if missing else ""),
                                   "names available: " + ", ".join(names), code="rulebook-undefined"))
