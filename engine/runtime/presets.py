"""Difficulty presets: named levels per game mapped to agent SPECs.

Levels go from ``beginner`` (weak, fast) to ``expert`` (strongest at about one second per move or less on a
2-core laptop-class machine). Most are ISMCTS, each step searching about four times as many simulated deals as
the one below (a roughly even ladder on the log scale where ISMCTS strength grows); a game may seat another
search, such as ``pimc``, where its ladder says so. Expert's iteration count was what one
second of one core bought at a hand's opening (the slowest position) on the development machine when it was
set; the search has become faster since, so expert now takes about 0.2-0.8 s a move there
(``docs/performance.md``), and its ``seconds=1.0`` cap keeps slower or busier machines at one second. The
measured ladder (each level against the fixed rule-based and random references) is in ``docs/results.md``,
section "Difficulty presets". Each game's package gives its four SPECs (``GameEntry.presets``).
"""

from __future__ import annotations

from engine import registry
from engine.game import VariantError
from engine.registry import LEVELS

__all__ = ["EXPERT_SECONDS", "LEVELS", "describe_level", "games", "hint_spec", "preset_spec"]

_DESCRIPTIONS = {
    "beginner": "Beginner: a light search that often misses good plays",
    "casual": "Casual: a quick search (a few hundred simulated deals per move)",
    "strong": "Strong: a deeper search (up to about a quarter of a second per move)",
    "expert": "Expert: the strongest setting, thinking for up to about a second per move",
}

EXPERT_SECONDS = 1.0
"""Expert's time cap per move (seconds of wall clock)."""


def games() -> tuple[str, ...]:
    """Games that have presets (every registered game), in menu order."""
    return tuple(registry.names())


def preset_spec(game: str, level: str) -> str:
    """The agent SPEC of ``level`` for ``game``; unknown names raise VariantError listing valid ones."""
    if game not in registry.names():
        raise VariantError(f"no presets for game {game!r}; games: {', '.join(games())}")
    if level not in LEVELS:
        raise VariantError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return registry.entry(game).presets[level]


def hint_spec(game: str) -> str:
    """The SPEC of the app's hints for ``game``: the game's own hint SPEC where it gives one (the strongest
    quick agent of its equal-time ladder), else strong's search (quick), plus expert's exact endgame solver
    where both are ISMCTS and expert has one, so that hints in the last tricks are exact."""
    spec = preset_spec(game, "strong")  # checks the name
    hint = registry.entry(game).hint
    if hint:
        return hint
    expert = preset_spec(game, "expert")
    if spec.split(":")[0] != "ismcts" or expert.split(":")[0] != "ismcts":
        return spec
    endgame = [part for part in expert.split(",") if part.startswith("endgame=")]
    return ",".join([spec, *endgame])


def describe_level(level: str) -> str:
    """A one-line description of a level for menus."""
    if level not in LEVELS:
        raise VariantError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return _DESCRIPTIONS[level]
