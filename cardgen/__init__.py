"""cardgen: print-and-play component generator for small mahjong-like card games.

The public library API lives in :mod:`cardgen.api`; the command line in :mod:`cardgen.cli.commands`
is a thin layer over it.
"""

import sys

__version__ = "0.1.0"

# reportlab imports uharfbuzz whenever it is installed (pdfbase/ttfonts.py), for text shaping cardgen
# never asks it for (paragraph styles keep shaping=0): ~30 ms of CPU in every process (/usr/bin/time,
# 5 runs each on a loaded machine: importing reportlab.pdfbase.ttfonts 0.09-0.10 s user with this line,
# 0.10-0.16 s without; cardgen.steps.game_check median 0.40 s with, 0.43 s without).
# cardgen loads uharfbuzz itself, only for vertical text (cardgen.fonts.vertical_forms.harfbuzz).
sys.modules.setdefault("uharfbuzz", None)  # type: ignore[arg-type]
