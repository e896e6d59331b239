"""Search building blocks: fast rollouts, the deal sampler, rewards, the endgame solver, presets of hooks."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import agents, registry
from engine.determinize import determinize
from engine.game import Game, GameState, HandResult
from engine.games.tricks.sueca import game_points
from engine.search import knowledge
from engine.search.common import reward_function, reward_vector, to_rate
from engine.search.endgame import alphabeta, enumerate_deals
from engine.search.sampler import DealSampler


def playouts(state):
    """The search's fast paths of ``state``'s game (its ``SearchKnowledge.playouts``)."""
    return registry.entry(state.game.name).knowledge.playouts

GAMES = registry.available()


@pytest.mark.parametrize("name", GAMES)
def test_sampler_deals_are_consistent_with_the_observation(name: str) -> None:
    game = registry.create(name)
    rng = random.Random(5)
    state = game.new_hand(rng)
    for step in range(40):
        if state.is_terminal():
            break
        seat = state.current_player
        obs = state.observation(seat)
        sampler = DealSampler(obs)
        for _ in range(3):
            deal = sampler.deal(rng)
            assert deal.observation(seat) == obs
            assert deal.legal_moves() == state.legal_moves()
        state.do(rng.choice(state.legal_moves()))
        _ = step


def test_sampler_is_uniform_over_unconstrained_deals() -> None:
    # Sueca opening: every hidden card is equally likely in each of the three hidden hands.
    game = registry.create("sueca")
    state = game.new_hand(random.Random(2))
    obs = state.observation(state.current_player)
    sampler = DealSampler(obs)
    rng = random.Random(1)
    n = 3000
    card = next(c for c in range(40) if obs.unknown >> c & 1 and all(s.allowed >> c & 1 for s in obs.slots))
    counts = [0] * len(obs.slots)
    for _ in range(n):
        for i, cards in enumerate(sampler.assignment(rng)):
            if cards >> card & 1:
                counts[i] += 1
    for i, slot in enumerate(obs.slots):
        p = slot.count / sum(s.count for s in obs.slots)
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(counts[i] - n * p) < 4 * sd


def _result(points: list[float], teams: list[tuple[int, ...]], lower: bool) -> HandResult:
    team_points = [points[t[0]] for t in teams]
    best = min(team_points) if lower else max(team_points)
    winners = [s for t, p in zip(teams, team_points, strict=True) if p == best for s in t]
    if len(winners) == len(points) and len(teams) > 1:
        winners = []
    return HandResult(points, teams, team_points, winners, {}, lower)


class _Fake:
    def __init__(self, name: str, res: HandResult, variant: dict[str, int] | None = None) -> None:
        self.game = registry.create(name, variant)
        self.res = res

    def result(self) -> HandResult:
        return self.res

    outcomes = GameState.outcomes  # the base version: built from result()


@pytest.mark.parametrize(("ours", "expected"), [(120, 4), (100, 2), (70, 1), (60, 0), (50, -1), (20, -2), (0, -4)])
def test_sd_reward_follows_the_seeds_table_for_sueca(ours: int, expected: int) -> None:
    teams = [(0, 2), (1, 3)]
    pts = [float(ours), float(120 - ours)] * 2
    fake = _Fake("sueca", _result(pts, teams, False))
    r = reward_vector("sd", fake)  # type: ignore[arg-type]
    assert r[0] == expected and r[2] == expected and r[1] == -expected


@pytest.mark.parametrize(("ours", "expected"),
                         [(120, 2.5), (100, 1.5), (70, 1.0), (60, 0.5), (50, 0.0), (20, -0.5), (0, -1.5)])
def test_match_reward_counts_suecas_game_points(ours: int, expected: float) -> None:
    teams = [(0, 2), (1, 3)]
    res = _result([float(ours), float(120 - ours)] * 2, teams, False)
    res.breakdown["game_points"] = [game_points(ours), game_points(120 - ours)]
    assert reward_vector("match", _Fake("sueca", res)) == [expected, 1.0 - expected] * 2  # type: ignore[arg-type]
    # a single hand has no match to play for: the win alone counts
    single = _Fake("sueca", res, {"target": 0})
    assert reward_vector("match", single) == reward_vector("pwl", single)  # type: ignore[arg-type]
    assert to_rate("match", expected) == min(1.0, max(0.0, expected))


@pytest.mark.parametrize(("name", "variant"), [("sueca", {}), ("sueca", {"target": 0}), ("hearts", {}),
                                               ("scopa", {}), ("briscola", {"match": "points4"})])
def test_match_reward_of_the_search_is_the_rules_one(name: str, variant: dict[str, object]) -> None:
    game = registry.create(name, variant)
    reward = reward_function("match", name, knowledge.playouts(name))
    rng = random.Random(5)
    for _ in range(20):
        state = game.new_hand(rng)
        while not state.is_terminal():
            moves = state.legal_moves()
            state.do(moves[int(rng.random() * len(moves))])
        res = state.result()
        values = reward_vector("match", state)
        assert reward(state) == values
        if game.match_target() is None:
            assert values == state.outcomes()
        else:  # the seat with the most match points of the hand is rewarded most
            won = game.match_points(res)
            index = {seat: i for i, team in enumerate(res.teams) for seat in team}
            best = min(won) if res.lower_is_better else max(won)
            assert {s for s in range(len(values)) if won[index[s]] == best} == \
                {s for s in range(len(values)) if values[s] == max(values)}


def test_sd_and_relative_rewards_for_hearts() -> None:
    teams = [(0,), (1,), (2,), (3,)]
    fake = _Fake("hearts", _result([0.0, 6.0, 13.0, 7.0], teams, True))
    assert reward_vector("sd", fake) == [4.0, 2.0, 0.0, 1.0]  # type: ignore[arg-type]
    rel = reward_vector("relative", fake)  # type: ignore[arg-type]
    assert abs(sum(rel)) < 1e-9 and rel[0] > rel[1] > rel[3] > rel[2]
    # manzke2025 table 4.1, state 1: points 13, 2, 7, 4 give R = -26, 18, -2, 10 (scaled by 3 * 26).
    fake = _Fake("hearts", _result([13.0, 2.0, 7.0, 4.0], teams, True))
    assert [round(x * 78) for x in reward_vector("relative", fake)] == [-26, 18, -2, 10]  # type: ignore[arg-type]
    assert reward_vector("pwl", fake) == [0.0, 1.0, 0.0, 0.0]  # type: ignore[arg-type]
    assert reward_vector("wl", fake) == [-1.0, 1.0, -1.0, -1.0]  # type: ignore[arg-type]


def test_endgame_enumeration_counts_every_consistent_deal() -> None:
    game = registry.create("sueca")
    rng = random.Random(4)
    state = game.new_hand(rng)
    while sum(h.bit_count() for h in state.hands) > 9:
        state.do(rng.choice(state.legal_moves()))
    obs = state.observation(state.current_player)
    deals = enumerate_deals(obs, 10_000)
    assert deals is not None and len(deals) == len({tuple(d) for d in deals})
    truth = [next(state.hands[s.owner] for _ in [0]) for s in obs.slots]
    assert truth in deals
    for _ in range(20):
        d = determinize(obs, rng)
        assert [d.hands[s.owner] for s in obs.slots] in deals
    assert enumerate_deals(obs, 1) is None or len(deals) <= 1


def _played_down_to(game: Game, seed: int, cards: int) -> GameState:
    """A hand of ``game`` dealt and played by random moves (seeded) until ``cards`` cards are left in the hands."""
    rng = random.Random(seed)
    state = game.new_hand(rng)
    while sum(h.bit_count() for h in state.hands) > cards:  # type: ignore[attr-defined]
        state.do(rng.choice(state.legal_moves()))
    return state


def test_alphabeta_matches_plain_minimax_on_small_endgames() -> None:
    game = registry.create("sueca", {"target": 0})

    def minimax(s: GameState, seat: int) -> float:
        if s.is_terminal():
            return alphabeta(s, seat, -1.0, 2.0, [0])
        vals = []
        for m in s.legal_moves():
            c = s.clone()
            c.do(m)
            vals.append(minimax(c, seat))
        return max(vals) if s.current_player % 2 == seat % 2 else min(vals)

    for seed in range(4):
        state = _played_down_to(game, seed, 7)
        seat = state.current_player
        assert alphabeta(state, seat, -1.0, 2.0, [0]) == pytest.approx(minimax(state, seat))


@pytest.mark.parametrize(("name", "variant"), [("sueca", {"target": 0}), ("briscola", {})])
def test_match_reward_in_a_single_hand_searches_as_the_win_reward(name: str, variant: dict[str, object]) -> None:
    game = registry.create(name, variant)
    plain = agents.make("ismcts:iterations=300", game)
    match = agents.make("ismcts:iterations=300,reward=match", game)
    state = game.new_hand(random.Random(3))
    decisions = 0
    while not state.is_terminal():
        obs = state.observation(state.current_player)
        move = plain.choose(obs, random.Random(decisions))
        assert match.choose(obs, random.Random(decisions)) == move
        assert match.last_search is None or match.last_search.visits == plain.last_search.visits  # type: ignore[union-attr]
        state.do(move)
        decisions += 1


def test_match_reward_plays_for_game_points_where_the_win_is_settled() -> None:
    # Late Sueca positions whose hand the side to move has already won: every move is worth a win to pwl, while
    # the match reward prefers the moves that still reach 91 card points (two game points) under perfect play.
    game = registry.create("sueca")
    found = 0
    for seed in range(300):
        state = _played_down_to(game, seed, 8)
        seat = state.current_player
        values = {}
        for move in state.legal_moves():
            after = state.clone()
            after.do(move)
            values[move] = [alphabeta(after, seat, -2.0, 3.0, [0], reward=kind) for kind in ("pwl", "match")]
        if min(v[0] for v in values.values()) < 1.0 or len({v[1] for v in values.values()}) < 2:
            continue
        found += 1
        best = max(values, key=lambda m: values[m][1])
        assert values[best][1] == pytest.approx(1.5) and min(v[1] for v in values.values()) == pytest.approx(1.0)
    assert found >= 3


def test_prune_hook_limits_the_tree_and_rollout_hook_plays_the_simulations(monkeypatch: pytest.MonkeyPatch) -> None:
    """``prune=NAME`` restricts every tree node to the pruner's moves; ``sim=NAME`` calls a registered rollout."""
    from engine import agents
    from engine.game import VariantError
    from engine.search.ismcts import run_ismcts

    calls = {"prune": 0, "rollout": 0}

    def lowest_two(state: GameState, moves: list[int]) -> list[int]:
        calls["prune"] += 1
        return sorted(moves)[:2]

    def counting_rollout(state: GameState, rng: random.Random) -> None:
        calls["rollout"] += 1
        playouts(state).random_rollout(state, rng)

    entry = registry.entry("sueca")
    known = dataclasses.replace(entry.knowledge, pruners={**entry.knowledge.pruners, "test-lowest-two": lowest_two},
                                rollouts={**entry.knowledge.rollouts, "test-counting": counting_rollout})
    monkeypatch.setitem(registry._entries, "sueca", dataclasses.replace(entry, knowledge=known))
    game = registry.create("sueca")
    state = game.new_hand(random.Random(3), dealer=0)
    obs = state.observation(state.current_player)
    agent = agents.make("ismcts:iterations=300,prune=test-lowest-two,sim=test-counting", game)
    result, root = run_ismcts(obs, random.Random(1), agent.conf, None)
    assert set(root.children) == set(sorted(obs.legal_moves())[:2])
    assert result.iterations == 300 and calls["rollout"] >= 250 and calls["prune"] >= 300
    assert agent.choose(obs, random.Random(2)) in sorted(obs.legal_moves())[:2]
    with pytest.raises(VariantError, match="test-counting"):
        agents.make("ismcts:sim=no-such-policy", game)
    with pytest.raises(VariantError, match="test-lowest-two"):
        agents.make("ismcts:prune=no-such-pruner", game)


