"""The search's estimates of an unfinished Scopone or Scopa hand, from the hand points each side would score if the
hand ended now (cards, coins, settebello, primiera, scope: the captures so far): ``SearchKnowledge.evaluation``
turns the lead into a chance of winning by a logistic curve whose slope shrinks with the plays still to come;
``SearchKnowledge.match_evaluation`` into the ``match`` reward, the sweeps counted in full (they are scored) and
the rest of the lead shrunk the same way (the cards still to come can turn it)."""

from __future__ import annotations

import math
import random
from typing import Any


def _shrink(state: Any) -> float:
    """How much the plays still to come may turn a lead in captured points: leads are divided by it."""
    return 1.0 + (state.total_plays - state.plays) / 8.0


def capture_evaluation(state: Any, seat: int, rng: random.Random) -> float:
    """Estimated outcome (0 loss .. 1 win) for ``seat``'s side."""
    totals = state.game.hand_totals(state.captured, state.scope)
    side = state.side_of(seat)
    lead = totals[side] - totals[1 - side]
    if state.game.lower_wins:
        lead = -lead
    x = lead / _shrink(state)
    return 1.0 / (1.0 + math.exp(-x))


def match_evaluation(state: Any, seat: int, rng: random.Random) -> float:
    """Estimated ``match`` reward for ``seat``'s side: 0.5 plus half its expected lead in hand points (the
    outcome estimate where the variant plays single hands)."""
    game = state.game
    if not game.match_target():
        return capture_evaluation(state, seat, rng)
    totals = game.hand_totals(state.captured, state.scope)
    side = state.side_of(seat)
    sweeps = state.scope[side] - state.scope[1 - side]
    lead = sweeps + (totals[side] - totals[1 - side] - sweeps) / _shrink(state)
    if game.lower_wins:
        lead = -lead
    return 0.5 + lead / 2.0
