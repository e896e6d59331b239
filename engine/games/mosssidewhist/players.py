"""The Moss Side Whist ``heuristic`` player, written rule by rule (decides from its observation only).

Moss Side Whist (:class:`WhistPlayer`): ``void-discard`` (the leader buries whole side suits without an ace when
they fit in the discards left, two before one, then those costing the fewest honours, to ruff them later; the rest
by huang2017's Discard Lowest Suit: the lowest non-honour, non-trump cards of its shortest suits), then Whist
play: ``draw-trumps`` (lead the master spade while spades are out; the hand's leader, who plays alone against
two, also leads its top spade without the master while it holds :data:`LEADER_TRUMP_LEAD` spades or more),
``lead-master`` (cash a side master no void opponent can ruff), ``lead-long`` (no master: the highest card below
the jack of the longest side suit, keeping away from suits whose honours are not masters, so the players after it
must spend high cards), ``win-cheaply`` (win with the lowest card that takes the trick now; second hand, keeping a
master back for later, makes the last player beat that card), ``second-low`` (second hand whose cheapest winner is
a queen or higher and not sure to hold plays low), ``ruff`` and ``discard-low``.
The empty-suit evaluator (ESE, huang2017) is :func:`whist_ese_bias`: once one opponent shows out of a suit, the
rest of the suit is placed with the other opponent (or, for a non-leader, with the leader's discards when DLS says
they were discarded); the players use it to judge whether a card can still be beaten.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np

from engine.cards import bits, iter_bits, popcount
from engine.games.mosssidewhist.rules import DISCARDS
from engine.games.tricks.core import PASS_FLAG
from engine.games.tricks.players import RulePlayerAgent, TrickView
from engine.observation import Observation

__all__ = ["HeuristicAgent", "WhistPlayer", "dls_discard_rule", "heuristic_move", "random_discard_rule",
           "whist_dls_discards", "whist_ese_bias", "whist_void_discards"]


# --------------------------------------------------------------------------------------------------------
# Moss Side Whist
# --------------------------------------------------------------------------------------------------------
def whist_dls_discards(game: Any, hand: int, count: int = 4, trump: int = 3) -> list[int]:
    """Discard Lowest Suit (huang2017): the ``count`` lowest non-honour, non-trump cards of the shortest
    side suits; honours (J and above) and trumps only when nothing else is left. Ordered: first discard
    first."""
    d = game.deck
    honour = d.ranks.index("J")
    length = {s: popcount(hand & d.suit_mask(s)) for s in range(len(d.suits))}

    def key(c: int) -> tuple[int, int, int, int, int]:
        s, r = d.suit_of(c), d.rank_of(c)
        return (s == trump, r >= honour, length[s], r, c)

    return sorted(bits(hand), key=key)[:count]


def whist_void_discards(game: Any, hand: int, count: int = 4, trump: int = 3) -> list[int]:
    """The heuristic's discards: the whole of one or two side suits without an ace that fit in ``count`` (most
    suits first, then the fewest honour ranks given up, then the lowest suits), then :func:`whist_dls_discards`'s
    order for the rest. A void lets the leader ruff the suit. Ordered: first discard first."""
    d = game.deck
    ace = d.ranks.index("A")
    honour = d.ranks.index("J")
    side = [s for s in range(len(d.suits)) if s != trump]
    best: list[int] = []
    best_key: tuple[int, int] | None = None
    for k in (2, 1):
        for suits in itertools.combinations(side, k):
            cards = [c for c in bits(hand) if d.suit_of(c) in suits]
            if len(cards) > count or any(d.rank_of(c) == ace for c in cards):
                continue
            key = (k, -sum(d.rank_of(c) for c in cards if d.rank_of(c) >= honour))
            if best_key is None or key > best_key:
                best, best_key = cards, key
        if best_key is not None:
            break
    rest = [c for c in whist_dls_discards(game, hand, len(bits(hand)), trump) if c not in best]
    return (best + rest)[:count]


def whist_ese_bias(obs: Observation) -> np.ndarray:
    """Empty-suit evaluator (huang2017) as a (slots x deck) belief matrix for ``determinize``.

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


LEADER_TRUMP_LEAD = 4
"""Spades in hand from which the hand's leader draws trumps with its top spade even when that is not the master
(against the one-ply ``greedy`` player: 54.8% instead of 54.4% over eight seeds, measured before second hand won
cheaply; docs/results.md)."""


