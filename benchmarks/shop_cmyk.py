"""The cost of a CMYK PDF/X-4 shop build of 天雀牌 against today's RGB shop build (issue 29).

Both builds write the same files (one PDF per component, a page per physical card: the RGB step
as it was, and a preset with that layout in CMYK, PDF/X-4, checked by the PDF/X checker), in one
process after a warm-up build of each (imports, font parses and template caches warm), alternating,
``--repeat`` times; medians of the wall clock of ``build_game(steps=("shop",))``, which includes
the check every build makes. Writes ``benchmarks/shop_cmyk.json``.

    .venv/bin/python benchmarks/shop_cmyk.py --repeat 7
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cardgen.api import build_game
from cardgen.data.shop_presets import ShopPreset, shop_presets
from cardgen.steps.export_options import ExportOptions

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "card_data" / "tenjanpai"
#: today's layout (a PDF per component, a page per physical card, front first) in CMYK PDF/X-4
BENCH = ShopPreset(id="bench-x4-deck", name="bench", guide="benchmarks/shop_cmyk.py", colour="cmyk",
                   standard="PDF/X-4", files="deck", tac=300)


def _one(kind: str, out: Path) -> float:
    opts = ExportOptions(jobs=1, preset=BENCH.id if kind == "cmyk" else None)
    t = time.perf_counter()
    build_game(GAME, out / kind, steps=("shop",), exports=opts)
    return time.perf_counter() - t


def _fresh(kind: str, out: Path) -> float:
    """One build in a new process, imports included (what `cardgen shop` costs a designer)."""
    t = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--one", kind, str(out)], check=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--one", nargs=2, metavar=("KIND", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    shop_presets()[BENCH.id] = BENCH
    if args.one:
        _one(args.one[0], Path(args.one[1]))
        return
    times: dict[str, list[float]] = {"rgb": [], "cmyk": []}
    with tempfile.TemporaryDirectory() as tmp:
        def once(kind: str) -> float:
            opts = ExportOptions(jobs=1, preset=BENCH.id if kind == "cmyk" else None)
            t = time.perf_counter()
            build_game(GAME, Path(tmp) / kind, steps=("shop",), exports=opts)
            return time.perf_counter() - t

        once("rgb"), once("cmyk")  # warm-up
        fresh: dict[str, list[float]] = {"rgb": [], "cmyk": []}
        for _ in range(args.repeat):
            for kind in ("rgb", "cmyk"):
                times[kind].append(once(kind))
                fresh[kind].append(_fresh(kind, Path(tmp)))
    rgb, cmyk = statistics.median(times["rgb"]), statistics.median(times["cmyk"])
    f_rgb, f_cmyk = statistics.median(fresh["rgb"]), statistics.median(fresh["cmyk"])
    result = {"game": "tenjanpai", "repeat": args.repeat, "rgb_s": round(rgb, 4), "cmyk_s": round(cmyk, 4),
              "ratio": round(cmyk / rgb, 3), "target": 1.5,
              "fresh_process": {"rgb_s": round(f_rgb, 4), "cmyk_s": round(f_cmyk, 4), "ratio": round(f_cmyk / f_rgb, 3)},
              "load": os.getloadavg()[0],
              "runs": {k: [round(v, 4) for v in vs] for k, vs in times.items()},
              "fresh_runs": {k: [round(v, 4) for v in vs] for k, vs in fresh.items()}}
    (ROOT / "benchmarks" / "shop_cmyk.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"in one warm process: RGB shop build {rgb:.3f} s, CMYK PDF/X-4 {cmyk:.3f} s: ×{cmyk / rgb:.2f}; "
          f"a new process each: {f_rgb:.3f} s, {f_cmyk:.3f} s: ×{f_cmyk / f_rgb:.2f} (target ≤ ×1.5)")


if __name__ == "__main__":
    main()
