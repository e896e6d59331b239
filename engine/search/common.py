"""Pieces shared by the search agents: reward functions, simulation (rollout) policies and the budget clock.

Rewards (fernandes2016 5.3, manzke2025 4.2), each a map from a finished hand to one value per seat:

* ``pwl`` - positive win or loss: 1 win, 0.5 draw/shared, 0 loss.
* ``wl`` - win or loss: 1, 0, -1.
* ``sd`` - score difference (winner's points minus the seat's), discretised to -4..4 as tabled in
  fernandes2016 5.3 (scaled by the game's score span: 120 for Sueca/Bisca, 26 for Hearts).
* ``score`` - the seat's (team's) own points normalised to 0..1 (1 - points/span in penalty games).
* ``relative`` - R(s,i) = sum over other seats j of (P(j) - P(i)) for penalty games (negated for
  higher-is-better games), normalised by (players-1) * span (manzke2025 4.2).
* ``match`` - what the hand adds to a match: 0.5 plus half the side's lead in the hand's match points over the
  best other side (:meth:`~engine.game.Game.match_points`; Sueca's game points 1, 2 or 4), so a win by one
  match point is 1, a loss by one 0 and each further point counts half a win; a single-hand variant (no match
  target) gets ``pwl``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from engine.agent import Budget, Progress
from engine.game import Game, GameState, HandResult, Option
from engine.knowledge import Playouts
from engine.search import knowledge

REWARDS = ("pwl", "wl", "sd", "score", "relative", "diff", "match")
DIFF_RANGE = 30.0
"""The ``diff`` reward is unbounded in principle; this bound (more points than a Scopone or trick-taking hand
usually separates) only maps it onto 0..1 for a displayed rate and gives NAST roulette its low end."""
REWARD_RANGE = {"pwl": (0.0, 1.0), "wl": (-1.0, 1.0), "sd": (-4.0, 4.0), "score": (0.0, 1.0),
                "relative": (-1.0, 1.0), "diff": (-DIFF_RANGE, DIFF_RANGE),
                "match": (-1.5, 2.5)}  # match: Sueca's (a side wins 0 to 4 game points a hand)
SIMULATIONS = ("random", "nast", "heuristic")
NAST_POLICIES = ("gibbs", "egreedy", "roulette", "ucb1")


def _sd_level(diff: float, span: float) -> float:
    """Discretise |winner - player| in points onto 0, 1, 2, 4 (fernandes2016 5.3 table)."""
    a = abs(diff)
    if a <= 1e-9:
        return 0.0
    if a >= span - 1e-9:
        return 4.0
    if a > span / 2:
        return 2.0
    return 1.0


def _span_of(state: GameState, res: HandResult) -> float:
    span = knowledge.score_span(state.game.name)
    if span:
        return span
    total = sum(abs(p) for p in res.team_points)
    return max(total, 1.0)


def reward_vector(kind: str, state: GameState, res: HandResult | None = None) -> list[float]:
    """The reward of every seat for a terminal ``state``, from its :meth:`~engine.game.GameState.result` (``res``
    when given): the plain rules' definition. Searches use :func:`reward_function`, which reads the game's leaner
    outcomes and points (the same values)."""
    if res is None:
        res = state.result()
    n = len(res.points)
    if kind == "pwl":
        return [res.outcome(s) for s in range(n)]
    if kind == "wl":
        return [2.0 * res.outcome(s) - 1.0 for s in range(n)]
    pts = res.points
    low = res.lower_is_better
    if kind == "diff":
        return _point_differences(res)
    if kind == "match":
        return _match_rewards(state, res)
    span = _span_of(state, res)
    if kind == "score" or kind == "relative":
        return _point_rewards(kind, pts, span, low)
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
                out.append(_penalty_level(mine - min(pts), span))
            else:
                diff = mine - max(others)
                lvl = _sd_level(diff, span)
                out.append(lvl if diff > 0 else -lvl)
        return out
    raise ValueError(f"unknown reward {kind!r}")


def reward_function(kind: str, game_name: str, playouts: Playouts[Any]) -> Callable[[GameState], list[float]]:
    """``reward(state)``: :func:`reward_vector` of ``kind`` for a finished state of the game ``game_name``, with
    the game's lean outcomes and reward points (``playouts``), chosen once for a search."""
    if kind == "pwl":
        return playouts.outcomes
    if kind == "wl":
        outcomes = playouts.outcomes
        return lambda state: [2.0 * o - 1.0 for o in outcomes(state)]
    if kind == "score" or kind == "relative":
        points_of = playouts.reward_points
        fixed_span = knowledge.score_span(game_name)

        def point_rewards(state: GameState) -> list[float]:
            pts, total, low = points_of(state)
            return _point_rewards(kind, pts, fixed_span or total, low)

        return point_rewards
    if kind == "sd" or kind == "diff":
        return lambda state: reward_vector(kind, state, state.result())
    if kind == "match":
        return lambda state: _match_rewards(state, state.result())
    raise ValueError(f"unknown reward {kind!r}")


