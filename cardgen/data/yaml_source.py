"""Reading manifests and templates (YAML) into plain data plus a source map
(:class:`cardgen.data.loaded.Loaded`: every value keeps where it came from).

YAML is read with PyYAML's safe machinery and a YAML 1.2 "core schema" resolver: ``yes``,
``No``, ``on`` stay text (only ``true``/``false`` are booleans), ``007`` stays the text
``"007"`` and numbers keep their written form (see :class:`~cardgen.data.loaded.RawInt`), so a
field declared as text gets exactly what the designer typed (``1.10`` stays ``"1.10"``).
Tags such as ``!!python/object`` are refused. Duplicate keys and tab indentation are errors.
Nodes are composed by libyaml (PyYAML's C loader) when present, else — and for any document
with an alias or an error, so messages stay the same — by PyYAML's Python composer (a ``*``
in a comment or a text is no alias: such a document stays with libyaml).

Card tables (CSV) are read by :mod:`cardgen.data.card_tables` into the same :class:`Loaded` shape.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from cardgen.core.errors import CardgenError, Problem
from cardgen.data.file_limits import MAX_YAML_BYTES, read_capped
from cardgen.data.loaded import Loaded, PathKey, RawFloat, RawInt, Source
from cardgen.data.yaml_hints import colon_in_value, comment_colours, fullwidth_syntax

_INT = re.compile(r"^[-+]?(0|[1-9][0-9_]*)$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_NULL = {"", "~", "null", "Null", "NULL"}
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Longest number read as a number; longer digit strings stay text (no field holds such a number).
MAX_DIGITS = 100
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}


def _scalar(node: ScalarNode) -> Any:
    """Resolve a scalar by the YAML 1.2 core schema (plain scalars only; quoted ones are text)."""
    value = node.value
    if node.style:  # quoted or block; plain is None (PyYAML) or "" (libyaml)
        return value
    if node.tag == "tag:yaml.org,2002:str" and value in _NULL:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if _INT.match(value):
        if len(value) > MAX_DIGITS:  # Python refuses to read ints of 4,300+ digits; no field wants one
            return value
        return RawInt(int(value.replace("_", "")), value)
    if _FLOAT.match(value) and any(c.isdigit() for c in value):
        return RawFloat(float(value.replace("_", "")), value)
    return value


_ALLOWED_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq", "!",
}


class _Composer(yaml.SafeLoader):
    """SafeLoader used only to compose nodes; resolution is ours (YAML 1.2 core schema).

    Aliases (``*name``) are recorded and refused: they can expand exponentially ("billion
    laughs") or refer to themselves, and a manifest is meant to be read top to bottom."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self.alias_lines.append(self.peek_event().start_mark.line + 1)
        return super().compose_node(parent, index)


# Plain scalars get the str tag; :func:`_scalar` decides their type.
_Composer.yaml_implicit_resolvers = {}

if getattr(yaml, "__with_libyaml__", False):
    class _CComposer(yaml.CSafeLoader):  # type: ignore[name-defined,misc]
        """libyaml's composer (about 15× faster), used for a document with no alias (no ``*``, or no
        node met twice in what libyaml composed: :func:`_shares_nodes`) and no error: anything
        else goes to :class:`_Composer`, whose messages are the ones
        cardgen documents. Tags, merge keys, duplicates and surrogates are checked on the
        composed nodes by :func:`_build` either way."""

    _CComposer.yaml_implicit_resolvers = {}
else:  # pragma: no cover - PyYAML built without libyaml
    _CComposer = None


def _compose(text: str) -> tuple[Any, list[int]]:
    """The node tree of ``text`` and the lines of its aliases (libyaml first, see :class:`_CComposer`)."""
    if _CComposer is not None:
        loader = _CComposer(text)
        try:
            node = loader.get_single_node()
            if "*" not in text or not _shares_nodes(node):  # an alias needs a '*' (one in a comment or text is none)
                return node, []
        except yaml.YAMLError:
            pass  # said again, in PyYAML's words, below (libyaml also stops at 1,000 levels)
        finally:
            loader.dispose()
    loader = _Composer(text)
    loader.alias_lines = []
    try:
        return loader.get_single_node(), loader.alias_lines
    finally:
        loader.dispose()


def _shares_nodes(root) -> bool:
    """Whether a node of a tree libyaml composed is met twice: an alias (``*name``), which libyaml
    composes as the anchored node itself (a self-reference as a cycle). Each node is visited once,
    so the walk is linear even for a "billion laughs" document."""
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return True
        seen.add(id(node))
        if isinstance(node, SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, MappingNode):
            for key, value in node.value:
                stack.append(key)
                stack.append(value)
    return False


def _show_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def _build(node, path: PathKey, src: Source, file: str, problems: list[Problem]) -> Any:
    src.lines.setdefault(path, node.start_mark.line + 1)
    if node.tag not in _ALLOWED_TAGS:
        problems.append(Problem(file, node.start_mark.line + 1, _fmt(path),
                                f"the YAML tag {_show_tag(node.tag)!r} is not allowed in a manifest",
                                "remove the tag; manifests hold plain data only (text, numbers, lists, mappings)",
                                code="yaml-tag"))
        return None
    if isinstance(node, ScalarNode):
        if _SURROGATE.search(node.value):
            problems.append(Problem(file, node.start_mark.line + 1, _fmt(path),
                                    "the text holds a lone surrogate (\\ud800–\\udfff), which is not a character",
                                    "remove the \\u escape; write the character itself", code="yaml-surrogate"))
            return None
        return _scalar(node)
    if isinstance(node, SequenceNode):
        return [_build(child, path + (i,), src, file, problems) for i, child in enumerate(node.value)]
    if isinstance(node, MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge" or (
                    isinstance(key_node, ScalarNode) and not key_node.style and key_node.value == "<<"):
                problems.append(Problem(file, key_node.start_mark.line + 1, _fmt(path),
                                        "merge keys (<<) are not supported", "write the keys out", code="yaml-merge"))
                continue
            key = _build(key_node, path, src, file, problems)
            if isinstance(key, (RawInt, RawFloat)):
                key = key.raw
            if not isinstance(key, (str, int, float)) or isinstance(key, bool):
                key = str(key)
            if key in out:
                problems.append(Problem(file, key_node.start_mark.line + 1, _fmt(path + (key,)),
                                        f"the key {key!r} appears twice (first on line {src.lines.get(path + (key,))})",
                                        "keep one of them; YAML would silently use the last one",
                                        code="duplicate-key"))
            src.lines[path + (key,)] = key_node.start_mark.line + 1
            out[key] = _build(value_node, path + (key,), src, file, problems)
        return out
    return None  # pragma: no cover - composer yields only the three node kinds


def _fmt(path: PathKey) -> str:
    return " → ".join(str(p) for p in path)


def load_yaml(path: Path, shown: str | None = None) -> Loaded:
    """Read a YAML file safely.

    Args:
        path: the file.
        shown: how to name it in messages (default: the path as given).

    Returns:
        :class:`Loaded` with plain data (dict/list/str/int/float/bool/None) and line map.

    Raises:
        CardgenError: unreadable file, not UTF-8, tab indentation, syntax error, duplicate keys,
            disallowed tags — every problem found, each with its line.
    """
    file = shown or str(path)
    raw = read_capped(path, file, MAX_YAML_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CardgenError(Problem(file, line, "", "the file is not UTF-8 text",
                                   "save it as UTF-8 (in most editors: Save As → Encoding → UTF-8)",
                                   code="encoding"))
    problems: list[Problem] = []
    for i, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip(" ")
        if stripped.startswith("\t"):
            problems.append(Problem(file, i, "", "the line is indented with a tab",
                                    "YAML indentation must use spaces; replace the tab with spaces",
                                    code="yaml-tab"))
    if problems:
        raise CardgenError(problems)
    src = Source(file)
    try:
        node, alias_lines = _compose(text)
        if alias_lines:
            raise CardgenError([Problem(file, line, "", "YAML aliases (*name) are not supported",
                                        "write the value out where it is used (anchors &name and aliases "
                                        "*name are refused)", code="yaml-alias")
                                for line in sorted(set(alias_lines))])
    except yaml.MarkedYAMLError as exc:
        raise CardgenError(_syntax_problems(text, file, exc))
    except yaml.YAMLError as exc:  # pragma: no cover - all PyYAML errors are marked
        raise CardgenError(Problem(file, None, "", f"YAML error: {exc}", code="yaml-syntax"))
    except RecursionError:
        raise CardgenError(_too_deep(file))
    if node is None:
        return Loaded({}, src)
    problems.extend(comment_colours(text, file))
    try:
        data = _build(node, (), src, file, problems)
    except RecursionError:
        raise CardgenError(_too_deep(file))
    if problems:
        raise CardgenError(problems)
    src.lines[()] = 1
    return Loaded(data, src)


def _syntax_problems(text: str, file: str, exc: yaml.MarkedYAMLError) -> list[Problem]:
    """What a YAML syntax error means for the designer (:mod:`cardgen.data.yaml_hints`): YAML
    syntax typed full-width (``hand：4``, a trailing U+3000, ``“…”``) on the line PyYAML names or the
    one above, an unquoted colour read as a comment that ate a flow mapping's ``}`` (named at its own line, not
    where PyYAML gave up), a ``[`` or ``{`` left open (named at the line that opened it), an unquoted
    ``: `` inside a value (named with its key), else PyYAML's words at its line (after any unquoted
    colours above it)."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    msg = (exc.problem or "syntax error").strip()
    if exc.context:
        msg = f"{exc.context.strip()}: {msg}"
    if line is not None:
        lines = text.splitlines()
        # full-width syntax (hand：4, a trailing U+3000, “…”) on the line PyYAML names or the line of
        # text above it (a key's full-width colon is found missing only on the next line of text)
        above = line - 1
        while above > 1 and above <= len(lines) and (not lines[above - 1].strip()
                                                     or lines[above - 1].lstrip().startswith("#")):
            above -= 1
        widths = fullwidth_syntax(lines, above, line, file) if not text.isascii() else []
        if widths:
            return widths
        colours = comment_colours(text, file, 1, line)
        if colours and "flow" in msg:  # the comment ate a closing } or ]: that is the error
            return colours
        opened = exc.context_mark
        if not colours and opened is not None and exc.problem_mark is not None and "flow" in (exc.context or "") \
                and opened.line < exc.problem_mark.line:  # an unclosed [ or {: PyYAML gives up lines later
            bracket, closing = ("[", "]") if "sequence" in exc.context else ("{", "}")
            return [Problem(file, opened.line + 1, "", f"YAML syntax error: the {bracket} opened on this line is "
                            f"not closed (the parser gave up at line {line}: {msg})",
                            f"close it with {closing} on the same line, or quote the value if the {bracket} is text",
                            code="yaml-syntax")]
        if not colours and exc.problem_mark and line <= len(lines):
            colon = colon_in_value(lines, line, exc.problem_mark.column, file)
            if colon:
                return [colon]
    else:
        colours = []
    return colours + [Problem(file, line, "", f"YAML syntax error: {msg}",
                              "check indentation, colons and quotes on this line and the one above",
                              code="yaml-syntax")]


def _too_deep(file: str) -> Problem:
    return Problem(file, None, "", "the YAML is nested too deeply to read",
                   "a manifest needs only a few levels of nesting; check for runaway brackets", code="yaml-depth")
