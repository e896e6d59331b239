"""Scopone/Scopa move handlers for ISMCTS (dipalma2014 section 5.5), as SPECs of the ``ismcts`` agent.

* AMH, All Moves Handler: ``ismcts`` (the default): a branch for every legal move (card + capture set).
* OMH, One Move Handler: ``ismcts:prune=omh``: one move per card in hand, the capture the Greedy player
  would choose with it (:func:`one_move_per_card`); the branch key is that whole move.
* OCH, One Card Handler: ``ismcts:handler=card,resolve=greedy``: one branch per card (the key is the card
  only); Greedy chooses the capture when the branch is played, in each determinization.
* GOH, Greedy Opponents Handler: ``ismcts:opponents=greedy``: every legal move for the searching seat, only
  the Greedy move for the other seats.

Not in the seed: ``ismcts:handler=card`` (no resolver) keys branches by card like OCH but plays a uniformly
random capture of that card each time the branch is descended.

dipalma2014 describes OMH as choosing the most important of the card's captures, the way Greedy does, and
keeping the captured cards in the move, while OCH keeps only the card. The Greedy choice among one card's
captures (:func:`engine.games.scopone.players.greedy_best`) depends only on the table and the card, and the
table at a tree node is the same in every determinization (it is public and the path fixes every capture),
so here OMH and OCH grow the same tree under different keys and, with the same seed, make the same decisions
(tested): the seed also found them equivalent in strength (its figures 6.7 and 6.15).

Defined here: the pruner ``omh`` and the resolver ``greedy``; the handler ``card`` and the Greedy policy are in
:mod:`engine.games.scopone.players` (the package's ``SearchKnowledge`` names them all).
"""

from __future__ import annotations

import random

from engine.game import GameState
from engine.games.scopone.players import greedy_best

__all__ = ["greedy_resolver", "one_move_per_card"]

_CARD_MASK = 63  # engine.games.scopone.CARD_MASK: a move's played card is its low 6 bits


def greedy_resolver(state: GameState, moves: list[int], rng: random.Random) -> int:
    """The Greedy player's BestMove among ``moves`` (all with the same played card)."""
    return greedy_best(moves) if len(moves) > 1 else moves[0]


def one_move_per_card(state: GameState, moves: list[int]) -> list[int]:
    """OMH: for each card among ``moves`` (in order of first appearance), the one move the Greedy player
    would make with it: its only move, or :func:`greedy_best` of its captures."""
    by_card: dict[int, list[int]] = {}
    for m in moves:
        group = by_card.get(m & _CARD_MASK)
        if group is None:
            by_card[m & _CARD_MASK] = [m]
        else:
            group.append(m)
    return [group[0] if len(group) == 1 else greedy_best(group) for group in by_card.values()]

