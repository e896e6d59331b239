"""Autosave without stalling the frame: the session is copied on the UI thread and written (with fsync) by a
background thread. Only the newest pending copy is written; :meth:`flush` waits until it is on disk."""

from __future__ import annotations

import json
import threading
from typing import Any


class _Snapshot:
    """A frozen copy of a session: what ``saves.autosave.encode_session`` needs (``to_dict``)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def to_dict(self) -> dict[str, Any]:
        """The frozen session dict."""
        return self._data


class BackgroundAutosave:
    """Wraps an autosave store (``save``/``load``/``exists``/``clear``) with a writer thread."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._cond = threading.Condition()
        self._pending: _Snapshot | None = None
        self._writing = False
        self._errors: list[str] = []
        self._thread: threading.Thread | None = None

    def save(self, session: Any) -> None:
        """Queue a copy of ``session`` for writing (returns at once)."""
        snapshot = _Snapshot(json.loads(json.dumps(session.to_dict())))
        with self._cond:
            self._pending = snapshot
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._pending is None:
                    self._cond.wait(timeout=2.0)
                    if self._pending is None:
                        self._thread = None
                        return
                snapshot, self._pending = self._pending, None
                self._writing = True
            try:
                self.store.save(snapshot)
            except Exception as e:  # noqa: BLE001 - reported to the UI by take_errors
                with self._cond:
                    self._errors.append(str(e) or type(e).__name__)
            finally:
                with self._cond:
                    self._writing = False
                    self._cond.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every queued save is written; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending is None and not self._writing, timeout=timeout)

    def take_errors(self) -> list[str]:
        """Errors of background writes since the last call (then forgets them)."""
        with self._cond:
            errors, self._errors = self._errors, []
        return errors

    def exists(self) -> bool:
        """Whether a saved game exists (after pending writes)."""
        self.flush()
        return bool(self.store.exists())

    def load(self) -> Any:
        """Load the saved game (after pending writes)."""
        self.flush()
        return self.store.load()

    def peek(self) -> Any:
        """The saved game without touching any file (after pending writes); None when none loads."""
        self.flush()
        return self.store.peek()

    def clear(self) -> None:
        """Remove the saved game (after pending writes)."""
        self.flush()
        self.store.clear()
