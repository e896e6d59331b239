"""The Agent protocol, agent parameters, and SPEC strings (``name`` or ``name:key=value,...``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from engine.game import Game, GameState, Option, VariantError
from engine.observation import Observation


@dataclass
class Progress:
    """A search's progress report: iterations so far, best move so far and its estimated value on 0..1
    (``win_rate``): the win rate with the ``pwl`` and ``wl`` rewards; with ``sd``, ``score`` and
    ``relative`` the mean reward mapped onto 0..1, which ranks moves the same way but is not a probability."""

    iterations: int
    best_move: int | None
    win_rate: float | None
    elapsed: float = 0.0


class Cancel(Protocol):
    """A cancel flag: :class:`threading.Event` or anything with its ``is_set()``."""

    def is_set(self) -> bool: ...


@dataclass
class Budget:
    """Optional limits and hooks for one decision.

    ``iterations``/``seconds`` override the agent's own budget; ``cancel`` stops a search early (it
    then returns its best move so far); ``on_progress`` receives :class:`Progress` reports.
    """

    iterations: int | None = None
    seconds: float | None = None
    cancel: Cancel | None = None
    on_progress: Callable[[Progress], None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Agent:
    """Base class of every agent.

    ``choose(obs, rng, budget)`` returns a legal move for ``obs.seat`` from its observation only.
    Agents with ``fair = False`` (research baselines: the cheating UCT, open-card players) implement
    ``choose_full(state, rng, budget)`` instead and are given the true state; the arena and app never
    offer them as fair opponents.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    params: ClassVar[tuple[Option, ...]] = ()
    fair: ClassVar[bool] = True
    games: ClassVar[tuple[str, ...] | None] = None  # None = every game

    def __init__(self, game: Game, **params: Any) -> None:
        self.game = game
        by_name = {p.name: p for p in self.params}
        values = {p.name: p.default for p in self.params}
        for key, value in params.items():
            if key not in by_name:
                valid = ", ".join(f"{p.name} (default {p.default!r})" for p in self.params) or "none"
                raise VariantError(f"unknown parameter {key!r} for agent {self.name!r}; valid: {valid}")
            values[key] = by_name[key].validate(value)
        self.config = values
        if self.games is not None and game.name not in self.games:
            raise VariantError(f"agent {self.name!r} does not play {game.name!r} (plays: {', '.join(self.games)})")

    @property
    def spec(self) -> str:
        """The SPEC string that recreates this agent (non-default parameters only)."""
        defaults = {p.name: p.default for p in self.params}
        extra = [f"{k}={_fmt(v)}" for k, v in self.config.items() if defaults.get(k) != v]
        return self.name + (":" + ",".join(extra) if extra else "")

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        raise NotImplementedError

    def choose_full(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> int:
        """Decide from the true state. Fair agents decide from the seat's observation only."""
        return self.choose(state.observation(state.current_player), rng, budget)

    def reset(self) -> None:
        """Forget anything kept between moves (new hand/match)."""

    def __repr__(self) -> str:
        return f"<agent {self.spec}>"


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,key=value`` into the name and raw parameter strings."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise VariantError(f"bad agent parameter {part!r} in {spec!r}: expected key=value")
            params[key.strip()] = value.strip()
    if not name:
        raise VariantError(f"empty agent name in spec {spec!r}")
    return name, params
