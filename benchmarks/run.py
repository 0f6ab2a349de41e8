"""Benchmarks: cardgen's print sheets against the raw reportlab floor, at growing deck sizes.

    python benchmarks/run.py                 # 天雀牌 + generated 1,000 and 4,000-card decks
    python benchmarks/run.py --sizes 1000 --repeat 3 --quick

Every measured build runs in its own Python process (imports and start-up are not timed; the
clock covers the build from the game folder to the written PDF). Peak memory is that process's
maximum RSS, read with ``os.wait4`` (the child's own rusage). Each case runs ``--repeat`` times
and the median is reported. Results go to benchmarks/results.json and a table on stdout.

Also measured: ``cardgen --help`` and ``cardgen validate`` wall time including start-up, and
per-card PNG export on 1 vs 2 processes (when the ``png`` step exists).
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
    """Run one build in this process and print {"seconds", "cards", "bytes"} as JSON."""
    if kind == "cardgen":
        import cardgen.render.pdf_sheets  # noqa: F401  (imports are not timed)
        from cardgen.api import SHEETS_PDF, build_game
        from cardgen.pipeline import SheetOptions
        t = time.perf_counter()
        res = build_game(game, out, SheetOptions(), force=True, steps=("sheets",))
        dt = time.perf_counter() - t
        pdf = res.out_dir / SHEETS_PDF
        from cardgen.schema import load_game
        from cardgen.expand import expand, printable_components
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
        from cardgen.api import build_game
        from cardgen.exports import ExportOptions
        from cardgen.pipeline import SheetOptions
        t = time.perf_counter()
        build_game(game, out, SheetOptions(), force=True, steps=("png",),
                   exports=ExportOptions(jobs=int(os.environ.get("CARDGEN_JOBS", "1"))))
        dt = time.perf_counter() - t
        pdf, cards = None, 0
    else:
        raise SystemExit(f"unknown child kind {kind}")
    print(json.dumps({"seconds": dt, "cards": cards, "bytes": pdf.stat().st_size if pdf else 0}))


# ----------------------------------------------------------------- parent side

def _run_child(kind: str, game: Path, out: Path, env: dict | None = None) -> dict:
    p = subprocess.Popen([sys.executable, __file__, "--child", kind, str(game), str(out)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    stdout, stderr = p.stdout.read(), p.stderr.read()  # type: ignore[union-attr]
    _pid, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{kind} {game} failed:\n{stderr.decode()}")
    res = json.loads(stdout.decode().strip().splitlines()[-1])
    res["max_rss_mb"] = usage.ru_maxrss / 1024  # Linux: KiB
    return res


def _median_runs(kind: str, game: Path, out: Path, repeat: int, env: dict | None = None) -> dict:
    runs = [_run_child(kind, game, out, env) for _ in range(repeat)]
    return {"cards": runs[0]["cards"], "bytes": runs[0]["bytes"],
            "seconds": statistics.median(r["seconds"] for r in runs),
            "max_rss_mb": statistics.median(r["max_rss_mb"] for r in runs),
            "runs": len(runs)}


def _wall(cmd: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 4000], help="generated deck sizes")
    ap.add_argument("--repeat", type=int, default=3, help="runs per case (median reported)")
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    ap.add_argument("--no-png", action="store_true", help="skip the PNG export scaling check")
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
        games = {"tenjanpai": ROOT / "card_data" / "tenjanpai"}
        for n in a.sizes:
            games[f"generated-{n}"] = make_game(Path(tmp) / f"g{n}", n)
        for name, game in games.items():
            row = {}
            for kind in ("cardgen", "floor"):
                r = _median_runs(kind, game, Path(tmp) / "out" / kind, a.repeat)
                row[kind] = {"cards": r["cards"], "ms_per_card": 1000 * r["seconds"] / r["cards"],
                             "seconds": r["seconds"], "max_rss_mb": r["max_rss_mb"],
                             "bytes_per_card": r["bytes"] / r["cards"], "pdf_bytes": r["bytes"], "runs": r["runs"]}
            row["time_ratio"] = row["cardgen"]["ms_per_card"] / row["floor"]["ms_per_card"]
            row["bytes_ratio"] = row["cardgen"]["bytes_per_card"] / row["floor"]["bytes_per_card"]
            results["decks"][name] = row
            print(f"{name:16} cards {row['cardgen']['cards']:5}  "
                  f"cardgen {row['cardgen']['ms_per_card']:6.2f} ms/card  floor {row['floor']['ms_per_card']:6.2f}  "
                  f"×{row['time_ratio']:.2f}  |  RSS {row['cardgen']['max_rss_mb']:6.1f} MB (floor "
                  f"{row['floor']['max_rss_mb']:.1f})  |  {row['cardgen']['bytes_per_card']:7.0f} B/card "
                  f"(floor {row['floor']['bytes_per_card']:.0f}, ×{row['bytes_ratio']:.2f})", flush=True)
        if len(a.sizes) >= 2:
            lo, hi = f"generated-{min(a.sizes)}", f"generated-{max(a.sizes)}"
            results["memory_ratio"] = {"between": [lo, hi], "ratio": results["decks"][hi]["cardgen"]["max_rss_mb"]
                                       / results["decks"][lo]["cardgen"]["max_rss_mb"]}
            print(f"peak memory {hi} / {lo}: ×{results['memory_ratio']['ratio']:.2f}")
        py = [sys.executable, "-m", "cardgen"]
        results["startup"] = {
            "help_s": _wall(py + ["--help"], 5),
            "validate_s": {g.name: _wall(py + ["validate", str(g)], 5)
                           for g in sorted((ROOT / "card_data").iterdir()) if (g / "game.yaml").is_file()},
        }
        print(f"cardgen --help {results['startup']['help_s']:.3f} s; validate "
              + ", ".join(f"{k} {v:.3f} s" for k, v in results["startup"]["validate_s"].items()))
        if not a.no_png:
            results["png"] = _png_scaling(games, Path(tmp), a.repeat)
    a.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {a.out}")
    return 0


def _png_scaling(games: dict, tmp: Path, repeat: int) -> dict:
    """Per-card PNG export with 1 and 2 worker processes (CARDGEN_JOBS), if cardgen has a png step."""
    import importlib
    if "png" not in getattr(importlib.import_module("cardgen.api"), "EXPORT_STEPS", ()):
        return {"skipped": "no png step"}
    game = games["tenjanpai"]
    out = {}
    for jobs in (1, 2):
        env = {**os.environ, "CARDGEN_JOBS": str(jobs)}
        try:
            out[f"jobs{jobs}_s"] = _median_runs("png", game, tmp / f"png{jobs}", repeat, env)["seconds"]
        except SystemExit as exc:
            return {"skipped": str(exc)[:300]}
    out["speedup"] = out["jobs1_s"] / out["jobs2_s"]
    out["game"] = game.name
    print(f"PNG export {game.name}: 1 process {out['jobs1_s']:.2f} s, 2 processes {out['jobs2_s']:.2f} s, ×{out['speedup']:.2f}")
    return out


if __name__ == "__main__":
    sys.exit(main())
