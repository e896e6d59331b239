"""Depth-limited alpha-beta on one full deal of two-player Bisca or Briscola, on ints: the fast path of the
perfect-information search that ``pimc`` runs on each sampled deal (:meth:`BiscaPlayouts.deal_search`).

It computes exactly what the generic search of :mod:`engine.search.pimc` computes on a
:class:`~engine.games.tricks.bisca.BiscaState` (the same tested values at every depth), without building a
state per node: a position is the two hands, how many stock cards are left, the card led (if any), who is to
move and the card points taken. A finished hand is worth ``(1 - w) * outcome + w * points / total`` for the
searching seat (``w`` the caller's score weight); a position at the depth limit is worth the game's
:func:`~engine.games.tricks.evaluation.card_points_evaluation`. Moves are tried in the generic search's order
(the table's best move first; the last card of a trick by what the trick brings, other cards the most
valuable first), and cards that play exactly like a lower one of the same hand are searched once when the
stock is gone. The transposition table keys positions between tricks by the hands, the stock left, who leads
and the searching seat's points (the other side's follow from them).

Applies to two players without a trump exchange (:func:`applies`); the other variants keep the generic search.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from engine.games.tricks.core import equivalent_cards
from engine.games.tricks.evaluation import points_value
from engine.knowledge import SearchInterrupted

__all__ = ["EXACT", "DealSolver", "applies"]

EXACT = 1 << 30
"""Depth recorded for a table entry whose whole subtree reached the end of the hand."""

CHECK_EVERY = 256
"""Nodes between two calls of the caller's ``stop``."""


def applies(state: Any) -> bool:
    """Whether :class:`DealSolver` can search ``state``: two players, no trump exchange, no stock card hidden."""
    return (state.num_players == 2 and state.exchange_card < 0 and not state.hidden_stock
            and len(state.stock) % 2 == 0)


class _Allowance(Exception):
    """A deepening pass ran out of its node allowance."""


