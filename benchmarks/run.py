"""Benchmarks: cardgen's print sheets against the raw reportlab floor, at growing deck sizes.

    python benchmarks/run.py                 # 天雀牌 + generated 1,000 and 4,000-card decks
    python benchmarks/run.py --sizes 1000 --repeat 3 --no-png
    python benchmarks/run.py --protograf-only --sizes 1000 4000   # only protograf vs cardgen sheets
    python benchmarks/run.py --small-deck-only --repeat 5          # only the fixed cost

Every measured build runs in its own Python process (imports and start-up are not timed; the
clock covers the build from the game folder to the written PDF). Peak memory is that process's
maximum RSS, read with ``os.wait4`` (the child's own rusage). Each case runs ``--repeat`` times
and the median is reported. Results go to benchmarks/results.json and a table on stdout.

Also measured: ``cardgen --help`` and ``cardgen validate`` wall time including start-up, and
per-card PNG export of the generated 1,000-card deck on 1 vs 2 processes, and protograf on the
generated decks against ``cardgen sheets`` (whole processes, interleaved; ``--protograf-repeat``
runs each, 1 by default) when ``make bench-protograf`` has made its venv, else a "skipped" note
(benchmarks/protograf_deck.py). Every run also records
the CPU other processes used meanwhile (``other_load_cores``, from /proc/stat): the cores are
shared, and a figure taken under load says so. What each clock covers: benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))


# ----------------------------------------------------------------- child side

def _child(kind: str, game: str, out: str) -> None:
    """Run one build in this process and print {"seconds", "cards", "bytes", …} as JSON."""
    extra: dict = {}
    if kind == "cardgen":
        import cardgen.render.pdf_sheets  # noqa: F401  (imports are not timed)
        import cardgen.api as api
        from cardgen.api import build_game
        from cardgen.steps.registry import SHEETS_PDF
        from cardgen.steps.sheets import SheetOptions
        phases = _time_phases(api)
        t = time.perf_counter()
        res = build_game(game, out, SheetOptions(), force=True, steps=("sheets",))
        dt = time.perf_counter() - t
        phases["other"] = dt - sum(phases.values())  # report.json, imposition setup, atomic output
        extra["phases_s"] = phases
        pdf = res.out_dir / SHEETS_PDF
        from cardgen.data.game import load_game
        from cardgen.data.expand import expand, printable_components
        g = load_game(game)
        cards = sum(len(expand(g, c)) for c in printable_components(g))
    elif kind == "floor":
        sys.path.insert(0, str(HERE))
        import floor
        data = floor.prepare(Path(game))
        pdf = Path(out) / "floor.pdf"
        pdf.parent.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        floor.draw(data, pdf)
        dt = time.perf_counter() - t
        cards = data["cards"]
    elif kind == "png":
        import resource

        import cardgen.api as api
        from cardgen.api import build_game
        from cardgen.steps.exports import ExportOptions
        from cardgen.steps.sheets import SheetOptions
        phases = _time_phases(api)
        t = time.perf_counter()
        res = build_game(game, out, SheetOptions(), force=True, steps=("png",),
                         exports=ExportOptions(jobs=int(os.environ.get("CARDGEN_JOBS", "1"))))
        dt = time.perf_counter() - t
        extra["png_bytes"] = sum(f.stat().st_size for f in (res.out_dir / "cards").glob("*.png"))
        me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        extra.update(phases_s=phases, parent_cpu_s=me.ru_utime + me.ru_stime,
                     workers_cpu_s=kids.ru_utime + kids.ru_stime)
        pdf, cards = None, 0
    else:
        raise SystemExit(f"unknown child kind {kind}")
    print(json.dumps({"seconds": dt, "cards": cards, "bytes": pdf.stat().st_size if pdf else 0, **extra}))


def _time_phases(api) -> dict:
    """Wrap the build's phases in cardgen.api with timers; returns the (filled-in) seconds dict."""
    phases: dict[str, float] = {}
    import cardgen.steps.exports as exports
    import cardgen.steps.game_check as game_check
    import cardgen.steps.registry as registry

    names = {"load_and_validate": "load+validate", "_plans": "layout", "_preflight": "preflight",
             "write_sheets": "pdf", "write_pngs": "exports", "write_tts": "exports", "write_shop": "exports"}
    for attr, label in names.items():
        mod = next(m for m in (game_check, registry, exports, api) if hasattr(m, attr))
        fn = getattr(mod, attr)

        def timed(*a, _fn=fn, _label=label, **k):
            t0 = time.perf_counter()
            try:
                return _fn(*a, **k)
            finally:
                phases[_label] = phases.get(_label, 0.0) + time.perf_counter() - t0
        setattr(mod, attr, timed)
    return phases


