"""Fast determinization for the search hot loop.

:class:`DealSampler` prepares an observation once per search and then deals hidden cards cheaply:

* no hidden cards: a clone of the masked state;
* a belief matrix: Algorithm 1 with probabilities (fernandes2016 4.1, :func:`engine.determinize.assign_weighted`),
  the matrix turned into per-slot weight lists once per search;
* otherwise shuffle-and-split of the unknown cards with rejection of deals that break a slot's
  constraint (a void, a known card). Accepted deals are exactly uniform over every consistent deal. The
  shuffles are numpy's, a batch at a time on the cards' bits, and each slot's card set is one
  ``bitwise_or.reduceat`` segment of a row (a generator seeded once from the search's ``random.Random``, so
  the same seed deals the same). When
  constraints reject too many deals, the sampler switches to the restricted-assignment algorithm
  (:func:`engine.determinize.assign_uniform`, fernandes2016 Algorithm 1), which never fails.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from engine.cards import bits
from engine.determinize import assign_uniform, belief_weights, weight_masks, weighted_deal
from engine.game import GameState
from engine.observation import Observation

__all__ = ["DealSampler"]


class DealSampler:
    """Deals full states consistent with one observation (see the module docstring)."""

    TRIES = 6

    def __init__(self, obs: Observation, bias: Any = None) -> None:
        self.obs = obs
        self.bias = bias
        if bias is not None:
            self.weights, self.weight_cards = belief_weights(obs, bias)
            self.needs = [s.count for s in obs.slots]
            self.prepared = weight_masks(self.weights, self.needs)
        self.slots = obs.slots
        self.unknown = obs.unknown
        self.cards = bits(obs.unknown)
        self.plan = [(s.count, s.allowed | ~obs.unknown) for s in obs.slots]
        by_size = sorted(range(len(self.plan)), key=lambda k: self.plan[k][0])
        if by_size and sum(count for count, _a in self.plan) == len(self.cards):
            self.last = by_size[-1]  # takes whatever the other slots leave
            self.order = by_size[:-1]
        else:  # some unknown cards stay out of every slot: draw every slot
            self.last = -1
            self.order = by_size
        self.free = all(s.allowed & obs.unknown == obs.unknown for s in obs.slots)
        # numpy shuffle-and-split: the slots holding cards in draw order (the last takes the rest) and where
        # each one's segment of the shuffled card bits starts; only for card numbers that fit in 64 bits.
        self.segments = [k for k in self.order if self.plan[k][0]] + ([self.last] if self.last >= 0 else [])
        starts = np.cumsum([0] + [self.plan[k][0] for k in self.segments])
        self.starts = starts[:-1]
        self.drawn = int(starts[-1])
        self.whole = self.drawn == len(self.cards)
        self.in_order = self.segments == list(range(len(self.plan)))
        # ordered slots (a stock) also take their segment's card order: uniform given the set
        self.ordered_spans = [(k, int(a), int(a) + self.plan[k][0])
                              for k, a in zip(self.segments, self.starts, strict=True) if self.slots[k].ordered]
        self.card_numbers = np.array(self.cards, dtype=np.int64)
        self.card_bits = (np.array([1 << c for c in self.cards], dtype=np.uint64)
                          if self.cards and self.cards[-1] < 64 and self.segments else None)
        self.generator: np.random.Generator | None = None
        self.rows: list[tuple[list[int], dict[int, list[int]] | None]] = []
        self.batch = 16
        self.rejection = True
        self.attempts = 0
        self.accepted = 0

    def assignment(self, rng: random.Random) -> list[int]:
        """One card set per hidden slot."""
        return self.draw(rng)[0]

    def draw(self, rng: random.Random) -> tuple[list[int], dict[int, list[int]] | None]:
        """One card set per hidden slot and, from the numpy shuffles, each ordered slot's cards in a
        uniformly random order (``{slot index: cards}``; None when this draw has no orders)."""
        if self.bias is not None:
            return weighted_deal(self.weights, self.weight_cards, self.needs, rng, self.prepared), None
        if self.rejection and self.card_bits is not None:
            rows = self.rows
            plan = self.plan
            for _ in range(self.TRIES):
                if not rows:
                    rows = self.rows = self._shuffled_rows(rng)
                sets, orders = rows.pop()
                self.attempts += 1
                if not self.free:
                    if any(m & ~plan[k][1] for k, m in zip(self.segments, sets, strict=True)):
                        continue
                self.accepted += 1
                if self.in_order:
                    return sets, orders
                out = [0] * len(plan)
                for k, m in zip(self.segments, sets, strict=True):
                    out[k] = m
                return out, orders
            if self.attempts >= 60 and self.accepted * 4 < self.attempts:
                self.rejection = False  # too constrained: use Algorithm 1 from now on
            return assign_uniform(self.unknown, self.slots, rng), None
        if self.rejection:
            cards = self.cards
            plan = self.plan
            order = self.order
            unknown = self.unknown
            rand = rng.random
            trunc = int
            for _ in range(self.TRIES):
                # Draw each slot's cards (largest slot last) uniformly without replacement, popping them from
                # a copy of the deck; the last slot gets what is left. Every partition is equally likely.
                deck = cards[:]
                pop = deck.pop
                out = [0] * len(plan)
                left = len(deck)
                taken = 0
                ok = True
                for idx in order:
                    count, allowed = plan[idx]
                    m = 0
                    for n in range(left, left - count, -1):
                        m |= 1 << pop(trunc(rand() * n))
                    left -= count
                    if m & ~allowed:
                        ok = False
                        break
                    out[idx] = m
                    taken |= m
                if ok and self.last >= 0:
                    m = unknown & ~taken
                    if m & ~plan[self.last][1]:
                        ok = False
                    else:
                        out[self.last] = m
                self.attempts += 1
                if ok:
                    self.accepted += 1
                    return out, None
            if self.attempts >= 60 and self.accepted * 4 < self.attempts:
                self.rejection = False  # too constrained: use Algorithm 1 from now on
        return assign_uniform(self.unknown, self.slots, rng), None

    def _shuffled_rows(self, rng: random.Random) -> list[tuple[list[int], dict[int, list[int]] | None]]:
        """A batch of independent uniform shuffle-and-splits: each row holds the card sets of
        :attr:`segments` and the ordered slots' card orders. Batches grow from 16 to 512 rows, so short
        searches waste little."""
        gen = self.generator
        if gen is None:
            gen = self.generator = np.random.default_rng(rng.getrandbits(64))
        card_bits = self.card_bits
        assert card_bits is not None  # only called for decks of at most 64 cards
        size = self.batch
        self.batch = min(2 * size, 512)
        n = len(self.cards)
        if self.ordered_spans:  # shuffle positions, to read both the bits and the cards' order
            positions = np.broadcast_to(np.arange(n), (size, n)).copy()
            gen.permuted(positions, axis=1, out=positions)
            shuffled = card_bits[positions]
            spans = [(k, self.card_numbers[positions[:, a:b]].tolist()) for k, a, b in self.ordered_spans]
            orders: list[dict[int, list[int]] | None] = [{k: cards[r] for k, cards in spans} for r in range(size)]
        else:
            shuffled = np.broadcast_to(card_bits, (size, n)).copy()
            gen.permuted(shuffled, axis=1, out=shuffled)
            orders = [None] * size
        if not self.whole:
            shuffled = shuffled[:, :self.drawn]
        return list(zip(np.bitwise_or.reduceat(shuffled, self.starts, axis=1).tolist(), orders, strict=True))

    def deal(self, rng: random.Random) -> GameState:
        """A fresh full state consistent with the observation."""
        state = self.obs.state.clone()
        if self.slots:
            sets, orders = self.draw(rng)
            state.fill_hidden(self.slots, sets, rng, orders)
        return state
