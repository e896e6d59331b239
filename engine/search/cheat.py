"""The cheating agent: perfect-information UCT that SEES EVERY CARD (a research baseline, never fair).

``sees=hands`` narrows what it sees to every player's hand: the order of a stock (and any other hidden card
outside a hand) is sampled anew each iteration as a fair search would, so the agent measures what knowing the
other hands alone is worth (in a game without a stock it is the full cheat). ``sees=trumps`` narrows it further
to where the trumps are: every other hidden card is dealt as a fair search deals it, so the agent measures what
the best possible inference of the other players' trumps would be worth (games with a trump suit only).

With its default options it is plain UCT (:func:`engine.search.uct.uct_search`). With a simulation policy,
``sim_epsilon``, a move handler, a resolver, modelled opponents, a pruner (dipalma2014 6.4: the MCTS
simulation strategies and move handlers) or beam search (kassak2023 4.4, whose MCTS searched the true state)
it runs the ISMCTS loop (:func:`engine.search.ismcts.run_ismcts`) on one determinization, the true state, which
is the same UCT tree with the game's search knowledge."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import reduce
from operator import or_
from typing import Any

from engine.agent import Agent, Budget
from engine.cards import mask_of
from engine.game import Game, GameState, Option, VariantError
from engine.observation import HiddenSlot, Observation
from engine.search.common import Clock, exploration, search_options, to_rate
from engine.search.ismcts import (
    SIM_EPSILON,
    ISMCTSAgent,
    SearchConfig,
    check_knowledge_names,
    pick_move,
    run_ismcts,
)
from engine.search.sampler import DealSampler
from engine.search.uct import UNode, best_root_move, root_statistics, uct_search

_KNOWLEDGE_OPTIONS = ("sim", "sim_epsilon", "handler", "resolve", "opponents", "prune", "beam_width", "beam_limit")
"""The options the cheating agent shares with ISMCTS (same names, same meaning)."""
_ISMCTS_OPTIONS = {o.name: o for o in ISMCTSAgent.params}

__all__ = ["CheatingUCTAgent", "hands_shown", "trumps_shown"]


def hands_shown(state: GameState, seat: int) -> Observation:
    """``seat``'s observation of ``state`` with every other hand shown: the cards in a player's hand may go only
    to that player's hidden slots, and a stock or other ownerless slot holds only cards in nobody's hand."""
    obs = state.observation(seat)
    held = [mask_of(state.hand_cards(s)) for s in range(state.game.num_players)]
    in_hands = reduce(or_, held, 0)
    slots = [HiddenSlot(s.name, s.owner, s.count, s.allowed & (held[s.owner] | ~in_hands) if s.owner >= 0
                        else s.allowed & ~in_hands, s.ordered) for s in obs.slots]
    return Observation(obs.seat, obs.state, obs.unknown, slots)


def trumps_shown(state: GameState, seat: int) -> Observation:
    """``seat``'s observation of ``state`` with the trumps of every other hand shown: a trump may go only to the
    hidden slot of the player holding it (or, held by nobody, to a stock or other ownerless slot); every other
    card keeps the fair observation's constraints. VariantError when the hand has no trump suit."""
    trump = state.trump_suit()
    if trump is None:
        raise VariantError(f"sees=trumps needs a game with a trump suit; {state.game.name} has none here")
    obs = state.observation(seat)
    trumps = state.game.deck.suit_mask(trump)
    held = [mask_of(state.hand_cards(s)) & trumps for s in range(state.game.num_players)]
    in_hands = reduce(or_, held, 0)
    slots = [HiddenSlot(s.name, s.owner, s.count, s.allowed & (~trumps | held[s.owner]) if s.owner >= 0
                        else s.allowed & ~in_hands, s.ordered) for s in obs.slots]
    return Observation(obs.seat, obs.state, obs.unknown, slots)


_SHOWN = {"hands": hands_shown, "trumps": trumps_shown}
"""What a cheating agent that does not see everything is shown (``sees=``)."""


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
        Option("sees", "all", "what it sees: every hidden card, every hand only (a stock's order is sampled "
               "as a fair search would) or where the trumps are only (every other card is sampled as a fair "
               "search would)", choices=("all", "hands", "trumps")),
    ) + tuple(_ISMCTS_OPTIONS[name] for name in _KNOWLEDGE_OPTIONS[2:])

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
        self.sees_all = self.config["sees"] == "all"
        self.with_knowledge = (conf.sim != "random" or not self.sees_all
                               or any(self.config[k] != v for k, v in defaults.items()))
        if self.with_knowledge and self.config["shared"] == "full":
            raise VariantError("shared=full applies to plain UCT only, not with "
                               + ", ".join(_KNOWLEDGE_OPTIONS) + " or sees=hands/trumps")
        if "beam_limit" in params and not conf.beam_width:
            raise VariantError("option 'beam_limit' only applies with beam search (beam_width > 0)")

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        raise VariantError("the cheating agent needs the true state (choose_full); it cannot play fair")

    def choose_full(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> int:
        moves = state.legal_moves()
        if not moves:
            raise VariantError("no legal move: the hand is over")
        if len(moves) == 1:
            return moves[0]
        if self.with_knowledge:
            obs = state.observation(state.current_player)
            deal: Callable[[], GameState] = state.clone
            if not self.sees_all:
                sample = DealSampler(_SHOWN[str(self.config["sees"])](state, state.current_player)).deal

                def deal() -> GameState:
                    return sample(rng)
            result, _root = run_ismcts(obs, rng, self.conf, budget, deal=deal)
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
