"""Open questions (game.choices): printed as boxed 【未確定】 notes where the rules text marks
them and listed in an appendix with their pages — read back from each bundled rulebook PDF —,
checked by the validator against the rules text, and refused by a --final build."""
from __future__ import annotations

import re
import shutil

import pytest
from click.testing import CliRunner

from cardgen.api import build_game, validate_game
from cardgen.check.open_questions import references
from cardgen.cli.commands import cli
from cardgen.data.game import load_game
from cardgen.rulebook.assemble import APPENDIX_TITLE
from cardgen.rulebook.notes import LABEL, USE_LABEL
from tests.pdfread import CARD_DATA, ROOT, open_pdf

GAMES = ["tenjanpai", "yajanki", "nko_mahjong", "majan"]


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _read_book(pdf) -> list[dict]:
    """Per page: its number, its flat text (no DRAFT mark), and where each 【 of a note label is."""
    pages = []
    with open_pdf(str(pdf)) as doc:
        for i, p in enumerate(doc.pages, 1):
            body = p.filter(lambda o: o.get("object_type") != "char" or (o.get("upright", True) and o["size"] < 20))
            labels = body.search(LABEL, regex=False)
            fills = [r for r in p.rects if r.get("fill")]
            pages.append({"n": i, "text": _flat(body.extract_text() or ""), "labels": labels, "fills": fills})
    return pages


@pytest.fixture(scope="module")
def books(built_games):
    result = {}
    for name in GAMES:
        out = built_games(name, force=True, steps=("rulebook",)).out_dir  # yajanki's draft fails: forced
        result[name] = _read_book(out / "rulebook.pdf")
    return result


def _appendix_mark() -> str:
    """Where the appendix starts in a page's flat text (the contents lists only its title)."""
    return _flat(APPENDIX_TITLE) + "1." + LABEL


def _notes(pages: list[dict]) -> list[tuple[int, str, str]]:
    """(page, question, the text after 「この版では：」) of every note before the appendix."""
    found = []
    for pg in pages:
        body, _sep, _rest = pg["text"].partition(_appendix_mark())
        for m in re.finditer(re.escape(LABEL) + r"([^【]+?)" + re.escape(USE_LABEL) + r"(.+?)(?=" + re.escape(LABEL) + "|$)", body):
            found.append((pg["n"], m.group(1), m.group(2)))
        if _sep:
            break
    return found


@pytest.mark.parametrize("name", GAMES)
def test_notes_in_the_pdf_are_the_manifests_open_questions(books, name):
    game = load_game(CARD_DATA / name)
    choices = [c for c in game.manifest.game.choices if not c.decided]
    assert choices, "every bundled game has open questions"
    notes = _notes(books[name])
    printed = {q for _p, q, _u in notes}
    assert printed == {_flat(c.question) for c in choices}, (name, printed)
    for _p, q, use in notes:  # each note names the option this build uses
        c = next(c for c in choices if _flat(c.question) == q)
        assert use.startswith(_flat(c.use)), (q, use)


@pytest.mark.parametrize("name", GAMES)
def test_every_note_is_boxed(books, name):
    for pg in books[name]:
        for ch in pg["labels"]:
            box = [r for r in pg["fills"] if r["x0"] <= ch["x0"] and ch["x1"] <= r["x1"]
                   and r["top"] <= ch["top"] and ch["bottom"] <= r["bottom"]]
            assert box, (name, pg["n"], "a 【未確定】 label outside a filled box")


@pytest.mark.parametrize("name", GAMES)
def test_appendix_lists_every_open_question_with_the_pages_of_its_notes(books, name):
    game = load_game(CARD_DATA / name)
    pages = books[name]
    start = next(pg["n"] for pg in pages if _appendix_mark() in pg["text"])
    appendix = "".join(pg["text"] for pg in pages if pg["n"] >= start).split(_appendix_mark(), 1)[-1]
    appendix = "1." + LABEL + appendix
    notes = _notes(pages)
    for i, c in enumerate(x for x in game.manifest.game.choices if not x.decided):
        entry = appendix.split(f"{i + 1}.{LABEL}{_flat(c.question)}", 1)
        assert len(entry) == 2, (name, c.id, "not in the appendix")
        body = entry[1].split(LABEL, 1)[0]
        assert _flat("／".join(c.options)) in body and _flat(c.why) in body
        where = re.search(r"該当箇所：(.*?)(?:\d+\.$|$)", body).group(1)
        listed = [int(n) for n in re.findall(r"(\d+)ページ", where)]
        on_pages = sorted({p for p, q, _u in notes if q == _flat(c.question)})
        assert listed == on_pages, (name, c.id, listed, on_pages)


def _new_game(tmp_path):
    game = tmp_path / "g"
    assert CliRunner().invoke(cli, ["new", str(game)]).exit_code == 0
    shutil.copytree(ROOT / "templates" / "rulebook", tmp_path / "templates" / "rulebook")
    return game


