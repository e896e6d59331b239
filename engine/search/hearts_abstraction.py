"""ISMCTS-T information-set abstraction for Hearts (seeds/001 4.1), registered as the Hearts
transposition key of :mod:`engine.search.hooks`.

Two information sets share a node when they agree on: the current trick (its leader, how many cards,
which card is winning it by relative order, and its penalty points), which seats have taken points
(six cases: nobody, exactly one of the four seats, or several), whether hearts are broken, and the card
abstraction - for every card not yet played, its suit, its relative order among the unplayed cards of its
suit, who may hold it from the observer's point of view, and whether it is the queen of spades.
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.game import GameState
from engine.search import hooks


def hearts_key(state: GameState, observer: int) -> Hashable:
    """The abstracted information set of ``observer`` in a (determinized) Hearts state."""
    obs = state.observation(observer)
    view = obs.state
    g = view.game
    suit_of, strength = g.suit_of, g.strength
    mine = view.hands[observer]
    holders: dict[int, int] = {}
    for c in range(g.deck.size):
        if mine >> c & 1:
            holders[c] = 1 << observer
    for slot in obs.slots:
        for c in range(g.deck.size):
            if obs.unknown >> c & 1 and slot.allowed >> c & 1:
                holders[c] = holders.get(c, 0) | (1 << 8 if slot.owner < 0 else 1 << slot.owner)
    queen = g.deck.parse("QS")
    suits = []
    for s in range(4):
        remaining = sorted((c for c in holders if suit_of[c] == s), key=lambda c: strength[c])
        suits.append(tuple((holders[c], c == queen) for c in remaining))
    trick = view.trick
    points = g.card_points
    if trick:
        led = suit_of[trick[0]]
        follow = [c for c in trick if suit_of[c] == led]
        best = max(follow, key=lambda c: strength[c])
        rank_in_trick = sum(1 for c in follow if strength[c] < strength[best])
        trick_key = (view.leader, len(trick), led, rank_in_trick, best == queen, sum(points[c] for c in trick))
    else:
        trick_key = (view.leader, 0)
    takers = [s for s in range(4) if any(points[c] for c in range(g.deck.size) if view.won[s] >> c & 1)]
    taken = -1 if not takers else takers[0] if len(takers) == 1 else 4
    return (trick_key, taken, bool(getattr(view, "hearts_broken", False)), tuple(suits),
            bool(getattr(view, "passing", False)))


hooks.register_transposition_key("hearts", hearts_key)
