"""Plain UCT on a perfect-information state (the inner search of determinized UCT and the cheating agent)."""

from __future__ import annotations

import math
import random

from engine.game import GameState
from engine.search.common import Clock, reward_vector, simulate

__all__ = ["UNode", "full_shared_wins", "uct_search"]


def full_shared_wins(rewards: list[float], kind: str) -> list[float]:
    """PWL/WL rewards with a shared first place counted as a full win (seeds/000 chapter 6: in Hearts
    every player on the lowest score is a winner). A draw of everyone (no loser) stays a draw."""
    if kind == "pwl":
        if 0.0 in rewards:
            return [1.0 if r > 0.0 else 0.0 for r in rewards]
    elif kind == "wl" and -1.0 in rewards:
        return [1.0 if r > -1.0 else -1.0 for r in rewards]
    return rewards


class UNode:
    """A UCT node: the move that leads here, who made it, untried moves and statistics."""

    __slots__ = ("move", "seat", "children", "untried", "visits", "total")

    def __init__(self, move: int | None, seat: int) -> None:
        self.move = move
        self.seat = seat
        self.children: list[UNode] = []
        self.untried: list[int] | None = None
        self.visits = 0
        self.total = 0.0


def uct_search(state: GameState, rng: random.Random, clock: Clock, c: float, reward_kind: str,
               sim: str = "random", iteration_offset: int = 0, max_iterations: int | None = None,
               shared_full: bool = False) -> tuple[dict[int, int], dict[int, float], int]:
    """UCT from ``state`` (every card known). Returns (visits per root move, total reward per root move,
    iterations run). Stops on ``clock`` or after ``max_iterations``. ``shared_full``: a shared first
    place earns the full PWL/WL win reward instead of half (see :func:`full_shared_wins`)."""
    root = UNode(None, -1)
    log = math.log
    sqrt = math.sqrt
    rand = rng.random
    playout_outcomes = sim == "random" and reward_kind in ("pwl", "wl")
    i = 0
    limit = max_iterations if max_iterations is not None else 1 << 62
    while i < limit and not clock.done(iteration_offset + i):
        s = state.clone()
        node = root
        path: list[UNode] = []
        while True:
            if node.untried is None:
                node.untried = [] if s.is_terminal() else s.legal_moves()
            if node.untried:
                k = int(rand() * len(node.untried))
                move = node.untried[k]
                node.untried[k] = node.untried[-1]
                node.untried.pop()
                child = UNode(move, s.current_player)
                s.do(move)
                node.children.append(child)
                path.append(child)
                break
            if not node.children:
                break  # terminal
            best = None
            best_u = -math.inf
            lt = log(node.visits) if node.visits > 0 else 0.0
            for ch in node.children:
                u = ch.total / ch.visits + c * sqrt(lt / ch.visits)
                if u > best_u:
                    best_u, best = u, ch
            s.do(best.move)
            node = best
            path.append(node)
        if playout_outcomes:  # may stop the playout once the outcome is settled
            rewards = s.playout_outcomes(rng)
            if reward_kind == "wl":
                rewards = [2.0 * o - 1.0 for o in rewards]
        else:
            if sim == "random":
                s.scored_playout(rng)  # returns at once on a finished hand
            elif not s.is_terminal():
                simulate(s, rng, sim, None, None, None)
            rewards = reward_vector(reward_kind, s)
        if shared_full:
            rewards = full_shared_wins(rewards, reward_kind)
        root.visits += 1
        for n in path:
            n.visits += 1
            n.total += rewards[n.seat]
        i += 1
    return ({ch.move: ch.visits for ch in root.children}, {ch.move: ch.total for ch in root.children}, i)