# ----------------------------------------------------------------- parent side

def _busy_ticks() -> int:
    """CPU ticks spent by the whole machine (all processes, all cores) since boot (/proc/stat)."""
    try:
        f = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        return sum(int(v) for i, v in enumerate(f[:8]) if i not in (3, 4))  # not idle, not iowait
    except OSError:
        return 0


def _run_child(kind: str, game: Path, out: Path, env: dict | None = None) -> dict:
    if kind == "raw":  # the independent floor: its own script, no cardgen import
        out.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, str(HERE / "raw_floor.py"), str(game), str(out / "raw.pdf")]
    elif kind == "pillow":  # the independent PNG floor: Pillow alone
        cmd = [sys.executable, str(HERE / "pillow_floor.py"), str(game), str(out)]
    else:
        cmd = [sys.executable, __file__, "--child", kind, str(game), str(out)]
    busy0, t0 = _busy_ticks(), time.perf_counter()
    p = subprocess.Popen(cmd, cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    stdout, stderr = p.stdout.read(), p.stderr.read()  # type: ignore[union-attr]
    _pid, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{kind} {game} failed:\n{stderr.decode()}")
    res = json.loads(stdout.decode().strip().splitlines()[-1])
    res["max_rss_mb"] = usage.ru_maxrss / 1024  # Linux: KiB
    # CPU the rest of the machine used meanwhile (other users of the shared cores), in cores
    wall = time.perf_counter() - t0
    own = usage.ru_utime + usage.ru_stime
    res["other_load_cores"] = max(0.0, ((_busy_ticks() - busy0) / os.sysconf("SC_CLK_TCK") - own) / wall) if wall else 0.0
    return res


def _median_runs(kind: str, game: Path, out: Path, repeat: int, env: dict | None = None) -> dict:
    return _medians([_run_child(kind, game, out, env) for _ in range(repeat)])


def _medians(runs: list[dict]) -> dict:
    med = statistics.median
    out = {"cards": runs[0]["cards"], "bytes": runs[0]["bytes"], "runs": len(runs)}
    for k in ("seconds", "max_rss_mb", "other_load_cores", "parent_cpu_s", "workers_cpu_s", "png_bytes"):
        if k in runs[0]:
            out[k] = med(r[k] for r in runs)
    if "phases_s" in runs[0]:
        out["phases_s"] = {k: med(r["phases_s"].get(k, 0.0) for r in runs) for k in runs[0]["phases_s"]}
    return out


def _wall(cmd: list[str], repeat: int, cpu: dict | None = None, key: str = "") -> float:
    """Median wall seconds of ``cmd`` (start-up included); its median CPU seconds go to ``cpu[key]``."""
    times, cpus = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _pid, _status, usage = os.wait4(p.pid, 0)
        times.append(time.perf_counter() - t)
        cpus.append(usage.ru_utime + usage.ru_stime)
    if cpu is not None:
        cpu[key] = statistics.median(cpus)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 4000], help="generated deck sizes")
    ap.add_argument("--repeat", type=int, default=3, help="runs per case (median reported)")
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    ap.add_argument("--no-png", action="store_true", help="skip the PNG export scaling check")
    ap.add_argument("--png-size", type=int, default=1000, help="cards in the deck of the PNG scaling check")
    ap.add_argument("--protograf-repeat", type=int, default=1,
                    help="runs per deck size of the protograf comparison (protograf takes minutes at 4,000 cards)")
    ap.add_argument("--protograf-only", action="store_true",
                    help="only the protograf comparison (kept beside the other results in --out)")
    ap.add_argument("--no-protograf", action="store_true", help="skip the protograf comparison")
    ap.add_argument("--small-deck-only", action="store_true",
                    help="only whole_run.small_deck (the fixed cost), "
                         "kept beside the other results in --out")
    ap.add_argument("--child", nargs=3, metavar=("KIND", "GAME", "OUT"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        _child(*a.child)
        return 0
    sys.path.insert(0, str(HERE))
    from gen import make_game

    results: dict = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                 "platform": platform.platform()},
                     "command": "python benchmarks/run.py " + " ".join(argv if argv is not None else sys.argv[1:]),
                     "decks": {}}
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as tmp:
        if a.small_deck_only:
            return _write(a.out, {"whole_run": {**_kept(a.out).get("whole_run", {}),
                                                "small_deck": _small_deck(Path(tmp), a.repeat)}})
        games = {"tenjanpai": ROOT / "card_data" / "tenjanpai"}
        for n in a.sizes:
            games[f"generated-{n}"] = make_game(Path(tmp) / f"g{n}", n)
        generated = {k: v for k, v in games.items() if k.startswith("generated-")}
        if a.protograf_only:
            results = {"protograf": _protograf(generated, Path(tmp), a.protograf_repeat)}
            return _write(a.out, results)
        for name, game in games.items():
            row = {}
            kinds = ("cardgen", "floor", "raw") if name.startswith("generated-") else ("cardgen", "floor")
            # interleaved: cardgen, floor, raw, cardgen, … so all see the same background load
            runs: dict[str, list] = {k: [] for k in kinds}
            for _ in range(a.repeat):
                for kind in kinds:
                    runs[kind].append(_run_child(kind, game, Path(tmp) / "out" / kind))
            for kind in kinds:
                r = _medians(runs[kind])
                row[kind] = {"cards": r["cards"], "ms_per_card": 1000 * r["seconds"] / r["cards"],
                             "seconds": r["seconds"], "max_rss_mb": r["max_rss_mb"],
                             "bytes_per_card": r["bytes"] / r["cards"], "pdf_bytes": r["bytes"], "runs": r["runs"],
                             "other_load_cores": r["other_load_cores"]}
                if "phases_s" in r:
                    row[kind]["phases_s"] = r["phases_s"]
            row["time_ratio"] = row["cardgen"]["ms_per_card"] / row["floor"]["ms_per_card"]
            row["bytes_ratio"] = row["cardgen"]["bytes_per_card"] / row["floor"]["bytes_per_card"]
            if "raw" in row:
                row["time_ratio_raw"] = row["cardgen"]["ms_per_card"] / row["raw"]["ms_per_card"]
                row["bytes_ratio_raw"] = row["cardgen"]["bytes_per_card"] / row["raw"]["bytes_per_card"]
            results["decks"][name] = row
            print(f"{name:16} cards {row['cardgen']['cards']:5}  "
                  f"cardgen {row['cardgen']['ms_per_card']:6.2f} ms/card  floor {row['floor']['ms_per_card']:6.2f}  "
                  f"×{row['time_ratio']:.2f}  |  RSS {row['cardgen']['max_rss_mb']:6.1f} MB (floor "
                  f"{row['floor']['max_rss_mb']:.1f})  |  {row['cardgen']['bytes_per_card']:7.0f} B/card "
                  f"(floor {row['floor']['bytes_per_card']:.0f}, ×{row['bytes_ratio']:.2f})", flush=True)
            if "raw" in row:
                print(f"    independent raw floor {row['raw']['ms_per_card']:6.2f} ms/card, ×{row['time_ratio_raw']:.2f}; "
                      f"RSS {row['raw']['max_rss_mb']:.1f} MB; {row['raw']['bytes_per_card']:.0f} B/card "
                      f"(×{row['bytes_ratio_raw']:.2f})", flush=True)
            print("    cardgen phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in row["cardgen"]["phases_s"].items())
                  + f"; other load on the machine {row['cardgen']['other_load_cores']:.2f} cores", flush=True)
        if len(a.sizes) >= 2:
            lo, hi = f"generated-{min(a.sizes)}", f"generated-{max(a.sizes)}"
            results["memory_ratio"] = {"between": [lo, hi], "ratio": results["decks"][hi]["cardgen"]["max_rss_mb"]
                                       / results["decks"][lo]["cardgen"]["max_rss_mb"]}
            print(f"peak memory {hi} / {lo}: ×{results['memory_ratio']['ratio']:.2f}")
        results["whole_run"] = _whole_run(generated, Path(tmp), a.repeat)
        if not a.no_protograf:
            results["protograf"] = _protograf(generated, Path(tmp), a.protograf_repeat)
        py = [sys.executable, "-m", "cardgen"]
        cpu: dict = {}
        busy0, t0 = _busy_ticks(), time.perf_counter()
        results["startup"] = {
            "help_s": _wall(py + ["--help"], 5, cpu, "help"),
            # --no-cache: the font caches off too
            "validate_s": {g.name: _wall(py + ["validate", "--no-cache", str(g)], 5, cpu, g.name)
                           for g in sorted((ROOT / "card_data").iterdir()) if (g / "game.yaml").is_file()},
            "cpu_s": cpu,
        }
        wall = time.perf_counter() - t0
        results["startup"]["other_load_cores"] = max(0.0, ((_busy_ticks() - busy0) / os.sysconf("SC_CLK_TCK")
                                                           - 5 * sum(cpu.values())) / wall)
        print(f"cardgen --help {results['startup']['help_s']:.3f} s; validate "
              + ", ".join(f"{k} {v:.3f} s" for k, v in results["startup"]["validate_s"].items()))
        if not a.no_png:
            results["png"] = _png_scaling(games, Path(tmp), a.repeat, a.png_size)
    return _write(a.out, results)


