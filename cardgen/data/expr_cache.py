"""Compiled template texts and expressions kept on disk: jinja2's own bytecode cache for
:func:`cardgen.data.template_expr.compile_text` (:func:`compile_source`) and for every jinja2
expression cardgen compiles (:func:`compile_expression`: elements' ``if:``, design rules,
``setup.derive``, the rulebook's ``values``).

jinja2 compiles a template source to Python source and that to a code object: for the dozen texts
of a card template about 5 ms of every run (10 ms for 天雀牌's), whatever the deck's size (issue 19:
the fixed cost of ``cardgen sheets``). jinja2's :class:`~jinja2.BytecodeCache` keeps the code
object; its buckets check jinja2's bytecode format, the Python version and a checksum of the source
before a stored code object is used. The entries live in cardgen's cache folder
(:mod:`cardgen.core.disk_cache`: sub-folder :data:`KIND`, whole-file writes, checksummed, a link or
a foreign file never read), off with ``CARDGEN_NO_CACHE=1`` / ``--no-cache``.

An entry's key is the source's SHA-256 and everything the generated code depends on besides the
source (:func:`_salt`): the versions of jinja2 and Python, the code of cardgen's sandbox
(``core/sandbox.py`` and ``data/template_expr.py``, by content: its lexer hook and intercepted
operators change the generated code), the environment's options, and the names of its filters and
tests (jinja2 checks those at compile time). A source that does not compile is never stored.
"""
from __future__ import annotations

import hashlib
import sys
from functools import lru_cache
from pathlib import Path

from jinja2 import BytecodeCache, Environment, TemplateSyntaxError, nodes
from jinja2.bccache import Bucket
from jinja2.environment import TemplateExpression
from jinja2.parser import Parser

from cardgen.core import disk_cache

#: Cache sub-folder of the compiled template texts.
KIND = "jinja2-text-1"
#: Entries kept (a few KB each; a game has tens of distinct texts).
KEEP = 2000
#: cardgen's files whose code the generated code depends on (relative to the package folder).
SANDBOX_CODE = ("core/sandbox.py", "data/template_expr.py")
_PKG = Path(__file__).resolve().parents[1]


class DiskBytecodeCache(BytecodeCache):
    """jinja2 bytecode cache whose buckets are :mod:`cardgen.core.disk_cache` entries keyed by
    ``salt`` (:func:`_salt`), the bucket's key and the source's SHA-256."""

    def __init__(self, salt: bytes):
        self.salt = salt

    def get_source_checksum(self, source: str) -> str:
        """SHA-256 of the source (jinja2's own is SHA-1)."""
        return hashlib.sha256(source.encode("utf-8")).hexdigest()

    def _key(self, bucket: Bucket) -> bytes:
        return b"\0".join((self.salt, bucket.key.encode(), bucket.checksum.encode()))

    def load_bytecode(self, bucket: Bucket) -> None:
        """Fill ``bucket`` from its entry when there is a sound one (jinja2 checks its format)."""
        data = disk_cache.read(KIND, self._key(bucket))
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Store ``bucket``'s code (errors writing are ignored: the cache only saves time)."""
        disk_cache.write(KIND, self._key(bucket), bucket.bytecode_to_string(), keep=KEEP)


@lru_cache(maxsize=4)
def _salt(env: Environment) -> bytes:
    """What the code jinja2 generates for ``env`` depends on besides the source (see the module doc)."""
    import jinja2

    h = hashlib.sha256()
    for name in SANDBOX_CODE:
        h.update((_PKG / name).read_bytes())
    options = (type(env).__module__, type(env).__qualname__, sorted(getattr(env, "intercepted_binops", ())),
               sorted(getattr(env, "intercepted_unops", ())), env.autoescape, env.optimized, env.finalize is None,
               env.block_start_string, env.block_end_string, env.variable_start_string, env.variable_end_string,
               env.comment_start_string, env.comment_end_string, env.line_statement_prefix,
               env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks, env.newline_sequence,
               env.keep_trailing_newline, sorted(env.extensions), env.is_async, sorted(env.filters),
               sorted(env.tests), env.undefined.__module__, env.undefined.__qualname__)
    h.update(repr(options).encode())
    return f"{jinja2.__version__}\0{sys.version}\0{h.hexdigest()}".encode()


def compile_source(env: Environment, source: str):
    """``env.from_string(source)`` (the same template: no name, no file name, ``env``'s globals),
    its code object taken from the disk cache when stored there. Raises what ``from_string``
    raises (jinja2's TemplateSyntaxError); nothing is stored then."""
    if not disk_cache.enabled():
        return env.from_string(source)
    return _template(env, "card-text", source, lambda: env.compile(source))


def _template(env: Environment, kind: str, source: str, compile_code):
    """The template of ``source`` (no name, no file name, ``env``'s globals) from its stored code
    object, or from ``compile_code()``, which is then stored; ``kind`` names the bucket (the same
    text compiled as a card text and as an expression gives two entries)."""
    cache = DiskBytecodeCache(_salt(env))
    bucket = cache.get_bucket(env, kind, None, source)
    if bucket.code is None:
        bucket.code = compile_code()
        cache.set_bucket(bucket)
    return env.template_class.from_code(env, bucket.code, env.make_globals(None), None)


def compile_expression(env: Environment, source: str, undefined_to_none: bool = True):
    """``env.compile_expression(source, undefined_to_none)``, its code object taken from the disk
    cache when stored there (an expression compiles in 0.5–2 ms; 天雀牌's 28 cost ~25 ms of every
    check). The same steps as jinja2 3.1's ``Environment.compile_expression`` (parse in the
    "variable" state, nothing after the expression, ``result = <expression>`` compiled as a
    template), so the callable answers the same. Raises what it raises (jinja2's
    TemplateSyntaxError, from ``env.handle_exception``); nothing is stored then."""
    if not disk_cache.enabled():
        return env.compile_expression(source, undefined_to_none)
    template = _template(env, "expression", source, lambda: env.compile(_expression_template(env, source)))
    return TemplateExpression(template, undefined_to_none)


def _expression_template(env: Environment, source: str) -> nodes.Template:
    """The template jinja2's ``compile_expression`` compiles for ``source``."""
    parser = Parser(env, source, state="variable")
    try:
        expr = parser.parse_expression()
        if not parser.stream.eos:
            raise TemplateSyntaxError("chunk after expression", parser.stream.current.lineno, None, None)
        expr.set_environment(env)
    except TemplateSyntaxError:
        env.handle_exception(source=source)
    return nodes.Template([nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)], lineno=1)
