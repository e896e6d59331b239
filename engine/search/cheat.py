"""The cheating agent: perfect-information UCT that SEES EVERY CARD (a research baseline, never fair).

With its default options it is plain UCT (:func:`engine.search.uct.uct_search`). With a simulation policy,
``sim_epsilon``, a move handler, a resolver, modelled opponents or a pruner (dipalma2014 6.4: the MCTS
simulation strategies and move handlers) it runs the ISMCTS loop (:func:`engine.search.ismcts.run_ismcts`) on
one determinization, the true state, which is the same UCT tree with the game's search knowledge."""

from __future__ import annotations

import random
from typing import Any

from engine.agent import Agent, Budget
from engine.game import Game, GameState, Option, VariantError
from engine.observation import Observation
from engine.search.common import Clock, exploration, search_options, to_rate
from engine.search.ismcts import (
    SIM_EPSILON,
    ISMCTSAgent,
    SearchConfig,
    check_knowledge_names,
    pick_move,
    run_ismcts,
)
from engine.search.uct import UNode, best_root_move, root_statistics, uct_search

_KNOWLEDGE_OPTIONS = ("sim", "sim_epsilon", "handler", "resolve", "opponents", "prune")
"""The options the cheating agent shares with ISMCTS (same names, same meaning)."""
_ISMCTS_OPTIONS = {o.name: o for o in ISMCTSAgent.params}

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
        Option("sim", "random", "simulation policy: random, or a policy registered in the game's search knowledge "
               "(e.g. Scopone greedy, egreedy, cardrandom: dipalma2014 GS, EGS, CRS)", type=str),
        SIM_EPSILON,
    ) + tuple(_ISMCTS_OPTIONS[name] for name in ("handler", "resolve", "opponents", "prune"))

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.c = exploration(float(self.config["c"]), game)
        cfg = {name: option.default for name, option in _ISMCTS_OPTIONS.items()}
        cfg.update(self.config)
        self.conf = SearchConfig(game, cfg)
        conf = self.conf
        if conf.sim == "nast":
            raise VariantError("the cheating agent's sim= is random or one of the game's policies, not nast")
        if conf.resolve and not conf.handler:
            raise VariantError("option 'resolve' only applies with a move handler (handler=...)")
        check_knowledge_names(game.name, conf)
        defaults = {name: _ISMCTS_OPTIONS[name].default for name in _KNOWLEDGE_OPTIONS if name != "sim"}
        self.with_knowledge = conf.sim != "random" or any(self.config[k] != v for k, v in defaults.items())
        if self.with_knowledge and self.config["shared"] == "full":
            raise VariantError("shared=full applies to plain UCT only, not with sim, sim_epsilon, handler, "
                               "resolve, opponents or prune")

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        raise VariantError("the cheating agent needs the true state (choose_full); it cannot play fair")

    def choose_full(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> int:
        moves = state.legal_moves()
        if not moves:
            raise VariantError("no legal move: the hand is over")
        if len(moves) == 1:
            return moves[0]
        if self.with_knowledge:
            result, _root = run_ismcts(state.observation(state.current_player), rng, self.conf, budget,
                                       deal=state.clone)
            return pick_move(result, state, moves, rng, self.conf)
        clock = Clock(int(self.config["iterations"]), float(self.config["seconds"]), budget, str(self.config["clock"]))
        reward = str(self.config["reward"])

        def report(iterations: int, root: UNode) -> None:
            clock.maybe_report(iterations, lambda: best_root_move(*root_statistics(root), reward))

        visits, totals, n = uct_search(state, rng, clock, self.c, reward, shared_full=self.config["shared"] == "full",
                                       progress=report if clock.on_progress is not None else None)
        best = max(moves, key=lambda m: (visits.get(m, 0), totals.get(m, 0.0)))
        rate = to_rate(reward, totals[best] / visits[best]) if visits.get(best) else None
        clock.final_report(n, best, rate)
        return best
