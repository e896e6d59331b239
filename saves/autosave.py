"""Autosave and Continue: crash-safe storage of the current :class:`GameSession`.

Files in the store's directory (the data dir by default):

* ``autosave.json`` - the current save;
* ``autosave.json.bak`` - the save before it (the backup);
* ``.autosave.json.<pid>.tmp`` - a save being written (never read; stale ones are removed).

:meth:`AutosaveStore.save` (1) serialises the session with a SHA-256 checksum, (2) writes the temporary
file, flushes and fsyncs it, (3) makes the current save the backup - a hard link (or a fsynced copy where
links are unsupported) renamed over the old backup, and only if the current save is intact, otherwise it is
moved aside - and (4) atomically renames the temporary file over the current save and fsyncs the directory.
``autosave.json`` is therefore always either the old or the new complete save, never a partial one, so a
crash or power loss at any instant leaves a loadable save at most one move old.

:meth:`AutosaveStore.load` never raises for bad content: a corrupt, truncated, foreign or newer-version file
is moved aside (``autosave.json.corrupt-N`` / ``.newer-N``), never overwritten, and the backup is used when
it is good; every such event is reported as a human-readable warning. Older versions are upgraded by the
:data:`MIGRATIONS` table. Nothing read from disk is ever executed (JSON only, no pickle/eval).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.game import GameError
from saves import paths
from saves.checks import SessionMeaningError, check_session
from saves.session import SESSION_VERSION, GameSession

AUTOSAVE_FORMAT = "cardtable-autosave"
AUTOSAVE_VERSION = 1
CURRENT_FILE = "autosave.json"
BACKUP_FILE = "autosave.json.bak"
MAX_SAVE_BYTES = 32 << 20

MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""Session-format migrations: ``MIGRATIONS[v]`` turns a version-``v`` session dict into version ``v + 1``.

Empty while only version 1 exists; a future version 2 adds ``MIGRATIONS[1]`` here and old saves load.
"""


class SaveFormatError(Exception):
    """A save file that cannot be used; the message says why in plain words."""


class NewerVersionError(SaveFormatError):
    """A save written by a newer cardtable than this build."""


@dataclass
class LoadResult:
    """What :meth:`AutosaveStore.load` found.

    ``session`` is None when there is nothing to continue. ``source`` is ``"current"``, ``"backup"`` or
    ``None``; ``warnings`` are sentences for the player (used the backup because ..., moved ... aside to ...).
    """

    session: GameSession | None
    source: str | None = None
    warnings: list[str] = field(default_factory=list)
    moved_aside: list[Path] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.session is not None


def _canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()


def encode_session(session: GameSession, saved_at: float | None = None) -> bytes:
    """The autosave file content for ``session`` (envelope with format, version and checksum)."""
    body = session.to_dict()
    envelope = {"format": AUTOSAVE_FORMAT, "version": AUTOSAVE_VERSION,
                "saved_at": time.time() if saved_at is None else saved_at,
                "sha256": hashlib.sha256(_canonical(body)).hexdigest(), "session": body}
    return _canonical(envelope) + b"\n"


def _envelope_body(data: bytes) -> dict[str, Any]:
    """Check the envelope and checksum; return the (not yet migrated) session dict."""
    if len(data) > MAX_SAVE_BYTES:
        raise SaveFormatError(f"file is too large ({len(data)} bytes)")
    if not data.strip():
        raise SaveFormatError("file is empty")
    try:
        env = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveFormatError("file is not text (not a cardtable save)") from None
    except RecursionError:
        raise SaveFormatError("file is nested too deeply") from None
    except ValueError as e:
        raise SaveFormatError(f"file is not valid JSON (truncated or damaged?): {e}") from None
    if not isinstance(env, dict) or env.get("format") != AUTOSAVE_FORMAT:
        raise SaveFormatError("not a cardtable save file")
    version = env.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveFormatError(f"bad save version {str(version)[:40]!r}")
    if version > AUTOSAVE_VERSION:
        raise NewerVersionError(f"written by a newer cardtable (save version {version}; this build reads up "
                                f"to {AUTOSAVE_VERSION})")
    body = env.get("session")
    if not isinstance(body, dict):
        raise SaveFormatError("the save has no session")
    try:
        digest = hashlib.sha256(_canonical(body)).hexdigest()
    except (ValueError, RecursionError):
        raise SaveFormatError("the session data is damaged") from None
    if env.get("sha256") != digest:
        raise SaveFormatError("checksum mismatch (the file was damaged or edited)")
    return body


def migrate_session_dict(d: dict[str, Any]) -> dict[str, Any]:
    """Upgrade an older session dict to :data:`SESSION_VERSION` via :data:`MIGRATIONS`."""
    version = d.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveFormatError(f"bad session version {str(version)[:40]!r}")
    if version > SESSION_VERSION:
        raise NewerVersionError(f"written by a newer cardtable (session version {version}; this build reads "
                                f"up to {SESSION_VERSION})")
    while version < SESSION_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveFormatError(f"no migration from session version {version}")
        d = step(d)
        version += 1
        d["version"] = version
    return d


