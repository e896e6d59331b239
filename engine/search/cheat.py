"""The cheating agent: perfect-information UCT that SEES EVERY CARD (a research baseline, never fair)."""

from __future__ import annotations

import random
from typing import Any

from engine.agent import Agent, Budget
from engine.game import Game, GameState, Option, VariantError
from engine.observation import Observation
from engine.search.common import Clock, exploration, search_options, to_rate
from engine.search.uct import UNode, best_root_move, root_statistics, uct_search

__all__ = ["CheatingUCTAgent"]


class CheatingUCTAgent(Agent):
    """UCT on the true state: it knows every hidden card (CHEATING - research baseline only)."""

    name = "cheat"
    description = "CHEATING research baseline: UCT that sees every player's cards (never a fair opponent)"
    fair = False
    params = search_options(1000) + (
        Option("shared", "half", "PWL/WL reward of a shared first place (several Hearts players on the lowest "
               "score): half a win, or full = a win for each (the fernandes2016 ch. 6 definition of a winner)",
               choices=("half", "full")),
    )

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.c = exploration(float(self.config["c"]), game)

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        raise VariantError("the cheating agent needs the true state (choose_full); it cannot play fair")

    def choose_full(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> int:
        moves = state.legal_moves()
        if not moves:
            raise VariantError("no legal move: the hand is over")
        if len(moves) == 1:
            return moves[0]
        clock = Clock(int(self.config["iterations"]), float(self.config["seconds"]), budget)
        reward = str(self.config["reward"])

        def report(iterations: int, root: UNode) -> None:
            clock.maybe_report(iterations, lambda: best_root_move(*root_statistics(root), reward))

        visits, totals, n = uct_search(state, rng, clock, self.c, reward, shared_full=self.config["shared"] == "full",
                                       progress=report if clock.on_progress is not None else None)
        best = max(moves, key=lambda m: (visits.get(m, 0), totals.get(m, 0.0)))
        rate = to_rate(reward, totals[best] / visits[best]) if visits.get(best) else None
        clock.final_report(n, best, rate)
        return best
