"""benchmarks/run.py's protograf comparison without protograf's venv (CI never installs it):
skipped with the note, the other results kept; and the protograf script it would run is valid Python."""
from __future__ import annotations

import json

import pytest

from benchmarks import protograf_deck, run
from benchmarks.gen import make_game

NOTE = "protograf not installed: make bench-protograf"


@pytest.mark.parametrize("venv", ["missing", "half-made"])
def test_skipped_with_the_note_without_the_venv(tmp_path, monkeypatch, capsys, venv):
    folder = tmp_path / "protograf-venv"
    if venv == "half-made":  # `make bench-protograf` interrupted: a Python, no .installed mark
        (folder / "bin").mkdir(parents=True)
        (folder / "bin" / "python").write_text("")
    monkeypatch.setenv("CARDGEN_PROTOGRAF_VENV", str(folder))
    out = tmp_path / "results.json"
    measured = {"version": "0.5.2", "decks": {"generated-4000": {"ratio": 333.0}}}
    out.write_text(json.dumps({"whole_run": {"kept": True}, "protograf": measured}))

    for _ in range(2):  # skipped twice: the figures measured before stay, once
        assert run.main(["--protograf-only", "--sizes", "4", "--out", str(out)]) == 0
        data = json.loads(out.read_text(encoding="utf-8"))
        assert data["protograf"] == {"skipped": NOTE, "previous": measured}
        assert data["whole_run"] == {"kept": True}
        assert f"protograf: skipped ({NOTE})" in capsys.readouterr().out
    assert not (folder / "home").exists()  # nothing was set up for a run


def test_skipped_without_earlier_figures(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_PROTOGRAF_VENV", str(tmp_path / "none"))
    out = tmp_path / "results.json"
    assert run.main(["--protograf-only", "--sizes", "4", "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == {"protograf": {"skipped": NOTE}}


def test_a_new_size_keeps_the_other_sizes_and_replaces_a_skip(tmp_path):
    out = tmp_path / "results.json"
    earlier = {"decks": {"generated-1000": {"ratio": 209.0}}}
    out.write_text(json.dumps({"protograf": {"skipped": NOTE, "previous": earlier}}))
    run._write(out, {"protograf": {"version": "0.5.2", "decks": {"generated-4000": {"ratio": 333.0}}}})
    assert json.loads(out.read_text(encoding="utf-8"))["protograf"] == {
        "version": "0.5.2", "decks": {"generated-1000": {"ratio": 209.0}, "generated-4000": {"ratio": 333.0}}}


def test_the_script_is_python_with_the_deck_title(tmp_path):
    game = make_game(tmp_path / "game", 3)
    script = protograf_deck.write_script(game, tmp_path / "out")
    source = script.read_text(encoding="utf-8")
    compile(source, str(script), "exec")
    assert 'CardBack(' in source and '"天雀牌ベンチ"' in source
    assert (tmp_path / "out" / "characters.csv").read_bytes() == (game / "characters.csv").read_bytes()
    assert protograf_deck.cards(game) == 3
