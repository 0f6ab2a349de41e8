"""A build interrupted at 20 random moments (Ctrl-C = SIGINT, and SIGKILL) leaves the game's output
folder either the previous set, complete, or the new one, complete — never a mix — and never
hangs; Ctrl-C ends with exit 130 and no traceback (issue 18). cardgen/core/atomic.py swaps the
staged folder in with one rename; cardgen/core/budget.py stops the build's child process and
its PNG workers together."""
from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from attack_game import attack_game
from tests.conftest import cli_env

ROOT = Path(__file__).resolve().parents[2]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _start(game: Path, out: Path, cwd: Path) -> subprocess.Popen:
    env = cli_env(PYTHONPATH=str(ROOT))  # the run's font caches on: parsed once, not in each of the 22 builds
    return subprocess.Popen([sys.executable, "-m", "cardgen", "build", str(game), "--out", str(out), "--jobs", "2"],
                            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_interrupted_builds_leave_the_previous_or_the_new_output(tmp_path):
    game = attack_game(tmp_path, rules_md="# 遊び方\n\n山札は{{ deck_size }}枚。\n")
    out = tmp_path / "out"
    start = time.monotonic()
    proc = _start(game, out, tmp_path)
    _o, err = proc.communicate(timeout=300)
    took = time.monotonic() - start
    assert proc.returncode == 0, err
    new = _files(out / "g")
    assert {"print-sheets.pdf", "rulebook.pdf", "report.json", "shop/cards.pdf"} <= set(new)
    assert sum(name.startswith("cards/") for name in new) == 6

    # the previous set: every name the build writes, with other bytes, plus a file it never writes
    previous = {name: b"previous " + name.encode() for name in new} | {"notes.txt": b"kept"}
    expected_new = {**previous, **new}
    rng = random.Random(18)
    outcomes = []
    for i in range(20):
        shutil.rmtree(out)
        for name, data in previous.items():
            (out / "g" / name).parent.mkdir(parents=True, exist_ok=True)
            (out / "g" / name).write_bytes(data)
        sig = signal.SIGINT if i % 2 == 0 else signal.SIGKILL
        proc = _start(game, out, tmp_path)
        time.sleep(rng.uniform(0.2, took))
        proc.send_signal(sig)
        try:
            _o, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # pragma: no cover - the failure this test is for
            proc.kill()
            raise AssertionError(f"run {i}: the build did not stop within 60 s of {sig.name}")
        time.sleep(0.2)  # a killed build's child and workers die with it (PR_SET_PDEATHSIG)
        got = _files(out / "g")
        assert got in (previous, expected_new), f"run {i} ({sig.name}): a mix of old and new files"
        outcomes.append((sig.name, proc.returncode, got == expected_new))
        if sig == signal.SIGINT:
            # -SIGINT: the signal came while the interpreter itself was starting (a loaded machine)
            assert proc.returncode in (0, 130, -signal.SIGINT), (i, proc.returncode, err)
            assert "Traceback" not in err, err
            if proc.returncode == 130:
                assert err.rstrip().endswith("cardgen: interrupted; each output folder holds all its new files or all its previous ones, never a mix")
        else:
            assert proc.returncode in (0, -signal.SIGKILL)
    # the runs were not all before the build started or after it ended
    assert any(code in (130, -signal.SIGKILL) for _s, code, _n in outcomes)

    # whatever was left behind, the next build cleans it up and completes
    proc = _start(game, out, tmp_path)
    _o, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert _files(out / "g") == expected_new
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
