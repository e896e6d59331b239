"""Difficulty presets map every game and level to a valid agent SPEC forming a ladder with a capped expert."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import agents, presets, registry
from engine.game import VariantError
from engine.games.tricks.solver import DealSolver
from engine.search.pimc import SCORE_WEIGHT


def _config(game: str, level: str) -> dict:
    return agents.make(presets.preset_spec(game, level), registry.create(game)).config


@pytest.mark.parametrize("level", presets.LEVELS)
def test_every_available_game_has_a_buildable_preset(level: str) -> None:
    for name in registry.available():
        spec = presets.preset_spec(name, level)
        agent = agents.make(spec, registry.create(name))
        assert agent.fair
    assert presets.describe_level(level)


def test_every_registered_game_has_presets() -> None:
    assert set(presets.games()) == set(registry.names())


_BUDGETS = {"ismcts": ("iterations",), "pimc": ("deals", "depth", "nodes")}
"""The options that bound each preset family's search per move."""


@pytest.mark.parametrize("game", presets.games())
def test_levels_search_more_from_beginner_to_expert(game: str) -> None:
    """Every level is bounded by its family's budget, and a level of the same family as the one below searches
    more (the ladder in docs/results.md measures the steps where the family changes)."""
    levels = [(presets.preset_spec(game, level).split(":")[0], _config(game, level)) for level in presets.LEVELS]
    for family, config in levels:
        assert family in _BUDGETS, (game, family)
        assert all(config[key] > 0 for key in _BUDGETS[family]), (game, family, config)
    for (lower_family, lower), (family, upper) in zip(levels, levels[1:], strict=False):
        if family != lower_family:
            continue
        low = [lower[key] for key in _BUDGETS[family]]
        high = [upper[key] for key in _BUDGETS[family]]
        assert all(a <= b for a, b in zip(low, high, strict=True)) and low != high, f"{game}: {low} then {high}"


@pytest.mark.parametrize("game", presets.games())
def test_expert_is_capped_at_one_second_per_move(game: str) -> None:
    expert = _config(game, "expert")
    assert 0 < expert["seconds"] <= presets.EXPERT_SECONDS <= 1.0
    for level in presets.LEVELS[:-1]:
        seconds = _config(game, level)["seconds"]
        assert seconds == 0 or seconds <= expert["seconds"], (game, level, seconds)


@pytest.mark.parametrize("game", presets.games())
def test_beginner_chooses_a_legal_move_at_the_opening(game: str) -> None:
    g = registry.create(game)
    state = g.new_hand(random.Random(3), dealer=g.num_players - 1)
    agent = agents.make(presets.preset_spec(game, "beginner"), g)
    move = agent.choose(state.observation(state.current_player), random.Random(4))
    assert move in state.legal_moves()


def test_unknown_names_list_the_valid_ones() -> None:
    with pytest.raises(VariantError, match="expert"):
        presets.preset_spec("sueca", "godlike")
    with pytest.raises(VariantError, match="sueca"):
        presets.preset_spec("chess", "casual")
    with pytest.raises(VariantError, match="beginner"):
        presets.describe_level("nope")


@pytest.mark.parametrize("game", presets.games())
def test_hints_search_like_strong_and_solve_endings_like_expert(game: str) -> None:
    hint = presets.hint_spec(game)
    agent = agents.make(hint, registry.create(game))
    assert agent.fair
    own = registry.entry(game).hint
    if own:  # the game names its strongest quick agent
        assert hint == own
        return
    strong = _config(game, "strong")
    assert hint.split(":")[0] == presets.preset_spec(game, "strong").split(":")[0]
    assert {k: v for k, v in agent.config.items() if k != "endgame"} == \
        {k: v for k, v in strong.items() if k != "endgame"}
    assert ("endgame=" in hint) == ("endgame=" in presets.preset_spec(game, "expert"))


def _after_the_stock(game: Any, seed: int) -> Any:
    """A state of ``game`` (Bisca or Briscola) played at random until the stock is gone, between tricks."""
    rng = random.Random(seed)
    state = game.new_hand(rng)
    while state.stock or state.trick:
        state.do(rng.choice(state.legal_moves()))
    return state


def test_a_bisca_hint_after_the_stock_is_a_best_move() -> None:
    """After the stock, Bisca is a game of perfect information: the hint is exactly best on card points."""
    from engine.search import endgame

    game = registry.create("bisca")
    hint = agents.make(presets.hint_spec("bisca"), game)
    for seed in range(8):
        state: Any = _after_the_stock(game, seed)
        seat = state.current_player
        solver = endgame._Solver(seat, "points", 10**8, None, None)
        solver.new_deal(state)
        values = {}
        for m in state.legal_moves():
            child = state.clone()
            child.do(m)
            values[m] = solver.value(child, -float("inf"), float("inf"), 1)
        move = hint.choose(state.observation(seat), random.Random(seed))
        assert values[move] == max(values.values()), (seed, values, move)


def test_a_briscola_hint_after_the_stock_is_a_best_move() -> None:
    """Once Briscola's stock is gone every card is known: the hint (``pimc``) plays a move of the best exact
    value of the full deal (the search's own value: the hand's win, then its card points)."""
    game = registry.create("briscola")
    hint = agents.make(presets.hint_spec("briscola"), game)
    checked = 0
    for seed in range(200):
        state: Any = _after_the_stock(game, seed)
        seat = state.current_player
        moves = state.legal_moves()
        values, exact = DealSolver(state, seat, SCORE_WEIGHT, None).root_values(moves, 99)
        assert exact
        if len(set(values.values())) == 1:
            continue  # every card is as good: nothing to check
        move = hint.choose(state.observation(seat), random.Random(seed))
        assert values[move] == max(values.values()), (seed, values, move)
        checked += 1
        if checked == 8:
            break
    assert checked == 8
