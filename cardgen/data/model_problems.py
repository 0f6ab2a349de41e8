"""pydantic validation errors → designer-readable :class:`~cardgen.core.errors.Problem` s.

Used for the manifest (:mod:`cardgen.data.game`) and card templates (:mod:`cardgen.data.template`):
each error names its ``file:line`` (from the :class:`~cardgen.data.yaml_source.Source` line map), a path
with list items named by their ``id`` / ``name`` / ``players``, and a hint.
"""
from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel, ValidationError

from cardgen.core.errors import Problem
from cardgen.data.yaml_source import Source, display_path


def _fields_of(model: type[BaseModel], loc: tuple) -> list[str]:
    """The field names allowed at ``loc`` (for did-you-mean), walking the model."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        f = current.model_fields.get(part)
        if f is None:
            return list(current.model_fields)
        current = _model_in(f.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _model_in(annotation: Any) -> Any:
    """The first pydantic model class inside a type annotation (``list[Component] | None`` →
    Component), or None."""
    args = getattr(annotation, "__args__", None)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for a in args or ():
        m = _model_in(a)
        if m is not None:
            return m
    return None


#: Plain-words messages and fixes for pydantic's error types: type → (message, hint).
_TYPE_WORDS = {
    "int_parsing": ("expected a whole number", "write digits, e.g. 42"),
    "int_type": ("expected a whole number", "write digits, e.g. 42"),
    "int_from_float": ("expected a whole number, not a fraction", "write a whole number, e.g. 42"),
    "float_parsing": ("expected a number", "write a number, e.g. 3 or 2.5"),
    "float_type": ("expected a number", "write a number, e.g. 3 or 2.5"),
    "bool_parsing": ("expected true or false", "write true or false"),
    "bool_type": ("expected true or false", "write true or false"),
    "string_type": ("expected text", "write the text (quote it if it looks like a number or a list)"),
    "list_type": ("expected a list", "write a list: [a, b] or one `- item` per line"),
    "dict_type": ("expected a mapping of keys", "write `key: value` lines indented under this key"),
    "model_type": ("expected a mapping of keys", "write `key: value` lines indented under this key"),
    "model_attributes_type": ("expected a mapping of keys", "write `key: value` lines indented under this key"),
    "too_short": ("the list is empty", "add at least one item"),
}


def validation_problems(exc: ValidationError, model: type[BaseModel], src: Source,
                        data: Any = None) -> list[Problem]:
    """Every error of a pydantic validation of ``data`` against ``model`` as a :class:`Problem` at
    its line in ``src``: unknown keys with did-you-mean and the allowed keys, missing keys, types,
    bounds and choices in plain words, the field's description as the hint."""
    out = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        path = display_path(loc, data)
        line = src.line(loc)
        kind = err["type"]
        hint = ""
        if kind == "extra_forbidden":
            key = str(loc[-1])
            allowed = _fields_of(model, loc[:-1])
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            msg = f"unknown key {key!r}"
            if close:
                msg += f"; did you mean {close[0]!r}?"
            hint = "allowed keys here: " + ", ".join(allowed) if allowed else "remove the key"
            code = "unknown-key"
        elif kind == "missing":
            msg = "this key is required but missing"
            parent = _fields_of(model, loc[:-1])
            hint = f"add `{loc[-1]}:`" + (f" (keys here: {', '.join(parent)})" if parent else "")
            code = "missing-key"
        elif kind == "string_pattern_mismatch" and loc and loc[-1] == "id":
            msg = f"an id may hold only lowercase a–z, 0–9, '-' and '_' (got {err.get('input')!r})"
            hint = "e.g. `battle` or `power-tokens`; the printed name goes in `name:`"
            code = "bad-id"
        else:
            got = f" (got {err['input']!r})" if "input" in err and not isinstance(err["input"], (dict, list)) else ""
            ctx = err.get("ctx") or {}
            field_info = _field_info(model, loc)
            about = field_info.description if field_info is not None and field_info.description else ""
            if kind in _TYPE_WORDS:
                msg, hint = _TYPE_WORDS[kind]
                msg += got
                hint = f"{hint}. {about}" if about else hint
            elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
                word = {"greater_than_equal": "at least", "greater_than": "more than",
                        "less_than_equal": "at most", "less_than": "less than"}[kind]
                bound = next(iter(ctx.values()), "?")
                msg, hint = f"must be {word} {bound}{got}", about
            elif kind == "literal_error":
                expected = str(ctx.get("expected", ""))
                options = [o.strip(" '") for o in expected.replace(" or ", ",").split(",") if o.strip(" '")]
                close = difflib.get_close_matches(str(err.get("input")), options, n=1)
                msg = f"must be one of {expected}{got}" + (f"; did you mean {close[0]!r}?" if close else "")
                hint = about
            else:
                msg, hint = err["msg"] + got, about
            code = kind
        out.append(Problem(src.file, line, path, msg, hint, code=code))
    return out


def _field_info(model: type[BaseModel], loc: tuple):
    """The pydantic FieldInfo at ``loc`` (list positions skipped), or None."""
    current: Any = model
    info = None
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return info
        info = current.model_fields.get(part)
        if info is None:
            return None
        current = _model_in(info.annotation)
    return info