def _deal_counts(slots: list, unknown: int, offset: int, draws: int, seed: int) -> dict[tuple[int, ...], int]:
    """How often each deal comes up in ``draws`` assignments of a sampler over ``slots`` (checking that each
    slot gets its count of unknown cards, none twice); numpy's sampler for small card numbers, the
    pure-Python one from 60 on."""
    from engine.observation import Observation

    sampler = DealSampler(Observation(0, None, unknown, slots))  # type: ignore[arg-type]
    assert (sampler.card_bits is None) == (offset >= 60)
    rng = random.Random(seed)
    counts: dict[tuple[int, ...], int] = {}
    for _ in range(draws):
        deal = tuple(sampler.assignment(rng))
        assert all(m & ~unknown == 0 and m.bit_count() == slot.count for m, slot in zip(deal, slots, strict=True))
        union = 0
        for m in deal:
            union |= m
        assert union.bit_count() == sum(m.bit_count() for m in deal)  # no card in two slots
        counts[deal] = counts.get(deal, 0) + 1
    return counts


def _chi_square(counts: dict[tuple[int, ...], int]) -> float:
    expected = sum(counts.values()) / len(counts)
    return sum((k - expected) ** 2 / expected for k in counts.values())


@pytest.mark.parametrize("offset", [0, 60])  # card numbers from 60 on: the pure-Python sampler (numpy: 64 bits)
def test_sampler_is_exactly_uniform_over_constrained_deals(offset: int) -> None:
    """Six unknown cards in three slots of two, one slot void in the two highest: all 36 consistent deals
    come up equally often (chi-square, 35 degrees of freedom, p = 0.001 bound 66.6)."""
    from engine.observation import HiddenSlot

    unknown = 0b111111 << offset
    slots = [HiddenSlot("hand1", 1, 2, unknown), HiddenSlot("hand2", 2, 2, 0b001111 << offset),
             HiddenSlot("hand3", 3, 2, unknown)]
    counts = _deal_counts(slots, unknown, offset, 7200, seed=11)
    assert all(deal[1] & 0b110000 << offset == 0 and deal[0] | deal[1] | deal[2] == unknown for deal in counts)
    assert len(counts) == 36 and _chi_square(counts) < 66.6


