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
        ``templates/cards`` and ``fonts/`` (else one holding ``fonts/``, else the game folder).
        Template folders: the game's own ``templates/cards`` first, then the root's. Never raises."""
        game_dir = Path(game_dir).resolve()
        root = next((p for p in [game_dir, *game_dir.parents] if (p / "templates" / "cards").is_dir()
                     and (p / "fonts").is_dir()), None)
        if root is None:
            root = next((p for p in [game_dir, *game_dir.parents] if (p / "fonts").is_dir()), game_dir)
        dirs = [d for d in (game_dir / "templates" / "cards", root / "templates" / "cards") if d.is_dir()]
        return cls(root, list(dict.fromkeys(dirs)))
