"""Issue 27's `--help` target as a ratio (not a timed test): `cardgen --help` against
`python -c "import click"`, whole processes started in turn (A B A B …), CPU seconds.

    .venv/bin/python benchmarks/help_floor.py                 # 15 pairs
    .venv/bin/python benchmarks/help_floor.py --tree /tmp/old # also another checkout, in turn

CPU is the process's user + system time (os.wait4); the ratio is taken pair by pair (median,
min–max), so a run and its yardstick see the same background load. Prints only;
benchmarks/README.md keeps the figures.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from validate_floor import ROOT, _run, report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--tree", type=Path, action="append", default=[], help="another checkout to time in turn")
    a = ap.parse_args(argv)
    trees = {"this": ROOT, **{str(t): t.resolve() for t in a.tree}}
    command = [sys.executable, "-P", "-m", "cardgen", "--help"]
    floor = [sys.executable, "-P", "-c", "import click"]
    load0 = os.getloadavg()[0]
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in [*trees, "floor"]}
    for _ in range(a.pairs):
        for name, tree in trees.items():
            runs[name].append(_run(command, {**os.environ, "PYTHONPATH": str(tree)}))
        runs["floor"].append(_run(floor, {**os.environ, "PYTHONPATH": str(ROOT)}))
    print(f"{a.pairs} pairs; load average {load0:.1f} → {os.getloadavg()[0]:.1f}")
    report(runs, list(trees))
    return 0


if __name__ == "__main__":
    sys.exit(main())
