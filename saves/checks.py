"""Meaning checks of a loaded session, beyond its format: a hand-edited save whose checksum still matches can
hold values no game produces (a hand index of -1, dealer 99). The engine checks each hand's state
(``Game.state_from_json`` runs ``GameState.validate``); these checks cover the match around it."""

from __future__ import annotations

from engine.game import Game, StateFormatError
from engine.match import MAX_HANDS
from saves.limits import spec_problem
from saves.session import GameSession

__all__ = ["MAX_HANDS", "SessionMeaningError", "check_session"]


class SessionMeaningError(ValueError):
    """A session whose content is impossible; the message names the value and the valid range."""


def check_session(session: GameSession) -> None:
    """Raise :class:`SessionMeaningError` when the session's match, moves or counters are impossible."""
    match = session.match
    game = match.game
    players = game.num_players
    try:
        match.validate()  # dealer, hand index and scored hands (engine/match.py)
    except StateFormatError as e:
        raise SessionMeaningError(str(e)) from None
    if len(session.moves) > match.hand_index + 1:
        raise SessionMeaningError(f"moves of {len(session.moves)} hands recorded at hand {match.hand_index + 1}")
    if session.hints_used < 0 or session.undos_used < 0:
        raise SessionMeaningError("hints or undos used are negative")
    if not match.state.is_terminal():
        player = match.state.current_player
        if not 0 <= player < players:
            raise SessionMeaningError(f"the player to move ({player}) is not a seat (0 to {players - 1})")
        if not match.state.legal_moves():
            raise SessionMeaningError("the player to move has no legal move")
    for i, seat in enumerate(session.seats):
        problem = spec_problem(seat.spec) if seat.kind == "ai" and seat.spec else None
        if problem:
            raise SessionMeaningError(f"seat {i}: {problem}")
    if not any(_dealer_after(game, d, match.hand_index) == match.dealer for d in range(players)):
        raise SessionMeaningError(f"dealer {match.dealer} cannot deal hand {match.hand_index + 1}")


def _dealer_after(game: Game, first: int, hands: int) -> int:
    dealer = first
    for _ in range(hands):
        dealer = game.next_dealer(dealer)
    return dealer
