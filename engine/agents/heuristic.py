"""The ``heuristic`` agent: a fair, fast, rule-based player for every game, written rule by rule.

The agent dispatches on the game to a per-game player. Every player decides from the seat's
:class:`~engine.observation.Observation` only (the masked state plus where hidden cards may be), is
deterministic (ties are broken by card index, the ``rng`` is not needed), and explains its choice in
``last_rule`` (the name of the rule that decided the last move) for tests and the app's hints.

Card knowledge shared by the trick-game players (:class:`TrickView`): the cards still *out* (neither in
my hand nor played), the *master* of a suit (the card no out card of that suit beats: this is how the
players "count the aces and sevens still out"), which seats may still hold a card (known voids and the
observation's hidden slots), and whether a trick already won by a partner is *safe*.

Point-trick games - Sueca, Bisca, Briscola (:class:`PointTrickPlayer`), partnerships when the variant
has them:

* ``lead-master``: lead a master of a side suit (highest point master first) when no opponent is known
  to be void in it (they could ruff).
* ``draw-trumps``: with the master trump and more trumps than all the other seats together, lead the
  master trump.
* ``lead-to-partner-ruff``: lead a low card of a side suit the partner is void in (the partner may ruff)
  when the next opponent is not also void in it.
* ``lead-low``: otherwise lead the cheapest card (fewest points, lowest) of a side suit, longest suit first;
  never lead trumps or point cards when another card will do.
* ``give-points``: when a partner is winning the trick and it is safe, load it with the highest-point card
  that does not overtake the partner (never waste a master: masters are given last); ``never-overtake``:
  a partner's winning card is never overtaken.
* ``take-cheaply``: when an opponent is winning, take the trick with the cheapest card of the led suit
  that wins safely, if the trick holds points or the card is worthless.
* ``ruff``: void in the led suit, trump a trick worth at least 4 points with a trump worth nothing, or a
  trick worth 10+ with any trump (keep trumps otherwise: they are the last word at the end of the hand).
* ``forced-win``: when every playable card beats the trick so far, win it with the cheapest card no later
  opponent can beat (else the cheapest).
* ``discard-low``: otherwise play the cheapest card: fewest points, never a trump or a master if avoidable,
  from the shortest side suit (to void it).
* ``endgame-count``: when every card left is known (two-player Bisca after the stock) and at most 10 remain,
  count the ending out exactly (alpha-beta over the remaining tricks, maximizing the side's card points).

Hearts (:class:`HeartsPlayer`): ``pass-danger`` passes the Q/K/A of spades without enough low spades to
protect them, high hearts and the high cards of short side suits (``hearts_pass_choice``); in play
``duck`` (play the highest card that still loses), ``dump-queen`` / ``dump-danger`` (when void, get rid of
the Q of spades, then A/K of spades while the queen is out, then high hearts, then the top of the
shortest suit to void it), ``lead-safe`` (lead the card most likely to lose, staying out of spades while
holding A/K/Q of spades), ``last-take-high`` (when forced to win as last player, win with the highest
card), ``take-low`` (forced to win with players still to come: the lowest card, never the Q of spades),
``void-short-suit`` (void in the led suit with nothing dangerous to drop: the top card of the shortest
suit), ``block-moon`` (when one opponent holds every penalty point so far, win a point trick from them or
keep a heart back rather than feeding them).

Moss Side Whist (:class:`WhistPlayer`): ``dls-discard`` (the leader discards the four lowest non-honour,
non-trump cards of its shortest suits: seeds/003's Discard Lowest Suit), then Whist play: ``lead-master``,
``draw-trumps``, ``lead-short`` (a low non-honour card of the shortest side suit, to ruff it later), ``second-low``,
``win-cheaply`` (third hand, or a master), ``ruff`` and ``discard-low``. The empty-suit evaluator (ESE,
seeds/003) is :func:`whist_ese_bias`: once one opponent shows out of a suit, the rest of the suit is placed
with the other opponent (or, for a non-leader, with the leader's discards when DLS says they were
discarded); the players use it to judge whether a card can still be beaten.

Scopone/Scopa use the Chitarrella-Saracino player and Pharaoh the fair annoying player
(``engine.agents.scopone_rules`` and ``engine.agents.pharaoh_rules``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from engine.agent import Agent, Budget
from engine.cards import bits, iter_bits, popcount
from engine.determinize import determinize
from engine.game import Game
from engine.games.tricks import PASS_FLAG
from engine.observation import Observation

__all__ = ["HeartsPlayer", "HeuristicAgent", "PointTrickPlayer", "TrickView", "WhistPlayer", "heuristic_move",
           "hearts_pass_choice", "whist_dls_discards", "whist_ese_bias"]


# --------------------------------------------------------------------------------------------------------
# Card knowledge from one observation
# --------------------------------------------------------------------------------------------------------
class TrickView:
    """What a trick-game seat knows, precomputed from its observation."""

    def __init__(self, obs: Observation) -> None:
        st: Any = obs.state
        g: Any = st.game
        self.obs = obs
        self.state = st
        self.game = g
        self.seat = obs.seat
        self.n = st.num_players
        self.hand: int = st.hands[obs.seat]
        self.trick: list[int] = list(st.trick)
        self.trick_seats: list[int] = st.trick_seats()
        trump = getattr(st, "trump", -1)
        self.trump: int = trump if isinstance(trump, int) and 0 <= trump < len(g.suit_masks) else -1
        self.suit_of: list[int] = g.suit_of
        self.strength: list[int] = g.strength
        self.points: list[int] = g.card_points
        self.suit_masks: list[int] = g.suit_masks
        played = 0
        for w in st.won:
            played |= w
        for c in self.trick:
            played |= 1 << c
        self.played = played
        self.out: int = g.deck.full_mask & ~self.hand & ~played
        own_discards = getattr(st, "discards", 0)  # Moss Side Whist: the leader knows its discards
        if isinstance(own_discards, int):
            self.out &= ~own_discards
        # Cards each seat may hold: what is known to be there plus the hidden slots it owns.
        self.possible = [st.hands[s] if s != obs.seat else self.hand for s in range(self.n)]
        for slot in obs.slots:
            if 0 <= slot.owner < self.n:
                self.possible[slot.owner] |= slot.allowed & obs.unknown
        self.voids: list[int] = list(st.voids)
        teams = g.teams()
        self.team: tuple[int, ...] = next((t for t in teams if obs.seat in t), (obs.seat,))
        self.led: int = self.suit_of[self.trick[0]] if self.trick else -1
        must_follow = getattr(st, "must_follow", None)
        # Bisca while the stock lasts and Briscola: no duty to follow suit, anyone may trump anything.
        self.free_play: bool = callable(must_follow) and not must_follow()

    # --- cards ------------------------------------------------------------------------------------------
    def suit_cards(self, mask: int, suit: int) -> int:
        return mask & self.suit_masks[suit]

    def higher_out(self, card: int) -> int:
        """Out cards of ``card``'s suit that beat it."""
        s = self.strength[card]
        return sum(1 << c for c in iter_bits(self.out & self.suit_masks[self.suit_of[card]])
                   if self.strength[c] > s)

    def is_master(self, card: int) -> bool:
        """No out card of its suit beats it."""
        return not self.higher_out(card)

    def beats(self, card: int, best: int, led: int) -> bool:
        """Whether ``card`` beats ``best`` in a trick led in suit ``led``."""
        sc, sb = self.suit_of[card], self.suit_of[best]
        if sc == sb:
            return self.strength[card] > self.strength[best]
        return sc == self.trump and sc >= 0

    def winning_card(self) -> tuple[int, int]:
        """(card, seat) currently winning the trick (trick must be non-empty)."""
        idx = self.state.trick_winner_index()
        return self.trick[idx], self.trick_seats[idx]

    def trick_points(self) -> int:
        return sum(self.points[c] for c in self.trick)

    def later_seats(self) -> list[int]:
        """Seats still to play to this trick after me."""
        k = len(self.trick)
        return [(self.seat + i) % self.n for i in range(1, self.n - k)]

    def may_be_void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may be void in ``suit``: known void, or few cards of it are left out."""
        if self.free_play or self.voids[seat] >> suit & 1:
            return True
        if self.state.hands[seat] & self.suit_masks[suit] and seat != self.seat:
            return False  # a visible card of the suit (Sueca's turned trump)
        return popcount(self.out & self.suit_masks[suit]) <= 2

    def can_beat(self, seat: int, card: int, led: int) -> bool:
        """Whether ``seat`` (to play later) may beat ``card`` in a trick led in ``led``."""
        poss = self.possible[seat] & self.out
        same = poss & self.suit_masks[self.suit_of[card]]
        if any(self.strength[c] > self.strength[card] for c in iter_bits(same)) and (
                self.suit_of[card] == led or self.may_be_void(seat, led)):
            return True
        if self.trump < 0 or self.suit_of[card] == self.trump or not self.may_be_void(seat, led):
            return False
        return bool(poss & self.suit_masks[self.trump])

    def safe_for(self, card: int, led: int, ally: tuple[int, ...]) -> bool:
        """Whether no later opponent (seat outside ``ally``) may beat ``card``."""
        return not any(s not in ally and self.can_beat(s, card, led) for s in self.later_seats())


def _low_key(v: TrickView, c: int) -> tuple[int, int, int]:
    return (v.points[c], v.strength[c], c)


# --------------------------------------------------------------------------------------------------------
# Sueca, Bisca, Briscola
# --------------------------------------------------------------------------------------------------------
ENDGAME_CARDS = 10
"""With every card known (two-player Bisca once the stock is out) and at most this many cards left, the
point-trick player counts the ending out exactly (``endgame-count``)."""


def _team_points(state: Any, team: tuple[int, ...]) -> int:
    cp = state.game.card_points
    return sum(cp[c] for s in team for c in iter_bits(state.won[s]))


def endgame_best(state: Any, team: tuple[int, ...], moves: list[int]) -> int:
    """The move that maximizes ``team``'s card points when every remaining card is known (alpha-beta)."""

    def value(st: Any, alpha: int, beta: int) -> int:
        if st.is_terminal():
            return _team_points(st, team)
        mine = st.current in team
        best = -1 if mine else 10**6
        for m in st.legal_moves():
            child = st.clone()
            child.do(m)
            val = value(child, alpha, beta)
            if mine:
                if val > best:
                    best = val
                alpha = max(alpha, val)
            else:
                if val < best:
                    best = val
                beta = min(beta, val)
            if alpha >= beta:
                break
        return best

    best_move, best_val = moves[0], -1
    for m in moves:
        child = state.clone()
        child.do(m)
        val = value(child, best_val, 10**6)
        if val > best_val:
            best_move, best_val = m, val
    return best_move


