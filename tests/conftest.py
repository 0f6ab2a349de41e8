"""Shared test helpers: the repository root, the main game, and sandboxed copies of it.

A *game copy* is ``tmp/card_data/<game>`` next to copies of ``templates/`` and ``fonts/``, so a
test can edit a manifest or a card table without touching the checkout. A test that only reads
the outputs of a bundled game asks :func:`built_games` for them: each distinct build is made once
per test run and shared (read-only) by every module that asks for it.
"""
from __future__ import annotations

import atexit
import fcntl
import fnmatch
import hashlib
import importlib
import inspect
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

import PIL.Image
import pytest
from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, assertstate_key, get_cache_dir

# cardgen's on-disk caches (converted fonts, font names, parsed fonts) go to a folder of this test
# run, never to the user's ~/.cache; subprocesses inherit it. They are off unless a test turns them
# on (a test that patches cardgen in-process must not store a parse under a real font's key).
_CACHE = tempfile.mkdtemp(prefix="cardgen-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
os.environ["CARDGEN_NO_CACHE"] = "1"
atexit.register(shutil.rmtree, _CACHE, True)

# The Ctrl-C tests send SIGINT to cardgen processes. A test run started in the background by a
# non-interactive shell (`make test &`, nohup) inherits SIGINT ignored, and so would every cardgen
# it starts: Python then never raises KeyboardInterrupt, as intended for a backgrounded command.
# The tests' processes get the usual disposition back, wherever the run was started from.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parents[1]
TENJANPAI = ROOT / "card_data" / "tenjanpai"
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
needs_fonts = pytest.mark.skipif(not IPAEX.is_file(), reason="IPAex fonts (fonts-ipaexfont) not installed")


def write_xlsx(path: Path, sheets: dict[str, list[list]]) -> Path:
    """An .xlsx written with openpyxl: one worksheet per ``sheets`` entry, its rows in order."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


def copy_game(dest: Path, game: str = "tenjanpai") -> Path:
    """Copy ``card_data/<game>`` with the project's templates and fonts under ``dest``; returns the game folder."""
    for d in ("templates", "fonts"):
        shutil.copytree(ROOT / d, dest / d, dirs_exist_ok=True)
    target = dest / "card_data" / game
    shutil.copytree(ROOT / "card_data" / game, target)
    return target


def replace_in(path: Path, old: str, new: str, count: int = 1) -> None:
    """Edit a file in a game copy; fails loudly when ``old`` is not there (so the test cannot go stale)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def cli_env(**extra: str) -> dict[str, str]:
    """The environment of a ``python -m cardgen`` process a test starts: this run's (``extra``
    added), without CARDGEN_DEBUG, and with the on-disk caches on, in this run's cache folder
    (XDG_CACHE_HOME above), as a designer's cardgen has them: such a process runs cardgen
    unpatched, so what it stores is a real parse of a real file, keyed by the file's stamp (a font
    edited or replaced is parsed again). Each process of the run then parses the fonts once
    between them (≈ 0.25 s a process otherwise). The test processes and the build children forked
    from them keep the caches off (above)."""
    env = {k: v for k, v in os.environ.items() if k not in ("CARDGEN_DEBUG", "CARDGEN_NO_CACHE")}
    return {**env, **extra}


@pytest.fixture
def game_copy(tmp_path: Path) -> Path:
    return copy_game(tmp_path)


def git(cwd: Path, *args: str) -> None:
    """Run git in ``cwd`` with a fixed author and no user configuration (test repositories)."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": "/dev/null"}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