@pytest.mark.parametrize("offset", [0, 60])  # card numbers from 60 on: the pure-Python sampler (numpy: 64 bits)
def test_sampler_is_uniform_when_some_unknown_cards_go_to_no_slot(offset: int) -> None:
    """Six unknown cards, two slots of two (the other two stay out, as the rest of an unseen stock): all
    15 x 6 = 90 deals come up equally often (chi-square, 89 degrees of freedom, p = 0.001 bound 136), and
    the same seed deals the same sequence."""
    from engine.observation import HiddenSlot, Observation

    unknown = 0b111111 << offset
    slots = [HiddenSlot("hand1", 1, 2, unknown), HiddenSlot("hand2", 2, 2, unknown)]
    counts = _deal_counts(slots, unknown, offset, 9000, seed=12)
    assert len(counts) == 90 and _chi_square(counts) < 136
    obs = Observation(0, None, unknown, slots)  # type: ignore[arg-type]
    runs = []
    for _ in range(2):
        fresh, seeded = DealSampler(obs), random.Random(5)
        runs.append([fresh.assignment(seeded) for _ in range(40)])
    assert runs[0] == runs[1] and len(set(map(tuple, runs[0]))) > 10


def test_beam_search_keeps_at_most_width_nodes_per_pruned_depth() -> None:
    """beam_width=W, beam_limit=L: after k*L iterations depth k holds at most W nodes, for good."""
    from engine import agents
    from engine.search.ismcts import run_ismcts

    game = registry.create("sueca")
    state = game.new_hand(random.Random(4), dealer=0)
    obs = state.observation(state.current_player)
    agent = agents.make("ismcts:iterations=400,beam_width=2,beam_limit=100", game)
    result, root = run_ismcts(obs, random.Random(1), agent.conf, None)
    assert result.iterations == 400
    level = [root]
    for depth in range(1, 5):  # depths 1..4 were pruned after 100, 200, 300, 400 iterations
        level = [ch for n in level for ch in n.children.values()]
        assert 1 <= len(level) <= 2, depth
    assert len(root.children) == 2
    # Every iteration after the first pruning (at 100) went through one of the two kept root children.
    assert 300 < sum(ch.visits for ch in root.children.values()) < 400
    assert agent.choose(obs, random.Random(1)) in root.children
    plain, _ = run_ismcts(obs, random.Random(1), agents.make("ismcts:iterations=400", game).conf, None)
    assert len(plain.visits) == len(obs.legal_moves()) > 2


