"""Probes: per-decision measurements during arena games (search depth, iterations to a depth, sampling accuracy,
seconds per move) and the registry experiments that read them (manzke2025 figures 6.1-6.4, kassak2023 tables 5.3
and 5.5)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import random
from pathlib import Path

import pytest

from engine import agents, registry
from engine.determinize import sample_assignment
from engine.game import GameError
from engine.games.hearts.inference import FEATURE_CARDS, hearts_belief
from engine.knowledge import KnowledgeError, SearchKnowledge
from engine.lab import arena, cost, probes
from engine.lab.depth import tree_depth
from engine.lab.experiments import Experiment, Reading, Row, Setup, check
from engine.lab.experiments_catalog import EXPERIMENTS, MISSING
from engine.lab.reproduce import main, run_experiment
from engine.rng import derive_seed
from engine.search import knowledge
from engine.search.ismcts import run_ismcts

HEARTS = {"passing": "none", "target": 0}
PROBED = ("manzke2025/figure-6.1", "manzke2025/figure-6.2", "manzke2025/figure-6.3", "manzke2025/figure-6.4",
          "kassak2023/table-5.3", "kassak2023/table-5.5")


def cheaper(exp: Experiment, *swaps: tuple[str, str]) -> Experiment:
    """``exp`` with every SPEC and probe SPEC rewritten by ``swaps`` (the same rows on cheaper agents)."""

    def sub(text: str) -> str:
        for old, new in swaps:
            text = text.replace(old, new)
        return text

    setups = tuple(dataclasses.replace(s, agents=tuple(map(sub, s.agents)), probed=tuple(map(sub, s.probed)),
                                       probe=sub(s.probe)) for s in exp.setups)
    rows = tuple(dataclasses.replace(r, agent=sub(r.agent) if r.agent else None) for r in exp.rows)
    return dataclasses.replace(exp, setups=setups, rows=rows)


def hearts_position(seed: int, tricks: int) -> tuple:
    """A Hearts state after ``tricks`` tricks of random play (from a seeded deal)."""
    game = registry.create("hearts", HEARTS)
    rng = random.Random(seed)
    state = game.new_hand(rng, dealer=3)
    for _ in range(4 * tricks):
        state.do(rng.choice(state.legal_moves()))
    return game, state


def test_the_depth_a_search_records_is_its_tree_depth() -> None:
    game, state = hearts_position(5, 2)
    for spec in ("ismcts:iterations=300,reward=relative", "ismcts:iterations=300,transpositions=true,dets=50"):
        agent = agents.make(spec, game)
        result, root = run_ismcts(state.observation(state.current_player), random.Random(1), agent.conf, None)
        firsts = result.depth_firsts
        assert result.depth == tree_depth(root) == len(firsts) > 2
        assert firsts[0] == 1 and firsts == sorted(firsts) and firsts[-1] <= result.iterations == 300


def test_until_depth_stops_the_search_when_the_tree_is_that_deep() -> None:
    game, state = hearts_position(6, 1)
    obs = state.observation(state.current_player)
    stopped = agents.make("ismcts:iterations=100000,reward=relative,until_depth=5", game)
    result, _root = run_ismcts(obs, random.Random(2), stopped.conf, None)
    assert result.depth == 5 and result.iterations == result.depth_firsts[4] < 100000
    # the same search with exactly that many iterations: the same tree, the same statistics
    plain = agents.make(f"ismcts:iterations={result.iterations},reward=relative", game)
    same, _ = run_ismcts(obs, random.Random(2), plain.conf, None)
    assert same.visits == result.visits and same.depth_firsts == result.depth_firsts


def test_the_search_probe_records_what_the_agent_reports_and_changes_no_game() -> None:
    specs = ["ismcts:iterations=60,reward=relative", "random", "ismcts:iterations=60,transpositions=true,dets=20",
             "random"]
    arrangement = [0, 1, 2, 3]
    plain = arena.play_one("hearts", HEARTS, specs, arrangement, "hand", 9, 0, 0)
    probed = arena.play_one("hearts", HEARTS, specs, arrangement, "hand", 9, 0, 0, "search", (specs[0], specs[2]))
    assert plain.probes is None
    assert (probed.points, probed.moves, probed.outcomes) == (plain.points, plain.moves, plain.outcomes)
    # replay the hand and ask the agents directly
    game = registry.create("hearts", HEARTS)
    players = [agents.make(s, game) for s in specs]
    state = game.new_hand(random.Random(derive_seed(9, "deal", 0)), dealer=3)
    rng = random.Random(derive_seed(9, "agents", 0, 0))
    seen = []
    while not state.is_terminal():
        seat = state.current_player
        trick = sum(state.tricks_taken(s) for s in range(4)) + 1
        move = players[seat].choose(state.observation(seat), rng)
        search = getattr(players[seat], "last_search", None)
        if search is not None:
            seen.append({"seat": seat, "trick": trick, "depth": search.depth, "iterations": search.iterations,
                         "firsts": search.depth_firsts})
        state.do(move)
    assert probed.probes == seen and {d["seat"] for d in seen} == {0, 2}


def test_the_sampling_probe_counts_the_deals_that_place_the_special_spades_right() -> None:
    assert knowledge.bias_features("hearts", "inference") == FEATURE_CARDS
    assert sorted(c for c in range(52) if FEATURE_CARDS >> c & 1) == [49, 50, 51]  # Q, K, A of spades
    checked = 0
    for seed in range(1, 30):
        _game, state = hearts_position(seed, 3)
        got = probes.sampling_accuracy(state, hearts_belief, FEATURE_CARDS, 40, random.Random(seed))
        obs = state.observation(state.current_player)
        hidden = [c for c in (49, 50, 51) if obs.unknown >> c & 1]
        if got is None:
            continue
        rng = random.Random(seed)
        counts = []
        for bias in (hearts_belief(obs), None):
            right = 0
            for _ in range(40):
                deal = sample_assignment(obs, rng, bias)
                right += all(any(deal[i] >> c & 1 and state.hands[slot.owner] >> c & 1
                                 for i, slot in enumerate(obs.slots)) for c in hidden)
            counts.append(right / 40)
        assert got == {"belief": counts[0], "uniform": counts[1]}
        checked += 1
    assert checked >= 10


def test_a_belief_feature_must_name_a_registered_bias() -> None:
    with pytest.raises(KnowledgeError, match="no bias"):
        SearchKnowledge(bias_features={"nothing": 1})
    with pytest.raises(KnowledgeError, match="card mask"):
        SearchKnowledge(biases={"b": lambda obs: obs}, bias_features={"b": 0})


def test_bad_probes_fail_before_playing() -> None:
    game = registry.create("hearts", HEARTS)
    with pytest.raises(GameError, match="valid: seconds, search, sampling"):
        probes.make("depth")
    with pytest.raises(GameError, match="samples"):
        probes.make("sampling:sample=3")
    with pytest.raises(GameError, match="single-process ismcts"):
        probes.check("search", game, ["random"] * 4, ())
    with pytest.raises(GameError, match="bias="):
        probes.check("sampling", game, ["ismcts:iterations=10"] * 4, ())
    with pytest.raises(GameError, match="does not play"):
        probes.check("seconds", game, ["random"] * 4, ("greedy",))
    bad = Experiment("manzke2025/figure-x", "manzke2025", "x", "x", (Setup("hearts", ("random",) * 4, 4, ()),),
                     (Row("x", "probe_mean", agent="random", reading=Reading("seconds")),))
    with pytest.raises(ValueError, match="no probe"):
        check(bad)
    bad = dataclasses.replace(bad, setups=(Setup("hearts", ("random",) * 4, 4, (), probe="search"),),
                              rows=(Row("x", "probe_mean", agent="random", reading=Reading("firsts")),))
    with pytest.raises(ValueError, match="index"):
        check(bad)


FEW_DETS = ("dets=1000", "dets=20")
CHEAP = {
    "manzke2025/figure-6.1": (("iterations=8000", "iterations=40"), FEW_DETS),
    "manzke2025/figure-6.2": (("iterations=2000000", "iterations=150"), ("until_depth=9", "until_depth=6"), FEW_DETS),
    "manzke2025/figure-6.3": (("iterations=8000", "iterations=30"), ("samples=1000", "samples=10"), FEW_DETS),
    "manzke2025/figure-6.4": (("iterations=8000", "iterations=30"), ("samples=1000", "samples=10"), FEW_DETS),
    "kassak2023/table-5.3": (("iterations=243", "iterations=20"),),
    "kassak2023/table-5.5": (("iterations=243", "iterations=20"),),
}


@pytest.mark.parametrize("exp_id", PROBED)
def test_each_probe_experiment_runs_small_with_well_formed_rows(exp_id: str) -> None:
    assert exp_id not in MISSING
    exp = cheaper(EXPERIMENTS[exp_id], *CHEAP[exp_id])
    only = None
    if exp_id.startswith("kassak2023"):  # two of its 45 pairs: an MCTS and a rule-based one
        only = [next(k for k, s in enumerate(exp.setups) if all(a.startswith("cheat") for a in s.agents)),
                next(k for k, s in enumerate(exp.setups) if not any(a.startswith("cheat") for a in s.agents))]
    result = run_experiment(exp, scale=0.0001, seed=3, jobs=1, only=only)
    measured = [r for r in result["rows"] if r["n"]]
    assert measured
    for r in measured:
        lo, hi = r["ci95"]
        assert lo <= r["measured"] <= hi, r
        assert r["unit"] in ("share", "moves", "iterations", "decisions", "seconds")
        if r["unit"] == "share":
            assert 0 <= lo and hi <= 1
    if exp_id.startswith("kassak2023"):
        assert {r["agreement"] for r in measured} == {"machine-dependent"}
    else:
        assert any(r["measured"] > 0 for r in measured)


def test_probed_records_resume_and_plain_records_are_refused(tmp_path: Path) -> None:
    exp = cheaper(EXPERIMENTS["manzke2025/figure-6.1"], ("iterations=8000", "iterations=30"), FEW_DETS)
    full = run_experiment(exp, scale=0.001, seed=2, jobs=1)  # one deal, four rotations
    records = str(tmp_path / "f61.jsonl")

    def stops_after_two(tasks: list[tuple], keep) -> None:
        for t in tasks[:2]:
            keep(arena.play_one(*t))
        raise KeyboardInterrupt

    assert run_experiment(exp, scale=0.001, seed=2, backend=stops_after_two, records=records)["interrupted"]
    resumed = run_experiment(exp, scale=0.001, seed=2, jobs=1, records=records)
    assert resumed["rows"] == full["rows"] and resumed["resumed_games"] == 2
    plain = str(tmp_path / "plain.jsonl")
    setup = exp.setups[0]
    arena.run(setup.game, setup.variant_dict(), list(setup.agents), 4, 2, 1, records_path=plain)
    with pytest.raises(GameError, match="records another run"):
        run_experiment(exp, scale=0.001, seed=2, jobs=1, records=plain)


def test_estimate_report_and_list_of_probe_experiments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exp = cheaper(EXPERIMENTS["manzke2025/figure-6.4"], *CHEAP["manzke2025/figure-6.4"])
    costs = cost.estimate(exp, 0.0001, seed=1)
    assert costs[0].games == 4 and costs[0].game_seconds > 0
    assert main(["kassak2023/table-5.3", "--setups", "0", "--estimate", "--scale", "0.01"]) == 0
    assert "set-up 0: 4 games" in capsys.readouterr().out
    listing = tmp_path / "list.json"
    assert main(["--list", "--json", str(listing)]) == 0
    entries = {e["id"]: e for e in json.loads(listing.read_text())}
    assert entries["manzke2025/figure-6.4"]["setups"][0]["probe"] == "sampling:samples=1000"
    results = tmp_path / "results"
    results.mkdir()
    result = run_experiment(exp, scale=0.0001, seed=1, jobs=1)
    result["command"] = "python -m engine.reproduce manzke2025/figure-6.4 --scale 0.0001"
    (results / "manzke2025_figure-6.4.json").write_text(json.dumps(result))
    doc = tmp_path / "results.md"
    assert main(["--report", "--results", str(results), "--output", str(doc)]) == 0
    text = doc.read_text()
    assert "### manzke2025/figure-6.4" in text and "| inference, all tricks | 35.2% |" in text
    plotted = (results / "plots" / "manzke2025_figure-6.4.png").exists()
    assert plotted == (importlib.util.find_spec("matplotlib") is not None)  # the plot needs the research extra
