"""Re-export of :mod:`engine.agent` (the Agent base class lives in the core layer)."""

from engine.agent import Agent, Budget, Progress, parse_spec

__all__ = ["Agent", "Budget", "Progress", "parse_spec"]
