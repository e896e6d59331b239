"""Generic move decomposition: which cards a move involves, read from the game's own notation.

Trick-game moves are card indexes (with ``PASS_FLAG`` for passes/discards). For other games the move's
notation (``state.move_text``) lists its cards; tokens that parse as cards of the deck are the move's cards
in order (the played card first), anything else (``draw``, ``x``, a named suit) is kept as words.
"""

from __future__ import annotations

import re

from engine.cards import NotationError, bits
from engine.game import GameState
from engine.games.tricks import PASS_FLAG, TrickState

_SPLIT = re.compile(r"[\s,+>()\[\]{}:;/|*-]+")
CARD_BITS = 0xFF


def move_cards(state: GameState, move: int) -> list[int]:
    """The cards a move involves, played card first (empty for moves without cards, e.g. a draw)."""
    if isinstance(state, TrickState):
        if move & ~(CARD_BITS | PASS_FLAG):
            return []  # a special move such as Bisca's trump exchange: shown as a button
        return [move & CARD_BITS]
    name = state.game.name
    if name in ("scopone", "scopa"):
        return [move & 63] + bits(move >> 6)
    if name == "pharaoh":
        from engine.games.pharaoh.rules import play_cards

        return list(play_cards(move))
    try:
        text = state.move_text(move)
    except Exception:  # noqa: BLE001
        return []
    deck = state.game.deck
    cards: list[int] = []
    for token in _SPLIT.split(text):
        if len(token) < 2:
            continue
        try:
            c = deck.parse(token)
        except NotationError:
            continue
        if c not in cards:
            cards.append(c)
    return cards


def is_pass(move: int, state: GameState) -> bool:
    """Whether a trick-game move passes/discards a card instead of playing it."""
    return isinstance(state, TrickState) and bool(move & PASS_FLAG)


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
