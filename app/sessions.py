"""New match sessions for the table (no drawing): AI seats get their difficulty preset's agent SPEC."""

from __future__ import annotations

import random

from app import workers
from engine import registry
from engine.game import Game
from engine.match import Match
from saves.session import GameSession, Seat


def new_session(game: Game, seats: list[Seat], seed: int | None = None) -> GameSession:
    """A fresh match session with AI specs filled from their presets (``seed`` None: a random one)."""
    if seed is None:
        seed = random.SystemRandom().getrandbits(62)
    for s in seats:
        if s.kind == "ai" and not s.spec:
            s.spec = workers.preset_spec(game.name, s.preset or "casual")
    return GameSession(Match.start(game, seed), seats, seed)


def rematch(session: GameSession, seed: int | None = None) -> GameSession:
    """A new match of the same game, variant and seats (the seats' presets give their agents again)."""
    game = registry.create(session.match.game.name, dict(session.match.game.variant))
    seats = [Seat(s.kind, s.name, s.spec if not s.preset else "", s.preset, s.display_name) for s in session.seats]
    return new_session(game, seats, seed)