def _point_differences(res: HandResult) -> list[float]:
    """The ``diff`` reward of every seat: its team's points minus the best other team's (penalty games: the
    lowest other team's points minus its own); 0 when no other team scores."""
    team_points = res.team_points
    index = {seat: i for i, team in enumerate(res.teams) for seat in team}
    out = []
    for seat in range(len(res.points)):
        i = index.get(seat)
        others = [p for j, p in enumerate(team_points) if j != i]
        if i is None or not others:
            out.append(0.0)
        elif res.lower_is_better:
            out.append(min(others) - team_points[i])
        else:
            out.append(team_points[i] - max(others))
    return out


def _match_rewards(state: GameState, res: HandResult) -> list[float]:
    """The ``match`` reward of every seat (see the module docstring)."""
    game = state.game
    if not game.match_target():
        return [res.outcome(s) for s in range(len(res.points))]
    won = game.match_points(res)
    sign = -1.0 if res.lower_is_better else 1.0
    by_seat: dict[int, float] = {}
    for team_index, team in enumerate(res.teams):
        others = [p for j, p in enumerate(won) if j != team_index]
        lead = sign * (won[team_index] - (min(others) if res.lower_is_better else max(others))) if others else 0.0
        by_seat.update(dict.fromkeys(team, 0.5 + lead / 2.0))
    return [by_seat[s] for s in range(len(res.points))]


def _point_rewards(kind: str, pts: list[float], span: float, low: bool) -> list[float]:
    """The ``score`` or ``relative`` reward of every seat from its hand points."""
    n = len(pts)
    if kind == "score":
        return [max(0.0, min(1.0, (1.0 - p / span) if low else p / span)) for p in pts]
    scale = max(1.0, (n - 1) * span)
    tot = sum(pts)
    sign = 1.0 if low else -1.0
    return [sign * (tot - n * p) / scale for p in pts]


def _penalty_level(gap: float, span: float) -> float:
    """fernandes2016 5.3 Hearts row: reward by how many points the seat took more than the winner."""
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
    """Play ``state`` to the end with uniformly random legal moves (the game's fast path,
    :meth:`engine.knowledge.Playouts.random_rollout`)."""
    knowledge.playouts(state.game.name).random_rollout(state, rng)


