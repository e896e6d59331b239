"""Difficulty presets: named levels per game mapped to agent SPECs.

Levels go from ``beginner`` (weak, fast) to ``expert`` (strongest at about one second per move or less on a
2-core laptop-class machine). The measured table behind these choices is in ``docs/results.md``.
"""

from __future__ import annotations

from engine.game import VariantError

LEVELS = ("beginner", "casual", "strong", "expert")

_DESCRIPTIONS = {
    "beginner": "Beginner: a light search that often misses good plays",
    "casual": "Casual: a quick search (about 1,000 simulated deals per move)",
    "strong": "Strong: a deeper search (about 5,000 simulated deals per move)",
    "expert": "Expert: the strongest setting, thinking for up to about a second per move",
}

_GAMES = ("sueca", "bisca", "briscola", "hearts", "mosssidewhist", "scopone", "scopa", "pharaoh")

# Provisional specs, calibrated with arena runs (docs/results.md). Bisca/Briscola use the low exploration
# constant of seeds/000 6.4 through the agent's game default.
_DEFAULT = {
    "beginner": "ismcts:iterations=60",
    "casual": "ismcts:iterations=1000",
    "strong": "ismcts:iterations=5000",
    "expert": "ismcts:iterations=20000,seconds=1.0,endgame=50",
}
_SLOW = {  # long random playouts: iteration budgets capped by time so a move stays short
    "casual": "ismcts:iterations=1000,seconds=0.4",
    "strong": "ismcts:iterations=5000,seconds=0.8",
    "expert": "ismcts:iterations=20000,seconds=1.0",
}
_PER_GAME: dict[str, dict[str, str]] = {
    "bisca": {"expert": "ismcts:iterations=20000,seconds=1.0,reward=wl,endgame=200"},
    "briscola": {"expert": "ismcts:iterations=20000,seconds=1.0,reward=wl,endgame=200"},
    "hearts": {"strong": "ismcts:iterations=5000,reward=relative",
               "expert": "ismcts:iterations=20000,seconds=1.0,reward=relative,endgame=50"},
    "scopone": _SLOW,
    "scopa": _SLOW,
    "pharaoh": {"beginner": "ismcts:iterations=30", **_SLOW},
}


def games() -> tuple[str, ...]:
    """Games that have presets."""
    return _GAMES


def preset_spec(game: str, level: str) -> str:
    """The agent SPEC of ``level`` for ``game``; unknown names raise VariantError listing valid ones."""
    if game not in _GAMES:
        raise VariantError(f"no presets for game {game!r}; games: {', '.join(_GAMES)}")
    if level not in LEVELS:
        raise VariantError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return _PER_GAME.get(game, {}).get(level, _DEFAULT[level])


def describe_level(level: str) -> str:
    """A one-line description of a level for menus."""
    if level not in LEVELS:
        raise VariantError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return _DESCRIPTIONS[level]
