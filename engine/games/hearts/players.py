"""The Hearts ``heuristic`` player, written rule by rule (decides from its observation only).

Hearts (:class:`HeartsPlayer`): ``pass-danger`` passes the Q/K/A of spades without enough low spades to
protect them, then the highest cards, a club or diamond suit of one or two cards counting four ranks higher
(a void to build; hearts first among equal ranks; ``hearts_pass_choice``); in play
``first-trick-high`` (on the first trick, which holds no points, shed the highest club), ``last-take-high``
(last to play on a trick without points: win it or not with the highest card, shedding it), ``duck`` (play the
highest card that still loses), ``dump-queen`` / ``dump-danger`` (when void, get rid of
the Q of spades, then A/K of spades while the queen is out, then, counting the cards out, the card most likely
to win a trick later: the most out cards of its suit below it and the fewest of my own lower cards to duck with,
hearts first among equals), ``lead-safe`` (lead the card most likely to lose, staying out of spades while
holding A/K/Q of spades), ``last-take-high`` (when forced to win as last player, win with the highest
card), ``take-high`` / ``take-low`` (forced to win with players still to come: the highest card
on a trick without points outside spades, else the lowest card, never the Q of spades),
``block-moon`` (when one opponent holds every penalty point so far, at least 20, win a point trick
from them or keep a heart back rather than feeding them).

Shooting the moon: a hand of three or more top cards (``hearts_top_cards``) passes its three lowest cards
(``pass-moon``) and keeps its winners; ``shoot-moon`` then plays to take every trick (lead masters, win with the
highest card, throw low cards without points) while nobody has a point and the hand holds three masters, one of
them a heart, or while I hold every point taken so far and still a master. Passive opponents who duck and
throw their points on the trick's winner feed a moon: against ``greedy`` the player shoots the moon in about one
hand in seven.
"""

from __future__ import annotations

import random
from typing import Any

from engine.cards import bits, iter_bits, popcount
from engine.games.tricks.core import PASS_FLAG
from engine.games.tricks.players import RulePlayerAgent, TrickView
from engine.observation import Observation

__all__ = ["HeartsPlayer", "HeuristicAgent", "hearts_pass_choice", "hearts_pass_danger", "hearts_top_cards",
           "heuristic_move"]

SHORT_SUIT = 2
"""A club or diamond suit this short is passed away first, building a void (``pass-danger``)."""

VOID_BONUS = 12.0
"""Danger added to each card of a short side suit when passing: worth four ranks of a longer suit's card."""

FIRST_TRICK_HAND = 13
"""Cards in hand before the first trick: on it no points may fall, so a follower sheds its highest club."""

HEART_DANGER = 3.0
"""Danger added to a heart when choosing a discard (``dump-danger``): a point card is thrown before a plain card
of the same count."""

NO_FOLLOWERS_SAFETY = 20.0
"""Danger taken off a card of a suit with no card left out: nobody can follow it, so it never wins a trick led by
another seat."""

MOON_PASS_TOP_CARDS = 3
"""A hand holding at least this many top cards (each suit's ace, with the king under a held ace and so on: cards
no unseen card beats) passes its three lowest cards and keeps its winners for a moon (``pass-moon``)."""

MOON_START_MASTERS = 3
"""Before anyone has taken a point, a hand with this many masters (cards no out card beats), at least
:data:`MOON_START_HEARTS` of them hearts, plays to take every trick (``shoot-moon``)."""

MOON_START_HEARTS = 1
"""Master hearts a hand needs to start shooting the moon (:data:`MOON_START_MASTERS`)."""

MOON_KEEP_MASTERS = 1
"""While I hold every point taken so far, I keep shooting as long as I hold this many masters."""

MOON_THREAT_POINTS = 20
"""Penalty points one opponent must hold alone (and all taken so far) before ``block-moon`` plays against them:
the Queen of spades alone is no moon attempt, and blocking it costs points."""


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
            out[c] = 3.0 * r + 1.5
        else:
            length = popcount(hand & d.suit_mask(s))
            out[c] = 3.0 * r + (1.0 if length <= 2 else 0.0)
            if length <= SHORT_SUIT:
                out[c] += VOID_BONUS  # pass a short side suit away: a void to dump points on
            if d.text(c) == "2C":
                out[c] = -5.0
    return out