class DealSolver:
    """Alpha-beta for ``seat`` on the full deal ``state`` (two-player Bisca or Briscola, see :func:`applies`)."""

    def __init__(self, state: Any, seat: int, score_weight: float, stop: Callable[[], bool] | None) -> None:
        self.game = g = state.game
        self.points = g.card_points
        self.strength = g.strength
        self.suit_of = g.suit_of
        self.suit_masks = g.suit_masks
        self.trump = state.trump
        self.keys = g.winner_keys(state.trump)
        self.follow = g.follow_after_stock
        self.total = g.total_points
        self.stock = state.stock  # top last
        self.score_weight = score_weight
        self.stop = stop
        me, other = seat, 1 - seat
        self.hm, self.ho = state.hands[me], state.hands[other]
        sides = state.side_points()
        self.pm, self.po = sides[me], sides[other]
        trick = state.trick
        self.lead = trick[0] if trick else -1
        self.mover = 0 if state.current == me else 1
        self.table: dict[tuple[int, int, int, int, int], tuple[float, float, int, int]] = {}
        self.nodes = 0
        self.node_cap = 1 << 62
        self.next_check = CHECK_EVERY
        self.horizon = False
        self.move_cache: dict[tuple[int, int, int], list[int]] = {}

    # --- values ----------------------------------------------------------------------------------------
    def terminal(self, pm: int) -> float:
        total = self.total
        outcome = 1.0 if 2 * pm > total else 0.5 if 2 * pm == total else 0.0
        return (1.0 - self.score_weight) * outcome + self.score_weight * (pm / total)

    def evaluate(self, pm: int, po: int) -> float:
        return points_value(pm, po, self.total)

    # --- moves -----------------------------------------------------------------------------------------
    def moves(self, hm: int, ho: int, top: int, mover: int, lead: int) -> list[int]:
        """The cards to search, likely best first, less those a lower equivalent card stands for (cached: the
        caller must not change the list)."""
        hand = hm if mover == 0 else ho
        if lead >= 0 and self.follow and not top:
            follow = hand & self.suit_masks[self.suit_of[lead]]
            if follow:
                hand = follow
        in_play = 0 if top else hm | ho | (1 << lead if lead >= 0 else 0)
        cache_key = (hand, lead, in_play)
        cards = self.move_cache.get(cache_key)
        if cards is None:
            cards = self.move_cache[cache_key] = self._order(hand, lead, in_play)
        return cards

    def _order(self, hand: int, lead: int, in_play: int) -> list[int]:
        cards = []
        rest = hand
        while rest:
            low = rest & -rest
            cards.append(low.bit_length() - 1)
            rest ^= low
        if len(cards) < 2:
            return cards
        if in_play:
            same = equivalent_cards(self.game, hand, in_play)
            if same:
                cards = [c for c in cards if c not in same]
                if len(cards) < 2:
                    return cards
        points, strength = self.points, self.strength
        if lead >= 0:
            key = self.keys[self.suit_of[lead]]
            lead_key = key[lead]
            lead_points = points[lead]
            return sorted(cards, key=lambda c: (-(lead_points + points[c]) if key[c] > lead_key
                                                else lead_points + points[c], strength[c]))
        suit, trump = self.suit_of, self.trump
        return sorted(cards, key=lambda c: (-points[c], suit[c] == trump, -strength[c]))

    # --- search ----------------------------------------------------------------------------------------
    def child(self, hm: int, ho: int, top: int, mover: int, lead: int, pm: int, po: int, card: int,
              alpha: float, beta: float, depth: int) -> float:
        """The value after ``mover`` plays ``card``, searched ``depth`` plies deep."""
        if mover == 0:
            hm &= ~(1 << card)
        else:
            ho &= ~(1 << card)
        if lead < 0:
            return self.value(hm, ho, top, 1 - mover, card, pm, po, alpha, beta, depth)
        key = self.keys[self.suit_of[lead]]
        winner = mover if key[card] > key[lead] else 1 - mover
        taken = self.points[lead] + self.points[card]
        if winner == 0:
            pm += taken
        else:
            po += taken
        if top:
            stock = self.stock
            first, second = 1 << stock[top - 1], 1 << stock[top - 2]
            if winner == 0:
                hm, ho = hm | first, ho | second
            else:
                hm, ho = hm | second, ho | first
            top -= 2
        return self.value(hm, ho, top, winner, -1, pm, po, alpha, beta, depth)

    def value(self, hm: int, ho: int, top: int, mover: int, lead: int, pm: int, po: int, alpha: float,
              beta: float, depth: int) -> float:
        """The position's value searched ``depth`` plies deep: exact inside (alpha, beta), else a bound on the
        correct side of the window."""
        self.nodes = nodes = self.nodes + 1
        if nodes > self.node_cap:
            raise _Allowance
        if nodes >= self.next_check:
            self.next_check += CHECK_EVERY
            if self.stop is not None and self.stop():
                raise SearchInterrupted
        if lead < 0:
            if not (hm | ho):
                return self.terminal(pm)
            if depth <= 0:
                self.horizon = True
                return self.evaluate(pm, po)
            position = (hm, ho, top, mover, pm)
            key: tuple[int, int, int, int, int] | None = position
            entry = self.table.get(position)
        else:
            if depth <= 0:
                self.horizon = True
                return self.evaluate(pm, po)
            key = entry = None
        best_move = -1
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
        moves = self.moves(hm, ho, top, mover, lead)
        if best_move >= 0 and len(moves) > 1 and moves[0] != best_move and best_move in moves:
            moves = [best_move] + [m for m in moves if m != best_move]
        maximizing = mover == 0
        outer_horizon = self.horizon
        self.horizon = False
        value = -math.inf if maximizing else math.inf
        chosen = moves[0]
        depth -= 1
        if lead >= 0:
            win_key = self.keys[self.suit_of[lead]]
            lead_key = win_key[lead]
            lead_points = self.points[lead]
            points = self.points
            drawn = top > 0
            if drawn:
                first, second = 1 << self.stock[top - 1], 1 << self.stock[top - 2]
                top -= 2
        for m in moves:
            if lead < 0:
                if mover == 0:
                    v = self.value(hm & ~(1 << m), ho, top, 1, m, pm, po, a, b, depth)
                else:
                    v = self.value(hm, ho & ~(1 << m), top, 0, m, pm, po, a, b, depth)
            else:
                h0 = hm & ~(1 << m) if mover == 0 else hm
                h1 = ho if mover == 0 else ho & ~(1 << m)
                winner = mover if win_key[m] > lead_key else 1 - mover
                if winner == 0:
                    if drawn:
                        h0, h1 = h0 | first, h1 | second
                    v = self.value(h0, h1, top, 0, -1, pm + lead_points + points[m], po, a, b, depth)
                else:
                    if drawn:
                        h0, h1 = h0 | second, h1 | first
                    v = self.value(h0, h1, top, 1, -1, pm, po + lead_points + points[m], a, b, depth)
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
            searched = EXACT if exact_below else depth + 1
            low, high = -math.inf, math.inf
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

    def root_values(self, moves: list[int], depth: int) -> tuple[dict[int, float], bool]:
        """Each root move's exact value at ``depth`` plies (the move included), and whether every line reached
        the end of the hand."""
        hm, ho, top, mover, lead, pm, po = self.hm, self.ho, len(self.stock), self.mover, self.lead, self.pm, self.po
        values: dict[int, float] = {}
        self.horizon = False
        legal = 0
        for m in moves:
            legal |= 1 << m
        same = equivalent_cards(self.game, legal, hm | ho | (1 << lead if lead >= 0 else 0)) if not top else {}
        for m in moves:
            stand_in = same.get(m)
            if stand_in is not None and stand_in in values:
                values[m] = values[stand_in]
                continue
            values[m] = self.child(hm, ho, top, mover, lead, pm, po, m, -math.inf, math.inf, depth - 1)
        for m in moves:
            stand_in = same.get(m)
            if stand_in is not None and m not in values:
                values[m] = values[stand_in]
        return values, not self.horizon

    def deepen(self, moves: list[int], depth: int, allowance: int) -> dict[int, float]:
        """The root moves' values by iterative deepening within ``allowance`` nodes (as
        :func:`engine.search.pimc.search_deal`): one ply, one more at a time up to ``depth``, then two more
        at a time while the last pass met the depth limit and the next is expected to fit. Raises
        :class:`SearchInterrupted` when ``stop`` interrupts the first pass."""
        start = self.nodes
        values, exact = self.root_values(moves, 1)
        d = 1
        while not exact:
            if d >= depth and (self.nodes - start) * 6 > allowance:
                break
            d = d + 1 if d < depth else d + 2
            self.node_cap = start + allowance
            try:
                values, exact = self.root_values(moves, d)
            except _Allowance:
                break
            finally:
                self.node_cap = 1 << 62
        return values
