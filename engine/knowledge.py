"""What a game tells the search about itself: :class:`SearchKnowledge`, one typed value per game.

The search never special-cases a game; it reads the knowledge of the game's registry entry
(``registry.entry(game.name).knowledge``):

* ``policies``: simulation policies ``fn(state, rng) -> legal move`` (e.g. Scopone ``greedy``); ISMCTS uses
  them with ``sim=NAME`` ([DiPalma2014] chapter 5 simulation strategies) and ``opponents=NAME``.
* ``rollouts``: ``fn(state, rng) -> None`` playing a state to the end in place (an inlined simulation policy,
  faster than a per-move policy); ``sim=NAME`` looks for a rollout of that name first, then a policy.
* ``biases``: belief functions ``fn(obs) -> ndarray`` of shape (slots, deck size) for biased determinization
  ([Manzke2025] chapter 5, [DiPalma2014] 5.6); used with ``bias=NAME``.
* ``bias_features``: per bias name, the cards whose holders that belief is meant to guess (a card mask, e.g.
  Hearts' queen, king and ace of spades for ``inference``, [Manzke2025] 5.1); the lab's sampling-accuracy probe
  counts a sampled deal right when every such card hidden from the observer is dealt to its true holder
  ([Manzke2025] 6.3.1).
* ``move_handlers``: ``fn(state, move) -> key`` grouping moves into tree branches ([DiPalma2014] move
  handlers); used with ``handler=NAME``.
* ``resolvers``: ``fn(state, moves, rng) -> move`` choosing the concrete move of a move-handler branch
  (default: a uniformly random move of the branch); used with ``resolve=NAME``.
* ``pruners``: ``fn(state, moves) -> moves``, a non-empty subset of the legal moves in a stable order
  ([Kassak2023] 4.4 heuristic move pruning); used with ``prune=NAME`` at every tree node.
* ``rules``: decision rules ``fn(state, rng) -> move or None`` that take some decisions themselves (a move
  legal in ``state``, which is the deciding seat's view) and leave the others (None) to the search
  ([Huang2017] ISMCTS-DLS: the discards by the DLS heuristic, the play by the search); used with ``rule=NAME``.
* ``transposition_key``: ``fn(state, observer) -> hashable`` naming the observer's (abstracted) information
  set ([Manzke2025] 4.1); used with ``transpositions=true``.
* ``score_span``: points separating the best from the worst result of a hand (the SD/score rewards' scale);
  None: the hand's total points.
* ``exploration``: ``fn(game) -> c``, the UCB1 constant used when a SPEC gives none.
* ``evaluation``: ``fn(state, seat, rng) -> value`` estimating an unfinished hand for ``seat`` on the outcome
  scale, for searches that stop at a depth limit; None: the search's own default.
* ``match_evaluation``: the same on the ``match`` reward's scale (0.5 plus half the side's expected lead in the
  hand's match points), for searches that play a hand for its match points; None: random playouts.
* ``playouts``: the game's :class:`Playouts`, the search's fast paths (random playouts, outcomes and reward
  points of a finished hand, the endgame solver's keys and move lists) behind one interface; the default plays
  by the plain rules of :class:`~engine.game.GameState`.
* ``default_simulation``: the ``sim=`` a SPEC without one gets: ``random``, ``nast`` or one of the game's
  rollouts/policies (Pharaoh's random playouts run for hundreds of turns, so it uses its pruned
  ``play-smallest``, [Kassak2023] 4.4).

Construction validates every field, so a typo fails when the game's package is imported.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from engine.game import Game, GameState

PolicyFn = Callable[[GameState, random.Random], int]
RolloutFn = Callable[[GameState, random.Random], None]
BiasFn = Callable[[Any], Any]
HandlerFn = Callable[[GameState, int], Hashable]
ResolverFn = Callable[[GameState, list[int], random.Random], int]
PrunerFn = Callable[[GameState, list[int]], list[int]]
KeyFn = Callable[[GameState, int], Hashable]
ExplorationFn = Callable[[Game], float]
EvaluationFn = Callable[[GameState, int, random.Random], float]
RuleFn = Callable[[GameState, random.Random], int | None]

S = TypeVar("S", bound=GameState)


class Playouts(Generic[S]):
    """A game's search fast paths behind one small interface (:attr:`SearchKnowledge.playouts`).

    This base class plays by the plain rules (``legal_moves``/``do``/``result``); a game gives a subclass with
    leaner code that must make exactly the same random choices and give exactly the same values (each game's
    tests compare the two). The playouts may skip bookkeeping that does not score (history, what the play
    revealed), so the search calls them on a copy and the state is used up afterwards."""

    def random_rollout(self, state: S, rng: random.Random) -> None:
        """Play ``state`` to the end in place, each move ``moves[int(rng.random() * len(moves))]`` of its legal
        moves."""
        rand = rng.random
        while not state.is_terminal():
            moves = state.legal_moves()
            state.do(moves[int(rand() * len(moves))])

    def scored_playout(self, state: S, rng: random.Random) -> None:
        """:meth:`random_rollout`'s choices; afterwards the state's result, :meth:`outcomes` and
        :meth:`reward_points` are those of that playout (other bookkeeping may be skipped)."""
        self.random_rollout(state, rng)

    def playout_outcomes(self, state: S, rng: random.Random) -> list[float]:
        """:meth:`scored_playout` and then :meth:`outcomes` (a game may stop as soon as the outcome is
        settled)."""
        self.scored_playout(state, rng)
        return self.outcomes(state)

    def outcomes(self, state: S) -> list[float]:
        """Each seat's outcome of the finished hand (:meth:`GameState.outcomes`)."""
        return state.outcomes()

    def reward_points(self, state: S) -> tuple[list[float], float, bool]:
        """What the score-based rewards read of the finished hand: each seat's points (``result().points``),
        the sum of the teams' absolute points (at least 1) and ``lower_is_better``."""
        res = state.result()
        return res.points, max(sum(abs(p) for p in res.team_points), 1.0), res.lower_is_better

    def solver_key(self, state: S) -> Hashable | None:
        """A key equal for two states of one hand whose rest plays out alike (the same moves, the same
        results), whatever order earlier moves came in: the endgame solver's transposition table. None: no
        table."""
        return None

    def solver_points(self, state: S, seat: int) -> tuple[int, int, int] | None:
        """For games of two sides won on card points (more than the other side wins, equal is a draw): the
        points of ``seat``'s side so far, the other side's, and those still to be won; the endgame solver then
        solves the points directly. None otherwise."""
        return None

    def solver_moves(self, state: S) -> list[int]:
        """The moves the endgame solver searches: the legal moves less those :meth:`solver_equivalents` stands
        in for, likely best first."""
        return state.legal_moves()

    def solver_equivalents(self, state: S, moves: list[int]) -> dict[int, int]:
        """``{move: stand-in}`` for the legal ``moves`` :meth:`solver_moves` leaves out, each with the kept move
        whose exact value it shares."""
        return {}

    def deal_search(self, state: S, seat: int, moves: list[int], depth: int, allowance: int,
                    score_weight: float, stop: Callable[[], bool] | None) -> dict[int, float] | None:
        """A fast path of ``pimc``'s search of one full deal, for two sides and the game's own evaluation: each
        of ``moves``' value for ``seat`` by paranoid alpha-beta with iterative deepening (``depth`` plies, then
        deeper while ``allowance`` nodes allow), a finished hand worth ``(1 - score_weight) * outcome +
        score_weight * score reward`` -- the values of the generic search. Raises :class:`SearchInterrupted`
        when ``stop()`` turns true (the deal is dropped). None: no fast path for this state (the generic search
        runs)."""
        return None


