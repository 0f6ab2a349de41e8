"""``cardgen --help`` as click prints it (written by ``python -m cardgen.cli.help_fast``;
do not edit: :mod:`cardgen.cli.help_fast` serves it before click is imported)."""

#: The click release the page was taken from.
CLICK = '8.5.1'
#: Width of click's help formatter the page was laid out at (columns).
WIDTH = 78
#: The page, with its last newline.
PAGE = (
    'Usage: cardgen [OPTIONS] COMMAND [ARGS]...\n'
    '\n'
    '  cardgen — print sheets, rulebooks and validation for card games kept as\n'
    '  data.\n'
    '\n'
    '  A game is a folder (card_data/<game>/) with game.yaml and its card tables.\n'
    '\n'
    'Options:\n'
    '  --version            Show the version and exit.\n'
    '  --project DIRECTORY  The project root whose templates/ and fonts/ games may\n'
    '                       use [default: the folder cardgen runs in, or the\n'
    '                       cardgen checkout].\n'
    '  -h, --help           Show this message and exit.\n'
    '\n'
    'Commands:\n'
    '  build        Validate and build every output (all games by default).\n'
    '  calibration  Duplex test sheet: measure how far the backs shift.\n'
    '  daemon       Keep a preloaded cardgen process for faster commands (opt-in).\n'
    '  diff         What changed between two drafts: cards, faces, rules.\n'
    '  docs         Regenerate the manifest and template references in docs/.\n'
    '  new          Start a new game folder that builds as it stands.\n'
    '  odds         Exact odds of a dealt hand, from the card data.\n'
    '  png          One PNG per physical card (300 dpi).\n'
    "  printer      Your printers' measured duplex offsets (for --printer).\n"
    '  rulebook     Rulebook PDF from the rules Markdown and the data.\n'
    '  serve        A live preview page of a game in the browser.\n'
    '  sheets       Print sheets PDF: imposed cards, bleed, crop marks, backs.\n'
    '  shop         Print-shop PDFs: one card per page with TrimBox/BleedBox.\n'
    '  simulate     Monte Carlo playtest of whole rounds, per player count.\n'
    '  tts          Tabletop Simulator saved object and deck sheets.\n'
    '  validate     Every check a build makes, short of drawing.\n'
    "  watch        Rebuild on every save and show the validator's findings.\n"
)
