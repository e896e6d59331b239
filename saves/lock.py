"""One cardtable at a time per data folder: an advisory lock on ``data_dir()/cardtable.lock``.

The operating system's own file locks are used (``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows), so
the lock disappears with the process that held it - a crash or a kill never leaves a stale lock behind. The
file holds the holder's process id, only to tell the player who has it.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

from saves import paths

LOCK_FILE = "cardtable.lock"
BUSY_ERRNOS = frozenset({errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, getattr(errno, "EDEADLOCK", errno.EDEADLK)})
"""The errors that mean "another process holds the lock" (anything else: locks are unsupported)."""


class DataFolderLocked(Exception):
    """Another cardtable process uses this data folder; the message says which one when it is known."""


class DataFolderLock:
    """Hold the data folder's lock: ``acquire()`` (raises :class:`DataFolderLocked`), ``release()``."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else paths.data_dir()
        self.path = self.directory / LOCK_FILE
        self._fd: int | None = None
        self.unsupported: str | None = None
        """Why the folder could not be locked at all (its file system has no locks); None when it is locked."""

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock, or raise :class:`DataFolderLocked` at once (never waits)."""
        if self._fd is not None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            _lock(fd)
        except OSError as e:
            if e.errno not in BUSY_ERRNOS:  # locks unsupported here (some network file systems): go on unlocked
                self.unsupported = str(e.strerror or e)
                self._fd = fd
                return
            holder = _read_holder(fd)
            os.close(fd)
            who = f" (process {holder})" if holder else ""
            raise DataFolderLocked(f"another cardtable{who} is using the data folder {self.directory}") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        """Give the lock up (closing the file releases it)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            if self.unsupported is None:
                _unlock(fd)
        except OSError:
            pass
        os.close(fd)

    def __enter__(self) -> DataFolderLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_holder(fd: int) -> str:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(fd: int) -> None:
        os.lseek(fd, 1 << 20, os.SEEK_SET)  # lock a byte past the pid text, which stays readable
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

    def _unlock(fd: int) -> None:
        os.lseek(fd, 1 << 20, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
