"""Fairness of every agent option: with a fixed seed, a fair agent picks the same move in two states that
differ only in cards its seat cannot see, whatever options change how it uses information (biased
determinization, opponent policies, transpositions, move handlers and resolvers, pruning, the endgame
solver, simulation policies, root parallelization, tree reuse).

The option SPECs come from :func:`engine.fuzz.option_specs`, so a newly registered option is covered here
as soon as the fuzzer knows it.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from functools import cache

import pytest

from engine import agents, registry
from engine.determinize import determinize
from engine.game import Game, GameState
from engine.lab.fuzz import option_specs
from engine.observation import Observation
from engine.runtime import parallel
from engine.search.endgame import count_deals, solve_information_set
from engine.worker import MoveRequest, choose_move
from tests.test_search import decision_points, other_world

ENDGAME_DEALS = 40
"""The ``endgame=`` limit of the fuzzer's endgame SPEC: late positions with 2..this many deals use the solver."""

LATE_HIDDEN_CARDS = 12
"""Count deals only where at most this many cards are hidden (early Hearts positions are slow to count)."""
LATE_SEEDS = 4
"""Hands searched for a solver position."""
SOLVER_ATTEMPTS = 3
"""Positions the solver may give up on (too big) before a game is left without a solver position."""

WORKERS_SPEC = "ismcts:iterations=40,workers=2"
WORKERS_GAME = "sueca"
"""Root parallelization spawns helper processes: one small case for one game."""

REUSE_SPEC = "ismcts:iterations=100,reuse=true"
"""Enough iterations that the kept tree usually holds the moves played up to the seat's next decision."""
REUSE_SEED = 3


def fair_option_specs(game: Game) -> list[str]:
    """Every fuzzed SPEC of a fair agent for ``game`` (unfair research baselines left out)."""
    return [spec for spec in option_specs(game) if agents.make(spec, game).fair]


def cases() -> list[tuple[str, str]]:
    out = [(name, spec) for name in registry.available() for spec in fair_option_specs(registry.create(name))]
    if WORKERS_GAME in registry.available():
        out.append((WORKERS_GAME, WORKERS_SPEC))
    return out


def late_position(game: Game, limit: int = ENDGAME_DEALS) -> GameState | None:
    """A decision late in a hand where 2..``limit`` deals fit the mover's observation and the endgame
    solver decides, or None if the game has none (e.g. every card is known once Scopa's stock is out, and
    9-card Bisca is too big to solve until then)."""
    attempts = 0
    for seed in range(LATE_SEEDS):
        for state in reversed(decision_points(game, seed, 1000)):
            obs = state.observation(state.current_player)
            hidden = sum(slot.count for slot in obs.slots)
            deals = count_deals(obs, limit) if 0 < hidden <= LATE_HIDDEN_CARDS else None
            if deals is None or deals < 2:
                continue
            if solve_information_set(obs, random.Random(0), limit) is not None:
                return state
            attempts += 1
            if attempts == SOLVER_ATTEMPTS:
                return None
    return None


@cache
def world_pairs(name: str) -> list[tuple[GameState, GameState]]:
    """Pairs of states differing only in cards hidden from the mover: early, mid-hand and late in a hand."""
    game = registry.create(name)
    states = decision_points(game, 11, 2)
    late = late_position(game)
    if late is not None:
        states.append(late)
    pairs = []
    for i, state in enumerate(states):
        other = other_world(state, i)
        if other is not None:
            pairs.append((state, other))
    return pairs


@pytest.fixture(scope="module", autouse=True)
def _stop_parallel_helpers():
    yield
    parallel.shutdown_pool()


@pytest.mark.parametrize(("name", "spec"), cases())
def test_option_decides_from_the_observation_only(name: str, spec: str) -> None:
    game = registry.create(name)
    if "workers=" in spec:
        parallel.prestart(2, wait=60.0)  # else the caller may run a helper's share itself: no helper tested
    pairs = world_pairs(name)
    assert pairs, f"no pair of worlds for {name}"
    for i, (state, other) in enumerate(pairs):
        seat = state.current_player
        moves = [choose_move(MoveRequest(name, game.variant, spec, world.to_json(), seat, seed=5 + i))
                 for world in (state, other)]
        assert moves[0] == moves[1], (f"{spec} in {name} depends on hidden cards: "
                                      f"{state.move_text(moves[0])} vs {state.move_text(moves[1])}\n"
                                      f"{state.to_json()}\n{other.to_json()}")
        assert moves[0] in state.legal_moves()


