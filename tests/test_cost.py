"""The cost printed before a reproduce run (``--estimate``): games at this scale and at full size, the games
already recorded, and a time from timed decisions."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.lab import cost
from engine.lab.experiments import Experiment, Row, Setup
from engine.lab.experiments_catalog import EXPERIMENTS
from engine.lab.reproduce import main

SCOPONE = (("target", 0),)


def test_estimate_counts_whole_deals_and_times_each_agent() -> None:
    exp = Experiment("dipalma2014/test", "dipalma2014", "test", "test",
                     (Setup("scopone", ("greedy", "random", "greedy", "random"), 10, SCOPONE),
                      Setup("scopone", ("random",) * 4, 10, SCOPONE)),
                     (Row("x", "win", (0,), agent="greedy"),))
    costs = cost.estimate(exp, 0.5, seed=3)
    # 5 games of a set-up with two rotations are 3 whole deals (6 games); one rotation: 5 games
    assert [c.games for c in costs] == [6, 5]
    assert [c.full_games for c in costs] == [10, 10]
    assert all(c.moves == 36 and c.recorded == 0 for c in costs)  # 9 cards a hand each played (4 on the table)
    assert all(c.game_seconds > 0 for c in costs)
    text = cost.format_estimate(exp, 0.5, costs, jobs=1, cores=2)
    assert "2 set-up(s), 11 games; at full size (scale 1) 20 games" in text
    assert "with --jobs 1" in text


def test_estimate_plays_nothing_and_skips_recorded_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "r.jsonl"
    assert main(["dipalma2014/table-6.1", "--estimate", "--scale", "0.01", "--records", str(records)]) == 0
    assert "10 games; at full size (scale 1) 1000 games" in capsys.readouterr().out
    assert not records.exists()  # an estimate plays and writes nothing
    assert main(["dipalma2014/table-6.1", "--scale", "0.004", "--jobs", "1", "--quiet", "--records", str(records),
                 "--json", str(tmp_path / "r.json")]) == 0
    assert main(["dipalma2014/table-6.1", "--estimate", "--scale", "0.01", "--records", str(records)]) == 0
    assert "10 games (4 already in the records, 6 to play)" in capsys.readouterr().out
    assert len(EXPERIMENTS["dipalma2014/table-6.1"].setups) == 1


def test_a_run_prints_its_cost_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dipalma2014/table-6.1", "--scale", "0.002", "--jobs", "1", "--json", str(tmp_path / "r.json")]) == 0
    err = capsys.readouterr().err
    assert err.index("estimated time") < err.index("[1/1] python -m engine.arena")


def test_durations_read_naturally() -> None:
    assert [cost.duration(s) for s in (12, 600, 7200)] == ["12 s", "10 min", "2.0 h"]
