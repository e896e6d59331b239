"""Root parallelization (ismcts workers=N): exact split, determinism, progress, cancel, a killed helper."""

from __future__ import annotations

import json
import os
import random
import signal
import threading

import pytest

from engine import agents, registry
from engine.agents.base import Budget, Progress
from engine.bench import first_decision
from engine.game import Game
from engine.observation import Observation
from engine.runtime import parallel
from engine.search.ismcts import _Config, run_ismcts


def _position(index: int = 0) -> tuple[Game, Observation, list[int]]:
    game = registry.create("sueca")
    state = first_decision(game, 1, index)
    return game, state.observation(state.current_player), state.legal_moves()


def _config(game: Game, spec: str) -> dict:
    return dict(agents.make(spec, game).config)


def test_split_iterations_is_exact() -> None:
    assert parallel.split_iterations(10, 3) == [4, 3, 3]
    assert parallel.split_iterations(1, 2) == [1, 0]
    assert parallel.split_iterations(0, 4) == [0, 0, 0, 0]
    for total in (1, 7, 999, 10_000):
        for n in (1, 2, 3, 8):
            parts = parallel.split_iterations(total, n)
            assert sum(parts) == total and len(parts) == n and max(parts) - min(parts) <= 1


def test_merged_result_is_the_sum_of_the_serial_shares() -> None:
    game, obs, _legal = _position()
    config = _config(game, "ismcts:iterations=901,workers=3")
    result = parallel.parallel_root_visits(game, config, obs, random.Random(11), None)
    rng = random.Random(11)
    seeds = [rng.getrandbits(63) for _ in range(3)]
    conf = _Config(game, dict(config, workers=1))
    visits: dict = {}
    totals: dict = {}
    for seed, share in zip(seeds, [301, 300, 300], strict=True):
        part, _root = run_ismcts(obs, random.Random(seed), conf, Budget(iterations=share))
        assert part.iterations == share
        for k, v in part.visits.items():
            visits[k] = visits.get(k, 0) + v
            totals[k] = totals.get(k, 0.0) + part.totals[k]
    assert result.iterations == 901 and result.visits == visits
    assert result.totals == pytest.approx(totals, abs=1e-9)
    assert [s["iterations"] for s in parallel.last_stats()["shares"]] == [301, 300, 300]


def test_same_seed_and_workers_give_the_same_move() -> None:
    game, obs, legal = _position(1)
    moves = {agents.make("ismcts:iterations=400,workers=2", game).choose(obs, random.Random(4)) for _ in range(2)}
    assert len(moves) == 1 and moves <= set(legal)


def test_progress_is_aggregated_over_the_workers() -> None:
    game, obs, legal = _position(2)
    parallel.prestart(2, wait=60.0)
    reports: list[Progress] = []
    agent = agents.make("ismcts:iterations=3000,workers=2", game)
    move = agent.choose(obs, random.Random(2), Budget(on_progress=reports.append))
    counts = [p.iterations for p in reports]
    assert counts == sorted(counts) and counts[-1] == 3000  # the last report counts both shares
    assert reports[-1].best_move == move and move in legal
    assert [s["iterations"] for s in parallel.last_stats()["shares"]] == [1500, 1500]
    # several reports while searching (stopped by a cancel after the third, so that they surely exist)
    cancel = threading.Event()
    reports.clear()

    def on_progress(p: Progress) -> None:
        reports.append(p)
        if len(reports) >= 3:
            cancel.set()

    agent = agents.make("ismcts:iterations=10000000,workers=2", game)
    agent.choose(obs, random.Random(2), Budget(cancel=cancel, on_progress=on_progress))
    assert len(reports) >= 4 and [p.iterations for p in reports] == sorted(p.iterations for p in reports)
    assert all(p.best_move in legal and 0.0 <= p.win_rate <= 1.0 for p in reports)
    assert reports[-1].iterations == parallel.last_stats()["iterations"]


