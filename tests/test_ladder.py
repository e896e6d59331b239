"""The equal-time ladder: the Bradley-Terry ratings on hand-computable results, the time budget given to each
agent, and a tiny real run that resumes from its records."""

from __future__ import annotations

import json
import math

import pytest

from engine import registry
from engine.game import GameError
from engine.lab import arena, ladder


def test_two_agents_rating_gap_is_the_log_odds_of_the_score() -> None:
    ratings, errors = ladder.bradley_terry(2, {(0, 1): (30.0, 40.0)}, prior=0.0)
    gap = 400 * math.log10(30 / 10)  # p = 0.75: strength ratio 3
    assert ratings[0] == pytest.approx(gap / 2, abs=1e-6)
    assert ratings[1] == pytest.approx(-gap / 2, abs=1e-6)
    # var(log-ratio) = 1 / (n p (1 - p)); each rating carries half of the gap
    se = ladder.ELO * math.sqrt(1 / (40 * 0.75 * 0.25)) / 2
    assert errors[0] == pytest.approx(se, rel=1e-6)
    assert errors[1] == pytest.approx(se, rel=1e-6)


def test_three_agents_consistent_with_strengths_four_two_one() -> None:
    results = {(0, 1): (20.0, 30.0), (1, 2): (20.0, 30.0), (0, 2): (24.0, 30.0)}
    ratings, _ = ladder.bradley_terry(3, results, prior=0.0)
    step = 400 * math.log10(2)
    assert ratings == pytest.approx([step, 0.0, -step], abs=1e-6)


def test_all_draws_rate_everyone_level_and_the_prior_keeps_a_sweep_finite() -> None:
    ratings, errors = ladder.bradley_terry(3, {(0, 1): (5.0, 10.0), (0, 2): (5.0, 10.0), (1, 2): (5.0, 10.0)})
    assert ratings == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)
    assert all(0 < e < math.inf for e in errors)
    ratings, _ = ladder.bradley_terry(2, {(0, 1): (10.0, 10.0)})
    assert ratings[0] == pytest.approx(400 * math.log10(10.5 / 0.5) / 2, abs=1e-6)


def test_an_agent_without_games_has_no_interval() -> None:
    ratings, errors = ladder.bradley_terry(3, {(0, 1): (6.0, 10.0)})
    assert ratings[2] == 0.0 and errors[2] == math.inf


def test_timed_specs_get_the_clock_alone() -> None:
    game = registry.create("briscola")
    assert ladder.timed_spec("ismcts:iterations=500,c=0.5", game, 0.05) == \
        "ismcts:iterations=0,c=0.5,seconds=0.05"
    assert ladder.timed_spec("pimc:depth=3", game, 0.1) == "pimc:depth=3,seconds=0.1,deals=0"
    assert ladder.timed_spec("heuristic", game, 0.1) == "heuristic"


def test_bad_ladders_fail_before_playing() -> None:
    with pytest.raises(GameError, match="positive"):
        ladder.run("briscola", {}, ["greedy", "random"], 0.0, 2)
    with pytest.raises(GameError, match="two or more"):
        ladder.run("briscola", {}, ["greedy"], 0.1, 2)
    assert ladder.main(["--game", "briscola", "--agents", "greedy", "nosuch", "--seconds-per-move", "0.1"]) == 2


def test_unit_match_plays_whole_matches(tmp_path) -> None:
    records = str(tmp_path / "ladder")
    summary = ladder.run("sueca", {}, ["heuristic", "greedy"], None, 2, seed=1, jobs=1, records=records,
                         unit="match")
    assert summary["unit"] == "match" and "unit=match" in ladder.format_table(summary)
    with open(records + ".0-1", encoding="utf-8") as f:
        header, *games = (json.loads(line) for line in f)
    assert header["unit"] == "match" and len(games) == summary["pairs"][0]["games"] == 4
    # a Sueca match runs to 4 game points, a hand gives at most 4: the winners reach the target over hands
    for game in games:
        assert max(game["points"]) >= 4 and game["moves"] % 40 == 0
    assert any(game["moves"] > 40 for game in games)
    hands = ladder.run("sueca", {}, ["heuristic", "greedy"], None, 2, seed=1, jobs=1)
    assert hands["unit"] == "hand"
    with pytest.raises(GameError, match="--unit"):
        ladder.run("sueca", {}, ["heuristic", "greedy"], None, 2, unit="game")


