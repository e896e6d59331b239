"""The restricted assignment sampler (fernandes2016 4.1): validity, uniformity (chi-square) and bias."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from engine.cards import PORTUGUESE40, bits, popcount
from engine.determinize import (
    DeterminizationError,
    assign_uniform,
    assign_weighted,
    restricted_assignment,
)
from engine.observation import HiddenSlot

# Chi-square critical values at p = 0.001 (a true uniform sampler fails about once in 1000 runs; seeds fixed).
CHI2_CRIT_001 = {1: 10.83, 2: 13.82, 3: 16.27, 5: 20.52, 8: 26.12, 9: 27.88, 14: 36.12, 19: 43.82, 29: 58.30}


def chi_square(counts: Counter, outcomes: int, n: int) -> float:
    """Pearson's statistic against the uniform distribution over ``outcomes`` (unseen ones count too)."""
    expected = n / outcomes
    return sum((counts.get(k, 0) - expected) ** 2 / expected for k in range(outcomes))


def seed_example() -> tuple[int, list[HiddenSlot]]:
    """The worked example of fernandes2016 4.1: six cards, three hands of two; hand 2 has no hearts/diamonds,
    hand 3 no spades."""
    d = PORTUGUESE40
    cards = d.parse_set("AH 7H KS QS JS 2D")
    no_hd = ~(d.suit_mask(1) | d.suit_mask(2)) & d.full_mask
    no_s = ~d.suit_mask(3) & d.full_mask
    return cards, [HiddenSlot("hand1", 1, 2, d.full_mask), HiddenSlot("hand2", 2, 2, no_hd),
                   HiddenSlot("hand3", 3, 2, no_s)]


def enumerate_assignments(unknown: int, slots: list[HiddenSlot]) -> list[tuple[int, ...]]:
    """Every valid assignment, by brute force (small cases only)."""
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
        if i == len(slots):
            if not left:
                out.append(acc)
            return
        for combo in combinations(bits(left & slots[i].allowed), slots[i].count):
            m = sum(1 << c for c in combo)
            rec(i + 1, left & ~m, acc + (m,))

    rec(0, unknown, ())
    return out


def check_uniform(unknown: int, slots: list[HiddenSlot], sampler, n: int = 9000) -> None:
    valid = enumerate_assignments(unknown, slots)
    index = {a: i for i, a in enumerate(valid)}
    rng = random.Random(2024)
    counts: Counter = Counter()
    for _ in range(n):
        a = tuple(sampler(unknown, slots, rng))
        assert a in index, "every sample must be a valid assignment"
        counts[index[a]] += 1
    dof = len(valid) - 1
    stat = chi_square(counts, len(valid), n)
    crit = CHI2_CRIT_001[dof] if dof in CHI2_CRIT_001 else dof + 4 * (2 * dof) ** 0.5
    assert stat < crit, f"chi-square {stat:.1f} >= {crit} over {len(valid)} assignments: not uniform"


def numpy_sampler(unknown: int, slots: list[HiddenSlot], rng: random.Random) -> list[int]:
    cards = bits(unknown)
    m = np.array([[1.0 if s.allowed >> c & 1 else 0.0 for c in cards] for s in slots])
    owner = restricted_assignment(m, [s.count for s in slots], rng)
    out = [0] * len(slots)
    for j, c in enumerate(cards):
        out[owner[j]] |= 1 << c
    return out


@pytest.mark.parametrize("sampler", [assign_uniform, numpy_sampler], ids=["bitmask", "numpy"])
def test_seed_example_is_uniform(sampler) -> None:
    unknown, slots = seed_example()
    assert len(enumerate_assignments(unknown, slots)) == 9
    check_uniform(unknown, slots, sampler)


@pytest.mark.parametrize("sampler", [assign_uniform, numpy_sampler], ids=["bitmask", "numpy"])
def test_unrestricted_small_case_is_uniform(sampler) -> None:
    d = PORTUGUESE40
    unknown = d.parse_set("AC 2C 3D 4H 5S 6S")
    slots = [HiddenSlot("a", 1, 2, d.full_mask), HiddenSlot("b", 2, 2, d.full_mask),
             HiddenSlot("c", 3, 2, d.full_mask)]
    assert len(enumerate_assignments(unknown, slots)) == 90
    check_uniform(unknown, slots, sampler, n=18000)


def test_uneven_counts_with_a_stock_slot_are_uniform() -> None:
    d = PORTUGUESE40
    unknown = d.parse_set("AC 2C 3C 4H 5H")
    slots = [HiddenSlot("hand1", 1, 3, ~d.suit_mask(2) & d.full_mask),  # void in hearts
             HiddenSlot("stock", -1, 2, d.full_mask, ordered=True)]
    # hand1 must take all three clubs: exactly one assignment.
    rng = random.Random(3)
    for _ in range(50):
        a = assign_uniform(unknown, slots, rng)
        assert a[0] == d.parse_set("AC 2C 3C") and a[1] == d.parse_set("4H 5H")


def test_hard_restrictions_from_the_seed_never_fail() -> None:
    """The scenario of fernandes2016 4.1 that defeats rejection sampling: two hands void in spades."""
    d = PORTUGUESE40
    rng = random.Random(7)
    unknown_cards = [d.card(s, r) for s in range(4) for r in range(6)]  # 6 of each suit
    unknown = sum(1 << c for c in unknown_cards)
    no_spades = ~d.suit_mask(3) & d.full_mask
    slots = [HiddenSlot("hand1", 1, 8, no_spades), HiddenSlot("hand2", 2, 8, no_spades),
             HiddenSlot("hand3", 3, 8, d.full_mask)]
    for _ in range(300):
        a = assign_uniform(unknown, slots, rng)
        assert [popcount(x) for x in a] == [8, 8, 8]
        assert a[0] | a[1] | a[2] == unknown
        assert not (a[0] | a[1]) & d.suit_mask(3)


