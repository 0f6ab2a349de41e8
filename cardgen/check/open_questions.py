"""Open questions: what the design draft leaves open, kept as data and checked against the rules text.

A manifest's ``game.choices`` (:class:`cardgen.data.manifest.Choice`) lists each value or rule the draft
does not settle, with the options and the one this build uses. The rules text marks each
paragraph that depends on one with ``{{ open_question('ID') }}`` (on a line of its own); the
rulebook prints a boxed 【未確定】 note there and an appendix of every open question with page
references (:mod:`cardgen.rulebook.notes`).

This module is pure and imports no PDF library:

- :func:`references` finds the ``open_question('…')`` calls of the rules files (jinja2's parser,
  nothing is rendered);
- :func:`check_open_questions` reports choices no rules text marks (warning), marks naming no
  choice (error), duplicate ids and a ``use`` that is not one of the ``options`` (errors);
- :func:`final_problems` refuses a ``--final`` build while a choice is still open;
- :func:`marker` / :func:`marker_id` are the Markdown comment the template helper leaves for the
  rulebook layout to turn into a note.
"""
from __future__ import annotations

import re
from pathlib import Path

from jinja2 import Environment, nodes
from jinja2.exceptions import TemplateSyntaxError

from cardgen.core.errors import Problem, ProblemList, rel
from cardgen.data.manifest import Choice
from cardgen.data.rulebook_sources import MAX_RULEBOOK_SOURCE_BYTES, rulebook_source_files

#: The template helper's name in rules text.
HELPER = "open_question"
_MARK = re.compile(r"<!--\s*open-question:([a-z0-9][a-z0-9_-]*)\s*-->")


def marker(choice_id: str) -> str:
    """The Markdown the helper puts in the rendered text: an HTML comment. On a line of its own
    (indented like a list item's text to stay inside the item) it is a block where it stands;
    inside a paragraph, the note follows the paragraph."""
    return f"<!-- open-question:{choice_id} -->"


def marker_id(html: str) -> str | None:
    """The choice id of a marker comment, or None for any other HTML."""
    m = _MARK.search(html or "")
    return m.group(1) if m else None


def open_choices(manifest) -> list[Choice]:
    """The choices still open (``decided`` false), in manifest order."""
    return [c for c in manifest.game.choices if not c.decided]


#: An ``open_question('ID')`` call as text, for a rules file jinja2 cannot parse (a typo elsewhere
#: in it): its marks still count, so a syntax error is not also reported as unmarked questions.
_CALL = re.compile(r"""open_question\(\s*(['"])([^'"]+)\1""")


def references(rules_dir: Path) -> dict[str, list[tuple[Path, int]]]:
    """``open_question('ID')`` calls of every ``rules/*.md`` file: id → [(file, line)], in file
    order. Files that cannot be read are skipped, and a file jinja2 cannot parse is searched as text
    (the rulebook build reports both)."""
    out: dict[str, list[tuple[Path, int]]] = {}
    if not Path(rules_dir).is_dir():
        return out
    env = Environment()  # parsing only: nothing is rendered, so no sandbox is needed
    for f in rulebook_source_files(Path(rules_dir)):
        try:
            if f.stat().st_size > MAX_RULEBOOK_SOURCE_BYTES:
                continue
            text = f.read_bytes().decode("utf-8-sig")
        except (UnicodeDecodeError, OSError):  # the rulebook step reports these
            continue
        try:
            tree = env.parse(text)
        except TemplateSyntaxError:  # reported by the rulebook step; its marks are still marks
            for m in _CALL.finditer(text):
                out.setdefault(m.group(2), []).append((f, text.count("\n", 0, m.start()) + 1))
            continue
        for call in tree.find_all(nodes.Call):
            if isinstance(call.node, nodes.Name) and call.node.name == HELPER and call.args \
                    and isinstance(call.args[0], nodes.Const):
                out.setdefault(str(call.args[0].value), []).append((f, call.lineno))
    return out


def check_open_questions(game, problems: ProblemList) -> None:
    """Report what does not tie up between ``game.choices`` and the rules text (see module doc)."""
    m = game.manifest
    src = game.source
    seen: dict[str, int] = {}
    for i, c in enumerate(m.game.choices):
        line = src.line(("game", "choices", i))
        if c.id in seen:
            problems.error(src.file, line, f"game → choices → {c.id}",
                           f"the open question id {c.id!r} is used twice (first at entry {seen[c.id] + 1})",
                           "give every open question its own id", code="choice-duplicate")
        seen.setdefault(c.id, i)
        if c.use not in c.options:
            problems.error(src.file, src.line(("game", "choices", i, "use")), f"game → choices → {c.id} → use",
                           f"the option in use {c.use!r} is not one of the options",
                           "write `use:` exactly as one of `options:` (" + " / ".join(c.options) + ")",
                           code="choice-use")
    refs = references(game.rules_dir)
    for cid, where in refs.items():
        if cid in seen:
            continue
        for f, line in where:
            problems.error(rel(f), line, "rulebook", f"open_question({cid!r}) names no open question of the manifest",
                           "add it under game.choices in " + src.file + " (id, question, options, use, why), or use "
                           "one of: " + (", ".join(seen) or "(none yet)"), code="choice-unknown")
    if not game.rules_dir.is_dir():
        return
    for i, c in enumerate(m.game.choices):
        if not c.decided and c.id not in refs:
            problems.warning(src.file, src.line(("game", "choices", i)), f"game → choices → {c.id}",
                             "no rules text marks this open question, so the rulebook never shows it where it "
                             "applies", f"put {{{{ open_question('{c.id}') }}}} on its own line after the rule "
                             "paragraph that depends on it", code="choice-unreferenced")


def final_problems(game) -> list[Problem]:
    """Why a ``--final`` (release) build must refuse: one problem per open question, at its line."""
    src = game.source
    out = []
    for i, c in enumerate(game.manifest.game.choices):
        if not c.decided:
            out.append(Problem(src.file, src.line(("game", "choices", i)), f"game → choices → {c.id}",
                               f"open question: {c.question} (this build uses: {c.use})",
                               "have the designer decide, then set `decided: true` (or drop --final for a "
                               "playtest build)", code="open-question"))
    return out