class PointTrickPlayer:
    """Card-point trick games with trumps (Sueca, Bisca, Briscola); see the module docstring."""

    def __init__(self) -> None:
        self.last_rule = ""

    def choose(self, obs: Observation) -> int:
        moves = obs.legal_moves()
        if len(moves) == 1:
            self.last_rule = "forced"
            return moves[0]
        v = TrickView(obs)
        size = v.game.deck.size
        known = not obs.unknown or (len(obs.slots) == 1 and not obs.slots[0].ordered
                                     and obs.slots[0].count == popcount(obs.unknown))
        if known and popcount(obs.unknown) + sum(popcount(h) for h in v.state.hands) <= ENDGAME_CARDS \
                and all(m < size for m in moves):
            # Every card left is known or forced (one hidden hand holds all the unknown cards): count it out.
            full = determinize(obs, random.Random(0))
            self.last_rule = "endgame-count"
            return endgame_best(full, v.team, moves)
        swaps = [m for m in moves if m >= size]
        if swaps:
            stock = getattr(v.state, "stock", None)
            if stock:
                face_up = stock[0]
                for m in swaps:
                    card = m & 0xFF  # strip the game's flag bits
                    if (v.points[face_up], v.strength[face_up]) > (v.points[card], v.strength[card]):
                        self.last_rule = "trump-exchange"
                        return m
            moves = [m for m in moves if m < size] or moves
            if len(moves) == 1:
                self.last_rule = "forced"
                return moves[0]
        return self.follow(v, moves) if v.trick else self.lead(v, moves)

    # --- leading ----------------------------------------------------------------------------------------
    def lead(self, v: TrickView, moves: list[int]) -> int:
        opponents = [s for s in range(v.n) if s not in v.team]
        side = [c for c in moves if v.suit_of[c] != v.trump]
        masters = [c for c in side if v.is_master(c) and v.points[c] > 0
                   and not any(v.may_be_void(o, v.suit_of[c]) and v.possible[o] & v.out
                               & v.suit_masks[v.trump] for o in opponents if v.trump >= 0)]
        if masters:
            self.last_rule = "lead-master"
            return max(masters, key=lambda c: (v.points[c], -c))
        if v.trump >= 0:
            my_trumps = [c for c in moves if v.suit_of[c] == v.trump]
            out_trumps = popcount(v.out & v.suit_masks[v.trump])
            if my_trumps and out_trumps:
                top = max(my_trumps, key=lambda c: v.strength[c])
                if v.is_master(top) and len(my_trumps) > out_trumps:
                    self.last_rule = "draw-trumps"
                    return top
        partners = [s for s in v.team if s != v.seat]
        if partners and side and v.trump >= 0:
            nxt = (v.seat + 1) % v.n
            for p in partners:
                ruffable = [c for c in side if v.voids[p] >> v.suit_of[c] & 1
                            and not v.voids[p] >> v.trump & 1 and not v.voids[nxt] >> v.suit_of[c] & 1]
                if ruffable:
                    self.last_rule = "lead-to-partner-ruff"
                    return min(ruffable, key=lambda c: _low_key(v, c))
        pool = side or moves
        length = {s: popcount(v.suit_cards(v.hand, s)) for s in range(len(v.suit_masks))}
        self.last_rule = "lead-low"
        return min(pool, key=lambda c: (v.points[c], v.is_master(c), -length[v.suit_of[c]], v.strength[c], c))

    # --- following --------------------------------------------------------------------------------------
    def follow(self, v: TrickView, moves: list[int]) -> int:
        best, best_seat = v.winning_card()
        led = v.led
        pts = v.trick_points()
        later = v.later_seats()
        if best_seat in v.team:
            overtaking = [c for c in moves if v.beats(c, best, led)]
            calm = [c for c in moves if c not in overtaking] or moves
            if v.safe_for(best, led, v.team):
                self.last_rule = "give-points"
                return max(calm, key=lambda c: (v.points[c] - (5 if v.is_master(c) and v.points[c] else 0)
                                                - (20 if v.suit_of[c] == v.trump else 0), -v.strength[c], -c))
            self.last_rule = "never-overtake"
            return self.cheapest(v, calm)
        winners = [c for c in moves if v.beats(c, best, led)]
        follow_win = [c for c in winners if v.suit_of[c] == v.suit_of[best]]
        safe_follow = [c for c in follow_win if not later or v.safe_for(c, led, v.team)]
        if safe_follow:
            card = min(safe_follow, key=lambda c: (v.points[c], v.strength[c], c))
            if pts > 0 or v.points[card] == 0 or not later:
                self.last_rule = "take-cheaply"
                return card
        ruffs = [c for c in winners if v.suit_of[c] == v.trump and v.suit_of[best] != v.trump]
        if ruffs and led != v.trump:
            safe_ruffs = [c for c in ruffs if not later or v.safe_for(c, led, v.team)] or ruffs
            card = min(safe_ruffs, key=lambda c: (v.points[c], v.strength[c], c))
            few_left = popcount(v.hand) <= 3
            if (v.points[card] == 0 and pts >= 4) or pts >= 10 or (few_left and pts > 0):
                self.last_rule = "ruff"
                return card
        if winners and not later and pts > 0:
            card = min(winners, key=lambda c: (v.points[c], v.strength[c], c))
            if v.points[card] <= pts:
                self.last_rule = "take-cheaply"
                return card
        if len(winners) == len(moves):
            # Every card wins for now: make sure of the trick with the cheapest card nobody can beat.
            safe = [c for c in winners if not later or v.safe_for(c, led, v.team)]
            self.last_rule = "forced-win"
            return min(safe or winners, key=lambda c: (v.points[c], v.strength[c], c))
        self.last_rule = "discard-low"
        return self.cheapest(v, moves)

    def cheapest(self, v: TrickView, moves: list[int]) -> int:
        length = {s: popcount(v.suit_cards(v.hand, s)) for s in range(len(v.suit_masks))}
        return min(moves, key=lambda c: (v.points[c], v.suit_of[c] == v.trump, v.is_master(c),
                                         length[v.suit_of[c]], v.strength[c], c))


