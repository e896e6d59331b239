"""Where cardtable keeps its files.

By default the user directories of ``platformdirs`` (``PlatformDirs("cardtable", appauthor=False)``):
settings in the config dir, autosave/records/surveys/studies in the data dir, logs in the log dir.
The environment variable ``CARDTABLE_HOME=DIR`` overrides all three as ``DIR/config``, ``DIR/data`` and
``DIR/logs`` (tests and the app's ``--tour`` use it so they never touch the real user directories).
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import PlatformDirs

APP_NAME = "cardtable"
HOME_ENV = "CARDTABLE_HOME"


def _dirs() -> PlatformDirs:
    return PlatformDirs(APP_NAME, appauthor=False)


def home_override() -> Path | None:
    """The ``CARDTABLE_HOME`` directory, or None when the variable is unset or empty."""
    value = os.environ.get(HOME_ENV, "").strip()
    return Path(value).expanduser() if value else None


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    """The settings directory (created if missing)."""
    home = home_override()
    return _ensure(home / "config" if home else Path(_dirs().user_config_dir))


def data_dir() -> Path:
    """The data directory: autosave, records database, surveys, studies (created if missing)."""
    home = home_override()
    return _ensure(home / "data" if home else Path(_dirs().user_data_dir))


def log_dir() -> Path:
    """The log directory (created if missing)."""
    home = home_override()
    return _ensure(home / "logs" if home else Path(_dirs().user_log_dir))


def fsync_dir(directory: Path) -> None:
    """Flush a directory entry to disk (so a rename in it survives power loss); a no-op where unsupported."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: temp file in the same directory, fsync, rename, fsync dir."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def move_aside(path: Path, reason: str = "corrupt") -> Path:
    """Rename an unreadable file to ``NAME.REASON-N`` next to it (never overwriting); return the new path."""
    path = Path(path)
    n = 1
    while True:
        target = path.with_name(f"{path.name}.{reason}-{n}")
        if not target.exists():
            break
        n += 1
    os.replace(path, target)
    fsync_dir(path.parent)
    return target


def is_inside(path: Path, root: Path) -> bool:
    """Whether ``path`` (resolved, following symlinks) lies inside ``root``."""
    try:
        Path(path).resolve().relative_to(Path(root).resolve())
    except ValueError:
        return False
    return True


def read_json_file(path: Path, error: type[Exception], max_bytes: int = 1 << 20) -> object:
    """Read a small JSON file; every problem raises ``error`` with a message naming the file."""
    import json

    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise error(f"{path.name}: file is too large ({size} bytes)")
        return json.loads(path.read_bytes().decode("utf-8"))
    except OSError as e:
        raise error(f"{path.name}: cannot read the file ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise error(f"{path.name}: the file is not UTF-8 text") from None
    except RecursionError:
        raise error(f"{path.name}: the file is nested too deeply") from None
    except ValueError as e:
        raise error(f"{path.name}: not valid JSON: {e}") from None


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name != "posix":
        return False  # only called while holding the data folder's lock: no other writer is running
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def remove_stale_temps(*directories: Path) -> list[Path]:
    """Remove ``.NAME.<pid>.tmp`` files left by interrupted writes (of processes no longer running) under
    ``directories``; returns what was removed."""
    removed = []
    for directory in directories:
        for tmp in Path(directory).rglob(".*.tmp"):
            pid = tmp.name[:-len(".tmp")].rpartition(".")[2]
            if not pid.isdigit() or _process_alive(int(pid)):
                continue
            try:
                tmp.unlink()
            except OSError:
                continue
            removed.append(tmp)
    return removed
