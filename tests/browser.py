"""Debian's headless chromium through its own chromedriver (selenium never downloads a driver), and
a ``cardgen serve`` process for it to look at. Used by tests/test_preview_browser.py and
benchmarks/preview.py (which also takes the README's screenshot)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


def available() -> bool:
    """True when the system chromium and chromedriver are installed (``make browser``)."""
    return os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)


@contextmanager
def chromium(width: int = 1400, height: int = 1000) -> Iterator:
    """A headless chromium WebDriver with a fresh profile folder, quit at the end."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="cardgen-chromium-") as profile:
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for flag in FLAGS + [f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
            opts.add_argument(flag)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
        try:
            yield driver
        finally:
            driver.quit()


@contextmanager
def serving(game: Path, extra: tuple[str, ...] = ()) -> Iterator[tuple[str, float, int]]:
    """``cardgen serve GAME --port 0`` in its own process; yields ``(url, seconds from start to
    the ready line, process id)`` and stops it with Ctrl-C (SIGINT) at the end."""
    import time

    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cardgen", "serve", str(game), "--port", "0", *extra], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = proc.stdout.readline()
        if " at http://" not in line:
            raise RuntimeError(f"cardgen serve did not start: {line}{proc.stderr.read()}")
        yield line.rsplit(" at ", 1)[1].split()[0], time.perf_counter() - start, proc.pid
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
