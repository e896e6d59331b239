"""Determinization: sample a full state consistent with a seat's observation.

Implements the restricted assignment sampler of fernandes2016 section 4.1 (Algorithm 1): a possibility
matrix (hidden slots x unknown cards) is reduced one card at a time, assigning a card at once when only
one slot can take it, otherwise picking one of the most constrained slots (least slack = allowed cards
minus cards still needed) at random and giving it a random allowed card. Passing a *probability* matrix
instead (4.1.0.2) biases the card chosen for a slot by the given beliefs while keeping every sample legal.

Two implementations of the same algorithm:

* :func:`restricted_assignment` - numpy, on an explicit (probability) matrix: the reference.
* :func:`assign_uniform` - int bitmasks, no allocation beyond a few ints; the hot path of ISMCTS.
* :func:`assign_weighted` - bitmasks and per-slot weight lists, prepared once per observation by
  :func:`belief_weights`: biased sampling in the search (7-11 times faster per deal than the numpy
  reference, whose per-card array operations dominate on matrices this small; the same draws).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from engine.cards import bits
from engine.game import GameState
from engine.observation import HiddenSlot, Observation


class DeterminizationError(RuntimeError):
    """No assignment satisfies the observation's constraints (a bug in the game's observation)."""


def _random_bit(mask: int, rng: random.Random) -> int:
    """A uniformly random card of a non-empty set."""
    n = mask.bit_count()
    k = int(rng.random() * n)
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def _least_slack(allowed: list[int], needs: list[int], within: int) -> tuple[int, list[int]]:
    """Algorithm 1's choice of slot: the least slack (cards ``allowed`` ``within`` the open ones minus the
    cards still needed) over the slots that need cards, and every slot that has it."""
    best = 1 << 30
    cands: list[int] = []
    for i, need in enumerate(needs):
        if need:
            slack = (allowed[i] & within).bit_count() - need
            if slack < best:
                best = slack
                cands = [i]
            elif slack == best:
                cands.append(i)
    return best, cands


def assign_uniform(unknown: int, slots: Sequence[HiddenSlot], rng: random.Random,
                   max_tries: int = 50) -> list[int]:
    """Sample card sets for ``slots`` from the ``unknown`` cards (Algorithm 1 on bitmasks).

    Returns one bitmask per slot. Raises :class:`DeterminizationError` when no assignment exists.
    """
    n = len(slots)
    for _ in range(max_tries):
        needs = [s.count for s in slots]
        allowed = [s.allowed & unknown for s in slots]
        out = [0] * n
        left = unknown
        ok = True
        while left:
            # Forced cards: a card that exactly one open slot may take.
            once = 0
            twice = 0
            for i in range(n):
                if needs[i]:
                    a = allowed[i] & left
                    twice |= once & a
                    once |= a
            if left & ~once:
                ok = False  # a card no open slot can take: dead end
                break
            forced = once & ~twice & left
            if forced:
                card_bit = forced & -forced
                for i in range(n):
                    if needs[i] and allowed[i] & card_bit:
                        break
            else:
                best, cands = _least_slack(allowed, needs, left)
                if best < 0:
                    ok = False
                    break
                i = cands[int(rng.random() * len(cands))] if len(cands) > 1 else cands[0]
                card_bit = 1 << _random_bit(allowed[i] & left, rng)
            out[i] |= card_bit
            needs[i] -= 1
            left &= ~card_bit
        if ok and not any(needs):
            return out
    raise DeterminizationError("no card assignment satisfies the observation's constraints")


def restricted_assignment(matrix: np.ndarray, needs: Sequence[int], rng: random.Random,
                          max_tries: int = 50) -> np.ndarray:
    """Algorithm 1 on an explicit matrix: ``matrix[slot, card] >= 0`` is the possibility (0/1) or
    belief (any positive weight) that the slot holds the card. Returns ``slot index`` per card column.

    A positive cell counts as 1 for the row/column sums; beliefs only weight which card a chosen slot
    receives, so every returned assignment respects the zero cells and the ``needs`` counts.
    """
    weights = np.asarray(matrix, dtype=float)
    if weights.ndim != 2 or weights.shape[0] != len(needs):
        raise ValueError("matrix must be (slots x cards) with one need per slot")
    if (weights < 0).any():
        raise ValueError("probabilities must be non-negative")
    if sum(needs) != weights.shape[1]:
        raise ValueError(f"slots need {sum(needs)} cards but the matrix has {weights.shape[1]} columns")
    for _ in range(max_tries):
        m = weights.copy()
        left = np.array(needs, dtype=int)
        m[left == 0, :] = 0.0
        owner = np.full(m.shape[1], -1, dtype=int)
        ok = True
        for _step in range(m.shape[1]):
            possible = m > 0
            col_sum = possible.sum(axis=0)
            open_cols = owner < 0
            if (open_cols & (col_sum == 0)).any():
                ok = False
                break
            forced = np.flatnonzero(open_cols & (col_sum == 1))
            if forced.size:
                card = int(forced[0])
                slot = int(np.flatnonzero(possible[:, card])[0])
            else:
                slack = possible.sum(axis=1) - left
                slack = np.where(left > 0, slack, np.iinfo(np.int64).max)
                best = slack.min()
                if best < 0:
                    ok = False
                    break
                cands = np.flatnonzero(slack == best)
                slot = int(cands[int(rng.random() * cands.size)])
                row = m[slot]
                total = row.sum()
                r = rng.random() * total
                card = int(np.searchsorted(np.cumsum(row), r, side="right"))
                card = min(card, row.size - 1)
                while row[card] <= 0:  # guard against float edge cases
                    card -= 1
            owner[card] = slot
            m[:, card] = 0.0
            left[slot] -= 1
            if left[slot] == 0:
                m[slot, :] = 0.0
        if ok and (owner >= 0).all():
            return owner
    raise DeterminizationError("no card assignment satisfies the matrix")


def weight_masks(weights: Sequence[Sequence[float]], needs: Sequence[int]) -> tuple[list[int], list[float]]:
    """Per slot, the bitmask of the columns it may take (none once it needs no card) and their weight total."""
    masks = [0] * len(weights)
    totals = [0.0] * len(weights)
    for i, row in enumerate(weights):
        if needs[i]:
            for j, w in enumerate(row):
                if w > 0:
                    masks[i] |= 1 << j
                    totals[i] += w
    return masks, totals


def assign_weighted(weights: Sequence[Sequence[float]], needs: Sequence[int], rng: random.Random,
                    max_tries: int = 50, prepared: tuple[list[int], list[float]] | None = None) -> list[int]:
    """:func:`restricted_assignment` on lists: ``weights[slot][column]`` > 0 is the belief that the slot holds
    the column's card (0 = impossible). Returns the slot index of each column; the same algorithm and the
    same distribution as the numpy reference, with int bitmasks over the columns and each slot's weight
    total kept up to date instead of summed at every step. ``prepared``: :func:`weight_masks` of the same
    arguments, computed once for many deals."""
    n = len(weights)
    columns = len(weights[0]) if n else 0
    if sum(needs) != columns:
        raise ValueError(f"slots need {sum(needs)} cards but the matrix has {columns} columns")
    start, start_totals = prepared or weight_masks(weights, needs)
    rand = rng.random
    every = (1 << columns) - 1
    slots = range(n)
    for _ in range(max_tries):
        left = list(needs)
        possible = start[:]
        totals = start_totals[:]
        owner = [-1] * columns
        open_cards = every
        ok = True
        while open_cards:
            once = twice = 0
            for p in possible:
                twice |= once & p
                once |= p
            if open_cards & ~once:
                ok = False  # a card no open slot can take: dead end
                break
            forced = once & ~twice & open_cards
            if forced:
                bit = forced & -forced
                slot = 0
                while not possible[slot] & bit:
                    slot += 1
            else:
                best, cands = _least_slack(possible, left, -1)
                if best < 0:
                    ok = False
                    break
                slot = cands[int(rand() * len(cands))]
                row = weights[slot]
                r = rand() * totals[slot]
                acc = 0.0
                m = possible[slot]
                while True:  # the first card whose running sum passes r (the last one on a float edge)
                    bit = m & -m
                    acc += row[bit.bit_length() - 1]
                    m ^= bit
                    if acc > r or not m:
                        break
            j = bit.bit_length() - 1
            owner[j] = slot
            open_cards ^= bit
            for i in slots:
                if possible[i] & bit:
                    possible[i] ^= bit
                    totals[i] -= weights[i][j]
            left[slot] -= 1
            if not left[slot]:
                possible[slot] = 0
        if ok:
            return owner
    raise DeterminizationError("no card assignment satisfies the matrix")


def belief_weights(obs: Observation, bias: np.ndarray) -> tuple[list[list[float]], list[int]]:
    """For :func:`assign_weighted`: per hidden slot, the belief of each unknown card (0 where the observation
    rules the card out of the slot; a zero or negative belief on a possible card is floored to 1e-9 so that
    no legal deal becomes impossible) and the card of each column. ``bias`` is (slots x deck size)."""
    bias = np.asarray(bias, dtype=float)
    if bias.shape != (len(obs.slots), obs.game.deck.size):
        raise ValueError(f"bias must have shape (slots={len(obs.slots)}, cards={obs.game.deck.size})")
    cards = bits(obs.unknown)
    beliefs = bias[:, cards].tolist() if cards else [[] for _ in obs.slots]
    rows = [[(w if w > 0 else 1e-9) if s.allowed >> c & 1 else 0.0 for c, w in zip(cards, b, strict=True)]
            for s, b in zip(obs.slots, beliefs, strict=True)]
    return rows, cards


def sample_assignment(obs: Observation, rng: random.Random, bias: np.ndarray | None = None) -> list[int]:
    """Card sets for each hidden slot. ``bias`` is an optional (slots x deck size) belief matrix."""
    if bias is None:
        return assign_uniform(obs.unknown, obs.slots, rng)
    weights, cards = belief_weights(obs, bias)
    return weighted_deal(weights, cards, [s.count for s in obs.slots], rng)


def weighted_deal(weights: list[list[float]], cards: list[int], needs: list[int], rng: random.Random,
                  prepared: tuple[list[int], list[float]] | None = None) -> list[int]:
    """One card set per slot from :func:`belief_weights`' lists (:func:`assign_weighted`)."""
    owner = assign_weighted(weights, needs, rng, prepared=prepared)
    out = [0] * len(needs)
    for j, c in enumerate(cards):
        out[owner[j]] |= 1 << c
    return out


def determinize(obs: Observation, rng: random.Random, bias: np.ndarray | None = None) -> GameState:
    """A full state consistent with ``obs``: the hidden cards are dealt to the hidden slots at random.

    Uniform over the algorithm's choices when ``bias`` is None; otherwise card choices follow ``bias``.
    The returned state is a fresh object; ``obs`` is not modified.
    """
    state = obs.state.clone()
    if obs.slots:
        state.fill_hidden(obs.slots, sample_assignment(obs, rng, bias), rng)
    return state
