"""Where a game's templates and fonts are found (:class:`Project`)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class Project:
    """Where templates and fonts are found for a game folder."""

    root: Path  #: folder holding templates/ and fonts/ (the checkout, or the game folder)
    template_dirs: list[Path]  #: GAME/templates/cards first, then ROOT/templates/cards

    @classmethod
    def for_game(cls, game_dir: Path) -> "Project":
        """The project of ``game_dir``: the nearest folder at or above it holding both
        ``templates/cards`` and ``fonts/`` (else one holding ``fonts/``, else the game folder),
        skipping folders that are themselves games (hold a ``game.yaml``): a game nested in
        another game's folder never uses that game's templates. Template folders: the game's own
        ``templates/cards`` first, then the root's. Never raises."""
        game_dir = Path(game_dir).resolve()
        # never another game's folder: a folder above holding its own game.yaml is not a project
        above = [game_dir] + [p for p in game_dir.parents if not (p / "game.yaml").is_file()]
        root = next((p for p in above if (p / "templates" / "cards").is_dir() and (p / "fonts").is_dir()), None)
        if root is None:
            root = next((p for p in above if (p / "fonts").is_dir()), game_dir)
        dirs = [d for d in (game_dir / "templates" / "cards", root / "templates" / "cards") if d.is_dir()]
        return cls(root, list(dict.fromkeys(dirs)))