def test_incompatible_search_options_are_refused_with_a_reason() -> None:
    from engine import agents
    from engine.game import VariantError

    game = registry.create("hearts")
    for spec, reason in [("ismcts:reuse=true,workers=2", "workers"),
                         ("ismcts:beam_width=2,transpositions=true", "transpositions"),
                         ("ismcts:reuse=true,transpositions=true", "transpositions")]:
        with pytest.raises(VariantError, match=reason):
            agents.make(spec, game)


def test_bytecode_bench_counts_every_iteration_and_sees_the_playout() -> None:
    """``--what bytecodes``: a load-independent cost per iteration; the playout is where most of it goes, and
    stopping Sueca's PWL playouts early is visible in it (a score reward plays every hand to the end)."""
    from engine.bench import bench_bytecodes, main

    game = registry.create("sueca")
    pwl = bench_bytecodes(game, "ismcts:iterations=40", positions=2, seed=1)
    assert pwl["iterations"] == 80
    top = next(iter(pwl["by_function"]))
    assert top == "playouts.py:side_points_playout"
    assert pwl["by_function"][top] < pwl["bytecodes_per_iteration"]
    full = bench_bytecodes(game, "ismcts:iterations=40,reward=sd", positions=2, seed=1)
    assert "playouts.py:side_points_playout" not in full["by_function"]
    assert full["by_function"]["core.py:play_out_tricks"] > pwl["by_function"][top]
    assert main(["--what", "bytecodes", "--game", "sueca", "--agent", "random", "--positions", "1"]) == 2


