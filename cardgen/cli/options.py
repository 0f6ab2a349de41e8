"""Click options shared by the CLI commands, and their conversion to the API's option objects.
Lengths in mm."""
from __future__ import annotations

import math
from pathlib import Path

import click
from click.core import ParameterSource

from cardgen.core.budget_limits import (
    DEFAULT_CPU_S,
    DEFAULT_MEMORY_MB,
    MAX_CPU_S,
    MAX_MEMORY_MB,
    MIN_CPU_S,
    MIN_MEMORY_MB,
)
from cardgen.presets import SHEET_PAPERS


def out_option(f):
    """``--out``: the output root (files go to OUT/<game>/). Not given: ``output`` in the working
    folder, or, run inside the game folder, the project's ``output/``
    (:func:`cardgen.core.boundary.default_output`)."""
    return click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
                        show_default=True, callback=_default_out,
                        help="Output root; files go to OUT/<game>/. Run inside a game folder, the default is the "
                             "project's output/ (card_data/<game> → output/), or output/ beside the game folder.")(f)


def _default_out(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    """``--out`` as given; when left at its default, the default for the games named on the
    command line (click handles a defaulted option after the arguments given)."""
    if ctx.get_parameter_source(param.name) is not ParameterSource.DEFAULT:
        return value
    from cardgen.core.boundary import default_output  # lazy: +6 ms of imports here (measured)

    games = []
    for key in ("game_dir", "game_dirs", "old", "new"):
        v = ctx.params.get(key)
        games += [d for d in (v if isinstance(v, tuple) else [v]) if d is not None]
    return default_output(games)


def sheet_options(f, calibration: bool = False):
    """Print-sheet options; ``calibration`` leaves out those that mean nothing for the
    calibration sheet (--marks, --no-backs, --sides)."""
    f = click.option("--paper", type=click.Choice(SHEET_PAPERS, case_sensitive=False), default="a4", show_default=True,
                     help="Paper size of the print sheets.")(f)
    f = f if calibration else click.option("--marks", type=click.Choice(["japanese", "western", "none"]), default="japanese",
                     show_default=True, help="Crop marks: Japanese トンボ (double corner + centre marks), Western corner marks, or none.")(f)
    f = click.option("--duplex", type=click.Choice(["long-edge", "short-edge"]), default="long-edge",
                     show_default=True, help="How the printer flips the sheet for the backs.")(f)
    f = f if calibration else click.option("--no-backs", is_flag=True, help="Leave the back pages out.")(f)
    f = click.option("--margin", type=_Finite(0, 50), default=5.0, show_default=True,
                     help="Printer margin in mm (area the printer cannot reach), 0–50.")(f)
    f = out_option(f)
    f = click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
                     help="Shift the back pages by X,Y mm (x right, y down, as seen on the back) to cancel "
                          "your printer's duplex shift; measure it with `cardgen calibration`.")(f)
    f = click.option("--printer", default=None, metavar="NAME",
                     help="Shift the back pages by the offset stored for printer NAME (`cardgen printer add`).")(f)
    f = f if calibration else click.option("--sides", type=click.Choice(["front", "back", "both"]), default="both", show_default=True,
                     help="Faces in the PDF outputs: fronts only, backs only, or both.")(f)
    f = f if calibration else click.option(
        "--layout", type=click.Choice(["duplex", "fold"]), default="duplex", show_default=True,
        help="`duplex`: each front page followed by its back page (print double-sided); `fold`: fronts and "
             "their backs on one page, mirrored about a fold line (print one-sided, fold, glue, cut).")(f)
    f = f if calibration else click.option(
        "--one-sided", type=click.Choice(["blank", "separate"]), default="blank", show_default=True,
        help="Components without a back: a blank back page after each of their sheets (the whole file prints "
             "double-sided), or their own file print-sheets-one-sided.pdf (print it one-sided).")(f)
    return f


def calibration_options(f):
    """The print-sheet options that apply to the calibration sheet."""
    return sheet_options(f, calibration=True)


class _Finite(click.FloatRange):
    """A float range that also refuses ``nan`` and ``inf`` (click's FloatRange lets nan through)."""

    def __init__(self, lo: float, hi: float):
        super().__init__(min=lo, max=hi)

    def convert(self, value, param, ctx):
        rv = super().convert(value, param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a number from {self.min:g} to {self.max:g}", param, ctx)
        return rv


#: Largest duplex shift (mm) --back-offset accepts: printers drift by a few mm, not centimetres.
MAX_BACK_OFFSET_MM = 20.0


def parse_offset(value: str, option: str = "--back-offset") -> tuple[float, float]:
    """``"X,Y"`` → ``(x, y)`` mm.

    Raises:
        UsageError: anything else, or a value beyond ±MAX_BACK_OFFSET_MM (the CLI's handler exits 2).
    """
    from cardgen.core.errors import Problem, UsageError  # lazy: +9 ms of imports here (measured)
    try:
        x, y = (float(v) for v in value.replace(" ", "").split(","))
    except ValueError:
        raise UsageError(Problem(option, None, "", f"wants two numbers in mm, X,Y (e.g. 0.5,-1), not {value!r}",
                                 "measure the shift with `cardgen calibration`")) from None
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET_MM for v in (x, y)):
        raise UsageError(Problem(option, None, "", f"{value!r} is out of range: each of X and Y must be "
                                 f"a number from -{MAX_BACK_OFFSET_MM:g} to {MAX_BACK_OFFSET_MM:g} mm",
                                 "measure the shift with `cardgen calibration`; it is usually under 3 mm"))
    return x, y


