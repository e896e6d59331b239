"""ISMCTS with PIMC leaves (``sim=eval,eval_depth=D``): legal moves from the observation only, determinism with a
seed, a leaf worth the value of perfect play once the search reaches the end of the hand (both the generic
search and a game's fast path), the refusals, and a seeded check of strength."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import agents, registry
from engine.game import Game, GameState, VariantError
from engine.lab import arena
from engine.search import knowledge
from engine.search.common import reward_function
from engine.search.pimc import leaf_search, outcome_value
from tests.test_search import assert_decides_from_observation, decision_points

SPEC = "ismcts:iterations=30,sim=eval,eval_depth=2,eval_nodes=200"


@pytest.mark.parametrize("name", ["sueca", "bisca", "briscola", "scopa", "scopone", "mosssidewhist", "pharaoh"])
def test_searched_leaves_play_legal_moves_deterministically(name: str) -> None:
    game = registry.create(name)
    for state in decision_points(game, 3, 3):
        obs = state.observation(state.current_player)
        moves = {agents.make(SPEC, game).choose(obs, random.Random(8)) for _ in range(2)}
        assert len(moves) == 1
        assert moves.pop() in state.legal_moves()


@pytest.mark.parametrize("name", ["briscola", "scopa"])
def test_searched_leaves_decide_from_the_observation_only(name: str) -> None:
    assert_decides_from_observation(name, [SPEC])


def _perfect_play(state: GameState, team: tuple[int, ...], seat: int,
                  terminal: Callable[[GameState], list[float]] = outcome_value) -> float:
    """The value of ``state`` for ``seat``'s team when both sides play perfectly (plain minimax to the end)."""
    if state.is_terminal():
        return terminal(state)[seat]
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.do(move)
        values.append(_perfect_play(child, team, seat, terminal))
    return max(values) if state.current_player in team else min(values)


def _late_position(game: Game, seed: int, cards_left: int) -> GameState:
    rng = random.Random(seed)
    state = game.new_hand(rng)
    while True:
        hands: list[int] = state.hands  # type: ignore[attr-defined]
        if sum(h.bit_count() for h in hands) <= cards_left and not getattr(state, "stock", []):
            return state
        moves = state.legal_moves()
        state.do(moves[int(rng.random() * len(moves))])


@pytest.mark.parametrize(("name", "cards_left", "reward"), [
    ("briscola", 4, "outcome"), ("bisca", 5, "outcome"), ("sueca", 8, "outcome"), ("scopa", 4, "outcome"),
    ("sueca", 8, "match"), ("scopa", 4, "match")])
def test_a_leaf_is_worth_perfect_play_when_the_search_reaches_the_end(name: str, cards_left: int,
                                                                       reward: str) -> None:
    game = registry.create(name)
    terminal = outcome_value if reward == "outcome" else reward_function("match", name, knowledge.playouts(name))
    team_of = {s: tuple(t) for t in game.teams() for s in t}
    checked = 0
    for seed in range(6):
        state = _late_position(game, seed, cards_left)
        if state.is_terminal():
            continue
        seat = seed % game.num_players
        values = leaf_search(game, seat, 40, 1_000_000, random.Random(seed), reward)(state.clone())
        exact = _perfect_play(state.clone(), team_of[seat], seat, terminal)
        for s in range(game.num_players):
            expected = exact if s in team_of[seat] else 1.0 - exact
            assert values[s] == pytest.approx(expected), (name, seed, s)
        checked += 1
    assert checked >= 4


def test_three_sides_get_one_value_each_from_max_n() -> None:
    game = registry.create("mosssidewhist")
    state = decision_points(game, 5, 1)[0]
    values = leaf_search(game, state.current_player, 2, 5000, random.Random(1))(state.clone())
    assert len(values) == game.num_players
    assert all(0.0 <= v <= 1.0 for v in values)


@pytest.mark.parametrize(("spec", "listed"), [
    ("ismcts:eval_depth=3", "sim=eval"), ("ismcts:sim=eval,eval_nodes=50", "eval_depth"),
    ("ismcts:sim=eval,eval_depth=3,eval_plies=2", "exclude each other"),
    ("ismcts:sim=eval,eval_depth=3,reward=score", "pwl, wl, match")])
def test_unusable_leaf_search_options_are_refused(spec: str, listed: str) -> None:
    with pytest.raises(VariantError, match=listed):
        agents.make(spec, registry.create("briscola"))


def test_searched_leaves_beat_random_by_a_wide_margin() -> None:
    summary = arena.run("briscola", {}, ["ismcts:iterations=20,sim=eval,eval_depth=3", "random"], 40, seed=1,
                        jobs=1)
    paired = summary["paired"]
    assert paired["deals"] == 20
    low, _high = paired["outcome_difference_ci95"]
    assert low > 0.4, paired  # seeded: the search's outcome minus random's, per deal, 95% interval above +0.4
