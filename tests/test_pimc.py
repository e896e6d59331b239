"""The ``pimc`` agent: legal moves in every game, decisions from the observation only, determinism with a seed,
its budgets and parameters, and a small seeded check of its strength against ``random``."""

from __future__ import annotations

import math
import random
import threading

import pytest

from engine import agents, registry
from engine.agent import Budget, Progress
from engine.game import GameState, VariantError
from engine.lab import arena
from engine.search import knowledge
from engine.search.common import REWARD_RANGE, reward_function, reward_vector
from engine.search.pimc import PIMCAgent, _DealSearch, playout_evaluation
from engine.search.sampler import DealSampler
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


def _exact_match_value(state: GameState, seat: int) -> float:
    """Plain minimax over a two-seat deal: ``seat``'s ``match`` reward with best play by both."""
    if state.is_terminal():
        return reward_vector("match", state)[seat]
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.do(move)
        values.append(_exact_match_value(child, seat))
    return max(values) if state.current_player == seat else min(values)


def test_pimc_reward_match_values_a_deal_by_its_match_points() -> None:
    game = registry.create("scopa")
    fast = knowledge.playouts("scopa")
    evaluate = knowledge.match_evaluation("scopa")
    assert evaluate is not None
    rng = random.Random(8)
    checked = beyond_outcome = 0
    while checked < 12:
        state = game.new_hand(rng)
        while not state.is_terminal() and state.total_plays - state.plays > 5:
            state.do(rng.choice(state.legal_moves()))
        obs = state.observation(state.current_player)
        moves = obs.legal_moves()
        deal = DealSampler(obs, None).deal(rng)
        search = _DealSearch(obs.seat, (obs.seat,), evaluate, rng, math.inf, None, fast,
                             terminal=reward_function("match", "scopa", fast))
        values, exact = search.root_values(deal, moves, 12)
        assert exact
        for m in moves:
            child = deal.clone()
            child.do(m)
            assert values[m] == pytest.approx(_exact_match_value(child, obs.seat))
        beyond_outcome += any(v not in (0.0, 0.5, 1.0) for v in values.values())
        checked += 1
    assert beyond_outcome  # values by match points, not only won, drawn or lost


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
