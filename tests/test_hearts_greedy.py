"""Hearts' greedy simulation policies (engine/search/hearts_greedy.py) against a move-by-move reference."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.agents.base import Budget
from engine.games.hearts.greedy import EPSILON, greedy_playout
from engine.games.hearts.rules import HEART_MASK, QUEEN_SPADES
from engine.search import knowledge


def playouts(state):
    """The search's fast paths of ``state``'s game (its ``SearchKnowledge.playouts``)."""
    return registry.entry(state.game.name).knowledge.playouts


def _rank(card: int) -> int:
    return card % 13


def _reference_move(state, rand, epsilon: float) -> int:
    """The policy's card, chosen from ``legal_moves()`` one move at a time (readable, slow)."""
    moves = state.legal_moves()
    if state.passing:
        return moves[int(rand() * len(moves))]
    if epsilon and rand() < epsilon:
        return moves[int(rand() * len(moves))]
    trick = state.trick
    suit_of = state.game.suit_of
    if not trick:
        keep = [m for m in moves if m != QUEEN_SPADES] or moves
        return min(keep, key=lambda m: (_rank(m), suit_of[m]))
    led = suit_of[trick[0]]
    if suit_of[moves[0]] == led:  # following suit
        winning = max(c for c in trick if suit_of[c] == led)
        below = [m for m in moves if m < winning]
        if below:
            return max(below)
        keep = [m for m in moves if m != QUEEN_SPADES] or moves
        return max(keep) if len(trick) == 3 else min(keep)
    if QUEEN_SPADES in moves:
        return QUEEN_SPADES
    hearts = [m for m in moves if HEART_MASK >> m & 1]
    if hearts:
        return max(hearts)
    return max(moves, key=lambda m: (_rank(m), -suit_of[m]))


@pytest.mark.parametrize("variant", [{"passing": "none"}, {}, {"queen_breaks_hearts": False, "passing": "across"}])
@pytest.mark.parametrize("epsilon", [0.0, EPSILON, 0.5])
def test_greedy_playout_plays_the_reference_policy_legally(variant: dict, epsilon: float) -> None:
    """From openings and mid-hand states, the inlined playout takes the tricks the reference policy takes
    when every card is played through the validating ``apply`` (so every card was legal)."""
    game = registry.create("hearts", variant)
    for seed in range(30):
        state = game.new_hand(random.Random(seed), dealer=seed % 4)
        walk = random.Random(seed + 500)
        for _ in range(seed % 23):  # some random moves first: passes, a trick in progress
            moves = state.legal_moves()
            state.apply(moves[int(walk.random() * len(moves))])
        fast, slow = state.clone(), state.clone()
        greedy_playout(fast, random.Random(seed), epsilon)
        rng = random.Random(seed)
        while not slow.is_terminal():
            slow.apply(_reference_move(slow, rng.random, epsilon))
        assert fast.is_terminal()
        assert fast.won == slow.won and fast.tricks_won == slow.tricks_won
        assert playouts(fast).reward_points(fast) == playouts(slow).reward_points(slow)


def test_greedy_playouts_duck_the_queen_more_than_random_ones() -> None:
    """The point of the policy: the player who holds the queen of spades at the start gives it away more
    often than in random playouts (measured over the same deals)."""
    game = registry.create("hearts", {"passing": "none"})
    kept = {"greedy": 0, "random": 0}
    for seed in range(300):
        deal = game.new_hand(random.Random(seed))
        holder = next(s for s in range(4) if deal.hands[s] >> QUEEN_SPADES & 1)
        greedy, rand = deal.clone(), deal.clone()
        greedy_playout(greedy, random.Random(seed))
        playouts(rand).scored_playout(rand, random.Random(seed))
        kept["greedy"] += greedy.won[holder] >> QUEEN_SPADES & 1
        kept["random"] += rand.won[holder] >> QUEEN_SPADES & 1
    assert kept["greedy"] < 0.6 * kept["random"], kept


def test_the_search_offers_and_uses_the_greedy_playouts() -> None:
    assert {"greedy", "egreedy"} <= set(knowledge.policies("hearts"))
    game = registry.create("hearts", {"passing": "none"})
    state = game.new_hand(random.Random(4))
    moves = []
    for sim in ("greedy", "egreedy", "egreedy"):
        agent = agents.make(f"ismcts:iterations=300,reward=relative,sim={sim}", game)
        moves.append(agent.choose(state.observation(state.current_player), random.Random(9), Budget()))
    assert all(m in state.legal_moves() for m in moves)
    assert moves[1] == moves[2]  # same seed, same move


def test_greedy_playout_refuses_other_games() -> None:
    state = registry.create("sueca").new_hand(random.Random(1))
    with pytest.raises(TypeError):
        greedy_playout(state, random.Random(1))


def test_greedy_playout_search_is_fair() -> None:
    """With greedy playouts the search still decides from the observation only."""
    from tests.test_search import assert_decides_from_observation

    assert_decides_from_observation("hearts", ["ismcts:iterations=24,reward=relative,sim=egreedy",
                                               "ismcts:iterations=24,sim=greedy"], seed=13)
