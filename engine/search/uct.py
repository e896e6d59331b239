"""Plain UCT on a perfect-information state (the inner search of determinized UCT and the cheating agent)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from engine.game import GameState
from engine.search import knowledge
from engine.search.common import Clock, reward_function, simulate, to_rate

__all__ = ["REPORT_EVERY", "UNode", "best_root_move", "full_shared_wins", "root_statistics", "uct_search"]

REPORT_EVERY = 16
"""Iterations between two calls of a search's ``progress`` callback (a power of two: a bit test per iteration)."""


def full_shared_wins(rewards: list[float], kind: str) -> list[float]:
    """PWL/WL rewards with a shared first place counted as a full win (fernandes2016 chapter 6: in Hearts
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


def root_statistics(root: UNode) -> tuple[dict[int, int], dict[int, float]]:
    """Visits and total reward per root move of a search tree."""
    return ({ch.move: ch.visits for ch in root.children if ch.move is not None},
            {ch.move: ch.total for ch in root.children if ch.move is not None})


def best_root_move(visits: dict[int, int], totals: dict[int, float],
                   reward_kind: str) -> tuple[int | None, float | None]:
    """The most visited root move (ties: the higher total reward) and its estimated win rate (0..1)."""
    if not visits:
        return None, None
    best = max(visits, key=lambda m: (visits[m], totals[m]))
    return best, to_rate(reward_kind, totals[best] / visits[best])


def uct_search(state: GameState, rng: random.Random, clock: Clock, c: float, reward_kind: str,
               sim: str = "random", iteration_offset: int = 0, max_iterations: int | None = None,
               shared_full: bool = False, progress: Callable[[int, UNode], None] | None = None,
               progress_offset: int | None = None) -> tuple[dict[int, int], dict[int, float], int]:
    """UCT from ``state`` (every card known). Returns (visits per root move, total reward per root move,
    iterations run). Stops on ``clock`` (asked with ``iteration_offset`` + the iterations run) or after
    ``max_iterations``. ``shared_full``: a shared first place earns the full PWL/WL win reward instead of
    half (see :func:`full_shared_wins`). ``progress`` is called with the iteration count, counted from
    ``progress_offset`` (default ``iteration_offset``: cumulative over several searches), and the root
    each time that count reaches a multiple of :data:`REPORT_EVERY` (it should throttle by time itself,
    e.g. with :meth:`Clock.maybe_report`)."""
    root = UNode(None, -1)
    counted_from = iteration_offset if progress_offset is None else progress_offset
    report_mask = REPORT_EVERY - 1
    log = math.log
    sqrt = math.sqrt
    rand = rng.random
    playouts = knowledge.playouts(state.game.name)
    reward_of = reward_function(reward_kind, state.game.name, playouts)
    outcomes_of_playout = playouts.playout_outcomes if sim == "random" and reward_kind in ("pwl", "wl") else None
    scored = playouts.scored_playout
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
            best: UNode = node.children[0]
            best_u = -math.inf
            lt = log(node.visits) if node.visits > 0 else 0.0
            for ch in node.children:
                u = ch.total / ch.visits + c * sqrt(lt / ch.visits)
                if u > best_u:
                    best_u, best = u, ch
            s.do(best.move)  # type: ignore[arg-type]
            node = best
            path.append(node)
        if outcomes_of_playout is not None:  # may stop the playout once the outcome is settled
            rewards = outcomes_of_playout(s, rng)
            if reward_kind == "wl":
                rewards = [2.0 * o - 1.0 for o in rewards]
        else:
            if sim == "random":
                scored(s, rng)  # returns at once on a finished hand
            elif not s.is_terminal():
                simulate(s, rng, sim, None, None, None)
            rewards = reward_of(s)
        if shared_full:
            rewards = full_shared_wins(rewards, reward_kind)
        root.visits += 1
        for n in path:
            n.visits += 1
            n.total += rewards[n.seat]
        i += 1
        if progress is not None and not (counted_from + i) & report_mask:
            progress(counted_from + i, root)
    visits, totals = root_statistics(root)
    return visits, totals, i