def test_tiny_ladder_runs_and_resumes(tmp_path) -> None:
    records = str(tmp_path / "ladder")
    first = ladder.run("briscola", {}, ["greedy", "random", "pimc:depth=2"], 0.01, 2, seed=3, jobs=1,
                       records=records)
    assert [p["games"] for p in first["pairs"]] == [4, 4, 4]
    assert {r["spec"] for r in first["ratings"]} == {"greedy", "random", "pimc:depth=2"}
    assert abs(sum(r["rating"] for r in first["ratings"])) < 1e-6
    for p in first["pairs"]:
        lo, hi = p["score_rate_ci95"]
        assert 0.0 <= lo <= p["score_rate"] <= hi <= 1.0
    again = ladder.run("briscola", {}, ["greedy", "random", "pimc:depth=2"], 0.01, 2, seed=3, jobs=1,
                       records=records)
    # the rule-based pair replays from its records; so do the timed ones (their games are read back)
    assert [p["score"] for p in again["pairs"]] == [p["score"] for p in first["pairs"]]
    assert again["ratings"] == first["ratings"]


def test_odd_seat_games_play_both_seatings() -> None:
    assert ladder.seatings(3) == [("", [0, 1, 0]), (".b", [1, 0, 1])]
    assert ladder.seatings(4) == [("", [0, 1, 0, 1])]


def test_own_budgets_keep_every_spec_as_given_and_are_deterministic() -> None:
    specs = ["pimc:deals=2,depth=2", "greedy"]
    first = ladder.run("briscola", {}, specs, None, 2, seed=5, jobs=1)
    assert [row["timed_spec"] for row in sorted(first["ratings"], key=lambda r: r["spec"])] == \
        ["greedy", "pimc:deals=2,depth=2"]
    assert first["seconds_per_move"] is None and "own budgets" in ladder.format_table(first)
    again = ladder.run("briscola", {}, specs, None, 2, seed=5, jobs=1)
    assert again["pairs"][0]["score"] == first["pairs"][0]["score"]
    with pytest.raises(SystemExit) as stop:
        ladder.main(["--game", "briscola", "--agents", "greedy", "random", "--own-budgets", "--seconds-per-move",
                     "0.1"])
    assert stop.value.code == 2


def test_the_cpu_clock_goes_to_every_search_and_nowhere_else() -> None:
    game = registry.create("briscola")
    assert ladder.timed_spec("ismcts:iterations=500", game, 0.05, "cpu") == \
        "ismcts:iterations=0,seconds=0.05,clock=cpu"
    assert ladder.timed_spec("pimc", game, 0.1, "cpu") == "pimc:seconds=0.1,deals=0,clock=cpu"
    assert ladder.timed_spec("heuristic", game, 0.1, "cpu") == "heuristic"
    with pytest.raises(GameError, match="choose one of: wall, cpu"):
        ladder.timed_specs("briscola", {}, ["greedy", "random"], 0.1, 2, "sundial")
    with pytest.raises(GameError, match="--own-budgets"):
        ladder.timed_specs("briscola", {}, ["greedy", "random"], None, 2, "cpu")
    summary = ladder.run("briscola", {}, ["greedy", "pimc:depth=2"], 0.01, 1, seed=3, jobs=1, clock="cpu")
    assert summary["clock"] == "cpu" and "0.01 s of CPU a move" in ladder.format_table(summary)
    assert {r["timed_spec"] for r in summary["ratings"]} == {"greedy", "pimc:depth=2,seconds=0.01,deals=0,clock=cpu"}


def test_a_pair_whose_deals_never_changed_with_the_seats_gets_the_unpaired_interval() -> None:
    # 20 games, 10 won by each side, every deal won by the same seat both ways round: no spread in the differences
    lo, hi = ladder.score_interval([(0.0, 0.0, 0.0, 20)], 10.0, 20)
    assert (lo, hi) == pytest.approx(arena.wilson_interval(10.0, 20))
    assert lo < 0.5 < hi and hi - lo > 0.3
    # with spread, the paired interval: mean difference +0.2 [0.0, +0.4] -> score 60% [50%, 70%]
    assert ladder.score_interval([(0.2, 0.0, 0.4, 20)], 12.0, 20) == pytest.approx([0.5, 0.7])


def test_each_pair_counts_the_games_each_side_won() -> None:
    # two players: every game is A's win, B's win or a draw, and the score is A's wins plus half the draws
    two = ladder.run("briscola", {}, ["greedy", "random"], None, 3, seed=7, jobs=1)["pairs"][0]
    won_a, won_b = two["won"]
    assert two["score"] == pytest.approx(won_a + (two["games"] - won_a - won_b) / 2)
    # four seats without partners, two each: a game won by one of A's seats scores 3/4, one won by B's 1/4
    summary = ladder.run("pharaoh", {"target": 0}, ["smallest", "random"], None, 3, seed=7, jobs=1)
    four = summary["pairs"][0]
    won_a, won_b = four["won"]
    assert won_a + won_b == four["games"] and won_a > won_b
    assert four["score"] == pytest.approx(0.75 * won_a + 0.25 * won_b)
    assert f"won {won_a}-{won_b}" in ladder.format_table(summary)
