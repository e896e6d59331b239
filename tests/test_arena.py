"""The arena CLI: seat rotation over duplicate deals, determinism across --jobs, statistics, errors."""

from __future__ import annotations

import json

import pytest

from engine.game import GameError
from engine.lab import arena


def test_rotations_deduplicate_identical_arrangements() -> None:
    assert arena.rotations(["a", "b", "a", "b"]) == [[0, 1, 2, 3], [3, 0, 1, 2]]
    assert arena.rotations(["r", "r", "r", "r"]) == [[0, 1, 2, 3]]
    four = arena.rotations(["x", "y", "y", "y"])
    assert len(four) == 4 and sorted(arr.index(0) for arr in four) == [0, 1, 2, 3]


def test_wilson_interval_contains_the_rate_and_shrinks() -> None:
    lo, hi = arena.wilson_interval(50, 100)
    assert lo < 0.5 < hi
    lo2, hi2 = arena.wilson_interval(500, 1000)
    assert hi2 - lo2 < hi - lo
    assert arena.wilson_interval(0, 10)[0] == 0.0 and arena.wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_mean_interval() -> None:
    m, (lo, hi) = arena.mean_interval([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and lo < 2.5 < hi


def test_same_seed_same_result_whatever_jobs() -> None:
    one = arena.run("sueca", {}, ["random"] * 4, games=12, seed=3, jobs=1)
    two = arena.run("sueca", {}, ["random"] * 4, games=12, seed=3, jobs=2)
    for key in ("agents", "seats", "teams", "mean_moves"):
        assert one[key] == two[key]
    other = arena.run("sueca", {}, ["random"] * 4, games=12, seed=4, jobs=1)
    assert other["seats"] != one["seats"]


def test_every_agent_plays_every_seat_on_the_same_deals() -> None:
    out = arena.run("sueca", {"target": 0}, ["random", "random:", "random", "random:"], games=6, seed=1, jobs=1)
    # "random" and "random:" are distinct specs: two rotations per deal, each deal played from both sides.
    assert out["rotations"] == 2 and out["deals"] == 3 and out["games"] == 6
    a, b = out["agents"]
    assert a["games"] == b["games"] == 6
    # Same deals from both sides: team points of the two specs sum to 120 per game.
    assert a["mean_points"] + b["mean_points"] == pytest.approx(120.0)
    assert a["wins"] + a["ties"] + a["losses"] == 6


def test_hand_mode_dealer_is_the_last_seat_and_points_add_up() -> None:
    out = arena.run("sueca", {}, ["random"] * 4, games=20, seed=9, jobs=1)
    t02, t13 = out["teams"]
    assert t02["seats"] == [0, 2]
    assert t02["mean_points"] + t13["mean_points"] == pytest.approx(120.0)
    assert t02["wins"] == t13["losses"] and t02["ties"] == t13["ties"]


def test_match_mode_plays_to_the_target() -> None:
    out = arena.run("sueca", {"target": 4}, ["random"] * 4, games=4, seed=2, jobs=1, unit="match")
    for team in out["teams"]:
        assert team["games"] == 4
    assert max(t["mean_points"] for t in out["teams"]) >= 4


def test_cli_writes_json_with_the_documented_shape(tmp_path, capsys) -> None:
    path = tmp_path / "out.json"
    code = arena.main(["--game", "sueca", "--agents", "random", "random", "random", "random", "--games", "4",
                       "--seed", "1", "--jobs", "1", "--json", str(path), "--quiet"])
    assert code == 0
    data = json.loads(path.read_text())
    for key in ("command", "game", "variant", "unit", "games", "seed", "agents", "seats", "teams"):
        assert key in data
    for key in ("spec", "games", "wins", "ties", "losses", "win_rate", "win_rate_ci95", "win_or_tie_rate",
                "win_or_tie_rate_ci95", "mean_points", "mean_points_ci95"):
        assert key in data["agents"][0]
    for row in data["seats"]:
        assert row["win_or_tie_rate"] == pytest.approx((row["wins"] + row["ties"]) / row["games"])
        assert row["win_or_tie_rate_ci95"] == list(arena.wilson_interval(row["wins"] + row["ties"], row["games"]))
    assert "agent random" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "chess", "--agents", "random"], "unknown game"),
    (["--game", "sueca", "--agents", "random"], "4 seats"),
    (["--game", "sueca", "--agents", "nobody", "random", "random", "random"], "unknown agent"),
    (["--game", "sueca", "--variant", "target=x", "--agents", "random", "random", "random", "random"], "target"),
    (["--game", "sueca", "--agents", "random:depth=3", "random", "random", "random"], "unknown parameter"),
])
def test_cli_errors_are_clear(argv, message, capsys) -> None:
    assert arena.main(argv + ["--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_list_games_and_agents(capsys) -> None:
    assert arena.main(["--list-games"]) == 0
    assert "trump_card" in capsys.readouterr().out
    assert arena.main(["--list-agents"]) == 0
    assert "random" in capsys.readouterr().out


def test_variant_flag_may_be_repeated(tmp_path) -> None:
    path = tmp_path / "v.json"
    assert arena.main(["--game", "sueca", "--variant", "target=0", "--variant", "trump_card=top", "--agents",
                       "random", "random", "random", "random", "--games", "2", "--jobs", "1", "--quiet",
                       "--json", str(path)]) == 0
    variant = json.loads(path.read_text())["variant"]
    assert variant["target"] == 0 and variant["trump_card"] == "top"


RANDOM4 = ["random"] * 4


def _lines(path) -> list[str]:
    return path.read_text().splitlines()


def test_records_file_keeps_every_game_and_resumes_a_stopped_run(tmp_path) -> None:
    whole = arena.run("sueca", {"target": 0}, RANDOM4, games=6, seed=3, jobs=1)
    path = tmp_path / "run.jsonl"
    first = arena.run("sueca", {"target": 0}, RANDOM4, games=6, seed=3, jobs=1, records_path=str(path))
    assert {k: first[k] for k in ("agents", "seats", "teams")} == {k: whole[k] for k in ("agents", "seats", "teams")}
    lines = _lines(path)
    assert len(lines) == 7 and json.loads(lines[0])["specs"] == RANDOM4
    assert {json.loads(x)["deal"] for x in lines[1:]} == set(range(6))
    # A run killed after three games, in the middle of writing the fourth:
    path.write_text("\n".join(lines[:4]) + "\n" + lines[4][:25])
    resumed = arena.run("sueca", {"target": 0}, RANDOM4, games=6, seed=3, jobs=1, records_path=str(path))
    assert resumed["resumed_games"] == 3 and resumed["games"] == 6
    assert {k: resumed[k] for k in ("agents", "seats", "teams")} == {k: whole[k] for k in ("agents", "seats", "teams")}
    assert sorted(_lines(path)[1:]) == sorted(lines[1:])


def test_records_of_another_run_or_a_damaged_file_are_refused_and_left_alone(tmp_path) -> None:
    path = tmp_path / "run.jsonl"
    arena.run("sueca", {"target": 0}, RANDOM4, games=2, seed=3, jobs=1, records_path=str(path))
    before = path.read_text()
    with pytest.raises(GameError, match="different run .*seed"):
        arena.run("sueca", {"target": 0}, RANDOM4, games=2, seed=4, jobs=1, records_path=str(path))
    lines = before.splitlines()
    path.write_text("\n".join([lines[0], "{not json", *lines[2:]]) + "\n")
    damaged = path.read_text()
    with pytest.raises(GameError, match="line 2 is not a game record"):
        arena.run("sueca", {"target": 0}, RANDOM4, games=2, seed=3, jobs=1, records_path=str(path))
    assert path.read_text() == damaged
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    assert arena.main(["--game", "sueca", "--agents", *RANDOM4, "--games", "2", "--jobs", "1", "--quiet",
                       "--records", str(other)]) == 2
    assert other.read_text() == "my notes\n"


def test_ctrl_c_summarizes_the_finished_games_and_keeps_them(tmp_path, monkeypatch, capsys) -> None:
    real = arena._play_task
    calls = []

    def stop_at_the_third(task):
        calls.append(task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(arena, "_play_task", stop_at_the_third)
    records, out = tmp_path / "run.jsonl", tmp_path / "out.json"
    code = arena.main(["--game", "sueca", "--variant", "target=0", "--agents", *RANDOM4, "--games", "8",
                       "--seed", "5", "--jobs", "1", "--quiet", "--records", str(records), "--json", str(out)])
    assert code == 130
    data = json.loads(out.read_text())
    assert data["interrupted"] is True and data["games"] == 2 and data["planned_games"] == 8
    assert len(_lines(records)) == 3
    captured = capsys.readouterr()
    assert "INTERRUPTED after 2 of 8" in captured.out and "resume" in captured.err
    monkeypatch.setattr(arena, "_play_task", real)
    assert arena.main(["--game", "sueca", "--variant", "target=0", "--agents", *RANDOM4, "--games", "8",
                       "--seed", "5", "--jobs", "1", "--quiet", "--records", str(records), "--json", str(out)]) == 0
    assert json.loads(out.read_text())["resumed_games"] == 2 and len(_lines(records)) == 9


def test_two_agents_get_a_paired_difference_over_the_same_deals() -> None:
    """A B A B in Sueca: every deal is played with the teams swapped; the paired difference is the mean over
    deals of (A's outcome - B's outcome), so with both rotations of every deal it equals the difference of
    the agents' mean outcomes, and a search clearly beats random play on it."""
    out = arena.run("sueca", {"target": 0}, ["ismcts:iterations=200", "random"] * 2, games=16, seed=4, jobs=1)
    paired = out["paired"]
    assert paired["first"] == "ismcts:iterations=200" and paired["deals"] == 8
    a, b = out["agents"]
    mean_outcome = {row["spec"]: (row["wins"] + row["ties"] / 2) / row["games"] for row in out["agents"]}
    assert paired["outcome_difference"] == pytest.approx(mean_outcome[a["spec"]] - mean_outcome[b["spec"]])
    assert paired["points_difference"] == pytest.approx(a["mean_points"] - b["mean_points"])
    assert paired["outcome_difference"] > 0 and paired["points_difference_ci95"][0] > 0
    assert "paired" not in arena.run("sueca", {"target": 0}, RANDOM4, games=2, seed=4, jobs=1)


def test_sigterm_stops_a_run_like_ctrl_c(tmp_path, monkeypatch) -> None:
    import os
    import signal

    real = arena._play_task
    calls = []

    def terminated_at_the_second(task):
        calls.append(task)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGTERM)  # as a batch system stops a job
        return real(task)

    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(arena, "_play_task", terminated_at_the_second)
    out = tmp_path / "out.json"
    code = arena.main(["--game", "sueca", "--variant", "target=0", "--agents", *RANDOM4, "--games", "6",
                       "--seed", "5", "--jobs", "1", "--quiet", "--json", str(out)])
    assert code == 130
    data = json.loads(out.read_text())
    assert data["interrupted"] is True and 1 <= data["games"] <= 2
    assert signal.getsignal(signal.SIGTERM) == before  # the CLI puts the handlers back


def test_pool_summarizes_runs_of_other_seeds_as_one_sample(tmp_path, capsys) -> None:
    """``--pool``: two seeds' records read as one run (games and deals add up, the agents' wins are the
    sums, deals of different seeds stay apart); another set-up or a repeated seed is refused."""
    specs = ["ismcts:iterations=30", "random"] * 2
    runs = {}
    for seed, games in ((3, 4), (4, 6)):
        path = tmp_path / f"s{seed}.jsonl"
        runs[seed] = arena.run("sueca", {"target": 0}, specs, games=games, seed=seed, jobs=1, records_path=str(path))
    pooled = arena.pool_records([str(tmp_path / "s3.jsonl"), str(tmp_path / "s4.jsonl")])
    assert pooled["games"] == 10 and pooled["seeds"] == [3, 4] and pooled["paired"]["deals"] == 5
    for k, row in enumerate(pooled["agents"]):
        assert row["wins"] == runs[3]["agents"][k]["wins"] + runs[4]["agents"][k]["wins"]
        assert row["games"] == runs[3]["agents"][k]["games"] + runs[4]["agents"][k]["games"]
    out = tmp_path / "pooled.json"
    assert arena.main(["--pool", str(tmp_path / "s3.jsonl"), str(tmp_path / "s4.jsonl"), "--json", str(out)]) == 0
    assert "seed=3+4" in capsys.readouterr().out and json.loads(out.read_text())["games"] == 10
    arena.run("sueca", {"target": 0}, RANDOM4, games=2, seed=5, jobs=1, records_path=str(tmp_path / "r.jsonl"))
    with pytest.raises(GameError, match="differs in: specs"):
        arena.pool_records([str(tmp_path / "s3.jsonl"), str(tmp_path / "r.jsonl")])
    with pytest.raises(GameError, match="repeats seed 3"):
        arena.pool_records([str(tmp_path / "s3.jsonl"), str(tmp_path / "s3.jsonl")])
    assert arena.main(["--pool", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read the records file" in capsys.readouterr().err


def test_summary_has_the_relative_reward_of_seeds_001_in_games_without_partners() -> None:
    specs = ["t", "p", "p", "p"]
    solo = [(0,), (1,), (2,), (3,)]
    records = [arena.GameRecord(0, 0, [0, 1, 2, 3], [0.0, 13.0, 13.0, 0.0], [0.5, 0.0, 0.0, 0.5], 52),
               arena.GameRecord(0, 1, [1, 0, 2, 3], [26.0, 0.0, 0.0, 0.0], [0.0, 1 / 3, 1 / 3, 1 / 3], 52)]
    rows = {a["spec"]: a for a in arena.summarize(records, specs, solo, lower_is_better=True)["agents"]}
    # R(s,i) = sum over the others of (their points - the seat's). Hand 1: t (seat 0) took 0 of 26 -> +26;
    # hand 2: t sits in seat 1 and took 0 again -> +26.
    assert rows["t"]["mean_relative"] == pytest.approx(26.0)
    # p's six seats: 13 taken -> 26 - 4 * 13 = -26 (twice) and 0 taken -> +26 (hand 1); all 26 -> 26 - 104 = -78
    # and two clean seats -> +26 (hand 2)
    assert rows["p"]["mean_relative"] == pytest.approx((-26 - 26 + 26 - 78 + 26 + 26) / 6)
    lo, hi = rows["p"]["mean_relative_ci95"]
    assert lo < rows["p"]["mean_relative"] < hi
    higher = {a["spec"]: a for a in arena.summarize(records, specs, solo)["agents"]}
    assert higher["t"]["mean_relative"] == pytest.approx(-rows["t"]["mean_relative"])  # more points are better
    teams = arena.summarize(records, specs, [(0, 2), (1, 3)], lower_is_better=True)["agents"]
    assert all("mean_relative" not in a for a in teams)  # partnership games: no relative reward


def test_a_cheating_agent_is_labelled_in_the_summary_and_the_table(tmp_path, capsys) -> None:
    import json

    path = tmp_path / "out.json"
    assert arena.main(["--game", "bisca", "--agents", "cheat:iterations=10", "random", "--games", "2", "--seed", "1",
                       "--jobs", "1", "--unit", "hand", "--json", str(path)]) == 0
    rows = {a["spec"]: a["fair"] for a in json.loads(path.read_text(encoding="utf-8"))["agents"]}
    assert rows == {"cheat:iterations=10": False, "random": True}
    table = capsys.readouterr().out
    cheat_line = next(line for line in table.splitlines() if line.startswith("agent cheat"))
    assert "CHEATING" in cheat_line
    assert "CHEATING" not in next(line for line in table.splitlines() if line.startswith("agent random"))
