"""The rulebook's text: every rules file rendered (:mod:`cardgen.rulebook.context`), parsed
(:mod:`cardgen.rulebook.markdown`) and checked (:mod:`cardgen.rulebook.checks`), as one list of blocks.
"""
from __future__ import annotations

from pathlib import Path

from cardgen.core.errors import CardgenError, Problem, rel
from cardgen.core.sandbox import BudgetExceeded, evaluation
from cardgen.core.unicode_text import plain
from cardgen.data.rulebook_sources import blank_rulebook_sources, rulebook_source_files
from cardgen.check.icons import icon_specs
from cardgen.check.open_questions import open_choices
from cardgen.layout.icon_names import BUILTIN_ICONS
from cardgen.rulebook.blocks import Heading, ListBlock, OpenQuestion, OpenQuestionIndex, Quote, Span, Toc, set_source
from cardgen.rulebook.checks import (figure_problems, glyph_problems, html_problems, icon_problems, locate_tables,
                                    table_problems)
from cardgen.rulebook.context import build_context, read_rulebook_source, render_rulebook_source
from cardgen.rulebook.glossary import glossary_blocks
from cardgen.rulebook.words import book_words
from cardgen.data.editions import is_latin
from cardgen.rulebook.inline import WESTERN
from cardgen.rulebook.markdown import keep_indent, parse_blocks, parse_tokens
from cardgen.rulebook.numbering import Numberer
from cardgen.rulebook.tables import TABLE_WORDS


