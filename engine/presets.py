"""Difficulty presets: named levels per game mapped to agent SPECs.

Levels go from ``beginner`` (weak, fast) to ``expert`` (strongest at about one second per move or less on a
2-core laptop-class machine). Each step searches about four times as many simulated deals as the one below
(a roughly even ladder on the log scale where ISMCTS strength grows). Expert's iteration count was what one
second of one core bought at a hand's opening (the slowest position) on the development machine when it was
set; the search has become faster since, so expert now takes about 0.2-0.5 s a move there
(``docs/performance.md``), and its ``seconds=1.0`` cap keeps slower or busier machines at one second. The
measured ladder (each level against the fixed rule-based and random references) is in ``docs/results.md``,
section "Difficulty presets".
"""

from __future__ import annotations

from engine.game import VariantError

LEVELS = ("beginner", "casual", "strong", "expert")

_DESCRIPTIONS = {
    "beginner": "Beginner: a light search that often misses good plays",
    "casual": "Casual: a quick search (a few hundred simulated deals per move)",
    "strong": "Strong: a deeper search (about four times casual's)",
    "expert": "Expert: the strongest setting, thinking for up to about a second per move",
}

_GAMES = ("sueca", "bisca", "briscola", "hearts", "mosssidewhist", "scopone", "scopa", "pharaoh")

EXPERT_SECONDS = 1.0
"""Expert's time cap per move (seconds of wall clock)."""

_DEFAULT = {  # Sueca: about 20,000 iterations per second of CPU at the opening (0.5 s for expert's 10,000)
    "beginner": "ismcts:iterations=60",
    "casual": "ismcts:iterations=400",
    "strong": "ismcts:iterations=2000",
    "expert": "ismcts:iterations=10000,seconds=1.0,endgame=50",
}
_MOSS_SIDE_WHIST = {  # ~13,000-16,000 it/s: expert's 8,000 iterations take 0.5-0.8 s at the opening
    "expert": "ismcts:iterations=8000,seconds=1.0,endgame=50",
}
_BISCA = {  # ~17,000 it/s; a wide endgame window. The win/loss reward of seeds/000 6.4 lost head to head to the
    # default reward in our runs, at 1,000 and at 8,000 iterations (docs/results.md, "Bisca")
    "expert": "ismcts:iterations=8000,seconds=1.0,endgame=200",
}
_BRISCOLA = {  # 3-card hands. Against the heuristic the levels above ~60 iterations look alike, so beginner
    # searches less to stay clearly below casual; head to head more iterations do win (docs/results.md).
    "beginner": "ismcts:iterations=15",
    **_BISCA,
}
_HEARTS = {  # ~10,000-13,000 it/s; relative reward (seeds/001 4.2). Strong and expert play out with epsilon-greedy
    # playouts (lead low, duck, dump the queen; ~0.8x the random playouts' speed): 1.2 fewer penalty points a hand
    # than random playouts at strong's budget, and expert then gains on strong (docs/results.md, "Hearts")
    "casual": "ismcts:iterations=400,reward=relative",
    "strong": "ismcts:iterations=1500,reward=relative,sim=egreedy",
    "expert": "ismcts:iterations=6500,seconds=1.0,reward=relative,endgame=50,sim=egreedy",
}
_SCOPONE = {  # ~7,000-9,000 it/s; expert models the other seats as seeds/002's Greedy (GOH, ~4,500 it/s): it beat the
    # all-moves search head to head and `cs` clearly (docs/results.md, "Scopone" presets)
    "casual": "ismcts:iterations=250",
    "strong": "ismcts:iterations=700",
    "expert": "ismcts:iterations=4500,seconds=1.0,opponents=greedy",
}
_SCOPA = {  # ~6,000-8,000 it/s
    "casual": "ismcts:iterations=250",
    "strong": "ismcts:iterations=800",
    "expert": "ismcts:iterations=4500,seconds=1.0",
}
_PHARAOH = {  # random playouts run ~260 plies (~700 it/s); the pruned playouts of seeds/004 4.4 (no draw while
    # a play exists; smallest whole same-rank groups) run ~8,000-10,000 it/s and win more (docs/results.md)
    "beginner": "ismcts:iterations=60,sim=play-first",
    "casual": "ismcts:iterations=400,sim=play-smallest,prune=smallest",
    "strong": "ismcts:iterations=1500,sim=play-smallest,prune=smallest",
    "expert": "ismcts:iterations=6000,seconds=1.0,sim=play-smallest,prune=smallest",
}
_PER_GAME: dict[str, dict[str, str]] = {
    "bisca": _BISCA,
    "briscola": _BRISCOLA,
    "hearts": _HEARTS,
    "mosssidewhist": _MOSS_SIDE_WHIST,
    "scopone": _SCOPONE,
    "scopa": _SCOPA,
    "pharaoh": _PHARAOH,
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


def hint_spec(game: str) -> str:
    """The SPEC of the app's hints for ``game``: strong's search (quick), plus expert's exact endgame solver
    where expert has one, so that hints in the last tricks are exact."""
    spec = preset_spec(game, "strong")
    endgame = [part for part in preset_spec(game, "expert").split(",") if part.startswith("endgame=")]
    return ",".join([spec, *endgame])


def describe_level(level: str) -> str:
    """A one-line description of a level for menus."""
    if level not in LEVELS:
        raise VariantError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return _DESCRIPTIONS[level]
