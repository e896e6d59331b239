"""Perfect Information Monte Carlo (ginsberg2001; long2010): sample deals consistent with the observation, search
each deal as a perfect-information game and pick the move whose values, averaged over the deals, are best.

Per decision:

* deals come from :class:`engine.search.sampler.DealSampler`, biased by one of the game's belief functions where
  it registers one (``bias=auto``, the default: the game's first; ``bias=none`` deals uniformly);
* each deal is searched from the deciding seat's side, by paranoid alpha-beta (every seat outside its team plays
  against it) in games of two sides, by max-n (every seat plays for itself; no cut-offs) in games of three or
  more (``opponents=auto``), every legal move with a full window so that its exact value on that deal is known, by
  iterative deepening from one ply up to ``depth`` plies (the move itself included) within ``nodes`` alpha-beta
  nodes a deal (in a wide position the last pass that fits decides). A position at the depth limit is worth
  the game's evaluation (``SearchKnowledge.evaluation``) or, where a game gives none, the outcome of
  ``playouts`` random playouts;
  a finished hand is worth its outcome (1 win, 0.5 draw, 0 loss) blended with a little of the seat's score
  reward (:data:`SCORE_WEIGHT`), so that among won lines the bigger win counts (``reward=outcome``), or, with
  ``reward=match``, what it adds to a match (the ``match`` reward of :mod:`engine.search.common`: 0.5 plus half
  the side's lead in match points), a position at the depth limit then being worth the game's
  ``SearchKnowledge.match_evaluation`` or random playouts scored the same way;
* the moves are ordered by the transposition table's best move first, then in the game's
  ``Playouts.solver_moves`` order (which also leaves out cards that play exactly like a kept one); the
  table (keyed by the game's ``Playouts.solver_key``) keeps bounds with the depth they were searched to, and a value
  whose whole subtree reached the end of the hand is exact at every depth;
* past ``depth``, a deal is searched two plies deeper at a time while the next pass is expected to fit in
  ``nodes``, so late in a hand every line is solved to its end.

The budget is ``deals`` sampled deals and/or ``seconds`` of time (a deal the clock interrupts does not count;
when not even the first deal finishes in time, that deal searched one ply deep decides).
With a deal budget alone the agent is deterministic for a given ``rng``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from engine.agent import Agent, Budget, Progress
from engine.game import Game, GameState, Option, VariantError
from engine.knowledge import EvaluationFn, Playouts, SearchInterrupted
from engine.observation import Observation
from engine.search import knowledge
from engine.search.common import CLOCK_OPTION, CLOCKS, reward_function, reward_vector
from engine.search.sampler import DealSampler

__all__ = ["PIMCAgent", "SCORE_WEIGHT", "hand_values", "leaf_search", "playout_evaluation", "search_deal"]

SCORE_WEIGHT = 0.1
"""Weight of the seat's score reward (0..1) in a finished hand's value; the outcome has the rest."""

CHECK_EVERY = 256
"""Alpha-beta nodes between two looks at the clock and the cancel flag."""

EXACT = 1 << 30
"""The depth recorded for a table entry whose subtree reached the end of the hand in every line."""

inf = math.inf


class _Stop(Exception):
    """The clock, the cancel flag or a deepening step's node allowance stopped a search."""


TerminalFn = Callable[[GameState], list[float]]
"""Every seat's value of a finished hand."""


def outcome_value(state: GameState) -> list[float]:
    """``reward=outcome``'s value of a finished hand per seat: the outcome blended with :data:`SCORE_WEIGHT` of
    the score reward."""
    scores = reward_vector("score", state)
    return [(1.0 - SCORE_WEIGHT) * o + SCORE_WEIGHT * p for o, p in zip(state.outcomes(), scores, strict=True)]


def playout_evaluation(playouts: int, fast: Playouts[Any], terminal: TerminalFn | None = None) -> EvaluationFn:
    """The generic evaluation of an unfinished hand: the seat's mean outcome over ``playouts`` random playouts
    (the game's fast ``playout_outcomes``), or its mean ``terminal`` value when given."""

    def evaluate(state: GameState, seat: int, rng: random.Random) -> float:
        total = 0.0
        for _ in range(playouts):
            if terminal is None:
                total += fast.playout_outcomes(state.clone(), rng)[seat]
            else:
                child = state.clone()
                fast.scored_playout(child, rng)
                total += terminal(child)[seat]
        return total / playouts

    return evaluate


