"""Exact endgame solving (fernandes2016 5.5 minimax hybrid): when only a few deals are consistent with the
observation, play each deal out by perfect-information alpha-beta and pick the move with the best
average value over all of them (a single deal, as in Bisca after the stock, is solved exactly).

Values are from the deciding seat's side and follow the search's reward: for ``pwl``, ``wl`` and ``sd`` the
hand outcome (1 win, 0.5 draw, 0 loss) plus a small tie breaker for its (team's) points; for ``score`` and
``relative`` that reward itself. Every seat outside its team is assumed to play against it (paranoid).

Where a game gives its side's card points (:meth:`Playouts.solver_points`: Sueca, Bisca, Briscola), every
reward only grows with them, so a single deal is solved on the points alone: one pass with null-window tests
and cut-offs when the points still open cannot reach the window; over several deals the outcome comes from
two null-window questions on the points (more than half? at least half?).

The search keeps one transposition table over all the deals: states that :meth:`Playouts.solver_key` says are equal
for the rest of the hand (trick games: the same cards left, the same trick and the same score, whatever
order the earlier cards came in) are solved once. It tries the best move found for a state first and skips
moves that play exactly like one it keeps (:meth:`Playouts.solver_moves`). A solve
gives up, and the caller's ISMCTS decides, past :data:`NODE_LIMIT` nodes, past :data:`DEPTH_LIMIT` plies,
at the caller's deadline or when the caller's cancel is set.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from engine.cards import bits
from engine.game import GameState
from engine.knowledge import Playouts
from engine.observation import Observation
from engine.search import knowledge
from engine.search.common import reward_vector

__all__ = ["DEPTH_LIMIT", "NODE_LIMIT", "alphabeta", "count_deals", "enumerate_deals", "solve_information_set"]

NODE_LIMIT = 30_000
"""Alpha-beta nodes one decision may spend before the solver gives up (then ISMCTS decides)."""

DEPTH_LIMIT = 200
"""Plies below the decision past which the solver gives up: a hand that can run long (Pharaoh's draws and
passes) must not exhaust Python's recursion limit; the card games' hands end well before it."""

CHECK_EVERY = 512
"""Nodes between two looks at the clock and the cancel flag."""

TIE_BREAK = 1e-3
"""Weight of the seat's points (the score reward, within +-1) behind the outcome, for outcome rewards."""

_OUTCOME_REWARDS = ("pwl", "wl", "sd")

inf = float("inf")


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


