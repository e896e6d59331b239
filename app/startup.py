"""What the app does with its data folder at start: take the folder's lock (a second cardtable on the same
folder only shows statistics and rules), remove what interrupted writes left, open the records database (a
damaged one is reported with what was recovered), record a finished game left in the autosave and store the
games and survey answers kept in ``saves.pending``. Everything worth telling becomes a startup warning."""

from __future__ import annotations

from typing import Any

from app.i18n import t
from saves import paths, pending
from saves.lock import DataFolderLock, DataFolderLocked
from saves.records import RecordsDB


def open_data_folder(app: Any) -> None:
    """Lock the data folder and finish what an earlier run left (sets ``app.read_only`` and
    ``app.data_lock``; never raises)."""
    app.read_only = False
    app.data_lock = None
    lock = DataFolderLock()
    try:
        lock.acquire()
    except DataFolderLocked as e:
        app.read_only = True
        text = t("Another cardtable is using this data folder ({error}); here only statistics and rules are open.",
                 error=str(e))
        app.startup_warnings.append(text)
        return
    except OSError as e:  # the folder cannot be written at all
        app.read_only = True
        app.startup_warnings.append(t("The data folder cannot be used ({error}): nothing can be saved.",
                                      error=f"{paths.data_dir()}: {e.strerror or e}"))
        return
    app.data_lock = lock
    try:
        paths.remove_stale_temps(paths.data_dir(), paths.config_dir())
    except OSError:
        pass
    try:
        with RecordsDB() as db:
            for warning in db.warnings:
                app.startup_warnings.append(t("Records: {warning}", warning=warning))
            _record_finished_autosave(app, db)
            report = pending.retry(db)
    except Exception as e:  # noqa: BLE001 - the menu says why; kept games wait for the next start
        waiting = len(pending.waiting())
        app.startup_warnings.append(t("The records database cannot be used now ({error}).", error=str(e)) +
                                    (" " + t("{n} kept game(s) or answer set(s) wait to be stored.", n=waiting)
                                     if waiting else ""))
        return
    if report.games or report.answers:
        text = t("Stored what an earlier session kept: {games} game(s), {answers} answer set(s).",
                 games=len(report.games), answers=len(report.answers))
        app.startup_warnings.append(text)
    for problem in report.problems[:2]:
        app.startup_warnings.append(t("Still waiting: {problem}", problem=problem))


def _record_finished_autosave(app: Any, db: RecordsDB) -> None:
    """A finished match still in the autosave (it could neither be recorded nor kept at its end) is recorded now,
    then the autosave is cleared."""
    store = app.autosave_store()
    session = store.peek() if store.exists() else None  # a damaged save is left for Continue to report
    if session is None or not session.match.state.is_terminal():
        return
    session.match.finish_hand()
    if not session.match.over:
        return
    db.record_game(session)
    store.clear()


def close_data_folder(app: Any) -> None:
    """Give the data folder's lock up (at shutdown)."""
    lock = getattr(app, "data_lock", None)
    if lock is not None:
        lock.release()
        app.data_lock = None