def hand_values(game_name: str, reward: str, fast: Playouts[Any],
                playouts: int) -> tuple[TerminalFn, EvaluationFn, bool]:
    """``(terminal, evaluate, own)`` for ``reward`` (``outcome`` or ``match``): every seat's value of a finished
    hand, one seat's estimate of an unfinished one (the game's evaluation on that scale, else the mean of
    ``playouts`` random playouts) and whether the game gave the evaluation."""
    if reward == "match":
        terminal = reward_function("match", game_name, fast)
        own = knowledge.match_evaluation(game_name)
        return terminal, own if own is not None else playout_evaluation(playouts, fast, terminal), own is not None
    own = knowledge.evaluation(game_name)
    return outcome_value, own if own is not None else playout_evaluation(playouts, fast), own is not None


class _DealSearch:
    """Depth-limited paranoid alpha-beta with a transposition table, for one seat over one decision's deals."""

    def __init__(self, seat: int, team: tuple[int, ...], evaluate: EvaluationFn, rng: random.Random,
                 deadline: float, cancel: Any, fast: Playouts[Any],
                 clock: Callable[[], float] = time.perf_counter, terminal: TerminalFn = outcome_value) -> None:
        self.clock = clock
        self.terminal = terminal
        self.solver_key = fast.solver_key
        self.solver_moves = fast.solver_moves
        self.solver_equivalents = fast.solver_equivalents
        self.seat = seat
        self.team = team
        self.evaluate = evaluate
        self.rng = rng
        self.deadline = deadline
        self.cancel = cancel
        self.table: dict[Any, tuple[float, float, int | None, int]] = {}
        self.nodes = 0
        self.node_cap = 1 << 62
        self.next_check = CHECK_EVERY
        self.horizon = False  # whether the current subtree met the depth limit somewhere

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_cap:
            raise _Stop
        if self.nodes >= self.next_check:
            self.next_check += CHECK_EVERY
            if self.deadline != inf and self.clock() >= self.deadline:
                raise _Stop
            if self.cancel is not None and self.cancel.is_set():
                raise _Stop

    def terminal_value(self, state: GameState) -> float:
        return self.terminal(state)[self.seat]

    def value(self, state: GameState, alpha: float, beta: float, depth: int) -> float:
        """The value of ``state`` searched ``depth`` plies deep: exact inside (alpha, beta), else a bound on the
        correct side of the window."""
        self._tick()
        if state.is_terminal():
            return self.terminal_value(state)
        if depth <= 0:
            self.horizon = True
            return self.evaluate(state, self.seat, self.rng)
        key = self.solver_key(state)
        best_move: int | None = None
        entry = self.table.get(key) if key is not None else None
        alpha0, beta0 = alpha, beta
        if entry is not None:
            low, high, best_move, searched = entry
            if searched >= depth and (low >= beta or high <= alpha or low == high):
                if searched < EXACT:
                    self.horizon = True
                return low if low >= beta or low == high else high
            if searched >= depth:
                alpha0, beta0 = max(alpha, low), min(beta, high)
        a, b = alpha0, beta0
        moves = self.solver_moves(state)
        if best_move is not None and len(moves) > 1 and moves[0] != best_move and best_move in moves:
            moves = [best_move] + [m for m in moves if m != best_move]
        maximizing = state.current_player in self.team
        outer_horizon = self.horizon
        self.horizon = False
        value = -inf if maximizing else inf
        chosen = moves[0]
        for m in moves:
            child = state.clone()
            child.do(m)
            v = self.value(child, a, b, depth - 1)
            if maximizing:
                if v > value:
                    value, chosen = v, m
                    if value > a:
                        a = value
            elif v < value:
                value, chosen = v, m
                if value < b:
                    b = value
            if a >= b:
                break
        exact_below = not self.horizon
        self.horizon = outer_horizon or self.horizon
        if key is not None:
            searched = EXACT if exact_below else depth
            low, high = -inf, inf
            if entry is not None and entry[3] >= searched:
                low, high = entry[0], entry[1]
            if value <= alpha0:
                high = min(high, value)
            elif value >= beta0:
                low = max(low, value)
            else:
                low = high = value
            self.table[key] = (low, high, chosen, searched)
        return value

    def root_values(self, state: GameState, moves: list[int], depth: int) -> tuple[dict[int, float], bool]:
        """Each root move's exact value on this deal at ``depth`` plies (the move included), and whether every
        line reached the end of the hand."""
        values: dict[int, float] = {}
        self.horizon = False
        same = self.solver_equivalents(state, moves)
        for m in moves:
            stand_in = same.get(m)
            if stand_in is not None and stand_in in values:
                values[m] = values[stand_in]
                continue
            child = state.clone()
            child.do(m)
            values[m] = self.value(child, -inf, inf, depth - 1)
        for m in moves:  # a stand-in searched after the card it stands for
            stand_in = same.get(m)
            if stand_in is not None and m not in values:
                values[m] = values[stand_in]
        return values, not self.horizon


