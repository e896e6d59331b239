"""Moss Side Whist ([Huang]): rules, the rule-based player with DLS discards and the ESE belief, greedy playouts
and the difficulty presets."""

from __future__ import annotations

from engine import registry
from engine.games.mosssidewhist.evaluation import tricks_evaluation
from engine.games.mosssidewhist.greedy import GreedyAgent, egreedy_rollout, greedy_rollout
from engine.games.mosssidewhist.players import (
    HeuristicAgent,
    dls_discard_rule,
    heuristic_move,
    random_discard_rule,
    whist_ese_bias,
)
from engine.games.mosssidewhist.rules import MossSideWhist, MossSideWhistState
from engine.games.tricks.playouts import TrickPlayouts
from engine.knowledge import SearchKnowledge

__all__ = ["MossSideWhist", "MossSideWhistState"]

PRESETS = {  # ~23,000 it/s of one idle core: strong's 5,000 iterations take ~0.21 s at the opening (it scores
    # 65.6% against `pimc` where 2,000 scored 61.7%), expert's 14,000 ~0.67 s (docs/results.md, the ladder)
    "beginner": "ismcts:iterations=60",
    "casual": "ismcts:iterations=400",
    "strong": "ismcts:iterations=5000",
    "expert": "ismcts:iterations=14000,seconds=1.0,endgame=50",
}

KNOWLEDGE = SearchKnowledge(
    policies={"heuristic": heuristic_move},
    rollouts={"greedy": greedy_rollout, "egreedy": egreedy_rollout},
    biases={"ese": whist_ese_bias},
    rules={"dls": dls_discard_rule, "random": random_discard_rule},
    playouts=TrickPlayouts(MossSideWhistState),
    evaluation=tricks_evaluation,
)

registry.register(registry.GameEntry(
    "mosssidewhist", MossSideWhist, 50, PRESETS, knowledge=KNOWLEDGE,
    agents={"heuristic": HeuristicAgent, "greedy": GreedyAgent},
    table="trick", summary="whist"))
