"""Edition coverage (cardgen/check/coverage.py): a changed Japanese text makes its English
translation stale at the translation's file:line, a removed translation is missing at the source
row's file:line, an unknown one is extra; validate reports them as warnings (the Japanese edition
still passes), a --final build of the edition refuses both."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cardgen.api import build_game
from cardgen.check.print_setup import load_and_validate
from cardgen.core.errors import CardgenError
from cardgen.data.editions import source_hash
from tests.conftest import copy_game, replace_in


def _line_of(path: Path, *cells: str) -> int:
    """The file line (1-based) of the CSV row whose first cells are ``cells``."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.split(",")[:len(cells)] == list(cells):
            return n
    raise AssertionError(f"no row {cells} in {path}")


def _found(report, code: str) -> list:
    return [p for p in report.errors + report.warnings if p.code == code]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return copy_game(tmp_path)


def test_the_bundled_english_edition_is_complete(game: Path):
    _g, report = load_and_validate(game)
    assert not [p for p in report.warnings + report.errors if p.code.startswith("edition-")]


def test_changed_japanese_skill_text_makes_the_english_one_stale_at_its_line(game: Path):
    replace_in(game / "characters.csv", ":power:を1個得る。,烈火の型", ":power:を2個得る。,烈火の型")
    _g, report = load_and_validate(game)
    stale = _found(report, "edition-stale")
    line = _line_of(game / "editions" / "en.csv", "characters", "c1-1", "skill_text")
    assert [(Path(p.file).name, p.line, p.severity) for p in stale] == [("en.csv", line, "warning")]
    assert ":power:を2個得る。" in stale[0].message
    assert source_hash(":power:を2個得る。") in stale[0].hint  # the hash to set once it is translated again
    assert report.ok  # the Japanese edition still validates


def test_removed_translation_is_missing_at_the_source_row(game: Path):
    table = game / "editions" / "en.csv"
    rows = table.read_text(encoding="utf-8").splitlines()
    gone = _line_of(table, "characters", "c2-3", "ougi_text")
    table.write_text("\n".join(r for n, r in enumerate(rows, 1) if n != gone) + "\n", encoding="utf-8")
    _g, report = load_and_validate(game)
    missing = _found(report, "edition-missing")
    assert [(Path(p.file).name, p.line) for p in missing] == [("characters.csv", _line_of(game / "characters.csv", "c2-3"))]
    assert "ougi_text" in missing[0].path and "'en'" in missing[0].message


def test_extra_translation_names_what_does_not_exist(game: Path):
    with (game / "editions" / "en.csv").open("a", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerow(["characters", "c9-9", "name", "00000000", "Nobody"])
        csv.writer(fh, lineterminator="\n").writerow(["characters", "c1-1", "stage", "00000000", "One"])
    _g, report = load_and_validate(game)
    extra = _found(report, "edition-extra")
    assert len(extra) == 2
    assert "no card 'c9-9'" in extra[0].message
    assert "stage is not translated" in extra[1].message
    assert extra[1].line == len((game / "editions" / "en.csv").read_text(encoding="utf-8").splitlines())


def test_final_refuses_missing_and_stale_while_the_japanese_edition_builds(game: Path, tmp_path: Path):
    replace_in(game / "characters.csv", ":power:を1個得る。,烈火の型", ":power:を2個得る。,烈火の型")
    table = game / "editions" / "en.csv"
    gone = _line_of(table, "characters", "c2-3", "ougi_text")
    table.write_text("\n".join(r for n, r in enumerate(table.read_text(encoding="utf-8").splitlines(), 1)
                               if n != gone) + "\n", encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    start = text.index("  choices:")
    end = text.index("\n\n", start)  # no open question stops --final first: each decided
    text = text[:start] + text[start:end].replace("    - id: ", "    - decided: true\n      id: ") + text[end:]
    (game / "game.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("rulebook",), final=True, edition="en")
    codes = [p.code for p in exc.value.problems]
    assert codes.count("edition-stale") == 1 and codes.count("edition-missing") == 1
    assert codes[-1] == "final-edition-incomplete"
    assert [p.severity for p in exc.value.problems if p.code.startswith("edition-")] == ["error", "error"]
    assert not (tmp_path / "out" / "tenjanpai" / "en").exists()
    res = build_game(game, tmp_path / "out", steps=("rulebook",), final=True)  # the Japanese edition
    assert (res.out_dir / "rulebook.pdf").is_file() and res.out_dir == tmp_path / "out" / "tenjanpai"


def test_a_term_missing_from_an_edition_is_reported(game: Path):
    replace_in(game / "game.yaml", "      free: Free\n", "")
    _g, report = load_and_validate(game)
    assert ["free" in p.message for p in _found(report, "edition-missing")] == [True]


def test_unknown_edition_is_one_clear_error(game: Path, tmp_path: Path):
    with pytest.raises(CardgenError) as exc:
        build_game(game, tmp_path / "out", steps=("rulebook",), edition="fr")
    assert "no such edition" in exc.value.problems[0].message and "ja, en" in exc.value.problems[0].hint


def test_a_number_column_cannot_be_translated(game: Path):
    replace_in(game / "game.yaml", "    translate: [name,", "    translate: [stage, name,")
    _g, report = load_and_validate(game)
    bad = _found(report, "edition-translate-number")
    assert len(bad) == 1 and "'stage'" in bad[0].message and bad[0].severity == "error"
    assert bad[0].line == _line_of(game / "game.yaml", "    translate: [stage")