def test_cancel_stops_every_worker_promptly() -> None:
    game, obs, legal = _position(0)
    cancel = threading.Event()
    reports: list[Progress] = []

    def on_progress(p: Progress) -> None:
        reports.append(p)
        cancel.set()

    agent = agents.make("ismcts:iterations=10000000,workers=2", game)
    move = agent.choose(obs, random.Random(3), Budget(cancel=cancel, on_progress=on_progress))
    assert move in legal
    stats = parallel.last_stats()
    assert stats["iterations"] < 100_000 and reports[-1].iterations == stats["iterations"]
    helper = stats["shares"][1]
    assert helper["error"] is None and helper["iterations"] < helper["budget"] // 50
    again = agents.make("ismcts:iterations=200,workers=2", game).choose(obs, random.Random(3))
    assert again in legal  # the pool is usable after a cancel


def test_time_budget_runs_every_share() -> None:
    game, obs, legal = _position(1)
    parallel.prestart(2, wait=60.0)  # a helper still starting at the deadline would be skipped
    agent = agents.make("ismcts:iterations=0,seconds=0.2,workers=2", game)
    assert agent.choose(obs, random.Random(8)) in legal
    shares = parallel.last_stats()["shares"]
    assert [s["budget"] for s in shares] == [0, 0]
    assert all(s["iterations"] > 0 and s["error"] is None for s in shares)


def test_a_killed_helper_is_survived_and_its_share_rerun() -> None:
    game, obs, legal = _position(3)
    spec = "ismcts:iterations=1200,workers=2"
    parallel.prestart(2, wait=60.0)
    expected = agents.make(spec, game).choose(obs, random.Random(6))  # also leaves one idle helper
    pids = parallel.pool_pids()
    assert pids
    victim = pids[-1]  # _acquire takes the last idle helper
    os.kill(victim, signal.SIGSTOP)  # it cannot finish its share before it is killed

    killed: list[int] = []

    def kill_once(p: Progress) -> None:
        if not killed:
            killed.append(victim)
            os.kill(victim, signal.SIGKILL)

    with pytest.warns(RuntimeWarning, match="share 1 lost"):
        move = agents.make(spec, game).choose(obs, random.Random(6), Budget(on_progress=kill_once))
    assert killed and move == expected  # the lost share was re-run here: the same deterministic move
    share = parallel.last_stats()["shares"][1]
    assert share["rerun"] and "died" in share["error"] and share["iterations"] == 600
    assert agents.make(spec, game).choose(obs, random.Random(6)) == expected
    assert victim not in parallel.pool_pids()


def test_every_game_goes_over_the_wire_small_and_searches_in_parallel() -> None:
    for name in registry.available():
        game = registry.create(name)
        rng = random.Random(5)
        state = game.new_hand(rng)
        for _ in range(6):
            moves = state.legal_moves()
            if state.is_terminal() or len(moves) > 1:
                break
            state.do(moves[0])
        obs = state.observation(state.current_player)
        data = json.dumps(parallel.encode_observation(obs))
        assert len(data) < 4096  # the game's rules tables are not sent
        fresh = registry.create(name)
        back = parallel.decode_observation(json.loads(data), fresh)
        assert back == obs and back.state.game is fresh
        config = _config(game, "ismcts:iterations=120,workers=2")
        result = parallel.parallel_root_visits(game, config, obs, random.Random(1), None)
        assert result.iterations == 120 and parallel.last_stats()["shares"][1]["error"] is None
        assert set(result.visits) <= set(obs.legal_moves())


def test_a_helper_still_starting_is_not_waited_for_after_a_cancel() -> None:
    game, obs, legal = _position(0)
    parallel.shutdown_pool()
    (pid,) = parallel.prestart(2)  # started, not waited for
    os.kill(pid, signal.SIGSTOP)  # frozen before it could finish importing and report ready
    try:
        cancel = threading.Event()
        cancel.set()
        move = agents.make("ismcts:iterations=10000000,workers=2", game).choose(
            obs, random.Random(1), Budget(cancel=cancel))
        assert move in legal
        own, helper = parallel.last_stats()["shares"]
        assert own["iterations"] <= 16 and helper["skipped"] and helper["error"] is None
        assert pid in parallel.pool_pids()  # not killed: it is kept for the next decision
    finally:
        os.kill(pid, signal.SIGCONT)
    spec = "ismcts:iterations=300,workers=2"
    first = agents.make(spec, game).choose(obs, random.Random(2))
    assert parallel.last_stats()["shares"][1]["iterations"] == 150  # its stale job's answer was ignored
    assert agents.make(spec, game).choose(obs, random.Random(2)) == first and parallel.pool_pids() == [pid]


