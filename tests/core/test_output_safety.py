"""Output safety: a build killed half way leaves the previous output byte-identical and its
temporary folder is cleaned by the next build; the same input gives the same bytes."""
from __future__ import annotations

import csv
import io
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from cardgen.core.atomic import AtomicOutput, clean_stale_temps

REPO = Path(__file__).resolve().parents[2]
GAME = REPO / "card_data" / "tenjanpai"
BASE = REPO / "tests" / "fixtures" / "bad" / "_base"


def _env(seed: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONHASHSEED=seed)
    env.pop("CARDGEN_DEBUG", None)
    return env


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _big_project(root: Path, factor: int) -> Path:
    """A project copy (templates, fonts, tenjanpai) whose battle deck has ``factor`` × the copies."""
    for name in ("templates", "fonts"):
        shutil.copytree(REPO / name, root / name)
    game = root / "card_data" / "tenjanpai"
    shutil.copytree(GAME, game)
    table = game / "battle.csv"
    rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8"))))
    col = rows[0].index("count")
    for r in rows[1:]:
        r[col] = str(int(r[col]) * factor)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    table.write_text(out.getvalue(), encoding="utf-8")
    return game


def test_killed_build_leaves_previous_output_and_next_build_cleans_up(tmp_path: Path) -> None:
    game = _big_project(tmp_path / "proj", 100)  # 4,200 battle cards: the build runs for seconds
    out = tmp_path / "output"
    previous = out / "tenjanpai"
    (previous / "cards").mkdir(parents=True)
    (previous / "print-sheets.pdf").write_bytes(b"%PDF-1.4 the previous build\n")
    (previous / "cards" / "b2-chi.png").write_bytes(b"\x89PNG previous\n")
    before = _files(previous)

    proc = subprocess.Popen([sys.executable, "-m", "cardgen", "build", str(game), "--out", str(out), "--force"],
                            cwd=tmp_path / "proj", env=_env("0"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        temps: list[Path] = []
        while not temps and proc.poll() is None and time.monotonic() < deadline:
            temps = list(out.glob(".tenjanpai.tmp-*"))
            time.sleep(0.005)
        assert temps, "the build never created its temporary folder"
        time.sleep(0.2)  # let it write into the temporary folder
        assert proc.poll() is None, "the build finished before it could be killed; make the deck bigger"
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    assert _files(previous) == before  # byte-identical, nothing added
    stale = list(out.glob(".tenjanpai.tmp-*"))
    assert stale, "a killed build leaves its temporary folder behind"

    # the next build into the same output root removes it (its process is gone) …
    shutil.copytree(BASE, tmp_path / "small")
    result = CliRunner().invoke(cli, ["sheets", str(tmp_path / "small"), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert not list(out.glob(".tenjanpai.tmp-*"))
    assert (out / "g" / "print-sheets.pdf").is_file()
    assert _files(previous) == before


def test_temp_folder_of_a_running_build_is_kept(tmp_path: Path) -> None:
    """Two builds into one output root: cleaning must not delete the other's work in progress."""
    with AtomicOutput(tmp_path / "a") as running:
        running.path("x.pdf").write_bytes(b"in progress")
        dead = tmp_path / ".b.tmp-999999999-abc"  # no such process
        dead.mkdir()
        removed = clean_stale_temps(tmp_path)
        assert removed == [dead]
        assert running.tmp.is_dir()
    assert (tmp_path / "a" / "x.pdf").read_bytes() == b"in progress"
    assert not running.tmp.exists()


def test_failed_step_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.pdf").write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with AtomicOutput(tmp_path / "a") as out:
            out.path("x.pdf").write_bytes(b"new")
            raise RuntimeError("step failed")
    assert (tmp_path / "a" / "x.pdf").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"]


def test_same_input_same_bytes(tmp_path: Path) -> None:
    """Two builds of 天雀牌 — different hash seeds, working folders and output paths — give
    byte-identical files, every file in the output folder (PDFs, PNGs, JSON, …).

    The card PNGs are written at 72 dpi, not the default 300: what could differ between the two
    builds (hash order, paths, clocks) does not depend on the resolution, and at 300 dpi the 97
    faces cost ≈ 4 s of PNG encoding a build (the TTS images have their own size at any dpi)."""
    outs = [tmp_path / "one", tmp_path / "two" / "deeper"]
    procs = []
    for seed, out, cwd in (("1", outs[0], REPO), ("2", outs[1], tmp_path)):
        procs.append(subprocess.Popen([sys.executable, "-m", "cardgen", "build", str(GAME), "--out", str(out), "--dpi", "72"],
                                      cwd=cwd, env=_env(seed), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    for p in procs:
        _out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
    a, b = (_files(o / "tenjanpai") for o in outs)
    assert a and sorted(a) == sorted(b)
    # the TTS saved object names its images by absolute file:// path (TTS loads local images so):
    # the same but for where each build wrote them
    save = "tts/tenjanpai.json"
    assert a[save].replace(outs[0].as_uri().encode(), b"OUT") == b[save].replace(outs[1].as_uri().encode(), b"OUT")
    assert outs[0].as_uri().encode() in a[save]
    differing = [name for name in a if a[name] != b[name] and name != save]
    assert not differing
    # reportlab's invariant mode: a fixed date, and no clock or random value anywhere
    pdfs = [name for name in a if name.endswith(".pdf")]
    assert "print-sheets.pdf" in pdfs
    for name in pdfs:
        info = pypdf.PdfReader(io.BytesIO(a[name])).metadata or {}
        for key in ("/CreationDate", "/ModDate"):
            if key in info:
                assert info[key].startswith("D:20000101000000"), (name, key, info[key])