@pytest.mark.parametrize(("name", "variant", "expected"), [
    ("bisca", {}, 0.25), ("bisca", {"hand_size": 7}, 0.25), ("bisca", {"hand_size": 3}, 0.7),
    ("briscola", {}, 0.7), ("briscola", {"hand_size": 9}, 0.25), ("sueca", {}, 0.7), ("hearts", {}, 0.7)])
def test_default_exploration_follows_the_hand_size(name, variant, expected):
    """0.25 where fernandes2016 6.4 tuned it (7-9 cards, free play while the stock lasts), else 0.7; explicit c wins."""
    from engine.search.common import exploration

    game = registry.create(name, variant)
    assert exploration(-1.0, game) == expected
    assert exploration(0.4, game) == 0.4
    assert agents.make("ismcts:iterations=5", game).conf.c == expected


def test_agent_bench_writes_the_issue_json_format(tmp_path) -> None:
    """``python -m engine.bench --game G --agent SPEC --positions K --json P``: the documented keys, summaries
    that are (min <= median <= max), the machine it ran on, and one median per pass with ``--repeat``."""
    import json

    from engine.bench import main

    path = tmp_path / "bench.json"
    argv = ["--game", "sueca", "--agent", "ismcts:iterations=30", "--positions", "2", "--seed", "3",
            "--repeat", "2", "--json", str(path)]
    assert main(argv) == 0
    out = json.loads(path.read_text(encoding="utf-8"))
    assert out["command"].startswith("python -m engine.bench --game sueca")
    assert (out["game"], out["agent"], out["positions"]) == ("sueca", "ismcts:iterations=30", 2)
    for block in (out, out["cpu"]):
        for key in ("iterations_per_second", "seconds_per_move"):
            summary = block[key]
            assert 0 < summary["min"] <= summary["median"] <= summary["max"]
    assert len(out["passes"]) == 2
    assert all(p["cpu_iterations_per_second"] > 0 for p in out["passes"])
    assert out["machine"]["cpus"] >= 1 and out["machine"]["python"].startswith("3.")
    with pytest.raises(SystemExit):  # argparse's error: a usage line and exit status 2
        main(["--game", "sueca", "--agent", "ismcts:iterations=5", "--positions", "0"])


