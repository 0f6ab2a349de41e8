"""simulate's tables on a narrow terminal: a label wraps instead of being cut (a tester saw two
rows both read 「1番目の席（親） …」 at 80 columns), and no figure is split over lines."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

# numba's compile of the simulator happens once a run, in the background (tests/conftest.compiled_simulator)
pytestmark = pytest.mark.usefixtures("compiled_simulator")


def test_labels_wrap_whole_on_a_narrow_terminal(tmp_path):
    # a real process: rich takes the width from COLUMNS when the output is not a terminal
    env = {**os.environ, "COLUMNS": "50"}
    run = subprocess.run([sys.executable, "-m", "cardgen", "simulate", str(ROOT / "card_data" / "nko_mahjong"),
                          "-n", "500", "--no-pdf", "--out", str(tmp_path)], capture_output=True, text=True,
                         env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "…" not in run.stdout
    rows: list[list[str]] = []  # (label, figure) per table row, a wrapped label's lines joined
    for line in run.stdout.splitlines():
        cells = line.split("│")
        if len(cells) != 4:
            continue
        label, figure = cells[1].strip(), cells[2].strip()
        if figure:
            rows.append([label, figure])
        elif rows:
            rows[-1][0] += label
    sim = json.loads((tmp_path / "nko_mahjong" / "simulation.json").read_text(encoding="utf-8"))["simulation"]
    labels = [e["label"] for c in sim["player_counts"]  # each player count's rounds, then its whole games
              for e in [*c["estimates"].values(), *c["game"]["estimates"].values()]]
    assert labels and [r[0] for r in rows] == labels
    assert all(re.fullmatch(r"-?\d[\d,.]*%? ± \d[\d.,]*", r[1]) for r in rows)  # every figure whole on its line


def test_the_comparison_fits_80_columns_and_names_the_options_once(tmp_path):
    """`--compare-option` at 80 columns (a tester saw Japanese labels wrapped onto 3–4 lines): one
    table per player count, each side's figure without its standard error (that is in the side's
    own table), so no label takes more than two lines; the second side's header says its options
    once (it read "(twos_down=1, options: twos_down=1)")."""
    env = {**os.environ, "COLUMNS": "80"}
    run = subprocess.run([sys.executable, "-m", "cardgen", "simulate", str(ROOT / "card_data" / "tenjanpai"),
                          "-n", "300", "--no-pdf", "--out", str(tmp_path), "--compare-option", "twos_down=1"],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert any(line.startswith("options: ") for line in run.stdout.splitlines())  # B: its options, once
    assert "twos_down=1, options" not in run.stdout
    comparison = run.stdout[run.stdout.index("B − A: "):]
    lines: list[int] = []  # lines per comparison row
    for line in comparison.splitlines():
        cells = line.split("│")
        if len(cells) != 6:
            continue
        assert len(line) <= 80
        if cells[2].strip():
            lines.append(1)
        elif lines:
            lines[-1] += 1
    data = json.loads((tmp_path / "tenjanpai" / "simulation.json").read_text(encoding="utf-8"))
    assert len(lines) == len(data["comparison"])
    assert max(lines) <= 2, lines