# --------------------------------------------------------------------------------------------------------
# Hearts
# --------------------------------------------------------------------------------------------------------
def _hearts_suits(game: Any) -> tuple[int, int, int]:
    """(clubs, hearts, spades) suit indexes of the French deck."""
    suits = game.deck.suits
    return suits.index("C"), suits.index("H"), suits.index("S")


def hearts_pass_danger(game: Any, hand: int) -> dict[int, float]:
    """Danger score of each card of a Hearts hand when choosing cards to pass (higher = pass first)."""
    d = game.deck
    _, hearts, spades = _hearts_suits(game)
    rank = {c: d.rank_of(c) for c in iter_bits(hand)}  # 0 = two ... 12 = ace
    q, k, a = d.card(spades, 10), d.card(spades, 11), d.card(spades, 12)
    low_spades = sum(1 for c in iter_bits(hand & d.suit_mask(spades)) if rank[c] < 10)
    out: dict[int, float] = {}
    for c in iter_bits(hand):
        s, r = d.suit_of(c), rank[c]
        if c == q:
            out[c] = 100.0 if low_spades < 4 else 10.0
        elif c in (k, a):
            out[c] = (90.0 + r) if low_spades < 4 and not (hand >> q & 1 and low_spades >= 3) else 12.0 + r
        elif s == spades:
            out[c] = 0.0
        elif s == hearts:
            out[c] = 30.0 + 3 * r if r >= 8 else r
        else:
            length = popcount(hand & d.suit_mask(s))
            out[c] = 2.0 * r + (25.0 if length <= 2 else 8.0 if length == 3 else 0.0)
            if d.text(c) == "2C":
                out[c] = -5.0
    return out


