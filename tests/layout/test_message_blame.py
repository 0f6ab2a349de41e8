"""Each message blames the file that holds the mistake (issue 31): an icon name typed in a
template's text is the template's (it was reported at the first card's row of the card table);
an icon name or a colour typed in a card cell is that cell's (a colour was reported at the template
with a hint about field names); a colour the template's own expression makes stays the template's."""
from __future__ import annotations

from cardgen.api import validate_game
from tests.conftest import needs_fonts, replace_in
from tests.minigame import line_of
from tests.render.test_game_icons import make_game

pytestmark = needs_fonts

TEXT = 'text: "{{ card.text }}"'


def _errors(game):
    return [p for p in validate_game(game).errors]


def test_an_icon_typed_in_the_template_text_is_the_templates(tmp_path):
    game = make_game(tmp_path)
    template = game / "templates" / "cards" / "card.yaml"
    replace_in(template, TEXT, 'text: ":mooon: {{ card.text }}"')
    [p] = _errors(game)
    assert (p.line, p.code) == (line_of(template, ":mooon:"), "unknown-icon")
    assert p.file.endswith("templates/cards/card.yaml") and "'mooon' (did you mean 'moon'?)" in p.message


def test_an_icon_typed_in_a_card_cell_is_the_cells(tmp_path):
    game = make_game(tmp_path)
    replace_in(game / "cards.csv", "c2,2,チーを1個得る。", "c2,2,:mooon:チーを1個得る。")
    [p] = _errors(game)
    assert p.file.endswith("cards.csv") and p.line == 3 and p.code == "unknown-icon"


def test_a_colour_typed_in_a_card_cell_is_the_cells(tmp_path):
    game = make_game(tmp_path)
    template = game / "templates" / "cards" / "card.yaml"
    replace_in(template, 'stroke: "#000000"', 'stroke: "{{ card.colour }}"')
    table = game / "cards.csv"
    replace_in(table, "id,number,text,count", "id,number,text,count,colour")
    replace_in(table, "c1,1,:coin:を1個得る。,2", "c1,1,:coin:を1個得る。,2,#123456")
    replace_in(table, "c2,2,チーを1個得る。,4", "c2,2,チーを1個得る。,4,#12345g")
    [p] = _errors(game)
    assert p.file.endswith("cards.csv") and p.line == 3 and p.code == "bad-colour" and p.field == "colour"
    assert p.message.startswith("'#12345g' is not a colour (stroke of the template's 'frame')")
    assert "cell of the card table" in p.hint and "field names" not in p.hint


def test_a_colour_the_templates_expression_makes_is_the_templates(tmp_path):
    game = make_game(tmp_path)
    template = game / "templates" / "cards" / "card.yaml"
    replace_in(template, 'stroke: "#000000"', "stroke: \"{{ '#0' ~ card.number }}\"")
    errors = _errors(game)
    assert len(errors) == 2  # '#01' and '#02': one message each
    for p in errors:
        assert p.file.endswith("templates/cards/card.yaml") and p.line == line_of(template, "'#0'")
        assert p.code == "template-expr"
