"""Agents: every player the arena and the app can seat.

The generic agents (``random`` and the searches ``ismcts``, ``detuct``, ``cheat``) play every game; each game's
registry entry adds its own rule-based players (``heuristic``, Scopone's ``cs``, Pharaoh's ``smallest``...).
``make(spec, game)`` builds an agent from a SPEC string such as ``ismcts:iterations=10000,c=0.7``.

This factory sits in the runtime layer (the agents themselves are in the agents and search layers): the
``ismcts`` it seats is :class:`engine.runtime.parallel.ParallelISMCTSAgent`, the search whose ``workers=N``
shares run in helper processes.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine import registry
from engine.agent import Agent, Budget, Progress, parse_spec
from engine.game import Game, VariantError

AGENTS: dict[str, str] = {
    "random": "engine.agents.random_agent:RandomAgent",
    "ismcts": "engine.runtime.parallel:ParallelISMCTSAgent",
    "detuct": "engine.search.detuct:DeterminizedUCTAgent",
    "cheat": "engine.search.cheat:CheatingUCTAgent",
    "pimc": "engine.search.pimc:PIMCAgent",
}
"""The generic agents (every game): name -> ``module:Class``, loaded lazily."""

__all__ = ["AGENTS", "Agent", "Budget", "Progress", "agent_class", "available", "describe", "games_of", "make",
           "names", "parse_spec"]


def _game_name(game: Game | str | None) -> str | None:
    return game if game is None or isinstance(game, str) else game.name


def names() -> list[str]:
    """Every agent name: the generic ones, then the games' own in menu order of the first game providing each."""
    out = list(AGENTS)
    for e in registry.entries():
        out += [name for name in e.agents if name not in out]
    return out


def games_of(name: str) -> list[str] | None:
    """The games an agent plays: None for a generic agent, else the games whose entries provide it."""
    if name in AGENTS:
        return None
    return [e.name for e in registry.entries() if name in e.agents]


def agent_class(name: str, game: Game | str | None = None) -> type[Agent]:
    """The class of agent ``name`` (for ``game`` when given: a game's own agents differ between games).
    Unknown names raise VariantError listing the valid ones (for that game when given)."""
    target = AGENTS.get(name)
    if target is not None:
        module, _, cls = target.partition(":")
        return getattr(importlib.import_module(module), cls)
    gname = _game_name(game)
    if gname is not None:
        found = registry.entry(gname).agents.get(name)
        if found is None:
            raise VariantError(f"unknown agent {name!r} for {gname}; agents: {', '.join(available(gname))}")
        return found
    for e in registry.entries():
        if name in e.agents:
            return e.agents[name]
    raise VariantError(f"unknown agent {name!r}; agents: {', '.join(names())}")


def available(game: Game | str | None = None) -> list[str]:
    """Agent names that play ``game`` (every agent name when no game is given)."""
    gname = _game_name(game)
    if gname is None:
        return names()
    return list(AGENTS) + [name for name in registry.entry(gname).agents if name not in AGENTS]


def make(spec: str, game: Game, **overrides: Any) -> Agent:
    """Build an agent from a SPEC for ``game``; bad names/parameters raise VariantError listing valid ones."""
    name, params = parse_spec(spec)
    params.update(overrides)
    return agent_class(name, game)(game, **params)


def describe(name: str) -> dict[str, Any]:
    cls = agent_class(name)
    games = games_of(name)
    return {"name": name, "description": cls.description, "fair": cls.fair,
            "games": games if games is not None else "all",
            "params": [p.describe() for p in cls.params]}