class _MaxNSearch(_DealSearch):
    """Depth-limited max-n (each seat picks the move best for itself) with a transposition table: the value of a
    position is one value per seat, so no alpha-beta cut applies; for games of three or more sides, where the
    paranoid assumption (everyone else against the deciding seat) is too pessimistic."""

    def __init__(self, seat: int, team: tuple[int, ...], evaluate: EvaluationFn, rng: random.Random,
                 deadline: float, cancel: Any, fast: Playouts[Any], seats: int,
                 clock: Callable[[], float] = time.perf_counter, terminal: TerminalFn = outcome_value) -> None:
        super().__init__(seat, team, evaluate, rng, deadline, cancel, fast, clock, terminal)
        self.seats = range(seats)
        self.vectors: dict[Any, tuple[tuple[float, ...], int | None, int]] = {}

    def value(self, state: GameState, alpha: float, beta: float, depth: int) -> float:
        return self.vector(state, depth)[self.seat]

    def vector(self, state: GameState, depth: int) -> tuple[float, ...]:
        """Each seat's value of ``state`` searched ``depth`` plies deep."""
        self._tick()
        if state.is_terminal():
            return tuple(self.terminal(state))
        if depth <= 0:
            self.horizon = True
            evaluate, rng = self.evaluate, self.rng
            return tuple(evaluate(state, s, rng) for s in self.seats)
        key = self.solver_key(state)
        entry = self.vectors.get(key) if key is not None else None
        best_move: int | None = None
        if entry is not None:
            vec, best_move, searched = entry
            if searched >= depth:
                if searched < EXACT:
                    self.horizon = True
                return vec
        moves = self.solver_moves(state)
        if best_move is not None and len(moves) > 1 and moves[0] != best_move and best_move in moves:
            moves = [best_move] + [m for m in moves if m != best_move]
        mover = state.current_player
        outer_horizon = self.horizon
        self.horizon = False
        best: tuple[float, ...] | None = None
        chosen = moves[0]
        for m in moves:
            child = state.clone()
            child.do(m)
            vec = self.vector(child, depth - 1)
            if best is None or vec[mover] > best[mover]:
                best, chosen = vec, m
        assert best is not None
        exact_below = not self.horizon
        self.horizon = outer_horizon or self.horizon
        if key is not None:
            self.vectors[key] = (best, chosen, EXACT if exact_below else depth)
        return best


def search_deal(search: _DealSearch, state: GameState, moves: list[int], depth: int,
                allowance: int) -> dict[int, float]:
    """One deal's value per root move by iterative deepening: one ply, then one more at a time up to ``depth``,
    then two more at a time while the previous pass met the depth limit and the next is expected to fit, all
    within ``allowance`` alpha-beta nodes (a pass the allowance interrupts is dropped; the passes before it
    order the moves of the next through the table). Raises _Stop when the clock or cancel interrupts the
    first pass."""
    start = search.nodes
    values, exact = search.root_values(state, moves, 1)
    d = 1
    while not exact:
        spent = search.nodes - start
        if d >= depth and spent * 6 > allowance:
            break  # deeper than asked only when it is expected to fit
        d = d + 1 if d < depth else d + 2
        search.node_cap = start + allowance
        try:
            values, exact = search.root_values(state, moves, d)
        except _Stop:
            if search.nodes <= search.node_cap:
                raise  # the clock, not the allowance
            break
        finally:
            search.node_cap = 1 << 62
    return values