class _Solver:
    """Paranoid alpha-beta for one seat with a transposition table, a node budget, a deadline and cancel.

    ``mode`` is what a finished hand is worth: ``"outcome"`` (1 win, 0.5 draw, 0 loss), ``"tiebreak"`` (the
    outcome plus 1e-3 times the seat's score reward) or a reward kind (``"score"``, ``"relative"``)."""

    def __init__(self, seat: int, mode: str, node_limit: int, deadline: float | None, cancel: Any,
                 playouts: Playouts[Any] | None = None, clock: Callable[[], float] = time.perf_counter) -> None:
        self.seat = seat
        self.clock = clock
        if playouts is not None:
            self._use(playouts)
        self.table: dict[Any, tuple[float, float, int | None]] = {}
        self._mode = mode
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.cancel = cancel
        self.next_check = CHECK_EVERY
        self.team: tuple[int, ...] = ()

    @property
    def mode(self) -> str:
        return self._mode

    @mode.setter
    def mode(self, mode: str) -> None:
        """A new kind of value: the table's bounds were of the old kind, so it starts empty."""
        if mode != self._mode:
            self.table.clear()
            self._mode = mode

    def new_deal(self, state: GameState) -> None:
        """Start a deal. The table stays: a key holds every card still in play (the hidden ones of this
        deal included), so a state one deal reaches is worth the same wherever it is met, and the deals'
        lines that meet (in Bisca's last trick before the stock runs out, every line the opponent wins) are
        solved once. A solver made without the game's playouts takes them from the first deal."""
        if not hasattr(self, "playouts"):
            self._use(knowledge.playouts(state.game.name))
        self.team = _team(state, self.seat)

    def _use(self, playouts: Playouts[Any]) -> None:
        """Read the game's solver hooks (:class:`~engine.knowledge.Playouts`) through bound names."""
        self.playouts = playouts
        self.solver_key = playouts.solver_key
        self.solver_moves = playouts.solver_moves
        self.solver_points = playouts.solver_points

    def terminal_value(self, state: GameState) -> float:
        if self.mode == "points":
            return self.solver_points(state, self.seat)[0]  # type: ignore[index]
        res = state.result()
        if self.mode == "outcome":
            return res.outcome(self.seat)
        if self.mode == "tiebreak":
            return res.outcome(self.seat) + TIE_BREAK * reward_vector("score", state, res)[self.seat]
        return reward_vector(self.mode, state, res)[self.seat]

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _TooBig
        if self.nodes >= self.next_check:
            self.next_check += CHECK_EVERY
            if self.deadline is not None and self.clock() >= self.deadline:
                raise _TooBig
            if self.cancel is not None and self.cancel.is_set():
                raise _TooBig

    def value(self, state: GameState, alpha: float, beta: float, depth: int) -> float:
        """The exact value when it lies inside (alpha, beta); else a bound on the correct side of the window."""
        self._tick()
        if depth > DEPTH_LIMIT:
            raise _TooBig
        if state.is_terminal():
            return self.terminal_value(state)
        if self.mode == "points":
            mine, _, open_points = self.solver_points(state, self.seat)  # type: ignore[misc]
            if mine >= beta or not open_points:
                return mine  # at least this much (exactly, once nothing is left to win)
            if mine + open_points <= alpha:
                return mine + open_points  # at most this much
        key = self.solver_key(state)
        best_move: int | None = None
        if key is not None:
            entry = self.table.get(key)
            if entry is not None:
                low, high, best_move = entry
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
                alpha0, beta0 = max(alpha, low), min(beta, high)
            else:
                alpha0, beta0 = alpha, beta
        else:
            alpha0, beta0 = alpha, beta
        a, b = alpha0, beta0
        moves = self.solver_moves(state)
        if best_move is not None and best_move in moves and moves[0] != best_move:
            moves = [best_move] + [m for m in moves if m != best_move]
        maximizing = state.current_player in self.team
        value = -inf if maximizing else inf
        chosen = moves[0]
        scout = self.mode == "points"  # integer values: after the first move, test with a null window
        for i, m in enumerate(moves):
            child = state.clone()
            child.do(m)
            if scout and i and b - a > 1:
                if maximizing:
                    v = self.value(child, a, a + 1, depth + 1)
                    if a < v < b:  # better than a: find how much
                        v = self.value(child, a, b, depth + 1)
                else:
                    v = self.value(child, b - 1, b, depth + 1)
                    if a < v < b:
                        v = self.value(child, a, b, depth + 1)
            else:
                v = self.value(child, a, b, depth + 1)
            if maximizing:
                if v > value:
                    value, chosen = v, m
                if value > a:
                    a = value
            else:
                if v < value:
                    value, chosen = v, m
                if value < b:
                    b = value
            if a >= b:
                break
        if key is not None:
            low, high = (entry[0], entry[1]) if entry is not None else (-inf, inf)
            if value <= alpha0:
                high = min(high, value)
            elif value >= beta0:
                low = max(low, value)
            else:
                low = high = value
            self.table[key] = (low, high, chosen)
        return value


def alphabeta(state: GameState, seat: int, alpha: float, beta: float, counter: list[int], depth: int = 0,
              reward: str = "pwl") -> float:
    """Paranoid alpha-beta value of ``state`` for ``seat``'s team (raises _TooBig past NODE_LIMIT nodes or
    DEPTH_LIMIT plies); ``counter[0]`` grows by the nodes visited."""
    mode = "tiebreak" if reward in _OUTCOME_REWARDS else reward
    solver = _Solver(seat, mode, NODE_LIMIT - counter[0], None, None)
    solver.new_deal(state)
    try:
        return solver.value(state, alpha, beta, depth)
    finally:
        counter[0] += solver.nodes


