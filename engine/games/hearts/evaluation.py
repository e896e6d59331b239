"""The search's estimate of an unfinished Hearts hand (``SearchKnowledge.evaluation``): the chance that the seat
ends with fewer penalty points than each other seat, from the penalties taken so far (hearts and the Queen of
Spades) and those still in play, taken as independent logistic comparisons."""

from __future__ import annotations

import math
import random
from typing import Any

from engine.games.hearts.rules import HEART_MASK, QUEEN_SPADES


def penalty_evaluation(state: Any, seat: int, rng: random.Random) -> float:
    """Estimated outcome (0 loss .. 1 win) for ``seat``."""
    taken = [(w & HEART_MASK).bit_count() + (13 if w >> QUEEN_SPADES & 1 else 0) for w in state.won]
    scale = 1.5 + (26 - sum(taken)) / 6.0
    mine = taken[seat]
    value = 1.0
    for other, points in enumerate(taken):
        if other != seat:
            value /= 1.0 + math.exp((mine - points) / scale)
    return value
