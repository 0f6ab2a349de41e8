"""`cardgen diff`: small game pairs built from `cardgen new` in tmp_path, one edit each, the
whole JSON report asserted; `--rev` in a git repository the test builds; diff.pdf read back."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from cardgen.data.new_game import new_game
from tests.conftest import ROOT, git, needs_fonts, replace_in
from tests.pdfread import open_pdf

pytestmark = needs_fonts


def _math(players: int, deck: int, dead_wall: int, turns: int) -> dict:
    draw = deck - players * 3 - dead_wall
    return {"deck": deck, "removed": 0, "hand": 3, "dead_wall": dead_wall, "draw_pile": draw, "turns": turns,
            "declared_turns": turns, "ok": True,
            "arithmetic": f"{deck} cards; {deck} − {players} × 3 (hands)"
                          + (f" − {dead_wall} (dead wall)" if dead_wall else "") + f" = {draw} to draw; "
                          f"{draw} ÷ {players} players = {turns} turns each"}


def unchanged(old: str, new: str) -> dict:
    """The report of two identical `cardgen new` games (written out, not computed by cardgen)."""
    return {
        "old": {"path": old, "game": "g", "title": "g", "version": "draft 1"},
        "new": {"path": new, "game": "g", "title": "g", "version": "draft 1"},
        "summary": {"added": 0, "removed": 0, "renamed": 0, "changed": 0, "faces_changed": 0, "appearance_only": 0},
        "game": {},
        "components": [{
            "id": "cards", "name": "カード", "status": "same", "settings": {},
            "columns": {"added": [], "removed": []},
            "added": [], "removed": [], "renamed": [], "changed": [],
            "counts": {"added": 0, "removed": 0, "renamed": 0, "changed": 0, "unchanged": 6,
                       "pieces": {"old": 24, "new": 24}, "faces_changed": 0},
            "templates": {},
            "faces": {"changed": [], "appearance_only": [], "data_only": []},
        }],
        "deck_math": [
            {"players": 3, "old": _math(3, 24, 3, 4), "new": _math(3, 24, 3, 4), "changed": []},
            {"players": 4, "old": _math(4, 24, 0, 3), "new": _math(4, 24, 0, 3), "changed": []},
        ],
        "validation": {"appeared": [], "disappeared": [], "errors": {"old": 0, "new": 0},
                       "warnings": {"old": 0, "new": 0}},
        "design": {"added": {}, "removed": {}, "changed": {}},
        "choices": {"added": [], "removed": [], "changed": []},
        "rules": {"changes": [], "problems": {"old": [], "new": []}},
    }


@pytest.fixture
def pair(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """Two identical copies of a `cardgen new` game: old/g and new/g (the cwd is tmp_path)."""
    monkeypatch.chdir(tmp_path)
    new_game(tmp_path / "old" / "g")
    shutil.copytree(tmp_path / "old", tmp_path / "new")
    return tmp_path / "old" / "g", tmp_path / "new" / "g"


def run_json(*args: str) -> dict:
    res = CliRunner().invoke(cli, ["diff", *args, "--format", "json", "--no-pdf"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_identical_drafts(pair):
    assert run_json("old/g", "new/g") == unchanged("old/g", "new/g")


def test_edited_cell(pair):
    replace_in(pair[1] / "cards.csv", "n2,2,4", "n2,5,4")
    want = unchanged("old/g", "new/g")
    want["summary"].update(changed=1, faces_changed=1)
    comp = want["components"][0]
    comp["status"] = "changed"
    comp["changed"] = [{"id": "n2", "fields": {"number": {"old": 2, "new": 5}}}]
    comp["counts"].update(changed=1, unchanged=5, faces_changed=1)
    comp["faces"]["changed"] = [{"id": "n2", "sides": ["front"], "boxes": {"front": ["corner", "number"]}, "data": True}]
    assert run_json("old/g", "new/g") == want


def test_added_card(pair):
    replace_in(pair[1] / "cards.csv", "n6,6,4", "n6,6,2\nn7,6,2")
    want = unchanged("old/g", "new/g")
    want["summary"].update(added=1, changed=1)
    comp = want["components"][0]
    comp["status"] = "changed"
    comp["added"] = [{"id": "n7", "values": {"id": "n7", "number": 6, "count": 2}}]
    comp["changed"] = [{"id": "n6", "fields": {"count": {"old": 4, "new": 2}}}]
    comp["counts"].update(added=1, changed=1, unchanged=5)
    comp["faces"]["data_only"] = ["n6"]  # the count is not printed on the card
    assert run_json("old/g", "new/g") == want


def test_removed_card(pair):
    replace_in(pair[1] / "cards.csv", "n6,6,4\n", "")
    replace_in(pair[1] / "cards.csv", "n5,5,4", "n5,5,8")
    want = unchanged("old/g", "new/g")
    want["summary"].update(removed=1, changed=1)
    comp = want["components"][0]
    comp["status"] = "changed"
    comp["removed"] = [{"id": "n6", "values": {"id": "n6", "number": 6, "count": 4}}]
    comp["changed"] = [{"id": "n5", "fields": {"count": {"old": 4, "new": 8}}}]
    comp["counts"].update(removed=1, changed=1, unchanged=4)
    comp["faces"]["data_only"] = ["n5"]
    assert run_json("old/g", "new/g") == want


def test_renamed_id(pair):
    replace_in(pair[1] / "cards.csv", "n3,3,4", "three,3,4")
    want = unchanged("old/g", "new/g")
    want["summary"]["renamed"] = 1
    comp = want["components"][0]
    comp["status"] = "changed"
    comp["renamed"] = [{"old": "n3", "new": "three"}]
    comp["counts"].update(renamed=1, unchanged=5)
    assert run_json("old/g", "new/g") == want


def test_changed_count_shows_deck_math_validation_and_rules_tables(pair):
    replace_in(pair[1] / "cards.csv", "n1,1,4", "n1,1,5")
    want = unchanged("old/g", "new/g")
    want["summary"]["changed"] = 1
    comp = want["components"][0]
    comp["status"] = "changed"
    comp["changed"] = [{"id": "n1", "fields": {"count": {"old": 4, "new": 5}}}]
    comp["counts"].update(changed=1, unchanged=5, pieces={"old": 24, "new": 25})
    comp["faces"]["data_only"] = ["n1"]
    for pc, (players, dead, wall, quotient) in zip(want["deck_math"], ((3, 3, " − 3 (dead wall)", "4 turns each"),
                                                                       (4, 0, "", "3 turns each"))):
        pc["new"] = {"deck": 25, "removed": 0, "hand": 3, "dead_wall": dead, "draw_pile": 13, "turns": None,
                     "declared_turns": pc["old"]["turns"], "ok": False,
                     "arithmetic": f"25 cards; 25 − {players} × 3 (hands){wall} = 13 to draw; "
                                   f"13 ÷ {players} players = {quotient}, 1 card(s) left over"}
        pc["changed"] = ["deck", "draw_pile", "turns", "ok"]
    want["validation"]["appeared"] = [
        {"severity": "error", "code": "count-mismatch", "path": "components → cards → count",
         "message": "declares 24 pieces but the card table has 25"},
        {"severity": "error", "code": "deck-math", "path": "setup → player_counts → 3 players",
         "message": "the draw pile does not split evenly: 25 cards; 25 − 3 × 3 (hands) − 3 (dead wall) = 13 to draw; "
                    "13 ÷ 3 players = 4 turns each, 1 card(s) left over"},
        {"severity": "error", "code": "deck-math", "path": "setup → player_counts → 4 players",
         "message": "the draw pile does not split evenly: 25 cards; 25 − 4 × 3 (hands) = 13 to draw; "
                    "13 ÷ 4 players = 3 turns each, 1 card(s) left over"},
    ]
    want["validation"]["errors"] = {"old": 0, "new": 3}
    want["rules"]["changes"] = [  # the generated tables, as printed
        {"op": "changed", "section": "1. 内容物", "old": "| カード | 24枚 |  |", "new": "| カード | 25枚 |  |"},
        {"op": "changed", "section": "2. 準備", "old": "| 3人 | 0 | 24 | 3 | 3 | 12 | 4 |",
         "new": "| 3人 | 0 | 25 | 3 | 3 | 13 | — |"},
        {"op": "changed", "section": "2. 準備", "old": "| 4人 | 0 | 24 | 3 | 0 | 12 | 3 |",
         "new": "| 4人 | 0 | 25 | 3 | 0 | 13 | — |"},
    ]
    assert run_json("old/g", "new/g") == want


def test_template_colour_changes_every_face_and_no_data(pair):
    replace_in(pair[1] / "templates" / "cards" / "card.yaml", 'stroke: "#23395b"', 'stroke: "#b0302a"')
    want = unchanged("old/g", "new/g")
    want["summary"].update(faces_changed=6, appearance_only=6)
    comp = want["components"][0]
    comp["status"] = "changed"
    comp["counts"]["faces_changed"] = 6
    comp["templates"] = {"front": {"old": "card", "new": "card", "added": [], "removed": [],
                                   "changed": {"frame": {"stroke": {"old": "#23395b", "new": "#b0302a"}}}}}
    ids = [f"n{i}" for i in range(1, 7)]
    comp["faces"]["changed"] = [{"id": i, "sides": ["front"], "boxes": {"front": ["frame"]}, "data": False} for i in ids]
    comp["faces"]["appearance_only"] = ids
    assert run_json("old/g", "new/g") == want


def test_rules_text_change_by_paragraph(pair):
    replace_in(pair[1] / "rules" / "rules.md", "カードをよく混ぜ、各プレイヤーに手札を配ります。", "カードをよく混ぜて山にし、手札を配ります。")
    want = unchanged("old/g", "new/g")
    want["rules"]["changes"] = [{"op": "changed", "section": "2. 準備",
                                 "old": "カードをよく混ぜ、各プレイヤーに手札を配ります。人数ごとの枚数は次のとおりです。",
                                 "new": "カードをよく混ぜて山にし、手札を配ります。人数ごとの枚数は次のとおりです。"}]
    assert run_json("old/g", "new/g") == want


def test_design_constant_and_open_question_with_rendered_rules(pair):
    replace_in(pair[1] / "game.yaml", "highest: 6", "highest: 7")
    replace_in(pair[1] / "game.yaml", 'use: "3枚"', 'use: "4枚"')
    want = unchanged("old/g", "new/g")
    want["design"]["changed"] = {"highest": {"old": 6, "new": 7}}
    want["choices"]["changed"] = [{"what": "hand-size: 手札は何枚か", "old": "3枚", "new": "4枚"}]
    want["rules"]["changes"] = [{"op": "changed", "section": "3. 遊び方",
                                 "old": "ここにルールを書きます。数字は game.yaml の design から読めます（いまの最大の数字は6）。",
                                 "new": "ここにルールを書きます。数字は game.yaml の design から読めます（いまの最大の数字は7）。"}]
    assert run_json("old/g", "new/g") == want


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_rev_reads_the_committed_draft_without_touching_the_folder(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    game = repo / "card_data" / "g"
    new_game(game)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "draft 1")
    replace_in(game / "cards.csv", "n2,2,4", "n2,5,4")
    git(repo, "commit", "-q", "-am", "n2 is a 5")
    replace_in(game / "templates" / "cards" / "card.yaml", 'stroke: "#23395b"', 'stroke: "#b0302a"')  # not committed
    before = {p: p.read_bytes() for p in game.rglob("*") if p.is_file()}
    monkeypatch.chdir(repo)

    data = run_json("card_data/g", "--rev", "HEAD~1")
    assert data["old"]["path"] == "card_data/g@HEAD~1" and data["new"]["path"] == "card_data/g"
    comp = data["components"][0]
    assert comp["changed"] == [{"id": "n2", "fields": {"number": {"old": 2, "new": 5}}}]
    # the working tree's uncommitted template change shows too: every face, one box
    assert [f["id"] for f in comp["faces"]["changed"]] == [f"n{i}" for i in range(1, 7)]
    assert comp["faces"]["changed"][1]["boxes"] == {"front": ["frame", "corner", "number"]}
    assert run_json("card_data/g", "--rev", "HEAD")["components"][0]["changed"] == []
    assert {p: p.read_bytes() for p in game.rglob("*") if p.is_file()} == before
    git(repo, "diff", "--quiet", "HEAD", "--", "card_data/g/cards.csv")  # nothing checked out

    res = CliRunner().invoke(cli, ["diff", "card_data/g", "--rev", "nosuchrev"])
    assert res.exit_code == 1
    assert res.stderr == ("card_data/g: error: --rev → the revision 'nosuchrev' does not exist in repo\n"
                          "    hint: name a commit, tag or branch, e.g. HEAD~1 (see `git log --oneline`)\n")


def test_bundled_drafts_read_as_an_account_of_draft_2_to_3():
    """夜雀鬼 draft 2 → 天雀牌 draft 3: the facts the issue names come out, readably."""
    res = CliRunner().invoke(cli, ["diff", str(ROOT / "card_data" / "yajanki"), str(ROOT / "card_data" / "tenjanpai"),
                                   "--format", "json", "--no-pdf"], catch_exceptions=False)
    data = json.loads(res.stdout)
    battle = data["components"][0]
    assert battle["counts"]["pieces"] == {"old": 46, "new": 42}
    assert battle["columns"] == {"added": ["pon", "chi", "power"], "removed": ["ron", "chip_cost"]}
    assert {r["id"] for r in battle["removed"]} >= {"y1", "y2-ron", "y4-ron-chip"}  # the 1s and the ron cards
    assert [pc["new"]["deck"] for pc in data["deck_math"]] == [36, 42]
    assert [f["code"] for f in data["validation"]["disappeared"]] == ["turns-mismatch", "turns-mismatch"]
    assert data["components"][2]["status"] == "added" and data["components"][2]["id"] == "power_cubes"
    text = CliRunner().invoke(cli, ["diff", str(ROOT / "card_data" / "yajanki"), str(ROOT / "card_data" / "tenjanpai"),
                                    "--no-pdf"], catch_exceptions=False).stdout
    for needle in ("夜雀鬼 draft 2", "天雀牌 draft 3", "46→42", "columns: added pon, chi, power; removed ron, chip_cost",
                   "Deck math per player count", "fixed error", "+ power_bonus_cap = 3", "Rules text"):
        assert needle in text, needle


def test_diff_pdf_shows_old_and_new_faces_at_real_size_with_changed_boxes_outlined(pair, tmp_path):

    replace_in(pair[1] / "cards.csv", "n2,2,4", "n2,5,4")
    replace_in(pair[1] / "cards.csv", "n6,6,4\n", "")
    replace_in(pair[1] / "cards.csv", "n5,5,4", "n5,5,8")
    res = CliRunner().invoke(cli, ["diff", "old/g", "new/g", "--out", "out"], catch_exceptions=False)
    assert res.exit_code == 0 and "wrote out/g/diff.pdf" in res.stdout
    mm = 72 / 25.4
    with open_pdf(tmp_path / "out" / "g" / "diff.pdf") as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert (round(page.width / mm), round(page.height / mm)) == (210, 297)
        text = page.extract_text()
        for needle in ("カード n2", "old · g draft 1", "new · g draft 1", "number: 2 → 5", "changed boxes: corner, number",
                       "removed since draft 1 (1)", "removed · カード n6 (×4)"):
            assert needle in text, needle
        def colour(r):
            c = r.get("stroking_color")
            return tuple(round(v, 2) for v in c) if c else None
        magenta = (round(0xe6 / 255, 2), 0.0, round(0x7e / 255, 2))
        outlines = sorted((round(r["width"] / mm, 1), round(r["height"] / mm, 1)) for r in page.rects
                          if colour(r) == magenta)
        assert outlines == [(16.0, 12.0), (16.0, 12.0), (51.0, 40.0), (51.0, 40.0)]  # corner and number, old and new
        grey = tuple(round(0x9a / 255, 2) for _ in range(3))
        trims = [r for r in page.rects if colour(r) == grey]
        assert len(trims) == 3  # old n2, new n2, removed n6
        for r in trims:
            assert abs(r["width"] / mm - 63) < 0.05 and abs(r["height"] / mm - 88) < 0.05
        old_trim, new_trim = sorted(trims[:2], key=lambda r: r["x0"])
        # the outline sits on the corner box of each face: 6 mm in from the trim's left, 5 mm down from its top
        for trim in (old_trim, new_trim):
            corner = next(r for r in page.rects if colour(r) == magenta and abs(r["width"] / mm - 16) < 0.1
                          and trim["x0"] <= r["x0"] <= trim["x1"])
            assert abs((corner["x0"] - trim["x0"]) / mm - 6) < 0.05 and abs((corner["top"] - trim["top"]) / mm - 5) < 0.05


def test_terminal_shows_where_a_long_paragraph_changed():
    from rich.cells import cell_len

    from cardgen.cli.diff_output import window

    old = "山札は42枚です。" * 10 + "ツモには聴牌速度20が要ります。"
    new = "山札は42枚です。" * 10 + "ツモには聴牌速度25が要ります。"
    a, b = window(old, new, 40)
    assert a.startswith("…") and "20" in a and "25" in b
    assert cell_len(a) <= 40 and cell_len(b) <= 40
    assert window("短い", "短くない", 40) == ("短い", "短くない")  # a change near the start keeps the start


def test_layout_findings_count_as_validation_like_cardgen_validate(pair):
    """A card whose text no longer fits is a finding `cardgen validate` reports: it appears."""
    replace_in(pair[1] / "templates" / "cards" / "card.yaml", "font: number, size: 24,", "font: number, size: 60,")
    data = run_json("old/g", "new/g")
    appeared = data["validation"]["appeared"]
    assert {f["code"] for f in appeared} == {"text-overflow"}
    assert [f["path"] for f in appeared] == [f"cards n{i} → corner" for i in range(1, 7)] and data["validation"]["errors"] == {"old": 0, "new": 6}
    assert data["components"][0]["faces"]["appearance_only"] == [f"n{i}" for i in range(1, 7)]


def _ruby_in_notes(page, notes_x0: float) -> list[tuple[dict, dict]]:
    """(base run, reading run) pairs of the notes column right of ``notes_x0`` (pt): a run is the
    chars of one line of one size, as a dict with text, x0, x1, top, bottom."""
    lines: dict[tuple, list] = {}
    for c in page.chars:
        if c["x0"] > notes_x0:
            lines.setdefault((round(c["top"], 1), round(c["size"], 1)), []).append(c)
    def run(cs):
        return {"text": "".join(c["text"] for c in cs), "x0": cs[0]["x0"], "x1": cs[-1]["x1"],
                "top": min(c["top"] for c in cs), "bottom": max(c["bottom"] for c in cs), "chars": cs}
    out = []
    for (top, size), cs in lines.items():
        if size == 6.0:  # ruby_size(7 pt notes): the 6 pt floor
            reading = run(cs)
            below = [c for (t, s), line in lines.items() if s == 7.0 and 0 < t - top < 12 for c in line]
            base = [c for c in below if c["text"].strip() and reading["x0"] < (c["x0"] + c["x1"]) / 2 < reading["x1"]]
            out.append((run(base), reading))
    return out


def test_diff_pdf_draws_ruby_in_the_notes_as_the_cards_do(tmp_path, monkeypatch):
    """A changed card text holding ruby (｜聴牌《テンパイ》) ended diff in an internal error (the
    notes drew a ruby run's (base, reading) tuple as text); the note now sets the base in its line
    and the reading, at the ruby size, centred above it, without the notation's marks."""

    monkeypatch.chdir(tmp_path)
    base = ROOT / "tests" / "fixtures" / "bad" / "_base"
    shutil.copytree(base, tmp_path / "dA")
    shutil.copytree(base, tmp_path / "dB")
    replace_in(tmp_path / "dB" / "cards.csv", "チーを1個得る。", "｜聴牌《テンパイ》を得る。")
    res = CliRunner().invoke(cli, ["diff", "dA", "dB", "--out", "out"])
    assert res.exit_code == 0, res.output
    with open_pdf(tmp_path / "out" / "g" / "diff.pdf") as pdf:
        page = pdf.pages[0]
        text = page.extract_text()
        assert "《" not in text and "｜" not in text
        new_trim = max((r for r in page.rects if abs(r["width"] * 25.4 / 72 - 63) < 0.1), key=lambda r: r["x0"])
        pairs = _ruby_in_notes(page, new_trim["x1"])
        assert [(b["text"], r["text"]) for b, r in pairs] == [("聴牌", "テンパイ")]
        b, r = pairs[0]
        assert abs((b["x0"] + b["x1"]) / 2 - (r["x0"] + r["x1"]) / 2) < 0.2  # centred over its base
        assert r["bottom"] <= b["top"] + 0.5 and r["top"] < b["top"]  # above it, not overlapping
        line = "".join(c["text"] for c in sorted((c for c in page.chars if c["x0"] > new_trim["x1"]
                                                    and abs(c["top"] - b["chars"][0]["top"]) < 1), key=lambda c: c["x0"]))
        assert line.endswith("→ 聴牌を得る。")  # the base in the line, the text after it measured from its end
        after = next(c for c in page.chars if c["text"] == "を" and c["x0"] > b["x1"] and abs(c["top"] - b["top"]) < 1)
        assert after["x0"] >= b["x1"] - 0.1


def test_readme_example_writes_diff_pdf(tmp_path):
    """README's own example, `cardgen diff card_data/yajanki card_data/tenjanpai`, with its PDF: it
    ended in an internal error (exit 3) at 翠嵐's note, whose new text holds 聴牌《テンパイ》."""

    res = CliRunner().invoke(cli, ["diff", str(ROOT / "card_data" / "yajanki"), str(ROOT / "card_data" / "tenjanpai"),
                                   "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    with open_pdf(tmp_path / "tenjanpai" / "diff.pdf") as pdf:
        assert len(pdf.pages) == 20
        texts = [p.extract_text() for p in pdf.pages]
        assert not any("《" in t for t in texts)
        page = next(p for p, t in zip(pdf.pages, texts) if "skill_name: 黒霧 → 翠嵐" in t)
        pairs = _ruby_in_notes(page, 150 * 72 / 25.4)
        assert [(b["text"], r["text"]) for b, r in pairs] == [("聴牌", "テンパイ")]


def _with_own_icon(game: Path) -> None:
    """The `cardgen new` game with its own icon (icons/coin.svg) drawn on every face."""
    (game / "icons").mkdir()
    shutil.copy(ROOT / "tests" / "fixtures" / "icons" / "coin.svg", game / "icons" / "coin.svg")
    with (game / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("\nicons:\n  coin: {file: icons/coin.svg}\n")
    with (game / "templates" / "cards" / "card.yaml").open("a", encoding="utf-8") as f:
        f.write("  - {kind: icon, name: coin, box: [45, 5, 12, 12], icon: coin}\n")


def test_copies_with_their_own_icons_in_other_folders_have_no_changed_face(tmp_path, monkeypatch):
    """Issue 31: a game icon was compared by its resolved path, so two identical copies of a game
    with its own icons gave every face as changed; now by the file's bytes. A changed icon file
    still changes every face that draws it."""
    monkeypatch.chdir(tmp_path)
    new_game(tmp_path / "old" / "g")
    _with_own_icon(tmp_path / "old" / "g")
    shutil.copytree(tmp_path / "old", tmp_path / "new")
    report = run_json("old/g", "new/g")
    assert report["summary"]["faces_changed"] == 0
    assert report["components"][0]["faces"]["changed"] == []
    replace_in(tmp_path / "new" / "g" / "icons" / "coin.svg", "#d4a017", "#b0302a")
    assert run_json("old/g", "new/g")["summary"]["faces_changed"] == 6