def once_per_run(factory: pytest.TempPathFactory, kind: str, key: str, make: Callable[[Path], object]):
    """``make(folder)``'s value, made once per test run for ``(kind, key)`` in a fresh folder and
    shared: by every later call in this process (kept in memory), and under pytest-xdist by every
    worker (the first worker to ask makes it under a file lock in the run's common temporary
    folder; the others wait for it and read its pickled value). An exception ``make`` raises is
    shared the same way (raised again to every caller)."""
    memo = _ONCE.setdefault(kind, {})
    if key not in memo:
        root = factory.getbasetemp()
        if os.environ.get("PYTEST_XDIST_WORKER"):
            root = root.parent  # the folder the workers' own basetemps are in: one per run
        shared = root / "shared" / kind
        shared.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha256(key.encode()).hexdigest()[:20]
        with open(shared / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed
            done = shared / f"{name}.pickle"
            if done.is_file():
                memo[key] = pickle.loads(done.read_bytes())
            else:
                try:
                    memo[key] = ("ok", make(Path(tempfile.mkdtemp(prefix=f"{name}-", dir=shared))))
                except Exception as exc:  # noqa: BLE001 - raised again, to every caller
                    memo[key] = ("raise", exc)
                done.write_bytes(pickle.dumps(memo[key]))
    kind_, value = memo[key]
    if kind_ == "raise":
        raise value
    return value


_ONCE: dict[str, dict[str, tuple]] = {}


class GameBuilds:
    """Builds of the bundled games (``card_data/<game>``) made once per test run and shared by every
    test that asks for the same one: ``built_games("tenjanpai", steps=("rulebook",), force=True)``
    returns the :class:`cardgen.api.BuildResult` of ``build_game(card_data/tenjanpai, OUT,
    steps=("rulebook",), force=True)``, its outputs in ``.out_dir``. The arguments are those of
    :func:`cardgen.api.build_game`, by keyword, with its defaults; the same arguments give the same
    build, other arguments another one. Made by :func:`once_per_run` (one build per run, across
    pytest-xdist workers too).

    The outputs are **read-only**: a test that changes, moves or deletes a file of one copies the
    folder to its own ``tmp_path`` first (as root, a chmod would not stop it, so nothing does). A
    build that fails raises in every test that asks for it."""

    def __init__(self, factory: pytest.TempPathFactory):
        self._factory = factory

    def __call__(self, game: str = "tenjanpai", **build):
        from cardgen.api import build_game  # lazy: loaded at the first build (+0.3 s), not by every test run
        from cardgen.steps.sheets import SheetOptions  # lazy: (as above)

        # build_game's own defaults written out: a test that leaves one out shares the build of a test that names it
        args = inspect.signature(build_game).bind(ROOT / "card_data" / game, None, **build)
        args.apply_defaults()
        args.arguments["options"] = args.arguments["options"] or SheetOptions()  # as build_game does
        args.arguments["steps"] = tuple(args.arguments["steps"])
        key = repr((game, sorted((k, v) for k, v in args.arguments.items() if k not in ("game_dir", "out_root"))))
        return once_per_run(self._factory, "built-games", key,
                            lambda out: build_game(ROOT / "card_data" / game, out, **build))


@pytest.fixture(scope="session")
def built_games(tmp_path_factory) -> GameBuilds:
    """:class:`GameBuilds`: bundled games built once per test run, read-only (see there)."""
    return GameBuilds(tmp_path_factory)


@pytest.fixture(scope="session")
def written_rulebooks(tmp_path_factory):
    """``written_rulebooks(game) -> rulebook PDF`` of a bundled game as
    :func:`cardgen.steps.rulebook.write_rulebook` writes it after
    :func:`cardgen.check.print_setup.load_and_validate` (a draft book where validation fails, as
    for 夜雀鬼), each written once per test run (:func:`once_per_run`) and shared read-only."""
    from cardgen.check.print_setup import load_and_validate  # lazy: loaded at the first build, not by every test run
    from cardgen.fonts.fontset import fonts_for  # lazy: (as above)
    from cardgen.steps.rulebook import write_rulebook  # lazy: (as above)

    def write(name: str, out: Path) -> Path:
        game, report = load_and_validate(ROOT / "card_data" / name)
        write_rulebook(game, report, fonts_for(game), out / f"{name}.pdf")
        return out / f"{name}.pdf"

    return lambda name: once_per_run(tmp_path_factory, "written-rulebooks", name, lambda out: write(name, out))


#: What a build child imports (:func:`warm_build_parent`): the API and the steps, and the modules the
#: export steps import when they first run (the print-shop files: numpy, pikepdf and the colour
#: preflight; the sheets and PNG renderers) — ≈ 0.2–0.3 s of imports in every child of a build that
#: gets as far as writing its outputs.
BUILD_MODULES = ("cardgen.api", "cardgen.steps.exports", "cardgen.rulebook.pdf", "cardgen.check.preflight",
                 "cardgen.steps.shop", "cardgen.render.pdf_sheets", "cardgen.render.png_cards",
                 "cardgen.steps.layout_findings", "cardgen.diff.sources",
                 # what the build's own lazy imports load on first use: the icon check's SVG reader
                 # (+67 ms in each child that reads an icon), pdfium for the PNGs and the icon check
                 "svglib.svglib", "pypdfium2")


@pytest.fixture(scope="session", autouse=True)
def warm_build_parent() -> None:
    """This test process loads, once, what every build child forked from it would load again: the
    build's modules (cardgen.api, the export steps, the rulebook writer, the preflight) and the
    IPAex fonts of the bad-input corpus's base game (tests/fixtures/bad/_base) registered. Every test
    process has it (autouse): CLI commands run in-process (CliRunner) do their work in a budgeted
    child forked from here, and without it every child imported the API, the steps and dulwich
    again (≈ 14 s of the suite's CPU by a py-spy profile of a whole run).

    The child still reads and checks its game's own fonts.yaml and every path in it, and loads any
    other font itself; only the parse of the system font files and the imports are shared (as the
    children of one ``cardgen build`` of several games would not: tests of a cold command run it
    as a process of its own, ``python -m cardgen``)."""
    from attack_game import BASE
    from cardgen.data.game import load_game  # lazy: only the modules that ask for it load the build here
    from cardgen.fonts.fontset import fonts_for  # lazy: (as above)

    for module in BUILD_MODULES:
        importlib.import_module(module)
    PIL.Image.init()  # Pillow's image plugins, which it imports on the first open or save of a file
    fonts_for(load_game(BASE))


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    """The small dict-built game of :mod:`tests.minigame`, written under ``tmp_path``; a test that needs
    changes calls :func:`tests.minigame.write_game` itself."""
    from tests.minigame import write_game
    return write_game(tmp_path)


# --- numba's compile of the simulator, once a run ---------------------------------------------

#: The lock file tests/simulator_warmup.py holds while it compiles (set for the workers of a run).
SIMULATOR_LOCK = "CARDGEN_TEST_SIMULATOR_LOCK"


def pytest_configure(config):
    """Under pytest-xdist with two or more workers (``make test``), start
    tests/simulator_warmup.py in the background before the workers start: it compiles the
    simulator's numba interpreter into numba's cache once (≈ 45 s of CPU on a fresh clone) while
    the workers run other tests, instead of each worker, and each ``cardgen simulate`` subprocess
    started before a cache existed, compiling it again. It holds an exclusive lock on a file whose
    path the workers inherit (:data:`SIMULATOR_LOCK`); :func:`compiled_simulator` waits for it."""
    if os.environ.get("PYTEST_XDIST_WORKER") or (getattr(config.option, "numprocesses", None) or 0) < 2:
        return
    folder = tempfile.mkdtemp(prefix="cardgen-test-simulator-")
    lock = os.path.join(folder, "compiling.lock")
    fd = os.open(lock, os.O_WRONLY | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # taken here, so no worker can find the file unlocked before the warm-up runs
    log = open(os.path.join(folder, "warmup.log"), "wb")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.Popen([sys.executable, "-m", "tests.simulator_warmup"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=log, stderr=subprocess.STDOUT, pass_fds=(fd,))
    os.close(fd)  # the lock stays with the warm-up's copy of the descriptor: released when it exits
    os.environ[SIMULATOR_LOCK] = lock
    config.stash[_WARMUP] = (proc, log, folder)
    _rewrite_for_workers(config)


def _rewrite_for_workers(config) -> None:
    """The test files with their asserts rewritten by pytest, once, here, for every worker.

    Each worker rewrites every test module it collects (≈ 4.3 s of CPU for tests/ on this machine)
    and stores the result for the next process only where Python may write bytecode (pytest's
    ``__pycache__/*-pytest-*.pyc``, keyed by the source's hash). With PYTHONDONTWRITEBYTECODE set, as
    on the project's machines, nothing was stored and every worker of every run rewrote them all.
    Here the files are rewritten and stored once before the workers start (while the warm-up
    compiles on the other core); a worker reads pytest's own cache entry, which pytest checks
    against the file's hash (an edited file is rewritten again)."""
    if config.getoption("assertmode") != "rewrite":
        return
    state = config.stash[assertstate_key]
    patterns = config.getini("python_files")
    for fn in sorted((ROOT / "tests").rglob("*.py")):
        if fn.name != "conftest.py" and not any(fnmatch.fnmatch(fn.name, pat) for pat in patterns):
            continue
        cache_dir = get_cache_dir(fn)
        pyc = cache_dir / (fn.name[:-3] + PYC_TAIL)
        if _read_pyc(fn, pyc) is not None:
            continue
        try:
            cache_dir.mkdir(exist_ok=True)
        except OSError:  # a read-only checkout: the workers rewrite as before
            return
        source_hash, code = _rewrite_test(fn, config)
        _write_pyc(state, code, source_hash, pyc)


def pytest_unconfigure(config):
    """The warm-up is stopped if the run ended before it (``-x``, Ctrl-C) and its folder removed."""
    proc, log, folder = config.stash.get(_WARMUP, (None, None, None))
    if proc is None:
        return
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    log.close()
    shutil.rmtree(folder, ignore_errors=True)


_WARMUP = pytest.StashKey[tuple]()


@pytest.fixture(scope="session")
def compiled_simulator() -> None:
    """Waits until tests/simulator_warmup.py, started by :func:`pytest_configure`, has compiled the
    simulator into numba's cache (nothing to wait for outside ``make test``'s workers: the first
    model run compiles it, as before). A module whose tests run a model, in-process or in a
    ``cardgen simulate`` subprocess, asks for it; if the warm-up failed, the test compiles and
    fails on its own."""
    lock = os.environ.get(SIMULATOR_LOCK)
    if lock and os.path.exists(lock):
        with open(lock) as fh:
            fcntl.flock(fh, fcntl.LOCK_SH)


# --- the order the workers take the test files in ---------------------------------------------

#: The test files that take longest (CPU and waiting; measured on a fresh clone, 2026-12-02), longest
#: first. Under ``make test`` (``--dist loadfile --no-loadscope-reorder``) each worker takes the next
#: file in collection order when it runs low, so these are handed out first and no core is left
#: idle at the end while the other finishes one of them (xdist's own order, by number of tests,
#: put the one-test tests/core/test_interrupt.py last). The simulator's tests come after the first
#: ones, when tests/simulator_warmup.py has compiled it. A file not listed comes after these, the
#: files with more tests first (xdist's order); a stale entry costs balance only.
LONGEST_FIRST = (
    "tests/cli/test_bad_input.py",
    "tests/core/test_interrupt.py",
    "tests/data/test_any_value.py",
    "tests/preview/test_preview.py",
    "tests/insight/test_insight_simulate.py",
    "tests/steps/test_edition_build.py",
    "tests/render/test_print_ready.py",
    "tests/preview/test_preview_browser.py",
    "tests/render/test_sheets_pdf.py",
    "tests/core/test_output_safety.py",
    "tests/games/test_game_yajanki.py",
    "tests/core/test_resource_budget.py",
    "tests/rulebook/test_rulebook_check.py",
    "tests/diff/test_diff.py",
)


def pytest_collection_modifyitems(config, items):
    """In an xdist worker: the files of :data:`LONGEST_FIRST` first, in its order, then the others
    by number of tests (most first); within a file the tests keep their order. Every worker
    collects the same order, which the scheduler takes as it is with ``--no-loadscope-reorder``."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    order = sorted(files, key=lambda f: (rank.get(f, len(rank)), -len(files[f])))
    items[:] = [item for f in order for item in files[f]]
