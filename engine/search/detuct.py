"""Determinized UCT (perfect-information Monte Carlo, fernandes2016 5.1): several determinizations of the
observation, one UCT tree each, and a majority vote of the trees' most visited moves.

The ``iterations`` budget is a total over all trees: each tree gets ``iterations // trees``. Figures that
count iterations per tree (fernandes2016 figure 6.1) correspond to ``iterations = per-tree count x trees``."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from engine.agent import Agent, Budget
from engine.determinize import determinize
from engine.game import Game, Option, VariantError
from engine.observation import Observation
from engine.search.common import Clock, exploration, search_options, to_rate
from engine.search.uct import UNode, best_root_move, uct_search

__all__ = ["DeterminizedUCTAgent"]

ITERATIONS_HELP = ("iterations in total over all trees (each tree gets iterations/trees; for a per-tree count "
                   "as in fernandes2016 figure 6.1, multiply it by trees); 0 = use 'seconds' only")


def _detuct_options() -> tuple[Option, ...]:
    """The UCT options, with the iteration budget described as the total over all trees."""
    shared = tuple(dataclasses.replace(o, help=ITERATIONS_HELP) if o.name == "iterations" else o
                   for o in search_options(1000))
    return shared + (
        Option("trees", 10, "number of determinizations (one UCT tree each; they share the iteration budget)",
               type=int, min=1, max=10_000),
    )


class DeterminizedUCTAgent(Agent):
    """Determinized UCT: ``trees`` deals x (iterations / trees) UCT iterations, majority vote."""

    name = "detuct"
    description = "determinized UCT (fair): votes over UCT searches of sampled deals"
    params = _detuct_options()

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
        reward = str(self.config["reward"])
        clock = Clock(int(self.config["iterations"]), float(self.config["seconds"]), budget, str(self.config["clock"]))
        per_tree = max(1, clock.iterations // trees) if clock.iterations < (1 << 60) else None
        votes: dict[int, int] = {}
        visits: dict[int, int] = {}
        totals: dict[int, float] = {}

        def report(iterations: int, root: UNode) -> None:
            """Progress over every tree so far: the move most visited in all of them, its win rate."""
            clock.maybe_report(iterations, lambda: self._leader(visits, totals, root))

        progress = report if clock.on_progress is not None else None
        done = 0
        for t in range(trees):
            if clock.done(done):
                break
            d = determinize(obs, rng)
            cap = per_tree
            if cap is None and clock.timed:
                # Time budget only: share the remaining time evenly between the remaining trees.
                sub = Clock(0, max(1e-3, clock.left() / (trees - t)), Budget(cancel=clock.cancel),
                            str(self.config["clock"]))
                v, tot, n = uct_search(d, rng, sub, self.c, reward, progress=progress, progress_offset=done)
            else:
                v, tot, n = uct_search(d, rng, clock, self.c, reward, iteration_offset=done, max_iterations=cap,
                                       progress=progress)
            done += n
            if v:
                top = max(v, key=lambda m: (v[m], tot[m]))
                votes[top] = votes.get(top, 0) + 1
                for m, k in v.items():
                    visits[m] = visits.get(m, 0) + k
                    totals[m] = totals.get(m, 0.0) + tot[m]
        best, rate = self._best(votes, visits, totals, moves)
        clock.final_report(done, best, rate)
        return best if best is not None else moves[int(rng.random() * len(moves))]

    def _leader(self, visits: dict[int, int], totals: dict[int, float],
                root: UNode) -> tuple[int | None, float | None]:
        """The move with the most root visits summed over the finished trees and the current ``root``."""
        summed = dict(visits)
        summed_totals = dict(totals)
        for ch in root.children:
            if ch.move is None:
                continue
            summed[ch.move] = summed.get(ch.move, 0) + ch.visits
            summed_totals[ch.move] = summed_totals.get(ch.move, 0.0) + ch.total
        return best_root_move(summed, summed_totals, str(self.config["reward"]))

    def _best(self, votes: dict[int, int], visits: dict[int, int], totals: dict[int, float],
              moves: list[int]) -> tuple[int | None, float | None]:
        """The decision: most votes, then most visits, then the highest total reward."""
        if not visits:
            return None, None
        best = max(moves, key=lambda m: (votes.get(m, 0), visits.get(m, 0), totals.get(m, 0.0)))
        n = visits.get(best, 0)
        return best, (to_rate(str(self.config["reward"]), totals[best] / n) if n else None)
