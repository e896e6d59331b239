"""The search's estimate of an unfinished Sueca, Bisca or Briscola hand (``SearchKnowledge.evaluation``): the
chance that the seat's side ends with more than half of the card points, from the points each side has taken
and those still open (a logistic curve whose slope shrinks as more points are open)."""

from __future__ import annotations

import math
import random
from typing import Any


def card_points_evaluation(state: Any, seat: int, rng: random.Random) -> float:
    """Estimated outcome (0 loss .. 1 win) for ``seat``'s side."""
    sides = state.side_points()
    return points_value(sides[seat % 2], sides[1 - seat % 2], state.game.total_points)


def points_value(mine: int, theirs: int, total: int) -> float:
    """The estimate from the card points a side has taken (``mine``), the other side's and the hand's ``total``."""
    x = (mine - theirs) / (4.0 + 0.25 * (total - mine - theirs))
    return 1.0 / (1.0 + math.exp(-x))
