"""Game records: storing, listing, loading, replaying, statistics, schema versions and damaged databases."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from saves import records
from saves.demo import demo_session, make_agents, play_to_end, step
from saves.records import RecordsDB, RecordsError, Stats, replay
from saves.session import GameSession, Seat


def _finished(seed: int, **kwargs: object) -> GameSession:
    session = demo_session(seed, **kwargs)  # type: ignore[arg-type]
    play_to_end(session)
    return session


@pytest.fixture
def db(tmp_path: Path) -> RecordsDB:
    with RecordsDB(tmp_path / "records.sqlite3") as d:
        yield d


def test_record_load_and_replay_reproduce_the_game(db: RecordsDB) -> None:
    session = _finished(11)
    session.hints_used, session.undos_used = 3, 2
    rid = db.record_game(session, finished_at=session.started_at + 60)
    rec = db.load_record(rid)
    assert rec.game == "sueca" and rec.seed == 11 and rec.moves == session.moves
    assert rec.totals == session.match.totals and rec.winner_seats == session.match.winner_seats()
    assert rec.hands == [h.to_dict() for h in session.match.hands]
    assert rec.seats == session.seats
    assert (rec.hints_used, rec.undos_used, rec.duration_s) == (3, 2, 60)
    assert rec.app_version and rec.replay_error is None
    steps = list(replay(rec))
    assert len(steps) == sum(len(h) + 1 for h in session.moves)
    assert steps[-1].state == session.match.state and steps[-1].totals == session.match.totals
    results = [s.result for s in steps if s.result is not None]
    assert [r.to_dict() for r in results] == rec.hands
    # positions go forwards move by move: each step's state = previous state + its move
    for before, after in zip(steps, steps[1:], strict=False):
        if after.move is not None:
            expected = before.state.clone()
            expected.apply(after.move)
            assert expected == after.state
            assert after.seat == before.state.current_player


def test_a_preset_seat_is_recorded_with_the_spec_it_played(db: RecordsDB) -> None:
    from engine.presets import preset_spec

    session = _finished(12)
    session.seats[1] = Seat("ai", "B", spec="", preset="strong")
    session.seats[3] = Seat("ai", "D", spec="random", preset="")
    rec = db.load_record(db.record_game(session))
    assert rec.seats[1].preset == "strong"
    assert rec.seats[1].spec == preset_spec(rec.game, "strong")  # presets change between versions
    assert rec.seats[3].spec == "random" and rec.seats[0] == session.seats[0]


def test_a_game_is_recorded_once(db: RecordsDB) -> None:
    session = _finished(2)
    assert db.record_game(session) == db.record_game(session)
    assert db.count() == 1


def test_unfinished_game_is_refused(db: RecordsDB) -> None:
    session = demo_session(1)
    step(session, make_agents(session))
    with pytest.raises(RecordsError, match="not finished"):
        db.record_game(session)
    assert db.count() == 0


def test_unreproducible_moves_are_still_recorded_and_flagged(db: RecordsDB) -> None:
    session = _finished(4)
    session.moves[1] = session.moves[1][:-1]  # a lost move
    rid = db.record_game(session)
    rec = db.load_record(rid)
    assert rec.replay_error
    with pytest.raises(RecordsError, match="cannot be replayed"):
        list(replay(rec))


def test_list_games_newest_first_and_filtered(db: RecordsDB) -> None:
    ids = [db.record_game(_finished(s), finished_at=1000.0 + s) for s in range(3)]
    listed = db.list_games()
    assert [g.id for g in listed] == ids[::-1]
    assert listed[0].opponents == ["random", "random"]
    assert db.list_games(game="hearts") == []
    assert [g.id for g in db.list_games(limit=1, offset=1)] == [ids[1]]


def test_statistics_from_the_human_point_of_view(db: RecordsDB) -> None:
    outcomes = []
    for seed in range(8):
        session = _finished(seed)
        session.seats[1] = Seat("ai", "B", spec="random", preset="easy" if seed % 2 else "hard")
        db.record_game(session, finished_at=float(seed))
        winners = session.match.winner_seats()
        outcomes.append((1.0 if 0 in winners else 0.0 if winners else 0.5, session.match.totals[0], seed % 2))
    expected = Stats()
    for o, p, _ in outcomes:
        expected.add(o, p)
    by_game = db.statistics("game")
    assert by_game["sueca"] == expected == db.statistics("all")["all"]
    assert by_game["sueca"].games == 8
    assert by_game["sueca"].wins == sum(o == 1.0 for o, _, _ in outcomes)
    by_opp = db.statistics("opponent")
    assert set(by_opp) == {"easy", "hard", "random"}  # seat 3 keeps the plain "random" spec
    assert by_opp["easy"].games == 4 and by_opp["random"].games == 8
    assert db.statistics("game_opponent")["sueca/easy"] == by_opp["easy"]
    with pytest.raises(ValueError, match="statistics by 'seat'"):
        db.statistics("seat")


def test_delete_removes_linked_rows(db: RecordsDB) -> None:
    from saves.survey import save_answers

    keep, gone = db.record_game(_finished(1)), db.record_game(_finished(2))
    answers = {"skill": {1: 5, 3: 2}, "human_likeness": {1: 4, 3: 4}, "predictability": {1: 1, 3: 7},
               "fairness": {1: 2, 3: 6}, "enjoyment": 6}
    save_answers(gone, answers, db=db)
    db.delete_game(gone)
    assert [g.id for g in db.list_games()] == [keep]
    for table in ("seats", "hands", "moves", "survey_responses"):
        column = "game_id"
        assert db.conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (gone,)).fetchone()[0] == 0
    assert db.conn.execute("SELECT COUNT(*) FROM survey_answers").fetchone()[0] == 0


def test_stats_streaks() -> None:
    s = Stats()
    for o in [1, 1, 0, 1, 1, 1, 0.5, 1]:
        s.add(o, 2.0)
    assert (s.games, s.wins, s.draws, s.losses) == (8, 6, 1, 1)
    assert (s.current_streak, s.best_streak) == (1, 3)
    assert s.win_pct == 75.0 and s.average_points == 2.0


def test_all_ai_games_are_not_in_statistics(db: RecordsDB) -> None:
    db.record_game(_finished(3, human_seat=None))
    assert db.statistics() == {}
    assert db.list_games()[0].human_seat is None


def test_wal_mode_and_schema_version(db: RecordsDB) -> None:
    assert db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.conn.execute("SELECT version FROM schema_version").fetchone()[0] == records.SCHEMA_VERSION


def test_newer_database_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    RecordsDB(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = 99")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(records.NewerDatabaseError, match="newer"):
        RecordsDB(path)
    assert path.read_bytes() == before


def test_schema_migrations_run_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.sqlite3"
    with RecordsDB(path) as d:
        d.record_game(_finished(1))
    monkeypatch.setattr(records, "SCHEMA_MIGRATIONS",
                        [*records.SCHEMA_MIGRATIONS, "ALTER TABLE games ADD COLUMN note TEXT DEFAULT 'x'"])
    monkeypatch.setattr(records, "SCHEMA_VERSION", len(records.SCHEMA_MIGRATIONS))
    with RecordsDB(path) as d:
        assert d.conn.execute("SELECT note FROM games").fetchone()[0] == "x"
        assert d.conn.execute("SELECT version FROM schema_version").fetchone()[0] == records.SCHEMA_VERSION
        assert d.count() == 1


def test_garbage_database_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with RecordsDB(path) as d:
        assert d.count() == 0
        assert "moved to" in d.warnings[0]
    (aside,) = tmp_path.glob("r.sqlite3.corrupt-*")
    assert aside.read_bytes() == b"this is not a database" * 100
