"""The parts of one ISMCTS search, chosen once from its configuration before the first iteration.

:func:`engine.search.ismcts.run_ismcts` runs the same loop for every option; what the options change is
resolved here into plain functions that the loop calls without testing a flag:

* determinization (:func:`determinizer`): a new deal per iteration, uniform or biased, or one of a fixed set;
* the tree's moves at a node (:func:`tree_moves`): every legal move, the pruned ones, or the other seats'
  policy move only (dipalma2014 GOH);
* branching (:func:`branching`): one branch per move, or per move-handler key with a resolver choosing the
  concrete move (dipalma2014 AMH/OCH);
* expansion (:func:`expansion`): a new node per edge, or a transposition table sharing the nodes of equal
  (abstracted) information sets (manzke2025 4.3);
* simulation and reward (:func:`playout`): the game's fast random playouts, its rollouts and policies or NAST,
  followed by the reward of every seat (:func:`engine.search.common.reward_function`); or no playout, the game's
  evaluation of the new node (``sim=eval``, the horizon estimate of :mod:`engine.search.pimc`), or with
  ``eval_depth`` the value ``pimc``'s search of the determinization gives it (ISMCTS with PIMC leaves).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any, Protocol

from engine.game import Game, GameState
from engine.knowledge import EvaluationFn, Playouts
from engine.observation import Observation
from engine.search import knowledge
from engine.search.common import NAST, reward_function
from engine.search.pimc import leaf_search
from engine.search.sampler import DealSampler

__all__ = ["Branching", "Expansion", "Options", "Playout", "TreeMoves", "branching", "determinizer", "expansion",
           "playout", "tree_moves"]

TreeMoves = Callable[[GameState], list[int]]
Branching = Callable[[GameState, list[int]], dict[Hashable, list[int]]]
Playout = Callable[[GameState, list[tuple[int, int]] | None], list[float]]


class Options(Protocol):
    """The configuration fields the strategies read (:class:`engine.search.ismcts.SearchConfig`)."""

    game_name: str
    reward: str
    sim: str
    sim_epsilon: float
    eval_plies: int
    eval_depth: int
    eval_nodes: int
    dets: int
    bias: str
    handler: str
    opponents: str
    resolve: str
    prune: str
    transpositions: bool
    shared_stats: bool


def determinizer(obs: Observation, rng: random.Random, conf: Options) -> Callable[[], GameState]:
    """A fresh determinization of ``obs`` per call: a new deal (biased by the game's belief ``conf.bias`` if
    set), or a copy of one of ``conf.dets`` deals drawn now."""
    bias_matrix = knowledge.bias(conf.game_name, conf.bias)(obs) if conf.bias else None
    sampler = DealSampler(obs, bias_matrix)
    if conf.dets > 0:
        fixed = [sampler.deal(rng) for _ in range(conf.dets)]
        rand = rng.random
        count = len(fixed)
        return lambda: fixed[int(rand() * count)].clone()
    deal = sampler.deal
    return lambda: deal(rng)


def tree_moves(obs: Observation, rng: random.Random, conf: Options) -> TreeMoves:
    """The moves the tree offers at a node: the legal ones, less those the game's pruner ``conf.prune`` drops,
    and for the other seats only their policy's move when ``conf.opponents`` is set."""
    legal: TreeMoves = type(obs.state).legal_moves
    if conf.prune:
        prune = knowledge.pruner(conf.game_name, conf.prune)
        plain = legal

        def legal(d: GameState) -> list[int]:
            moves = plain(d)
            return prune(d, moves) if len(moves) > 1 else moves

    if not conf.opponents:
        return legal
    policy = knowledge.policy(conf.game_name, conf.opponents)
    observer = obs.seat
    own = legal

    def moves_with_modelled_opponents(d: GameState) -> list[int]:
        if d.current_player != observer:
            return [policy(d, rng)]
        return own(d)

    return moves_with_modelled_opponents


