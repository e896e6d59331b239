"""Determinized UCT (perfect-information Monte Carlo, seeds/000 5.1): several determinizations of the
observation, one UCT tree each, and a majority vote of the trees' most visited moves."""

from __future__ import annotations

import random
import time
from typing import Any

from engine.agents.base import Agent, Budget
from engine.determinize import determinize
from engine.game import Game, Option, VariantError
from engine.observation import Observation
from engine.search.common import Clock, exploration, search_options, to_rate
from engine.search.uct import uct_search

__all__ = ["DeterminizedUCTAgent"]


class DeterminizedUCTAgent(Agent):
    """Determinized UCT: ``trees`` deals x (iterations / trees) UCT iterations, majority vote."""

    name = "detuct"
    description = "determinized UCT (fair): votes over UCT searches of sampled deals"
    params = search_options(1000) + (
        Option("trees", 10, "number of determinizations (one UCT tree each)", type=int, min=1, max=10_000),
    )

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.c = exploration(float(self.config["c"]), game)

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        moves = obs.legal_moves()
        if not moves:
            raise VariantError("no legal move: the hand is over or it is not this seat's turn")
        if len(moves) == 1:
            return moves[0]
        trees = int(self.config["trees"])
        clock = Clock(int(self.config["iterations"]), float(self.config["seconds"]), budget)
        per_tree = max(1, clock.iterations // trees) if clock.iterations < (1 << 60) else None
        votes: dict[int, int] = {}
        visits: dict[int, int] = {}
        totals: dict[int, float] = {}
        done = 0
        for t in range(trees):
            if clock.done(done):
                break
            d = determinize(obs, rng)
            cap = per_tree
            if cap is None and clock.timed:
                # Time budget only: share the remaining time evenly between the remaining trees.
                left = clock.deadline - time.perf_counter()
                sub = Clock(0, max(1e-3, left / (trees - t)), Budget(cancel=clock.cancel))
                v, tot, n = uct_search(d, rng, sub, self.c, str(self.config["reward"]))
            else:
                v, tot, n = uct_search(d, rng, clock, self.c, str(self.config["reward"]),
                                       iteration_offset=done, max_iterations=cap)
            done += n
            if v:
                top = max(v, key=lambda m: (v[m], tot[m]))
                votes[top] = votes.get(top, 0) + 1
                for m, k in v.items():
                    visits[m] = visits.get(m, 0) + k
                    totals[m] = totals.get(m, 0.0) + tot[m]
            clock.maybe_report(16 * (done // 16 + 1) if done & 15 else done, lambda: self._best(votes, visits,
                                                                                                totals, moves))
        best, rate = self._best(votes, visits, totals, moves)
        clock.final_report(done, best, rate)
        return best if best is not None else moves[int(rng.random() * len(moves))]

    def _best(self, votes: dict[int, int], visits: dict[int, int], totals: dict[int, float],
              moves: list[int]) -> tuple[int | None, float | None]:
        if not visits:
            return None, None
        best = max(moves, key=lambda m: (votes.get(m, 0), visits.get(m, 0), totals.get(m, 0.0)))
        n = visits.get(best, 0)
        return best, (to_rate(str(self.config["reward"]), totals[best] / n) if n else None)