def _team(state: GameState, seat: int) -> tuple[int, ...]:
    for t in state.game.teams():
        if seat in t:
            return t
    return (seat,)


def solve_information_set(obs: Observation, rng: random.Random, limit: int, *, reward: str = "pwl",
                          deadline: float | None = None, cancel: Any = None,
                          node_limit: int = NODE_LIMIT, stats: dict[str, int] | None = None,
                          clock: Callable[[], float] = time.perf_counter) -> int | None:
    """The move with the best average exact value over every consistent deal, or None when there are
    more than ``limit`` deals, the trees are too big to solve within ``node_limit`` nodes, the
    ``deadline`` passes on ``clock`` (default ``time.perf_counter``) or ``cancel`` (anything with ``is_set()``) is set.
    ``reward`` is the search's reward kind (see the module docstring). ``stats``, if given, receives the
    number of consistent ``deals`` (-1: more than ``limit``; -2: not tried, the order of two or more stock
    cards still matters) and the alpha-beta ``nodes`` visited.

    For outcome rewards the solve has two passes: the outcome alone (values 0, 0.5 and 1 prune far more),
    then the points, only among the moves with the best outcome and only inside a narrow window around each
    line's known outcome. That second pass has a node allowance of its own and takes the deals in a random
    order; if it runs out of nodes or time, the deals it solved decide (with none, the first best move)."""
    made: list[_Solver] = []
    info = stats if stats is not None else {}
    try:
        return _solve_information_set(obs, rng, limit, reward, deadline, cancel, node_limit, made, info, clock)
    finally:
        info["nodes"] = sum(solver.nodes for solver in made)


def _solve_information_set(obs: Observation, rng: random.Random, limit: int, reward: str, deadline: float | None,
                           cancel: Any, node_limit: int, made: list[_Solver], info: dict[str, int],
                           clock: Callable[[], float]) -> int | None:
    deals = [[]] if not obs.slots else enumerate_deals(obs, limit)
    if deals is not None:
        info["deals"] = len(deals)
    else:  # -2: an ordered slot (a stock whose order matters) holds two or more cards
        info["deals"] = -2 if any(s.ordered and s.count > 1 for s in obs.slots) else -1
    if not deals:
        return None
    moves = obs.legal_moves()
    playouts = knowledge.playouts(obs.state.game.name)
    states = []
    for deal in deals:
        state = obs.state.clone()
        if obs.slots:
            state.fill_hidden(obs.slots, deal, rng)
        states.append(state)
    if len(states) == 1 and playouts.solver_points(states[0], obs.seat) is not None:
        # Every reward grows with the side's card points: one pass on the points decides, as minimax keeps
        # the order of values under any non-decreasing map (the outcome, the score).
        solver = _Solver(obs.seat, "points", node_limit, deadline, cancel, playouts, clock)
        made.append(solver)
        try:
            totals, _ = _solve_moves(solver, states, moves, None)
        except _TooBig:
            return None
        return max(moves, key=totals.__getitem__)  # a later move was only shown no better, or better
    outcome_first = reward in _OUTCOME_REWARDS
    points_of = playouts.solver_points(states[0], obs.seat)
    solver = _Solver(obs.seat, "outcome" if outcome_first else reward, node_limit, deadline, cancel, playouts,
                     clock)
    made.append(solver)
    try:
        if outcome_first and points_of is not None:
            solver.mode = "points"
            totals, values = _outcomes_by_points(solver, states, moves, sum(points_of) / 2)
        else:
            totals, values = _solve_moves(solver, states, moves, None)
    except _TooBig:
        return None
    best = max(totals.values())
    tied = [m for m in moves if totals[m] >= best - 1e-9]
    if not outcome_first or len(tied) == 1:
        return tied[0]
    if points_of is not None:
        # The side's exact points in each line, inside the range its known outcome allows.
        half = sum(points_of) / 2
        ranges = {0.0: (-inf, half), 0.5: (half - 1, half + 1), 1.0: (half, inf)}
        windows = {dm: ranges[o] for dm, o in values.items()}
        solver.mode = "points"
    else:
        windows = {dm: (o - 2 * TIE_BREAK, o + 2 * TIE_BREAK) for dm, o in values.items()}
        solver.mode = "tiebreak"
    # The tie break gets a node allowance of its own; the deals come in a random order, and if it runs
    # out, the deals solved so far decide.
    solver.node_limit = solver.nodes + node_limit
    order = list(range(len(states)))
    rng.shuffle(order)
    try:
        points, _ = _solve_moves(solver, [states[d] for d in order], tied,
                                 {(i, m): windows[d, m] for i, d in enumerate(order) for m in tied}, partial=True)
    except _TooBig:
        return tied[0]
    return max(tied, key=lambda m: points[m])


