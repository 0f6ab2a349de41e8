"""``python -m cardgen`` runs the command line."""
from cardgen.cli.commands import main

main()
