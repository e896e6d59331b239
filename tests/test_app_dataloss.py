"""Nothing a player produces is lost, driven through the real app headless: a match end while another process
locks the records database, a full disk during record and survey writes, two apps on one CARDTABLE_HOME, New
game over an unfinished game, a damaged records database, a hand-edited save, leftovers of interrupted writes."""

from __future__ import annotations

import errno
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from app import i18n  # noqa: E402
from app.workers import ThreadWorker  # noqa: E402
from tests.test_app import open_table, play_hand  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def make_app() -> Any:
    from app.main import App

    application = App((1024, 640), headless=True, worker_factory=ThreadWorker)
    application.settings.animation_speed = 0
    i18n.set_language("en")
    return application


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def app(home: Path) -> Any:
    application = make_app()
    yield application
    application.shutdown()


def finish_match(app: Any, seed: int = 13) -> Any:
    """Play a one-hand Sueca match by clicking; returns the match-end screen."""
    screen = open_table(app, "sueca", {"target": 0}, seed=seed)
    play_hand(app, screen, seed=seed)
    app.top.next()
    end = app.top
    assert end.name == "match_end"
    return end


def answer_survey(app: Any) -> Any:
    survey = app.top
    assert survey.name == "survey"
    for target, items in survey.pages:
        for item in items:
            if item.type == "likert":
                survey.set_value(item, target, 4)
    for _ in survey.pages[:-1]:
        assert survey.next_page() is not False
    return survey


def restart(app: Any) -> Any:
    """Close the app and start it again on the same data folder (the next start)."""
    from app.screens.menu import MenuScreen

    app.shutdown()
    again = make_app()
    again.push(MenuScreen(again))
    return again


def recorded_games() -> list[Any]:
    from saves.records import RecordsDB

    with RecordsDB() as db:
        return db.list_games()


