"""The search's estimate of an unfinished Scopone or Scopa hand (``SearchKnowledge.evaluation``): the hand points
each side would score if the hand ended now (cards, coins, settebello, primiera, scope: the captures so far),
turned into a chance of winning by a logistic curve whose slope shrinks with the plays still to come."""

from __future__ import annotations

import math
import random
from typing import Any


def capture_evaluation(state: Any, seat: int, rng: random.Random) -> float:
    """Estimated outcome (0 loss .. 1 win) for ``seat``'s side."""
    totals = state.game.hand_totals(state.captured, state.scope)
    side = state.side_of(seat)
    lead = totals[side] - totals[1 - side]
    if state.game.lower_wins:
        lead = -lead
    x = lead / (1.0 + (state.total_plays - state.plays) / 8.0)
    return 1.0 / (1.0 + math.exp(-x))
