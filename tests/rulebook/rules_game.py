"""A copy of 天雀牌 whose rules are one Markdown text: the rulebook tests' game (JLREQ, Markdown cases)."""
from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def rules_game(tmp_path: Path, md: str, files: dict | None = None, settle: bool = False) -> Path:
    """``tmp_path/g``: 天雀牌 with ``rules/01.md`` = ``md`` as its only rules file, no table of contents,
    the project's templates and fonts linked beside it. ``files``: name → a function writing that file
    into rules/. ``settle``: mark every open question decided, so no appendix is added."""
    game = tmp_path / "g"
    shutil.copytree(ROOT / "card_data" / "tenjanpai", game)
    for d in ("templates", "fonts"):
        (tmp_path / d).symlink_to(ROOT / d)
    for f in (game / "rules").glob("*.md"):
        f.unlink()
    (game / "rules" / "01.md").write_text(md, encoding="utf-8")
    for name, make in (files or {}).items():
        make(game / "rules" / name)
    y = game / "game.yaml"
    text = y.read_text(encoding="utf-8").replace("  paper: a5\n", "  paper: a5\n  toc: false\n")
    if settle:
        text = text.replace("\n      why:", "\n      decided: true\n      why:")
    y.write_text(text, encoding="utf-8")
    return game