def _team(game: Game, seat: int) -> tuple[int, ...]:
    for t in game.teams():
        if seat in t:
            return tuple(t)
    return (seat,)


LEAF_TABLE_LIMIT = 200_000
"""Transposition entries :func:`leaf_search` keeps before it starts a new table (its keys are whole deals, so
entries stay correct from one position to the next; the limit bounds the memory)."""


def leaf_search(game: Game, seat: int, depth: int, nodes: int, rng: random.Random,
                reward: str = "outcome") -> Callable[[GameState], list[float]]:
    """Every seat's value of an unfinished position, by the search ``pimc`` runs on one deal: the position's own
    moves searched from ``seat``'s side to ``depth`` plies within ``nodes`` alpha-beta nodes (the game's fast path
    where it has one), the position worth the best of them for the side to move (paranoid, two sides: ``seat``'s
    team gets ``v``, the others ``1 - v``), or by max-n with three or more sides. Values are on the scale of
    ``pimc``'s ``reward``: 0 (loss) to 1 (win) as ``outcome`` scores a finished hand, or the ``match`` reward;
    the caller scores finished hands itself."""
    fast = knowledge.playouts(game.name)
    terminal, evaluate, own = hand_values(game.name, reward, fast, 1)
    team = _team(game, seat)
    seats = range(game.num_players)
    if len(game.teams()) >= 3:
        maxn = _MaxNSearch(seat, team, evaluate, rng, inf, None, fast, game.num_players, terminal=terminal)

        def max_n_values(state: GameState) -> list[float]:
            if len(maxn.vectors) > LEAF_TABLE_LIMIT:
                maxn.vectors.clear()
            maxn.node_cap = maxn.nodes + nodes
            try:
                return list(maxn.vector(state, depth))
            except _Stop:
                maxn.node_cap = 1 << 62
                return list(maxn.vector(state, 1))
            finally:
                maxn.node_cap = 1 << 62

        return max_n_values
    search = _DealSearch(seat, team, evaluate, rng, inf, None, fast, terminal=terminal)
    fast_deals = own and reward != "match"  # the fast path scores the outcome

    def paranoid_values(state: GameState) -> list[float]:
        moves = state.legal_moves()
        found = fast.deal_search(state, seat, moves, depth, nodes, SCORE_WEIGHT, None) if fast_deals else None
        if found is None:
            if len(search.table) > LEAF_TABLE_LIMIT:
                search.table.clear()
            found = search_deal(search, state, moves, depth, nodes)
        v = max(found.values()) if state.current_player in team else min(found.values())
        return [v if s in team else 1.0 - v for s in seats]

    return paranoid_values


