"""The search's estimate of an unfinished Pharaoh hand (``SearchKnowledge.evaluation``): the first seat to shed
its cards wins, so the seat's chance is taken from how many cards it holds against each other seat (independent
logistic comparisons); a hand someone has already won is decided."""

from __future__ import annotations

import math
import random
from typing import Any

CARD_SCALE = 1.5
"""Cards of difference that make one seat about 2.7 times as likely as another to shed first."""


def cards_left_evaluation(state: Any, seat: int, rng: random.Random) -> float:
    """Estimated outcome (0 loss .. 1 win) for ``seat``."""
    if state.finished:
        return 1.0 if state.finished[0] == seat else 0.0
    counts = state.counts
    mine = counts[seat]
    value = 1.0
    for other, count in enumerate(counts):
        if other != seat:
            value /= 1.0 + math.exp((mine - count) / CARD_SCALE)
    return value
