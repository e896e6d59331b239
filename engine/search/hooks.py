"""Small pluggable registries through which games and rule-based players give knowledge to the search.

The search itself never special-cases a game. A game (or the module of its rule-based players) registers:

* simulation policies: ``register_policy(game, name, fn)`` with ``fn(state, rng) -> move`` (e.g. Scopone
  ``greedy``); ISMCTS uses them with ``sim=NAME`` (seeds/002 chapter 5 simulation strategies).
* belief matrices for biased determinization: ``register_bias(game, name, fn)`` with ``fn(obs) -> ndarray``
  of shape (slots, deck size) (seeds/001 chapter 5, seeds/002 5.6); used with ``bias=NAME``.
* move handlers: ``register_move_handler(game, name, fn)`` with ``fn(state, move) -> key`` grouping moves
  into tree branches (seeds/002 move handlers); used with ``handler=NAME``.
* move resolvers: ``register_resolver(game, name, fn)`` with ``fn(state, moves, rng) -> move`` choosing the
  concrete move of a move-handler branch (e.g. Scopone OCH: the Greedy capture for the chosen card); used
  with ``resolve=NAME`` (default: a uniformly random move of the branch).
* transposition keys: ``register_transposition_key(game, fn)`` with ``fn(state, observer) -> hashable``
  naming the (abstracted) information set of ``observer`` (seeds/001 4.1); used with ``transpositions=true``.
* score spans: ``register_score_span(game, points)`` for the SD/score rewards' scaling.
* exploration constants: ``register_exploration(game, fn)`` with ``fn(game) -> c``, the UCB1 constant used
  when a SPEC gives none (default 0.7).
* rollouts: ``register_rollout(game, name, fn)`` with ``fn(state, rng) -> None`` playing a state to the
  end in place (an inlined simulation policy, faster than a per-move policy); ``sim=NAME`` looks for a
  rollout of that name first, then for a per-move policy.
* default simulation: ``register_default_simulation(game, name)``, the ``sim=`` policy a SPEC without one
  gets (default ``random``; Pharaoh's random playouts run for hundreds of turns, so it registers its pruned
  ``play-smallest``, seeds/004 4.4).
* move pruners: ``register_pruner(game, name, fn)`` with ``fn(state, moves) -> moves`` returning a
  non-empty subset of the legal moves in a stable order (seeds/004 4.4 heuristic move pruning); used with
  ``prune=NAME`` at every node of the search tree.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Hashable
from typing import Any

from engine.game import Game, GameState, VariantError

PolicyFn = Callable[[GameState, random.Random], int]
BiasFn = Callable[[Any], Any]
HandlerFn = Callable[[GameState, int], Hashable]
KeyFn = Callable[[GameState, int], Hashable]
RolloutFn = Callable[[GameState, random.Random], None]
PrunerFn = Callable[[GameState, list[int]], list[int]]

_policies: dict[tuple[str, str], PolicyFn] = {}
_biases: dict[tuple[str, str], BiasFn] = {}
_handlers: dict[tuple[str, str], HandlerFn] = {}
_keys: dict[str, KeyFn] = {}
_rollouts: dict[tuple[str, str], RolloutFn] = {}
_pruners: dict[tuple[str, str], PrunerFn] = {}
_resolvers: dict[tuple[str, str], Callable[[GameState, list[int], random.Random], int]] = {}
_spans: dict[str, float] = {"sueca": 120.0, "bisca": 120.0, "briscola": 120.0, "hearts": 26.0}
DEFAULT_EXPLORATION = 0.7
"""UCB1 exploration constant of games that register none (seeds/000 6.4: Sueca and Hearts)."""


def _seed_bisca_exploration(game: Game) -> float:
    """seeds/000 6.4 tuned 0.25 for 9-card Bisca (any of many cards playable); with 3 cards in hand Briscola
    plays better with the default (docs/results.md, "Briscola"), and 3-card Bisca is taken to be alike."""
    return 0.25 if int(game.variant.get("hand_size", 3)) > 3 else DEFAULT_EXPLORATION


_explorations: dict[str, Callable[[Game], float]] = {
    "bisca": _seed_bisca_exploration, "briscola": _seed_bisca_exploration}
_default_simulations: dict[str, str] = {}
_loaded: set[str] = set()
_loading: set[str] = set()
_load_lock = threading.RLock()

# Modules that register hooks for a game when imported (rule-based players, game modules).
_PROVIDERS: dict[str, tuple[str, ...]] = {
    "scopone": ("engine.agents.scopone_rules", "engine.games.scopone", "engine.search.scopone_handlers"),
    "scopa": ("engine.agents.scopone_rules", "engine.games.scopone", "engine.search.scopone_handlers"),
    "pharaoh": ("engine.agents.pharaoh_rules", "engine.games.pharaoh"),
    "hearts": ("engine.agents.heuristic", "engine.games.hearts", "engine.search.hearts_abstraction",
               "engine.search.hearts_inference", "engine.search.hearts_greedy"),
    "sueca": ("engine.agents.heuristic", "engine.search.trick_greedy"),
    "bisca": ("engine.agents.heuristic", "engine.search.trick_greedy"),
    "briscola": ("engine.agents.heuristic", "engine.search.trick_greedy"),
    "mosssidewhist": ("engine.agents.heuristic", "engine.games.mosssidewhist", "engine.search.whist_greedy"),
}


def _load_providers(game: str) -> None:
    """Import the modules that may register hooks for ``game`` (once; missing modules are fine). Another
    thread asking meanwhile waits until they are all registered (a search started while a superseded one is
    still building its agent must not see half the hooks)."""
    if game in _loaded:
        return
    with _load_lock:
        if game in _loaded or game in _loading:  # done, or this thread's own imports asking again
            return
        _loading.add(game)
        import importlib

        try:
            for module in _PROVIDERS.get(game, ()):
                try:
                    importlib.import_module(module)
                except ImportError:
                    pass
        finally:
            _loading.discard(game)
            _loaded.add(game)


def register_policy(game: str, name: str, fn: PolicyFn) -> None:
    """Register a simulation policy ``fn(state, rng) -> legal move`` for ``game``."""
    _policies[(game, name)] = fn


def register_bias(game: str, name: str, fn: BiasFn) -> None:
    """Register a belief function ``fn(obs) -> (slots x deck) matrix`` for biased determinization."""
    _biases[(game, name)] = fn


def register_move_handler(game: str, name: str, fn: HandlerFn) -> None:
    """Register a move handler ``fn(state, move) -> branch key`` (moves with equal keys share a node)."""
    _handlers[(game, name)] = fn


def register_resolver(game: str, name: str, fn: Callable[[GameState, list[int], random.Random], int]) -> None:
    """Register ``fn(state, moves, rng) -> one of moves`` choosing the concrete move of a handler branch."""
    _resolvers[(game, name)] = fn


def resolver(game: str, name: str) -> Callable[[GameState, list[int], random.Random], int]:
    return _lookup(_resolvers, game, name, "move resolver")


def register_transposition_key(game: str, fn: KeyFn) -> None:
    """Register ``fn(state, observer) -> hashable`` naming observer's (abstracted) information set."""
    _keys[game] = fn