def _kept(path: Path) -> dict:
    """The results already in ``path`` ({} when there are none)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _write(path: Path, results: dict) -> int:
    """Merge ``results`` into the JSON file at ``path``: other benchmarks (insight.py, preview.py)
    keep their sections; a protograf run keeps the deck sizes it did not measure, and a skipped
    one keeps the last figures under ``previous`` (a checkout without protograf's venv does not
    erase them)."""
    kept = _kept(path)
    old = kept.get("protograf", {})
    old = old.get("previous", old)  # the last measured figures, skipped or not since
    new = results.get("protograf", {})
    if "decks" in new and "decks" in old:
        new["decks"] = {**old["decks"], **new["decks"]}
    elif "skipped" in new and "decks" in old:
        new["previous"] = old
    path.write_text(json.dumps({**kept, **results}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}")
    return 0


def _cardgen_sheets(game: Path, tmp: Path) -> list[str]:
    """The ``cardgen sheets`` command of the whole-run comparisons."""
    return [sys.executable, "-m", "cardgen", "sheets", "-q", "--force", str(game), "--out", str(tmp / "whole")]


def _process(cmd: list[str], cwd: Path = ROOT, env: dict | None = None, log: Path | None = None) -> dict:
    """Run ``cmd`` as one whole process (start-up to exit); its wall and CPU seconds, peak RSS (MB)
    and the CPU the rest of the machine used meanwhile (cores). Output goes to ``log`` (or is
    dropped); a non-zero exit raises SystemExit naming the log."""
    out = log.open("wb") if log else subprocess.DEVNULL
    try:
        busy0, t = _busy_ticks(), time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        _pid, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
    finally:
        if log:
            out.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed (exit {os.waitstatus_to_exitcode(status)})"
                         + (f"; see {log}" if log else ""))
    own = usage.ru_utime + usage.ru_stime
    return {"seconds": wall, "cpu_s": own, "max_rss_mb": usage.ru_maxrss / 1024,
            "other_load_cores": max(0.0, ((_busy_ticks() - busy0) / os.sysconf("SC_CLK_TCK") - own) / wall)}


#: What ``cardgen sheets`` loads of the libraries it runs on, with no cardgen code: pydantic with one
#: model built (its schema machinery and plugin loader load on the first model; plugins off, as
#: ``cardgen`` sets them), jinja2's sandbox, reportlab's canvas and TrueType fonts (Pillow with
#: them), PyYAML and click.
LIBRARY_FLOOR = ("import click, yaml, jinja2.sandbox, reportlab.pdfgen.canvas, reportlab.pdfbase.ttfonts\n"
                 "from pydantic import BaseModel\n"
                 "class Model(BaseModel):\n"
                 "    name: str\n")


def _start_floors(repeat: int) -> dict:
    """CPU seconds (medians of ``repeat`` whole processes) of the interpreter alone (``python -c
    pass``) and of loading the libraries ``cardgen sheets`` uses (:data:`LIBRARY_FLOOR`): the part
    of the fixed cost no change to cardgen's own code can remove."""
    runs: dict[str, list] = {"interpreter_cpu_s": [], "libraries_cpu_s": [], "other_load_cores": []}
    for _ in range(repeat):
        for key, code in (("interpreter_cpu_s", "pass"), ("libraries_cpu_s", LIBRARY_FLOOR)):
            run = _process([sys.executable, "-c", code], env={**os.environ, "PYDANTIC_DISABLE_PLUGINS": "__all__"})
            runs[key].append(run["cpu_s"])
            runs["other_load_cores"].append(run["other_load_cores"])
    out = {k: statistics.median(v) for k, v in runs.items()}
    print(f"start-up floors: interpreter {out['interpreter_cpu_s']:.3f} s CPU, interpreter + libraries "
          f"{out['libraries_cpu_s']:.3f} s CPU (other load {out['other_load_cores']:.2f} cores)", flush=True)
    return out


