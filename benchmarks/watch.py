"""`cardgen watch` on 天雀牌: a saved CSV cell → print-sheets.pdf rewritten (issue 27's target: at
most ×1.2 of a cold `cardgen sheets` minus the interpreter's start-up; not a timed test).

    .venv/bin/python benchmarks/watch.py              # 9 saves, median
    .venv/bin/python benchmarks/watch.py --saves 15

A copy of the game with the project's templates and fonts goes to a temporary folder; `cardgen
watch COPY --out OUT -q` runs there (its own cache folder). After its first build, each save
rewrites characters.csv with card c1-1 renamed and the clock runs from just before the write to
the moment print-sheets.pdf is replaced (its inode changes: the output folder is swapped in with
the new sheets, before the rulebook is drawn); a second clock runs to the watch's summary line
(the rulebook rewritten too). After each save, once the watch is idle, the yardstick is timed in
turn with it: a cold `cardgen sheets` of the same copy as a whole process (its own output folder;
the font caches filled, as the watch has them) and `python -c pass`; the ratio save → sheets /
(cold sheets − start-up) is taken save by save. Prints each, and the medians.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDGEN = Path(sys.executable).parent / "cardgen"


def _wall(cmd: list[str], cwd: Path, env: dict) -> float:
    """Wall seconds of one whole process."""
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--saves", type=int, default=9)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for d in ("templates", "fonts"):
            shutil.copytree(ROOT / d, tmp / d)
        game = tmp / "card_data" / "tenjanpai"
        shutil.copytree(ROOT / "card_data" / "tenjanpai", game)
        out = tmp / "out"
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp / "cache")}
        env.pop("CARDGEN_NO_CACHE", None)
        proc = subprocess.Popen([str(CARDGEN), "--project", str(tmp), "watch", str(game), "--out", str(out), "-q"],
                                cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        summaries: list[float] = []
        cond = threading.Condition()

        def read() -> None:
            for line in proc.stdout:
                if line.startswith(("rebuilt", "not rebuilt", "checked")):
                    with cond:
                        summaries.append(time.perf_counter())
                        cond.notify_all()

        threading.Thread(target=read, daemon=True).start()
        pdf = out / "tenjanpai" / "print-sheets.pdf"

        def wait_summary(n: int, timeout: float = 120) -> None:
            with cond:
                if not cond.wait_for(lambda: len(summaries) >= n, timeout):
                    raise SystemExit("the watch printed no summary line in time")

        wait_summary(1)
        table = game / "characters.csv"
        lines = table.read_text(encoding="utf-8").split("\n")
        assert lines[1].startswith("c1-1,1,1,李紅蓮,")
        name = lines[1].split(",")[3]
        got, whole, cold, start, ratio = [], [], [], [], []
        try:
            for k in range(a.saves):
                time.sleep(1.0)  # the watch is idle again
                inode = pdf.stat().st_ino
                lines[1] = lines[1].replace(lines[1].split(",")[3], f"{name}{k}", 1)
                t0 = time.perf_counter()
                table.write_text("\n".join(lines), encoding="utf-8")
                while pdf.stat().st_ino == inode:
                    if time.perf_counter() - t0 > 120:
                        raise SystemExit("print-sheets.pdf was not rewritten")
                    time.sleep(0.002)
                got.append(time.perf_counter() - t0)
                wait_summary(k + 2)
                whole.append(summaries[k + 1] - t0)
                # the yardstick, in turn with the saves: a cold `cardgen sheets` of the same copy (the
                # font caches filled, as the watch has them) and the interpreter's start-up
                cold.append(_wall([str(CARDGEN), "--project", str(tmp), "sheets", str(game), "--out",
                                   str(tmp / "cold"), "-q"], tmp, env))
                start.append(_wall([sys.executable, "-c", "pass"], tmp, env))
                ratio.append(got[-1] / (cold[-1] - start[-1]))
                print(f"save {k + 1}: print-sheets.pdf {got[-1]:.3f} s, summary (rulebook too) {whole[-1]:.3f} s; "
                      f"cold sheets {cold[-1]:.3f} s, python -c pass {start[-1]:.3f} s: ×{ratio[-1]:.2f}", flush=True)
        finally:
            proc.terminate()
            proc.wait(30)
    print(f"cold `cardgen sheets` {statistics.median(cold):.3f} s, `python -c pass` {statistics.median(start):.3f} s; "
          f"save → sheets / (cold sheets − start-up), pair by pair: median ×{statistics.median(ratio):.2f} "
          f"(×{min(ratio):.2f}–×{max(ratio):.2f}); load average {os.getloadavg()[0]:.1f}")
    print(f"median save → print-sheets.pdf rewritten: {statistics.median(got):.3f} s "
          f"(min {min(got):.3f}, max {max(got):.3f}, {len(got)} saves); → the summary line (the rulebook "
          f"rewritten too): {statistics.median(whole):.3f} s (min {min(whole):.3f}, max {max(whole):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