class PIMCAgent(Agent):
    """Perfect Information Monte Carlo: alpha-beta on ``deals`` sampled deals, values averaged per move."""

    name = "pimc"
    description = ("perfect information Monte Carlo (fair): alpha-beta on sampled deals to a depth limit, "
                   "each move's values averaged over the deals")
    params = (
        Option("deals", 12, "sampled deals per decision (0 = use 'seconds' only)", type=int, min=0,
               max=1_000_000),
        Option("depth", 5, "plies searched on each deal, the move itself included, before the evaluation",
               type=int, min=1, max=200),
        Option("seconds", 0.0, "time budget per decision in seconds (0 = use 'deals' only)", type=float,
               min=0.0, max=86_400.0),
        Option("nodes", 1500, "alpha-beta nodes a deal may spend: iterative deepening stops at the last pass "
               "that fits (short of 'depth' in wide positions; past it, two plies at a time, when the next pass is "
               "expected to fit: to the end of the hand late in it)", type=int, min=1, max=100_000_000),
        Option("bias", "auto", "biased determinization: a belief function registered for the game, 'auto' (the "
               "game's first, if it has one) or 'none' (uniform deals)", type=str),
        Option("opponents", "auto", "how the other sides play in each deal's search: 'paranoid' (all against the "
               "deciding side, alpha-beta), 'maxn' (each for itself, max-n) or 'auto' (max-n with three or more "
               "sides, else paranoid)", choices=("auto", "paranoid", "maxn")),
        Option("playouts", 1, "random playouts per evaluation at the depth limit, in games without an evaluation "
               "of their own", type=int, min=1, max=10_000),
        Option("reward", "outcome", "what a finished hand is worth: 'outcome' (win, draw or loss, a little of the "
               "score breaking ties) or 'match' (0.5 plus half the side's lead in match points: the hand played "
               "for what it adds to a match)", choices=("outcome", "match")),
        CLOCK_OPTION,
    )

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.bias_fn: Callable[[Any], Any] | None = None
        bias = str(self.config["bias"])
        if bias == "auto":
            names = knowledge.registered(game.name)["bias"]
            if names:
                self.bias_fn = knowledge.bias(game.name, names[0])
        elif bias not in ("none", ""):
            self.bias_fn = knowledge.bias(game.name, bias)  # VariantError lists the game's belief functions
        opponents = str(self.config["opponents"])
        self.maxn = opponents == "maxn" or opponents == "auto" and len(game.teams()) >= 3
        self.fast = knowledge.playouts(game.name)
        reward = str(self.config["reward"])
        self.terminal, self.evaluate, own = hand_values(game.name, reward, self.fast, int(self.config["playouts"]))
        # the game's fast path computes the generic search's values with the game's own evaluation, paranoid
        self.fast_deals = own and reward != "match" and not self.maxn

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        moves = obs.legal_moves()
        if not moves:
            raise VariantError("no legal move: the hand is over or it is not this seat's turn")
        if len(moves) == 1:
            return moves[0]
        deals = int(self.config["deals"])
        seconds = float(self.config["seconds"])
        cancel = on_progress = None
        if budget is not None:
            if budget.iterations is not None:
                deals = budget.iterations
            if budget.seconds is not None:
                seconds = budget.seconds
            cancel, on_progress = budget.cancel, budget.on_progress
        if deals <= 0 and seconds <= 0:
            deals = int(self.params[0].default)
        now = CLOCKS[str(self.config["clock"])]
        start = time.perf_counter()
        deadline = now() + seconds if seconds > 0 else inf
        sampler = DealSampler(obs, self.bias_fn(obs) if self.bias_fn is not None else None)
        team = _team(self.game, obs.seat)
        search = (_MaxNSearch(obs.seat, team, self.evaluate, rng, deadline, cancel, self.fast, self.game.num_players,
                              now, self.terminal)
                  if self.maxn else _DealSearch(obs.seat, team, self.evaluate, rng, deadline, cancel, self.fast, now,
                                                self.terminal))
        depth = int(self.config["depth"])
        allowance = int(self.config["nodes"])
        totals = dict.fromkeys(moves, 0.0)
        done = 0

        def stop() -> bool:
            return (deadline != inf and now() >= deadline) or (cancel is not None and cancel.is_set())

        while deals <= 0 or done < deals:
            if done and stop():
                break
            state = sampler.deal(rng)
            try:
                found = self.fast.deal_search(state, obs.seat, moves, depth, allowance, SCORE_WEIGHT, stop) \
                    if self.fast_deals else None
                values = found if found is not None else search_deal(search, state, moves, depth, allowance)
            except (_Stop, SearchInterrupted):  # the interrupted deal's moves are not comparable: dropped
                if done or (cancel is not None and cancel.is_set()):
                    break
                search.deadline = inf  # no deal finished in time: one ply of this deal decides
                values, _exact = search.root_values(state, moves, 1)
            for m, v in values.items():
                totals[m] += v
            done += 1
            if on_progress is not None:
                best = max(moves, key=totals.__getitem__)
                on_progress(Progress(done, best, totals[best] / done, time.perf_counter() - start))
        if not done:
            return moves[0]  # cancelled before any deal
        return max(moves, key=totals.__getitem__)  # ties: the first in legal order