def _outcomes_by_points(solver: _Solver, states: list[GameState], moves: list[int], half: float,
                        ) -> tuple[dict[int, float], dict[tuple[int, int], float]]:
    """:func:`_solve_moves` for the outcome of a card-point game (1 above ``half`` of the points, 0.5 at it, 0
    below), from null-window tests of the side's points: more than half, else at least half."""
    totals = dict.fromkeys(moves, 0.0)
    values: dict[tuple[int, int], float] = {}
    for d, state in enumerate(states):
        solver.new_deal(state)
        same = solver.playouts.solver_equivalents(state, moves)
        for m in moves:
            stand_in = same.get(m)
            if stand_in is not None and (d, stand_in) in values:
                o = values[d, stand_in]
            else:
                child = state.clone()
                child.do(m)
                if solver.value(child, half, half + 1, 1) > half:
                    o = 1.0
                elif solver.value(child, half - 1, half, 1) >= half:
                    o = 0.5
                else:
                    o = 0.0
            values[d, m] = o
            totals[m] += o
    return totals, values


def _solve_moves(solver: _Solver, states: list[GameState], moves: list[int],
                 windows: dict[tuple[int, int], tuple[float, float]] | None, *, partial: bool = False,
                 ) -> tuple[dict[int, float], dict[tuple[int, int], float]]:
    """Each move's value summed over the deals, and each (deal, move) value. With one deal, a move only has
    to be shown no better than the best so far. ``windows``: the (deal, move) value ranges an outcome pass
    has fixed (exclusive bounds) for a second pass. With ``partial``, running out of nodes or time after
    one or more whole deals returns the sums over those deals instead of giving up."""
    totals = dict.fromkeys(moves, 0.0)
    values: dict[tuple[int, int], float] = {}
    single = len(states) == 1
    for d, state in enumerate(states):
        solver.new_deal(state)
        best = -inf
        same = solver.playouts.solver_equivalents(state, moves)
        row: dict[int, float] = {}
        try:
            for m in moves:
                stand_in = same.get(m)
                if stand_in is not None and stand_in in row:
                    row[m] = row[stand_in]
                    continue
                child = state.clone()
                child.do(m)
                low, high = windows[d, m] if windows is not None else (-inf, inf)
                if single and best > low and solver.mode == "points":
                    v = solver.value(child, best, best + 1, 1)  # only a better move matters
                    if v > best:
                        v = solver.value(child, best, high, 1)
                else:
                    if single and best > low:
                        low = best - 1e-9
                    v = solver.value(child, low, high, 1)
                row[m] = v
                best = max(best, v)
        except _TooBig:
            if partial and d > 0:
                return totals, values
            raise
        for m, v in row.items():
            values[d, m] = v
            totals[m] += v
    return totals, values
