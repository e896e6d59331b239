"""Generic move decomposition: which cards a move involves (the engine's ``GameState.move_cards``)."""

from __future__ import annotations

from engine.game import GameState


def move_cards(state: GameState, move: int) -> list[int]:
    """The cards a move involves, played card first (empty for moves without cards, e.g. a draw)."""
    return list(state.move_cards(move))


def group_by_card(state: GameState, moves: list[int]) -> tuple[dict[int, list[int]], list[int]]:
    """Moves grouped by their first card, plus the moves without any card."""
    by_card: dict[int, list[int]] = {}
    other: list[int] = []
    for m in moves:
        cards = move_cards(state, m)
        if cards:
            by_card.setdefault(cards[0], []).append(m)
        else:
            other.append(m)
    return by_card, other


def filter_moves(state: GameState, candidates: list[int], picked: list[int], ordered: bool) -> list[int]:
    """Candidates consistent with the extra cards ``picked`` (as a prefix after the first card when ordered)."""
    out = []
    for m in candidates:
        cards = move_cards(state, m)
        if ordered:
            if cards[1:1 + len(picked)] == picked:
                out.append(m)
        elif all(p in cards[1:] for p in picked):
            out.append(m)
    return out


def pass_move(state: GameState, card: int) -> int | None:
    """The legal move that passes or discards ``card`` (None when there is none)."""
    for m in state.legal_moves():
        if state.is_pass_move(m) and state.move_cards(m)[:1] == (card,):
            return m
    return None


def named_suit(state: GameState, move: int) -> int | None:
    """The suit a move names (``GameState.named_suit``: a Pharaoh Ober), or None."""
    return state.named_suit(move)
