"""The background move worker: progress, cancel, time limit, a killed process, failures."""

from __future__ import annotations

import os
import random
import signal
import time

import pytest

from engine import agents, registry
from engine.worker import MoveRequest, MoveWorker, WorkerDone, WorkerFailed, WorkerProgress, choose_move


def _request(spec: str, seed: int = 7, time_limit: float | None = None) -> tuple[MoveRequest, list[int]]:
    game = registry.create("sueca")
    state = game.new_hand(random.Random(3))
    req = MoveRequest("sueca", {}, spec, state.to_json(), state.current_player, seed, time_limit)
    return req, state.legal_moves()


def _wait(worker: MoveWorker, until: float = 60.0) -> list:
    """Collect events until the worker is idle (generous safety net, not a timing assertion)."""
    events: list = []
    end = time.monotonic() + until
    while worker.busy and time.monotonic() < end:
        events += worker.poll()
        time.sleep(0.01)
    return events + worker.poll()


@pytest.fixture()
def worker():
    w = MoveWorker(progress_interval=0.02)
    yield w
    w.shutdown()


def test_choose_move_is_legal_and_deterministic() -> None:
    req, legal = _request("ismcts:iterations=50")
    assert choose_move(req) in legal
    assert choose_move(req) == choose_move(req)


def test_worker_progress_then_done_with_the_synchronous_move(worker: MoveWorker) -> None:
    req, legal = _request("ismcts:iterations=400")
    rid = worker.request(req)
    assert worker.busy
    events = _wait(worker)
    done = [e for e in events if isinstance(e, WorkerDone)]
    assert len(done) == 1 and done[0].request_id == rid
    assert done[0].move in legal and done[0].iterations == 400
    assert done[0].move == choose_move(req)  # same seed, same move in or out of the worker
    progress = [e for e in events if isinstance(e, WorkerProgress)]
    assert progress and all(p.request_id == rid for p in progress)
    assert progress[-1].iterations > 0 and progress[-1].best_move in legal


def test_cancel_gives_no_done_and_the_worker_stays_usable(worker: MoveWorker) -> None:
    req, legal = _request("ismcts:iterations=10000000")
    worker.request(req)
    while not any(isinstance(e, WorkerProgress) for e in worker.poll()):
        time.sleep(0.01)
    worker.cancel()
    assert not worker.busy
    req2, _ = _request("ismcts:iterations=30", seed=9)
    rid2 = worker.request(req2)
    events = _wait(worker)
    assert all(e.request_id == rid2 for e in events)
    assert [e.move for e in events if isinstance(e, WorkerDone)] == [choose_move(req2)]


def test_a_bare_cancel_stops_the_search_in_the_process(worker: MoveWorker) -> None:
    """The cancel reaches the search process and ends its search long before its 10,000,000 iterations
    (no new request follows, which would stop it too); the process then serves the next request."""
    req, _ = _request("ismcts:iterations=10000000")
    rid = worker.request(req)
    while not any(isinstance(e, WorkerProgress) for e in worker.poll()):
        time.sleep(0.01)
    worker.cancel()
    end = time.monotonic() + 60.0  # a safety net against a hang, not a timing assertion
    while not worker.stopped_searches() and time.monotonic() < end:
        time.sleep(0.01)
    stopped = worker.stopped_searches()
    assert [r for r, _ in stopped] == [rid]
    assert 0 < stopped[0][1] < 10_000_000
    assert worker.poll() == []  # nothing of the cancelled request reaches the caller
    req2, legal = _request("ismcts:iterations=30", seed=9)
    worker.request(req2)
    assert [e.move for e in _wait(worker) if isinstance(e, WorkerDone)] == [choose_move(req2)]


def test_new_request_supersedes_pending_one(worker: MoveWorker) -> None:
    req, _ = _request("ismcts:iterations=10000000")
    first = worker.request(req)
    req2, legal = _request("random", seed=1)
    second = worker.request(req2)
    events = _wait(worker)
    assert all(e.request_id == second for e in events) and first != second
    assert [type(e) for e in events if not isinstance(e, WorkerProgress)] == [WorkerDone]


