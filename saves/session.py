"""A game session: the match plus who sits where and the app-level bookkeeping that autosave keeps.

This is the unit the app autosaves after every move and restores on Continue. AI decisions draw their
randomness from ``engine.rng.derived_rng(session.seed, "ai", hand_index, ply)`` so a restored session
continues exactly as the original would have.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from engine.game import Game, StateFormatError
from engine.match import Match
from engine.rng import derived_rng

SESSION_VERSION = 1


@dataclass
class Seat:
    """One seat: ``kind`` is ``"human"`` or ``"ai"``; AIs have a SPEC and optionally the preset it came from.

    ``display_name`` is what the table shows (study mode uses neutral names like "Opponent A").
    """

    kind: str
    name: str
    spec: str = ""
    preset: str = ""
    display_name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "spec": self.spec, "preset": self.preset,
                "display_name": self.display_name}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        kind = d["kind"]
        if kind not in ("human", "ai"):
            raise StateFormatError(f"seat kind must be 'human' or 'ai', not {kind!r}")
        return cls(kind, str(d["name"]), str(d.get("spec", "")), str(d.get("preset", "")),
                   str(d.get("display_name", "")))

    @property
    def label(self) -> str:
        return self.display_name or self.name


@dataclass
class GameSession:
    """A match with its seats. ``moves`` holds the move list of every hand (the current one last)."""

    match: Match
    seats: list[Seat]
    seed: int
    started_at: float = field(default_factory=time.time)
    moves: list[list[int]] = field(default_factory=lambda: [[]])
    hints_used: int = 0
    undos_used: int = 0
    study: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    session_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    """Identifies the match across saves, so a finished game is recorded only once."""

    @classmethod
    def start(cls, game: Game, seats: list[Seat], seed: int, **kwargs: Any) -> GameSession:
        """A new session: ``Match.start(game, seed)`` with these seats (one per player)."""
        if len(seats) != game.num_players:
            raise ValueError(f"{game.name} needs {game.num_players} seats, got {len(seats)}")
        return cls(Match.start(game, seed), list(seats), seed, **kwargs)

    def ai_rng(self) -> random.Random:
        """The random source of the AI move about to be made (same seed/hand/ply -> same stream)."""
        return derived_rng(self.seed, "ai", self.match.hand_index, self.ply)

    def apply(self, move: int) -> None:
        """Validate and apply ``move`` to the current hand and record it (illegal: nothing changes)."""
        self.match.state.apply(move)
        self.record_move(move)

    def next_hand(self) -> None:
        """Score the finished hand and deal the next one (see :meth:`Match.next_hand`)."""
        self.match.next_hand()
        while len(self.moves) <= self.match.hand_index:
            self.moves.append([])

    def record_move(self, move: int) -> None:
        """Note a move applied to the current hand (call after ``match.state.apply``)."""
        while len(self.moves) <= self.match.hand_index:
            self.moves.append([])
        self.moves[self.match.hand_index].append(move)

    @property
    def ply(self) -> int:
        """Moves made in the current hand."""
        return len(self.moves[self.match.hand_index]) if len(self.moves) > self.match.hand_index else 0

    def to_dict(self) -> dict[str, Any]:
        return {"format": "cardtable-session", "version": SESSION_VERSION, "match": self.match.to_dict(),
                "seats": [s.to_dict() for s in self.seats], "seed": self.seed, "started_at": self.started_at,
                "moves": self.moves, "hints_used": self.hints_used, "undos_used": self.undos_used,
                "study": self.study, "meta": self.meta, "session_id": self.session_id}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameSession:
        if not isinstance(d, dict) or d.get("format") != "cardtable-session":
            raise StateFormatError("not a cardtable session")
        if d.get("version") != SESSION_VERSION:
            raise StateFormatError(f"unsupported session version {d.get('version')!r}")
        try:
            match = Match.from_dict(d["match"])
            seats = [Seat.from_dict(s) for s in d["seats"]]
            if len(seats) != match.game.num_players:
                raise StateFormatError("seat count does not match the game")
            moves = d["moves"]
            if not isinstance(moves, list) or not all(
                    isinstance(hand, list) and all(isinstance(m, int) and not isinstance(m, bool) for m in hand)
                    for hand in moves):
                raise StateFormatError("moves must be a list of lists of whole numbers")
            moves = [list(hand) for hand in moves]
            meta = d.get("meta") or {}
            if not isinstance(meta, dict):
                raise StateFormatError("meta must be an object")
            study = d.get("study")
            if study is not None and not isinstance(study, dict):
                raise StateFormatError("study must be an object or null")
            session_id = d.get("session_id") or f"{int(d['seed'])}-{float(d['started_at'])!r}"
            if not isinstance(session_id, str) or len(session_id) > 200:
                raise StateFormatError("bad session_id")
            return cls(match, seats, int(d["seed"]), float(d["started_at"]), moves,
                       int(d["hints_used"]), int(d["undos_used"]), study, dict(meta), session_id)
        except StateFormatError:
            raise
        except Exception as e:  # noqa: BLE001 - malformed input becomes a clear error
            raise StateFormatError(f"malformed session: {type(e).__name__}: {e}") from None