def test_playouts_bench_reports_playouts_and_both_kinds_of_deal() -> None:
    """``--what playouts``: random playouts, generic determinizations and the search's deals per second."""
    from engine.bench import bench_playouts

    out = bench_playouts(registry.create("bisca"), seconds=0.05, seed=2)
    for block in (out, out["cpu"]):
        for key in ("random_playouts_per_second", "determinizations_per_second", "search_deals_per_second"):
            assert block[key] > 0


# A 4-player Pharaoh position (found by a long fuzz) with an empty stock: a few deals are consistent with
# it, but the plays and reshuffled draws that follow run deeper than Python's recursion limit.
DEEP_PHARAOH = (
    "{\"game\":\"pharaoh\",\"state\":{\"active_suit\":0,\"counts\":[0,6,2,5],\"current\":3,\"dealer\":0,\"discard\":["
    "\"9B\",\"OL\",\"9A\",\"UA\",\"7A\",\"7L\",\"7B\",\"7H\",\"UL\",\"8A\",\"OH\",\"XL\",\"KL\",\"OA\",\"8L\",\"8B\",\"8H\",\"AH\",\"AL\"],"
    "\"ended\":\"\",\"excluded\":[\"\",\"\",\"\",\"\"],\"finish_turns\":[20],\"finished\":[0],\"from_pool\":[0,0,0,0],\"ha"
    "nds\":[\"\",\"UH KH UB OB XA KA\",\"9H AA\",\"9L XH XB KB AB\"],\"history\":[[1,\"draw\"],[2,\"OL>A\"],[3,\"draw"
    "\"],[0,\"9A\"],[1,\"draw\"],[2,\"UA\"],[3,\"draw\"],[0,\"7A\"],[1,\"draw\"],[2,\"draw\"],[3,\"7L+7B+7H\"],[0,\"UL\""
    "],[1,\"8A\"],[2,\"draw\"],[3,\"draw\"],[0,\"OH>L\"],[1,\"XL\"],[2,\"KL\"],[3,\"draw\"],[0,\"OA>L\"],[1,\"8L\"],[2,"
    "\"8B\"],[3,\"8H\"],[1,\"AH\"],[2,\"AL\"]],\"lock\":0,\"pending_draw\":0,\"pending_skip\":1,\"pool\":\"\",\"reshuffl"
    "es\":0,\"shuffle_seed\":2953992717923941293,\"skips\":0,\"starter\":1,\"stock\":[],\"turn\":25},\"variant\":{"
    "\"deck\":\"full\",\"hand_size\":0,\"open\":false,\"penalty_limit\":100,\"players\":4,\"rules\":\"classic\",\"scor"
    "ing\":\"places\",\"seven_draw\":3,\"target\":10},\"version\":1}"
)


def test_the_endgame_solver_gives_up_on_trees_deeper_than_its_limit() -> None:
    from engine.search.endgame import DEPTH_LIMIT, solve_information_set

    game = registry.create("pharaoh", {"players": 4})
    state = game.state_from_json(DEEP_PHARAOH)
    seat = state.current_player
    obs = state.observation(seat)
    assert enumerate_deals(obs, 40) is not None  # small enough for the solver to try
    assert DEPTH_LIMIT < 900  # well inside the interpreter's default recursion limit (1000)
    assert solve_information_set(obs, random.Random(1), 40) is None  # gives up: ISMCTS decides
    move = agents.make("ismcts:iterations=30,endgame=40", game).choose(obs, random.Random(1))
    assert move in state.legal_moves()


def test_agent_bench_takes_several_variant_options_after_one_flag(tmp_path) -> None:
    import json

    from engine.bench import main

    path = tmp_path / "bench.json"
    argv = ["--game", "hearts", "--variant", "passing=none", "target=0", "--agent", "ismcts:iterations=20",
            "--positions", "1", "--seed", "2", "--json", str(path)]
    assert main(argv) == 0
    assert "passing=none" in json.loads(path.read_text(encoding="utf-8"))["command"]


