"""Hearts: rules, the rule-based player, greedy playouts, the inference belief ([Manzke2025] chapter 5), the
information-set abstraction ([Manzke2025] 4.1) and the difficulty presets."""

from __future__ import annotations

from engine import registry
from engine.games.hearts.abstraction import hearts_key
from engine.games.hearts.evaluation import penalty_evaluation
from engine.games.hearts.greedy import GreedyAgent, egreedy_rollout, greedy_rollout
from engine.games.hearts.inference import FEATURE_CARDS, hearts_belief
from engine.games.hearts.players import HeuristicAgent, heuristic_move
from engine.games.hearts.playouts import HeartsPlayouts
from engine.games.hearts.rules import HEART_MASK, POINT_MASK, QUEEN_SPADES, SPADES, TWO_CLUBS, Hearts, HeartsState
from engine.knowledge import SearchKnowledge

__all__ = ["HEART_MASK", "POINT_MASK", "QUEEN_SPADES", "SPADES", "TWO_CLUBS", "Hearts", "HeartsState"]

PRESETS = {  # ~10,000-13,000 it/s; relative reward ([Manzke2025] 4.2). Strong and expert play out with
    # epsilon-greedy playouts (lead low, duck, dump the queen; ~0.8x the random playouts' speed): 1.2 fewer penalty
    # points a hand than random playouts at strong's budget, and expert then gains on strong (docs/results.md)
    "beginner": "ismcts:iterations=60",
    "casual": "ismcts:iterations=400,reward=relative",
    "strong": "ismcts:iterations=1500,reward=relative,sim=egreedy",
    "expert": "ismcts:iterations=6500,seconds=1.0,reward=relative,endgame=50,sim=egreedy",
}

KNOWLEDGE = SearchKnowledge(
    policies={"heuristic": heuristic_move},
    rollouts={"greedy": greedy_rollout, "egreedy": egreedy_rollout},
    biases={"inference": hearts_belief},
    bias_features={"inference": FEATURE_CARDS},
    transposition_key=hearts_key,
    score_span=26,
    playouts=HeartsPlayouts(HeartsState),
    evaluation=penalty_evaluation,
)

registry.register(registry.GameEntry(
    "hearts", Hearts, 40, PRESETS, knowledge=KNOWLEDGE, agents={"heuristic": HeuristicAgent, "greedy": GreedyAgent},
    table="trick", summary="penalty"))
