"""The search's look-ups in a game's :class:`~engine.knowledge.SearchKnowledge` (from the game's registry
entry), with errors that list the valid names of each kind."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import registry
from engine.game import Game, VariantError
from engine.knowledge import (
    BiasFn,
    EvaluationFn,
    HandlerFn,
    KeyFn,
    Playouts,
    PolicyFn,
    PrunerFn,
    ResolverFn,
    RolloutFn,
    RuleFn,
    SearchKnowledge,
)


def of(game: str) -> SearchKnowledge:
    """The search knowledge of the game named ``game``."""
    return registry.entry(game).knowledge


def _lookup(table: Mapping[str, Any], game: str, name: str, what: str) -> Any:
    try:
        return table[name]
    except KeyError:
        raise VariantError(f"no {what} {name!r} for {game}; available: {', '.join(sorted(table)) or 'none'}") from None


def policy(game: str, name: str) -> PolicyFn:
    return _lookup(of(game).policies, game, name, "simulation policy")


def policies(game: str) -> list[str]:
    """Names usable as ``sim=`` for ``game`` besides the built-in ones: its policies and rollouts."""
    return of(game).playout_names()


def simulation(game: str, name: str) -> tuple[RolloutFn | None, PolicyFn | None]:
    """``(rollout, None)`` or ``(None, policy)`` for ``sim=name``; VariantError lists the valid names."""
    known = of(game)
    fn = known.rollouts.get(name)
    if fn is not None:
        return fn, None
    if name in known.policies:
        return None, known.policies[name]
    raise VariantError(f"no simulation policy {name!r} for {game}; available: {', '.join(known.simulation_names())}")


def bias(game: str, name: str) -> BiasFn:
    return _lookup(of(game).biases, game, name, "bias function")


def move_handler(game: str, name: str) -> HandlerFn:
    return _lookup(of(game).move_handlers, game, name, "move handler")


def resolver(game: str, name: str) -> ResolverFn:
    return _lookup(of(game).resolvers, game, name, "move resolver")


def rule(game: str, name: str) -> RuleFn:
    return _lookup(of(game).rules, game, name, "decision rule")


def pruner(game: str, name: str) -> PrunerFn:
    return _lookup(of(game).pruners, game, name, "move pruner")


def transposition_key(game: str) -> KeyFn | None:
    return of(game).transposition_key


def score_span(game: str) -> float | None:
    return of(game).score_span


def evaluation(game: str) -> EvaluationFn | None:
    """The game's evaluation of unfinished hands, if it gives one."""
    return of(game).evaluation


def match_evaluation(game: str) -> EvaluationFn | None:
    """The game's evaluation of unfinished hands on the ``match`` reward's scale, if it gives one."""
    return of(game).match_evaluation


def playouts(game: str) -> Playouts[Any]:
    """The game's search fast paths (:class:`~engine.knowledge.Playouts`)."""
    return of(game).playouts


def default_exploration(game: Game) -> float:
    """The game's UCB1 exploration constant for its variant (used when a SPEC gives none)."""
    return of(game.name).exploration(game)


def default_simulation(game: str) -> str:
    """The ``sim=`` a SPEC without one uses for ``game``."""
    return of(game).default_simulation


def registered(game: str) -> dict[str, list[str]]:
    """The names given for ``game`` per kind (see :meth:`SearchKnowledge.names`)."""
    return of(game).names()


def bias_features(game: str, name: str) -> int | None:
    """The card mask whose holders the bias ``name`` of ``game`` guesses, or None when the game names none."""
    return of(game).bias_features.get(name)
