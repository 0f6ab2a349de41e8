"""The rulebook's page design: ``templates/rulebook/<name>.yaml`` (margins, text styles, table and
quote styles, header and footer), read and validated; the built-in design when a game has none
(:data:`BUILTIN_DESIGN`). Lengths are written in mm (or ``"12pt"``, ``"0.5in"``) and held in pt,
converted once here at validation like the card templates' (:data:`cardgen.data.fields.Length`);
font sizes are pt as written.
"""
# Annotations are objects, not strings (no `from __future__ import annotations`): pydantic would
# evaluate each string at class creation (the manifest's models: 5-13 ms of every command that reads a game, measured).

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cardgen.core.errors import CardgenError, Problem, did_you_mean, rel
from cardgen.core.units import MM
from cardgen.data.fields import Length
from cardgen.data.yaml_source import load_yaml


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TextStyle(_M):
    """A text style: font role, size (pt), leading (× size), colour, space before/after and indent
    (written in mm, held in pt)."""

    font: str = "body"
    size: float = 9.0
    leading: float = 1.5
    color: str = "#000000"
    space_before: Length = 0.0
    space_after: Length = 0.0
    rule: str | None = Field(None, description="Colour of a rule under the text (headings).")
    text: str = Field("", description="Header/footer text: {title}, {subtitle}, {version}, {page}.")
    title: str = Field("", description="Table of contents title.")
    indent: Length = 0.0


class TableStyleSpec(_M):
    """The style of tables: font role, size (pt), leading (× size), header fill, grid colour, cell
    padding (written in mm, held in pt)."""

    font: str = "body"
    size: float = 8.0
    leading: float = 1.35
    header_fill: str = "#eeeeee"
    grid: str = "#888888"
    padding: Length = 1.5 * MM  #: pt (written in mm)


class QuoteStyle(_M):
    """The style of block quotes: fill, the bar on the left, indent (written in mm, held in pt)."""

    fill: str = "#f5f5f5"
    bar: str = "#999999"
    indent: Length = 3.0 * MM  #: pt (written in mm)


class PageDesign(_M):
    """``templates/rulebook/<name>.yaml``: margins, text styles, header and footer (lengths in pt)."""

    margins: dict[str, Length] = Field(default_factory=lambda: {k: v * MM for k, v in
                                                               {"top": 15, "bottom": 15, "left": 14, "right": 14}.items()})
    body: TextStyle = TextStyle()
    strong: TextStyle = TextStyle(font="heading")
    emphasis: TextStyle = TextStyle(font="heading")
    code: TextStyle = TextStyle(font="heading")
    title: TextStyle = TextStyle(font="heading", size=20)
    subtitle: TextStyle = TextStyle(font="heading", size=10)
    headings: list[TextStyle] = Field(default_factory=lambda: [TextStyle(font="heading", size=13)])
    toc: TextStyle = TextStyle(title="目次")
    table: TableStyleSpec = TableStyleSpec()
    quote: QuoteStyle = QuoteStyle()
    list_indent: Length = 5.0 * MM  #: pt (written in mm)
    figure_gap: Length = 3.0 * MM  #: pt (written in mm)
    header: TextStyle = TextStyle(size=7, text="{title} {version}")
    footer: TextStyle = TextStyle(size=8, text="{page}")
    baseline_grid: bool = Field(True, description="Body lines on a grid of the body leading: headings, tables, "
                                "figures and boxes take whole lines (cardgen/rulebook/grid.py).")

    def heading(self, depth: int) -> TextStyle:
        """The heading style of ``depth`` (0 = level 1); deeper levels reuse the last style."""
        return self.headings[min(depth, len(self.headings) - 1)]


#: The built-in page design, used when no templates/rulebook/default.yaml is found (a game made
#: with `cardgen new` outside a checkout). A test keeps it equal to templates/rulebook/default.yaml.
BUILTIN_DESIGN = Path(__file__).resolve().parent.parent / "presets" / "rulebook-default.yaml"


def load_design(dirs: list[Path], name: str, allowed: list[Path] | None = None,
                where: tuple[str, int | None] = ("", None)) -> tuple[PageDesign, Path]:
    """Find ``<name>.yaml`` in ``dirs`` (first hit; for ``default``, the built-in design last)
    and read it. ``name`` must be a plain name; with ``allowed``, the file found must lie in one
    of those folders (:func:`cardgen.core.boundary.confine`, symlinks followed). ``where`` is the
    manifest's ``file, line`` of ``rulebook.template``. Raises CardgenError."""
    from cardgen.core.boundary import confine  # lazy: +5 ms of imports here (measured)
    from cardgen.data.template import plain_name  # lazy: +88 ms of imports here (measured)

    if not plain_name(name):
        raise CardgenError(Problem(where[0], where[1], "rulebook → template",
                                   f"the page design name {str(name)[:80]!r} is not a plain name",
                                   "name a file in templates/rulebook/ without `.yaml`, folders or `..`, e.g. `a5`",
                                   code="path-escape"))
    if name == "default":
        dirs = [*dirs, BUILTIN_DESIGN.parent]
        name_for = {BUILTIN_DESIGN.parent: BUILTIN_DESIGN.stem}
    else:
        name_for = {}
    for d in dirs:
        path = Path(d) / f"{name_for.get(Path(d), name)}.yaml"
        if path.is_file():
            if allowed is not None and Path(d) != BUILTIN_DESIGN.parent:
                confine(path, allowed, where[0], where[1], "rulebook → template", what="the page design")
            loaded = load_yaml(path, rel(path))
            try:
                return PageDesign.model_validate(loaded.data or {}), path
            except ValidationError as exc:
                raise CardgenError([Problem(rel(path), None, " → ".join(map(str, e["loc"])), e["msg"],
                                            code="rulebook-design") for e in exc.errors()])
    raise CardgenError(Problem("", None, "rulebook → template", f"no page design {name!r} in "
                               + (", ".join(rel(d) for d in dirs) or "any templates/rulebook folder"),
                               "add templates/rulebook/<name>.yaml",
                               code="rulebook-design"))


def design_font_problems(design: PageDesign, path: Path, roles: list[str]) -> list[Problem]:
    """An ``unknown-font-role`` error for every style of ``design`` (read from ``path``) whose
    ``font`` is not one of ``roles``, at the line of that ``font:`` with the closest role (it
    would silently be set in the body font). The built-in design names only standard roles."""
    styles = [((key,), getattr(design, key)) for key, f in PageDesign.model_fields.items()
              if isinstance(getattr(design, key), (TextStyle, TableStyleSpec))]
    styles += [(("headings", i), st) for i, st in enumerate(design.headings)]
    wrong = [(loc, st.font) for loc, st in styles if st.font not in roles]
    if not wrong:
        return []
    source = load_yaml(path, rel(path)).source
    return [Problem(rel(path), source.line((*loc, "font")) or source.line(loc),
                    " → ".join(map(str, (*loc, "font"))), f"no font role {font!r}" + did_you_mean(font, roles),
                    "roles: " + ", ".join(sorted(roles)) + " (fonts/fonts.yaml or fonts: in game.yaml)",
                    code="unknown-font-role")
            for loc, font in wrong]