def hearts_pass_choice(obs: Observation, rng: random.Random | None = None) -> int:
    """The Hearts pass move (``PASS_FLAG | card``) a heuristic player makes now: the most dangerous card.

    Usable by any agent (the search agents call it for the passing phase). Deterministic; ``rng`` is
    accepted for a uniform policy signature.
    """
    moves = obs.legal_moves()
    passes = [m for m in moves if m & PASS_FLAG]
    if not passes:
        raise ValueError("hearts_pass_choice: no pass move is legal now")
    st: Any = obs.state
    hand = st.hands[obs.seat]
    danger = hearts_pass_danger(st.game, hand)
    return max(passes, key=lambda m: (danger.get(m & ~PASS_FLAG, -99.0), m & ~PASS_FLAG))


class HeartsPlayer:
    """Hearts: pass danger, duck, dump the queen, void short suits, block a moon (module docstring)."""

    def __init__(self) -> None:
        self.last_rule = ""

    def choose(self, obs: Observation) -> int:
        moves = obs.legal_moves()
        if any(m & PASS_FLAG for m in moves):
            self.last_rule = "pass-danger"
            return hearts_pass_choice(obs)
        if len(moves) == 1:
            self.last_rule = "forced"
            return moves[0]
        v = TrickView(obs)
        g = v.game
        self.clubs, self.hearts, self.spades = _hearts_suits(g)
        d = g.deck
        self.q = d.card(self.spades, 10)
        self.k = d.card(self.spades, 11)
        self.a = d.card(self.spades, 12)
        return self.follow(v, moves) if v.trick else self.lead(v, moves)

    def points_of(self, v: TrickView, cards: list[int] | int) -> int:
        cs = bits(cards) if isinstance(cards, int) else cards
        return sum(13 if c == self.q else 1 if v.suit_of[c] == self.hearts else 0 for c in cs)

    def moon_threat(self, v: TrickView) -> int:
        """A seat other than me holding every penalty point taken so far (at least 8), or -1."""
        taken = [self.points_of(v, w) for w in v.state.won]
        total = sum(taken)
        if total < 8:
            return -1
        for s in range(v.n):
            if s != v.seat and taken[s] == total:
                return s
        return -1

    def queen_out(self, v: TrickView) -> bool:
        return bool(v.out >> self.q & 1)

    def lead(self, v: TrickView, moves: list[int]) -> int:
        threat = self.moon_threat(v)
        if threat >= 0:
            hearts = [c for c in moves if v.suit_of[c] == self.hearts]
            masters = [c for c in hearts if v.is_master(c)]
            if masters:
                self.last_rule = "block-moon"
                return max(masters, key=lambda c: v.strength[c])
        qo = self.queen_out(v)
        holds_high_spade = bool(v.hand & ((1 << self.q) | (1 << self.k) | (1 << self.a)))
        length = {s: popcount(v.suit_cards(v.hand, s)) for s in range(4)}

        def risk(c: int) -> tuple[float, ...]:
            s = v.suit_of[c]
            higher = popcount(v.higher_out(c))
            bad = 0.0
            if s == self.spades and (holds_high_spade and c in (self.q, self.k, self.a) or c == self.q):
                bad += 50
            if s == self.spades and holds_high_spade and qo:
                bad += 10
            if s == self.hearts:
                bad += 2
            if higher == 0 and popcount(v.out & v.suit_masks[s]) > 0:
                bad += 30  # would win the trick
            return (bad - higher, length[s], v.strength[c], c)

        self.last_rule = "lead-safe"
        return min(moves, key=risk)

    def follow(self, v: TrickView, moves: list[int]) -> int:
        best, best_seat = v.winning_card()
        led = v.led
        later = v.later_seats()
        threat = self.moon_threat(v)
        trick_pts = self.points_of(v, v.trick)
        following = v.suit_of[moves[0]] == led
        if following:
            losers = [c for c in moves if not v.beats(c, best, led)]
            if threat >= 0 and best_seat == threat and (trick_pts > 0 or later):
                winners = [c for c in moves if v.beats(c, best, led) and c != self.q]
                if winners:
                    self.last_rule = "block-moon"
                    return max(winners, key=lambda c: v.strength[c]) if not later else \
                        min(winners, key=lambda c: v.strength[c])
            if led == self.spades and self.q in moves and not v.beats(self.q, best, led):
                self.last_rule = "dump-queen"
                return self.q
            if losers:
                self.last_rule = "duck"
                safe = [c for c in losers if c != self.q] or losers
                return max(safe, key=lambda c: (v.strength[c], c))
            if not later:
                self.last_rule = "last-take-high"
                pool = [c for c in moves if c != self.q] or moves
                return max(pool, key=lambda c: (v.strength[c], c))
            self.last_rule = "take-low"
            pool = [c for c in moves if c not in (self.q, self.k, self.a) or not self.queen_out(v)] or moves
            pool = [c for c in pool if c != self.q] or pool
            return min(pool, key=lambda c: (v.strength[c], c))
        # void in the led suit: discard
        if threat >= 0 and best_seat == threat:
            clean = [c for c in moves if self.points_of(v, [c]) == 0]
            if clean:
                self.last_rule = "block-moon"
                return max(clean, key=lambda c: (v.strength[c], c))
        if self.q in moves:
            self.last_rule = "dump-queen"
            return self.q
        if self.queen_out(v):
            high = [c for c in moves if c in (self.a, self.k)]
            if high:
                self.last_rule = "dump-danger"
                return max(high, key=lambda c: v.strength[c])
        hearts = [c for c in moves if v.suit_of[c] == self.hearts]
        if hearts:
            self.last_rule = "dump-danger"
            return max(hearts, key=lambda c: (v.strength[c], c))
        length = {s: popcount(v.suit_cards(v.hand, s)) for s in range(4)}
        self.last_rule = "void-short-suit"
        return min(moves, key=lambda c: (length[v.suit_of[c]], -v.strength[c], c))


