"""The worker's watchdog: a stopped (SIGSTOP) or silent search process is killed, the request fails with a legal
fallback move, and the next request runs in a fresh process."""

from __future__ import annotations

import os
import signal
import time

import pytest

from engine.worker import MoveWorker, WorkerDone, WorkerFailed, WorkerProgress, choose_move, time_limit_grace
from tests.test_worker import _request, _wait

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP")


def _wait_for_progress(worker: MoveWorker, until: float = 60.0) -> None:
    """Wait until the pending request reports progress (generous safety net, not a timing assertion)."""
    end = time.monotonic() + until
    while time.monotonic() < end:
        events = worker.poll()
        assert not [e for e in events if isinstance(e, (WorkerDone, WorkerFailed))], events
        if any(isinstance(e, WorkerProgress) for e in events):
            return
        time.sleep(0.01)
    pytest.fail("no progress report")


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _stop_and_expect_failure(worker: MoveWorker, time_limit: float | None) -> None:
    """Stop the search process mid-search: the request fails with a legal fallback, the process is killed, and the
    next request is served by a fresh process with the usual move."""
    req, legal = _request("ismcts:iterations=10000000", time_limit=time_limit)
    rid = worker.request(req)
    _wait_for_progress(worker)
    pid = worker.pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    try:
        events = _wait(worker)
    finally:
        if not _gone(pid):
            os.kill(pid, signal.SIGCONT)
    finished = [e for e in events if isinstance(e, (WorkerDone, WorkerFailed))]
    assert [(type(e), e.request_id) for e in finished] == [(WorkerFailed, rid)]
    assert finished[0].fallback_move in legal and "killed" in finished[0].error
    assert _gone(pid)
    req2, _ = _request("ismcts:iterations=30", seed=9)
    rid2 = worker.request(req2)
    done = [e for e in _wait(worker) if isinstance(e, (WorkerDone, WorkerFailed))]
    assert [(type(e), e.request_id, getattr(e, "move", None)) for e in done] == [(WorkerDone, rid2, choose_move(req2))]
    assert worker.pid not in (None, pid)


def test_a_stopped_process_is_killed_after_the_time_limit_and_grace() -> None:
    with MoveWorker(progress_interval=0.02) as worker:  # the default silence timeout is far beyond limit + grace
        _stop_and_expect_failure(worker, time_limit=1.5)


def test_a_stopped_process_without_time_limit_is_killed_after_the_silence_timeout() -> None:
    with MoveWorker(progress_interval=0.02, silence_timeout=1.5) as worker:
        _stop_and_expect_failure(worker, time_limit=None)


def test_a_process_stopped_while_idle_is_replaced() -> None:
    with MoveWorker(progress_interval=0.02, silence_timeout=1.0) as worker:
        req, _ = _request("ismcts:iterations=30")
        worker.request(req)
        assert [e.move for e in _wait(worker) if isinstance(e, WorkerDone)] == [choose_move(req)]
        pid = worker.pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)
        try:
            end = time.monotonic() + 60.0  # safety net only: the watchdog kills the silent process
            while not _gone(pid) and time.monotonic() < end:
                time.sleep(0.02)
        finally:
            if not _gone(pid):
                os.kill(pid, signal.SIGCONT)
        assert _gone(pid)
        worker.request(req)
        assert [e.move for e in _wait(worker) if isinstance(e, WorkerDone)] == [choose_move(req)]
        assert worker.pid != pid


def test_heartbeats_keep_a_long_quiet_search_alive() -> None:
    """A search longer than the silence timeout that reports no progress meanwhile is not killed: the heartbeat
    thread of the search process speaks for it."""
    with MoveWorker(progress_interval=1000.0, silence_timeout=2.0) as worker:  # one progress report, then none
        req, legal = _request("ismcts:iterations=0,seconds=3.5")  # the agent's own budget: no request time limit
        rid = worker.request(req)
        finished = [e for e in _wait(worker) if isinstance(e, (WorkerDone, WorkerFailed))]
        assert [(type(e), e.request_id) for e in finished] == [(WorkerDone, rid)], finished
        assert finished[0].move in legal


def test_time_limit_grace() -> None:
    assert time_limit_grace(0.2) == 1.0 and time_limit_grace(10.0) == 5.0
