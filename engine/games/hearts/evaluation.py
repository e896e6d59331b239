"""The search's estimate of an unfinished Hearts hand (``SearchKnowledge.evaluation``): the chance that the seat
ends with fewer penalty points than each other seat, taken as independent logistic comparisons of each seat's
expected penalty: the points it has taken plus the danger of the cards it holds (passed cards count with the seat
that receives them): the Queen of Spades while it is in play, the Ace and King of spades that may catch it, and
the high hearts."""

from __future__ import annotations

import math
import random
from typing import Any

from engine.games.hearts.rules import HEART_MASK, QUEEN_SPADES

QUEEN_DANGER = 6.0
"""Expected penalty of holding the Queen of Spades (13 points, often passed on or dumped, sometimes taken)."""
HIGH_SPADE_DANGER = 2.0
"""Expected penalty of holding the King or Ace of spades while the Queen is still in play elsewhere."""
HEART_DANGER = 0.3
"""Expected penalty per rank above the 8 of each heart held."""

_QUEEN_BIT = 1 << QUEEN_SPADES
_HIGH_SPADES = (1 << QUEEN_SPADES + 1) | (1 << QUEEN_SPADES + 2)
_HEART_BASE = 2 * 13  # hearts are the third suit of the French deck: 2H is card 26


def _danger(hand: int, queen_elsewhere: bool) -> float:
    d = 0.0
    if hand & _QUEEN_BIT:
        d += QUEEN_DANGER
    elif queen_elsewhere:
        d += HIGH_SPADE_DANGER * (hand & _HIGH_SPADES).bit_count()
    hearts = (hand & HEART_MASK) >> _HEART_BASE
    while hearts:
        low = hearts & -hearts
        rank = low.bit_length() - 1
        if rank > 6:
            d += HEART_DANGER * (rank - 6)
        hearts ^= low
    return d


def penalty_evaluation(state: Any, seat: int, rng: random.Random) -> float:
    """Estimated outcome (0 loss .. 1 win) for ``seat``."""
    won = state.won
    taken = [(w & HEART_MASK).bit_count() + (13 if w >> QUEEN_SPADES & 1 else 0) for w in won]
    hands = list(state.hands)
    if state.passing:
        for s, cards in enumerate(state.passed):
            hands[state.pass_target(s)] |= cards
    queen_in_play = not any(w & _QUEEN_BIT for w in won)
    expected = [taken[s] + _danger(hands[s], queen_in_play and not hands[s] & _QUEEN_BIT) for s in range(4)]
    scale = 1.5 + (26 - sum(taken)) / 6.0
    mine = expected[seat]
    value = 1.0
    for other, points in enumerate(expected):
        if other != seat:
            value /= 1.0 + math.exp((mine - points) / scale)
    return value
