"""Small helpers that build and play sessions with AI seats (tests, the crash test's child process, demos)."""

from __future__ import annotations

from typing import Any

from engine import agents, registry
from engine.agent import Agent
from saves.session import GameSession, Seat


def demo_session(seed: int = 1, game: str = "", variant: dict[str, Any] | None = None,
                 human_seat: int | None = 0, spec: str = "random") -> GameSession:
    """A new session of ``game`` (default: the first game of the menu): a human at ``human_seat`` (None = all
    AI) and ``spec`` AIs elsewhere."""
    g = registry.create(game or registry.names()[0], variant)
    seats = [Seat("human", "Tester") if i == human_seat else
             Seat("ai", f"AI {i}", spec=spec, display_name=f"Opponent {chr(ord('A') + i)}")
             for i in range(g.num_players)]
    return GameSession.start(g, seats, seed)


def make_agents(session: GameSession, spec: str = "random") -> list[Agent]:
    """One agent per seat (human seats too, so a test can play them automatically)."""
    return [agents.make(s.spec or spec, session.match.game) for s in session.seats]


def step(session: GameSession, players: list[Agent]) -> bool:
    """Make one move (or deal the next hand when the current one is over). False when the match is over.

    Every seat is played by ``players`` with ``session.ai_rng()``, so the same session always continues
    the same way.
    """
    match = session.match
    if match.state.is_terminal():
        match.finish_hand()
        if match.over:
            return False
        session.next_hand()
        return True
    seat = match.state.current_player
    move = players[seat].choose(match.state.observation(seat), session.ai_rng())
    session.apply(move)
    return True


def play_to_end(session: GameSession, players: list[Agent] | None = None, max_steps: int = 100_000) -> None:
    """Play the session until the match is over (all seats by ``players``, default random)."""
    players = players or make_agents(session)
    for _ in range(max_steps):
        if not step(session, players):
            return
    raise RuntimeError("the match did not end")