def _against_raw(game: Path, tmp: Path, repeat: int) -> dict:
    """``cardgen sheets`` and the independent floor script on ``game``, each a whole process,
    interleaved ``repeat`` times: medians of wall (``cardgen``, ``raw``) and CPU seconds
    (``cardgen_cpu``, ``raw_cpu``) and of the other load (cores)."""
    times: dict[str, list] = {"cardgen": [], "raw": [], "cardgen_cpu": [], "raw_cpu": [], "other_load_cores": []}
    for _ in range(repeat):
        for kind, cmd in (("cardgen", _cardgen_sheets(game, tmp)),
                          ("raw", [sys.executable, str(HERE / "raw_floor.py"), str(game), str(tmp / "whole.pdf")])):
            run = _process(cmd)
            times[kind].append(run["seconds"])
            times[f"{kind}_cpu"].append(run["cpu_s"])
            times["other_load_cores"].append(run["other_load_cores"])
    return {k: statistics.median(v) for k, v in times.items()}


#: Cards of the deck whose whole ``cardgen sheets`` run is the directly measured fixed cost.
SMALL_DECK = 10


def _small_deck(tmp: Path, repeat: int) -> dict:
    """``cardgen sheets`` and the independent floor on a :data:`SMALL_DECK`-card generated deck,
    whole processes, interleaved, medians: the fixed cost measured directly. The line through 1,000
    and 4,000 cards meets 0 cards higher, because the first cards of a deck meet most of its distinct
    text boxes (each fitted once, then replayed): 720 of the 4,000-card deck's 764 by card 1,000."""
    from gen import make_game

    game = make_game(tmp / f"g{SMALL_DECK}", SMALL_DECK)
    row = {"cards": SMALL_DECK, **_against_raw(game, tmp, repeat)}
    print(f"{SMALL_DECK}-card deck (the fixed cost, measured): cardgen sheets {row['cardgen']:.3f} s "
          f"({row['cardgen_cpu']:.3f} s CPU), independent floor {row['raw']:.3f} s ({row['raw_cpu']:.3f} s CPU) "
          f"(other load {row['other_load_cores']:.2f} cores)", flush=True)
    row["measured"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    return row


def _whole_run(games: dict, tmp: Path, repeat: int) -> dict:
    """``cardgen sheets`` (the CLI) against the independent floor script, each a whole process
    (start-up and imports included), interleaved; medians. With two deck sizes, the fixed cost
    (the time at 0 cards, extrapolated along the line through both) and the cost per card."""
    out: dict = {}
    for name, game in games.items():
        row = _against_raw(game, tmp, repeat)
        row["ratio"] = row["cardgen"] / row["raw"]
        row["cpu_ratio"] = row["cardgen_cpu"] / row["raw_cpu"]
        out[name] = row
        print(f"whole run {name}: cardgen sheets {row['cardgen']:.2f} s ({row['cardgen_cpu']:.2f} s CPU), independent "
              f"floor {row['raw']:.2f} s ({row['raw_cpu']:.2f} s CPU), ×{row['ratio']:.2f} wall, ×{row['cpu_ratio']:.2f} "
              f"CPU (other load {row['other_load_cores']:.2f} cores)", flush=True)
    sizes = sorted(int(k.split("-")[1]) for k in out)
    if len(sizes) >= 2:
        lo, hi = out[f"generated-{sizes[0]}"], out[f"generated-{sizes[-1]}"]
        for kind in ("cardgen", "raw", "cardgen_cpu", "raw_cpu"):
            per = (hi[kind] - lo[kind]) / (sizes[-1] - sizes[0])
            out[f"{kind}_fixed_s"] = lo[kind] - per * sizes[0]
            out[f"{kind}_ms_per_card"] = 1000 * per
        print(f"fixed cost: cardgen sheets {out['cardgen_fixed_s']:.2f} s ({out['cardgen_cpu_fixed_s']:.2f} s CPU), "
              f"floor {out['raw_fixed_s']:.2f} s ({out['raw_cpu_fixed_s']:.2f} s CPU); per card "
              f"{out['cardgen_ms_per_card']:.2f} / {out['raw_ms_per_card']:.2f} ms", flush=True)
        out["start_floors"] = _start_floors(repeat)
        out["small_deck"] = _small_deck(tmp, repeat)
    return out


def _protograf(games: dict, tmp: Path, repeat: int) -> dict:
    """protograf (benchmarks/protograf_deck.py) against ``cardgen sheets`` on the generated decks,
    each a whole process (start-up to exit), interleaved ``repeat`` times; medians, with the peak
    RSS of each process and the other load. ``{"skipped": note}`` when protograf's venv is absent."""
    import protograf_deck

    if protograf_deck.python() is None:
        print(f"protograf: skipped ({protograf_deck.SKIP_NOTE})", flush=True)
        return {"skipped": protograf_deck.SKIP_NOTE}
    from gen import make_game

    out: dict = {"version": protograf_deck.version(), "decks": {}}
    if not protograf_deck.font_index().is_file():  # its first run indexes the system fonts: not timed
        argv, env, cwd = protograf_deck.command(make_game(tmp / "pg-warm", 8), tmp / "pg-warm-out")
        _process(argv, cwd, env, cwd / "protograf.log")
    for name, game in games.items():
        runs: dict[str, list] = {"cardgen": [], "protograf": []}
        started = {"started_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), "load_average": os.getloadavg()[0]}
        for _ in range(repeat):
            runs["cardgen"].append(_process(_cardgen_sheets(game, tmp)))
            argv, env, cwd = protograf_deck.command(game, tmp / "pg" / name)
            (cwd / "deck.pdf").unlink(missing_ok=True)
            runs["protograf"].append(_process(argv, cwd, env, cwd / "protograf.log"))
            if not (cwd / "deck.pdf").is_file():
                raise SystemExit(f"protograf wrote no PDF; see {cwd / 'protograf.log'}")
        row: dict = {**started, "runs": repeat, "cards": protograf_deck.cards(game),
                     "protograf_pdf_bytes": (cwd / "deck.pdf").stat().st_size}
        for kind, rs in runs.items():
            for k in ("seconds", "cpu_s", "max_rss_mb", "other_load_cores"):
                row[f"{kind}_{k}"] = statistics.median(r[k] for r in rs)
        row["ratio"] = row["protograf_seconds"] / row["cardgen_seconds"]
        row["cpu_ratio"] = row["protograf_cpu_s"] / row["cardgen_cpu_s"]
        out["decks"][name] = row
        print(f"protograf {name}: {row['protograf_seconds']:.1f} s ({row['protograf_cpu_s']:.1f} s CPU, "
              f"{row['protograf_max_rss_mb']:.0f} MB), cardgen sheets {row['cardgen_seconds']:.2f} s "
              f"({row['cardgen_cpu_s']:.2f} s CPU, {row['cardgen_max_rss_mb']:.0f} MB): ×{row['ratio']:.1f} wall, "
              f"×{row['cpu_ratio']:.1f} CPU (other load {row['protograf_other_load_cores']:.2f} / "
              f"{row['cardgen_other_load_cores']:.2f} cores; {repeat} run{'s' * (repeat > 1)})", flush=True)
    return out


def _png_scaling(games: dict, tmp: Path, repeat: int, size: int) -> dict:
    """``cardgen png`` on the generated ``size``-card deck with 1 and 2 worker processes.

    Runs alternate (1, 2, 1, 2, …) so both see the same background load; medians are reported,
    with the parent's and the workers' CPU seconds and the CPU other processes used meanwhile.
    """
    import importlib
    if "png" not in getattr(importlib.import_module("cardgen.api"), "EXPORT_STEPS", ()):
        return {"skipped": "no png step"}
    from gen import make_game

    game = games.get(f"generated-{size}") or make_game(tmp / f"g{size}", size)
    runs: dict[int, list] = {1: [], 2: []}
    floor: list = []
    for _ in range(repeat):
        for jobs in (1, 2):
            env = {**os.environ, "CARDGEN_JOBS": str(jobs)}
            runs[jobs].append(_run_child("png", game, tmp / f"png{jobs}", env))
        floor.append(_run_child("pillow", game, tmp / "pillow"))
    out: dict = {"game": f"generated-{size}", "cards": size}
    pf = {k: statistics.median(r[k] for r in floor) for k in ("seconds", "cpu_seconds", "bytes", "other_load_cores")}
    out["pillow_floor"] = {**pf, "ms_per_card": 1000 * pf["seconds"] / size,
                           "cpu_ms_per_card": 1000 * pf["cpu_seconds"] / size, "bytes_per_card": pf["bytes"] / size}
    for jobs in (1, 2):
        m = _medians(runs[jobs])
        out[f"jobs{jobs}"] = {k: m[k] for k in ("seconds", "max_rss_mb", "parent_cpu_s", "workers_cpu_s",
                                                 "other_load_cores", "phases_s", "runs", "png_bytes")}
    out["jobs1"]["ms_per_card"] = 1000 * out["jobs1"]["seconds"] / size
    out["jobs1"]["cpu_ms_per_card"] = 1000 * out["jobs1"]["parent_cpu_s"] / size
    out["per_card_vs_pillow_floor"] = out["jobs1"]["ms_per_card"] / out["pillow_floor"]["ms_per_card"]
    out["cpu_per_card_vs_pillow_floor"] = out["jobs1"]["cpu_ms_per_card"] / out["pillow_floor"]["cpu_ms_per_card"]
    print(f"PNG per card, one process: cardgen {out['jobs1']['ms_per_card']:.1f} ms ({out['jobs1']['cpu_ms_per_card']:.1f} "
          f"ms CPU), Pillow floor {out['pillow_floor']['ms_per_card']:.1f} ms ({out['pillow_floor']['cpu_ms_per_card']:.1f} "
          f"ms CPU, {out['pillow_floor']['bytes_per_card'] / 1024:.0f} KiB/card)", flush=True)
    out["speedup"] = out["jobs1"]["seconds"] / out["jobs2"]["seconds"]
    # what 2 free cores would give: the parent's CPU is serial, the workers' CPU splits over 2
    j2 = out["jobs2"]
    # (CPU against CPU: one process's own CPU time is what it takes on a free core; its wall time
    # under other load is not)
    out["speedup_if_cores_free_estimate"] = out["jobs1"]["parent_cpu_s"] / (j2["parent_cpu_s"] + j2["workers_cpu_s"] / 2)
    print(f"PNG export generated-{size}: 1 process {out['jobs1']['seconds']:.2f} s, 2 processes "
          f"{out['jobs2']['seconds']:.2f} s, ×{out['speedup']:.2f} (other load "
          f"{out['jobs1']['other_load_cores']:.2f} / {out['jobs2']['other_load_cores']:.2f} cores; "
          f"×{out['speedup_if_cores_free_estimate']:.2f} estimated from CPU times if both cores were free)")
    return out


if __name__ == "__main__":
    sys.exit(main())
