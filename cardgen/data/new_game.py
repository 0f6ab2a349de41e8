"""``cardgen new GAME_DIR``: a small game that validates and builds as it stands.

One deck (24 numbered cards, a CSV), its face and back templates inside the game folder
(``GAME_DIR/templates/cards/``, found before the project's own), setup for 3 and 4 players whose
deck math adds up, one design rule, one open question (``game.choices``) and one rules page using
the generated tables and marking the open question.
"""
from __future__ import annotations

import re
from pathlib import Path

from cardgen.core.errors import Problem, UsageError


def game_id(name: str) -> str:
    """A manifest id (``[a-z0-9][a-z0-9_-]*``) from a folder name: ``My Game`` → ``my_game``. A name
    with no Latin letters or digits (``花札``) gets ``game_`` and 6 hex digits of its SHA-1, so two
    Japanese-named games do not share an output folder."""
    import hashlib  # lazy: +5 ms of imports here (measured)

    gid = re.sub(r"[^a-z0-9_-]+", "_", name.lower()).strip("_-")
    if not gid:
        return "game_" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:6]
    return gid if gid[0].isalnum() else f"game_{gid}".rstrip("_")


def _files(gid: str, title: str) -> dict[str, str]:
    rows = "\n".join(f"n{n},{n},4" for n in range(1, 7))
    return {
        "game.yaml": f"""# {title}: a starting point made by `cardgen new`. Edit freely; `cardgen validate` checks it.
game:
  id: {gid}
  title: "{title}"
  version: "draft 1"
  players: [3, 4]
  source: "cardgen new"
  # Open questions: what the design draft leaves open. Each is printed as a boxed 【未確定】 note
  # where the rules text calls {{{{ open_question('id') }}}}, and listed in the rulebook's appendix;
  # `cardgen build --final` refuses while any is open. Set `decided: true` once the designer decides.
  choices:
    - id: hand-size
      question: 手札は何枚か
      options: ["3枚", "4枚"]
      use: "3枚"
      why: cardgen new が置いた例です。草案が決めていない問いに書き換えてください。

print:
  card_size: poker
  bleed: 3
  safe: 3

components:
  - id: cards
    name: カード
    kind: deck
    count: 24
    cards: cards.csv            # one row per kind of card; `count` = copies
    fields: {{number: int}}
    template: card              # templates/cards/card.yaml in this folder
    back: card_back

setup:
  deck: cards
  player_counts:
    - players: 3
      hand: 3
      dead_wall: 3
      turns: 4                  # (24 − 3 × 3 − 3) ÷ 3
    - players: 4
      hand: 3
      dead_wall: 0
      turns: 3                  # (24 − 4 × 3 − 0) ÷ 4

design:
  highest: 6

design_rules:
  - id: number-range
    description: 数字は1から design.highest まで
    deck: cards
    check: "1 <= card.number <= design.highest"

rulebook:
  numbering: decimal
  depth: 1
""",
        "cards.csv": "id,number,count\n" + rows + "\n",
        "templates/cards/card.yaml": """# Card face, poker 63 × 88 mm. Boxes: [x, y, w, h] in mm from the trim's top-left corner, y down.
description: A numbered card.
background: "#fbf8f0"
elements:
  - {kind: rect, name: frame, box: [3.5, 3.5, 56, 81], stroke: "#23395b", stroke_width: 1, radius: 3}
  - {kind: text, name: corner, box: [6, 5, 16, 12], text: "{{ card.number }}", font: number, size: 24, color: "#23395b"}
  - {kind: text, name: number, box: [6, 24, 51, 40], text: "{{ card.number }}", font: number, size: 72, min_size: 40, align: center, valign: middle, color: "#23395b"}
  - {kind: text, name: title, box: [6, 74, 51, 8], text: "{{ game.title }}", font: body, size: 8, align: center, valign: bottom, color: "#6b5a44"}
""",
        "templates/cards/card_back.yaml": """description: Card back.
background: "#23395b"
elements:
  - {kind: rect, name: inner, box: [4, 4, 55, 80], stroke: "#e8c77a", stroke_width: 1.2, radius: 3}
  - {kind: text, name: title, box: [6, 34, 51, 20], text: "{{ game.title }}", font: heading, size: 24, min_size: 12, align: center, valign: middle, color: "#ffffff"}
""",
        "rules/rules.md": """# {{ game.title }}

## 内容物

{{ component_table }}

## 準備

カードをよく混ぜ、各プレイヤーに手札を配ります。人数ごとの枚数は次のとおりです。

{{ setup_table }}

{{ open_question('hand-size') }}

## 遊び方

ここにルールを書きます。数字は game.yaml の design から読めます（いまの最大の数字は{{ design.highest }}）。
""",
    }


def new_game(game_dir: Path | str, title: str | None = None) -> list[Path]:
    """Write a new game into ``game_dir`` (created; must not exist or be empty).

    Returns:
        the files written, in order.

    Raises:
        UsageError: ``game_dir`` is a file, or a folder that is not empty.
    """
    root = Path(game_dir)
    if root.exists() and not root.is_dir():
        raise UsageError(Problem(str(root), None, "", "this is a file, not a folder: a new game needs a folder",
                                 "name a folder that does not exist yet, e.g. card_data/my_game", code="exists"))
    if root.exists() and any(root.iterdir()):
        raise UsageError(Problem(str(root), None, "", "the folder already exists and is not empty",
                                 "name a new folder, e.g. card_data/my_game", code="exists"))
    gid = game_id(root.resolve().name)
    written = []
    for rel, text in _files(gid, title or root.resolve().name).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