# --------------------------------------------------------------------------------------------------------
# Moss Side Whist
# --------------------------------------------------------------------------------------------------------
def whist_dls_discards(game: Any, hand: int, count: int = 4, trump: int = 3) -> list[int]:
    """Discard Lowest Suit (seeds/003): the ``count`` lowest non-honour, non-trump cards of the shortest
    side suits; honours (J and above) and trumps only when nothing else is left. Ordered: first discard
    first."""
    d = game.deck
    honour = d.ranks.index("J")
    length = {s: popcount(hand & d.suit_mask(s)) for s in range(len(d.suits))}

    def key(c: int) -> tuple[int, int, int, int, int]:
        s, r = d.suit_of(c), d.rank_of(c)
        return (s == trump, r >= honour, length[s], r, c)

    return sorted(bits(hand), key=key)[:count]


def whist_ese_bias(obs: Observation) -> np.ndarray:
    """Empty-suit evaluator (seeds/003) as a (slots x deck) belief matrix for ``determinize``.

    When an opponent has shown out of a suit, the rest of that suit is with the other opponent; for a
    non-leader the leader's hidden discards are the exception, modelled by DLS (low side-suit cards of
    the leader's short suits are likely discards, honours and trumps unlikely). Cells the observation
    forbids are zero; everything else starts at 1.
    """
    st: Any = obs.state
    g: Any = st.game
    size = g.deck.size
    m = np.zeros((len(obs.slots), size))
    honour = g.deck.ranks.index("J")
    trump = getattr(st, "trump", 3)
    for i, slot in enumerate(obs.slots):
        for c in iter_bits(slot.allowed & obs.unknown):
            m[i, c] = 1.0
    for i, slot in enumerate(obs.slots):
        if slot.owner < 0:  # hidden discards
            for c in iter_bits(slot.allowed & obs.unknown):
                r = g.deck.rank_of(c)
                m[i, c] = 0.05 if (g.suit_of[c] == trump or r >= honour) else 1.0 + (honour - r) * 0.3
    hand_rows = [i for i, s in enumerate(obs.slots) if s.owner >= 0]
    for i in hand_rows:
        owner = obs.slots[i].owner
        for suit in range(len(g.suit_masks)):
            if st.voids[owner] >> suit & 1:
                for j in hand_rows:
                    if j != i:
                        m[j, :] = np.where(np.arange(size) // len(g.deck.ranks) == suit, m[j, :] * 4.0, m[j, :])
    return m


class WhistPlayer:
    """Moss Side Whist: DLS discards, then plain Whist play to win tricks (module docstring)."""

    def __init__(self) -> None:
        self.last_rule = ""

    def choose(self, obs: Observation) -> int:
        moves = obs.legal_moves()
        discards = [m for m in moves if m & PASS_FLAG]
        if discards:
            st: Any = obs.state
            order = whist_dls_discards(st.game, st.hands[obs.seat], count=len(discards), trump=self._trump(st))
            legal = {m & ~PASS_FLAG: m for m in discards}
            self.last_rule = "dls-discard"
            for c in order:
                if c in legal:
                    return legal[c]
            return discards[0]
        if len(moves) == 1:
            self.last_rule = "forced"
            return moves[0]
        v = TrickView(obs)
        v.team = (v.seat,)
        return self.follow(v, moves) if v.trick else self.lead(v, moves)

    @staticmethod
    def _trump(st: Any) -> int:
        t = getattr(st, "trump", -1)
        return t if isinstance(t, int) and t >= 0 else st.game.deck.suits.index("S")

    def lead(self, v: TrickView, moves: list[int]) -> int:
        others = [s for s in range(v.n) if s != v.seat]
        side = [c for c in moves if v.suit_of[c] != v.trump]
        masters = [c for c in side if v.is_master(c)
                   and not any(v.voids[o] >> v.suit_of[c] & 1 and v.possible[o] & v.out & v.suit_masks[v.trump]
                               for o in others)]
        if masters:
            self.last_rule = "lead-master"
            return max(masters, key=lambda c: (popcount(v.suit_cards(v.hand, v.suit_of[c])), -c))
        trumps = [c for c in moves if v.suit_of[c] == v.trump]
        out_trumps = popcount(v.out & v.suit_masks[v.trump]) if v.trump >= 0 else 0
        if trumps and out_trumps:
            top = max(trumps, key=lambda c: v.strength[c])
            if v.is_master(top) and len(trumps) >= out_trumps:
                self.last_rule = "draw-trumps"
                return top
        pool = side or moves
        length = {s: popcount(v.suit_cards(v.hand, s)) for s in range(len(v.suit_masks))}
        self.last_rule = "lead-short"
        honour = v.game.deck.ranks.index("J") if "J" in v.game.deck.ranks else 99
        return min(pool, key=lambda c: (v.strength[c] >= honour, length[v.suit_of[c]], v.strength[c], c))

    def follow(self, v: TrickView, moves: list[int]) -> int:
        best, _ = v.winning_card()
        led = v.led
        later = v.later_seats()
        winners = [c for c in moves if v.beats(c, best, led)]
        same = [c for c in winners if v.suit_of[c] == led]
        if same:
            safe = [c for c in same if not later or v.safe_for(c, led, (v.seat,))]
            if safe:
                self.last_rule = "win-cheaply"
                return min(safe, key=lambda c: (v.strength[c], c))
            if later:
                self.last_rule = "second-low"
                return min(moves, key=lambda c: (v.strength[c], c))
        ruffs = [c for c in winners if v.suit_of[c] == v.trump]
        if ruffs and not same:
            safe = [c for c in ruffs if not later or v.safe_for(c, led, (v.seat,))] or ruffs
            self.last_rule = "ruff"
            return min(safe, key=lambda c: (v.strength[c], c))
        length = {s: popcount(v.suit_cards(v.hand, s)) for s in range(len(v.suit_masks))}
        self.last_rule = "discard-low"
        return min(moves, key=lambda c: (v.suit_of[c] == v.trump, v.strength[c], length[v.suit_of[c]], c))


# --------------------------------------------------------------------------------------------------------
# The agent
# --------------------------------------------------------------------------------------------------------
class HeuristicAgent(Agent):
    """Rule-based human-like player for every game (fair: decides from its observation only)."""

    name = "heuristic"
    description = ("rule-based player encoding well-known human strategy for each game "
                   "(Scopone: Chitarrella-Saracino; Pharaoh: the fair annoying player)")

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        gname = game.name
        self.player: Any
        if gname in ("sueca", "bisca", "briscola"):
            self.player = PointTrickPlayer()
        elif gname == "hearts":
            self.player = HeartsPlayer()
        elif gname == "mosssidewhist":
            self.player = WhistPlayer()
        elif gname in ("scopone", "scopa"):
            from engine.agents.scopone_rules import ChitarrellaSaracinoAgent
            self.player = _AgentPlayer(ChitarrellaSaracinoAgent(game))
        elif gname == "pharaoh":
            from engine.agents.pharaoh_rules import AnnoyingAgent
            self.player = _AgentPlayer(AnnoyingAgent(game))
        else:
            self.player = None

    @property
    def last_rule(self) -> str:
        return getattr(self.player, "last_rule", "")

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        if self.player is None:
            moves = obs.legal_moves()
            return moves[0]
        return self.player.choose(obs) if not isinstance(self.player, _AgentPlayer) \
            else self.player.agent.choose(obs, rng, budget)

    def reset(self) -> None:
        if isinstance(self.player, _AgentPlayer):
            self.player.agent.reset()


class _AgentPlayer:
    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    @property
    def last_rule(self) -> str:
        return getattr(self.agent, "last_rule", "")


# --------------------------------------------------------------------------------------------------------
# Search hooks
# --------------------------------------------------------------------------------------------------------
_POLICY_PLAYERS: dict[str, Any] = {}


def heuristic_move(state: Any, rng: random.Random | None = None) -> int:
    """Simulation policy: the heuristic player's move for the player to act (from its observation of a
    full or determinized state)."""
    gname = state.game.name
    player = _POLICY_PLAYERS.get(gname)
    if player is None:
        player = PointTrickPlayer() if gname in ("sueca", "bisca", "briscola") else \
            HeartsPlayer() if gname == "hearts" else WhistPlayer()
        _POLICY_PLAYERS[gname] = player
    return player.choose(state.observation(state.current_player))


def _register() -> None:
    try:
        from engine.search import hooks
    except ImportError:
        return
    for g in ("sueca", "bisca", "briscola", "hearts", "mosssidewhist"):
        hooks.register_policy(g, "heuristic", heuristic_move)
    hooks.register_bias("mosssidewhist", "ese", whist_ese_bias)


_register()
