"""Card face templates: ``templates/cards/<name>.yaml`` (named boxes bound to card fields), loaded
and checked once per content.

Boxes are ``[x, y, w, h]`` in mm from the trim's top-left corner, y downwards (as a designer
measures on paper); the model is :mod:`cardgen.data.template_model`. Text and conditions are
jinja2 expressions evaluated in a sandbox with StrictUndefined (:mod:`cardgen.data.template_expr`):
a template can read the card's fields (``card.X``), the game (``game.title``…) and the design
constants (``design.X``), and nothing else — no files, no Python.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pydantic import ValidationError

from cardgen.core.errors import CardgenError, Problem, rel
from cardgen.data.file_limits import MAX_YAML_BYTES, read_capped
from cardgen.data.model_problems import validation_problems
from cardgen.data.template_checks import check_expressions, check_values
from cardgen.data.template_model import Template
from cardgen.data.yaml_source import load_yaml

#: Loaded templates by (path, shown path, content hash), while a caller keeps them (:func:`remember_templates`).
_MEMO: dict | None = None


def remember_templates(memo: dict | None) -> dict | None:
    """Keep every template :func:`load_template` loads in ``memo`` and reuse it while the file's
    bytes are the same (None: stop). Returns the previous memo. The live preview parses each
    template once instead of on every rebuild; a template is never changed after loading."""
    global _MEMO
    before, _MEMO = _MEMO, memo
    return before


def load_template(templates_dir: Path, name: str, referenced_from: str = "", line: int | None = None) -> Template:
    """Load ``templates_dir/<name>.yaml``, parsed once while its bytes stay the same (in the memo
    of :func:`remember_templates` when one is kept, else in this process's own, :data:`_LOADED`).

    Raises:
        CardgenError: missing file (naming the manifest line that asks for it), YAML or schema problems.
    """
    if not plain_name(name):
        raise CardgenError(Problem(referenced_from or "", line, "template",
                                   f"the template name {name!r} is not a plain name",
                                   "name a file in templates/cards/ without `.yaml`, folders or `..`, e.g. `battle`",
                                   code="path-escape"))
    path = templates_dir / f"{name}.yaml"
    if not path.is_file():
        avail = sorted(p.stem for p in templates_dir.glob("*.yaml")) if templates_dir.is_dir() else []
        raise CardgenError(Problem(referenced_from or rel(path), line, "template",
                                   f"the card template {name!r} does not exist ({rel(path)})",
                                   "available: " + (", ".join(avail) or "none"), code="missing-template"))

    shown = rel(path)
    memo = _MEMO if _MEMO is not None else _LOADED
    key = (str(path.resolve()), shown, hashlib.sha1(read_capped(path, shown, MAX_YAML_BYTES)).hexdigest())
    if key in memo:
        return memo[key]
    template = _load(path)
    if memo is _LOADED and len(_LOADED) >= 256:
        _LOADED.clear()
    memo[key] = template
    return template


def _load(path: Path) -> Template:
    """Parse and check one template file (raises CardgenError)."""
    loaded = load_yaml(path, rel(path))
    if not isinstance(loaded.data, (dict, type(None))):
        raise CardgenError(Problem(loaded.source.file, 1, "", "a card template must be a mapping (description:, elements:)",
                                   code="template-type"))
    try:
        template = Template.model_validate(loaded.data or {})
    except ValidationError as exc:
        raise CardgenError(validation_problems(exc, Template, loaded.source, loaded.data))
    template._file = loaded.source.file
    template._lines = [loaded.source.line(("elements", i)) for i in range(len(template.elements))]
    check_expressions(template, loaded.source)
    check_values(template, loaded.source)
    return template


#: Templates loaded without a problem, by (path, path as shown, sha1 of the bytes), when no memo of
#: :func:`remember_templates` is kept: a template named by several components, or checked by
#: validation and then planned, is read once per process. Templates are not changed after
#: loading (a per-card colour makes a copy of its element).
_LOADED: dict[tuple[str, str, str], Template] = {}


_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def plain_name(name: object) -> bool:
    """Whether ``name`` is a plain template name (letters, digits, ``_ . -``; no folders, no ``..``)."""
    return isinstance(name, str) and bool(_NAME.match(name)) and ".." not in name

