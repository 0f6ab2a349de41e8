"""Each message blames the file that holds the mistake (issue 31): an icon name typed in a
template's text is the template's (it was reported at the first card's row of the card table);
an icon name or a colour typed in a card cell is that cell's (a colour was reported at the template
with a hint about field names); a colour the template's own expression makes stays the template's. Fonts: a role name typed in a
template element is the template's (with the closest role); a character the font lacks is the
template's when the template's own text holds it (it was reported at the first card's row) and the
cell's when the card's value does; a font name in fonts/fonts.yaml or in game.yaml's `fonts:` is
that file's, at the role's line, with the closest installed name."""
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
    assert p.message == "'#12345g' is not a colour; the template's 'frame' (stroke) reads this cell"
    assert "cell of the card table" in p.hint and "field names" not in p.hint and "YAML" not in p.message + p.hint


def test_a_colour_the_templates_expression_makes_is_the_templates(tmp_path):
    game = make_game(tmp_path)
    template = game / "templates" / "cards" / "card.yaml"
    replace_in(template, 'stroke: "#000000"', "stroke: \"{{ '#0' ~ card.number }}\"")
    errors = _errors(game)
    assert len(errors) == 2  # '#01' and '#02': one message each
    for p in errors:
        assert p.file.endswith("templates/cards/card.yaml") and p.line == line_of(template, "'#0'")
        assert p.code == "template-expr"


def test_a_font_role_typed_in_a_template_element_is_the_templates(tmp_path):
    game = make_game(tmp_path)
    template = game / "templates" / "cards" / "card.yaml"
    replace_in(template, "font: body", "font: bdoy")
    [p] = _errors(game)
    assert p.file.endswith("templates/cards/card.yaml") and p.line == line_of(template, "font: bdoy")
    assert p.code == "unknown-font-role" and p.message == "no font role 'bdoy'; did you mean 'body'?"


def test_a_character_the_font_lacks_typed_in_the_template_is_the_templates(tmp_path):
    game = make_game(tmp_path)
    template = game / "templates" / "cards" / "card.yaml"
    replace_in(template, TEXT, 'text: "\U0001F004 {{ card.text }}"')
    [p] = _errors(game)
    assert p.file.endswith("templates/cards/card.yaml") and p.line == line_of(template, "\U0001F004")
    assert p.code == "missing-glyph" and "no glyph for \U0001F004 (U+1F004)" in p.message


def test_a_character_the_font_lacks_in_a_card_cell_is_the_cells(tmp_path):
    game = make_game(tmp_path)
    replace_in(game / "cards.csv", "c2,2,チーを1個得る。", "c2,2,\U0001F004チーを1個得る。")
    [p] = _errors(game)
    assert p.file.endswith("cards.csv") and p.line == 3 and p.code == "missing-glyph"


def test_both_at_once_are_two_messages_each_in_its_file(tmp_path):
    game = make_game(tmp_path)
    template = game / "templates" / "cards" / "card.yaml"
    replace_in(template, TEXT, 'text: "\U0001F004 {{ card.text }}"')
    replace_in(game / "cards.csv", "c2,2,チーを1個得る。", "c2,2,\U0001F0CFチーを1個得る。")
    by_file = {(p.file.rsplit("/", 1)[-1], p.line): p.message for p in _errors(game)}
    assert set(by_file) == {("card.yaml", line_of(template, "\U0001F004")), ("cards.csv", 3)}
    assert "\U0001F0CF" not in by_file[("card.yaml", line_of(template, "\U0001F004"))]
    assert "\U0001F004" not in by_file[("cards.csv", 3)]


def test_a_font_name_typed_in_fonts_yaml_is_that_files(tmp_path):
    game = make_game(tmp_path)
    config = game / "fonts" / "fonts.yaml"
    replace_in(config, "serif: IPAexMincho", "serif: IPAexMincyo")
    [p] = _errors(game)
    assert p.file.endswith("fonts/fonts.yaml") and p.line == line_of(config, "IPAexMincyo")
    assert p.message.startswith("font 'IPAexMincyo' for role 'serif' not found; did you mean 'IPAexMincho'?")


def test_a_font_name_typed_in_game_yaml_is_that_files(tmp_path):
    game = make_game(tmp_path)
    manifest = game / "game.yaml"
    with manifest.open("a", encoding="utf-8") as f:
        f.write("fonts:\n  number: IPAexGothik\n")
    [p] = _errors(game)
    assert p.file.endswith("game.yaml") and p.line == line_of(manifest, "IPAexGothik")
    assert "did you mean 'IPAexGothic'?" in p.message


def test_a_font_role_typed_wrong_in_game_yaml_is_a_warning_there(tmp_path):
    """`bdoy: IPAexMincho` meant to change the body font: body keeps its own, silently, before."""
    game = make_game(tmp_path)
    manifest = game / "game.yaml"
    template = game / "templates" / "cards" / "card.yaml"
    replace_in(template, "font: number", "font: title")  # a new role a template uses: legitimate
    with manifest.open("a", encoding="utf-8") as f:
        f.write("fonts:\n  bdoy: IPAexMincho\n  title: IPAexMincho\n")
    report = validate_game(game)
    assert not report.errors
    [p] = [w for w in report.warnings if w.code == "unused-font-role"]
    assert p.file.endswith("game.yaml") and p.line == line_of(manifest, "bdoy:")
    assert p.message == "no card face uses the font role 'bdoy'; did you mean 'body'?"
