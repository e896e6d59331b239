"""ISMCTS with evaluated leaves (``sim=eval``): legal moves from the observation only in every game that gives an
evaluation, determinism with a seed, what a leaf is worth, the refusals, and a seeded check of strength."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.game import GameState, VariantError
from engine.lab import arena
from engine.search import knowledge
from engine.search.common import reward_function
from engine.search.strategies import evaluation_playout
from tests.test_search import assert_decides_from_observation, decision_points

SPEC = "ismcts:iterations=60,sim=eval"
EVALUATED = [name for name in registry.available() if knowledge.evaluation(name) is not None]


def test_every_game_gives_an_evaluation() -> None:
    assert EVALUATED == registry.available()


@pytest.mark.parametrize("name", EVALUATED)
def test_evaluated_leaves_play_legal_moves_deterministically(name: str) -> None:
    game = registry.create(name)
    for state in decision_points(game, 3, 5):
        obs = state.observation(state.current_player)
        moves = {agents.make(SPEC + ",eval_plies=2", game).choose(obs, random.Random(8)) for _ in range(2)}
        assert len(moves) == 1
        assert moves.pop() in state.legal_moves()


@pytest.mark.parametrize("name", ["sueca", "scopa", "hearts"])
def test_evaluated_leaves_decide_from_the_observation_only(name: str) -> None:
    assert_decides_from_observation(name, [SPEC])


def _unfinished(name: str, seed: int) -> GameState:
    return decision_points(registry.create(name), 1, seed)[0]


def test_a_leaf_is_worth_the_games_evaluation_of_every_seat() -> None:
    state = _unfinished("sueca", 3)
    seen: list[int] = []

    def evaluate(d: GameState, seat: int, rng: random.Random) -> float:
        seen.append(seat)
        return seat / 10

    reward = reward_function("pwl", "sueca", knowledge.playouts("sueca"))
    leaf = evaluation_playout(random.Random(1), evaluate, 4, 0, False, reward)
    before = state.clone()
    assert leaf(state, None) == [0.0, 0.1, 0.2, 0.3]
    assert seen == [0, 1, 2, 3]
    assert state.legal_moves() == before.legal_moves() and state.current_player == before.current_player
    signed = evaluation_playout(random.Random(1), evaluate, 4, 0, True, reward)
    assert signed(state, None) == pytest.approx([-1.0, -0.8, -0.6, -0.4])


def test_eval_plies_plays_random_moves_first_and_a_finished_hand_gets_its_reward() -> None:
    state = _unfinished("briscola", 4)
    reward = reward_function("pwl", "briscola", knowledge.playouts("briscola"))
    remaining = []
    probe = state.clone()
    while not probe.is_terminal():
        probe.do(probe.legal_moves()[0])
        remaining.append(1)

    def evaluate(d: GameState, seat: int, rng: random.Random) -> float:
        raise AssertionError("a finished hand is not evaluated")

    finished = state.clone()
    leaf = evaluation_playout(random.Random(2), evaluate, 2, len(remaining) + 5, False, reward)
    values = leaf(finished, None)
    assert finished.is_terminal() and values == reward(finished)

    moved = state.clone()
    counted: list[GameState] = []

    def count(d: GameState, seat: int, rng: random.Random) -> float:
        counted.append(d)
        return 0.5

    evaluation_playout(random.Random(2), count, 2, 3, False, reward)(moved, None)
    replay = state.clone()
    rng = random.Random(2)
    for _ in range(3):
        moves = replay.legal_moves()
        replay.do(moves[int(rng.random() * len(moves))])
    assert moved.legal_moves() == replay.legal_moves() and moved.current_player == replay.current_player
    assert counted == [moved, moved]


@pytest.mark.parametrize(("spec", "listed"), [
    ("ismcts:sim=eval,reward=relative", "pwl, wl"), ("ismcts:eval_plies=3", "sim=eval"),
    ("ismcts:sim=evaluation", "available")])
def test_unusable_evaluation_options_are_refused(spec: str, listed: str) -> None:
    with pytest.raises(VariantError, match=listed):
        agents.make(spec, registry.create("hearts"))


def test_evaluated_leaves_beat_random_by_a_wide_margin() -> None:
    summary = arena.run("briscola", {}, ["ismcts:iterations=200,sim=eval", "random"], 40, seed=1, jobs=1)
    paired = summary["paired"]
    assert paired["deals"] == 20
    low, _high = paired["outcome_difference_ci95"]
    assert low > 0.2, paired  # seeded: the search's outcome minus random's, per deal, 95% interval above +0.2