def hearts_top_cards(game: Any, hand: int) -> int:
    """Cards of ``hand`` that no card outside it beats: in each suit the ace and the unbroken run below it."""
    d = game.deck
    top = 0
    for s in range(len(d.suits)):
        for r in range(len(d.ranks) - 1, -1, -1):
            if not hand >> d.card(s, r) & 1:
                break
            top += 1
    return top


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
            st: Any = obs.state
            if hearts_top_cards(st.game, st.hands[obs.seat]) >= MOON_PASS_TOP_CARDS:
                self.last_rule = "pass-moon"
                d = st.game.deck
                return min((m for m in moves if m & PASS_FLAG), key=lambda m: (d.rank_of(m & ~PASS_FLAG), m))
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
        if self.moon_alive(v):
            return self.shoot(v, moves)
        return self.follow(v, moves) if v.trick else self.lead(v, moves)

    def moon_alive(self, v: TrickView) -> bool:
        """Whether to play for the moon: nobody has a point yet and my hand has :data:`MOON_START_MASTERS` masters
        (:data:`MOON_START_HEARTS` of them hearts), or I hold every point taken so far and still a master."""
        taken = [self.points_of(v, w) for w in v.state.won]
        masters = [c for c in iter_bits(v.hand) if v.is_master(c)]
        if not sum(taken):
            master_hearts = sum(1 for c in masters if v.suit_of[c] == self.hearts)
            return len(masters) >= MOON_START_MASTERS and master_hearts >= MOON_START_HEARTS
        return taken[v.seat] == sum(taken) and len(masters) >= MOON_KEEP_MASTERS

    def shoot(self, v: TrickView, moves: list[int]) -> int:
        """``shoot-moon``: lead a master (hearts first, then the suit with the fewest cards out), else the card
        likeliest to win; follow with the highest card that wins the trick, else throw the lowest card that
        carries no point."""
        self.last_rule = "shoot-moon"
        if not v.trick:
            masters = [c for c in moves if v.is_master(c) and v.out & v.suit_masks[v.suit_of[c]]]
            if masters:
                return max(masters, key=lambda c: (v.suit_of[c] == self.hearts,
                                                   -popcount(v.out & v.suit_masks[v.suit_of[c]]), c))
            return max(moves, key=lambda c: (v.strength[c] - 2 * popcount(v.higher_out(c)), c))
        best, _ = v.winning_card()
        winners = [c for c in moves if v.beats(c, best, v.led)]
        if winners:
            return max(winners, key=lambda c: (v.strength[c], c))
        clean = [c for c in moves if self.points_of(v, [c]) == 0] or moves
        return min(clean, key=lambda c: (v.strength[c], c))

    def points_of(self, v: TrickView, cards: list[int] | int) -> int:
        cs = bits(cards) if isinstance(cards, int) else cards
        return sum(13 if c == self.q else 1 if v.suit_of[c] == self.hearts else 0 for c in cs)

    def moon_threat(self, v: TrickView) -> int:
        """A seat other than me holding every penalty point taken so far (at least
        :data:`MOON_THREAT_POINTS`), or -1."""
        taken = [self.points_of(v, w) for w in v.state.won]
        total = sum(taken)
        if total < MOON_THREAT_POINTS:
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
            if popcount(v.hand) == FIRST_TRICK_HAND and led == self.clubs:
                self.last_rule = "first-trick-high"
                return max(moves, key=lambda c: (v.strength[c], c))
            if not later and trick_pts == 0:
                self.last_rule = "last-take-high"
                pool = [c for c in moves if c != self.q] or moves
                return max(pool, key=lambda c: (v.strength[c], c))
            if losers:
                self.last_rule = "duck"
                safe = [c for c in losers if c != self.q] or losers
                return max(safe, key=lambda c: (v.strength[c], c))
            if not later:
                self.last_rule = "last-take-high"
                pool = [c for c in moves if c != self.q] or moves
                return max(pool, key=lambda c: (v.strength[c], c))
            if trick_pts == 0 and led != self.spades:
                # The trick is mine for now and holds no points: shed the highest card of the suit.
                self.last_rule = "take-high"
                return max(moves, key=lambda c: (v.strength[c], c))
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
        self.last_rule = "dump-danger"
        return max(moves, key=lambda c: self.discard_danger(v, c))

    def discard_danger(self, v: TrickView, card: int) -> tuple[float, int]:
        """How likely ``card`` is to win a trick later (``dump-danger``: the highest is thrown first): the out
        cards of its suit below it, less my own lower cards of the suit (each one a later chance to duck), plus
        :data:`HEART_DANGER` for a heart (it carries a point); a suit with no card out never follows a lead."""
        s = v.suit_of[card]
        out_suit = v.out & v.suit_masks[s]
        below_out = popcount(out_suit) - popcount(v.higher_out(card))
        mine_below = sum(1 for c in iter_bits(v.suit_cards(v.hand, s)) if v.strength[c] < v.strength[card])
        danger = below_out - mine_below + (HEART_DANGER if s == self.hearts else 0.0)
        if not out_suit:
            danger -= NO_FOLLOWERS_SAFETY
        return (danger, v.strength[card])


# --------------------------------------------------------------------------------------------------------
# The agent and the simulation policy
# --------------------------------------------------------------------------------------------------------
class HeuristicAgent(RulePlayerAgent):
    """Rule-based human-like Hearts player (fair: decides from its observation only)."""

    name = "heuristic"
    description = "rule-based player encoding well-known human strategy for each game"
    games = ("hearts",)

    def make_player(self) -> HeartsPlayer:
        return HeartsPlayer()


_POLICY_PLAYER = HeartsPlayer()


def heuristic_move(state: Any, rng: random.Random | None = None) -> int:
    """Simulation policy ``heuristic``: the player's move for the seat to act (from its observation of a full
    or determinized state)."""
    return _POLICY_PLAYER.choose(state.observation(state.current_player))
