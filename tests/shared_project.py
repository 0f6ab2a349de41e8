"""A project whose game names the project's shared card templates and rulebook design
(``shared/NAME``), for the edit-loop tests of ``watch`` and ``serve``."""
from __future__ import annotations

from pathlib import Path

from benchmarks.gen import make_game

ROOT = Path(__file__).resolve().parents[1]


def shared_project(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """A project folder (templates/, fonts/) with the generated 4-card game in its card_data/,
    naming the project's shared templates (``shared/NAME``) and a shared rulebook design; the
    project is the trusted root (``CARDGEN_PROJECT``). Returns (project, game)."""
    proj = tmp_path / "proj"
    game = make_game(proj / "card_data" / "g", 4)
    for sub in ("templates", "fonts"):
        (game / sub).rename(proj / sub)
    (proj / "templates" / "rulebook").mkdir()
    (proj / "templates" / "rulebook" / "book.yaml").write_text(
        (ROOT / "templates" / "rulebook" / "default.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8").replace("template: character", "template: shared/character")
    manifest.write_text(text.replace("back: character_back", "back: shared/character_back")
                        + "rulebook: {template: shared/book}\n", encoding="utf-8")
    (game / "rules").mkdir()
    (game / "rules" / "01.md").write_text("# 準備\n\n各自カードを1枚引く。\n", encoding="utf-8")
    monkeypatch.setenv("CARDGEN_PROJECT", str(proj))
    return proj, game

