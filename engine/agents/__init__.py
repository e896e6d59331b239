"""Agents: the registry of every player the arena and the app can seat.

``make(spec, game)`` builds an agent from a SPEC string such as ``ismcts:iterations=10000,c=0.7``.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.agent import Agent, Budget, Progress, parse_spec
from engine.game import Game, VariantError

AGENTS: dict[str, str] = {
    "random": "engine.agents.random_agent:RandomAgent",
    "ismcts": "engine.search.ismcts:ISMCTSAgent",
    "detuct": "engine.search.detuct:DeterminizedUCTAgent",
    "cheat": "engine.search.cheat:CheatingUCTAgent",
    "heuristic": "engine.agents.heuristic:HeuristicAgent",
    "greedy": "engine.agents.scopone_rules:GreedyAgent",
    "cs": "engine.agents.scopone_rules:ChitarrellaSaracinoAgent",
    "cg": "engine.agents.scopone_rules:CicutiGuardamagnaAgent",
    "biggest": "engine.agents.pharaoh_rules:BiggestAgent",
    "smallest": "engine.agents.pharaoh_rules:SmallestAgent",
    "annoying": "engine.agents.pharaoh_rules:AnnoyingAgent",
    "backtrack": "engine.agents.pharaoh_rules:BacktrackAgent",
}
"""Agent name -> ``module:Class``. Modules load lazily."""

__all__ = ["AGENTS", "Agent", "Budget", "Progress", "agent_class", "available", "make", "parse_spec"]


def agent_class(name: str) -> type[Agent]:
    try:
        target = AGENTS[name]
    except KeyError:
        raise VariantError(f"unknown agent {name!r}; agents: {', '.join(available())}") from None
    module, _, cls = target.partition(":")
    try:
        return getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError) as e:
        raise VariantError(f"agent {name!r} is not available in this build ({e})") from None


def available() -> list[str]:
    """Agent names whose modules import."""
    out = []
    for name, target in AGENTS.items():
        module, _, cls = target.partition(":")
        try:
            getattr(importlib.import_module(module), cls)
        except (ImportError, AttributeError):
            continue
        out.append(name)
    return out


def make(spec: str, game: Game, **overrides: Any) -> Agent:
    """Build an agent from a SPEC for ``game``; bad names/parameters raise VariantError listing valid ones."""
    name, params = parse_spec(spec)
    params.update(overrides)
    return agent_class(name)(game, **params)


def describe(name: str) -> dict[str, Any]:
    cls = agent_class(name)
    return {"name": name, "description": cls.description, "fair": cls.fair,
            "games": list(cls.games) if cls.games else "all",
            "params": [p.describe() for p in cls.params]}
