"""Pharaoh (Slovak Faraon; [Kassak2023]): rules, the rule-based players, the pruned playouts and move pruners of
the search ([Kassak2023] 4.4) and the difficulty presets."""

from __future__ import annotations

from engine import registry
from engine.games.pharaoh.evaluation import cards_left_evaluation
from engine.games.pharaoh.players import (
    AnnoyingAgent,
    BacktrackAgent,
    BiggestAgent,
    HeuristicAgent,
    SmallestAgent,
    pharaoh_biggest_policy,
    pharaoh_smallest_policy,
    play_first_rollout,
    play_random_rollout,
    play_smallest_rollout,
    prune_biggest,
    prune_play,
    prune_smallest,
    pruned_random_rollout,
)
from engine.games.pharaoh.rules import DRAW, PLAY, SKIP, Pharaoh, PharaohState, named_suit
from engine.knowledge import SearchKnowledge, StatePlayouts

__all__ = ["DRAW", "PLAY", "SKIP", "Pharaoh", "PharaohState", "named_suit"]

PRESETS = {  # random playouts run ~260 plies (~700 it/s); the pruned playouts of [Kassak2023] 4.4 (no draw while
    # a play exists; smallest whole same-rank groups) run ~8,000-10,000 it/s and win more. Above beginner the
    # search is rewarded by places (reward=score), so it plays on for second place once someone is out
    # (docs/results.md).
    "beginner": "ismcts:iterations=60,sim=play-first",
    "casual": "ismcts:iterations=400,sim=play-smallest,prune=smallest,reward=score",
    "strong": "ismcts:iterations=1500,sim=play-smallest,prune=smallest,reward=score",
    "expert": "ismcts:iterations=6000,seconds=1.0,sim=play-smallest,prune=smallest,reward=score",
}

KNOWLEDGE = SearchKnowledge(
    policies={"smallest": pharaoh_smallest_policy, "biggest": pharaoh_biggest_policy},
    rollouts={"prune-random": pruned_random_rollout, "play-random": play_random_rollout,
              "play-first": play_first_rollout, "play-smallest": play_smallest_rollout},
    pruners={"smallest": prune_smallest, "biggest": prune_biggest, "play": prune_play},
    evaluation=cards_left_evaluation,
    default_simulation="play-smallest",
    playouts=StatePlayouts(PharaohState),
)

registry.register(registry.GameEntry(
    "pharaoh", Pharaoh, 80, PRESETS, knowledge=KNOWLEDGE,
    agents={"heuristic": HeuristicAgent, "biggest": BiggestAgent, "smallest": SmallestAgent,
            "annoying": AnnoyingAgent, "backtrack": BacktrackAgent},
    table="shedding", summary="shedding"))
