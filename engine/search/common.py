"""Pieces shared by the search agents: reward functions, simulation (rollout) policies and the budget clock.

Rewards (seeds/000 5.3, seeds/001 4.2), each a map from a finished hand to one value per seat:

* ``pwl`` - positive win or loss: 1 win, 0.5 draw/shared, 0 loss.
* ``wl`` - win or loss: 1, 0, -1.
* ``sd`` - score difference (winner's points minus the seat's), discretised to -4..4 as tabled in
  seeds/000 5.3 (scaled by the game's score span: 120 for Sueca/Bisca, 26 for Hearts).
* ``score`` - the seat's (team's) own points normalised to 0..1 (1 - points/span in penalty games).
* ``relative`` - R(s,i) = sum over other seats j of (P(j) - P(i)) for penalty games (negated for
  higher-is-better games), normalised by (players-1) * span (seeds/001 4.2).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from engine.agents.base import Budget, Progress
from engine.game import Game, GameState, HandResult, Option
from engine.search import hooks

REWARDS = ("pwl", "wl", "sd", "score", "relative")
REWARD_RANGE = {"pwl": (0.0, 1.0), "wl": (-1.0, 1.0), "sd": (-4.0, 4.0), "score": (0.0, 1.0),
                "relative": (-1.0, 1.0)}
SIMULATIONS = ("random", "nast", "heuristic")
NAST_POLICIES = ("gibbs", "egreedy", "roulette", "ucb1")


def _sd_level(diff: float, span: float) -> float:
    """Discretise |winner - player| in points onto 0, 1, 2, 4 (seeds/000 5.3 table)."""
    a = abs(diff)
    if a <= 1e-9:
        return 0.0
    if a >= span - 1e-9:
        return 4.0
    if a > span / 2:
        return 2.0
    return 1.0


def _span_of(state: GameState, res: HandResult) -> float:
    span = hooks.score_span(state.game.name)
    if span:
        return span
    total = sum(abs(p) for p in res.team_points)
    return max(total, 1.0)


def reward_vector(kind: str, state: GameState, res: HandResult | None = None) -> list[float]:
    """The reward of every seat for a terminal ``state``."""
    if res is None:
        if kind == "pwl":
            return state.outcomes()
        if kind == "wl":
            return [2.0 * o - 1.0 for o in state.outcomes()]
        res = state.result()
    n = len(res.points)
    if kind == "pwl":
        return [res.outcome(s) for s in range(n)]
    if kind == "wl":
        return [2.0 * res.outcome(s) - 1.0 for s in range(n)]
    span = _span_of(state, res)
    pts = res.points
    low = res.lower_is_better
    if kind == "score":
        return [max(0.0, min(1.0, (1.0 - pts[s] / span) if low else pts[s] / span)) for s in range(n)]
    if kind == "sd":
        out = []
        for s in range(n):
            mine = pts[s]
            team = res.team_of(s)
            others = [pts[o] for o in range(n) if o not in team]
            if not others:
                out.append(0.0)
                continue
            if low:
                out.append(_hearts_level(mine - min(pts), span))
            else:
                diff = mine - max(others)
                lvl = _sd_level(diff, span)
                out.append(lvl if diff > 0 else -lvl)
        return out
    if kind == "relative":
        scale = max(1.0, (n - 1) * span)
        tot = sum(pts)
        sign = 1.0 if low else -1.0
        return [sign * (tot - n * pts[s]) / scale for s in range(n)]
    raise ValueError(f"unknown reward {kind!r}")


def _hearts_level(gap: float, span: float) -> float:
    """seeds/000 5.3 Hearts row: reward by how many points the seat took more than the winner."""
    f = gap / span  # 0 (winner) .. 1 (took everything)
    if f <= 0:
        return 4.0
    if f <= 6 / 26:
        return 2.0
    if f <= 12 / 26:
        return 1.0
    if f <= 13 / 26:
        return 0.0
    if f <= 18 / 26:
        return -1.0
    if f < 1:
        return -2.0
    return -4.0


# --- simulation ------------------------------------------------------------------------------------
def random_rollout(state: GameState, rng: random.Random) -> None:
    """Play ``state`` to the end with uniformly random legal moves (uses the game's fast path if any)."""
    fast = getattr(state, "random_rollout", None)
    if fast is not None:
        fast(rng)
        return
    rand = rng.random
    while not state.is_terminal():
        moves = state.legal_moves()
        state.do(moves[int(rand() * len(moves))])


class NAST:
    """N-gram average sampling (seeds/000 5.4): per-seat tables of n-gram -> [total reward, count]."""

    def __init__(self, n: int, policy: str, tau: float, epsilon: float, c: float) -> None:
        self.n = n
        self.policy = policy
        self.tau = tau
        self.epsilon = epsilon
        self.c = c
        self.table: dict[tuple[int, ...], list[float]] = {}

    def choose(self, seat: int, tail: tuple[int, ...], moves: list[int], rng: random.Random) -> int:
        table = self.table
        stats = [table.get((seat,) + tail + (m,)) for m in moves]
        values = [(s[0] / s[1]) if s else None for s in stats]
        pol = self.policy
        if pol == "ucb1":
            total = sum(s[1] for s in stats if s) + 1
            best, best_v = [], -math.inf
            log_t = math.log(total)
            for m, s, v in zip(moves, stats, values, strict=True):
                u = math.inf if s is None else v + self.c * math.sqrt(log_t / s[1])
                if u > best_v:
                    best, best_v = [m], u
                elif u == best_v:
                    best.append(m)
            return best[int(rng.random() * len(best))]
        known = [v for v in values if v is not None]
        default = max(known) if known else 1.0  # unseen n-grams are optimistic
        vals = [default if v is None else v for v in values]
        if pol == "egreedy":
            top = max(vals)
            best = [m for m, v in zip(moves, vals, strict=True) if v == top]
            if len(best) == len(moves) or rng.random() >= self.epsilon:
                return best[int(rng.random() * len(best))]
            rest = [m for m in moves if m not in best]
            return rest[int(rng.random() * len(rest))]
        if pol == "gibbs":
            top = max(vals)
            weights = [math.exp((v - top) / self.tau) for v in vals]
        else:  # roulette: proportional to (shifted, positive) average reward
            low = min(vals)
            weights = [v - low + 1e-3 for v in vals]
        r = rng.random() * sum(weights)
        for m, w in zip(moves, weights, strict=True):
            r -= w
            if r <= 0:
                return m
        return moves[-1]

    def update(self, seq: list[tuple[int, int]], rewards: list[float]) -> None:
        """Credit every n-gram (1..n of the played (seat, move) sequence) with the last mover's reward."""
        table = self.table
        n = self.n
        moves = [m for _s, m in seq]
        for i, (seat, _m) in enumerate(seq):
            key = (seat,) + tuple(moves[max(0, i - n + 1):i + 1])
            s = table.get(key)
            r = rewards[seat]
            if s is None:
                table[key] = [r, 1.0]
            else:
                s[0] += r
                s[1] += 1.0


def simulate(state: GameState, rng: random.Random, sim: str, nast: NAST | None,
             heuristic: Callable[[GameState, random.Random], int] | None,
             seq: list[tuple[int, int]] | None) -> None:
    """Play to the end with the configured simulation policy; records (seat, move) in ``seq`` if given."""
    if sim == "random" and seq is None:
        random_rollout(state, rng)
        return
    n = nast.n if nast is not None else 1
    while not state.is_terminal():
        seat = state.current_player
        if heuristic is not None:
            move = heuristic(state, rng)
        else:
            moves = state.legal_moves()
            if nast is not None and len(moves) > 1:
                tail = tuple(m for _s, m in seq[len(seq) - (n - 1):]) if (seq and n > 1) else ()
                move = nast.choose(seat, tail, moves, rng)
            else:
                move = moves[int(rng.random() * len(moves))]
        if seq is not None:
            seq.append((seat, move))
        state.do(move)


# --- budget ----------------------------------------------------------------------------------------
class Clock:
    """Iteration/time budget, cancel flag and progress throttling for one decision."""

    REPORT_EVERY = 0.05

    def __init__(self, iterations: int, seconds: float, budget: Budget | None) -> None:
        if budget is not None and budget.iterations is not None:
            iterations = budget.iterations
        if budget is not None and budget.seconds is not None:
            seconds = budget.seconds
        if iterations <= 0 and seconds <= 0:
            iterations = 1000
        self.iterations = iterations if iterations > 0 else 1 << 62
        self.seconds = seconds if seconds > 0 else math.inf
        self.cancel = budget.cancel if budget is not None else None
        self.on_progress = budget.on_progress if budget is not None else None
        self.start = time.perf_counter()
        self.deadline = self.start + self.seconds
        self.next_report = self.start + self.REPORT_EVERY
        self.timed = self.seconds != math.inf

    def done(self, i: int) -> bool:
        """Whether to stop before iteration ``i`` (0-based)."""
        if i >= self.iterations:
            return True
        if i == 0:
            return False
        if self.timed or self.on_progress is not None or self.cancel is not None:
            if i & 15 == 0 or self.timed:
                if self.cancel is not None and self.cancel.is_set():
                    return True
                now = time.perf_counter()
                if now >= self.deadline:
                    return True
        return False

    def maybe_report(self, i: int, best: Callable[[], tuple[int | None, float | None]]) -> None:
        if self.on_progress is None or i & 15:
            return
        now = time.perf_counter()
        if now >= self.next_report:
            self.next_report = now + self.REPORT_EVERY
            move, rate = best()
            self.on_progress(Progress(i, move, rate, now - self.start))

    def final_report(self, i: int, move: int | None, rate: float | None) -> None:
        if self.on_progress is not None:
            self.on_progress(Progress(i, move, rate, time.perf_counter() - self.start))


def to_rate(kind: str, mean: float) -> float:
    """Map a mean reward of ``kind`` onto 0..1 (an estimated win rate for the UI)."""
    lo, hi = REWARD_RANGE[kind]
    return max(0.0, min(1.0, (mean - lo) / (hi - lo)))


def search_options(default_iterations: int) -> tuple[Option, ...]:
    """Parameters shared by the UCT-family agents."""
    return (
        Option("iterations", default_iterations, "iterations per decision (0 = use 'seconds' only)",
               type=int, min=0, max=10_000_000),
        Option("seconds", 0.0, "time budget per decision in seconds (0 = use 'iterations' only)", type=float),
        Option("c", -1.0, "UCB1 exploration constant (-1 = the game's default: 0.25 in Bisca/Briscola with 7-9 "
               "cards in hand, else 0.7)", type=float),
        Option("reward", "pwl", "reward: pwl, wl, sd, score or relative (seeds/000 5.3, seeds/001 4.2)",
               choices=REWARDS),
    )


def exploration(c: float, game: Game) -> float:
    """The configured exploration constant, or the game's registered default (:func:`hooks.default_exploration`:
    0.25 in Bisca and Briscola with 7 or 9 cards in hand, else 0.7)."""
    return c if c >= 0 else hooks.default_exploration(game)
