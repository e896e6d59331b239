"""``--backend local|ray [--address ADDR]`` of the arena, the ladder and reproduce: bad values and a missing
``ray`` package fail in one line before anything runs (no Ray needed; the Ray runs themselves are in
tests/test_reproduce_cluster.py)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.lab import arena, ladder, reproduce

MAINS: dict[str, Callable[[list[str]], int]] = {"arena": arena.main, "ladder": ladder.main, "reproduce": reproduce.main}


def _args(tool: str, tmp_path: Path) -> list[str]:
    records = str(tmp_path / "records.jsonl")
    if tool == "arena":
        return ["--game", "scopone", "--variant", "target=0", "--agents", "greedy", "random", "greedy", "random",
                "--games", "4", "--jobs", "1", "--quiet", "--records", records]
    if tool == "ladder":
        return ["--game", "scopone", "--variant", "target=0", "--agents", "greedy", "random",
                "--seconds-per-move", "0.01", "--deals", "1", "--jobs", "1", "--quiet", "--records", records]
    return ["dipalma2014/table-6.1", "--scale", "0.002", "--jobs", "1", "--quiet", "--records", records,
            "--json", str(tmp_path / "out.json")]


def _one_line_error(tool: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        MAINS[tool](argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "error: " in err
    return err


@pytest.mark.parametrize("tool", sorted(MAINS))
def test_bad_backend_options_fail_before_anything_runs(tool: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    base = _args(tool, tmp_path)
    err = _one_line_error(tool, [*base, "--backend", "spark"], capsys)
    assert "'local'" in err and "'ray'" in err  # the valid backends are listed
    assert "--address needs --backend ray" in _one_line_error(tool, [*base, "--address", "auto"], capsys)
    assert not list(tmp_path.iterdir())  # no records, no result: nothing ran


@pytest.mark.parametrize("tool", sorted(MAINS))
def test_missing_ray_names_the_extra_before_anything_runs(tool: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # importing ray now fails as if it were not installed
    err = _one_line_error(tool, [*_args(tool, tmp_path), "--backend", "ray", "--address", "auto"], capsys)
    assert "pip install '.[cluster]'" in err
    assert not list(tmp_path.iterdir())


def test_local_backend_is_the_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = _args("arena", tmp_path)
    assert arena.main([*argv, "--json", str(tmp_path / "a.json")]) == 0
    assert arena.main([*argv, "--backend", "local", "--json", str(tmp_path / "b.json")]) == 0
    first = (tmp_path / "a.json").read_text().split('"games"', 1)[1].split('"seconds"')[0]
    second = (tmp_path / "b.json").read_text().split('"games"', 1)[1].split('"seconds"')[0]
    assert first == second
