"""Greedy simulation policies for Hearts (``sim=greedy`` and ``sim=egreedy`` of the ``ismcts`` agent).

A random playout dumps the queen of spades and the hearts on whoever happens to win a trick, so its score
says little about who is in danger. These playouts play each simulated card by a few cheap rules instead
(passes stay random), reading the determinized hands as bitmasks:

* lead the lowest card allowed (by rank, whatever the suit), keeping the queen of spades if possible;
* follow with the highest card that stays below the trick's winning card (duck); when every card of the
  suit would win, the last player takes the trick with its highest card, the others with their lowest (the
  queen of spades only when nothing else is left);
* when void, throw the queen of spades, else the highest heart, else the highest card.

``sim=egreedy`` plays a uniformly random legal card instead with probability :data:`EPSILON`, which keeps
the playouts varied (dipalma2014 5.3's epsilon-greedy simulation strategy). The playouts keep what the
rewards read (hands, won cards, trick counts) and skip the history, like the game's own scored playout.

Measured head to head (docs/results.md, Hearts presets): at 1,500 iterations ``sim=egreedy`` takes 1.1 fewer
penalty points a hand than random playouts; at the expert's time per move it makes no difference. They cost
1.2-1.3 times a random playout; a research option, not the presets' choice.
"""

from __future__ import annotations

import random

from engine.agent import Agent, Budget
from engine.game import GameState
from engine.games.hearts.rules import HEART_MASK, HEARTS, POINT_MASK, QUEEN_SPADES, TWO_CLUBS, HeartsState
from engine.games.tricks.core import PASS_FLAG, highest_rank_card, lowest_rank_card, trick_to_finish
from engine.observation import Observation

EPSILON = 0.1
"""Probability of a uniformly random legal card in ``sim=egreedy``."""

_QUEEN_BIT = 1 << QUEEN_SPADES


def greedy_playout(state: GameState, rng: random.Random, epsilon: float = 0.0) -> None:
    """Play a Hearts ``state`` to the end by the rules above (random passes first); the state is used up:
    hands, won cards and trick counts end right, the history and the inference bookkeeping do not."""
    if not isinstance(state, HeartsState):
        raise TypeError("greedy_playout plays Hearts states only")
    state._random_passes(rng, False)
    rand = rng.random
    hands, won, tricks_won = state.hands, state.won, state.tricks_won
    g = state.game
    suit_masks, suit_of, followers = g.suit_masks, g.suit_of, g.followers
    keys = g.winner_keys(-1)
    kth = g.tables.kth  # the k-th card of a set, ascending: a uniformly random card with k = rand() * count
    not_points = g.deck.full_mask & ~POINT_MASK
    not_hearts = g.deck.full_mask & ~HEART_MASK
    two_clubs = 1 << TWO_CLUBS
    breaking = HEART_MASK | (_QUEEN_BIT if g.queen_breaks else 0)
    broken = state.hearts_broken
    first = state.first_trick()
    trick = state.trick
    leader, seats, led, key, best, best_v, best_card, w = trick_to_finish(state, keys)
    if not seats and not hands[leader]:
        return
    while True:
        if not seats:  # lead
            hand = hands[leader]
            if not hand:
                break
            if first:
                legal = hand & two_clubs or hand
            elif not broken:
                legal = hand & not_hearts or hand
            else:
                legal = hand
            if epsilon and rand() < epsilon:
                card = kth(legal, int(rand() * legal.bit_count()))
            else:
                card = lowest_rank_card(legal & ~_QUEEN_BIT or legal)
            w = 1 << card
            hands[leader] = hand ^ w
            if not broken and w & breaking:
                broken = True
            led = suit_of[card]
            key = keys[led]
            best, best_v, best_card = leader, key[card], card
            seats = followers[leader]
        last = seats[-1]
        led_mask = suit_masks[led]
        for seat in seats:
            hand = hands[seat]
            follow = hand & led_mask
            if follow:
                if epsilon and rand() < epsilon:
                    card = kth(follow, int(rand() * follow.bit_count()))
                else:
                    below = follow & ((1 << best_card) - 1)
                    if below:
                        card = below.bit_length() - 1  # the highest card that still ducks
                    else:
                        keep = follow & ~_QUEEN_BIT or follow
                        card = keep.bit_length() - 1 if seat == last else (keep & -keep).bit_length() - 1
            else:
                legal = (hand & not_points if first else 0) or hand
                if epsilon and rand() < epsilon:
                    card = kth(legal, int(rand() * legal.bit_count()))
                elif legal & _QUEEN_BIT:
                    card = QUEEN_SPADES
                elif legal & HEART_MASK:
                    card = (legal & HEART_MASK).bit_length() - 1
                else:
                    card = highest_rank_card(legal)
            bit = 1 << card
            if not broken and bit & breaking:
                broken = True
            hands[seat] = hand ^ bit
            w |= bit
            if key[card] > best_v:
                best, best_v, best_card = seat, key[card], card
        won[best] |= w
        tricks_won[best] += 1
        leader = best
        seats = ()
        first = False
    trick.clear()
    state.leader = state.current = leader
    state.hearts_broken = broken


