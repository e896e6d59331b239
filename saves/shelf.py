"""Unfinished games put aside: one per game kind, so starting a Bisca never ends a Sueca match in progress.

The game at the table lives in the autosave (``saves.autosave``); when the player starts a game of another
kind, the unfinished one moves to ``data_dir()/shelf/<game>/`` - an :class:`AutosaveStore` of its own, with
the same checksum, backup and crash safety - and Continue lists it. Taking it back moves it into the autosave.
"""

from __future__ import annotations

from pathlib import Path

from saves import paths
from saves.autosave import AutosaveStore, LoadResult
from saves.session import GameSession


class Shelf:
    """The unfinished games put aside, by game name."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else paths.data_dir() / "shelf"

    def _store(self, game: str) -> AutosaveStore:
        if not game.isidentifier():  # game names are registry names; never a path
            raise ValueError(f"bad game name {game[:40]!r}")
        return AutosaveStore(self.directory / game)

    def games(self) -> list[str]:
        """The game names with a game put aside."""
        if not self.directory.is_dir():
            return []
        return sorted(d.name for d in self.directory.iterdir()
                      if d.is_dir() and d.name.isidentifier() and AutosaveStore(d).exists())

    def has(self, game: str) -> bool:
        return game in self.games()

    def put(self, session: GameSession) -> None:
        """Put an unfinished game aside (raises OSError when the disk refuses; nothing is lost then)."""
        self._store(session.match.game.name).save(session)

    def peek(self, game: str) -> GameSession | None:
        """The game put aside for ``game`` without moving anything (None when none loads)."""
        return self._store(game).peek() if self.has(game) else None

    def load(self, game: str) -> LoadResult:
        """Load the game put aside for ``game`` (its warnings as for the autosave); it stays until :meth:`drop`."""
        return self._store(game).load()

    def drop(self, game: str) -> None:
        """Remove the game put aside for ``game`` (after it was taken back or the player ended it)."""
        self._store(game).clear()
