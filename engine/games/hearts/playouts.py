"""Hearts' search fast paths (:class:`HeartsPlayouts`): random passes and tricks by table lookups, lean outcomes
and reward points; the trick core's solver hooks (:class:`~engine.games.tricks.playouts.TrickPlayouts`). Each
makes exactly the plain rules' choices and gives their values (tests/test_generic_games.py, tests/test_hearts.py)."""

from __future__ import annotations

import random

from engine.games.hearts.rules import HEART_MASK, JACK_DIAMONDS, POINT_MASK, QUEEN_SPADES, TWO_CLUBS, HeartsState
from engine.games.tricks.core import solo_outcomes, trick_so_far
from engine.games.tricks.playouts import TrickPlayouts

__all__ = ["HeartsPlayouts"]


class HeartsPlayouts(TrickPlayouts[HeartsState]):
    """Hearts' fast paths (see the module docstring)."""

    def random_rollout(self, state: HeartsState, rng: random.Random) -> None:
        """Random playout to the end (search fast path): the same choices and final state as repeatedly
        doing ``legal_moves()[int(rng.random() * len(moves))]``, one trick at a time with table lookups
        instead of move lists."""
        state._random_passes(rng)
        self._random_tricks(state, rng)

    def scored_playout(self, state: HeartsState, rng: random.Random) -> None:
        """:meth:`random_rollout`'s choices without the history and the inference bookkeeping (voids, cards
        a seat cannot hold): hands, tricks and scores end as in :meth:`random_rollout`."""
        state._random_passes(rng, False)
        self._random_tricks(state, rng, False)

    def _random_tricks(self, state: HeartsState, rng: random.Random, record: bool = True) -> None:
        """The play after the passes, uniformly random legal cards one trick at a time (table lookups);
        ``record`` False skips the history and the inference bookkeeping (voids, cards a seat cannot hold),
        which do not score."""
        rand = rng.random
        hands = state.hands
        append = state.history.append
        g = state.game
        suit_cards, shifts, rank_mask, _kth, keys, followers, suit_of = g.playout_tables(-1)
        voids, excluded, won, tricks_won = state.voids, state.excluded, state.won, state.tricks_won
        not_points = g.deck.full_mask & ~POINT_MASK
        not_hearts = g.deck.full_mask & ~HEART_MASK
        two_clubs = 1 << TWO_CLUBS
        breaking = HEART_MASK | (1 << QUEEN_SPADES if g.queen_breaks else 0)
        broken = state.hearts_broken
        first = state.first_trick()
        trick = state.trick
        leader = state.leader
        if trick:  # finish the trick in progress
            led = suit_of[trick[0]]
            key = keys[led]
            best, best_v, w = trick_so_far(trick, (leader,) + followers[leader], key)
            seats: tuple[int, ...] = followers[leader][len(trick) - 1:]
        else:
            leader = state.current
            if not hands[leader]:
                return
            seats = ()
        while True:
            if not seats:  # lead: the 2 of clubs first, hearts only once broken (or with nothing else)
                hand = hands[leader]
                if not hand:
                    break
                if first:
                    legal = hand & two_clubs or hand
                elif not broken:
                    legal = hand & not_hearts or hand
                else:
                    legal = hand
                k = int(rand() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                w = legal & -legal
                card = w.bit_length() - 1
                hands[leader] = hand ^ w
                if not broken and w & breaking:
                    if record and w & HEART_MASK:
                        excluded[leader] |= not_hearts  # led hearts unbroken: held only hearts
                    broken = True
                if record:
                    append((leader, card))
                led = suit_of[card]
                key = keys[led]
                best, best_v = leader, key[card]
                seats = followers[leader]
            table = suit_cards[led]
            shift = shifts[led]
            for seat in seats:
                hand = hands[seat]
                follow = table[hand >> shift & rank_mask]
                if follow:
                    card = follow[int(rand() * len(follow))]
                    bit = 1 << card
                else:
                    legal = (hand & not_points if first else 0) or hand
                    k = int(rand() * legal.bit_count())
                    while k:
                        legal &= legal - 1
                        k -= 1
                    bit = legal & -legal
                    card = bit.bit_length() - 1
                    if record:
                        voids[seat] |= 1 << led
                        if first and bit & POINT_MASK:
                            excluded[seat] |= not_points  # points on the first trick: had nothing else
                if not broken and bit & breaking:
                    broken = True
                hands[seat] = hand ^ bit
                w |= bit
                if key[card] > best_v:
                    best, best_v = seat, key[card]
                if record:
                    append((seat, card))
            won[best] |= w
            tricks_won[best] += 1
            leader = best
            seats = ()
            first = False
        trick.clear()
        state.leader = state.current = leader
        state.hearts_broken = broken

    def outcomes(self, state: HeartsState) -> list[float]:
        """Lean ``result().outcome(s)``: the lowest penalty wins (a moon shooter always wins alone)."""
        points = [(w & HEART_MASK).bit_count() + (13 if w >> QUEEN_SPADES & 1 else 0) for w in state.won]
        if 26 in points:
            moon = points.index(26)
            return [1.0 if s == moon else 0.0 for s in range(4)]
        if state.game.variant["jack_diamonds"]:
            for s, w in enumerate(state.won):
                if w >> JACK_DIAMONDS & 1:
                    points[s] -= 10
        return solo_outcomes(points, min(points))

    # --- information ------------------------------------------------------------------------------
    def reward_points(self, state: HeartsState) -> tuple[list[float], float, bool]:
        """Lean ``result()`` points for the search's rewards: penalty points with the moon and jack rules."""
        points: list[float] = [(w & HEART_MASK).bit_count() + (13 if w >> QUEEN_SPADES & 1 else 0) for w in state.won]
        variant = state.game.variant
        if 26 in points:
            moon = points.index(26)
            if variant["moon"] == "others":
                points = [0 if s == moon else 26 for s in range(4)]
            else:
                points = [-26 if s == moon else 0 for s in range(4)]
        if variant["jack_diamonds"]:
            for s, w in enumerate(state.won):
                if w >> JACK_DIAMONDS & 1:
                    points[s] -= 10
        return points, max(float(abs(points[0]) + abs(points[1]) + abs(points[2]) + abs(points[3])), 1.0), True
