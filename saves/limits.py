"""Bounds on what a player or a study file may ask of the AI in the app: every AI move has a hard time cap,
and a study's opponents and plan stay within what a participant's session can hold."""

from __future__ import annotations

from engine import agents
from engine.game import GameError

AI_SECONDS_MAX = 30.0
"""The most seconds any AI move may take in the app (a study's ``seconds=`` beyond it is refused)."""
AI_WORKERS_MAX = 8
"""The most search processes one AI seat may use (``workers=``)."""
GAMES_PER_PARTICIPANT_MAX = 200
"""The most games a study may plan for one participant (conditions x games per condition)."""


def spec_problem(spec: str) -> str | None:
    """Why an agent SPEC asks for more than the app allows (None when it is within the limits)."""
    try:
        _, params = agents.parse_spec(spec)
    except GameError as e:
        return str(e)
    for key, top in (("seconds", AI_SECONDS_MAX), ("workers", AI_WORKERS_MAX)):
        if key not in params:
            continue
        try:
            value = float(params[key])
        except ValueError:
            continue  # the agent's own validation names the bad value
        if not 0 <= value <= top:
            return f"{key}={params[key]} is out of range ({key} must be from 0 to {top:g})"
    return None


def move_time_limit(spec: str, limit: float | None = None) -> float:
    """The time limit of one AI move with ``spec``: the agent's own ``seconds`` when it sets one, else the
    cap; never more than :data:`AI_SECONDS_MAX` (nor ``limit`` when given)."""
    cap = AI_SECONDS_MAX if limit is None or limit <= 0 else min(limit, AI_SECONDS_MAX)
    try:
        _, params = agents.parse_spec(spec)
        own = float(params.get("seconds", 0) or 0)
    except (GameError, ValueError):
        own = 0.0
    return min(own, cap) if own > 0 else cap