class NAST:
    """N-gram average sampling (fernandes2016 5.4) with the four simulation policies of its 5.4.1.

    Statistics are kept per context, the mover's seat and the n - 1 moves before (any seat's):
    ``table[(seat, *previous)][move] = [total reward, count]``, so a simulation step costs one lookup for
    the context and one per legal move. A move never seen in its context counts as the best seen one (all
    unseen: a uniform choice), except under UCB1 where it is tried first. ``reward_range`` is the range of
    the search's reward: roulette (eq. 5.4, proportional to the average reward) measures averages from its
    low end, so that it is the seed's formula for the 0..1 PWL reward and stays a distribution for rewards
    that go negative (WL, SD, relative)."""

    def __init__(self, n: int, policy: str, tau: float, epsilon: float, c: float,
                 reward_range: tuple[float, float] = (0.0, 1.0)) -> None:
        if policy not in NAST_POLICIES:
            raise ValueError(f"unknown NAST policy {policy!r}; policies: {', '.join(NAST_POLICIES)}")
        self.n = n
        self.policy = policy
        self.tau = tau
        self.epsilon = epsilon
        self.c = c
        self.low = reward_range[0]
        self.ucb1 = policy == "ucb1"
        self.table: dict[tuple[int, ...], dict[int, list[float]]] = {}

    def choose(self, seat: int, tail: tuple[int, ...], moves: list[int], rng: random.Random) -> int:
        """The simulation's move for ``seat`` among ``moves`` after the moves ``tail`` (the last n - 1)."""
        return self.pick((seat,) + tail, moves, rng.random)

    def pick(self, context: tuple[int, ...], moves: list[int], rand: Callable[[], float]) -> int:
        """:meth:`choose` for a ready-made context ``(seat, *tail)``, drawing from ``rand`` (the playout's
        hot path: the same draws as :meth:`choose`)."""
        seen = self.table.get(context)
        if seen is None:  # a new context: every policy is uniform over unseen moves
            return moves[int(rand() * len(moves))]
        if self.ucb1:
            return self._ucb1(seen, moves, rand)
        pol = self.policy
        get = seen.get
        values = []
        top = -math.inf
        for m in moves:
            st = get(m)
            v = st[0] / st[1] if st is not None else None
            if v is not None and v > top:
                top = v
            values.append(v)
        if top == -math.inf:  # none of these moves seen here yet
            return moves[int(rand() * len(moves))]
        vals = [top if v is None else v for v in values]
        if pol == "egreedy":
            best = [m for m, v in zip(moves, vals, strict=True) if v == top]
            if len(best) == len(moves) or rand() >= self.epsilon:
                return best[int(rand() * len(best))] if len(best) > 1 else best[0]
            rest = [m for m, v in zip(moves, vals, strict=True) if v != top]
            return rest[int(rand() * len(rest))]
        if pol == "gibbs":
            tau = self.tau
            exp = math.exp
            weights = [exp((v - top) / tau) for v in vals]  # eq. 5.1, scaled by exp(-top / tau)
        else:  # roulette, eq. 5.4
            low = self.low
            weights = [v - low for v in vals]
        r = rand() * sum(weights)
        if r <= 0.0:  # every average at the low end of the reward: uniform
            return moves[int(rand() * len(moves))]
        for m, w in zip(moves, weights, strict=True):
            r -= w
            if r < 0.0:
                return m
        return moves[-1]

    def _ucb1(self, seen: dict[int, list[float]], moves: list[int], rand: Callable[[], float]) -> int:
        """UCB1 (eq. 5.5): a uniformly chosen unseen move first, else the highest bound (ties uniform)."""
        get = seen.get
        stats = []
        visits = 0.0  # counts are whole numbers: the sum is exact in any order
        for m in moves:
            st = get(m)
            if st is None:
                unseen = [x for x in moves if x not in seen]
                return unseen[int(rand() * len(unseen))]
            visits += st[1]
            stats.append(st)
        log_t = math.log(visits)
        c = self.c
        sqrt = math.sqrt
        best = moves[0]
        best_u = -math.inf
        ties: list[int] | None = None
        for m, (total, count) in zip(moves, stats, strict=True):
            u = total / count + c * sqrt(log_t / count)
            if u > best_u:
                best, best_u, ties = m, u, None
            elif u == best_u:
                if ties is None:
                    ties = [best, m]
                else:
                    ties.append(m)
        return ties[int(rand() * len(ties))] if ties else best

    def playout(self, state: GameState, rng: random.Random, seq: list[tuple[int, int]]) -> None:
        """Play ``state`` to the end with this NAST's policy, appending ``(seat, move)`` to ``seq`` (the moves
        already in ``seq`` are the first contexts). The same moves and draws as calling ``legal_moves()`` and
        :meth:`choose` move by move."""
        rand = rng.random
        back = self.n - 1
        pick = self.pick
        append = seq.append
        do = state.do
        tail: tuple[int, ...] = tuple(m for _s, m in seq[-back:]) if back else ()
        while True:
            seat = state.current_player  # -1 once the hand is over
            if seat < 0:
                return
            moves = state.legal_moves()
            move = pick((seat,) + tail, moves, rand) if len(moves) > 1 else moves[0]
            append((seat, move))
            if back == 1:
                tail = (move,)
            elif back:
                tail = (tail + (move,))[-back:]
            do(move)

    def update(self, seq: list[tuple[int, int]], rewards: list[float]) -> None:
        """Credit the n-gram ending at every move of the played (seat, move) sequence (shorter at its start)
        with the reward of the seat that made that move."""
        if not seq:
            return
        table = self.table
        back = self.n - 1
        if back > 1:
            moves = [m for _s, m in seq]
            contexts = [(seat, *moves[max(0, i - back):i]) for i, (seat, _m) in enumerate(seq)]
        elif back == 1:
            contexts = [(seq[0][0],)] + [(seat, prev) for (seat, _m), (_s, prev) in zip(seq[1:], seq[:-1], strict=True)]
        else:
            contexts = [(seat,) for seat, _m in seq]
        for ctx, (seat, m) in zip(contexts, seq, strict=True):
            seen = table.get(ctx)
            if seen is None:
                table[ctx] = {m: [rewards[seat], 1.0]}
                continue
            st = seen.get(m)
            if st is None:
                seen[m] = [rewards[seat], 1.0]
            else:
                st[0] += rewards[seat]
                st[1] += 1.0


