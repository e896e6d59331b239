"""Moss Side Whist's greedy simulation policies (engine/search/whist_greedy.py) against a move-by-move reference."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.agents.base import Budget
from engine.games.mosssidewhist.greedy import EPSILON, greedy_playout
from engine.games.tricks import PASS_FLAG
from engine.search import knowledge

SPADES = 3


def _suit(card: int) -> int:
    return card // 13


def _rank(card: int) -> int:
    return card % 13


def _lowest_plain(cards: list[int]) -> int:
    plain = [c for c in cards if _suit(c) != SPADES]
    return min(plain, key=lambda c: (_rank(c), c)) if plain else min(cards)


def _reference_move(state, rand, epsilon: float) -> int:
    """The policy's card, chosen from ``legal_moves()`` one move at a time (readable, slow)."""
    moves = state.legal_moves()
    if epsilon and rand() < epsilon:
        return moves[int(rand() * len(moves))]
    if moves[0] & PASS_FLAG:
        return _lowest_plain([m ^ PASS_FLAG for m in moves]) | PASS_FLAG
    seat, trick = state.current, state.trick
    others = [s for s in range(3) if s != seat]
    if not trick:
        for suit in range(3):
            mine = [c for c in moves if _suit(c) == suit]
            theirs = [c for o in others for c in range(52) if state.hands[o] >> c & 1 and _suit(c) == suit]
            if mine and (not theirs or max(mine) > max(theirs)):
                return max(mine)
        return _lowest_plain(moves)
    led = _suit(trick[0])
    ruffed = [c for c in trick if _suit(c) == SPADES and led != SPADES]
    best = max(ruffed) if ruffed else max(c for c in trick if _suit(c) == led)
    last_seat = (state.leader + 2) % 3
    if _suit(moves[0]) == led:  # following suit
        above = [c for c in moves if _suit(best) == led and c > best]
        if above and seat != last_seat:
            theirs = [c for c in range(52) if state.hands[last_seat] >> c & 1 and _suit(c) == led]
            has_spades = any(_suit(c) == SPADES for c in range(52) if state.hands[last_seat] >> c & 1)
            if theirs:
                above = [c for c in above if c > max(theirs)]
            elif has_spades and led != SPADES:
                above = []
        return min(above) if above else min(moves)
    spades = [c for c in moves if _suit(c) == SPADES and (_suit(best) != SPADES or c > best)]
    if spades:
        return min(spades)
    return _lowest_plain(moves)


@pytest.mark.parametrize("epsilon", [0.0, EPSILON, 0.5])
def test_greedy_playout_plays_the_reference_policy_legally(epsilon: float) -> None:
    """From openings (discards to make) and mid-hand states, the inlined playout takes the tricks the reference
    policy takes when every card is played through the validating ``apply`` (so every card was legal)."""
    game = registry.create("mosssidewhist")
    for seed in range(40):
        state = game.new_hand(random.Random(seed), dealer=seed % 3)
        walk = random.Random(seed + 500)
        for _ in range(seed % 29):  # some random moves first: discards, a trick in progress
            moves = state.legal_moves()
            state.apply(moves[int(walk.random() * len(moves))])
        fast, slow = state.clone(), state.clone()
        greedy_playout(fast, random.Random(seed), epsilon)
        rng = random.Random(seed)
        while not slow.is_terminal():
            slow.apply(_reference_move(slow, rng.random, epsilon))
        assert fast.is_terminal()
        assert fast.won == slow.won and fast.tricks_won == slow.tricks_won
        assert fast.discards == slow.discards
        assert fast.outcomes() == slow.outcomes()


def test_greedy_playouts_score_strong_hands_higher_than_random_ones() -> None:
    """The point of the policy: a hand's tricks follow its high cards more closely. Over the same deals, the
    trick count a seat ends with correlates better with its honour count (A, K, Q, spades double) than in
    random playouts."""
    import numpy as np

    game = registry.create("mosssidewhist")
    strength, greedy_tricks, random_tricks = [], [], []
    for seed in range(300):
        deal = game.new_hand(random.Random(seed))
        seat = (deal.hand_leader + 1) % 3  # a 16-card hand: no discards to blur it
        hand = deal.hands[seat]
        strength.append(sum((_rank(c) - 9) * (2 if _suit(c) == SPADES else 1)
                            for c in range(52) if hand >> c & 1 and _rank(c) >= 10))
        greedy, rand = deal.clone(), deal.clone()
        greedy_playout(greedy, random.Random(seed))
        rand.scored_playout(random.Random(seed))
        greedy_tricks.append(greedy.tricks_won[seat])
        random_tricks.append(rand.tricks_won[seat])
    r_greedy = np.corrcoef(strength, greedy_tricks)[0, 1]
    r_random = np.corrcoef(strength, random_tricks)[0, 1]
    assert r_greedy > r_random + 0.05, (r_greedy, r_random)


def test_the_search_offers_and_uses_the_greedy_playouts() -> None:
    assert {"greedy", "egreedy"} <= set(knowledge.policies("mosssidewhist"))
    game = registry.create("mosssidewhist")
    state = game.new_hand(random.Random(4))
    for _ in range(4):
        state.apply(state.legal_moves()[0])  # the discards: the search starts at the first lead
    moves = []
    for sim in ("greedy", "egreedy", "egreedy"):
        agent = agents.make(f"ismcts:iterations=300,sim={sim}", game)
        moves.append(agent.choose(state.observation(state.current_player), random.Random(9), Budget()))
    assert all(m in state.legal_moves() for m in moves)
    assert moves[1] == moves[2]  # same seed, same move


def test_greedy_playout_refuses_other_games() -> None:
    state = registry.create("hearts").new_hand(random.Random(1))
    with pytest.raises(TypeError):
        greedy_playout(state, random.Random(1))


def test_greedy_playout_search_is_fair() -> None:
    """With greedy playouts the search still decides from the observation only."""
    from tests.test_search import assert_decides_from_observation

    assert_decides_from_observation("mosssidewhist", ["ismcts:iterations=24,sim=egreedy",
                                                      "ismcts:iterations=24,sim=greedy"], seed=13)
