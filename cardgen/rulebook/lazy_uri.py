"""reportlab.platypus loaded without compiling paragraph.py's URL pattern until it is used.

``reportlab/platypus/paragraph.py`` (reportlab 4.x and 5.x) compiles one case-insensitive regular
expression at import, ``uri_pat``, whose character classes span ``\\xa1-\\uffff``: Python's
``re`` folds the case of every one of those 65,000 characters, about 40 ms of a 50 ms import
(measured on this project's machine; ``python -X importtime -c "import reportlab.platypus"``).
reportlab uses the pattern only to split a URL for hyphenation (``_uri_split_pairs``, when a
paragraph style sets ``uriWasteReduce``), which the rulebook never does; ``cardgen validate``
after an edit to the rules text paid it for nothing.

:func:`defer_url_pattern` (called when the :mod:`cardgen.rulebook` package is imported, before
any of its modules imports platypus) arranges that when ``reportlab.platypus.paragraph`` is
imported, that one pattern is made a :class:`LazyPattern`: it compiles the same pattern with the
same flags the first time any of its attributes is used, and answers exactly as the compiled
pattern does. Every other pattern is compiled as before. When the module was already imported,
nothing changes.
"""
from __future__ import annotations

import re
import sys

_MODULE = "reportlab.platypus.paragraph"


class LazyPattern:
    """``re.compile(pattern, flags)``, compiled on first use of any attribute (``match``,
    ``search``, ``pattern``, ``flags`` …)."""

    def __init__(self, pattern: str, flags: int):
        self._args = (pattern, flags)
        self._compiled: re.Pattern | None = None

    def compiled(self) -> re.Pattern:
        """The compiled pattern (compiled now if it was not yet)."""
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        return self._compiled

    def __getattr__(self, name: str):
        return getattr(self.compiled(), name)


def _run_deferring(exec_module, module) -> None:
    """``exec_module(module)`` (paragraph.py's import) with its case-insensitive pattern deferred."""
    real = re.compile

    def compile_(pattern, flags=0):
        if flags & re.IGNORECASE and isinstance(pattern, str) and sys._getframe(1).f_globals.get("__name__") == _MODULE:
            return LazyPattern(pattern, flags)
        return real(pattern, flags)

    re.compile = compile_
    try:
        exec_module(module)
    finally:
        re.compile = real


class _Finder:
    """A one-shot import hook (``sys.meta_path``) for paragraph.py: it finds the module as the
    other finders do, has it run by :func:`_run_deferring`, and removes itself."""

    def find_spec(self, name, path, target=None):
        """The spec of ``reportlab.platypus.paragraph`` with its loader's ``exec_module`` deferring
        the URL pattern; None for every other module."""
        if name != _MODULE:
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                loader = spec.loader
                if loader is not None and hasattr(loader, "exec_module"):
                    exec_module = loader.exec_module
                    loader.exec_module = lambda module: _run_deferring(exec_module, module)
                return spec
        return None


def defer_url_pattern() -> None:
    """Defer paragraph.py's URL pattern when reportlab.platypus is imported later in this process
    (see the module docstring); a no-op once it is imported or the hook is in place."""
    if _MODULE in sys.modules or any(isinstance(f, _Finder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _Finder())
