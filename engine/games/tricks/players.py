"""Rule-based trick-game players: the shared card knowledge and the Sueca/Bisca/Briscola ``heuristic`` agent.

Every player (here and in the Hearts and Moss Side Whist packages) decides from the seat's
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
* ``lead-low-trump``: with a partner, lead the lowest trump worth no points: it draws the opponents' trumps,
  which would otherwise ruff the side's point cards (in Sueca against ``greedy`` 58.9% instead of 55.1%,
  docs/results.md; in two-player Bisca it loses).
* ``lead-low``: otherwise lead the cheapest card (fewest points, lowest) of a side suit, longest suit first;
  never lead trumps or point cards when another card will do.
* ``give-points``: when a partner is winning the trick and it is safe, load it with the highest-point card
  that does not overtake the partner (never waste a master: masters are given last); ``never-overtake``:
  a partner's winning card is never overtaken.
* ``take-cheaply``: when an opponent is winning, take the trick with the cheapest card of the led suit
  that wins safely, if the trick holds points or the card is worthless, but let a trump lead worth less than
  10 points go (the trumps are kept for ruffing the side suits); ``bank-points``: with three cards in
  hand and free play (Briscola), last to play and able to win by following suit, win with the card of the most
  points (banked now, where a loaded card kept in hand may be trumped later).
* ``ruff``: void in the led suit, trump a trick worth at least 4 points with a trump worth nothing, or a
  trick worth 10+ with any trump (keep trumps otherwise: they are the last word at the end of the hand); with
  three cards in hand and free play (Briscola), where trumps are scarce in every hand, only a trick worth 10+
  (or any points in the last three tricks). There ``lead-low`` also leads a low trump before a plain card of 3
  or more points, and ``lead-master`` leads a master worth less than 10 even though it could be trumped.
* ``forced-win``: when every playable card beats the trick so far, win it with the cheapest card no later
  opponent can beat (else the cheapest).
* ``discard-low``: otherwise play the cheapest card: fewest points, never a trump or a master if avoidable,
  from the shortest side suit (to void it).
* ``endgame-count``: when every card left is known (two-player Bisca after the stock) and at most 10 remain,
  count the ending out exactly (alpha-beta over the remaining tricks, maximizing the side's card points).
"""

from __future__ import annotations

import random
from typing import Any

from engine.agent import Agent, Budget
from engine.cards import iter_bits, popcount
from engine.determinize import determinize
from engine.game import Game
from engine.games.tricks.greedy import greedy_move
from engine.observation import Observation

__all__ = ["ENDGAME_CARDS", "HeuristicAgent", "PointTrickPlayer", "RulePlayerAgent", "TrickView", "endgame_best",
           "heuristic_move"]


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
        # Briscola and 3-card Bisca: three cards in hand and free play, trumps scarce in every hand
        self.three_card_free_play: bool = self.free_play and int(g.variant.get("hand_size", 3)) <= 3
        # Four-player Bisca and Briscola: partners, three cards each (Sueca deals ten and has no hand_size)
        self.partners_with_three_cards: bool = (len(self.team) > 1 and "hand_size" in g.variant
                                                and int(g.variant["hand_size"]) <= 3)

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

LOW_TRUMP_LEAD = 3
"""With three cards in hand and free play (Briscola, 3-card Bisca before the stock runs out), leading a trump costs
like leading a plain card of this many points: a low trump goes before a plain card worth 3 or more."""

WORTH_RUFFING = 10
"""With three cards in hand and free play, a master worth less than this is seldom trumped: it is led as a master."""

WORTH_A_TRUMP = 10
"""Points in a trick that are worth any trump: ruffing it with a trump that scores, or overtaking an opponent's
trump lead (a smaller trick led in trumps is let go, keeping the trumps for the side suits; in Bisca against
``greedy`` 61.5% instead of 51.8%, docs/results.md)."""


_UNUSED_RNG = random.Random(0)
"""The ``greedy`` rules take a generator but never draw from it."""

