"""The ``pimc`` agent: legal moves in every game, decisions from the observation only, determinism with a seed,
its budgets and parameters, and a small seeded check of its strength against ``random``."""

from __future__ import annotations

import random
import threading

import pytest

from engine import agents, registry
from engine.agent import Budget, Progress
from engine.game import GameState, VariantError
from engine.lab import arena
from engine.search import knowledge
from engine.search.common import REWARD_RANGE, reward_vector
from engine.search.pimc import PIMCAgent, playout_evaluation
from tests.test_search import assert_decides_from_observation, decision_points

CHEAP = "pimc:deals=3,depth=3,nodes=300"
GAMES = registry.available()


@pytest.mark.parametrize("name", GAMES)
def test_pimc_plays_legal_moves(name: str) -> None:
    game = registry.create(name)
    bot = agents.make(CHEAP, game)
    rng = random.Random(4)
    for state in decision_points(game, 2, 4):
        move = bot.choose(state.observation(state.current_player), rng)
        assert move in state.legal_moves()


@pytest.mark.parametrize("name", GAMES)
def test_pimc_decides_from_the_observation_only(name: str) -> None:
    assert_decides_from_observation(name, [CHEAP, "pimc:deals=2,depth=2,bias=none"])


def test_pimc_is_deterministic_with_a_seed() -> None:
    game = registry.create("sueca")
    for state in decision_points(game, 5, 4):
        obs = state.observation(state.current_player)
        moves = {agents.make("pimc:deals=4", game).choose(obs, random.Random(9)) for _ in range(2)}
        assert len(moves) == 1


def test_pimc_counts_its_deals_and_takes_a_budget_override() -> None:
    game = registry.create("briscola")
    state = decision_points(game, 1, 2)[0]
    obs = state.observation(state.current_player)
    reports: list[Progress] = []
    agents.make("pimc:deals=5,depth=2", game).choose(obs, random.Random(1), Budget(on_progress=reports.append))
    assert [r.iterations for r in reports] == [1, 2, 3, 4, 5]
    assert all(r.best_move in obs.legal_moves() and 0.0 <= r.win_rate <= 1.0 for r in reports)
    reports.clear()
    agents.make("pimc:deals=5,depth=2", game).choose(obs, random.Random(1),
                                                     Budget(iterations=2, on_progress=reports.append))
    assert len(reports) == 2


def test_pimc_time_budget_alone_finishes_with_a_legal_move() -> None:
    game = registry.create("hearts")
    state = decision_points(game, 3, 3)[1]
    obs = state.observation(state.current_player)
    reports: list[Progress] = []
    move = agents.make("pimc:deals=0,seconds=0.02", game).choose(obs, random.Random(2),
                                                                  Budget(on_progress=reports.append))
    assert move in obs.legal_moves() and len(reports) >= 1


def test_pimc_cancelled_before_it_starts_still_moves() -> None:
    game = registry.create("scopone")
    state = decision_points(game, 3, 3)[0]
    obs = state.observation(state.current_player)
    cancel = threading.Event()
    cancel.set()
    assert agents.make("pimc", game).choose(obs, random.Random(2), Budget(cancel=cancel)) in obs.legal_moves()


def test_pimc_refuses_unknown_parameters_and_belief_functions() -> None:
    game = registry.create("hearts")
    with pytest.raises(VariantError, match="valid: deals"):
        agents.make("pimc:iterations=5", game)
    with pytest.raises(VariantError, match="inference"):
        agents.make("pimc:bias=nosuch", game)
    with pytest.raises(VariantError, match="out of range"):
        agents.make("pimc:depth=0", game)


def test_pimc_uses_the_games_evaluation_or_playouts() -> None:
    assert isinstance(agents.make("pimc", registry.create("sueca")), PIMCAgent)
    assert agents.make("pimc", registry.create("hearts")).evaluate is registry.entry("hearts").knowledge.evaluation
    game = registry.create("hearts")
    state = decision_points(game, 1, 2)[1]
    evaluate = playout_evaluation(3, registry.entry("hearts").knowledge.playouts)
    value = evaluate(state, state.current_player, random.Random(0))
    assert 0.0 <= value <= 1.0


