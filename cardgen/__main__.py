"""``python -m cardgen`` runs the command line (Ctrl-C while it starts ends it quietly, exit 130)."""
import sys

try:
    from cardgen.cli.entry import main
except KeyboardInterrupt:  # pragma: no cover - Ctrl-C while the modules load
    sys.exit(130)

if __name__ == "__main__":
    main()
