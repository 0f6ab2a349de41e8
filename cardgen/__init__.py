"""cardgen: print-and-play component generator for small mahjong-like card games.

The public library API lives in :mod:`cardgen.api`; the command line in :mod:`cardgen.cli.commands`
is a thin layer over it.
"""

__version__ = "0.1.0"