def greedy_rollout(state: GameState, rng: random.Random) -> None:
    greedy_playout(state, rng, 0.0)


def egreedy_rollout(state: GameState, rng: random.Random) -> None:
    greedy_playout(state, rng, EPSILON)




# --- the one-ply ``greedy`` player ---------------------------------------------------------------------------
_PASS_DANGER = {QUEEN_SPADES: 100, QUEEN_SPADES + 1: 90, QUEEN_SPADES + 2: 80}
"""Cards passed first: the Queen, King and Ace of spades (then the highest hearts, then the highest cards)."""


def greedy_move(state: GameState, rng: random.Random | None = None) -> int:
    """The one-ply greedy player's move for the seat to act, from what that seat sees (its hand and the trick):
    pass the most dangerous cards (the Queen, King and Ace of spades, high hearts, high cards); lead the lowest
    card (keeping the Queen of spades); follow with the highest card that still ducks under the trick's winner,
    else (forced to win) the highest card when last to play and the lowest before; when void, dump the Queen
    of spades, else the highest heart, else the highest card."""
    if not isinstance(state, HeartsState):
        raise TypeError("greedy_move plays Hearts states only")
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    if moves[0] & PASS_FLAG:
        return max(moves, key=lambda m: (_PASS_DANGER.get(m ^ PASS_FLAG, 0), (m ^ PASS_FLAG) % 13,
                                          (m ^ PASS_FLAG) // 13 == HEARTS))
    legal = 0
    for m in moves:
        legal |= 1 << m
    trick = state.trick
    if not trick:
        return lowest_rank_card(legal & ~_QUEEN_BIT or legal)
    g = state.game
    led = g.suit_of[trick[0]]
    follow = legal & g.suit_masks[led]
    if follow:
        key = g.winner_keys(-1)[led]
        best_card = max(trick, key=key.__getitem__)
        below = follow & ((1 << best_card) - 1)
        if below:
            return below.bit_length() - 1  # the highest card that still ducks
        keep = follow & ~_QUEEN_BIT or follow
        if len(trick) == 3:
            return keep.bit_length() - 1
        return (keep & -keep).bit_length() - 1
    if legal & _QUEEN_BIT:
        return QUEEN_SPADES
    if legal & HEART_MASK:
        return (legal & HEART_MASK).bit_length() - 1
    return highest_rank_card(legal)


class GreedyAgent(Agent):
    """The one-ply ``greedy`` player (:func:`greedy_move` on its observation): a simple baseline bot."""

    name = "greedy"
    description = ("one-ply greedy player: duck under the winning card, dump the Queen of spades and high "
                   "hearts when void, pass the most dangerous cards")
    games = ("hearts",)

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        return greedy_move(obs.state, rng)
