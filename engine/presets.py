"""Re-export of :mod:`engine.runtime.presets` (difficulty presets: level -> agent SPEC per game)."""

from engine.runtime.presets import EXPERT_SECONDS, LEVELS, describe_level, games, hint_spec, preset_spec

__all__ = ["EXPERT_SECONDS", "LEVELS", "describe_level", "games", "hint_spec", "preset_spec"]