def sheet_options_of(paper, duplex, margin, marks="japanese", no_backs=False, back_offset="0,0", sides="both",
                     one_sided="blank", printer=None, layout="duplex"):
    """The print-sheet options as :class:`cardgen.steps.sheets.SheetOptions` (margin in mm); the
    back offset is ``printer``'s stored one (:mod:`cardgen.data.printers`) when it is named."""
    from cardgen.core.errors import Problem, UsageError  # lazy: +9 ms of imports for --help (measured; 0 here)
    from cardgen.steps.sheets import SheetOptions  # lazy: +501 ms of imports here (measured)

    offset = parse_offset(back_offset)
    if printer is not None:
        if offset != (0.0, 0.0):
            raise UsageError(Problem("--printer", None, "", "--printer and --back-offset both give the back's shift",
                                     "give one of them"))
        from cardgen.data.printers import offset_of  # lazy: +17 ms of imports here (measured; PyYAML, kept out of --help)
        offset = offset_of(printer)
    return SheetOptions(paper=paper.lower(), marks=marks, backs=not no_backs, duplex=duplex, margin=margin,
                        sides="front" if no_backs else sides, back_offset=offset, one_sided=one_sided, layout=layout)


def export_options(f):
    """``--dpi``, ``--no-bleed``, ``--jobs`` of the PNG / TTS exports."""
    f = click.option("--dpi", type=_Finite(36, 1200), default=300, show_default=True,
                     help="Resolution of card PNGs.")(f)
    f = click.option("--no-bleed", is_flag=True, help="Cut card PNGs at the trim (no bleed).")(f)
    f = click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                     help="Worker processes for rasterising [default: all cores].")(f)
    return f


def exports_of(dpi=300, no_bleed=False, jobs=None, sides="both", png_sides="front", preset=None, tts_base_url=None):
    """The export options as :class:`cardgen.steps.exports.ExportOptions`."""
    from cardgen.steps.export_options import ExportOptions  # lazy: +2 ms of imports for --help (measured: dataclasses)
    return ExportOptions(dpi=dpi, bleed=not no_bleed, jobs=jobs, sides=sides, png_sides=png_sides, preset=preset,
                         tts_base_url=tts_base_url)


def out_options(f):
    """``--out`` and ``--force`` of the single-export commands."""
    f = out_option(f)
    f = click.option("--force", is_flag=True, help="Write even when validation fails.")(f)
    return f


def quiet_option(f):
    """``--quiet``: no progress bars (they are also off when standard error is not a terminal)."""
    def store(ctx, _param, value):
        ctx.meta["cardgen.quiet"] = value
    return click.option("--quiet", "-q", is_flag=True, expose_value=False, callback=store,
                        help="No progress bars (off anyway when output is not a terminal).")(f)


def budget_options(f):
    """``--memory-limit MB`` and ``--cpu-limit SECONDS``: the operating-system budget of each
    game's build (:mod:`cardgen.core.budget`), kept in the click context for :func:`budget_of`."""
    def store(key):
        def cb(ctx, _param, value):
            ctx.meta[key] = value
        return cb
    f = click.option("--memory-limit", type=click.IntRange(min=MIN_MEMORY_MB, max=MAX_MEMORY_MB), default=DEFAULT_MEMORY_MB,
                     show_default=True, metavar="MB", expose_value=False, callback=store("cardgen.memory"),
                     help="Memory (address space) one game's build may use; past it the build stops cleanly.")(f)
    f = click.option("--cpu-limit", type=click.IntRange(min=MIN_CPU_S, max=MAX_CPU_S), default=DEFAULT_CPU_S, show_default=True,
                     metavar="SECONDS", expose_value=False, callback=store("cardgen.cpu"),
                     help="CPU time one game's build may use; past it the build stops cleanly.")(f)
    return f


def limited(fn, *args, game: Path, on_event=None, **kwargs):
    """``fn(*args, **kwargs)`` in a forked child under the current command's budget
    (:func:`budget_of`, :func:`cardgen.core.budget.run_limited`); returns its value.
    ``on_event``: called here with what the child hands over meanwhile (:func:`cardgen.core.budget.send_event`).

    Raises:
        CardgenError: the child ran past the budget (naming ``game`` and the limit), or what ``fn`` raised.
    """
    from cardgen.core.budget import run_limited  # lazy: +14 ms of imports here (measured)
    return run_limited(fn, *args, budget=budget_of(click.get_current_context()), game=str(game), on_event=on_event,
                       **kwargs)


def budget_of(ctx: click.Context):
    """The :class:`cardgen.core.budget.Budget` the command was given (defaults when it has no flags)."""
    from cardgen.core.budget import Budget  # lazy: +14 ms of imports here (measured)
    return Budget(ctx.meta.get("cardgen.memory", DEFAULT_MEMORY_MB), ctx.meta.get("cardgen.cpu", DEFAULT_CPU_S))
