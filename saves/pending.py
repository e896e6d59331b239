"""Finished games and survey answers that could not be stored yet (database locked, disk full, a database
from a newer build): they wait in ``data_dir()/pending/`` until :func:`retry` commits them, at the next start.

* ``<session_id>.game.json`` - the finished session, in the autosave's envelope (format, version, checksum);
* ``<session_id>.answers.json`` - answers to a questionnaire about that game (with the questionnaire itself,
  so they are validated against what the player saw).

A file is removed only after its content is committed to the records database; storing it twice is harmless
(a game is recorded once per ``session_id``; an answer set once per game, questionnaire and time).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from saves import paths
from saves.autosave import SaveFormatError, decode_session, encode_session
from saves.records import RecordsDB
from saves.session import GameSession
from saves.survey import Questionnaire, save_answers

ANSWERS_FORMAT = "cardtable-pending-answers"
ANSWERS_VERSION = 1


def pending_dir() -> Path:
    """The folder of games and answers waiting to be stored (created if missing)."""
    d = paths.data_dir() / "pending"
    d.mkdir(parents=True, exist_ok=True)
    return d


def _name(session_id: str) -> str:
    """A file-name-safe key for a session id (ids are hex, but a hand-made save may hold anything)."""
    if session_id.isalnum() and len(session_id) <= 64:
        return session_id
    return hashlib.sha256(session_id.encode()).hexdigest()[:32]


def keep_game(session: GameSession) -> Path:
    """Keep a finished game that could not be recorded (raises OSError when even this fails)."""
    path = pending_dir() / f"{_name(session.session_id)}.game.json"
    paths.atomic_write_bytes(path, encode_session(session))
    return path


def keep_answers(session_id: str, record_id: int | None, answers: dict[str, Any], questionnaire: Questionnaire,
                 language: str) -> Path:
    """Keep survey answers that could not be stored (raises OSError when even this fails)."""
    data = {"format": ANSWERS_FORMAT, "version": ANSWERS_VERSION, "session_id": session_id,
            "record_id": record_id, "questionnaire": questionnaire.to_dict(), "language": language,
            "answered_at": time.time(), "answers": answers}
    path = pending_dir() / f"{_name(session_id)}.answers.json"
    paths.atomic_write_bytes(path, json.dumps(data, ensure_ascii=False, default=str).encode())
    return path


def waiting() -> list[Path]:
    """The files still waiting to be stored."""
    d = paths.data_dir() / "pending"
    return sorted(d.glob("*.json")) if d.is_dir() else []


def waiting_games() -> list[GameSession]:
    """The finished games still waiting to be recorded (unreadable files are skipped here)."""
    out = []
    for path in waiting():
        if path.name.endswith(".game.json"):
            try:
                out.append(decode_session(path.read_bytes()))
            except (OSError, SaveFormatError):
                continue
    return out


@dataclass
class RetryReport:
    """What :func:`retry` stored, and what still waits (with the reason)."""

    games: list[int] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def waiting(self) -> int:
        return len(self.problems)


def retry(db: RecordsDB | None = None) -> RetryReport:
    """Store every waiting game, then every waiting answer set; each stored file is removed."""
    report = RetryReport()
    files = waiting()
    if not files:
        return report
    own = db is None
    database = RecordsDB() if db is None else db
    try:
        for path in files:
            if path.name.endswith(".game.json"):
                _retry_game(database, path, report)
        for path in files:
            if path.name.endswith(".answers.json"):
                _retry_answers(database, path, report)
    finally:
        if own:
            database.close()
    return report


def _retry_game(db: RecordsDB, path: Path, report: RetryReport) -> None:
    try:
        session = decode_session(path.read_bytes())
    except (OSError, SaveFormatError) as e:
        moved = _move_aside(path)
        report.problems.append(f"a waiting game could not be read ({e}); it was kept as {moved}")
        return
    try:
        report.games.append(db.record_game(session))
    except Exception as e:  # noqa: BLE001 - it keeps waiting, with the reason
        report.problems.append(f"a finished game still cannot be recorded ({e}); it stays in {path}")
        return
    path.unlink(missing_ok=True)


def _retry_answers(db: RecordsDB, path: Path, report: RetryReport) -> None:
    try:
        data = paths.read_json_file(path, ValueError)
        if not isinstance(data, dict) or data.get("format") != ANSWERS_FORMAT:
            raise ValueError("not a waiting answer set")
        q = Questionnaire.from_dict(data["questionnaire"])
        answered_at = float(data["answered_at"])
        record_id = _record_of(db, data)
    except (ValueError, KeyError, TypeError) as e:
        moved = _move_aside(path)
        report.problems.append(f"waiting survey answers could not be read ({e}); they were kept as {moved}")
        return
    if record_id is None:
        report.problems.append(f"survey answers wait for their game to be recorded; they stay in {path}")
        return
    try:
        done = db.conn.execute(
            "SELECT id FROM survey_responses WHERE game_id = ? AND questionnaire_id = ? AND answered_at = ?",
            (record_id, q.id, answered_at)).fetchone()
        rid = int(done[0]) if done is not None else \
            save_answers(record_id, data["answers"], q, str(data.get("language", "en")), db=db,
                         answered_at=answered_at)
    except Exception as e:  # noqa: BLE001 - it keeps waiting, with the reason
        report.problems.append(f"survey answers still cannot be stored ({e}); they stay in {path}")
        return
    report.answers.append(rid)
    path.unlink(missing_ok=True)


def _record_of(db: RecordsDB, data: dict[str, Any]) -> int | None:
    row = db.conn.execute("SELECT id FROM games WHERE session_id = ?", (str(data["session_id"]),)).fetchone()
    return None if row is None else int(row[0])


def _move_aside(path: Path) -> Path | str:
    try:
        return paths.move_aside(path, "corrupt")
    except OSError:
        return path