PLAIN_PLAYOUTS: Playouts[GameState] = Playouts()
"""The plain rules' playouts (games without fast paths)."""

_PLAYOUT_METHODS = ("random_rollout", "scored_playout", "playout_outcomes", "outcomes", "reward_points",
                    "solver_key", "solver_points", "solver_moves", "solver_equivalents")


class StatePlayouts(Playouts[S]):
    """The fast paths a game's state class defines as methods of the same names (``state.random_rollout(rng)``,
    ``state.outcomes()``...): each method the class has is used, the plain version otherwise."""

    def __init__(self, state_class: type[S]) -> None:
        self.state_class = state_class
        for name in _PLAYOUT_METHODS:
            method = getattr(state_class, name, None)
            if method is not None and method is not getattr(GameState, name, None):
                setattr(self, name, method)  # called as self.name(state, ...): the state class's own method


DEFAULT_EXPLORATION = 0.7
"""UCB1 exploration constant of games that give none ([Fernandes2016] 6.4: Sueca and Hearts)."""

BUILTIN_SIMULATIONS = ("random", "nast")
"""``sim=`` values every game accepts (the search's own playouts)."""


def constant_exploration(game: Game) -> float:
    """The default exploration function: :data:`DEFAULT_EXPLORATION` for every variant."""
    return DEFAULT_EXPLORATION


class KnowledgeError(ValueError):
    """An inconsistent :class:`SearchKnowledge` (raised when a game's package is imported)."""


class SearchInterrupted(Exception):
    """A game's search fast path (:meth:`Playouts.deal_search`) was stopped by its caller's ``stop``."""


