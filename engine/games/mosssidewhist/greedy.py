"""Greedy simulation policies for Moss Side Whist (``sim=greedy`` and ``sim=egreedy`` of the ``ismcts`` agent).

In a random playout the aces fall on tricks that a two already wins and trumps are thrown on tricks nobody
contests, so the trick counts it ends with say little about how strong a hand is. These playouts play each
simulated card by a few cheap whist rules instead, reading the determinized hands as bitmasks:

* the leader still to discard throws its lowest plain (non-spade) card, lowest rank first;
* lead a plain suit's top card when no other hand holds a higher card of that suit (a master), else the
  lowest plain card, else the lowest spade;
* follow suit: the last player wins as cheaply as it can; the second player wins only with a card above
  every card of the suit the last player holds (and only if the last player cannot ruff), else plays low;
* when void: ruff (or over-ruff) with the lowest spade that wins, else throw the lowest plain card.

``sim=egreedy`` plays a uniformly random legal card instead with probability :data:`EPSILON` (dipalma2014
5.3's epsilon-greedy simulation strategy: the playouts stay varied). Like the game's own scored playout, these
keep what the rewards read (hands, won cards, trick counts) and skip the history and the voids.

Measured head to head (docs/results.md, "Moss Side Whist"): at 2,000 iterations ``sim=egreedy`` wins more hands
than random playouts (+0.053 outcome) but takes slightly fewer tricks (-0.18 points a hand); at 8,000 it
changes nothing measurable. They cost about 1.25 times a random playout; a research option, not the presets'.
"""

from __future__ import annotations

import random

from engine.agent import Agent, Budget
from engine.game import GameState
from engine.games.mosssidewhist.rules import DISCARDS, SPADES, MossSideWhistState
from engine.games.tricks.core import PASS_FLAG, lowest_rank_card, trick_to_finish
from engine.observation import Observation

EPSILON = 0.1
"""Probability of a uniformly random legal card in ``sim=egreedy``."""

_RANKS = 13
_RANK_MASK = (1 << _RANKS) - 1
_SPADE_MASK = _RANK_MASK << (SPADES * _RANKS)
_PLAIN_BASES = tuple(s * _RANKS for s in range(4) if s != SPADES)


def _lowest(mask: int) -> int:
    """The lowest card (by index) of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def _lowest_plain(hand: int) -> int:
    """The lowest-ranked plain (non-spade) card of a non-empty hand, else its lowest spade."""
    plain = hand & ~_SPADE_MASK
    return lowest_rank_card(plain) if plain else _lowest(hand)


def _greedy_lead(hand: int, others: int) -> int:
    """The lead: a plain suit's master (first such suit), else the lowest plain card, else the lowest spade."""
    for base in _PLAIN_BASES:
        mine = hand >> base & _RANK_MASK
        if mine:
            top = mine.bit_length() - 1
            if not (others >> base & _RANK_MASK) >> top:
                return base + top
    return _lowest_plain(hand)