def test_time_limit_stops_an_unbounded_search(worker: MoveWorker) -> None:
    req, legal = _request("ismcts:iterations=0,seconds=1000", time_limit=0.2)
    worker.request(req)
    events = _wait(worker)
    done = [e for e in events if isinstance(e, WorkerDone)]
    assert len(done) == 1 and done[0].move in legal
    assert 0 < done[0].iterations < 10_000_000


def test_killed_process_is_survived(worker: MoveWorker) -> None:
    req, legal = _request("ismcts:iterations=10000000")
    worker.request(req)
    while not any(isinstance(e, WorkerProgress) for e in worker.poll()):
        time.sleep(0.01)
    pid = worker.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    events = _wait(worker)
    failed = [e for e in events if isinstance(e, WorkerFailed)]
    assert len(failed) == 1 and failed[0].fallback_move in legal
    req2, _ = _request("ismcts:iterations=20")
    worker.request(req2)
    events = _wait(worker)
    assert [e.move for e in events if isinstance(e, WorkerDone)] == [choose_move(req2)]
    assert worker.pid != pid


def test_killed_process_failure_says_how_it_ended(worker: MoveWorker) -> None:
    req, _legal = _request("ismcts:iterations=10000000")
    worker.request(req)
    while not any(isinstance(e, WorkerProgress) for e in worker.poll()):
        time.sleep(0.01)
    pid = worker.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    failed = [e for e in _wait(worker) if isinstance(e, WorkerFailed)]
    assert len(failed) == 1 and "SIGKILL" in failed[0].error and "None" not in failed[0].error


def test_a_process_that_died_while_idle_is_replaced_before_the_next_request(worker: MoveWorker) -> None:
    """Killed between two requests, even with no time for the owner to notice: the next request gets the
    search's move from a fresh process, not a failure with a random fallback."""
    for kill_and_request_at_once in (False, True):
        req, _legal = _request("ismcts:iterations=20", seed=11)
        worker.request(req)
        assert [type(e) for e in _wait(worker) if not isinstance(e, WorkerProgress)] == [WorkerDone]
        pid = worker.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        if not kill_and_request_at_once:
            time.sleep(0.3)  # the owner sees the end of the pipe first (not a timing assertion)
        worker.request(req)
        events = [e for e in _wait(worker) if not isinstance(e, WorkerProgress)]
        assert [type(e) for e in events] == [WorkerDone] and events[0].move == choose_move(req)
        assert worker.pid != pid


def test_bad_request_fails_with_a_message(worker: MoveWorker) -> None:
    req, legal = _request("ismcts:bogus=1")
    worker.request(req)
    events = _wait(worker)
    failed = [e for e in events if isinstance(e, WorkerFailed)]
    assert len(failed) == 1 and "bogus" in failed[0].error and failed[0].fallback_move in legal


def test_a_stopped_search_process_leaves_no_open_pipe() -> None:
    import gc
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            w = MoveWorker()
            req, legal = _request("ismcts:iterations=30")
            w.request(req)
            assert [e.move for e in _wait(w) if isinstance(e, WorkerDone)][0] in legal
            w.shutdown()
            time.sleep(0.3)  # the pipe reader sees the end of the process
        del w
        gc.collect()
    leaks = [str(x.message) for x in caught if issubclass(x.category, ResourceWarning)]
    assert not leaks, leaks


def test_shutdown_is_idempotent() -> None:
    w = MoveWorker()
    w.shutdown()
    w.shutdown()
    with pytest.raises(RuntimeError):
        w.request(_request("random")[0])


