"""NAST (fernandes2016 5.4): the n-gram statistics and the four simulation policies' distributions."""

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


def reference_playout(nast: NAST, state, rng: random.Random, seq: list[tuple[int, int]]) -> None:
    """The readable definition: one legal_moves()/choose() per move, the context from the moves before."""
    back = nast.n - 1
    played = [m for _s, m in seq]
    while not state.is_terminal():
        seat = state.current_player
        moves = state.legal_moves()
        if len(moves) > 1:
            move = nast.choose(seat, tuple(played[-back:]) if back else (), moves, rng)
        else:
            move = moves[0]
        seq.append((seat, move))
        played.append(move)
        state.do(move)


def trained(game_name: str, n: int, policy: str, hands: int = 30) -> tuple[NAST, list]:
    """A NAST whose table holds the statistics of random hands, and a few states to play out from."""
    from engine import registry  # local: the policy tests above need no game

    game = registry.create(game_name)
    rng = random.Random(7)
    nast = NAST(n, policy, 0.3, 0.2, 0.7, (-1.0, 1.0) if policy == "roulette" else (0.0, 1.0))
    starts = []
    for h in range(hands):
        state = game.new_hand(rng)
        seq: list[tuple[int, int]] = []
        for _ in range(h % 9):  # some start mid-hand, with moves already in the sequence
            moves = state.legal_moves()
            move = moves[int(rng.random() * len(moves))]
            seq.append((state.current_player, move))
            state.do(move)
        starts.append((state.clone(), list(seq)))
        reference_playout(nast, state, rng, seq)
        nast.update(seq, [rng.random() for _ in range(game.num_players)])
    return nast, starts


@pytest.mark.parametrize("game_name", ["bisca", "sueca", "scopone"])
@pytest.mark.parametrize(("n", "policy"), [(1, "egreedy"), (2, "ucb1"), (2, "gibbs"), (3, "roulette"), (4, "ucb1")])
def test_the_fast_playout_makes_the_reference_moves_and_draws(game_name: str, n: int, policy: str) -> None:
    nast, starts = trained(game_name, n, policy)
    assert nast.table  # the contexts are known, so the policy (not the uniform fallback) decides
    for k, (state, seq) in enumerate(starts):
        fast_state, fast_seq, fast_rng = state.clone(), list(seq), random.Random(k)
        ref_state, ref_seq, ref_rng = state.clone(), list(seq), random.Random(k)
        nast.playout(fast_state, fast_rng, fast_seq)
        reference_playout(nast, ref_state, ref_rng, ref_seq)
        assert fast_seq == ref_seq
        assert fast_rng.random() == ref_rng.random()
        assert fast_state.is_terminal() and fast_state.result().points == ref_state.result().points


def test_update_of_an_empty_sequence_changes_nothing() -> None:
    nast = NAST(2, "ucb1", 1.0, 0.2, 0.7)
    nast.update([], [1.0, 0.0])
    assert nast.table == {}


def test_ucb1_breaks_exact_ties_uniformly() -> None:
    got = shares(seeded("ucb1", {1: 0.5, 2: 0.5, 3: 0.1}), 0, (9,), [1, 2, 3])
    assert within(got[1], 0.5) and within(got[2], 0.5) and got[3] == 0.0, got
