"""cardgen watch: which steps a change triggers (pure), and one short real rebuild."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from benchmarks.gen import make_game
from cardgen.cli.watch import steps_for, watch, watch_paths
from tests.shared_project import shared_project
from tests.pdfread import open_pdf

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "card_data" / "tenjanpai"


@pytest.mark.parametrize("path, expected", [
    (GAME / "game.yaml", {"validate", "sheets", "rulebook"}),
    (GAME / "battle.csv", {"validate", "sheets", "rulebook"}),
    (ROOT / "templates" / "cards" / "battle.yaml", {"validate", "sheets", "rulebook"}),  # card figures in the rules
    (GAME / "rules" / "01-setup.md", {"validate", "rulebook"}),
    (ROOT / "templates" / "rulebook" / "a5.yaml", {"validate", "rulebook"}),
    (ROOT / "fonts" / "fonts.yaml", {"validate", "sheets", "rulebook"}),
    (ROOT / "fonts" / "MyFont.otf", {"validate", "sheets", "rulebook"}),
    (GAME / "art" / "c1.png", {"validate", "sheets", "rulebook"}),
    (GAME / ".battle.csv.swp", set()),
    (GAME / "battle.csv~", set()),
    (GAME / "notes.txt", set()),
    (ROOT / "output" / "tenjanpai" / "print-sheets.pdf", set()),
])
def test_steps_for_one_path(path, expected):
    assert steps_for([path], GAME, ROOT, ROOT / "output") == expected


def test_steps_for_union_and_empty():
    assert steps_for([], GAME, ROOT) == set()
    got = steps_for([GAME / "art" / "c1.png", GAME / "rules" / "x.md"], GAME, ROOT)
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
    kinds = [k for k, _ in events if k not in ("summary", "current")]
    assert kinds[:2] == ["report", "built"]
    assert "changed" in kinds[2:] and kinds[-1] == "built"
    changed = next(p for k, p in events if k == "changed")
    assert any(Path(x).name == "characters.csv" for x in changed)
    pdf = tmp_path / "out" / "bench4" / "print-sheets.pdf"
    assert pdf.is_file()
    with open_pdf(pdf) as doc:
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


def _run_watch(game, out, edit_text, n_builds=2, **kw):
    """Run a real watch on ``game`` until ``n_builds`` builds happened; ``edit_text()`` (a path and
    its new text) is saved repeatedly after the first build until the next one. Returns the events."""
    stop = threading.Event()
    events: list[tuple[str, object]] = []
    done, first = threading.Event(), threading.Event()

    def on_event(kind, payload):
        events.append((kind, payload))
        if kind == "summary":
            first.set()
            if sum(k == "summary" for k, _ in events) >= n_builds:
                done.set()
                stop.set()

    def edit():
        first.wait(timeout=60)
        path, text = edit_text()
        while not done.wait(timeout=0.3) and not stop.is_set():
            path.write_text(text, encoding="utf-8")

    threading.Thread(target=edit, daemon=True).start()
    t = threading.Thread(target=watch, args=(game, out, on_event, stop), kwargs={"debounce_ms": 50, **kw}, daemon=True)
    t.start()
    ok = done.wait(timeout=60)
    stop.set()
    t.join(timeout=10)
    assert ok, f"no rebuild after the save; events: {[k for k, _ in events]}"
    return events


def test_watch_keeps_the_sheet_options_it_was_started_with(tmp_path):
    """Letter paper and Western marks stay on every rebuild (they used to fall back to A4 and トンボ)."""

    from cardgen.steps.sheets import SheetOptions

    game = make_game(tmp_path / "g", 4)
    csv = game / "characters.csv"
    opts = {"options": SheetOptions(paper="letter", marks="western")}
    events = _run_watch(game, tmp_path / "out", lambda: (csv, csv.read_text(encoding="utf-8").replace("の天雀", "の雀士")),
                        build_options=opts)
    assert [k for k, _ in events].count("built") == 2
    with open_pdf(tmp_path / "out" / "bench4" / "print-sheets.pdf") as doc:
        page = doc.pages[0]
        assert "の雀士" in page.extract_text()  # the rebuilt file
        assert sorted((round(float(page.width)), round(float(page.height)))) == [612, 792]  # Letter, in pt
        assert "トンボ" not in page.extract_text()


def test_watch_force_builds_a_game_that_fails_validation(tmp_path):
    """--force: a deck-math error no longer stops the rebuilds; outputs come out marked DRAFT."""

    game = make_game(tmp_path / "g", 4)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("count: 4", "count: 5"), encoding="utf-8")
    csv = game / "characters.csv"
    events = _run_watch(game, tmp_path / "out", lambda: (csv, csv.read_text(encoding="utf-8").replace("の天雀", "の雀士")),
                        force=True)
    reports = [p for k, p in events if k == "report"]
    assert reports and all(r.errors for r in reports)  # the declared count of 5 does not match 4 rows
    assert [k for k, _ in events].count("built") == 2
    summaries = [p for k, p in events if k == "summary"]
    assert all("marked DRAFT (--force)" in s for s in summaries), summaries
    with open_pdf(tmp_path / "out" / "bench4" / "print-sheets.pdf") as doc:
        text = doc.pages[0].extract_text()
    assert "の雀士" in text and "DRAFT" in text


def test_watch_without_force_reports_and_skips_the_build(tmp_path):
    from cardgen.cli.watch import watch as run

    game = make_game(tmp_path / "g", 4)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("count: 4", "count: 5"), encoding="utf-8")
    events, stop = [], threading.Event()
    stop.set()  # the initial run only
    run(game, tmp_path / "out", lambda k, p: events.append((k, p)), stop=stop)
    kinds = [k for k, _ in events]
    assert kinds == ["report", "summary"]
    assert events[1][1].startswith("not rebuilt: validation failed (--force prints anyway")
    assert not (tmp_path / "out" / "bench4").exists()


def test_template_edit_redraws_the_rulebook_card_figures(tmp_path):
    """A card template edit rebuilds the rulebook too: its card figures are drawn from the same plans."""
    import pypdfium2 as pdfium

    game = make_game(tmp_path / "g", 4)
    (game / "rules").mkdir()
    (game / "rules" / "01.md").write_text("# カード\n\n{{ card_image('characters', 'g00001', 40) }}\n", encoding="utf-8")
    template = game / "templates" / "cards" / "character.yaml"
    old = template.read_text(encoding="utf-8")
    out = tmp_path / "out" / "bench4" / "rulebook.pdf"

    def colours():  # every page: where the figure lands depends on the page design
        doc = pdfium.PdfDocument(out)
        found = set()
        for page in doc:
            img = page.render(scale=1).to_pil().convert("RGB")
            found |= {img.getpixel((x, y)) for x in range(0, img.width, 2) for y in range(0, img.height, 2)}
        doc.close()
        return found

    stamps = []

    def edit():
        stamps.append((out.stat().st_mtime_ns, colours()))
        return template, old.replace('background: "#fbf7ee"', 'background: "#00ff00"', 1)

    events = _run_watch(game, tmp_path / "out", edit)
    built = [p for k, p in events if k == "built"]
    assert len(built) == 2 and any(f.name == "rulebook.pdf" for f in built[-1].files)
    assert (0, 255, 0) not in stamps[0][1]
    assert (0, 255, 0) in colours(), (template.read_text(encoding="utf-8")[:200], [k for k, _ in events])


def test_summary_line():
    from types import SimpleNamespace as NS

    from cardgen.cli.watch import summary
    from cardgen.core.errors import Problem

    warn = Problem("a.csv", 2, "", "w", severity="warning")
    report = NS(errors=[], warnings=[warn, warn])
    res = NS(files=[Path("a"), Path("b"), Path("c")], removed=["old.png"], layout=[])
    assert summary(("sheets", "rulebook"), report, res, 1.234) == \
        "rebuilt sheets, rulebook (3 files, 1 removed) · 0 errors, 2 warnings · 1.2 s"
    bad = NS(errors=[Problem("game.yaml", 3, "", "e")], warnings=[])
    assert summary(("sheets",), bad, None, 0.25).startswith("not rebuilt: validation failed")
    assert summary(("sheets",), bad, None, 0.25).endswith("· 1 error, 0 warnings · 0.2 s")
    assert "marked DRAFT (--force)" in summary(("sheets",), bad, NS(files=[Path("a")], removed=[], layout=[]), 2, True)


def test_cli_watch_passes_its_options_to_every_rebuild(monkeypatch):
    """The CLI hands --paper, --marks, --force, --dpi … to the watch loop once, for every rebuild."""
    from click.testing import CliRunner

    import cardgen.cli.watch as watch_mod
    from cardgen.cli.commands import cli

    seen = {}
    monkeypatch.setattr(watch_mod, "watch", lambda *a, **kw: seen.update(kw))
    res = CliRunner().invoke(cli, ["watch", str(GAME), "--paper", "letter", "--marks", "western", "--force",
                                   "--dpi", "150", "--rulebook-paper", "a4"])
    assert res.exit_code == 0, res.output
    assert seen["force"] is True
    opts = seen["build_options"]
    assert (opts["options"].paper, opts["options"].marks) == ("letter", "western")
    assert opts["exports"].dpi == 150 and opts["rulebook_paper"] == "a4"


def test_watch_refuses_an_output_folder_inside_the_game_before_it_starts(tmp_path, monkeypatch):
    """`cardgen watch base --out .` from inside the game: one usage error, exit 2, and no watch
    (it printed the error once and kept running silently)."""
    from click.testing import CliRunner

    import cardgen.cli.watch as watch_mod
    from cardgen.cli.commands import cli

    game = tmp_path / "g"
    make_game(game, 2)
    started = []
    monkeypatch.setattr(watch_mod, "watch", lambda *a, **k: started.append(1))
    monkeypatch.chdir(game)
    result = CliRunner().invoke(cli, ["watch", ".", "--out", "."])
    assert result.exit_code == 2 and not started
    assert result.stderr.startswith("--out: error: the output folder . would be, or hold, the game folder .\n"), \
        result.stderr


def test_a_shared_card_template_edit_rebuilds_the_print_sheets(tmp_path, monkeypatch):
    import pypdfium2 as pdfium

    proj, game = shared_project(tmp_path, monkeypatch)
    template = proj / "templates" / "cards" / "character.yaml"
    old = template.read_text(encoding="utf-8")
    sheets = tmp_path / "out" / "bench4" / "print-sheets.pdf"

    def colours():
        doc = pdfium.PdfDocument(sheets)
        img = doc[0].render(scale=1).to_pil().convert("RGB")
        doc.close()
        return {img.getpixel((x, y)) for x in range(0, img.width, 2) for y in range(0, img.height, 2)}

    seen = []

    def edit():
        seen.append(colours())
        return template, old.replace('background: "#fbf7ee"', 'background: "#00ff00"', 1)

    _run_watch(game, tmp_path / "out", edit)
    assert (0, 255, 0) not in seen[0] and (0, 255, 0) in colours()


def test_a_shared_rulebook_design_edit_rebuilds_the_rulebook(tmp_path, monkeypatch):

    proj, game = shared_project(tmp_path, monkeypatch)
    design = proj / "templates" / "rulebook" / "book.yaml"
    old = design.read_text(encoding="utf-8")
    book = tmp_path / "out" / "bench4" / "rulebook.pdf"

    def left_mm():  # the leftmost text of the first page (the body's left margin)
        with open_pdf(book) as pdf:
            return min(w["x0"] for w in pdf.pages[0].extract_words()) / 72 * 25.4

    seen = []

    def edit():
        seen.append(left_mm())
        return design, old.replace("left: 14,", "left: 34,", 1)

    assert "left: 14," in old
    _run_watch(game, tmp_path / "out", edit)
    assert abs(seen[0] - 14) < 1.5 and abs(left_mm() - 34) < 1.5


def test_a_save_that_is_not_built_leaves_its_own_verdict_in_report_json(tmp_path):
    # The output folder keeps the last build's files when a save fails, but its report.json must
    # not keep saying "ok": it is replaced by the failed save's verdict (marked not built), and
    # the next good build writes the build's report again.
    import json

    from cardgen.core.errors import CardgenError, Problem

    game = make_game(tmp_path / "bench4", 4)  # named as its id: a watch started on it unreadable finds its folder
    out, folder = tmp_path / "out", tmp_path / "out" / "bench4"

    def once(**kw) -> list[tuple[str, object]]:
        events, stop = [], threading.Event()
        stop.set()  # the initial check (and build) only
        watch(game, out, lambda k, p: events.append((k, p)), stop=stop, **kw)
        return events

    def verdict() -> dict:
        return json.loads((folder / "report.json").read_text(encoding="utf-8"))

    once()
    good, sheets = verdict(), (folder / "print-sheets.pdf").read_bytes()
    assert good["ok"] and "built" not in good
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("count: 4", "count: 5"), encoding="utf-8")  # the deck no longer adds up
    assert any(k == "summary" and p.startswith("not rebuilt: validation failed") for k, p in once())
    failed = verdict()
    assert not failed["ok"] and failed["built"] is False and "earlier save" in failed["note"]
    assert failed["errors"] >= 1 and any(f["file"] == "game.yaml" and f["severity"] == "error" for f in failed["findings"])
    assert failed["cards"] == good["cards"]  # the same report a build writes, of this save's check
    assert (folder / "print-sheets.pdf").read_bytes() == sheets  # the last good build's sheets stay
    manifest.write_text(text.replace("components:", "components: [", 1), encoding="utf-8")  # the game cannot be read
    once()
    unreadable = verdict()
    assert not unreadable["ok"] and unreadable["built"] is False and unreadable["findings"][0]["code"] != "count-mismatch"
    assert unreadable["findings"][0]["file"].endswith("game.yaml") and "cards" not in unreadable or not unreadable["cards"]
    manifest.write_text(text, encoding="utf-8")

    def stopped(*_a, **_kw):  # the check itself does not finish (a budget stop in the child)
        raise CardgenError(Problem(str(game), None, "", "the build used more than 60 seconds of CPU time and was stopped",
                                   "", code="cpu-limit"))

    once(save=stopped)
    assert not verdict()["ok"] and verdict()["findings"][0]["code"] == "cpu-limit"
    once()
    assert verdict() == good  # built again: the build's own report
    assert not list(folder.glob(".report.json.*"))  # no temporary file left