def test_endgame_bench_counts_every_attempt_the_agent_would_make(tmp_path, capsys) -> None:
    """``--what endgame``: every decision where the agent would try its solver is an attempt, solved or not;
    a tiny node limit makes the solves give up, and a SPEC without ``endgame=N`` is a clear error."""
    import json

    from engine.bench import bench_endgame, main
    from engine.search.ismcts import ENDGAME_MAX_CARDS

    game = registry.create("sueca", {"target": 0})
    full = bench_endgame(game, "ismcts:endgame=50", hands=2, seed=3)
    assert full["attempts"] == (full["solved"] + full["too_many_deals"] + full["stock_order_matters"]
                                + full["out_of_nodes_or_time"])
    assert full["solved"] > 0 and full["too_many_deals"] > 0  # early positions have too many deals
    assert sum(row["attempts"] for row in full["by_cards_left"].values()) == full["attempts"]
    assert max(int(c) for c in full["by_cards_left"]) <= ENDGAME_MAX_CARDS
    assert full["nodes_per_solve"]["max"] <= 2 * full["node_limit"]  # the tie break has an allowance of its own
    starved = bench_endgame(game, "ismcts:endgame=50", hands=2, seed=3, node_limit=1)
    assert starved["attempts"] == full["attempts"] and starved["too_many_deals"] == full["too_many_deals"]
    assert starved["out_of_nodes_or_time"] > full["out_of_nodes_or_time"]
    path = tmp_path / "endgame.json"
    assert main(["--what", "endgame", "--game", "bisca", "--agent", "ismcts:endgame=200", "--positions", "1",
                 "--json", str(path)]) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["solved"] > 0
    assert main(["--what", "endgame", "--game", "bisca", "--agent", "ismcts:iterations=10", "--positions", "1"]) == 2
    assert "endgame=N" in capsys.readouterr().err


@pytest.mark.parametrize(("spec", "needs"), [("ismcts:nast_n=3", "sim=nast"), ("ismcts:tau=0.5", "sim=nast"),
                                             ("ismcts:resolve=greedy", "handler"),
                                             ("ismcts:beam_limit=50", "beam_width")])
def test_an_option_without_the_one_it_depends_on_is_an_error(spec: str, needs: str) -> None:
    from engine.game import VariantError

    game = registry.create("scopone")
    with pytest.raises(VariantError, match=needs):
        agents.make(spec, game)
    agents.make(spec + ",sim=nast,handler=card,beam_width=4", game)  # with it: accepted


@pytest.mark.parametrize("name", ["sueca", "bisca", "briscola", "hearts", "mosssidewhist", "scopone", "scopa",
                                  "pharaoh"])
def test_generic_transposition_key_is_the_observers_view(name: str) -> None:
    """The key other games use with transpositions=true: equal for every deal the observer cannot tell
    apart, and new after every move (a move never leads back to an information set of the same hand; the
    first version ignored Scopone's table and Pharaoh's discard pile)."""
    from engine.determinize import determinize
    from engine.search.ismcts import _generic_infoset_key

    game = registry.create(name)
    rng = random.Random(3)
    state = game.new_hand(rng)
    seen: list[set] = [set() for _ in range(game.num_players)]
    steps = 0
    while not state.is_terminal() and steps < 40:
        for observer in range(game.num_players):
            key = _generic_infoset_key(state, observer)
            assert key not in seen[observer]
            seen[observer].add(key)
            other = determinize(state.observation(observer), rng)
            assert _generic_infoset_key(other, observer) == key
        moves = state.legal_moves()
        state.do(moves[int(rng.random() * len(moves))])
        steps += 1


def test_generic_transposition_key_sees_the_table() -> None:
    from engine.search.ismcts import _generic_infoset_key

    game = registry.create("scopa")
    state = game.new_hand(random.Random(1))
    seat = state.current_player
    other = state.clone()
    low = other.table & -other.table
    spare = ~(other.table | other.hands[seat]) & game.deck.full_mask
    other.table ^= low | (spare & -spare)  # one table card swapped for another: the same hand in hand
    assert other.hands[seat] == state.hands[seat]
    assert _generic_infoset_key(other, seat) != _generic_infoset_key(state, seat)