def branching(rng: random.Random, conf: Options) -> tuple[Branching | None, Callable[[GameState, list[int]], int]]:
    """``(group, concrete)``: ``group(d, moves)`` maps each branch key to its moves (None: every move is its own
    branch) and ``concrete(d, moves)`` picks the move played for a branch (the game's resolver ``conf.resolve``,
    else a uniformly random one)."""
    rand = rng.random
    resolve = knowledge.resolver(conf.game_name, conf.resolve) if conf.resolve else None

    def concrete(d: GameState, group: list[int]) -> int:
        if len(group) == 1:
            return group[0]
        if resolve is not None:
            return resolve(d, group, rng)
        return group[int(rand() * len(group))]

    if not conf.handler:
        return None, concrete
    handler = knowledge.move_handler(conf.game_name, conf.handler)

    def group(d: GameState, moves: list[int]) -> dict[Hashable, list[int]]:
        groups: dict[Hashable, list[int]] = {}
        for m in moves:
            groups.setdefault(handler(d, m), []).append(m)
        return groups

    return group, concrete


class Expansion(Protocol):
    """``expand(node, key, seat, d) -> (child, known)``: the child of ``node`` for branch ``key`` after ``seat``
    moved in ``d``, and whether it is an information set already in the tree (the descent then goes on)."""

    def __call__(self, node: Any, key: Hashable, seat: int, d: GameState) -> tuple[Any, bool]: ...


def expansion(obs: Observation, conf: Options, node_class: Any, root: Any,
              generic_key: Callable[[GameState, int], Hashable]) -> Expansion:
    """How the descent adds a node: always a new child, or with ``conf.transpositions`` the node of the (abstracted)
    information set when the table knows it (``conf.shared_stats``: the parent reads the shared node's
    statistics; else a new edge with its own statistics into the shared children)."""
    if not conf.transpositions:
        def new_child(node: Any, key: Hashable, seat: int, d: GameState) -> tuple[Any, bool]:
            child = node_class(key, seat, node)
            node.children[key] = child
            return child, False

        return new_child
    keyfn = knowledge.transposition_key(conf.game_name) or generic_key
    observer = obs.seat
    table: dict[Hashable, Any] = {keyfn(obs.state, observer): root}
    shared_stats = conf.shared_stats

    def transposed(node: Any, key: Hashable, seat: int, d: GameState) -> tuple[Any, bool]:
        tkey = keyfn(d, observer)
        existing = table.get(tkey)
        if existing is not None:
            if not shared_stats:  # a new edge with its own statistics into the known node
                edge = node_class(key, seat, node)
                edge.children = existing.children
                existing = edge
            node.children[key] = existing
            return existing, True
        child = node_class(key, seat, node)
        table[tkey] = child
        node.children[key] = child
        return child, False

    return transposed


