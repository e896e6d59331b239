"""Nothing a player produces is thrown away: a finished game is recorded before its autosave is cleared, and
a game or survey answers that cannot be stored now (database locked, disk full, a newer database) wait in
``saves.pending`` until the next start, with a plain message to the player."""

from __future__ import annotations

from typing import Any

from app.i18n import t
from saves import pending
from saves.records import RecordsDB, human_seat_of
from saves.survey import AnswerError, Questionnaire, save_answers


def _first_line(error: BaseException | str) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__


def record_finished_game(app: Any, session: Any) -> tuple[int | None, str]:
    """Record a finished game; clear the autosave only once the game is recorded or kept in
    ``saves.pending``. Returns the record id (None when not recorded now) and a message for the player."""
    record_id: int | None = None
    error = ""
    try:
        with RecordsDB() as db:
            record_id = db.record_game(session)
    except Exception as e:  # noqa: BLE001 - every failure keeps the game
        error = _first_line(e)
    message = ""
    safe = record_id is not None
    if record_id is None:
        try:
            pending.keep_game(session)
            safe = True
            message = t("The game could not be recorded now ({error}); it is kept and recorded at the next start.",
                        error=error)
        except OSError as e:
            message = t("The game could not be recorded ({error}) nor kept ({reason}); the autosave keeps it.",
                        error=error, reason=_first_line(e))
    if safe:
        try:
            app.autosave_store().clear()
        except Exception:  # noqa: BLE001 - a leftover save of a recorded game is recorded once only
            pass
    return record_id, message


def store_answers(app: Any, session: Any, record_id: int | None, answers: dict[str, Any], questionnaire: Questionnaire,
                  language: str) -> str | None:
    """Store survey answers, or keep them in ``saves.pending`` when the database cannot take them now (the
    player is told). Returns an error for the survey screen when the answers are invalid or nothing could
    keep them (the answers then stay on the screen)."""
    error = ""
    if record_id is not None:
        try:
            save_answers(record_id, answers, questionnaire, language)
            return None
        except AnswerError as e:
            return t("The answers could not be saved: {error}", error=str(e))
        except Exception as e:  # noqa: BLE001 - kept below
            error = _first_line(e)
    if session is not None:
        teams = session.match.game.teams()
        try:
            questionnaire.validate_answers(answers, questionnaire.targets(session.seats, human_seat_of(session.seats),
                                                                          teams))
        except AnswerError as e:
            return t("The answers could not be saved: {error}", error=str(e))
        session_id = session.session_id
    else:
        try:
            with RecordsDB() as db:
                session_id = db.load_record(record_id or 0).session_id
        except Exception as e:  # noqa: BLE001
            return t("The answers could not be saved: {error}", error=error or _first_line(e))
    try:
        pending.keep_answers(session_id, record_id, answers, questionnaire, language)
    except OSError as e:
        return t("The answers could not be saved: {error}", error=f"{error or _first_line(e)}; {_first_line(e)}")
    reason = error or t("the game is not recorded yet")
    app.startup_warnings.append(t("Your answers could not be stored now ({error}); they are kept.", error=reason))
    return None