def test_impossible_constraints_raise() -> None:
    d = PORTUGUESE40
    unknown = d.parse_set("AS KS")
    slots = [HiddenSlot("hand1", 1, 2, ~d.suit_mask(3) & d.full_mask)]
    with pytest.raises(DeterminizationError):
        assign_uniform(unknown, slots, random.Random(1))
    with pytest.raises(DeterminizationError):
        numpy_sampler(unknown, slots, random.Random(1))


def _lists(m: np.ndarray, needs: list[int], rng: random.Random) -> list[int]:
    return assign_weighted(m.tolist(), needs, rng)


BIASED_SAMPLERS = [restricted_assignment, _lists]


@pytest.mark.parametrize("sampler", BIASED_SAMPLERS)
def test_biased_sampling_follows_the_probabilities(sampler) -> None:
    """Two hands of one card from {A, B}; beliefs 0.8/0.2 make hand 0 get A about 80% of the time."""
    m = np.array([[0.8, 0.2], [0.2, 0.8]])
    rng = random.Random(11)
    n = 6000
    hits = sum(1 for _ in range(n) if sampler(m, [1, 1], rng)[0] == 0)
    p = hits / n
    half = 1.96 * (0.8 * 0.2 / n) ** 0.5
    assert abs(p - 0.8) < 2 * half + 0.01, f"A went to hand 0 in {p:.3f} of samples, expected 0.8"


@pytest.mark.parametrize("sampler", BIASED_SAMPLERS)
def test_biased_sampling_respects_zero_cells(sampler) -> None:
    m = np.array([[0.0, 0.9, 0.1], [0.5, 0.5, 0.0], [1.0, 0.0, 1.0]])
    rng = random.Random(5)
    for _ in range(500):
        owner = sampler(m, [1, 1, 1], rng)
        for card, slot in enumerate(owner):
            assert m[slot, card] > 0


def test_matrix_shape_errors_are_clear() -> None:
    with pytest.raises(ValueError):
        restricted_assignment(np.ones((2, 3)), [1, 1], random.Random(0))
    with pytest.raises(ValueError):
        restricted_assignment(-np.ones((1, 1)), [1], random.Random(0))


def test_list_sampler_deals_like_the_numpy_reference() -> None:
    """The search's biased sampler (lists and bitmasks) and the numpy reference draw from the same
    distribution: over a constrained matrix with uneven beliefs, every (slot, card) frequency agrees within
    4.5 standard errors of the difference, and every deal respects the zero cells and the counts."""
    gen = np.random.default_rng(3)
    m = gen.uniform(0.1, 3.0, size=(3, 8))
    m[0, :3] = 0.0  # slot 0 cannot hold cards 0-2
    m[2, 5] = 0.0
    m[1, 7] = 0.0
    needs = [2, 3, 3]
    n = 4000
    freq = {}
    for name, sampler in (("numpy", restricted_assignment), ("lists", _lists)):
        rng = random.Random(17)
        table = np.zeros((3, 8))
        for _ in range(n):
            owner = sampler(m, needs, rng)
            assert [list(owner).count(i) for i in range(3)] == needs
            for card, slot in enumerate(owner):
                assert m[slot, card] > 0
                table[slot, card] += 1
        freq[name] = table / n
    p = (freq["numpy"] + freq["lists"]) / 2
    se = np.sqrt(np.maximum(p * (1 - p), 1e-12) * 2 / n)
    assert (np.abs(freq["numpy"] - freq["lists"]) <= 4.5 * se + 1e-9).all()


def test_biased_deals_of_an_observation_check_the_matrix_shape() -> None:
    from engine import registry
    from engine.determinize import sample_assignment

    state = registry.create("mosssidewhist").new_hand(random.Random(2))
    obs = state.observation(1)
    with pytest.raises(ValueError, match="bias must have shape"):
        sample_assignment(obs, random.Random(1), np.ones((len(obs.slots) + 1, 52)))
    deal = sample_assignment(obs, random.Random(1), np.ones((len(obs.slots), 52)))
    assert [popcount(d) for d in deal] == [s.count for s in obs.slots]
    assert sum(deal) == obs.unknown and all(d & ~s.allowed == 0 for d, s in zip(deal, obs.slots, strict=True))


def test_list_sampler_makes_the_reference_draws() -> None:
    """Same algorithm, same random numbers: from one seed the two samplers deal the same cards (up to the
    order of float sums, which no draw here hits)."""
    gen = np.random.default_rng(8)
    for trial in range(40):
        slots = int(gen.integers(2, 5))
        needs = [int(x) for x in gen.integers(1, 5, size=slots)]
        m = gen.uniform(0.05, 4.0, size=(slots, sum(needs)))
        m[gen.random(m.shape) < 0.2] = 0.0
        try:
            expected = restricted_assignment(m, needs, random.Random(trial))
        except DeterminizationError:
            with pytest.raises(DeterminizationError):
                assign_weighted(m.tolist(), needs, random.Random(trial))
            continue
        assert assign_weighted(m.tolist(), needs, random.Random(trial)) == list(expected)
