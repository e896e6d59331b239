"""Difficulty presets map every game and level to a valid agent SPEC forming a ladder with a capped expert."""

from __future__ import annotations

import random

import pytest

from engine import agents, presets, registry
from engine.game import VariantError


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
    assert set(presets.games()) == set(registry.GAMES)


@pytest.mark.parametrize("game", presets.games())
def test_levels_search_more_from_beginner_to_expert(game: str) -> None:
    iterations = [_config(game, level)["iterations"] for level in presets.LEVELS]
    assert all(n > 0 for n in iterations), iterations  # every level is bounded by iterations
    assert iterations == sorted(set(iterations)), f"{game}: {iterations} not strictly increasing"


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