def playout(rng: random.Random, conf: Options, playouts: Playouts[Any], nast: NAST | None, game: Game,
            seat: int = 0) -> Playout:
    """``playout(d, seq) -> rewards``: simulate ``d`` (a hand of ``game``) to the end with ``conf.sim`` and return
    every seat's ``conf.reward`` (``sim=eval``: the game's estimate of each seat's outcome instead, or with
    ``conf.eval_depth`` the value of ``pimc``'s search of ``d`` from ``seat``'s side). ``seq`` holds the tree's
    ``(seat, move)`` pairs of this iteration when NAST learns."""
    kind = conf.reward
    reward = reward_function(kind, conf.game_name, playouts)
    if conf.sim == "eval" and conf.eval_depth:
        scale = "match" if kind == "match" else "outcome"
        return searched_leaf(leaf_search(game, seat, conf.eval_depth, conf.eval_nodes, rng, scale), kind == "wl",
                             reward)
    if conf.sim == "eval":
        return evaluation_playout(rng, knowledge.evaluation(conf.game_name), game.num_players, conf.eval_plies,
                                  kind == "wl", reward)
    if conf.sim == "random":  # the game's own fast playouts
        # pwl's playout may stop once the outcome is settled; ``match`` in a single hand is the same reward
        if kind == "pwl" or (kind == "match" and not game.match_target()):
            outcomes_of_playout = playouts.playout_outcomes
            return lambda d, seq: outcomes_of_playout(d, rng)
        if kind == "wl":
            outcomes_of = playouts.playout_outcomes
            return lambda d, seq: [2.0 * o - 1.0 for o in outcomes_of(d, rng)]
        scored = playouts.scored_playout

        def scored_playout(d: GameState, seq: list[tuple[int, int]] | None) -> list[float]:
            scored(d, rng)  # returns at once on a finished hand
            return reward(d)

        return scored_playout
    if nast is not None:
        learn = nast.playout

        def nast_playout(d: GameState, seq: list[tuple[int, int]] | None) -> list[float]:
            if d.current_player >= 0:
                learn(d, rng, seq if seq is not None else [])
            return reward(d)

        return nast_playout
    if conf.sim_epsilon > 0.0:
        return epsilon_playout(rng, knowledge.policy(conf.game_name, conf.sim), conf.sim_epsilon, reward)
    rollout, policy = knowledge.simulation(conf.game_name, conf.sim)
    if rollout is not None:
        play_out = rollout

        def rollout_playout(d: GameState, seq: list[tuple[int, int]] | None) -> list[float]:
            if d.current_player >= 0:
                play_out(d, rng)
            return reward(d)

        return rollout_playout
    assert policy is not None
    move_of = policy

    def policy_playout(d: GameState, seq: list[tuple[int, int]] | None) -> list[float]:
        while not d.is_terminal():
            d.do(move_of(d, rng))
        return reward(d)

    return policy_playout


def evaluation_playout(rng: random.Random, evaluate: EvaluationFn | None, num_players: int, plies: int,
                       signed: bool, reward: Callable[[GameState], list[float]]) -> Playout:
    """No playout to the end: ``plies`` uniformly random moves, then every seat's outcome estimated by the game's
    ``evaluate`` (0 loss .. 1 win; mapped to -1 .. 1 when ``signed``); a finished hand gets its real ``reward``."""
    assert evaluate is not None
    rand = rng.random
    seats = range(num_players)

    def evaluation_leaf(d: GameState, seq: list[tuple[int, int]] | None) -> list[float]:
        for _ in range(plies):
            if d.is_terminal():
                break
            moves = d.legal_moves()
            d.do(moves[int(rand() * len(moves))])
        if d.is_terminal():
            return reward(d)
        values = [evaluate(d, seat, rng) for seat in seats]
        return [2.0 * v - 1.0 for v in values] if signed else values

    return evaluation_leaf


def searched_leaf(values: Callable[[GameState], list[float]], signed: bool,
                  reward: Callable[[GameState], list[float]]) -> Playout:
    """No playout: every seat's value of the new node by ``values`` (0 loss .. 1 win, mapped to -1 .. 1 when
    ``signed``); a finished hand gets its real ``reward``."""

    def searched(d: GameState, seq: list[tuple[int, int]] | None) -> list[float]:
        if d.is_terminal():
            return reward(d)
        found = values(d)
        return [2.0 * v - 1.0 for v in found] if signed else found

    return searched


def epsilon_playout(rng: random.Random, policy: Callable[[GameState, random.Random], int], epsilon: float,
                    reward: Callable[[GameState], list[float]]) -> Playout:
    """Epsilon-greedy over a simulation policy (dipalma2014 EGS with the greedy policy): each simulation move is
    a uniformly random legal move with probability ``epsilon``, else the policy's move."""
    rand = rng.random

    def epsilon_greedy_playout(d: GameState, seq: list[tuple[int, int]] | None) -> list[float]:
        while not d.is_terminal():
            if rand() < epsilon:
                moves = d.legal_moves()
                d.do(moves[int(rand() * len(moves))])
            else:
                d.do(policy(d, rng))
        return reward(d)

    return epsilon_greedy_playout
