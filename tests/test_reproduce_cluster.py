"""The Ray backend on a real two-node Ray cluster on this machine gives the local backend's exact results: the
arena, the ladder and reproduce, through their functions and their command lines (``--backend ray --address``).

Ray's nodes talk over the machine's own network address, not only the loopback, so the test runs only when asked
(``CARDTABLE_RAY_TESTS=1``, with ``pip install .[cluster]``) on a machine where that traffic is allowed."""

from __future__ import annotations

import json
import os

import pytest

from engine.lab import arena, ladder
from engine.lab.cluster import PROJECT_ROOT, RayBackend
from engine.lab.experiments_catalog import EXPERIMENTS
from engine.lab.reproduce import run_experiment

if os.environ.get("CARDTABLE_RAY_TESTS") != "1":
    pytest.skip("the Ray cluster test runs with CARDTABLE_RAY_TESTS=1", allow_module_level=True)
ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")


def _without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "commit")}


@pytest.fixture(scope="module")
def two_node_cluster():
    previous = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = PROJECT_ROOT  # the nodes' workers import this checkout's engine
    node = {"num_cpus": 1}  # two raylets (nodes) on this machine, one CPU each
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
    cluster.add_node(**node)
    try:
        yield cluster
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.shutdown()
        if previous is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = previous


def test_ray_cluster_gives_the_local_results(two_node_cluster, tmp_path) -> None:
    specs = ["greedy", "random", "greedy", "random"]
    local = arena.run("scopone", {"target": 0}, specs, 12, seed=5, jobs=1, records_path=str(tmp_path / "local.jsonl"))
    with RayBackend(arena.play_one, address=two_node_cluster.address) as backend:
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        remote = arena.run("scopone", {"target": 0}, specs, 12, seed=5, jobs=1,
                           records_path=str(tmp_path / "ray.jsonl"), backend=backend)
        exp = EXPERIMENTS["dipalma2014/table-6.1"]
        on_ray = run_experiment(exp, scale=0.006, seed=2, backend=backend)
    assert _without_timing(remote) == _without_timing(local)
    on_local = run_experiment(exp, scale=0.006, seed=2, jobs=1)
    assert on_ray["rows"] == on_local["rows"]
    assert on_ray["rows"][0]["n"] == 6
    # the records hold the same games, whatever order they finished in
    _h, got, _c, _cut = arena.read_records(str(tmp_path / "ray.jsonl"))
    _h, want, _c, _cut = arena.read_records(str(tmp_path / "local.jsonl"))
    key = lambda r: (r.deal, r.rotation)  # noqa: E731
    assert sorted(got, key=key) == sorted(want, key=key)


def _strip(path) -> dict:
    return {k: v for k, v in json.loads(path.read_text()).items() if k not in ("command", "seconds", "commit")}


def test_command_lines_on_the_cluster_give_the_local_results(two_node_cluster, tmp_path, capsys) -> None:
    address = ["--backend", "ray", "--address", two_node_cluster.address]
    game = ["--game", "scopone", "--variant", "target=0", "--seed", "7", "--jobs", "1", "--quiet"]
    arena_args = [*game, "--agents", "greedy", "random", "greedy", "random", "--games", "8"]
    assert arena.main([*arena_args, "--json", str(tmp_path / "a_local.json")]) == 0
    records = tmp_path / "a_ray.jsonl"
    assert arena.main([*arena_args, *address, "--records", str(records), "--json", str(tmp_path / "a_ray.json")]) == 0
    assert _strip(tmp_path / "a_ray.json") == _strip(tmp_path / "a_local.json")
    assert len(records.read_text().splitlines()) == 1 + 8  # header + every game, written as it finished
    # resumed on the cluster from its records: nothing is played again and the summary is the same
    assert arena.main([*arena_args, *address, "--records", str(records), "--json", str(tmp_path / "again.json")]) == 0
    again = _strip(tmp_path / "again.json")
    assert again.pop("resumed_games") == 8
    assert again == _strip(tmp_path / "a_local.json")
    # the ladder with rule-based agents (no clock in their decisions): the same ratings on the cluster
    ladder_args = [*game, "--agents", "greedy", "random", "cs", "--seconds-per-move", "0.01", "--deals", "2"]
    assert ladder.main([*ladder_args, "--json", str(tmp_path / "l_local.json")]) == 0
    assert ladder.main([*ladder_args, *address, "--json", str(tmp_path / "l_ray.json")]) == 0
    assert _strip(tmp_path / "l_ray.json") == _strip(tmp_path / "l_local.json")
    capsys.readouterr()