def child(code: str, home: Path) -> subprocess.Popen[str]:
    """A second process on the same CARDTABLE_HOME; it prints one line when ready and ends when its stdin closes."""
    env = dict(os.environ, CARDTABLE_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:  # pygame may greet first
        if line.strip() == "ready":
            return proc
    raise AssertionError(f"the second process ended early (exit status {proc.wait()})")


def stop(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait()


HOLD_DATABASE = """
import sqlite3, sys
from saves.records import RecordsDB
RecordsDB().close()
conn = sqlite3.connect(RecordsDB().path, isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("ready", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


def test_match_end_while_another_process_locks_the_database_loses_nothing(
        app: Any, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from saves import pending, records
    from saves.survey import load_answers

    monkeypatch.setattr(records, "BUSY_TIMEOUT_MS", 50)  # wait briefly for the lock, not 10 s
    app.settings.survey = "every"
    holder = child(HOLD_DATABASE, home)
    try:
        end = finish_match(app)
        assert end.record_id is None
        assert "could not be recorded now" in end.message and "next start" in end.message
        assert [p.name for p in pending.waiting()] == [f"{end.ctl.session.session_id}.game.json"]
        session_id = end.ctl.session.session_id
        end.leave_to("menu")
        survey = answer_survey(app)
        survey.next_page()  # Send
        assert app.top.name == "menu"
        assert "answers could not be stored now" in app.top.message  # no silent success
        assert len(pending.waiting()) == 2
    finally:
        stop(holder)
    app = restart(app)
    try:
        assert "1 game(s), 1 answer set(s)" in app.top.message
        assert pending.waiting() == []
        (game,) = recorded_games()
        with records.RecordsDB() as db:
            assert db.load_record(game.id).session_id == session_id
            (response,) = load_answers(db, game.id)
        assert response["answers"]
    finally:
        app.shutdown()


def full_disk(*args: Any, **kwargs: Any) -> Any:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_full_disk_at_the_match_end_keeps_the_game_in_the_autosave(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from saves import paths, pending
    from saves.records import RecordsDB

    def disk_full_record(self: Any, session: Any, finished_at: Any = None) -> int:
        raise sqlite3.OperationalError("database or disk is full")

    end_screen_session = {}
    with monkeypatch.context() as m:
        m.setattr(RecordsDB, "record_game", disk_full_record)
        m.setattr(paths, "atomic_write_bytes", full_disk)  # the pending file cannot be written either
        end = finish_match(app, seed=21)
        end_screen_session["id"] = end.ctl.session.session_id
        assert end.record_id is None and "the autosave keeps it" in end.message
        assert app.autosave_store().exists() and pending.waiting() == []
        end.leave_to("menu")
    app = restart(app)
    try:
        (game,) = recorded_games()
        with RecordsDB() as db:
            assert db.load_record(game.id).session_id == end_screen_session["id"]
        assert not app.autosave_store().exists()
    finally:
        app.shutdown()


def test_full_disk_during_the_survey_keeps_the_answers_on_screen(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from saves import paths, survey
    from saves.records import RecordsDB

    app.settings.survey = "every"
    end = finish_match(app, seed=5)
    assert end.record_id is not None
    end.leave_to("menu")
    screen = answer_survey(app)
    answers = dict(screen.answers)
    with monkeypatch.context() as m:
        m.setattr(survey, "transaction", lambda conn: (_ for _ in ()).throw(
            sqlite3.OperationalError("database or disk is full")))
        m.setattr(paths, "atomic_write_bytes", full_disk)
        assert screen.next_page() is False  # Send refuses: nothing could store the answers
        assert app.top is screen and "could not be saved" in screen.error and screen.answers == answers
    assert screen.next_page() is not False  # the disk has room again: Send stores them
    assert app.top.name == "menu"
    with RecordsDB() as db:
        assert survey.load_answers(db, end.record_id)[0]["answers"]


HOLD_APP = """
from app.main import App
from app.workers import ThreadWorker
app = App((1024, 640), headless=True, worker_factory=ThreadWorker)
assert not app.read_only
print("ready", flush=True)
import sys
sys.stdin.read()
app.shutdown()
"""


def test_a_second_app_on_the_same_data_folder_only_reads(home: Path) -> None:
    from app.screens.menu import MenuScreen

    first = child(HOLD_APP, home)
    try:
        second = make_app()
        try:
            assert second.read_only
            second.push(MenuScreen(second))
            menu = second.top
            assert "Another cardtable" in menu.message and f"process {first.pid}" in menu.message
            assert set(menu.buttons) == {"stats", "settings", "rules", "credits", "quit"}
            menu.activate("new")
            assert second.top is menu
            menu.activate("stats")
            assert second.top.name == "statistics"
        finally:
            from saves.settings import settings_path

            path = settings_path()
            before = path.read_bytes() if path.exists() else None
            second.settings.animation_speed = 7 if second.settings.animation_speed != 7 else 3
            second.shutdown()
            assert (path.read_bytes() if path.exists() else None) == before  # the first one owns the settings
    finally:
        stop(first)
    third = make_app()  # the first one has quit: the folder is free again
    try:
        assert not third.read_only
    finally:
        third.shutdown()


def play_some(app: Any, screen: Any, plies: int, seed: int) -> list[list[int]]:
    from tests.test_app import human_turn_by_clicking

    rng = random.Random(seed)
    for _ in range(400):
        app.step()
        if screen.ctl.session.ply >= plies and screen.ctl.human_to_move():
            break
        if screen.ctl.human_to_move():
            human_turn_by_clicking(app, screen, rng)
    return [list(h) for h in screen.ctl.session.moves]


def test_new_game_of_another_kind_puts_the_unfinished_game_aside_and_continue_lists_it(app: Any) -> None:
    from app.screens.new_game import NewGameScreen

    sueca = play_some(app, open_table(app, "sueca", seed=3), 5, seed=3)
    app.top.to_menu()
    app.push(NewGameScreen(app, "bisca"))
    assert app.top.start(seed=1)  # nothing is ended: no question
    assert app.top.name == "table" and app.top.ctl.match.game.name == "bisca"
    bisca = play_some(app, app.top, 2, seed=4)
    app.top.to_menu()
    menu = app.top
    assert menu.has_autosave and menu.put_aside == ["sueca"]
    menu.continue_game()
    ask = app.top
    assert ask.name == "confirm" and [c[0] for c in ask.choices] == ["Bisca", "Sueca", "Back"]
    ask.choose(1)
    assert app.top.name == "table" and app.top.ctl.match.game.name == "sueca" and app.top.ctl.session.moves == sueca
    app.top.to_menu()
    assert app.top.put_aside == ["bisca"]  # the Bisca game took the Sueca game's place

    app.push(NewGameScreen(app, "sueca"))  # a second Sueca would end the first: ask
    new_game = app.top
    assert not new_game.start(seed=1)
    ask = app.top
    assert ask.name == "confirm" and "unfinished game of Sueca" in ask.question
    ask.choose(2)  # Back
    assert app.top is new_game and app.autosave_store().peek().moves == sueca
    assert not new_game.start(seed=1)
    app.top.choose(1)  # Continue the saved game: with a game put aside, which one?
    app.top.choose(1)  # Bisca
    assert app.top.name == "table" and app.top.ctl.session.moves == bisca
    app.top.to_menu()
    assert app.top.put_aside == ["sueca"]
    app.push(NewGameScreen(app, "sueca"))
    assert not app.top.start(seed=2)
    app.top.choose(0)  # Start the new game: the Sueca game put aside ends, the Bisca game is put aside
    assert app.top.name == "table" and app.top.ctl.match.game.name == "sueca" and app.top.ctl.session.ply == 0
    app.top.to_menu()
    assert app.top.put_aside == ["bisca"]


def test_a_damaged_records_database_is_reported_and_its_readable_games_kept(home: Path) -> None:
    from app.screens.menu import MenuScreen
    from app.screens.statistics import StatisticsScreen
    from saves.demo import demo_session, play_to_end
    from saves.records import RecordsDB

    with RecordsDB() as db:
        for seed in range(20):
            session = demo_session(seed, variant={"target": 0})
            play_to_end(session)
            db.record_game(session)
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        path = db.path
    damage_one_page(path, "moves")
    RecordsDB._checked.clear()
    app = make_app()
    try:
        app.push(MenuScreen(app))
        assert "Records: the records database was damaged" in app.top.message
        assert "20 game(s) that could be read" in app.top.message
        app.push(StatisticsScreen(app))
        app.step()
        assert app.top.stats["sueca"].games == 20
    finally:
        app.shutdown()
    assert list(path.parent.glob("records.sqlite3.corrupt-*"))


def damage_one_page(path: Path, table: str) -> None:
    """Overwrite one page (not the first) of ``table``'s b-tree with zeros."""
    conn = sqlite3.connect(path)
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    pages = len(data) // page_size
    victim = root + 1 if root + 1 <= pages else root  # a page after the root, usually a leaf of the table
    start = (victim - 1) * page_size
    data[start + 8:start + page_size] = bytes(page_size - 8)
    path.write_bytes(bytes(data))


def test_a_hand_edited_save_with_a_good_checksum_is_refused(app: Any) -> None:
    import hashlib
    import json

    from app.screens.menu import MenuScreen
    from saves.autosave import _canonical

    screen = open_table(app, "sueca", seed=8)
    screen.ctl.save()
    screen.to_menu()
    store = app.autosave_store()
    store.flush()
    current = store.store.current
    original = current.read_bytes()
    for field, value in (("dealer", 99), ("hand_index", -1)):
        envelope = json.loads(original)
        envelope["session"]["match"][field] = value
        envelope["sha256"] = hashlib.sha256(_canonical(envelope["session"])).hexdigest()
        current.write_bytes(json.dumps(envelope).encode())
        store.store.backup.unlink(missing_ok=True)
        menu = MenuScreen(app)
        app.reset_to(menu)
        menu.continue_game()
        assert app.top is menu and "impossible" in menu.message
        assert str(value) in menu.message


def test_interrupted_writes_leave_no_temporary_files_after_the_next_start(home: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    data, config = home / "data", home / "config"
    left = [data / f".autosave.json.{dead.pid}.tmp", data / f".records.sqlite3.{dead.pid}.tmp",
            config / f".settings.json.{dead.pid}.tmp",
            data / "studies" / "s1" / "participants" / f".p1.json.{dead.pid}.tmp",
            data / "pending" / f".abc.game.json.{dead.pid}.tmp"]
    for path in left:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half a file")
    own = data / f".other.json.{os.getpid()}.tmp"  # a write of this very process is not touched
    own.write_bytes(b"being written")
    app = make_app()
    try:
        assert [p for p in left if p.exists()] == []
        assert own.exists()
    finally:
        app.shutdown()


def test_tour_honours_cardtable_home_and_refuses_an_unwritable_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("x")
    env = dict(os.environ, CARDTABLE_HOME=str(tmp_path / "home"), SDL_VIDEODRIVER="dummy",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, "-m", "app", "--tour", str(blocker / "out")], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardtable --tour: cannot write to") and "Traceback" not in \
        result.stderr
    assert not (tmp_path / "home").exists()  # it failed before starting anything


@pytest.mark.parametrize("problem", ["newer", "missing_tables"])
def test_a_database_the_match_end_cannot_use_keeps_the_game_until_it_can(app: Any, problem: str) -> None:
    from saves import pending
    from saves.records import RecordsDB

    with RecordsDB() as db:
        path = db.path
        if problem == "newer":
            db.conn.execute("UPDATE schema_version SET version = 99")
        else:
            db.conn.execute("DROP TABLE moves")
    end = finish_match(app, seed=9)
    assert end.record_id is None and "could not be recorded now" in end.message
    assert len(pending.waiting()) == 1 and not app.autosave_store().exists()
    end.leave_to("menu")
    app = restart(app)  # the database is still unusable: the game keeps waiting, and the player is told
    try:
        assert len(pending.waiting()) == 1
        assert "cannot be used now" in app.top.message or "Still waiting" in app.top.message
    finally:
        app.shutdown()
    for suffix in ("", "-wal", "-shm"):  # the player moves the database away (or a newer cardtable reads it)
        Path(str(path) + suffix).unlink(missing_ok=True)
    app = restart(make_app())
    try:
        assert pending.waiting() == [] and len(recorded_games()) == 1
    finally:
        app.shutdown()


def test_tour_data_goes_to_cardtable_home_or_a_removed_temporary_folder(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from app import tour

    seen: list[Path] = []

    def fake_run(out: Path) -> int:
        home = Path(os.environ["CARDTABLE_HOME"])
        (home / "data").mkdir(parents=True, exist_ok=True)
        seen.append(home)
        return 0

    monkeypatch.setattr(tour, "_run_tour", fake_run)
    monkeypatch.delenv("CARDTABLE_HOME", raising=False)
    assert tour.run_tour(str(tmp_path / "shots")) == 0
    assert not seen[0].exists() and "CARDTABLE_HOME" not in os.environ  # removed afterwards
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path / "mine"))
    assert tour.run_tour(str(tmp_path / "shots")) == 0
    assert seen[1] == tmp_path / "mine" and (tmp_path / "mine" / "data").is_dir()


def test_start_up_leaves_a_damaged_save_for_continue_to_report(home: Path) -> None:
    from app.screens.menu import MenuScreen

    (home / "data").mkdir(parents=True)
    (home / "data" / "autosave.json").write_bytes(b'{"format": "cardtable-autosave", "ver')
    app = make_app()
    try:
        app.push(MenuScreen(app))
        menu = app.top
        assert menu.has_autosave  # start-up moved nothing
        menu.continue_game()
        assert "could not be loaded" in menu.message and "moved to" in menu.message
        assert list((home / "data").glob("autosave.json.corrupt-*"))
    finally:
        app.shutdown()


def test_a_study_game_puts_an_unfinished_ordinary_game_aside(app: Any, tmp_path: Path) -> None:
    import copy
    import json

    from app.screens.study import ProgressScreen
    from app.study import load_context
    from tests.test_saves_dataloss import STUDY

    bisca = play_some(app, open_table(app, "bisca", seed=6), 3, seed=6)
    app.top.to_menu()
    path = tmp_path / "study.json"
    path.write_text(json.dumps(copy.deepcopy(STUDY)), encoding="utf-8")
    app.study = load_context(path)
    app.study.begin("P1")
    app.reset_to(ProgressScreen(app, app.study))
    app.top.go()
    assert app.top.name == "table" and app.top.in_study
    from saves.shelf import Shelf

    assert Shelf().games() == ["bisca"] and Shelf().peek("bisca").moves == bisca
