"""Difficulty presets map every game and level to a valid agent SPEC."""

from __future__ import annotations

import pytest

from engine import agents, presets, registry
from engine.game import VariantError


@pytest.mark.parametrize("level", presets.LEVELS)
def test_every_available_game_has_a_buildable_preset(level: str) -> None:
    for name in registry.available():
        spec = presets.preset_spec(name, level)
        agent = agents.make(spec, registry.create(name))
        assert agent.fair
    assert presets.describe_level(level)


def test_unknown_names_list_the_valid_ones() -> None:
    with pytest.raises(VariantError, match="expert"):
        presets.preset_spec("sueca", "godlike")
    with pytest.raises(VariantError, match="sueca"):
        presets.preset_spec("chess", "casual")
    with pytest.raises(VariantError, match="beginner"):
        presets.describe_level("nope")