def test_validator_warns_about_an_unmarked_question_and_errors_on_an_unknown_mark(tmp_path):
    game = _new_game(tmp_path)
    rules = game / "rules" / "rules.md"
    rules.write_text(rules.read_text(encoding="utf-8").replace("{{ open_question('hand-size') }}",
                                                                "{{ open_question('hand-sise') }}"), encoding="utf-8")
    rep = validate_game(game).to_json()
    unknown = [e for e in rep["errors"] if e["code"] == "choice-unknown"]
    assert len(unknown) == 1 and unknown[0]["file"].endswith("rules/rules.md")
    line = rules.read_text(encoding="utf-8").splitlines()[unknown[0]["line"] - 1]
    assert "hand-sise" in line
    unmarked = [w for w in rep["warnings"] if w["code"] == "choice-unreferenced"]
    assert [w["path"] for w in unmarked] == ["game → choices → hand-size"]
    assert references(game / "rules") == {"hand-sise": [(rules, unknown[0]["line"])]}


def test_a_syntax_error_elsewhere_in_the_file_is_not_also_an_unmarked_question(tmp_path):
    """A jinja2 typo in a rules file is one error (the rulebook's); the marks in that file still count
    (a tester saw the typo reported with a false "no rules text marks this open question")."""
    game = _new_game(tmp_path)
    rules = game / "rules" / "rules.md"
    text = rules.read_text(encoding="utf-8")
    assert "{{ open_question('hand-size') }}" in text and "{{ setup_table }}" in text
    rules.write_text(text.replace("{{ setup_table }}", "{{ setup_table }"), encoding="utf-8")
    rep = validate_game(game).to_json()
    assert [e["code"] for e in rep["errors"]] == ["rulebook-syntax"], rep["errors"]
    assert [w for w in rep["warnings"] if w["code"] == "choice-unreferenced"] == []
    mark = next(i for i, ln in enumerate(rules.read_text(encoding="utf-8").splitlines(), 1) if "open_question" in ln)
    assert references(game / "rules") == {"hand-size": [(rules, mark)]}


def test_final_refuses_while_questions_are_open_and_builds_once_decided(tmp_path):
    game = _new_game(tmp_path)
    out = tmp_path / "out"
    for cmd in ("build", "rulebook", "sheets"):
        r = CliRunner().invoke(cli, [cmd, str(game), "--final", "--out", str(out)])
        assert r.exit_code == 1, (cmd, r.output)
        assert "open question: 手札は何枚か (this build uses: 3枚)" in r.output
        assert "--final: 1 open question(s) remain" in r.output
        assert not (out / "g").exists()
    y = game / "game.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace('      why:', '      decided: true\n      why:', 1),
                 encoding="utf-8")
    r = CliRunner().invoke(cli, ["rulebook", str(game), "--final", "--out", str(out)])
    assert r.exit_code == 0, r.output
    with open_pdf(str(out / "g" / "rulebook.pdf")) as doc:
        text = "".join(p.extract_text() for p in doc.pages)
    assert LABEL not in text and APPENDIX_TITLE not in text  # decided: no note, no appendix


def test_new_game_prints_its_open_question(tmp_path):
    game = _new_game(tmp_path)
    build_game(game, tmp_path / "out", steps=("rulebook",))
    pages = _read_book(tmp_path / "out" / "g" / "rulebook.pdf")
    assert [q for _p, q, _u in _notes(pages)] == ["手札は何枚か"]


def _body(pages: list[dict]) -> str:
    """The flat text of every page before the appendix, in reading order."""
    out = []
    for pg in pages:
        body, sep, _rest = pg["text"].partition(_appendix_mark())
        out.append(body)
        if sep:
            break
    return "".join(out)


@pytest.mark.parametrize("name, ron_card", [("tenjanpai", False), ("yajanki", True)])
def test_draw_ties_and_used_ron_cards_are_noted_where_the_drafts_are_silent(books, name, ron_card):
    """Seeds 000 and 001 give the power/chips of a 流局 to the player with the largest 聴牌速度 and
    say nothing of a tie: a note in the 流局 section. Seed 000 (夜雀鬼) lets a ron card in hand win
    without saying what becomes of the card: a note in the ロン和了 section. Seed 001 (天雀牌) says
    the pair is shown, so no such note there."""
    choices = {c.id: _flat(c.question) for c in load_game(CARD_DATA / name).manifest.game.choices}
    body = _body(books[name])
    tie = body.index(_flat(LABEL) + choices["draw-tie"])
    assert body.index("その局は流局です") < tie
    if ron_card:
        used = body.index(_flat(LABEL) + choices["ron-card-used"])
        assert body.index("ロン和了したプレイヤーは") < used < body.index("ダブロン")
    else:
        assert "ron-card-used" not in choices and "そのカードを見せて" in body
