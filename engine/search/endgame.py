"""Exact endgame solving (seeds/000 5.5 minimax hybrid): when only a few deals are consistent with the
observation, play each deal out by perfect-information alpha-beta and pick the move with the best
average value over all of them (a single deal, as in Bisca after the stock, is solved exactly).

Values are from the deciding seat's side: the hand outcome (1 win, 0.5 draw, 0 loss) plus a small tie
breaker for its (team's) points; every seat outside its team is assumed to play against it (paranoid).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from engine.cards import bits
from engine.game import GameState
from engine.observation import Observation
from engine.search.common import reward_vector

__all__ = ["count_deals", "enumerate_deals", "solve_information_set", "alphabeta"]

NODE_LIMIT = 30_000
"""Alpha-beta nodes one decision may spend before the solver gives up (then ISMCTS decides)."""

DEPTH_LIMIT = 200
"""Plies below the decision past which the solver gives up: a hand that can run long (Pharaoh's draws and
passes) must not exhaust Python's recursion limit; the card games' hands end well before it."""


class _TooBig(Exception):
    pass


def enumerate_deals(obs: Observation, limit: int) -> list[list[int]] | None:
    """Every assignment of the unknown cards to the hidden slots, or None when there are more than
    ``limit`` (or an ordered slot with two or more cards makes the order matter)."""
    slots = obs.slots
    if any(s.ordered and s.count > 1 for s in slots):
        return None
    out: list[list[int]] = []

    def rec(i: int, left: int, acc: list[int]) -> Iterator[None]:
        if i == len(slots):
            if left == 0:
                out.append(acc[:])
                if len(out) > limit:
                    raise _TooBig
            return
            yield
        s = slots[i]
        cand = bits(s.allowed & left)
        if i == len(slots) - 1:
            if len(cand) == s.count and (s.allowed & left) == left:
                acc.append(left)
                yield from rec(i + 1, 0, acc)
                acc.pop()
            return
        for combo in itertools.combinations(cand, s.count):
            mask = 0
            for c in combo:
                mask |= 1 << c
            acc.append(mask)
            yield from rec(i + 1, left & ~mask, acc)
            acc.pop()

    try:
        for _ in rec(0, obs.unknown, []):
            pass
    except _TooBig:
        return None
    return out


def count_deals(obs: Observation, limit: int) -> int | None:
    deals = enumerate_deals(obs, limit)
    return None if deals is None else len(deals)


def alphabeta(state: GameState, seat: int, alpha: float, beta: float, counter: list[int], depth: int = 0) -> float:
    """Paranoid alpha-beta value of ``state`` for ``seat``'s team (raises _TooBig past NODE_LIMIT nodes or
    DEPTH_LIMIT plies)."""
    counter[0] += 1
    if counter[0] > NODE_LIMIT or depth > DEPTH_LIMIT:
        raise _TooBig
    if state.is_terminal():
        res = state.result()
        return res.outcome(seat) + 1e-3 * reward_vector("score", state, res)[seat]
    mover = state.current_player
    maximizing = mover in _team(state, seat)
    moves = state.legal_moves()
    if maximizing:
        value = -1.0
        for m in moves:
            child = state.clone()
            child.do(m)
            value = max(value, alphabeta(child, seat, alpha, beta, counter, depth + 1))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = 2.0
    for m in moves:
        child = state.clone()
        child.do(m)
        value = min(value, alphabeta(child, seat, alpha, beta, counter, depth + 1))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value


def _team(state: GameState, seat: int) -> tuple[int, ...]:
    for t in state.game.teams():
        if seat in t:
            return t
    return (seat,)


def solve_information_set(obs: Observation, rng: random.Random, limit: int) -> int | None:
    """The move with the best average exact value over every consistent deal, or None when there are
    more than ``limit`` deals or the trees are too big to solve quickly."""
    deals = [[]] if not obs.slots else enumerate_deals(obs, limit)
    if not deals:
        return None
    moves = obs.legal_moves()
    seat = obs.seat
    totals = dict.fromkeys(moves, 0.0)
    counter = [0]
    try:
        for deal in deals:
            state = obs.state.clone()
            if obs.slots:
                state.fill_hidden(obs.slots, deal, rng)
            for m in moves:
                child = state.clone()
                child.do(m)
                totals[m] += alphabeta(child, seat, -1.0, 2.0, counter, 1)
    except _TooBig:
        return None
    return max(moves, key=lambda m: totals[m])
