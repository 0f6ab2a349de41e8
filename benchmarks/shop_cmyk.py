"""The cost of a CMYK PDF/X-4 shop build of 天雀牌 against today's RGB shop build (issue 29).

Both builds write the same files (one PDF per component, a page per physical card: the RGB step
as it was, and a preset with that layout in CMYK, PDF/X-4, checked by the PDF/X checker), in one
process after a warm-up build of each (imports, font parses and template caches warm), alternating,
``--repeat`` times, and each also in a new process (imports included: what ``cardgen shop`` costs);
medians of the wall clock and the CPU time of ``build_game(steps=("shop",))``, which includes the
check every build makes (CPU time is the steadier figure on a shared machine). Writes
``benchmarks/shop_cmyk.json``.

    .venv/bin/python benchmarks/shop_cmyk.py --repeat 7
"""
from __future__ import annotations

import argparse
import json
import os
import resource
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


def _one(kind: str, out: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one build in this process."""
    opts = ExportOptions(jobs=1, preset=BENCH.id if kind == "cmyk" else None)
    t, c = time.perf_counter(), time.process_time()
    build_game(GAME, out / kind, steps=("shop",), exports=opts)
    return time.perf_counter() - t, time.process_time() - c


def _fresh(kind: str, out: Path) -> tuple[float, float]:
    """(wall, CPU) of one build in a new process, imports included (what `cardgen shop` costs)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--one", kind, str(out)], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - t, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--one", nargs=2, metavar=("KIND", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    shop_presets()[BENCH.id] = BENCH
    if args.one:
        _one(args.one[0], Path(args.one[1]))
        return
    runs: dict[str, dict[str, list]] = {m: {"rgb": [], "cmyk": []} for m in ("warm", "fresh")}
    with tempfile.TemporaryDirectory() as tmp:
        _one("rgb", Path(tmp)), _one("cmyk", Path(tmp))  # warm-up
        for _ in range(args.repeat):
            for kind in ("rgb", "cmyk"):
                runs["warm"][kind].append(_one(kind, Path(tmp)))
                runs["fresh"][kind].append(_fresh(kind, Path(tmp)))
    result: dict = {"game": "tenjanpai", "repeat": args.repeat, "target": 1.5, "load": round(os.getloadavg()[0], 2)}
    for mode, by_kind in runs.items():
        entry = {}
        for i, clock in enumerate(("wall", "cpu")):
            rgb = statistics.median(r[i] for r in by_kind["rgb"])
            cmyk = statistics.median(r[i] for r in by_kind["cmyk"])
            entry[clock] = {"rgb_s": round(rgb, 4), "cmyk_s": round(cmyk, 4), "ratio": round(cmyk / rgb, 3)}
        entry["runs"] = {k: [[round(a, 4), round(b, 4)] for a, b in v] for k, v in by_kind.items()}
        result[mode] = entry
        print(f"{mode}: wall RGB {entry['wall']['rgb_s']:.3f} s, CMYK {entry['wall']['cmyk_s']:.3f} s "
              f"(×{entry['wall']['ratio']:.2f}); CPU {entry['cpu']['rgb_s']:.3f} s, {entry['cpu']['cmyk_s']:.3f} s "
              f"(×{entry['cpu']['ratio']:.2f}); target ≤ ×1.5")
    (ROOT / "benchmarks" / "shop_cmyk.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
