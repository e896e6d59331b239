"""Determinization: sample a full state consistent with a seat's observation.

Implements the restricted assignment sampler of seeds/000 section 4.1 (Algorithm 1): a possibility
matrix (hidden slots x unknown cards) is reduced one card at a time, assigning a card at once when only
one slot can take it, otherwise picking one of the most constrained slots (least slack = allowed cards
minus cards still needed) at random and giving it a random allowed card. Passing a *probability* matrix
instead (4.1.0.2) biases the card chosen for a slot by the given beliefs while keeping every sample legal.

Two implementations of the same algorithm:

* :func:`restricted_assignment` - numpy, on an explicit (probability) matrix; used for biased sampling
  and as the reference.
* :func:`assign_uniform` - int bitmasks, no allocation beyond a few ints; the hot path of ISMCTS.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from engine.cards import bits, popcount
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
                best = 1 << 30
                cands: list[int] = []
                for i in range(n):
                    if needs[i]:
                        slack = popcount(allowed[i] & left) - needs[i]
                        if slack < best:
                            best = slack
                            cands = [i]
                        elif slack == best:
                            cands.append(i)
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


def possibility_matrix(obs: Observation) -> tuple[np.ndarray, list[int]]:
    """The 0/1 possibility matrix of an observation (slots x unknown cards) and the card of each column."""
    cards = bits(obs.unknown)
    m = np.zeros((len(obs.slots), len(cards)))
    for i, s in enumerate(obs.slots):
        for j, c in enumerate(cards):
            if s.allowed >> c & 1:
                m[i, j] = 1.0
    return m, cards


def sample_assignment(obs: Observation, rng: random.Random, bias: np.ndarray | None = None) -> list[int]:
    """Card sets for each hidden slot. ``bias`` is an optional (slots x deck size) belief matrix."""
    if bias is None:
        return assign_uniform(obs.unknown, obs.slots, rng)
    m, cards = possibility_matrix(obs)
    bias = np.asarray(bias, dtype=float)
    if bias.shape != (len(obs.slots), obs.game.deck.size):
        raise ValueError(f"bias must have shape (slots={len(obs.slots)}, cards={obs.game.deck.size})")
    m = m * bias[:, cards]
    # A zero belief on a possible card must not make the deal impossible: floor it.
    m = np.where((m <= 0) & (possibility_matrix(obs)[0] > 0), 1e-9, m)
    owner = restricted_assignment(m, [s.count for s in obs.slots], rng)
    out = [0] * len(obs.slots)
    for j, c in enumerate(cards):
        out[int(owner[j])] |= 1 << c
    return out


def determinize(obs: Observation, rng: random.Random, bias: np.ndarray | None = None):
    """A full state consistent with ``obs``: the hidden cards are dealt to the hidden slots at random.

    Uniform over the algorithm's choices when ``bias`` is None; otherwise card choices follow ``bias``.
    The returned state is a fresh object; ``obs`` is not modified.
    """
    state = obs.state.clone()
    if obs.slots:
        state.fill_hidden(obs.slots, sample_assignment(obs, rng, bias), rng)
    return state
