"""pydantic validation errors → designer-readable :class:`~cardgen.core.errors.Problem` s.

Used for the manifest (:mod:`cardgen.data.game`) and card templates (:mod:`cardgen.data.template`):
each error names its ``file:line`` (from the :class:`~cardgen.data.loaded.Source` line map), a path
with list items named by their ``id`` / ``name`` / ``players``, and a hint.
"""
from __future__ import annotations

import difflib
import types
import typing
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from cardgen.core.errors import Problem, did_you_mean
from cardgen.core.unicode_text import fullwidth_words, halfwidth, ime_note
from cardgen.data.loaded import Source, display_path

#: Words designers type for a column type or a kind, and the one cardgen means (``str`` → ``text``).
_SYNONYMS = {"str": "text", "string": "text", "integer": "int", "number": "int", "boolean": "bool",
             "real": "float", "decimal": "float"}


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic model classes inside a type annotation: ``list[Component] | None`` →
    ``[Component]``; a list of card-template elements → one model per element kind."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for a in getattr(annotation, "__args__", None) or () for m in _models_in(a)]


def _tag(model: type[BaseModel]) -> str | None:
    """The ``kind`` a model of a tagged union stands for (``Literal["text"]`` → ``text``), or None."""
    f = model.model_fields.get("kind")
    args = typing.get_args(f.annotation) if f is not None and typing.get_origin(f.annotation) is Literal else ()
    return args[0] if len(args) == 1 else None


def _key_field(model: type[BaseModel], key: Any):
    """The FieldInfo of ``key`` as written (its alias, e.g. ``if``, or its name), or None."""
    return next((f for name, f in model.model_fields.items() if (f.alias or name) == key), None)


def _keys(model: type[BaseModel]) -> list[str]:
    """The keys a model accepts, as written (aliases, e.g. ``if``)."""
    return [f.alias or name for name, f in model.model_fields.items()]


def _union_members(info) -> dict[str, Any]:
    """The members of an untagged union field by the names pydantic puts in an error location
    (``Union[str, SizeSpec, None]`` → ``{"str": str, "SizeSpec": SizeSpec}``); {} for other fields."""
    if info is None or typing.get_origin(info.annotation) not in (typing.Union, types.UnionType):
        return {}
    return {a.__name__: a for a in typing.get_args(info.annotation) if isinstance(a, type) and a is not type(None)}


def _walk(model: type[BaseModel], loc: tuple) -> tuple[tuple, list[type[BaseModel]], Any, tuple]:
    """Follow a pydantic error location through ``model``: ``(loc without the kind tags pydantic adds
    for an element's model and the member names it adds for an untagged union, the models that can
    hold the next key, the FieldInfo of the last key, the union branch taken: (loc of the union,
    member is a model) or ())``.
    ``("elements", 2, "text", "fnot")`` → ``(("elements", 2, "fnot"), [], None, ())``;
    ``("print", "card_size", "SizeSpec", "width")`` → ``(("print", "card_size", "width"), [], <width>,
    (("print", "card_size"), True))``."""
    clean: list = []
    models: list[type[BaseModel]] = [model]
    info = None
    branch: tuple = ()
    members: dict[str, Any] = {}
    for part in loc:
        tags = {_tag(m): m for m in models} if len(models) > 1 else {}
        if isinstance(part, str) and part in tags:  # the tag of a union picked by `kind`
            models = [tags[part]]
            continue
        if isinstance(part, str) and part in members:  # the member of an untagged union pydantic tried
            member = members[part]
            is_model = isinstance(member, type) and issubclass(member, BaseModel)
            branch = (tuple(clean), is_model)
            models, members = ([member] if is_model else []), {}
            continue
        clean.append(part)
        if isinstance(part, int):
            continue
        info = _key_field(models[0], part) if len(models) == 1 else None
        models = _models_in(info.annotation) if info is not None else []
        members = _union_members(info)
    return tuple(clean), models, info, branch


