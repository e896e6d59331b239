"""Nothing is lost in the saves layer: games and answers that wait in ``saves.pending``, the data folder lock,
recovery of a damaged records database, study progress rebuilt from the records, study limits and the AI
move time cap, and the meaning checks of a loaded session."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from saves import paths, pending
from saves.autosave import AutosaveStore, SaveFormatError, decode_session, encode_session
from saves.demo import demo_session, play_to_end
from saves.lock import DataFolderLock, DataFolderLocked
from saves.records import RecordsDB, recover_into
from saves.study import Study, StudyError, StudyRun
from saves.survey import default_questionnaire, load_answers
from tests.test_study import STUDY as FULL_STUDY

STUDY = dict(FULL_STUDY, conditions=[{"id": c, "seats": ["human", "random", "random", "random"]}
                                     for c in ("c1", "c2", "c3")])  # cheap opponents: the games are played out


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "home"))
    return tmp_path / "home"


def finished(seed: int) -> Any:
    session = demo_session(seed, variant={"target": 0})
    play_to_end(session)
    return session


def all_answers(session: Any) -> dict[str, Any]:
    q = default_questionnaire()
    targets = q.targets(session.seats, 0, session.match.game.teams())
    out: dict[str, Any] = {}
    for item in q.items:
        if item.type != "likert":
            continue
        out[item.id] = 3 if item.scope == "per_game" else {t.seat: 5 for t in targets}
    return out


def test_a_kept_game_and_its_answers_are_stored_once_by_retry() -> None:
    session = finished(3)
    pending.keep_game(session)
    pending.keep_answers(session.session_id, None, all_answers(session), default_questionnaire(), "pt")
    kept = {p: p.read_bytes() for p in pending.waiting()}
    first = pending.retry()
    assert len(first.games) == 1 and len(first.answers) == 1 and first.problems == []
    assert pending.waiting() == []
    for path, data in kept.items():  # a crash after storing, before the files were removed: stored once only
        path.write_bytes(data)
    second = pending.retry()
    assert second.games == first.games
    with RecordsDB() as db:
        assert db.count() == 1
        (response,) = load_answers(db, first.games[0])
    assert response["language"] == "pt" and response["answers"]["enjoyment"] == 3


def test_answers_wait_for_their_game_and_a_locked_database_keeps_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    from saves import records

    session = finished(4)
    pending.keep_answers(session.session_id, None, all_answers(session), default_questionnaire(), "en")
    report = pending.retry()
    assert report.answers == [] and "wait for their game" in report.problems[0] and len(pending.waiting()) == 1
    pending.keep_game(session)
    monkeypatch.setattr(records, "BUSY_TIMEOUT_MS", 20)
    with RecordsDB() as holder, RecordsDB() as db:
        holder.conn.execute("BEGIN IMMEDIATE")  # another process writing for longer than the busy timeout
        report = pending.retry(db)
        holder.conn.execute("ROLLBACK")
    assert report.games == [] and "still cannot be recorded" in report.problems[0]
    assert len(pending.waiting()) == 2
    assert len(pending.retry().games) == 1 and pending.waiting() == []


def test_an_unreadable_kept_file_is_moved_aside_not_deleted() -> None:
    bad = pending.pending_dir() / "x.game.json"
    bad.write_bytes(b"{half")
    report = pending.retry()
    assert "could not be read" in report.problems[0]
    assert not bad.exists() and list(bad.parent.glob("x.game.json.corrupt-*"))


def test_the_data_folder_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    first = DataFolderLock(tmp_path)
    first.acquire()
    with pytest.raises(DataFolderLocked, match=r"process \d+"):
        DataFolderLock(tmp_path).acquire()
    first.release()
    with DataFolderLock(tmp_path) as again:
        assert again.held


def test_recovery_copies_readable_rows_and_drops_orphans(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    with RecordsDB(path) as db:
        ids = [db.record_game(finished(seed)) for seed in range(40)]
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn = sqlite3.connect(path)
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
    leaves = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name = 'games' AND pagetype = 'leaf'")] \
        if _has_dbstat(conn) else []
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    victim = leaves[0] if leaves else root
    data[(victim - 1) * page_size + 8:victim * page_size] = bytes(page_size - 8)
    path.write_bytes(bytes(data))
    RecordsDB._checked.clear()
    with RecordsDB(path) as db:
        count = db.count()
        assert 0 < count < len(ids) if leaves else count < len(ids)
        assert f"with the {count} game(s)" in db.warnings[0]
        orphans = db.conn.execute("SELECT COUNT(*) FROM seats WHERE game_id NOT IN (SELECT id FROM games)")
        assert orphans.fetchone()[0] == 0
        for summary in db.list_games():  # every recovered game loads
            assert db.load_record(summary.id).seats
    (aside,) = tmp_path.glob("r.sqlite3.corrupt-*")
    assert aside.read_bytes() == bytes(data)  # the damaged file is kept byte for byte
    assert not list(tmp_path.glob(".*.tmp"))


def _has_dbstat(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("SELECT 1 FROM dbstat LIMIT 1")
    except sqlite3.Error:
        return False
    return True


def test_recover_into_a_file_that_is_no_database_recovers_nothing(tmp_path: Path) -> None:
    junk = tmp_path / "junk"
    junk.write_bytes(b"not a database at all" * 100)
    with RecordsDB(tmp_path / "new.sqlite3") as db:
        assert recover_into(db.conn, junk) == 0 and db.count() == 0


def play_study_game(run: StudyRun) -> None:
    with RecordsDB() as db:
        plan = run.next_game(db)
        assert plan is not None
        session = run.new_session(plan)
        play_to_end(session)
        db.record_game(session)


PROGRESS = b'{"format": "cardtable-study-progress", '


@pytest.mark.parametrize("damage", [b"", b"{not json", PROGRESS + b'"participant_index": -4}',
                                    PROGRESS + b'"participant_index": 1, "consent_at": "x"}'])
def test_a_damaged_progress_file_is_rebuilt_from_the_records(damage: bytes) -> None:
    study = Study.from_dict(copy.deepcopy(STUDY), None, "study.json")
    for name in ("p0", "p1", "p2"):
        StudyRun.start(study, name).give_consent()
    run = StudyRun.start(study, "p2")
    order = [p.condition.id for p in run.plan()]
    consent = run.consent_at
    play_study_game(run)
    run.progress_file.write_bytes(damage)
    again = StudyRun.start(study, "p2")
    assert again.rebuilt_from is not None and again.rebuilt_from.exists()
    assert again.participant_index == 2 and [p.condition.id for p in again.plan()] == order
    assert again.consented and again.consent_at is not None and again.consent_at >= consent
    with RecordsDB() as db:
        assert len(again.completed_games(db)) == 1
    assert json.loads(again.progress_file.read_text())["participant_index"] == 2  # written back


def test_a_deleted_progress_file_is_rebuilt_too() -> None:
    study = Study.from_dict(copy.deepcopy(STUDY), None, "study.json")
    for name in ("p0", "p1"):
        StudyRun.start(study, name).give_consent()
    run = StudyRun.start(study, "p1")
    play_study_game(run)
    run.progress_file.unlink()
    again = StudyRun.start(study, "p1")
    assert again.participant_index == 1 and again.consented and again.rebuilt_from is None


def test_a_damaged_progress_file_without_records_uses_the_autosaved_game() -> None:
    study = Study.from_dict(copy.deepcopy(STUDY), None, "study.json")
    StudyRun.start(study, "a").give_consent()
    run = StudyRun.start(study, "b")
    run.give_consent()
    with RecordsDB() as db:
        session = run.new_session(run.next_game(db))
    AutosaveStore().save(session)
    run.progress_file.write_bytes(b"\x00\x00")
    again = StudyRun.start(study, "b")
    assert again.participant_index == 1 and again.consented


def test_app_resumes_a_participant_whose_progress_file_is_damaged(tmp_path: Path) -> None:
    from app.study import StudyContext

    study = Study.from_dict(copy.deepcopy(STUDY), None, "study.json")
    ctx = StudyContext(study, tmp_path / "study.json")
    for name in ("p0", "p1"):
        ctx.begin(name)
    play_study_game(ctx.run)
    ctx.run.progress_file.write_text("garbage")
    resumed = StudyContext(study, tmp_path / "study.json").existing_run("p1")
    assert resumed is not None and resumed.participant_index == 1  # no new index, no consent asked again


@pytest.mark.parametrize(("change", "message"), [
    ({"conditions": [{"id": "x", "seats": ["human", "ismcts:seconds=86400", "random", "random"]}]},
     "seconds=86400 is out of range (seconds must be from 0 to 30)"),
    ({"conditions": [{"id": "x", "seats": ["human", "ismcts:workers=64", "random", "random"]}]},
     "workers=64 is out of range (workers must be from 0 to 8)"),
    ({"conditions": [{"id": "x", "seats": ["human", "ismcts:seconds=nan", "random", "random"]}]},
     "seconds=nan is out of range"),
    ({"conditions": [{"id": f"c{i}", "seats": ["human", "random", "random", "random"]} for i in range(26)],
      "games_per_condition": 1000}, "must be a whole number from 1 to 200"),
    ({"conditions": [{"id": f"c{i}", "seats": ["human", "random", "random", "random"]} for i in range(26)],
      "games_per_condition": 10}, "26 conditions x 10 games per condition = 260 games per participant; at most 200"),
])
def test_study_files_with_absurd_values_are_refused_with_the_valid_range(change: dict[str, Any], message: str) -> None:
    doc = dict(copy.deepcopy(STUDY), **change)
    with pytest.raises(StudyError) as err:
        Study.from_dict(doc, None, "study.json")
    assert str(err.value).startswith("study.json") and message in str(err.value)


class CapturingWorker:
    def __init__(self) -> None:
        self.requests: list[Any] = []

    def request(self, req: Any) -> int:
        self.requests.append(req)
        return len(self.requests)

    def poll(self) -> list[Any]:
        return []

    def cancel(self) -> None:
        pass


@pytest.mark.parametrize(("spec", "limit", "expected"), [
    ("ismcts:seconds=86400", None, 30.0), ("random", None, 30.0), ("ismcts:seconds=2", None, 2.0),
    ("ismcts:iterations=100000000", None, 30.0), ("ismcts:seconds=20", 5.0, 5.0)])
def test_every_ai_move_in_the_app_has_a_hard_time_cap(spec: str, limit: float | None, expected: float) -> None:
    from app.controller import Controller
    from saves.session import Seat

    session = demo_session(1)
    session.seats = [Seat("ai", f"AI {i}", spec=spec) for i in range(4)]
    worker = CapturingWorker()
    ctl = Controller(session, worker=worker, ai_time_limit=limit)
    ctl.update()
    assert worker.requests and worker.requests[0].time_limit == expected


@pytest.mark.parametrize(("field", "value", "message"), [
    ("dealer", 99, "dealer 99 is not a seat (0 to 3)"), ("dealer", -1, "dealer -1 is not a seat"),
    ("hand_index", -1, "hand index -1 is out of range"), ("hand_index", 5, "0 scored hands do not fit hand index 5"),
])
def test_a_save_with_an_impossible_match_is_refused(field: str, value: int, message: str) -> None:
    session = demo_session(2)
    body = json.loads(encode_session(session))["session"]
    body["match"][field] = value
    from engine.game import StateFormatError
    from saves.session import GameSession

    with pytest.raises(StateFormatError, match="impossible match") as refused:  # Match.validate
        GameSession.from_dict(body)
    assert message in str(refused.value)
    data = _envelope(body)
    with pytest.raises(SaveFormatError, match="impossible") as err:
        decode_session(data)
    assert message in str(err.value)


def test_a_save_with_negative_counters_or_extra_hands_of_moves_is_refused() -> None:
    session = demo_session(2)
    body = json.loads(encode_session(session))["session"]
    for change, message in ((("hints_used", -3), "negative"), (("moves", [[], [], []]), "moves of 3 hands")):
        forged = copy.deepcopy(body)
        forged[change[0]] = change[1]
        with pytest.raises(SaveFormatError, match=message):
            decode_session(_envelope(forged))


def _envelope(body: dict[str, Any]) -> bytes:
    import hashlib

    from saves.autosave import AUTOSAVE_FORMAT, AUTOSAVE_VERSION, _canonical

    env = {"format": AUTOSAVE_FORMAT, "version": AUTOSAVE_VERSION, "saved_at": 0.0,
           "sha256": hashlib.sha256(_canonical(body)).hexdigest(), "session": body}
    return _canonical(env)


def test_a_save_whose_ai_asks_for_64_search_processes_is_refused() -> None:
    body = json.loads(encode_session(demo_session(2)))["session"]
    body["seats"][1]["spec"] = "ismcts:workers=64"
    with pytest.raises(SaveFormatError, match="seat 1: workers=64 is out of range"):
        decode_session(_envelope(body))


def test_a_study_game_waiting_to_be_recorded_counts_as_played() -> None:
    study = Study.from_dict(copy.deepcopy(STUDY), None, "study.json")
    run = StudyRun.start(study, "p")
    run.give_consent()
    with RecordsDB() as db:
        first = run.next_game(db)
        assert first is not None and first.number == 0
        session = run.new_session(first)
        play_to_end(session)
        pending.keep_game(session)  # the database could not take it at the match end
        nxt = run.next_game(db)
        assert nxt is not None and nxt.number == 1  # the participant is not asked to replay game 1
    pending.retry()
    with RecordsDB() as db:
        assert list(run.completed_games(db)) == [0] and run.pending_survey(db) is not None


def test_the_shelf_keeps_one_unfinished_game_per_kind() -> None:
    from saves.shelf import Shelf

    shelf = Shelf()
    assert shelf.games() == []
    sueca, bisca = demo_session(1), demo_session(2, game="bisca")
    shelf.put(sueca)
    shelf.put(bisca)
    shelf.put(demo_session(3))  # a second Sueca takes the first one's place
    assert shelf.games() == ["bisca", "sueca"]
    assert shelf.load("bisca").session.session_id == bisca.session_id
    assert shelf.peek("sueca").seed == 3
    shelf.drop("sueca")
    assert shelf.games() == ["bisca"] and shelf.peek("sueca") is None
    with pytest.raises(ValueError, match="bad game name"):
        shelf.drop("../x")