def greedy_playout(state: GameState, rng: random.Random, epsilon: float = 0.0) -> None:
    """Play a Moss Side Whist ``state`` to the end by the rules above; the state is used up: hands, won cards
    and trick counts end right, the history and the voids do not."""
    if not isinstance(state, MossSideWhistState):
        raise TypeError("greedy_playout plays Moss Side Whist states only")
    rand = rng.random
    g = state.game
    kth = g.tables.kth  # the k-th card of a set, ascending: a uniformly random card with k = rand() * count
    hands, won, tricks_won = state.hands, state.won, state.tricks_won
    if state.discards_done < DISCARDS:
        seat = state.current
        hand = hands[seat]
        discards = state.discards
        for _ in range(DISCARDS - state.discards_done):
            if epsilon and rand() < epsilon:
                card = kth(hand, int(rand() * hand.bit_count()))
            else:
                card = _lowest_plain(hand)
            hand ^= 1 << card
            discards |= 1 << card
        hands[seat] = hand
        state.discards = discards
        state.discards_done = DISCARDS
    suit_masks, suit_of, followers = g.suit_masks, g.suit_of, g.followers
    keys = g.winner_keys(SPADES)
    trick = state.trick
    leader, seats, led, key, best, best_v, best_card, w = trick_to_finish(state, keys)
    if not seats and not hands[leader]:
        return
    while True:
        if not seats:  # lead
            hand = hands[leader]
            if not hand:
                break
            if epsilon and rand() < epsilon:
                card = kth(hand, int(rand() * hand.bit_count()))
            else:
                nxt, last = followers[leader]
                card = _greedy_lead(hand, hands[nxt] | hands[last])
            w = 1 << card
            hands[leader] = hand ^ w
            led = suit_of[card]
            key = keys[led]
            best, best_v, best_card = leader, key[card], card
            seats = followers[leader]
        last = seats[-1]
        led_mask = suit_masks[led]
        for seat in seats:
            hand = hands[seat]
            follow = hand & led_mask
            if epsilon and rand() < epsilon:
                legal = follow or hand
                card = kth(legal, int(rand() * legal.bit_count()))
            elif follow:
                # Cards of the led suit above the best one (none once a spade ruffed a plain suit).
                above = follow >> (best_card + 1) << (best_card + 1) if suit_of[best_card] == led else 0
                if above and seat != last:
                    theirs = hands[last] & led_mask
                    if theirs:
                        above = above >> theirs.bit_length() << theirs.bit_length()
                    elif hands[last] & _SPADE_MASK and led != SPADES:
                        above = 0  # the last player would ruff
                card = _lowest(above) if above else _lowest(follow)
            else:
                spades = hand & _SPADE_MASK
                if spades and suit_of[best_card] == SPADES:
                    spades = spades >> (best_card + 1) << (best_card + 1)
                if spades:
                    card = _lowest(spades)
                else:
                    card = _lowest_plain(hand)
            bit = 1 << card
            hands[seat] = hand ^ bit
            w |= bit
            if key[card] > best_v:
                best, best_v, best_card = seat, key[card], card
        won[best] |= w
        tricks_won[best] += 1
        leader = best
        seats = ()
    trick.clear()
    state.leader = state.current = leader


def greedy_rollout(state: GameState, rng: random.Random) -> None:
    greedy_playout(state, rng, 0.0)


def egreedy_rollout(state: GameState, rng: random.Random) -> None:
    greedy_playout(state, rng, EPSILON)




# --- the one-ply ``greedy`` player ---------------------------------------------------------------------------
def greedy_move(state: GameState, rng: random.Random | None = None) -> int:
    """The one-ply greedy player's move for the seat to act, from what that seat sees (its hand, the cards
    played and, for the leader, its discards): discard the lowest plain cards; lead a plain suit's master
    (no card of that suit still out is higher) or else the lowest plain card; follow with the lowest card that
    wins the trick now, else the lowest card; when void, ruff with the lowest spade that wins, else throw the
    lowest plain card."""
    if not isinstance(state, MossSideWhistState):
        raise TypeError("greedy_move plays Moss Side Whist states only")
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    seat = state.current
    hand = state.hands[seat]
    if moves[0] & PASS_FLAG:
        return _lowest_plain(hand) | PASS_FLAG
    trick = state.trick
    g = state.game
    if not trick:
        seen = hand | state.discards
        for w in state.won:
            seen |= w
        return _greedy_lead(hand, g.deck.full_mask & ~seen)
    suit_of = g.suit_of
    led = suit_of[trick[0]]
    key = g.winner_keys(SPADES)[led]
    best_card = max(trick, key=key.__getitem__)
    follow = hand & g.suit_masks[led]
    if follow:
        above = follow >> (best_card + 1) << (best_card + 1) if suit_of[best_card] == led else 0
        return _lowest(above) if above else _lowest(follow)
    spades = hand & _SPADE_MASK
    if spades and suit_of[best_card] == SPADES:
        spades = spades >> (best_card + 1) << (best_card + 1)
    return _lowest(spades) if spades else _lowest_plain(hand)


class GreedyAgent(Agent):
    """The one-ply ``greedy`` player (:func:`greedy_move` on its observation): a simple baseline bot."""

    name = "greedy"
    description = ("one-ply greedy player: win the trick now as cheaply as it can (ruffing when void), lead "
                   "masters, else play low")
    games = ("mosssidewhist",)

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        return greedy_move(obs.state, rng)