def test_a_hung_helper_is_given_up_after_a_stop() -> None:
    game, obs, legal = _position(1)
    (pid,) = parallel.prestart(2, wait=60.0)
    os.kill(pid, signal.SIGSTOP)  # alive but never answers
    cancel = threading.Event()
    with pytest.warns(RuntimeWarning, match="no answer"):
        move = agents.make("ismcts:iterations=10000000,workers=2", game).choose(
            obs, random.Random(1), Budget(cancel=cancel, on_progress=lambda p: cancel.set()))
    assert move in legal and pid not in parallel.pool_pids()
    helper = parallel.last_stats()["shares"][1]
    assert "no answer" in helper["error"] and not helper["rerun"]


def _choose_in_this_process(spec: str, seed: int) -> tuple[dict, list[bool]]:
    game, obs, _legal = _position(2)
    result = parallel.parallel_root_visits(game, _config(game, spec), obs, random.Random(seed), None)
    return result.visits, [s["local"] for s in parallel.last_stats()["shares"]]


def test_a_daemonic_process_runs_the_shares_itself_with_the_same_result() -> None:
    import multiprocessing

    spec = "ismcts:iterations=500,workers=2"
    parallel.prestart(2, wait=60.0)
    here, local_here = _choose_in_this_process(spec, 12)
    with multiprocessing.get_context("spawn").Pool(1) as pool:  # like arena --jobs: daemonic workers
        there, local_there = pool.apply(_choose_in_this_process, (spec, 12))
    assert local_here == [False, False] and local_there == [False, True]
    assert here == there and sum(here.values()) == 500  # the same two shares, wherever they ran


def test_the_caller_runs_the_share_of_a_helper_still_starting() -> None:
    game, obs, _legal = _position(1)
    config = _config(game, "ismcts:iterations=400,workers=2")
    parallel.shutdown_pool()
    (pid,) = parallel.prestart(2)
    os.kill(pid, signal.SIGSTOP)  # frozen before it could report ready
    try:
        first = parallel.parallel_root_visits(game, config, obs, random.Random(4), None)
        helper = parallel.last_stats()["shares"][1]
        assert helper["local"] and helper["iterations"] == 200 and helper["error"] is None
    finally:
        os.kill(pid, signal.SIGCONT)
    parallel.prestart(2, wait=60.0)
    second = parallel.parallel_root_visits(game, config, obs, random.Random(4), None)
    assert not parallel.last_stats()["shares"][1]["local"] and parallel.pool_pids() == [pid]
    assert first.visits == second.visits and first.iterations == second.iterations == 400


def test_the_bench_counts_the_helpers_cpu_once() -> None:
    from engine import bench

    game, obs, _legal = _position(0)
    parallel.prestart(2, wait=60.0)
    agent = agents.make("ismcts:iterations=600,workers=2", game)
    before = bench._parallel_stats(agent)
    agent.choose(obs, random.Random(1))
    after = bench._parallel_stats(agent)
    assert after["request_id"] != before.get("request_id") and not after["shares"][1]["local"]
    assert bench._helper_cpu(agent, before) == after["shares"][1]["cpu_seconds"] > 0
    assert bench._helper_cpu(agent, after) == 0.0  # no new decision since
    assert bench._helper_cpu(agents.make("ismcts:iterations=10", game), {}) == 0.0


def test_the_bench_times_a_parallel_spec_with_its_helpers_started_and_warm() -> None:
    """The helpers' start-up is reported apart and not timed: the last timed decision's second share ran in
    a helper process, not in the caller as a decision made before the helper was ready would."""
    from engine import bench

    parallel.shutdown_pool()
    out = bench.bench_agent(registry.create("bisca"), "ismcts:iterations=300,workers=2", positions=2, seed=5)
    assert out["warmup_decisions"] == 1 and out["helper_startup_seconds"] > 0
    shares = parallel.last_stats()["shares"]
    assert not shares[1]["local"] and shares[1]["iterations"] == 150
    single = bench.bench_agent(registry.create("bisca"), "ismcts:iterations=300", positions=2, seed=5)
    assert single["warmup_decisions"] == 1 and "helper_startup_seconds" not in single