def test_pimc_beats_random_by_a_wide_margin() -> None:
    summary = arena.run("briscola", {}, ["pimc:deals=4,depth=3", "random"], 40, seed=1, jobs=1)
    paired = summary["paired"]
    assert paired["deals"] == 20
    low, _high = paired["outcome_difference_ci95"]
    assert low > 0.2, paired  # seeded: pimc's outcome minus random's, per deal, 95% interval above +0.2


@pytest.mark.parametrize(("name", "opponents"),
                         [("hearts", "paranoid"), ("briscola", "maxn"), ("mosssidewhist", "auto")])
def test_pimc_opponent_models_play_legal_moves_from_the_observation(name: str, opponents: str) -> None:
    spec = f"pimc:deals=2,depth=3,nodes=200,opponents={opponents}"
    assert agents.make(spec, registry.create(name)).maxn == (opponents == "maxn" or name == "mosssidewhist")
    assert_decides_from_observation(name, [spec])


def _exact_value(state: GameState, seat: int, reward: str) -> float:
    """Plain minimax over a two-seat deal: ``seat``'s ``reward`` with best play by both."""
    if state.is_terminal():
        return reward_vector(reward, state)[seat]
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.do(move)
        values.append(_exact_value(child, seat, reward))
    return max(values) if state.current_player == seat else min(values)


def test_pimc_reward_match_plays_for_the_match_points_in_scopas_last_round() -> None:
    # In Scopa's last round every card the mover does not see is in the other hand: its one deal is the truth,
    # and a search to the end plays a move of the best exact match reward.
    game = registry.create("scopa")
    bot = agents.make("pimc:deals=1,depth=12,nodes=1000000,reward=match", game)
    rng = random.Random(8)
    checked = outcome_differs = 0
    while checked < 12:
        state = game.new_hand(rng)
        while not state.is_terminal() and state.total_plays - state.plays > 5:
            state.do(rng.choice(state.legal_moves()))
        moves = state.legal_moves()
        if len(moves) < 2:
            continue
        seat = state.current_player
        values = {}
        for m in moves:
            child = state.clone()
            child.do(m)
            values[m] = (_exact_value(child, seat, "match"), _exact_value(child, seat, "pwl"))
        best_match = max(v[0] for v in values.values())
        best_win = max(v[1] for v in values.values())
        move = bot.choose(state.observation(seat), rng)
        assert values[move][0] == pytest.approx(best_match)
        outcome_differs += any(v[1] == best_win and v[0] < best_match - 1e-9 for v in values.values())
        checked += 1
    assert outcome_differs  # a player of the hand's win alone could have chosen otherwise


def test_pimc_reward_match_uses_the_games_match_evaluation_or_scored_playouts() -> None:
    scopa = agents.make("pimc:reward=match", registry.create("scopa"))
    assert scopa.evaluate is knowledge.match_evaluation("scopa")
    assert not agents.make("pimc:reward=match", registry.create("briscola")).fast_deals
    game = registry.create("sueca")
    sueca = agents.make("pimc:reward=match,playouts=4", game)
    state = decision_points(game, 1, 2)[1]
    low, high = REWARD_RANGE["match"]
    assert low <= sueca.evaluate(state, state.current_player, random.Random(0)) <= high
    with pytest.raises(VariantError, match="outcome"):
        agents.make("pimc:reward=pwl", game)


@pytest.mark.parametrize("name", ["scopa", "scopone", "sueca", "mosssidewhist"])
def test_pimc_reward_match_plays_legal_moves_from_the_observation(name: str) -> None:
    assert_decides_from_observation(name, ["pimc:deals=2,depth=3,nodes=300,reward=match"])
