"""Every command-line tool answers bad input with one line on stderr and a non-zero exit, never a traceback, and
before anything is played (nothing on stdout)."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from saves.export import main as export_main
from tests.test_records_export import _fill

ROOT = Path(__file__).resolve().parent.parent
SUECA = ["--game", "sueca", "--agents", "random", "random", "random", "random", "--games", "2"]

CASES = {
    "arena --json into a missing folder": ["engine.arena", *SUECA, "--json", "{tmp}/missing/out.json"],
    "arena --json a folder": ["engine.arena", *SUECA, "--json", "{tmp}"],
    "arena --json under a file": ["engine.arena", *SUECA, "--json", "{tmp}/file.txt/out.json"],
    "arena --records a binary file": ["engine.arena", *SUECA, "--records", "{tmp}/binary.jsonl"],
    "arena --records into a missing folder": ["engine.arena", *SUECA, "--records", "{tmp}/missing/r.jsonl"],
    "arena --pool a binary file": ["engine.arena", "--pool", "{tmp}/binary.jsonl"],
    "arena --pool in a missing folder": ["engine.arena", "--pool", "{tmp}/missing/r.jsonl"],
    "arena --jobs -1": ["engine.arena", *SUECA, "--jobs", "-1"],
    "arena --games 0": ["engine.arena", *SUECA, "--games", "0"],
    "arena unknown option": ["engine.arena", *SUECA, "--gmaes", "3"],
    "arena unknown game": ["engine.arena", "--game", "nope", "--agents", "random"],
    "fuzz --seconds nan": ["engine.fuzz", "--seconds", "nan", "--hands", "1"],
    "fuzz --seconds -1": ["engine.fuzz", "--seconds", "-1", "--hands", "1"],
    "fuzz --hands -1": ["engine.fuzz", "--hands", "-1"],
    "fuzz --out a file": ["engine.fuzz", "--hands", "1", "--out", "{tmp}/file.txt"],
    "bench --seconds -1": ["engine.bench", "--what", "playouts", "--game", "sueca", "--seconds", "-1"],
    "bench --seconds inf": ["engine.bench", "--what", "playouts", "--game", "sueca", "--seconds", "inf"],
    "bench --positions -1": ["engine.bench", "--game", "sueca", "--agent", "random", "--positions", "-1"],
    "bench --json into a missing folder": ["engine.bench", "--game", "sueca", "--agent", "random",
                                           "--positions", "1", "--json", "{tmp}/missing/b.json"],
    "depth --positions -1": ["engine.lab.depth", "--game", "hearts", "--agents", "ismcts:iterations=10",
                             "--positions", "-1"],
    "depth --json a folder": ["engine.lab.depth", "--game", "hearts", "--agents", "ismcts:iterations=10",
                              "--positions", "1", "--json", "{tmp}"],
    "tournament --games 0": ["engine.lab.tournament", "sides", "--game", "sueca", "--agents", "random",
                             "--games", "0"],
    "tournament --json under a file": ["engine.lab.tournament", "sides", "--game", "sueca", "--agents", "random",
                                       "--games", "1", "--json", "{tmp}/file.txt/t.json"],
    "tournament unknown game": ["engine.lab.tournament", "sides", "--game", "nope", "--agents", "random"],
    "tournament unknown agent": ["engine.lab.tournament", "sides", "--game", "sueca", "--agents", "nope"],
    "tournament pairs of a 4-seat game": ["engine.lab.tournament", "pairs", "--game", "sueca", "--agents", "random",
                                          "heuristic"],
    "counterfactual --deals 0": ["engine.counterfactual", "--game", "bisca", "--deals", "0"],
    "counterfactual unknown game": ["engine.counterfactual", "--game", "nope"],
    "counterfactual unknown agent": ["engine.counterfactual", "--game", "bisca", "--agent", "nope"],
    "counterfactual a cheating player": ["engine.counterfactual", "--game", "bisca", "--compare", "cheat"],
    "counterfactual --json a folder": ["engine.counterfactual", "--game", "bisca", "--deals", "1", "--json", "{tmp}"],
    "export --db a folder": ["saves.export", "--out", "{tmp}/out", "--db", "{tmp}"],
    "export --out an existing file": ["saves.export", "--out", "{tmp}/file.txt"],
    "export --out under a file": ["saves.export", "--out", "{tmp}/file.txt/out"],
    "export --db a missing file": ["saves.export", "--out", "{tmp}/out", "--db", "{tmp}/none.sqlite3"],
    "export --db a binary file": ["saves.export", "--out", "{tmp}/out", "--db", "{tmp}/binary.jsonl"],
    "survey --check a missing file": ["saves.survey", "--check", "{tmp}/none.json"],
    "survey --check a binary file": ["saves.survey", "--check", "{tmp}/binary.jsonl"],
    "survey --write-default into a missing folder": ["saves.survey", "--write-default", "{tmp}/missing/q.json"],
}


def _run(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CARDTABLE_HOME=str(tmp / "home"), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False)


def _assert_one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_gets_one_line_and_a_non_zero_exit_before_any_run(case: str, tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("not a folder\n", encoding="utf-8")
    (tmp_path / "binary.jsonl").write_bytes(bytes(range(256)) * 4)
    done = _run([a.replace("{tmp}", str(tmp_path)) for a in CASES[case]], tmp_path)
    line = _assert_one_line_error(done)
    assert done.stdout == ""  # nothing was played or written before the error
    assert len(line.replace(str(tmp_path), "DIR")) < 240


def test_unknown_option_lists_the_valid_ones(tmp_path: Path) -> None:
    line = _assert_one_line_error(_run(["engine.fuzz", "--secs", "3"], tmp_path))
    assert "--secs" in line and "--seconds" in line and "--hands" in line


def test_export_keeps_a_damaged_json_cell_as_text_and_says_so(tmp_path: Path) -> None:
    db_path = tmp_path / "r.sqlite3"
    ids = _fill(db_path)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE games SET totals = '[1, 2' WHERE id = ?", (ids[1],))
        conn.execute("UPDATE survey_answers SET value = '=HYPERLINK(\"http://example.com\")' "
                     "WHERE item_id = 'comment' AND response_id = (SELECT min(id) FROM survey_responses)")
    conn.close()
    out = tmp_path / "out"
    done = _run(["saves.export", "--out", str(out), "--db", str(db_path)], tmp_path)
    line = _assert_one_line_error(done)
    assert "damaged JSON cells were kept as text" in line and "and 1 more" in line
    data = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert [g["totals"] for g in data["games"] if g["id"] == ids[1]] == ["[1, 2"]
    comments = [a["value"] for g in data["games"] for r in g["survey_responses"] for a in r["answers"]
                if a["item_id"] == "comment"]
    assert '=HYPERLINK("http://example.com")' in comments  # the JSON export keeps the text as it is
    with open(out / "survey_answers.csv", newline="", encoding="utf-8") as f:
        values = [r["value"] for r in csv.DictReader(f) if r["item_id"] == "comment"]
    assert "'=HYPERLINK(\"http://example.com\")" in values  # the CSV cell cannot run as a formula


def test_csv_export_escapes_formula_cells_but_not_numbers(tmp_path: Path) -> None:
    db_path = tmp_path / "r.sqlite3"
    ids = _fill(db_path)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE seats SET display_name = '@SUM(A1:A9)' WHERE game_id = ? AND seat = 1", (ids[0],))
        conn.execute("UPDATE seats SET display_name = '+1+1' WHERE game_id = ? AND seat = 2", (ids[0],))
        conn.execute("UPDATE seats SET display_name = '-3' WHERE game_id = ? AND seat = 3", (ids[0],))
        conn.execute("UPDATE games SET participant = '=1+2' WHERE id = ?", (ids[2],))
    conn.close()
    out = tmp_path / "out"
    assert export_main(["--out", str(out), "--db", str(db_path)]) == 0
    with open(out / "seats.csv", newline="", encoding="utf-8") as f:
        names = {int(r["seat"]): r["display_name"] for r in csv.DictReader(f) if int(r["game_id"]) == ids[0]}
    assert names[1] == "'@SUM(A1:A9)" and names[2] == "'+1+1" and names[3] == "-3"
    with open(out / "games.csv", newline="", encoding="utf-8") as f:
        games = {int(r["id"]): r for r in csv.DictReader(f)}
    assert games[ids[2]]["participant"] == "'=1+2"
    assert all(not r["human_points"].startswith("'") for r in games.values())
    data = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert [g["participant"] for g in data["games"] if g["id"] == ids[2]] == ["=1+2"]