def _descendants(pid: int) -> set[int]:
    """Live descendants of ``pid`` (Linux /proc scan)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def test_worker_runs_parallel_agents_with_progress_and_cancel(worker: MoveWorker) -> None:
    req, legal = _request("ismcts:iterations=600,workers=2")
    rid = worker.request(req)
    events = _wait(worker)
    done = [e for e in events if isinstance(e, WorkerDone)]
    assert len(done) == 1 and done[0].request_id == rid and done[0].iterations == 600
    assert done[0].move == choose_move(req)  # same seed and workers: the same move in or out of the worker
    assert any(isinstance(e, WorkerProgress) for e in events)
    long_req, _ = _request("ismcts:iterations=10000000,workers=2")
    worker.request(long_req)
    while not any(isinstance(e, WorkerProgress) and e.iterations > 0 for e in worker.poll()):
        time.sleep(0.01)
    worker.cancel()  # the next request is only served once every share of this one has stopped
    req2, _ = _request("ismcts:iterations=40,workers=2", seed=9)
    rid2 = worker.request(req2)
    events = _wait(worker)
    assert [(e.request_id, e.move) for e in events if isinstance(e, WorkerDone)] == [(rid2, choose_move(req2))]


def test_killed_worker_takes_its_parallel_helpers_down(worker: MoveWorker) -> None:
    req, legal = _request("ismcts:iterations=10000000,workers=2")
    worker.request(req)
    while not any(isinstance(e, WorkerProgress) and e.iterations > 0 for e in worker.poll()):
        time.sleep(0.01)
    pid = worker.pid
    assert pid is not None
    helpers = _descendants(pid)
    assert helpers  # the search process started its helper process(es)
    os.kill(pid, signal.SIGKILL)
    events = _wait(worker)
    failed = [e for e in events if isinstance(e, WorkerFailed)]
    assert len(failed) == 1 and failed[0].fallback_move in legal
    end = time.monotonic() + 30.0  # safety net only: orphaned helpers notice their parent is gone
    while helpers & _descendants(os.getpid()) and time.monotonic() < end:
        time.sleep(0.02)
    assert not helpers & _descendants(os.getpid())


def _worker_move(worker: MoveWorker, req: MoveRequest) -> int:
    """The move the worker chooses for ``req`` (fails the test on anything but one WorkerDone)."""
    rid = worker.request(req)
    finished = [e for e in _wait(worker) if isinstance(e, (WorkerDone, WorkerFailed))]
    assert [(type(e), e.request_id) for e in finished] == [(WorkerDone, rid)], finished
    return finished[0].move


def test_reusing_agents_keep_one_tree_per_seat_like_direct_agents(worker: MoveWorker) -> None:
    spec = "ismcts:iterations=200,reuse=true"
    game = registry.create("sueca")
    direct = {seat: agents.make(spec, game) for seat in (0, 1)}  # what the arena does: one agent per seat
    worker_moves: list[int] = []
    direct_moves: list[int] = []
    for hand in range(2):
        state = game.new_hand(random.Random(100 + hand))
        for agent in direct.values():
            agent.reset()  # the arena resets its agents at every new hand
        other_seats = random.Random(hand)
        while not state.is_terminal():
            seat = state.current_player
            moves = state.legal_moves()
            if seat not in direct:
                state.do(moves[other_seats.randrange(len(moves))])
                continue
            seed = 1000 * hand + len(state.history)
            req = MoveRequest("sueca", {}, spec, state.to_json(), seat, seed)
            worker_moves.append(_worker_move(worker, req))
            direct_moves.append(direct[seat].choose(state.observation(seat), random.Random(seed)))
            state.do(direct_moves[-1])
    assert worker_moves == direct_moves


def test_a_repeated_position_is_decided_afresh(worker: MoveWorker) -> None:
    """Asking again for a position already decided (undo, a new game with the same deal) must not search
    on from the kept tree: the worker decides as a fresh agent does."""
    spec = "ismcts:iterations=200,reuse=true"
    for seed in range(5):
        req, _legal = _request(spec, seed=seed)
        fresh = choose_move(req)
        assert [_worker_move(worker, req) for _ in range(3)] == [fresh] * 3