class WhistPlayer:
    """Moss Side Whist: DLS discards, then plain Whist play to win tricks (module docstring)."""

    def __init__(self) -> None:
        self.last_rule = ""

    def choose(self, obs: Observation) -> int:
        moves = obs.legal_moves()
        discards = [m for m in moves if m & PASS_FLAG]
        if discards:
            st: Any = obs.state
            order = whist_void_discards(st.game, st.hands[obs.seat], DISCARDS - st.discards_done, self._trump(st))
            legal = {m & ~PASS_FLAG: m for m in discards}
            self.last_rule = "void-discard"
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
        trump_mask = v.suit_masks[v.trump]
        trumps = [c for c in moves if v.suit_of[c] == v.trump]
        if trumps and v.out & trump_mask:
            top = max(trumps, key=lambda c: v.strength[c])
            if v.is_master(top) or (v.seat == v.state.hand_leader and len(trumps) >= LEADER_TRUMP_LEAD):
                self.last_rule = "draw-trumps"
                return top
        side = [c for c in moves if v.suit_of[c] != v.trump]
        masters = [c for c in side if v.is_master(c)
                   and not any(v.voids[o] >> v.suit_of[c] & 1 and v.possible[o] & v.out & trump_mask
                               for o in others)]
        if masters:
            self.last_rule = "lead-master"
            return max(masters, key=lambda c: (popcount(v.suit_cards(v.hand, v.suit_of[c])), -c))
        pool = side or moves
        length = [popcount(v.suit_cards(v.hand, s)) for s in range(len(v.suit_masks))]
        honour = v.game.deck.ranks.index("J")
        loose = [any(v.strength[h] >= honour and not v.is_master(h) for h in iter_bits(v.suit_cards(v.hand, s)))
                 for s in range(len(v.suit_masks))]  # a suit holding an honour that is not a master

        def suit_key(c: int) -> tuple[bool, bool, int, int, int]:
            return (v.strength[c] >= honour, loose[v.suit_of[c]], -length[v.suit_of[c]], v.strength[c], c)

        first = min(pool, key=suit_key)
        spots = [c for c in pool if v.suit_of[c] == v.suit_of[first] and v.strength[c] < honour]
        self.last_rule = "lead-long"
        return max(spots, key=lambda c: (v.strength[c], c)) if spots else first

    def follow(self, v: TrickView, moves: list[int]) -> int:
        best, _ = v.winning_card()
        led = v.led
        later = v.later_seats()
        winners = [c for c in moves if v.beats(c, best, led)]
        same = [c for c in winners if v.suit_of[c] == led]
        if same:
            cheapest = min(same, key=lambda c: (v.strength[c], c))
            if (not later or v.strength[cheapest] < v.game.deck.ranks.index("Q")
                    or any(v.safe_for(c, led, (v.seat,)) for c in same)):
                self.last_rule = "win-cheaply"
                return cheapest
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
# The agent and the simulation policy
# --------------------------------------------------------------------------------------------------------
class HeuristicAgent(RulePlayerAgent):
    """Rule-based human-like Moss Side Whist player (fair: decides from its observation only)."""

    name = "heuristic"
    description = "rule-based player encoding well-known human strategy for each game"
    games = ("mosssidewhist",)

    def make_player(self) -> WhistPlayer:
        return WhistPlayer()


_POLICY_PLAYER = WhistPlayer()


def heuristic_move(state: Any, rng: random.Random | None = None) -> int:
    """Simulation policy ``heuristic``: the player's move for the seat to act (from its observation of a full
    or determinized state)."""
    return _POLICY_PLAYER.choose(state.observation(state.current_player))


def dls_discard_rule(state: Any, rng: random.Random | None = None) -> int | None:
    """Decision rule ``dls`` (huang2017 ISMCTS-DLS): in the discard phase the seat to act discards by
    :func:`whist_dls_discards`, else None: the search plays the tricks."""
    if not any(m & PASS_FLAG for m in state.legal_moves()):
        return None
    seat = state.current_player
    return whist_dls_discards(state.game, state.hands[seat], count=1, trump=state.trump)[0] | PASS_FLAG


def random_discard_rule(state: Any, rng: random.Random | None = None) -> int | None:
    """Decision rule ``random`` (huang2017's plain ISMCTS, which leaves the discard step to chance): in the
    discard phase a uniformly random discard drawn from ``rng``, else None: the search plays the tricks."""
    discards = [m for m in state.legal_moves() if m & PASS_FLAG]
    if not discards:
        return None
    if rng is None:
        raise ValueError("the random discard rule needs the agent's rng")
    return rng.choice(discards)
