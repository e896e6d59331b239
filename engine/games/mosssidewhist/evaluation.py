"""The search's estimate of an unfinished Moss Side Whist hand (``SearchKnowledge.evaluation``): the chance that
the seat's tricks over its target beat each other seat's, from the tricks won so far and those still to play,
taken as independent logistic comparisons."""

from __future__ import annotations

import math
import random
from typing import Any


def tricks_evaluation(state: Any, seat: int, rng: random.Random) -> float:
    """Estimated outcome (0 loss .. 1 win) for ``seat``."""
    points = [t - 4 for t in state.tricks_won]
    points[state.hand_leader] -= 4
    left = sum(h.bit_count() for h in state.hands) / 3.0
    scale = 0.75 + left / 4.0
    mine = points[seat]
    value = 1.0
    for other, p in enumerate(points):
        if other != seat:
            value /= 1.0 + math.exp((p - mine) / scale)
    return value
