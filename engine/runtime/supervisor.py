"""Process supervision: fresh interpreter children speaking JSON lines over pipes.

Both the background move worker (:mod:`engine.worker`) and root parallelization (:mod:`engine.runtime.parallel`)
run their searches in children started here:

* spawn semantics: a child is a fresh interpreter (``python -m engine.runtime.child ROLE ...``, built by
  :func:`child_command` alone), never a ``fork`` of the caller (which may have SDL loaded), and the caller's
  main script is not imported again;
* framing: one JSON array per line on the child's stdin (requests) and stdout (answers); no pickle in either
  direction;
* liveness: the caller's :class:`Child` reads the child's stdout in a thread of its own, stamps when the child
  last spoke (``heard_at``; children may send an ``alive`` heartbeat, see :class:`ParentLink`), sees the end of
  the pipe when the child dies and says how it ended (:meth:`Child.exit_description`);
* kill/restart: :meth:`Child.kill` ends a child at once (also a stopped one), :meth:`Child.stop` asks it to end
  and kills it if it does not; a supervisor replaces a dead child by starting a new :class:`Child`.

On the child's side :class:`ParentLink` owns the pipes: the caller's messages go to a handler from a reader
thread, an end of stdin (the caller is gone) ends the child's loop, and ``sys.stdout`` is moved to stderr so a
stray ``print`` cannot corrupt the protocol.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

__all__ = ["CHILD_MODULE", "Child", "ParentLink", "child_command", "child_environment"]

CHILD_MODULE = "engine.runtime.child"
"""The module every child runs (``python -m engine.runtime.child ROLE ARGS...``)."""

_ENGINE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


FROZEN_CHILD_FLAG = "--runtime-child"
"""The flag a frozen app's entry point answers by running ``engine.runtime.child.main(ROLE ARGS)``: a bundle's
executable cannot run ``-m``, so it re-runs itself with this flag (see :func:`child_command`)."""


def child_command(role: str, *args: str) -> list[str]:
    """The command line that starts a child of ``role`` (``worker`` or ``shares``) in a fresh interpreter; in a
    frozen bundle, the bundle's own executable with :data:`FROZEN_CHILD_FLAG`."""
    if getattr(sys, "frozen", False):
        return [sys.executable, FROZEN_CHILD_FLAG, role, *args]
    return [sys.executable, "-u", "-m", CHILD_MODULE, role, *args]


def child_environment() -> dict[str, str]:
    """The child's environment: the caller's, with this engine first on the path and no SDL video driver."""
    env = dict(os.environ)
    env["PYTHONPATH"] = _ENGINE_ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("SDL_VIDEODRIVER", None)
    return env


class Child:
    """The caller's handle on one child process: JSON lines in and out, liveness, kill and stop.

    Every line the child writes is decoded and passed to ``deliver(self, message)`` from the reader thread;
    ``deliver(self, None)`` follows once the child's stdout has ended (it died or exited)."""

    def __init__(self, role: str, args: tuple[str, ...], deliver: Callable[[Child, list[Any] | None], None]) -> None:
        self.role = role
        self.proc = subprocess.Popen(child_command(role, *args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=child_environment(), text=True, encoding="utf-8", bufsize=1)
        self.pid: int = self.proc.pid
        self.heard_at = time.monotonic()  # when it last sent a line
        self.spoke = False  # whether it sent a line at all
        self.ready_at: float | None = None  # when it said ``ready`` (set by the supervisor reading its lines)
        self._send_lock = threading.Lock()
        threading.Thread(target=self._read, args=(deliver,), name=f"{role}-pipe", daemon=True).start()

    def _read(self, deliver: Callable[[Child, list[Any] | None], None]) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        try:
            for line in stdout:
                self.heard_at = time.monotonic()
                self.spoke = True
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, list) and message:
                    deliver(self, message)
        except (OSError, ValueError):
            pass
        finally:
            try:
                stdout.close()  # the process has ended: release the pipe now, not at garbage collection
            except (OSError, ValueError):
                pass
        deliver(self, None)

    def send(self, message: list[Any]) -> None:
        """Write one message; raises OSError/ValueError when the child's stdin is closed."""
        stdin = self.proc.stdin
        assert stdin is not None
        line = json.dumps(message) + "\n"
        with self._send_lock:
            stdin.write(line)
            stdin.flush()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def exit_description(self, wait: float = 1.0) -> str:
        """How the process ended: ``exit code N``, ``killed by SIGKILL``... (waiting up to ``wait`` seconds for
        the OS to report it), or ``still running`` when it has not ended."""
        try:
            code = self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return "still running"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"

    def kill(self) -> None:
        """Kill the process at once (also a stopped one) and release its stdin."""
        try:
            self.proc.kill()
            self.proc.wait(timeout=1.0)
        except Exception:  # noqa: BLE001 - already gone, or not reaped in time: nothing more to do
            pass
        self._close_stdin()

    def stop(self, grace: float = 1.0) -> None:
        """Ask the child to stop (``["stop"]`` and the end of its stdin); kill it after ``grace`` seconds."""
        try:
            self.send(["stop"])
        except (OSError, ValueError):
            pass
        self._close_stdin()
        try:
            self.proc.wait(timeout=grace)
        except Exception:  # noqa: BLE001 - it did not stop: kill it
            self.kill()

    def _close_stdin(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except (OSError, ValueError):
            pass


class ParentLink:
    """The child's side of the pipes: sends JSON lines to the caller, hands the caller's lines to ``on_message``
    from a reader thread (``on_message(["stop"])`` once stdin ends), and optionally sends ``["alive"]`` every
    ``heartbeat`` seconds from a thread of its own, so that silence means stuck whatever the child computes."""

    def __init__(self, on_message: Callable[[list[Any]], None], heartbeat: float | None = None) -> None:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C belongs to the caller
        except (ValueError, OSError):
            pass
        self._out: IO[str] = sys.stdout
        sys.stdout = sys.stderr  # stray prints must not corrupt the protocol
        self._lock = threading.Lock()
        self._on_message = on_message
        threading.Thread(target=self._read, name="parent-reader", daemon=True).start()
        if heartbeat is not None:
            threading.Thread(target=self._beat, args=(heartbeat,), name="heartbeat", daemon=True).start()

    def send(self, message: list[Any]) -> None:
        line = json.dumps(message) + "\n"
        with self._lock:
            self._out.write(line)
            self._out.flush()

    def _read(self) -> None:
        for line in sys.stdin:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, list) and message:
                self._on_message(message)
                if message[0] == "stop":
                    return
        self._on_message(["stop"])  # the caller is gone

    def _beat(self, interval: float) -> None:
        while True:
            try:
                self.send(["alive"])
            except (OSError, ValueError):
                return  # the caller is gone
            time.sleep(interval)
