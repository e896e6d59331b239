"""Greedy simulation policies for the card-point trick games (Sueca, Bisca, Briscola).

Random playouts throw aces onto tricks the opponents win and trump tricks worth nothing, so in the games where
card points decide, a random playout's score says little about a position. These policies play each simulated
move with a few cheap rules instead (the "greedy" simulation strategy of dipalma2014 5.3, here for point-trick
games):

* take a trump exchange when it is on offer (Bisca variants);
* lead the cheapest card: fewest points, a plain suit before trumps, the weakest rank;
* when the partner is winning the trick, add the most points that are not trumps;
* when an opponent is winning, win it with the cheapest winning card if that card is not a trump or the
  trick already holds 10 or more points; otherwise throw the cheapest card.

``sim=greedy`` plays the rules' move always; ``sim=egreedy`` plays a uniformly random legal move instead with
probability ``EPSILON`` (keeps the playouts varied, as dipalma2014's epsilon-greedy strategy).

Measured at equal iterations in Briscola and Sueca, neither beat random playouts (docs/results.md, "Greedy
playouts in the card-point trick games"), and they cost 2.2-2.6 times as much per iteration; they are
research options, not the presets' choice.
"""

from __future__ import annotations

import random
import weakref
from typing import Any

from engine.agent import Agent, Budget
from engine.games.tricks.bisca import SWAP_FLAG
from engine.observation import Observation

EPSILON = 0.2
"""Probability of a random move in ``sim=egreedy``."""

WORTH_TRUMPING = 10
"""Points already in a trick that make winning it with a trump worth it."""



class _Tables:
    """Per game and trump suit: each card's sort keys for throwing, winning cheaply and loading points."""

    __slots__ = ("throw_key", "win_key", "load_key", "is_trump")

    def __init__(self, game: Any) -> None:
        size = game.deck.size
        self.throw_key: dict[int, list[int]] = {}
        self.win_key: dict[int, list[int]] = {}
        self.load_key: dict[int, list[int]] = {}
        self.is_trump: dict[int, list[int]] = {}
        for trump in range(-1, len(game.suit_masks)):
            is_trump = [1 if trump >= 0 and game.suit_of[c] == trump else 0 for c in range(size)]
            pts, strength = game.card_points, game.strength
            self.is_trump[trump] = is_trump
            # Throw: fewest points, plain suits first, weakest rank. Win: plain suits first, then the same.
            # Load (the partner wins): plain suits first, most points, weakest rank.
            self.throw_key[trump] = [(pts[c] * 2 + is_trump[c]) * 64 + strength[c] for c in range(size)]
            self.win_key[trump] = [(is_trump[c] * 64 + pts[c]) * 64 + strength[c] for c in range(size)]
            self.load_key[trump] = [((1 - is_trump[c]) * 64 + pts[c]) * 64 - strength[c] for c in range(size)]


_tables: weakref.WeakKeyDictionary[Any, _Tables] = weakref.WeakKeyDictionary()


def _tables_for(game: Any) -> _Tables:
    t = _tables.get(game)
    if t is None:
        t = _tables[game] = _Tables(game)
    return t


def greedy_move(state: Any, rng: random.Random) -> int:
    """The greedy rules' move in ``state`` (see the module docstring); ties go to the lower card index."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    last = moves[-1]
    if last & SWAP_FLAG:
        return last
    game = state.game
    t = _tables_for(game)
    trump = state.trump
    throw_key = t.throw_key[trump]
    trick = state.trick
    if not trick:
        return min(moves, key=throw_key.__getitem__)
    key = game.winner_keys(trump)[game.suit_of[trick[0]]]
    best_i = state.trick_winner_index()
    best_v = key[trick[best_i]]
    if state.num_players == 4 and (state.leader + best_i - state.current) % 2 == 0:
        return max(moves, key=t.load_key[trump].__getitem__)  # the partner is winning: add points
    winners = [c for c in moves if key[c] > best_v]
    if winners:
        card = min(winners, key=t.win_key[trump].__getitem__)
        if not t.is_trump[trump][card] or sum(game.card_points[c] for c in trick) >= WORTH_TRUMPING:
            return card
    return min(moves, key=throw_key.__getitem__)


def egreedy_move(state: Any, rng: random.Random) -> int:
    """:func:`greedy_move`, or with probability :data:`EPSILON` a uniformly random legal move."""
    if rng.random() < EPSILON:
        moves = state.legal_moves()
        return moves[int(rng.random() * len(moves))]
    return greedy_move(state, rng)



class GreedyAgent(Agent):
    """The one-ply ``greedy`` player (:func:`greedy_move` on its observation): a simple baseline bot."""

    name = "greedy"
    description = ("one-ply greedy player: win the trick with the cheapest card that takes it when it is "
                   "worth it, load points on a partner's trick, else throw the cheapest card")
    games = ("sueca", "bisca", "briscola")

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        return greedy_move(obs.state, rng)