_TABLES = ("policies", "rollouts", "biases", "move_handlers", "resolvers", "pruners", "rules")


@dataclass(frozen=True)
class SearchKnowledge:
    """A game's search knowledge (see the module docstring); every mapping is read-only once built."""

    policies: Mapping[str, PolicyFn] = field(default_factory=dict)
    rollouts: Mapping[str, RolloutFn] = field(default_factory=dict)
    biases: Mapping[str, BiasFn] = field(default_factory=dict)
    bias_features: Mapping[str, int] = field(default_factory=dict)
    move_handlers: Mapping[str, HandlerFn] = field(default_factory=dict)
    resolvers: Mapping[str, ResolverFn] = field(default_factory=dict)
    pruners: Mapping[str, PrunerFn] = field(default_factory=dict)
    rules: Mapping[str, RuleFn] = field(default_factory=dict)
    transposition_key: KeyFn | None = None
    score_span: float | None = None
    exploration: ExplorationFn = constant_exploration
    evaluation: EvaluationFn | None = None
    match_evaluation: EvaluationFn | None = None
    default_simulation: str = "random"
    playouts: Playouts[Any] = PLAIN_PLAYOUTS

    def __post_init__(self) -> None:
        for table in _TABLES:
            value = getattr(self, table)
            if not isinstance(value, Mapping):
                raise KnowledgeError(f"SearchKnowledge.{table} must be a mapping of names to functions")
            for name, fn in value.items():
                if not isinstance(name, str) or not name or name != name.strip() or "," in name or "=" in name:
                    raise KnowledgeError(f"SearchKnowledge.{table}: bad name {name!r} (a SPEC value is needed)")
                if not callable(fn):
                    raise KnowledgeError(f"SearchKnowledge.{table}[{name!r}] is not callable")
            object.__setattr__(self, table, MappingProxyType(dict(value)))
        if not isinstance(self.bias_features, Mapping):
            raise KnowledgeError("SearchKnowledge.bias_features must be a mapping of bias names to card masks")
        for name, mask in self.bias_features.items():
            if name not in self.biases:
                raise KnowledgeError(f"SearchKnowledge.bias_features[{name!r}]: no bias of that name")
            if not isinstance(mask, int) or isinstance(mask, bool) or mask <= 0:
                raise KnowledgeError(f"SearchKnowledge.bias_features[{name!r}] must be a non-empty card mask")
        object.__setattr__(self, "bias_features", MappingProxyType(dict(self.bias_features)))
        if self.transposition_key is not None and not callable(self.transposition_key):
            raise KnowledgeError("SearchKnowledge.transposition_key is not callable")
        if not callable(self.exploration):
            raise KnowledgeError("SearchKnowledge.exploration is not callable")
        for hook in ("evaluation", "match_evaluation"):
            if getattr(self, hook) is not None and not callable(getattr(self, hook)):
                raise KnowledgeError(f"SearchKnowledge.{hook} is not callable")
        if not isinstance(self.playouts, Playouts):
            raise KnowledgeError("SearchKnowledge.playouts must be a Playouts")
        if self.score_span is not None:
            if not isinstance(self.score_span, int | float) or self.score_span <= 0:
                raise KnowledgeError(f"SearchKnowledge.score_span must be a positive number, not {self.score_span!r}")
            object.__setattr__(self, "score_span", float(self.score_span))
        if self.default_simulation not in self.simulation_names():
            raise KnowledgeError(f"SearchKnowledge.default_simulation {self.default_simulation!r} is neither "
                                 f"a rollout nor a policy; simulations: {', '.join(self.simulation_names())}")

    def simulation_names(self) -> list[str]:
        """Every valid ``sim=`` value: the built-in ones, then the game's policies and rollouts (sorted)."""
        return [*BUILTIN_SIMULATIONS, *self.playout_names()]

    def playout_names(self) -> list[str]:
        """The game's own per-move policies and whole-playout rollouts, sorted."""
        return sorted(set(self.policies) | set(self.rollouts))

    def names(self) -> dict[str, list[str]]:
        """The names given per kind: ``rollout``, ``policy``, ``pruner``, ``handler``, ``resolver``, ``bias``,
        ``rule`` (what ``sim=``, ``opponents=``, ``prune=``, ``handler=``, ``resolve=``, ``bias=`` and ``rule=``
        accept besides the built-in values)."""
        return {"rollout": sorted(self.rollouts), "policy": sorted(self.policies), "pruner": sorted(self.pruners),
                "handler": sorted(self.move_handlers), "resolver": sorted(self.resolvers),
                "bias": sorted(self.biases), "rule": sorted(self.rules)}
