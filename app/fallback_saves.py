"""Minimal autosave used only when ``saves.autosave`` is not available in this build."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from saves import paths
from saves.session import GameSession


@dataclass
class SimpleLoad:
    """Result of :meth:`SimpleAutosave.load`."""
    session: GameSession | None
    warnings: list[str] = field(default_factory=list)


class SimpleAutosave:
    """One JSON file ``autosave.json`` in the data directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.path = Path(directory or paths.data_dir()) / "autosave.json"

    def save(self, session: GameSession) -> None:
        """Write the session."""
        paths.atomic_write_bytes(self.path, json.dumps(session.to_dict()).encode("utf-8"))

    def exists(self) -> bool:
        """Whether a saved game exists (after pending writes)."""
        return self.path.exists()

    def load(self) -> Any:
        """Load the saved game (after pending writes)."""
        try:
            return SimpleLoad(GameSession.from_dict(json.loads(self.path.read_text(encoding="utf-8"))))
        except Exception as e:  # noqa: BLE001
            return SimpleLoad(None, [str(e)])

    def clear(self) -> None:
        """Remove the saved game (after pending writes)."""
        self.path.unlink(missing_ok=True)