@pytest.mark.parametrize("name", ["sueca", "briscola", "hearts", "mosssidewhist", "scopone"])
def test_late_pairs_are_decided_by_the_endgame_solver(name: str) -> None:
    """The endgame SPEC above is checked where its solver decides, not only where ISMCTS does."""
    if name not in registry.available():
        pytest.skip(f"{name} is not in this build")
    state, _other = world_pairs(name)[-1]
    obs = state.observation(state.current_player)
    deals = count_deals(obs, ENDGAME_DEALS)
    assert deals is not None and deals >= 2
    assert solve_information_set(obs, random.Random(0), ENDGAME_DEALS) is not None


def earlier_world(first: GameState, played: list[int], second: GameState, seed: int) -> GameState | None:
    """A state that differs from ``first`` only in cards its mover cannot see and that, after the same
    ``played`` moves, still looks like ``second`` to that seat while differing from it (or None).

    Deals are sampled from the mover's observation of ``first``, with every card it sees between the two
    decisions kept in a slot whose owner could hold it there (any deal failing the checks is rejected)."""
    seat = first.current_player
    before = first.observation(seat)
    after = second.observation(seat)
    revealed = before.unknown & ~after.unknown
    seen_by = {slot.owner: ~first.observation(slot.owner).unknown for slot in before.slots if slot.owner >= 0}
    seen_by_any = 0
    for seen in seen_by.values():
        seen_by_any |= seen & revealed
    slots = []
    for slot in before.slots:
        barred = revealed & ~seen_by[slot.owner] if slot.owner >= 0 else seen_by_any
        slots.append(dataclasses.replace(slot, allowed=slot.allowed & ~barred))
    guided = Observation(seat, before.state, before.unknown, slots)
    rng = random.Random(seed)
    for _ in range(200):
        try:
            world = determinize(guided, rng)
        except Exception:  # noqa: BLE001 - the guide was too strict for this game: no such world
            return None
        if world.to_dict() == first.to_dict() or world.observation(seat) != before:
            continue
        later = replay(world, played)
        if later is not None and later.observation(seat) == after and later.to_dict() != second.to_dict():
            return world
    return None


def replay(state: GameState, moves: list[int]) -> GameState | None:
    """A copy of ``state`` after ``moves``, or None if one of them is not legal there."""
    out = state.clone()
    for move in moves:
        if move not in out.legal_moves():
            return None
        out.do(move)
    return out


def reuse_case(name: str) -> tuple[GameState, list[int], GameState, GameState] | None:
    """Two successive decisions of one seat (the kept tree reaches the second) and an earlier world that
    differs only in hidden cards at both: (first, moves played between, second, other first). Late pairs
    are tried first: their trees are narrower and their playouts shorter."""
    game = registry.create(name)
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_hand(rng)
        pending: dict[int, tuple[GameState, list[int]]] = {}
        candidates: list[tuple[GameState, list[int], GameState]] = []
        while not state.is_terminal():
            seat = state.current_player
            moves = state.legal_moves()
            if len(moves) >= 2:
                if seat in pending:
                    first, played = pending[seat]
                    candidates.append((first, played, state.clone()))
                pending[seat] = (state.clone(), [])
            move = moves[int(rng.random() * len(moves))]
            for _first, played in pending.values():
                played.append(move)
            state.do(move)
        for first, played, second in reversed(candidates):
            other = earlier_world(first, played, second, seed)
            if other is not None and kept_tree_reaches(name, first, second):
                return first, played, second, other
    return None


def kept_tree_reaches(name: str, first: GameState, second: GameState) -> bool:
    """Whether the reuse agent's tree from ``first`` holds the moves played up to ``second``."""
    agent = agents.make(REUSE_SPEC, registry.create(name))
    agent.choose(first.observation(first.current_player), random.Random(REUSE_SEED))
    return copy.deepcopy(agent)._reusable_root(second.observation(second.current_player)) is not None


@pytest.mark.parametrize("name", registry.available())
def test_reused_tree_decides_from_the_observation_only(name: str) -> None:
    """reuse=true carries a tree from one decision to the next: both decisions must stay fair."""
    case = reuse_case(name)
    if case is None:
        pytest.skip(f"no two-decision pair of worlds found for {name}")
    first, played, second, other_first = case
    other_second = replay(other_first, played)
    assert other_second is not None
    seat = first.current_player
    decisions = []
    for start, later in ((first, second), (other_first, other_second)):
        agent = agents.make(REUSE_SPEC, registry.create(name))
        decided = [agent.choose(start.observation(seat), random.Random(REUSE_SEED))]
        assert copy.deepcopy(agent)._reusable_root(later.observation(seat)) is not None  # the tree carries over
        decided.append(agent.choose(later.observation(seat), random.Random(REUSE_SEED + 1)))
        decisions.append(decided)
    assert decisions[0] == decisions[1], f"reuse in {name} depends on hidden cards"
