"""Crash safety: a child process that autosaves after every move is SIGKILLed at random moments, 150 times.

Each child continues from whatever the previous crash left (load -> play -> save after every move), so the
test also covers repeated crash/recover cycles. After every kill the save must load without any warning and
be exactly the last completed save or the one being written (at most one move behind the child), and its
moves must be a prefix of the deterministic game from the same seed.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

from saves.autosave import AutosaveStore
from saves.demo import demo_session, make_agents, step
from saves.session import GameSession

KILLS = 150
VARIANT = {"target": 0}  # one hand of Sueca per match: 40 moves, so many matches start and end


def progress(session: GameSession) -> int:
    """Steps taken: moves in every hand plus the deals of later hands."""
    return sum(len(h) for h in session.moves) + session.match.hand_index


def _child(directory: Path, write_fd: int, first_seed: int) -> None:
    """Continue the saved game (or start one), autosaving after every step; report each save's progress.

    ``next S N`` is written just before saving the session of seed S at progress N, ``saved S N`` right after.
    """
    store = AutosaveStore(directory)
    session = store.load().session

    def save(s: GameSession) -> None:
        os.write(write_fd, f"next {s.seed} {progress(s)}\n".encode())
        store.save(s)
        os.write(write_fd, f"saved {s.seed} {progress(s)}\n".encode())

    if session is None or session.match.over:
        session = demo_session(first_seed if session is None else session.seed + 1, variant=VARIANT)
        save(session)
    players = make_agents(session)
    while True:
        if not step(session, players):
            session = demo_session(session.seed + 1, variant=VARIANT)
            players = make_agents(session)
        save(session)


def _reference(seed: int, cache: dict[int, list[list[list[int]]]]) -> list[list[list[int]]]:
    """The moves of the deterministic game ``seed`` after every step."""
    if seed not in cache:
        session = demo_session(seed, variant=VARIANT)
        players = make_agents(session)
        snapshots = [[list(h) for h in session.moves]]
        while step(session, players):
            snapshots.append([list(h) for h in session.moves])
        cache[seed] = snapshots
    return cache[seed]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork() to start the crashing child cheaply")
def test_sigkill_at_random_moments_never_loses_more_than_one_move(tmp_path: Path) -> None:
    rng = random.Random(20261122)
    references: dict[int, list[list[list[int]]]] = {}
    on_disk: tuple[int, int] | None = None  # (seed, progress) of the save before each child starts
    interrupted_saves = caught_between_old_and_new = 0
    _reference(1000, references)  # imports everything the child needs before forking
    for kill in range(KILLS):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: play and autosave until killed
            code = 1
            try:
                os.close(read_fd)
                _child(tmp_path, write_fd, first_seed=1000)
            finally:
                os._exit(code)
        os.close(write_fd)
        time.sleep(rng.uniform(0.0, 0.03))  # a random moment, not a time limit
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"kill {kill}: child exited"
        last_saved, pending = on_disk, None
        for line in _drain(read_fd).splitlines():
            kind, seed, n = line.split()
            if kind == "next":
                pending = (int(seed), int(n))
            else:
                assert (int(seed), int(n)) == pending
                last_saved, pending = pending, None
        result = AutosaveStore(tmp_path).load()
        assert result.warnings == [], f"kill {kill}: {result.warnings}"
        if result.session is None:
            # Only possible when the child was killed before its very first save completed (e.g. it was
            # still starting up on a loaded machine): then there is nothing to lose yet.
            assert last_saved is None, f"kill {kill}: a completed save {last_saved} did not load"
            continue
        assert result.source == "current"
        loaded = result.session
        got = (loaded.seed, progress(loaded))
        assert got in (last_saved, pending), f"kill {kill}: loaded {got}, saved {last_saved}, writing {pending}"
        interrupted_saves += pending is not None
        caught_between_old_and_new += pending is not None and got == pending
        assert loaded.moves == _reference(loaded.seed, references)[got[1]], f"kill {kill}: not the real game"
        on_disk = got
    assert not list(tmp_path.glob("*.corrupt-*")) and not list(tmp_path.glob("*.newer-*"))
    print(f"{KILLS} kills, {interrupted_saves} during a save, {caught_between_old_and_new} of those "
          f"after the new save was in place; last position {on_disk}")
    assert interrupted_saves > 0  # some kills landed while a save was being written


def _drain(fd: int) -> str:
    chunks = []
    while True:
        data = os.read(fd, 65536)
        if not data:
            break
        chunks.append(data)
    os.close(fd)
    return b"".join(chunks).decode()
