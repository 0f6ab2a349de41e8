"""Where a game's templates and fonts are found (:class:`Project`)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardgen.core.boundary import project_root, shared_dirs


@dataclass
class Project:
    """Where templates and fonts are found for a game folder (:mod:`cardgen.core.boundary`)."""

    root: Path  #: folder holding templates/ and fonts/ (the checkout, the working folder, --project, or the game folder)
    template_dirs: list[Path]  #: GAME/templates/cards first, then ROOT/templates/cards
    game_dir: Path | None = None  #: the game folder (resolved)

    @classmethod
    def for_game(cls, game_dir: Path) -> "Project":
        """The project of ``game_dir``: :func:`cardgen.core.boundary.project_root` (a folder above
        the game counts only when it is a trusted root, and never another game's folder). Template
        folders: the game's own ``templates/cards`` first, then the root's. Never raises."""
        game_dir = Path(game_dir).resolve()
        root = project_root(game_dir)
        dirs = [d for d in (game_dir / "templates" / "cards", root / "templates" / "cards") if d.is_dir()]
        return cls(root, list(dict.fromkeys(dirs)), game_dir)

    @property
    def trusted_config(self) -> bool:
        """Whether ``ROOT/fonts/fonts.yaml`` is the user's own (not the game folder's)."""
        return self.game_dir is None or self.root != self.game_dir

    def allowed(self) -> list[Path]:
        """Folders the game's files may lie in: the game folder and the shared folders."""
        base = [self.game_dir] if self.game_dir is not None else []
        return base + shared_dirs(self.root, self.game_dir or self.root)