def _fields_of(model: type[BaseModel], loc: tuple) -> list[str]:
    """The keys allowed at ``loc`` (for did-you-mean), walking the model."""
    _clean, models, _info, _branch = _walk(model, loc)
    return _keys(models[0]) if len(models) == 1 else []


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
    errors = [(err, _walk(model, tuple(err["loc"]))) for err in exc.errors(include_url=False)]
    # A value that fits no member of an untagged union (``size: 63mmm`` for ``str | SizeSpec``):
    # when pydantic went inside a model member (the value is a mapping), that member's errors say
    # what is wrong; the scalar members' "expected text" would only mislead, so they are dropped.
    into_model = {walked[3][0] for _err, walked in errors
                  if walked[3] and walked[3][1] and len(walked[0]) > len(walked[3][0])}
    # Otherwise the value is of no member's type (``size: 5``): one problem naming every type
    # the field takes, instead of one half-true problem per member.
    union_types: dict[tuple, list[str]] = {}
    for err, (loc, _m, _f, branch) in errors:
        if branch and loc == branch[0] and err["type"] in _TYPE_WORDS:
            union_types.setdefault(loc, []).append(_TYPE_WORDS[err["type"]][0].removeprefix("expected "))
    # A required key written wrong (``player:`` for ``players:``): one problem, the unknown key's
    # with its did-you-mean, not a second one saying the key it meant is missing.
    missing = {(tuple(err["loc"][:-1]), str(err["loc"][-1])) for err, _w in errors if err["type"] == "missing"}
    misspelt: dict[tuple, str] = {}  # raw loc of the missing key → the key written instead
    for err, _w in errors:
        if err["type"] == "extra_forbidden":
            parent, key = tuple(err["loc"][:-1]), str(err["loc"][-1])
            close = [k for p, k in missing if p == parent and difflib.get_close_matches(key, [k], 1, 0.6)]
            if close:
                misspelt.setdefault((*parent, close[0]), key)
    # A value typed with an IME in full-width mode (``count: ３６``, ``box: [0，0，63，18]``): one problem
    # naming the full-width characters; a list whose full-width commas made it one item has no
    # missing items besides (``item 2 → this key is required``).
    widths = {tuple(err["loc"]): typed for err, _w in errors
              if isinstance(typed := err.get("input"), str) and halfwidth(typed) != typed
              and halfwidth(typed).isascii()}  # カード１ as an id: the id's own rule says what is wrong
    one_item = {raw[:-1] for raw, typed in widths.items() if raw and isinstance(raw[-1], int) and "，" in typed}
    said: set[tuple] = set()
    for err, (loc, models, field_info, branch) in errors:
        if branch and not branch[1] and branch[0] in into_model:
            continue
        if err["type"] == "missing" and tuple(err["loc"]) in misspelt:
            continue
        if err["type"] == "missing" and tuple(err["loc"][:-1]) in one_item and isinstance(err["loc"][-1], int):
            continue
        if tuple(err["loc"]) in widths:
            out.append(_fullwidth_problem(src, loc, data, widths[tuple(err["loc"])],
                                          tuple(err["loc"])[:-1] in one_item))
            continue
        if len(union_types.get(loc, ())) > 1 and branch and loc == branch[0]:
            if loc in said:
                continue
            said.add(loc)
            about = field_info.description if field_info is not None and field_info.description else ""
            got = f" (got {err['input']!r})" if not isinstance(err.get("input"), (dict, list)) else ""
            out.append(Problem(src.file, src.line(loc), display_path(loc, data),
                               "expected " + " or ".join(dict.fromkeys(union_types[loc])) + got, about,
                               code="union_type"))
            continue
        raw = tuple(err["loc"])
        path = display_path(loc, data)
        line = src.line(loc)
        kind = err["type"]
        hint = ""
        if kind in ("union_tag_invalid", "union_tag_not_found"):
            kinds = [tag for m in models if (tag := _tag(m))]
            got = str((err.get("ctx") or {}).get("tag", ""))
            msg = (f"unknown element kind {got!r}" + did_you_mean(got, kinds)
                   if kind == "union_tag_invalid" else "this element has no `kind`")
            hint = "kinds: " + ", ".join(kinds)
            line = src.line(loc + ("kind",))
            code = "unknown-kind" if kind == "union_tag_invalid" else "missing-key"
        elif kind == "extra_forbidden":
            key = str(loc[-1])
            allowed = _fields_of(model, raw[:-1])
            meant = next((k for (*parent, k), typed in misspelt.items() if tuple(parent) == raw[:-1] and typed == key),
                         None)
            msg = f"unknown key {key!r}" + (f"; did you mean {meant!r}? (a required key)" if meant
                                             else did_you_mean(key, allowed))
            hint = (f"rename it to `{meant}:`; " if meant else "") + \
                ("allowed keys here: " + ", ".join(allowed) if allowed else "remove the key")
            code = "unknown-key"
        elif kind == "missing":
            msg = "this key is required but missing"
            parent = _fields_of(model, raw[:-1])
            hint = f"add `{loc[-1]}:`" + (f" (keys here: {', '.join(parent)})" if parent else "")
            code = "missing-key"
        elif kind == "string_too_long" and tuple(loc) == ("game", "id"):
            limit = (err.get("ctx") or {}).get("max_length", "?")
            msg = (f"the game id is {len(str(err.get('input', ''))):,} characters long, more than the {limit} the "
                   "output folder's name may have (the file system allows 255 for a name)")
            hint = "give the game a short id, e.g. `tenjanpai`; the printed title goes in `title:`"
            code = "bad-id"
        elif kind == "string_pattern_mismatch" and loc and loc[-1] == "id":
            msg = f"an id may hold only lowercase a–z, 0–9, '-' and '_' (got {err.get('input')!r})"
            hint = "e.g. `battle` or `power-tokens`; the printed name goes in `name:`"
            code = "bad-id"
        else:
            got = f" (got {err['input']!r})" if "input" in err and not isinstance(err["input"], (dict, list)) else ""
            ctx = err.get("ctx") or {}
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
                given = str(err.get("input"))
                close = difflib.get_close_matches(given, options, n=1) or \
                    [o for o in options if _SYNONYMS.get(given.lower()) == o][:1]
                msg = f"must be one of {expected}{got}" + (f"; did you mean {close[0]!r}?" if close else "")
                hint = about or f"write one of: {', '.join(options)}"
            elif kind == "value_error":  # our own validator's words, without pydantic's "Value error, "
                msg, hint = str(ctx.get("error") or err["msg"]), about
                msg += "" if repr(err.get("input")) in msg else got
            else:
                msg, hint = err["msg"] + got, about
            code = kind
        out.append(Problem(src.file, line, path, msg, hint, code=code))
    return out


