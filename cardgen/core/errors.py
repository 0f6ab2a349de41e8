"""Problems and the one error type the library raises for expected failures.

Every expected failure (bad manifest, missing file, text that does not fit...) is reported
as a :class:`Problem` with a source location, and raised together as one
:class:`CardgenError`, so a designer sees every problem of a run at once.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Literal, get_args

#: How bad a finding is: an ``error`` stops the build (unless ``--force``), a ``warning`` does not.
Severity = Literal["error", "warning"]
SEVERITIES: tuple[str, ...] = get_args(Severity)


@dataclass(frozen=True)
class CardRef:
    """One card face, as every finding about a card points at it.

    Attributes:
        component: component id (``battle``).
        card_id: the card row's id (``b3-pon``); ``""`` for a face every card of the component
            shares (one back for the whole deck).
        file: the card table the row is in (as given, e.g. ``card_data/x/cards.csv``), or "".
        line: 1-based line of the row in ``file``, or None.
        face: ``front`` or ``back``.
    """

    component: str
    card_id: str
    file: str = ""
    line: int | None = None
    face: Literal["front", "back"] = "front"

    @property
    def label(self) -> str:
        """How messages name the face: ``battle b3-pon``, ``battle b3-pon back``, ``battle back``."""
        parts = [self.component, self.card_id, "back" if self.face == "back" else ""]
        return " ".join(p for p in parts if p)


@dataclass(frozen=True)
class Problem:
    """One finding about the input: the one finding type of cardgen (validator, card layout,
    preflight, rulebook).

    Attributes:
        file: path of the file the problem is in (as given, relative where possible), or "".
        line: 1-based line number in ``file``, or None when unknown.
        path: where in the data, e.g. ``components → battle → count`` ("" for the whole file).
        message: what is wrong, in one sentence.
        hint: how to fix it, or "".
        severity: ``"error"`` or ``"warning"`` (:data:`Severity`; anything else raises ValueError).
        code: a short stable identifier for tests and JSON reports (e.g. ``unknown-key``).
        card: the card face the finding is about (:class:`CardRef`), or None.
        detail: machine-readable extras for ``report.json`` (e.g. ``{"dpi": 150}``), or None.
        field: the template element (or ``image``, ``font body``) of a card finding, else "".
    """

    file: str
    line: int | None
    path: str
    message: str
    hint: str = ""
    severity: Severity = "error"
    code: str = ""
    card: CardRef | None = None
    detail: dict | None = field(default=None, compare=False)
    field: str = ""

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, not {self.severity!r}")

    def location(self) -> str:
        """``file:line`` (``file`` alone without a line; ``<input>`` without a file)."""
        loc = self.file or "<input>"
        if self.line is not None:
            loc += f":{self.line}"
        return loc

    def format(self) -> str:
        """The message block: ``file:line: error: path → message`` then an indented hint."""
        head = f"{self.location()}: {self.severity}: "
        if self.path:
            head += f"{self.path} → "
        head += self.message
        if self.hint:
            head += f"\n    hint: {self.hint}"
        return head

    def to_json(self) -> dict:
        """The problem's fields as a JSON object (``cardgen validate --format json``)."""
        return {
            "file": self.file,
            "line": self.line,
            "path": self.path,
            "message": self.message,
            "hint": self.hint,
            "severity": self.severity,
            "code": self.code,
        }


def card_problem(severity: Severity, card: CardRef, field: str, message: str, code: str,
                 file: str = "", line: int | None = None, detail: dict | None = None) -> Problem:
    """A finding about one card face, at the card's row (``card.file:card.line``), or at
    ``file:line`` when given (the template, when the template is at fault). Its path reads
    ``<card label> → <field>``."""
    return Problem(file or card.file, line if file else card.line, f"{card.label} → {field}", message, "",
                   severity, code, card=card, detail=detail, field=field)


class CardgenError(Exception):
    """An expected failure carrying one or more :class:`Problem` s.

    The CLI prints :meth:`format` and exits 1 (``exit_code``); no traceback is shown.
    """

    exit_code = 1

    def __init__(self, problems: Problem | Iterable[Problem] | str):
        if isinstance(problems, str):
            problems = [Problem("", None, "", problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__(self.format())

    def __reduce__(self):
        """Pickled with its problems (a build runs in a child process, :mod:`cardgen.core.budget`)."""
        return (self.__class__, (self.problems,))

    def format(self) -> str:
        """Every problem's message block (:meth:`Problem.format`), one after another."""
        return "\n".join(p.format() for p in self.problems)


class UsageError(CardgenError):
    """A command-line usage problem (exit code 2)."""

    exit_code = 2


def rel(path: Path | str, base: Path | None = None) -> str:
    """``path`` as a short string: relative to ``base`` (or the working folder) when inside it.
    A symlink is named as written, never by where it points (a game's link must not show what
    lies outside the game folder)."""
    p = Path(path)
    for b in ([base] if base else []) + [Path.cwd()]:
        try:
            return str(Path(os.path.abspath(p)).relative_to(os.path.abspath(b)))
        except ValueError:
            pass
        try:
            return str((p.absolute().parent.resolve() / p.name).relative_to(Path(b).resolve()))
        except (ValueError, OSError):
            continue
    return str(p)


@dataclass
class ProblemList:
    """Collects problems during a run; ``raise_if_errors`` raises them all at once."""

    items: list[Problem] = field(default_factory=list)

    def add(self, problem: Problem) -> None:
        """Append ``problem`` as it is (its severity kept)."""
        self.items.append(problem)

    def error(self, file: str, line: int | None, path: str, message: str, hint: str = "", code: str = "") -> None:
        """Record an error at ``file``:``line`` (``path``: the field's location text)."""
        self.items.append(Problem(file, line, path, message, hint, "error", code))

    def warning(self, file: str, line: int | None, path: str, message: str, hint: str = "", code: str = "") -> None:
        """Record a warning at ``file``:``line`` (``path``: the field's location text)."""
        self.items.append(Problem(file, line, path, message, hint, "warning", code))

    @property
    def errors(self) -> list[Problem]:
        """The problems of severity error, in the order found."""
        return [p for p in self.items if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        """The problems of severity warning, in the order found."""
        return [p for p in self.items if p.severity == "warning"]

    def raise_if_errors(self) -> None:
        """Raise :class:`CardgenError` with every error collected (warnings stay); else nothing."""
        if self.errors:
            raise CardgenError(self.errors)


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str:
    """``"; did you mean 'x'?"`` naming the choice closest to ``word`` (``difflib``, at least
    ``cutoff`` alike), or ``""`` when none is close: the one wording of every such suggestion."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return f"; did you mean {close[0]!r}?" if close else ""
