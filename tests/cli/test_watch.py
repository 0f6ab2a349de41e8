"""cardgen watch: which steps a change triggers (pure), and one short real rebuild."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from benchmarks.gen import make_game
from cardgen.cli.watch import steps_for, watch, watch_paths

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "card_data" / "tenjanpai"


@pytest.mark.parametrize("path, expected", [
    (GAME / "game.yaml", {"validate", "sheets", "rulebook"}),
    (GAME / "battle.csv", {"validate", "sheets", "rulebook"}),
    (ROOT / "templates" / "cards" / "battle.yaml", {"validate", "sheets"}),
    (GAME / "rules" / "01-setup.md", {"validate", "rulebook"}),
    (ROOT / "templates" / "rulebook" / "a5.yaml", {"validate", "rulebook"}),
    (ROOT / "fonts" / "fonts.yaml", {"validate", "sheets", "rulebook"}),
    (ROOT / "fonts" / "MyFont.otf", {"validate", "sheets", "rulebook"}),
    (GAME / "art" / "c1.png", {"validate", "sheets"}),
    (GAME / ".battle.csv.swp", set()),
    (GAME / "battle.csv~", set()),
    (GAME / "notes.txt", set()),
    (ROOT / "output" / "tenjanpai" / "print-sheets.pdf", set()),
])
def test_steps_for_one_path(path, expected):
    assert steps_for([path], GAME, ROOT, ROOT / "output") == expected


def test_steps_for_union_and_empty():
    assert steps_for([], GAME, ROOT) == set()
    got = steps_for([ROOT / "templates" / "cards" / "battle.yaml", GAME / "rules" / "x.md"], GAME, ROOT)
    assert got == {"validate", "sheets", "rulebook"}


def test_watch_paths_include_templates_and_fonts():
    paths = watch_paths(GAME, ROOT)
    assert paths[0] == GAME.resolve()
    assert (ROOT / "templates").resolve() in paths and (ROOT / "fonts").resolve() in paths


def test_watch_rebuilds_after_a_save(tmp_path):
    """Initial build, then editing the card table rebuilds the sheets (stopped by an event)."""
    game = make_game(tmp_path / "g", 4)
    stop = threading.Event()
    events: list[tuple[str, object]] = []
    built, first = threading.Event(), threading.Event()

    def on_event(kind, payload):
        events.append((kind, payload))
        if kind == "built" and sum(k == "built" for k, _ in events) >= 2:
            built.set()
            stop.set()
        elif kind == "built":
            first.set()

    def edit():  # the watcher gives no "ready" signal: save until it reacts (or the test times out)
        first.wait(timeout=30)
        csv = game / "characters.csv"
        text = csv.read_text(encoding="utf-8").replace("の天雀", "の雀士")
        while not built.wait(timeout=0.3) and not stop.is_set():
            csv.write_text(text, encoding="utf-8")

    threading.Thread(target=edit, daemon=True).start()

    t = threading.Thread(target=watch, args=(game, tmp_path / "out", on_event, stop), kwargs={"debounce_ms": 50},
                         daemon=True)
    t.start()
    ok = built.wait(timeout=30)
    stop.set()
    t.join(timeout=10)
    assert ok, f"no rebuild after the save; events: {[k for k, _ in events]}"
    kinds = [k for k, _ in events]
    assert kinds[:2] == ["report", "built"]
    assert "changed" in kinds[2:] and kinds[-1] == "built"
    changed = next(p for k, p in events if k == "changed")
    assert any(Path(x).name == "characters.csv" for x in changed)
    pdf = tmp_path / "out" / "bench4" / "print-sheets.pdf"
    assert pdf.is_file()
    import pdfplumber
    with pdfplumber.open(pdf) as doc:
        assert "の雀士" in doc.pages[0].extract_text()


def test_stale_exports_follow_what_the_output_folder_holds(tmp_path):
    from cardgen.cli.watch import stale_exports

    assert stale_exports({"validate", "sheets"}, tmp_path) == ()
    (tmp_path / "cards").mkdir()
    (tmp_path / "shop").mkdir()
    assert stale_exports({"validate", "sheets"}, tmp_path) == ("png", "shop")
    assert stale_exports({"validate", "rulebook"}, tmp_path) == ()  # rules text does not change the cards


def test_sed_temporary_files_are_ignored(tmp_path):
    from cardgen.cli.watch import steps_for

    game = tmp_path / "g"
    game.mkdir()
    assert steps_for([game / "sedLZCl5s"], game, tmp_path) == set()  # written and renamed away by `sed -i`
    (game / "notes").write_text("x", encoding="utf-8")
    assert steps_for([game / "battle.csv"], game, tmp_path) == {"validate", "sheets", "rulebook"}
