"""``cardgen serve``: a live preview page of one game — every face, the deck math, the problems,
the rulebook and the print sheets — updated after each save (see :mod:`cardgen.preview.live`)."""