PARTNER_LEADS = frozenset({"lead-master", "draw-trumps", "lead-to-partner-ruff", "lead-low-trump"})
"""The rules that still decide with four players and three cards each; every other decision there is the one-ply
``greedy`` player's, which the other rules lost to (Briscola 37.6% against greedy, docs/results.md)."""


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
        move = self.follow(v, moves) if v.trick else self.lead(v, moves)
        if v.partners_with_three_cards and self.last_rule not in PARTNER_LEADS:
            return self.partnership_move(v, moves, move)
        return move

    def partnership_move(self, v: TrickView, moves: list[int], move: int) -> int:
        """Four players, three cards each: the ``greedy`` player's move (load the partner's trick, take a trick
        worth it as cheaply as possible, else throw the cheapest card; lead the cheapest), named by its rule;
        ``move`` where greedy would take a trump exchange these rules turned down."""
        card = greedy_move(v.state, _UNUSED_RNG)
        if card not in moves:
            return move
        if not v.trick:
            self.last_rule = "lead-low"
        else:
            best, best_seat = v.winning_card()
            self.last_rule = ("load-partner" if best_seat in v.team
                              else "take-cheaply" if v.beats(card, best, v.led) else "discard-low")
        return card

    # --- leading ----------------------------------------------------------------------------------------
    def lead(self, v: TrickView, moves: list[int]) -> int:
        opponents = [s for s in range(v.n) if s not in v.team]
        side = [c for c in moves if v.suit_of[c] != v.trump]
        masters = [c for c in side if v.is_master(c) and v.points[c] > 0
                   and (v.three_card_free_play and v.points[c] < WORTH_RUFFING
                        or not any(v.may_be_void(o, v.suit_of[c]) and v.possible[o] & v.out
                                   & v.suit_masks[v.trump] for o in opponents if v.trump >= 0))]
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
            low_trumps = [c for c in moves if v.suit_of[c] == v.trump and v.points[c] == 0]
            if low_trumps:
                self.last_rule = "lead-low-trump"
                return min(low_trumps, key=lambda c: (v.strength[c], c))
        pool = side or moves
        if v.three_card_free_play and side:
            # Anyone may trump a lead here: a low trump is a cheaper lead than a plain card full of points.
            pool = [c for c in side if v.points[c] < LOW_TRUMP_LEAD] + [c for c in moves if c not in side] or side
        length = {s: popcount(v.suit_cards(v.hand, s)) for s in range(len(v.suit_masks))}
        self.last_rule = "lead-low"
        return min(pool, key=lambda c: (v.points[c] + (LOW_TRUMP_LEAD if v.suit_of[c] == v.trump else 0),
                                        v.is_master(c), -length[v.suit_of[c]], v.strength[c], c))

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
        keep_trumps = led == v.trump and pts < WORTH_A_TRUMP
        if safe_follow and not later and v.three_card_free_play:
            # Last to play, following suit: the trick and the card's points are banked now, where a loaded
            # card kept in a three-card hand is a card the opponent may trump later.
            self.last_rule = "bank-points"
            return max(safe_follow, key=lambda c: (v.points[c], -v.strength[c], -c))
        if safe_follow and not keep_trumps:
            card = min(safe_follow, key=lambda c: (v.points[c], v.strength[c], c))
            if pts > 0 or v.points[card] == 0 or not later:
                self.last_rule = "take-cheaply"
                return card
        ruffs = [c for c in winners if v.suit_of[c] == v.trump and v.suit_of[best] != v.trump]
        if ruffs and led != v.trump:
            safe_ruffs = [c for c in ruffs if not later or v.safe_for(c, led, v.team)] or ruffs
            card = min(safe_ruffs, key=lambda c: (v.points[c], v.strength[c], c))
            few_left = popcount(v.hand) <= 3 and not getattr(v.state, "stock", None)  # the last tricks
            cheap_ruff = v.points[card] == 0 and pts >= 4 and not v.three_card_free_play  # trumps are scarce
            if cheap_ruff or pts >= WORTH_A_TRUMP or (few_left and pts > 0):
                self.last_rule = "ruff"
                return card
        if winners and not later and pts > 0 and not keep_trumps:
            card = min(winners, key=lambda c: (v.points[c], v.strength[c], c))
            if v.points[card] <= pts and not (v.three_card_free_play and v.suit_of[card] == v.trump
                                              and pts < WORTH_A_TRUMP):
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
# The agent and the simulation policy
# --------------------------------------------------------------------------------------------------------
class RulePlayerAgent(Agent):
    """A fair agent that asks a rule-based player (``choose(obs) -> move``, ``last_rule``) for every move."""

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.player = self.make_player()

    def make_player(self) -> Any:
        raise NotImplementedError

    @property
    def last_rule(self) -> str:
        return self.player.last_rule

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        return self.player.choose(obs)


class HeuristicAgent(RulePlayerAgent):
    """Rule-based human-like point-trick player (fair: decides from its observation only)."""

    name = "heuristic"
    description = "rule-based player encoding well-known human strategy for each game"
    games = ("sueca", "bisca", "briscola")

    def make_player(self) -> PointTrickPlayer:
        return PointTrickPlayer()


_POLICY_PLAYER = PointTrickPlayer()


def heuristic_move(state: Any, rng: random.Random | None = None) -> int:
    """Simulation policy ``heuristic``: the player's move for the seat to act (from its observation of a full
    or determinized state)."""
    return _POLICY_PLAYER.choose(state.observation(state.current_player))
