"""One save of ``cardgen watch``: the game is checked once and built from that check; the print
sheets are in the output folder before the rulebook is drawn (and the watch says which outputs are
current); and what a save leaves warm for the next (:mod:`cardgen.steps.warm_state`) never changes
a verdict: after an edit to any input the check reads, the watch's next report is the one a cold
``cardgen validate`` gives.

The last test runs a dozen checks of a 4-card game, each in a forked child as the watch runs them,
and a cold check beside each (≈ 15 s on a loaded 2-core machine)."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from benchmarks.gen import make_game
from cardgen.cli.watch import watch
from cardgen.steps import game_check
from tests.conftest import needs_fonts
from tests.pdfread import open_pdf

GOTHIC = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
LATIN = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
RULES = "# 遊び方\n\n山札から1枚引く。\n\n## 勝利\n\n先に3勝した人が勝つ。\n"


def _game(tmp_path: Path) -> Path:
    game = make_game(tmp_path / "g", 4)
    (game / "rules").mkdir()
    (game / "rules" / "01.md").write_text(RULES, encoding="utf-8")
    return game


def _once(game: Path, out: Path, **kw) -> list[tuple[str, object, dict]]:
    """The watch's first build only; each event with what the output folder held at that moment
    (file → (inode, bytes))."""
    events: list[tuple[str, object, dict]] = []
    folder = out / "bench4"

    def on_event(kind, payload):
        held = {p.name: (p.stat().st_ino, p.read_bytes()) for p in folder.glob("*.pdf")} if folder.is_dir() else {}
        events.append((kind, payload, held))

    stop = threading.Event()
    stop.set()  # the initial build, then the watch ends
    watch(game, out, on_event, stop=stop, **kw)
    return events


def test_a_save_checks_the_game_once_and_builds_from_that_check(tmp_path, monkeypatch):
    game = _game(tmp_path)
    loads, checks = [], []
    real_load, real_check = game_check.load_and_validate, game_check.check_game
    monkeypatch.setattr(game_check, "load_and_validate", lambda *a, **k: (loads.append(a), real_load(*a, **k))[1])
    import cardgen.api as api
    monkeypatch.setattr(api, "check_game", lambda *a, **k: (checks.append(a), real_check(*a, **k))[1])
    events = _once(game, tmp_path / "out")
    kinds = [k for k, _p, _h in events]
    assert kinds == ["report", "current", "built", "summary"], kinds
    assert len(checks) == 1 and len(loads) == 1  # the build drew from the save's one check
    assert events[-1][1].startswith("rebuilt sheets, rulebook (3 files)"), events[-1][1]


def test_sheets_are_in_the_folder_before_the_rulebook_is_drawn(tmp_path):

    game = _game(tmp_path)
    out = tmp_path / "out"
    first = _once(game, out)
    current = next(h for k, _p, h in first if k == "current")
    assert set(current) == {"print-sheets.pdf"}  # the first build: no rulebook yet while the sheets are there
    assert "current: print-sheets.pdf" in next(p for k, p, _h in first if k == "current")
    assert "still from an earlier save: rulebook.pdf" in next(p for k, p, _h in first if k == "current")
    old_book = first[-1][2]["rulebook.pdf"]

    csv = game / "characters.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("の天雀", "の雀士"), encoding="utf-8")
    second = _once(game, out)
    held = next(h for k, _p, h in second if k == "current")
    assert held["rulebook.pdf"] == old_book  # the rulebook of the last save, untouched while the sheets land
    sheets = out / "bench4" / "sheets-at-current.pdf"
    sheets.write_bytes(held["print-sheets.pdf"][1])
    with open_pdf(sheets) as doc:
        assert "の雀士" in doc.pages[0].extract_text()  # the new sheets, whole
    assert second[-1][2]["rulebook.pdf"][0] != old_book[0]  # then the rulebook, swapped in on its own


def test_the_cli_watch_checks_once_in_its_budgeted_child_and_says_what_is_current(tmp_path, monkeypatch):
    """Through the command: the save runs in the budgeted child (a forked process: the calls are
    counted in a file), its report and the 'current' line come back before the summary."""
    from click.testing import CliRunner

    import cardgen.cli.watch as watch_mod
    from cardgen.cli.commands import cli

    game = _game(tmp_path)
    calls = tmp_path / "calls"
    real_check = game_check.load_and_validate

    def counted(*a, **k):
        with calls.open("a") as fh:
            fh.write(f"{os.getpid()}\n")
        return real_check(*a, **k)

    monkeypatch.setattr(game_check, "load_and_validate", counted)
    real_watch, stop = watch_mod.watch, threading.Event()
    stop.set()
    monkeypatch.setattr(watch_mod, "watch", lambda *a, **kw: real_watch(*a, stop=stop, **kw))
    res = CliRunner().invoke(cli, ["watch", str(game), "--out", str(tmp_path / "out"), "-q"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    at = {key: next(i for i, line in enumerate(lines) if line.startswith(key))
          for key in ("bench4: 0 error(s)", "current: print-sheets.pdf", "rebuilt sheets, rulebook")}
    assert at["bench4: 0 error(s)"] < at["current: print-sheets.pdf"] < at["rebuilt sheets, rulebook"], lines
    pids = calls.read_text().split()
    assert len(pids) == 1 and pids[0] != str(os.getpid())  # once, and not in the watch itself


def _verdict(report) -> list[str]:
    return sorted(p.format() for p in report.errors + report.warnings)


def _cold(game: Path):
    """A check with nothing warm: what a one-off ``cardgen validate`` answers."""
    from cardgen.api import validate_game
    from cardgen.data import template
    from cardgen.rulebook import block_memo

    template._LOADED.clear()
    block_memo._BOOKS.clear()
    return validate_game(game)


@needs_fonts
def test_an_edit_to_any_input_the_check_reads_gives_the_new_verdict(tmp_path, monkeypatch):
    """Saves run as the watch runs them — each in a new budgeted child, what it kept warm taken
    in by the watch for the next — against a cold check after every edit."""
    if not LATIN.is_file():
        pytest.skip("needs DejaVuSans (fonts-dejavu-core)")
    from cardgen.api import check_then_build
    from cardgen.core.budget import run_limited
    from cardgen.steps.warm_state import keeping, take_in

    # The on-disk caches on, in a folder of this test, as a designer's watch and validate have them:
    # nothing here patches cardgen, so each entry is a real parse of a real file, keyed by its stamp
    # (the font replaced in place below gets a new one). Without them each of the 22 checks parsed
    # the game's own font files again (≈ 4.5 s of the test's ≈ 8 s CPU).
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDGEN_NO_CACHE", raising=False)
    game = _game(tmp_path)
    body, latin = game / "fonts" / "body.ttf", game / "fonts" / "latin.ttf"
    shutil.copyfile(GOTHIC, body)
    shutil.copyfile(LATIN, latin)
    fonts_yaml = game / "fonts" / "fonts.yaml"
    fonts_yaml.write_text(fonts_yaml.read_text(encoding="utf-8").replace("\nbody: IPAexGothic", f"\nbody: {body}"),
                          encoding="utf-8")
    out = tmp_path / "out"

    def save():
        (report, _result, _todo), warm = run_limited(keeping, check_then_build, game, out, lambda gid: ())
        take_in(warm)
        return report

    def edit(path: Path, old: str, new: str) -> None:
        text = path.read_text(encoding="utf-8")
        assert old in text, (path, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def replace_font(src: Path) -> None:  # another font under the same name, its time set back
        st = os.stat(body)
        shutil.copyfile(src, body)
        os.utime(body, ns=(st.st_atime_ns, st.st_mtime_ns))

    template = game / "templates" / "cards" / "character.yaml"
    clean = _verdict(save())
    assert _verdict(save()) == clean  # warm, same files: same verdict
    steps = [  # (what is edited, the edit, a word of the new verdict)
        ("rules text", lambda: edit(game / "rules" / "01.md", "先に3勝", ":nosuchicon: 先に3勝"), "nosuchicon"),
        ("rules text back", lambda: edit(game / "rules" / "01.md", ":nosuchicon: 先に3勝", "先に3勝"), None),
        ("card template", lambda: edit(template, "font: body", "font: nosuchrole"), "nosuchrole"),
        ("card template back", lambda: edit(template, "font: nosuchrole", "font: body"), None),
        ("card table", lambda: edit(game / "characters.csv", "の天雀", "の天雀" * 40), "fit"),
        ("manifest", lambda: edit(game / "game.yaml", "count: 4", "count: 5"), "5"),
        ("font file replaced in place", lambda: replace_font(LATIN), "body"),
        ("font file back", lambda: replace_font(GOTHIC), None),
        ("fonts.yaml", lambda: edit(fonts_yaml, f"\nbody: {body}", f"\nbody: {latin}"), None),
        ("fonts.yaml, a font that is not there", lambda: edit(fonts_yaml, f"\nbody: {latin}", "\nbody: gone.ttf"),
         "gone.ttf"),
    ]
    for what, change, word in steps:
        change()
        warm, cold = _verdict(save()), _verdict(run_limited(_cold, game))
        assert warm == cold, what
        if word is not None:  # the edit reached the verdict
            assert warm != clean and any(word in line for line in warm), (what, [w[:300] for w in warm])


def test_a_rulebook_that_fails_after_the_sheets_landed_is_named_as_not_current(tmp_path, monkeypatch):
    """The sheets stay (whole, new); the watch says the rulebook in the folder is an earlier one."""
    from dataclasses import replace

    from cardgen.core.errors import CardgenError, Problem
    from cardgen.steps import registry

    def fails(_run):
        raise CardgenError(Problem("rules/01.md", 1, "", "the rulebook broke"))

    monkeypatch.setitem(registry.STEPS, "rulebook", replace(registry.STEPS["rulebook"], write=fails))
    game = _game(tmp_path)
    events = _once(game, tmp_path / "out")
    kinds = [k for k, _p, _h in events]
    assert kinds == ["report", "current", "error", "summary"], kinds
    assert events[-1][1] == ("partly rebuilt: current: print-sheets.pdf · still from an earlier save: rulebook.pdf "
                             "(its rebuild failed, above)")
    folder = tmp_path / "out" / "bench4"
    assert sorted(p.name for p in folder.iterdir()) == [".cardgen-written.json", "print-sheets.pdf", "report.json"]
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".")]  # no staging folder left