def rulebook_blocks(game, report, rules_dir: Path | None = None, image_ok=None, missing_chars=None) -> list:
    """Every rules file of ``game`` rendered and parsed, as one list of blocks.

    A :class:`Toc` block is put after the book title (or first) when ``rulebook.toc``; the
    glossary of ruby terms (:mod:`cardgen.rulebook.glossary`) ends the text when ``rulebook.glossary``.
    ``image_ok(path)`` raises :class:`CardgenError` for an image that cannot be drawn (default:
    :func:`cardgen.render.images.image_size`: missing, unreadable, too large).
    ``missing_chars(role, text) -> list[str]`` (a :class:`~cardgen.fonts.fontset.FontSet`'s
    ``missing_chars``) with ``design`` in ``missing_chars.design`` finds characters the fonts lack
    (:func:`cardgen.rulebook.checks.glyph_problems`); None skips that check.

    Raises:
        CardgenError: no rules folder, and every problem of every rules file at once: template
            errors, images outside the rules folder or missing, raw HTML, oversized tables,
            unknown icon names (neither built in nor the game's own), characters the fonts lack
            (``file:line``; see :mod:`cardgen.rulebook.checks`).
    """
    if image_ok is None:
        from cardgen.render.images import image_size as image_ok
    settings = game.manifest.rulebook
    rules_dir = Path(rules_dir or game.rules_dir)
    if rules_dir.exists() and not rules_dir.is_dir():
        raise CardgenError(Problem(rel(rules_dir), None, "rulebook", "'rules' is a file, not a folder",
                                   f"make {rel(rules_dir)} a folder holding the rules as Markdown files (*.md)",
                                   code="no-rules"))
    files = rulebook_source_files(rules_dir) if rules_dir.is_dir() else []
    if not files:
        raise CardgenError(Problem(rel(rules_dir), None, "rulebook", "no rules text (*.md) found",
                                   f"write the rules as Markdown files in {rel(rules_dir)}/", code="no-rules"))
    if len(blank_rulebook_sources(rules_dir)) == len(files):
        names = ", ".join(f.name for f in files)
        raise CardgenError(Problem(rel(rules_dir), None, "rulebook",
                                   f"every rules file is empty ({names}): the rulebook would hold only its title",
                                   f"write the rules as Markdown in {rel(rules_dir)}/, e.g. `# 遊び方` and a paragraph",
                                   code="no-rules"))
    ctx = build_context(game, report)
    known_icons = BUILTIN_ICONS + tuple(icon_specs(game))
    numberer = Numberer(settings)
    blocks: list = []
    problems: list = [game.problem(("rulebook", "tables", name), f"no generated table {name!r} takes words",
                                   "use one of: " + ", ".join(TABLE_WORDS), code="rulebook-table")
                      for name in settings.tables if name not in TABLE_WORDS]
    for f in files:
        try:
            text = plain(render_rulebook_source(f, ctx))  # NFC, no invisible characters (as card text)
        except CardgenError as exc:
            problems += exc.problems
            continue
        source = read_rulebook_source(f)
        try:
            # each file's Markdown is parsed and checked under its own time budget, naming it
            # (200 KB of brackets kept markdown-it busy past any budget of the whole build)
            with evaluation(rel(f), f"reading the Markdown of {f.name}"):
                tokens = parse_tokens(text, typographer=is_latin(game.language))
                western = WESTERN.set(is_latin(game.language))
                try:
                    parsed = parse_blocks(text, numberer, tokens)
                finally:
                    WESTERN.reset(western)
                # the text is parsed once: the blocks' tokens are those of the text as written when no
                # line starts with an ideographic space (keep_indent left it as it was)
                problems += html_problems(text, f, source, tokens if keep_indent(text) == text else None) \
                    + figure_problems(parsed, f, source, game, image_ok) \
                    + table_problems(parsed, f, source) + icon_problems(parsed, f, source, known_icons)
                if missing_chars is not None:
                    problems += glyph_problems(parsed, f, source, missing_chars)
                locate_tables(parsed, f, source)
        except BudgetExceeded as exc:
            problems.append(Problem(rel(f), None, "rulebook", str(exc).split(" (")[0],
                                    "simplify this file's Markdown (thousands of brackets, emphasis marks or nested "
                                    "lists), or split it", code="rules-budget"))
            continue
        for b in parsed:  # the layout's time is charged to the file (cardgen.core.file_clock)
            set_source(b, rel(f))
        blocks.extend(parsed)
    if problems:
        raise CardgenError(problems)
    if settings.glossary:
        blocks.extend(glossary_blocks(blocks))
    _open_questions(blocks, game.manifest, book_words(game)["open_questions_title"])
    if not any(isinstance(b, Heading) and b.title for b in blocks[:3]):
        blocks.insert(0, Heading(1, [Span(game.manifest.game.title)], title=True))
    if settings.toc and any(isinstance(b, Heading) and b.toc_level is not None for b in blocks):
        # a contents page only when there is something to list (reportlab would print its
        # "Placeholder for table of contents" in an empty one)
        at = next((i + 1 for i, b in enumerate(blocks[:3]) if isinstance(b, Heading) and b.title), 0)
        # keep the lead paragraph under the title on the title page when there is one
        blocks.insert(at, Toc())
    return blocks


#: Title of the appendix listing the open questions.
APPENDIX_TITLE = "付録　未確定事項の一覧"


def _open_questions(blocks: list, manifest, title: str = APPENDIX_TITLE) -> None:
    """Fill each :class:`OpenQuestion` note from ``game.choices`` and append the appendix (a heading
    listed in the contents and an :class:`OpenQuestionIndex`) when any question is open."""
    choices = {c.id: c for c in manifest.game.choices}

    def fill(bs: list) -> None:
        for b in bs:
            if isinstance(b, OpenQuestion) and b.id in choices:
                c = choices[b.id]
                b.question, b.use, b.options, b.why = c.question, c.use, list(c.options), c.why
            elif isinstance(b, ListBlock):
                for item in b.items:
                    fill(item)
            elif isinstance(b, Quote):
                fill(b.blocks)
    fill(blocks)
    still_open = open_choices(manifest)
    if still_open:
        blocks.append(Heading(2, [Span(title)], "", 0))
        blocks.append(OpenQuestionIndex([OpenQuestion(c.id, c.question, c.use, list(c.options), c.why)
                                         for c in still_open]))
