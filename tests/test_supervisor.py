"""The process supervisor: fresh interpreters speaking JSON lines, how a child ended, stop and kill."""

from __future__ import annotations

import queue
import signal
import sys

from engine.runtime.supervisor import CHILD_MODULE, Child, child_command

SAFETY = 60.0
"""Seconds to wait for a child's line before giving up (a safety net on a busy machine, not a timing check)."""


def _child(role: str) -> tuple[Child, queue.Queue]:
    lines: queue.Queue = queue.Queue()
    return Child(role, (), lambda _child, message: lines.put(message)), lines


def test_a_child_is_a_fresh_interpreter_running_the_child_module() -> None:
    command = child_command("worker", "0.1")
    assert command[0] == sys.executable and command[-4:] == ["-m", CHILD_MODULE, "worker", "0.1"]


def test_a_child_speaks_json_lines_and_stops_when_asked() -> None:
    child, lines = _child("shares")
    assert lines.get(timeout=SAFETY) == ["ready", child.pid]
    assert child.spoke and child.alive()
    child.stop(grace=SAFETY)  # (its own grace: a busy machine may take a while to end an interpreter)
    assert lines.get(timeout=SAFETY) is None  # the end of its stdout
    assert child.exit_description() == "exit code 0" and not child.alive()


def test_the_supervisor_says_how_a_child_ended() -> None:
    child, lines = _child("no-such-role")
    assert lines.get(timeout=SAFETY) is None
    assert child.exit_description() == "exit code 2"  # a one-line usage error, nothing on the protocol
    child, lines = _child("shares")
    assert lines.get(timeout=SAFETY)[0] == "ready"
    child.proc.send_signal(signal.SIGKILL)
    assert lines.get(timeout=SAFETY) is None
    assert child.exit_description() == "killed by SIGKILL"