def register_score_span(game: str, points: float) -> None:
    """Points that separate the best from the worst result of a hand (for SD and score rewards)."""
    _spans[game] = float(points)


def register_exploration(game: str, fn: Callable[[Game], float]) -> None:
    """Register ``fn(game) -> c``: the UCB1 exploration constant for ``game`` (and its variant) by default."""
    _explorations[game] = fn


def default_exploration(game: Game) -> float:
    """The registered default exploration constant of ``game``, else :data:`DEFAULT_EXPLORATION`."""
    _load_providers(game.name)
    fn = _explorations.get(game.name)
    return DEFAULT_EXPLORATION if fn is None else fn(game)


def register_default_simulation(game: str, name: str) -> None:
    """Register ``name`` (a rollout or policy of ``game``, or ``random``/``nast``) as ``game``'s default ``sim=``."""
    _default_simulations[game] = name


def default_simulation(game: str) -> str:
    """The ``sim=`` a SPEC without one uses for ``game``: its registered default, else ``random``."""
    _load_providers(game)
    return _default_simulations.get(game, "random")


def _lookup(table: dict[tuple[str, str], Any], game: str, name: str, what: str) -> Any:
    _load_providers(game)
    try:
        return table[(game, name)]
    except KeyError:
        valid = sorted(n for g, n in table if g == game)
        raise VariantError(f"no {what} {name!r} for {game}; available: {', '.join(valid) or 'none'}") from None


def policy(game: str, name: str) -> PolicyFn:
    return _lookup(_policies, game, name, "simulation policy")


def policies(game: str) -> list[str]:
    """Names usable as ``sim=`` for ``game``: per-move policies and whole-playout rollouts."""
    _load_providers(game)
    return sorted({n for g, n in _policies if g == game} | {n for g, n in _rollouts if g == game})


def register_rollout(game: str, name: str, fn: RolloutFn) -> None:
    """Register ``fn(state, rng)`` that plays ``state`` to the end in place (a fast simulation policy)."""
    _rollouts[(game, name)] = fn


def register_pruner(game: str, name: str, fn: PrunerFn) -> None:
    """Register ``fn(state, moves) -> non-empty subset of moves`` for heuristic move pruning in the tree."""
    _pruners[(game, name)] = fn


def pruner(game: str, name: str) -> PrunerFn:
    return _lookup(_pruners, game, name, "move pruner")


def simulation(game: str, name: str) -> tuple[RolloutFn | None, PolicyFn | None]:
    """``(rollout, None)`` or ``(None, policy)`` for ``sim=name``; VariantError lists the valid names."""
    _load_providers(game)
    fn = _rollouts.get((game, name))
    if fn is not None:
        return fn, None
    if (game, name) in _policies:
        return None, _policies[(game, name)]
    valid = ["random", "nast"] + policies(game)
    raise VariantError(f"no simulation policy {name!r} for {game}; available: {', '.join(valid)}")


def bias(game: str, name: str) -> BiasFn:
    return _lookup(_biases, game, name, "bias function")


def move_handler(game: str, name: str) -> HandlerFn:
    return _lookup(_handlers, game, name, "move handler")


def transposition_key(game: str) -> KeyFn | None:
    _load_providers(game)
    return _keys.get(game)


def score_span(game: str) -> float | None:
    _load_providers(game)
    return _spans.get(game)


def registered(game: str) -> dict[str, list[str]]:
    """The names registered for ``game``, per kind: ``rollout``, ``policy``, ``pruner``, ``handler``,
    ``resolver`` and ``bias`` (what ``sim=``, ``opponents=``, ``prune=``, ``handler=``, ``resolve=`` and
    ``bias=`` accept besides the built-in values)."""
    _load_providers(game)
    tables: dict[str, dict[tuple[str, str], Any]] = {
        "rollout": _rollouts, "policy": _policies, "pruner": _pruners, "handler": _handlers,
        "resolver": _resolvers, "bias": _biases}
    return {kind: sorted(n for g, n in table if g == game) for kind, table in tables.items()}
