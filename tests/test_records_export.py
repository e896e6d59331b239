"""The exporter: CSV/JSON content, the joined study export, and consistent snapshots while the app writes."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import textwrap
from pathlib import Path

from saves.demo import demo_session, play_to_end
from saves.export import export, main, read_snapshot
from saves.records import RecordsDB
from saves.survey import save_answers

ROOT = Path(__file__).resolve().parent.parent
ANSWERS = {"skill": {1: 5, 3: 2}, "human_likeness": {1: 4, 3: 4}, "predictability": {1: 1, 3: 7},
           "fairness": {1: 2, 3: 6}, "enjoyment": 6, "comment": "ótimo, \"quoted\", comma"}


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _fill(db_path: Path) -> list[int]:
    ids = []
    with RecordsDB(db_path) as db:
        for seed in range(3):
            s = demo_session(seed)
            if seed == 2:
                s.study = {"study_id": "st", "participant": "P1", "participant_index": 0, "condition": "c1",
                           "condition_label": "A", "game_number": 0}
            play_to_end(s)
            ids.append(db.record_game(s))
        save_answers(ids[0], ANSWERS, db=db)
        save_answers(ids[2], ANSWERS, db=db, language="pt")
    return ids


def test_export_writes_every_table(tmp_path: Path) -> None:
    db_path = tmp_path / "r.sqlite3"
    ids = _fill(db_path)
    out = tmp_path / "out"
    assert main(["--out", str(out), "--db", str(db_path)]) == 0
    games = _read_csv(out / "games.csv")
    assert [int(g["id"]) for g in games] == ids
    assert json.loads(games[0]["variant"])["target"] == 4
    assert len(_read_csv(out / "seats.csv")) == 12
    moves = _read_csv(out / "moves.csv")
    with RecordsDB(db_path) as db:
        records = [db.load_record(i) for i in ids]
    assert len(moves) == sum(len(h) for r in records for h in r.moves)
    assert [int(m["move"]) for m in moves if int(m["game_id"]) == ids[0]] == sum(records[0].moves, [])
    assert len(_read_csv(out / "hands.csv")) == sum(len(r.hands) for r in records)
    answers = _read_csv(out / "survey_answers.csv")
    assert len(answers) == 2 * (4 * 2 + 2)
    comment = next(a for a in answers if a["item_id"] == "comment")
    assert json.loads(comment["value"]) == ANSWERS["comment"]
    study = _read_csv(out / "study.csv")
    assert len(study) == 10 and {r["participant"] for r in study} == {"P1"}
    skill = [r for r in study if r["item_id"] == "skill"]
    assert {(r["opponent_label"], r["opponent_spec"], r["condition"]) for r in skill} == {
        ("Opponent B", "random", "c1"), ("Opponent D", "random", "c1")}
    data = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert data["format"] == "cardtable-export" and len(data["games"]) == 3
    g0 = data["games"][0]
    assert [m[3] for m in g0["moves"]] == sum(records[0].moves, [])
    (response,) = g0["survey_responses"]
    by_item = {(a["item_id"], a["seat"]): a["value"] for a in response["answers"]}
    assert by_item[("enjoyment", -1)] == 6 and by_item[("skill", 3)] == 2 and len(by_item) == 10
    assert data["games"][1]["survey_responses"] == []


def test_missing_database_is_a_clear_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--out", str(tmp_path / "o"), "--db", str(tmp_path / "none.sqlite3")]) == 1
    assert "no records database" in capsys.readouterr().err


def test_export_never_sees_a_half_written_game(tmp_path: Path) -> None:
    db_path = tmp_path / "r.sqlite3"
    _fill(db_path)
    with RecordsDB(db_path) as db:
        db.conn.execute("BEGIN IMMEDIATE")
        db.conn.execute("INSERT INTO games SELECT 99, 'x', game, variant, seed, first_dealer, started_at, "
                        "finished_at, duration_s, hands_played, totals, winner_teams, winner_seats, human_seat, "
                        "human_outcome, human_points, hints_used, undos_used, app_version, study_id, participant, "
                        "condition, study, meta, replay_error FROM games WHERE id = 1")
        during = read_snapshot(db_path)  # the writer's transaction is open: seats/hands not yet written
        assert [g["id"] for g in during["games"]] == [1, 2, 3]
        db.conn.execute("ROLLBACK")


WRITER = textwrap.dedent("""
    import sys
    from saves.demo import demo_session, play_to_end
    from saves.records import RecordsDB
    from saves.survey import save_answers
    answers = {"skill": {1: 5, 3: 2}, "human_likeness": {1: 4, 3: 4}, "predictability": {1: 1, 3: 7},
               "fairness": {1: 2, 3: 6}, "enjoyment": 6}
    with RecordsDB(sys.argv[1]) as db:
        for seed in range(int(sys.argv[2])):
            s = demo_session(seed, variant={"target": 0})
            play_to_end(s)
            save_answers(db.record_game(s), answers, db=db)
""")


def test_concurrent_writer_and_exporter_stay_consistent(tmp_path: Path) -> None:
    db_path = tmp_path / "r.sqlite3"
    RecordsDB(db_path).close()
    n_games = 40
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db_path), str(n_games)], cwd=ROOT)
    snapshots = 0
    try:
        while True:
            finished = writer.poll() is not None
            tables = read_snapshot(db_path)
            _check_consistent(tables)
            snapshots += 1
            if finished:
                break
    finally:
        writer.wait()
    assert writer.returncode == 0
    tables = read_snapshot(db_path)
    _check_consistent(tables)
    assert len(tables["games"]) == n_games
    counts = export(tmp_path / "out", db_path)
    assert counts["games.csv"] == n_games and counts["survey_answers.csv"] == n_games * 9
    assert snapshots >= 1


def _check_consistent(tables: dict) -> None:  # type: ignore[type-arg]
    games = {g["id"]: g for g in tables["games"]}
    seats: dict[int, int] = {}
    for s in tables["seats"]:
        seats[s["game_id"]] = seats.get(s["game_id"], 0) + 1
    assert seats == {gid: 4 for gid in games}
    hands: dict[int, int] = {}
    for h in tables["hands"]:
        hands[h["game_id"]] = hands.get(h["game_id"], 0) + 1
    assert hands == {gid: g["hands_played"] for gid, g in games.items()}
    moves: dict[int, int] = {}
    for m in tables["moves"]:
        moves[m["game_id"]] = moves.get(m["game_id"], 0) + 1
    assert moves == {gid: 40 * g["hands_played"] for gid, g in games.items()}
    per_response: dict[int, int] = {}
    for a in tables["answers"]:
        assert a["game_id"] in games
        per_response[a["response_id"]] = per_response.get(a["response_id"], 0) + 1
    assert set(per_response.values()) <= {9}