def decode_session(data: bytes) -> GameSession:
    """Parse autosave file content into a session; raises :class:`SaveFormatError` with a clear reason."""
    body = migrate_session_dict(_envelope_body(data))
    try:
        session = GameSession.from_dict(body)
        check_session(session)  # the content must make sense, not only the format
        return session
    except SaveFormatError:
        raise
    except SessionMeaningError as e:
        raise SaveFormatError(f"the saved game is impossible: {e}") from None
    except GameError as e:
        raise SaveFormatError(f"the saved game is invalid: {e}") from None
    except Exception as e:  # noqa: BLE001 - whatever a damaged file triggers becomes a clear message
        raise SaveFormatError(f"the saved game is invalid ({type(e).__name__}: {str(e)[:200]})") from None


def _signature(path: Path) -> tuple[int, int, int] | None:
    """(inode, size, mtime) of a file, or None when it does not exist."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class AutosaveStore:
    """The autosave of the current game in ``directory`` (default: the data directory)."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else paths.data_dir()
        self.directory.mkdir(parents=True, exist_ok=True)
        self.current = self.directory / CURRENT_FILE
        self.backup = self.directory / BACKUP_FILE
        self._written: tuple[int, int, int] | None = None

    # --- writing --------------------------------------------------------------------------------------
    def save(self, session: GameSession) -> None:
        """Save ``session`` crash-safely (see the module docstring); the previous save becomes the backup.

        Raises OSError when the disk refuses (full, read-only); the previous save is then left as it was.
        """
        data = encode_session(session)
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.directory / f".{CURRENT_FILE}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            self._rotate_current_to_backup()
            os.replace(tmp, self.current)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        paths.fsync_dir(self.directory)
        self._written = _signature(self.current)

    def _rotate_current_to_backup(self) -> None:
        """Make the intact current save the backup (an unreadable one is moved aside instead).

        Each rename is atomic on its own, so no directory fsync is needed between this one and the
        rename of the new save: whichever reaches the disk first, ``autosave.json`` is a complete save.
        """
        signature = _signature(self.current)
        if signature is None:
            return
        if signature != self._written:  # not the file this store last wrote: check before keeping it
            try:
                _envelope_body(self.current.read_bytes())
            except SaveFormatError as e:
                # Never overwrite what we could not read: keep it for inspection.
                paths.move_aside(self.current, "newer" if isinstance(e, NewerVersionError) else "corrupt")
                return
            except FileNotFoundError:
                return
        link = self.directory / f".{BACKUP_FILE}.{os.getpid()}.tmp"
        link.unlink(missing_ok=True)
        try:
            os.link(self.current, link)
        except OSError:  # no hard links here: an fsynced copy instead
            with open(link, "wb") as f:
                f.write(self.current.read_bytes())
                f.flush()
                os.fsync(f.fileno())
        if self.backup.exists() and not self._intact(self.backup):
            paths.move_aside(self.backup, "corrupt")
        os.replace(link, self.backup)

    @staticmethod
    def _intact(path: Path) -> bool:
        try:
            _envelope_body(path.read_bytes())
        except (OSError, SaveFormatError):
            return False
        return True

    def clear(self) -> None:
        """Delete the save and its backup (the game finished or was abandoned)."""
        for p in (self.current, self.backup):
            p.unlink(missing_ok=True)
        self._remove_stale_temps()
        paths.fsync_dir(self.directory)

    # --- reading --------------------------------------------------------------------------------------
    def exists(self) -> bool:
        """Whether there is a save or backup to try (the Continue button)."""
        return self.current.exists() or self.backup.exists()

    def peek(self) -> GameSession | None:
        """The saved session (else the backup's) without moving or removing anything; None when neither
        loads (then :meth:`load` tells the player why)."""
        for path in (self.current, self.backup):
            try:
                return decode_session(path.read_bytes())
            except (OSError, SaveFormatError):
                continue
        return None

    def load(self) -> LoadResult:
        """Load the save, falling back to the backup; never raises for bad file content."""
        self._remove_stale_temps()
        result = LoadResult(None)
        problem: str | None = None
        for path, source in ((self.current, "current"), (self.backup, "backup")):
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                if source == "current" and self.backup.exists():
                    problem = "the save file is missing"
                continue
            except OSError as e:
                result.warnings.append(f"could not read {path}: {e}")
                problem = f"it could not be read ({e})"
                continue
            try:
                session = decode_session(data)
            except SaveFormatError as e:
                reason = "newer" if isinstance(e, NewerVersionError) else "corrupt"
                try:
                    moved = paths.move_aside(path, reason)
                    result.moved_aside.append(moved)
                    result.warnings.append(f"{path.name} could not be loaded ({e}); it was moved to {moved}")
                except OSError as move_error:
                    result.warnings.append(f"{path.name} could not be loaded ({e}) nor moved aside "
                                           f"({move_error})")
                problem = str(e)
                continue
            result.session = session
            result.source = source
            if source == "backup":
                result.warnings.append(f"used the backup (the save before the last one) because {problem}")
            return result
        return result

    def _remove_stale_temps(self) -> None:
        own = f".{os.getpid()}.tmp"
        for p in self.directory.glob(".autosave.json*.tmp"):
            if p.name.endswith(own):
                continue
            try:
                p.unlink()
            except OSError:
                pass
