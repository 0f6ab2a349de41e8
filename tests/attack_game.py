"""A small game folder with one hostile value put in one place, for the security tests
(tests/core/test_resource_budget.py, tests/core/test_file_boundary.py, tests/data/test_any_value.py).

The game is tests/fixtures/bad/_base (6 cards, one template, fonts by family name); each
keyword of :func:`attack_game` replaces or adds one thing. :func:`run_cli` runs cardgen in its
own process, as a user would, and returns (exit code, stdout + stderr, seconds).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

from tests.conftest import cli_env

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "tests" / "fixtures" / "bad" / "_base"


def attack_game(tmp: Path, *, rule: str | None = None, explain: str | None = None, text: str | None = None,
                if_: str | None = None, derive: str | None = None, values: str | None = None,
                rules_md: str | None = None, fonts_yaml: str | None = None, rows: str | None = None,
                manifest: dict | None = None, template: dict | None = None, name: str = "game") -> Path:
    """A copy of the base game under ``tmp/name`` with the given hostile parts; returns its folder."""
    game = tmp / name
    shutil.copytree(BASE, game)
    m = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
    if rule is not None:
        r = {"id": "attack", "description": "x", "deck": "cards", "check": rule}
        if explain is not None:
            r["explain"] = explain
        m["design_rules"] = [r]
    if derive is not None:
        m["setup"]["derive"] = {"turns": derive}
    if values is not None:
        m["rulebook"] = {"values": {"attack": values}}
        rules_md = rules_md or "値: {{ attack }}\n"
    for key, value in (manifest or {}).items():
        m[key] = value
    (game / "game.yaml").write_text(yaml.safe_dump(m, allow_unicode=True, sort_keys=False), encoding="utf-8")
    t = yaml.safe_load((game / "templates" / "cards" / "card.yaml").read_text(encoding="utf-8"))
    if text is not None:
        t["elements"][2]["text"] = text
    if if_ is not None:
        t["elements"][2]["if"] = if_
    for key, value in (template or {}).items():
        t[key] = value
    (game / "templates" / "cards" / "card.yaml").write_text(yaml.safe_dump(t, allow_unicode=True), encoding="utf-8")
    if rules_md is not None:
        (game / "rules").mkdir(exist_ok=True)
        (game / "rules" / "01.md").write_text(rules_md, encoding="utf-8")
    if fonts_yaml is not None:
        (game / "fonts" / "fonts.yaml").write_text(fonts_yaml, encoding="utf-8")
    if rows is not None:
        with (game / "cards.csv").open("a", encoding="utf-8") as f:
            f.write(rows)
    return game


def run_cli(*args: str, cwd: Path, timeout: float = 60) -> tuple[int, str, float]:
    """``python -m cardgen ARGS`` in ``cwd``; (exit code, stdout + stderr, wall seconds)."""
    env = cli_env()  # the run's font caches on (a real process of its own, as a designer runs it)
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "cardgen", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)
    return proc.returncode, proc.stdout + proc.stderr, time.monotonic() - start
