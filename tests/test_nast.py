"""NAST (seeds/000 5.4): the n-gram statistics and the four simulation policies' distributions."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from engine.search.common import NAST


def shares(nast: NAST, seat: int, tail: tuple[int, ...], moves: list[int], draws: int = 4000,
           seed: int = 1) -> dict[int, float]:
    rng = random.Random(seed)
    counts = Counter(nast.choose(seat, tail, moves, rng) for _ in range(draws))
    return {m: counts[m] / draws for m in moves}


def within(observed: float, expected: float, draws: int = 4000) -> bool:
    """Inside a 4.5-sigma binomial band (a seeded run; the band only absorbs the sampling noise)."""
    return abs(observed - expected) <= 4.5 * math.sqrt(expected * (1 - expected) / draws) + 1e-9


def test_update_credits_the_n_gram_ending_at_each_move_with_its_movers_reward() -> None:
    nast = NAST(2, "roulette", 1.0, 0.2, 0.7)
    seq = [(0, 10), (1, 11), (0, 12), (1, 13)]
    nast.update(seq, [1.0, 0.0])
    nast.update(seq, [0.5, 0.5])
    assert nast.table[(0,)][10] == [1.5, 2.0]  # the first move has no predecessor
    assert nast.table[(1, 10)][11] == [0.5, 2.0]
    assert nast.table[(0, 11)][12] == [1.5, 2.0]
    assert nast.table[(1, 12)][13] == [0.5, 2.0]
    three = NAST(3, "roulette", 1.0, 0.2, 0.7)
    three.update(seq, [1.0, 0.0])
    assert set(three.table) == {(0,), (1, 10), (0, 10, 11), (1, 11, 12)}  # grams of 1, 2, 3, 3 moves


@pytest.mark.parametrize("policy", ["gibbs", "egreedy", "roulette", "ucb1"])
def test_an_unseen_context_is_a_uniform_choice(policy: str) -> None:
    nast = NAST(2, policy, 1.0, 0.2, 0.7)
    got = shares(nast, 0, (5,), [1, 2, 3, 4])
    assert all(within(p, 0.25) for p in got.values()), got


def seeded(policy: str, means: dict[int, float], count: int = 10, **kw: float) -> NAST:
    nast = NAST(2, policy, kw.get("tau", 1.0), kw.get("epsilon", 0.2), kw.get("c", 0.7),
                (kw.get("low", 0.0), 1.0))
    nast.table[(0, 9)] = {m: [v * count, float(count)] for m, v in means.items()}
    return nast


def test_egreedy_plays_the_best_average_with_probability_one_minus_epsilon() -> None:
    got = shares(seeded("egreedy", {1: 0.2, 2: 0.7, 3: 0.4}), 0, (9,), [1, 2, 3])
    assert within(got[2], 0.8) and within(got[1], 0.1) and within(got[3], 0.1), got  # eq. 5.3


def test_roulette_is_proportional_to_the_average_reward() -> None:
    got = shares(seeded("roulette", {1: 0.2, 2: 0.6}), 0, (9,), [1, 2])
    assert within(got[1], 0.25) and within(got[2], 0.75), got  # eq. 5.4 with the 0..1 reward
    # A reward in -1..1 (WL) is measured from -1: averages 0.0 and 0.5 weigh 1.0 and 1.5.
    got = shares(seeded("roulette", {1: 0.0, 2: 0.5}, low=-1.0), 0, (9,), [1, 2])
    assert within(got[1], 0.4) and within(got[2], 0.6), got


def test_gibbs_weights_moves_by_exp_of_average_over_tau() -> None:
    got = shares(seeded("gibbs", {1: 0.0, 2: 1.0}, tau=0.5), 0, (9,), [1, 2])
    expected = math.exp(2.0) / (1 + math.exp(2.0))  # eq. 5.1
    assert within(got[2], expected) and within(got[1], 1 - expected), got


def test_ucb1_tries_unseen_moves_first_then_maximises_the_bound() -> None:
    nast = seeded("ucb1", {1: 0.9, 2: 0.1})
    assert set(shares(nast, 0, (9,), [1, 2, 3], draws=200).items()) == {(1, 0.0), (2, 0.0), (3, 1.0)}
    assert shares(nast, 0, (9,), [1, 2], draws=200)[1] == 1.0
    nast.table[(0, 9)][2] = [0.1, 1.0]  # rarely tried: the exploration term wins (eq. 5.5)
    nast.table[(0, 9)][1] = [90.0, 100.0]
    assert shares(nast, 0, (9,), [1, 2], draws=200)[2] == 1.0


def test_unknown_policy_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="gibbs, egreedy, roulette, ucb1"):
        NAST(2, "softmax", 1.0, 0.2, 0.7)