def simulate(state: GameState, rng: random.Random, sim: str, nast: NAST | None,
             heuristic: Callable[[GameState, random.Random], int] | None,
             seq: list[tuple[int, int]] | None) -> None:
    """Play to the end with the configured simulation policy; records (seat, move) in ``seq`` if given."""
    if sim == "random" and seq is None:
        random_rollout(state, rng)
        return
    if nast is not None and heuristic is None:
        nast.playout(state, rng, seq if seq is not None else [])
        return
    rand = rng.random
    while not state.is_terminal():
        seat = state.current_player
        if heuristic is not None:
            move = heuristic(state, rng)
        else:
            moves = state.legal_moves()
            move = moves[int(rand() * len(moves))] if len(moves) > 1 else moves[0]
        if seq is not None:
            seq.append((seat, move))
        state.do(move)


# --- budget ----------------------------------------------------------------------------------------
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
"""What a search's ``seconds`` count: elapsed time (what a player waits), or the processor time of the searching
thread (equal-time comparisons that do not depend on the other load of a shared machine)."""

CLOCK_OPTION = Option("clock", "wall", "what 'seconds' counts: 'wall' (elapsed time, as a player waits) or 'cpu' "
                      "(the search's own processor time: equal-time comparisons on a busy machine)",
                      choices=tuple(CLOCKS))


class Clock:
    """Iteration/time budget, cancel flag and progress throttling for one decision. ``clock`` names what the
    time budget counts (:data:`CLOCKS`); progress reports always use elapsed time."""

    REPORT_EVERY = 0.05

    def __init__(self, iterations: int, seconds: float, budget: Budget | None, clock: str = "wall") -> None:
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
        self.now = CLOCKS[clock]
        self.start = time.perf_counter()
        self.deadline = self.now() + self.seconds
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
                if self.now() >= self.deadline:
                    return True
        return False

    def left(self) -> float:
        """Seconds of the time budget still left (on the budget's clock)."""
        return self.deadline - self.now()

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
    """Map a mean reward of ``kind`` onto 0..1 (an estimated win rate for the UI; a ``match`` mean is read as
    ``pwl``'s, a win by one match point being 1, and clipped)."""
    lo, hi = (0.0, 1.0) if kind == "match" else REWARD_RANGE[kind]
    return max(0.0, min(1.0, (mean - lo) / (hi - lo)))


def search_options(default_iterations: int) -> tuple[Option, ...]:
    """Parameters shared by the UCT-family agents."""
    return (
        Option("iterations", default_iterations, "iterations per decision (0 = use 'seconds' only)",
               type=int, min=0, max=10_000_000),
        Option("seconds", 0.0, "time budget per decision in seconds (0 = use 'iterations' only)", type=float,
               min=0.0, max=86_400.0),
        Option("c", -1.0, "UCB1 exploration constant (-1 = the game's default: 0.25 in Bisca/Briscola with 7-9 "
               "cards in hand, else 0.7)", type=float, min=-1.0, max=100.0),
        Option("reward", "pwl", "reward: pwl, wl, sd, score or relative (fernandes2016 5.3, manzke2025 4.2), "
               "diff, the raw score difference in points (dipalma2014 SD), or match, the hand's match points "
               "(a one-point win 1, each further point half a win; pwl in a single-hand variant)",
               choices=REWARDS),
        CLOCK_OPTION,
    )


def exploration(c: float, game: Game) -> float:
    """The configured exploration constant, or the game's registered default (:func:`knowledge.default_exploration`:
    0.25 in Bisca and Briscola with 7 or 9 cards in hand, else 0.7)."""
    return c if c >= 0 else knowledge.default_exploration(game)