def _fullwidth_problem(src: Source, loc: tuple, data: Any, typed: str, one_item: bool) -> Problem:
    """``typed``, refused at ``loc``, holds full-width characters (:func:`cardgen.core.unicode_text.halfwidth`):
    named, with the value as it reads typed half-width; ``one_item``: its full-width commas made
    a list of one item (``[0，0，63，18]``)."""
    key = next((str(k) for k in reversed(loc) if isinstance(k, str)), "")
    words = fullwidth_words(typed)
    plain = halfwidth(typed).strip()
    if one_item:
        list_loc = loc[:-1]
        msg = f"the list is written with {words}, so YAML reads {typed!r} as one item instead of a list"
        fixed = "[" + ", ".join(part.strip() for part in plain.split(",")) + "]"
        return Problem(src.file, src.line(list_loc), display_path(list_loc, data), msg,
                       f"separate the items with half-width commas: {key}: {fixed}{_IME}", code="fullwidth")
    msg = f"{typed!r} is typed with {words}, which YAML and cardgen read as text, not as {plain!r}"
    return Problem(src.file, src.line(loc), display_path(loc, data), msg,
                   f"type it half-width: {key}: {plain}{_IME}" if key else f"type it half-width: {plain}{_IME}",
                   code="fullwidth")


_IME = ime_note("numbers and YAML's syntax")
