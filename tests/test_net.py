"""Network play with real processes on 127.0.0.1: a host (``python -m net.host``) and its clients
(``python -m net.client``) play whole hands of every game; every message a client received is checked against
the true game afterwards (its own observation exactly, no other seat's hidden card, the legal moves, the
public events); the remote game equals the same game played locally; a killed client rejoins; a killed host
resumes from its autosave.

The timeouts below only stop a hung test; nothing here measures speed.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine import agents, registry
from engine.game import Game, GameState
from engine.match import Match
from net.client import choose
from net.table import ai_move
from saves.autosave import AutosaveStore
from saves.records import RecordsDB
from saves.session import GameSession, Seat

ROOT = Path(__file__).resolve().parents[1]
HANG_GUARD = 180.0


# --- checking what a client received -------------------------------------------------------------------
def true_states(session: GameSession) -> dict[tuple[int, int], GameState]:
    """The true state at every (hand, ply) of a session, replayed from its seed and moves."""
    match = Match.start(session.match.game, session.seed)
    states: dict[tuple[int, int], GameState] = {}
    for hand, moves in enumerate(session.moves):
        if hand > 0:
            match.next_hand()
        states[(hand, 0)] = match.state.clone()
        for ply, move in enumerate(moves):
            match.state.apply(move)
            states[(hand, ply + 1)] = match.state.clone()
    return states


def check_messages(session: GameSession, messages: list[dict[str, Any]]) -> dict[str, int]:
    """Assert that every message of one client shows exactly its seat's view of the true game; count them."""
    states = true_states(session)
    seat = next(m["seat"] for m in messages if m["type"] in ("welcome", "start"))
    counts: dict[str, int] = {}
    for m in messages:
        kind = m["type"]
        counts[kind] = counts.get(kind, 0) + 1
        check_message(session, states, seat, m)
    return counts


def check_message(session: GameSession, states: dict[tuple[int, int], GameState], seat: int,
                  m: dict[str, Any]) -> None:
    """Assert that one message shows exactly ``seat``'s view of the true game (a history: each message in it)."""
    game = session.match.game
    kind = m["type"]
    if kind == "history":
        inner, first = m["messages"], m["first"]
        assert [x["type"] for x in inner] == ["state"] + ["played", "state"] * (m["ply"] - first)
        assert [x["ply"] for x in inner] == [first] + [p for p in range(first + 1, m["ply"] + 1) for _ in range(2)]
        assert all(x["hand"] == m["hand"] for x in inner)
        for x in inner:
            check_message(session, states, seat, x)
    elif kind in ("welcome", "start"):
        assert m["seat"] == seat and m["game"] == game.name
    elif kind == "state":
        true = states[(m["hand"], m["ply"])]
        obs = true.observation(seat)
        assert m["observation"] == json.loads(json.dumps(obs.to_dict())), (m["hand"], m["ply"])
        hands = m["observation"]["state"]["hands"]
        for other, text in enumerate(hands):
            if other != seat:  # the literal check: no card of another hand that this seat cannot see
                assert game.deck.parse_set(text) & obs.unknown == 0
                assert game.deck.parse_set(text) & true.hands[other] == game.deck.parse_set(text)  # type: ignore[attr-defined]
        assert m["current_player"] == true.current_player
    elif kind == "played":
        before, after = states[(m["hand"], m["ply"] - 1)], states[(m["hand"], m["ply"])]
        move = session.moves[m["hand"]][m["ply"] - 1]
        assert m["seat"] == before.current_player
        if m["hidden"]:
            assert m["seat"] != seat and before.is_pass_move(move)
            assert m["move"] is None and m["cards"] == [] and m["text"] is None
        else:
            assert m["move"] == move and m["text"] == before.move_text(move)
            unknown = after.observation(seat).unknown
            assert all(not unknown >> c & 1 for c in m["cards"]), "an event revealed a hidden card"
    elif kind == "your_turn":
        true = states[(m["hand"], m["ply"])]
        assert true.current_player == seat == m["seat"]
        assert [x["move"] for x in m["moves"]] == true.legal_moves()
    elif kind == "hand_end":
        assert m["result"] == json.loads(json.dumps(session.match.hands[m["hand"]].to_dict()))
    elif kind == "match_end":
        assert session.match.over and m["totals"] == session.match.totals
    elif kind in ("error", "move_refused", "refused"):
        raise AssertionError(f"unexpected {kind}: {m}")


def check_histories(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Assert that each ``history`` a client got repeats exactly the ``played`` and ``state`` messages it had
    received live for those moves of the hand; returns the histories."""
    histories = []
    for i, m in enumerate(messages):
        if m["type"] != "history":
            continue
        histories.append(m)
        told = {(x["type"], x["ply"]): x for x in m["messages"]}
        live = [x for x in messages[:i] if x["type"] in ("played", "state") and x["hand"] == m["hand"]
                and m["first"] + (x["type"] == "played") <= x["ply"] <= m["ply"]]
        for x in live:
            expected = {k: v for k, v in x.items() if k != "totals"}
            assert told[(x["type"], x["ply"])] == expected, (x["type"], x["ply"])
    return histories


def play_locally(game: Game, seed: int, seats: list[str], client_seeds: dict[int, int], hands: int) -> GameSession:
    """The same table played in this process: remote seats by the client's agent and seed, AI seats as the host."""
    session = GameSession.start(game, [Seat("human", "x") if s == "remote" else Seat("ai", "ai", spec=s[3:])
                                       for s in seats], seed)
    player = agents.make("random", game)
    while True:
        state = session.match.state
        if state.is_terminal():
            session.match.finish_hand()
            if session.match.over or session.match.hand_index + 1 >= hands:
                return session
            session.next_hand()
            continue
        seat = state.current_player
        if seats[seat] == "remote":
            turn = {"seat": seat, "hand": session.match.hand_index, "ply": session.ply,
                    "moves": [{"move": m} for m in state.legal_moves()]}
            move = choose(player, turn, client_seeds[seat])
        else:
            move = ai_move(game, seats[seat][3:], state.clone(), seat, session.ai_rng())
        session.apply(move)


# --- processes ----------------------------------------------------------------------------------------------
class NetTable:
    """A host process and its client processes, each with a CARDTABLE_HOME of its own under ``tmp``."""

    def __init__(self, tmp: Path, game: str, seats: list[str], seed: int, hands: int | None = 1,
                 variant: list[str] | None = None, beacon_port: int | None = None) -> None:
        self.tmp, self.game, self.seats, self.seed, self.hands = tmp, game, seats, seed, hands
        self.variant = variant or []
        self.beacon_port = beacon_port
        """Announce the table to this UDP port of 127.0.0.1 (None: no beacons)."""
        self.host: subprocess.Popen[str] | None = None
        self.info: dict[str, Any] = {}
        self.clients: dict[int, subprocess.Popen[str]] = {}

    def _env(self, home: str) -> dict[str, str]:
        env = dict(os.environ)
        env["CARDTABLE_HOME"] = str(self.tmp / home)
        env["PYTHONPATH"] = str(ROOT)
        return env

    def start_host(self, resume: bool = False) -> dict[str, Any]:
        args = [sys.executable, "-m", "net.host", "--bind", "127.0.0.1", "--hand-pause", "0", "--linger", "1"]
        args += ["--no-announce"] if self.beacon_port is None else \
            ["--announce-to", "127.0.0.1", "--discovery-port", str(self.beacon_port)]
        if resume:
            args.append("--resume")
        else:
            args += ["--game", self.game, "--seats", ",".join(self.seats), "--seed", str(self.seed), "--port", "0"]
            args += ["--variant", *self.variant] if self.variant else []
            args += ["--hands", str(self.hands)] if self.hands else []
        self.host = subprocess.Popen(args, cwd=ROOT, env=self._env("host"), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        assert self.host.stdout is not None
        ready, _, _ = select.select([self.host.stdout], [], [], HANG_GUARD)
        line = self.host.stdout.readline() if ready else ""
        if not line:
            self.host.kill()
            _, err = self.host.communicate()
            raise AssertionError(f"the host did not start: {err}")
        self.info = json.loads(line)
        return self.info

    def start_client(self, i: int, seed: int, extra: list[str] | None = None) -> None:
        args = [sys.executable, "-m", "net.client", "--address", self.info["address"], "--code", self.info["code"],
                "--name", f"Client {i}", "--agent", "random", "--seed", str(seed), "--log", str(self.log(i)),
                "--token-file", str(self.tmp / f"client{i}.token"), "--reconnect-seconds", "60", *(extra or [])]
        self.clients[i] = subprocess.Popen(args, cwd=ROOT, env=self._env(f"client{i}"), stdout=subprocess.DEVNULL,
                                           stderr=subprocess.PIPE, text=True)

    def log(self, i: int) -> Path:
        return self.tmp / f"client{i}.jsonl"

    def messages(self, i: int) -> list[dict[str, Any]]:
        path = self.log(i)
        lines = path.read_text().splitlines() if path.exists() else []
        out = []
        for n, line in enumerate(lines):
            try:
                out.append(json.loads(line))
            except ValueError:
                if n < len(lines) - 1:
                    raise
                # the last line may be caught half written while the client is still running
        return out

    def wait_for(self, i: int, kind: str, count: int) -> None:
        """Wait until client ``i`` has received ``count`` messages of ``kind`` (a hang guard only)."""
        deadline = time.monotonic() + HANG_GUARD
        while sum(m["type"] == kind for m in self.messages(i)) < count:
            assert time.monotonic() < deadline, f"client {i} never got {count} {kind} messages"
            time.sleep(0.05)

    def finish(self) -> None:
        for i, proc in self.clients.items():
            proc.wait(timeout=HANG_GUARD)
            assert proc.returncode == 0, f"client {i}: {proc.stderr.read() if proc.stderr else ''}"
        assert self.host is not None
        self.host.wait(timeout=HANG_GUARD)
        err = self.host.stderr.read() if self.host.stderr else ""
        assert self.host.returncode == 0, err
        assert "warning" not in err, err

    def kill(self) -> None:
        for proc in [*self.clients.values(), *([self.host] if self.host else [])]:
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    def final_session(self) -> GameSession:
        """The finished table: the record of the match end, else (hand limit) the host's autosave."""
        end = next((m for m in self.messages(0) if m["type"] == "match_end"), None)
        return GameSession.from_dict(end["record"]) if end is not None else self.saved_session()

    def saved_session(self) -> GameSession:
        loaded = AutosaveStore(self.tmp / "host" / "data" / "net-host").load()
        assert loaded.session is not None and not loaded.warnings
        return loaded.session

    def client_seats(self) -> dict[int, int]:
        """Client number -> the seat it got."""
        return {i: next(m["seat"] for m in self.messages(i) if m["type"] == "welcome") for i in self.clients}

    def verify(self, session: GameSession, seeds: dict[int, int]) -> None:
        """Every client's messages against the true game, and the remote game against the local one."""
        for i in self.clients:
            counts = check_messages(session, self.messages(i))
            assert counts.get("state", 0) > 0
            ended = {m["hand"] for m in self.messages(i) if m["type"] == "hand_end"}
            assert ended == set(range(len(session.match.hands)))
        seat_seeds = {seat: seeds[i] for i, seat in self.client_seats().items()}
        local = play_locally(session.match.game, self.seed, self.seats, seat_seeds, self.hands or 10**6)
        assert local.moves == session.moves
        assert local.match.state == session.match.state
        assert local.match.totals == session.match.totals


@pytest.fixture
def net_table(tmp_path: Path):
    tables: list[NetTable] = []

    def make(*args: Any, **kwargs: Any) -> NetTable:
        tables.append(NetTable(tmp_path, *args, **kwargs))
        return tables[-1]

    yield make
    for t in tables:
        t.kill()


def remote_seats(game: Game) -> list[str]:
    """Up to three remote seats, the rest played by the host's random AI."""
    return ["remote" if i < 3 else "ai:random" for i in range(game.num_players)]


@pytest.mark.parametrize("name", registry.names())
def test_a_whole_hand_of_every_game_over_the_network(net_table: Any, name: str) -> None:
    game = registry.create(name)
    table = net_table(name, remote_seats(game), seed=101)
    table.start_host()
    seeds = {i: 500 + i for i in range(min(3, game.num_players))}
    for i, seed in seeds.items():
        table.start_client(i, seed)
    table.finish()
    session = table.final_session()
    assert session.match.state.is_terminal() and len(session.match.hands) == 1
    table.verify(session, seeds)


def test_a_finished_match_is_recorded_on_each_players_machine(net_table: Any, tmp_path: Path) -> None:
    table = net_table("briscola", ["remote", "remote"], seed=7, hands=None)
    table.start_host()
    seeds = {0: 11, 1: 12}
    for i, seed in seeds.items():
        table.start_client(i, seed, ["--record"])
    table.finish()
    assert not AutosaveStore(tmp_path / "host" / "data" / "net-host").exists()  # finished: nothing to continue
    end = next(m for m in table.messages(0) if m["type"] == "match_end")
    session = GameSession.from_dict(end["record"])
    assert "net" not in session.meta and "token" not in json.dumps(end["record"])
    table.verify(session, seeds)
    for i, seat in table.client_seats().items():
        db = RecordsDB(tmp_path / f"client{i}" / "data" / "records.sqlite3")
        try:
            [summary] = db.list_games()
            assert summary.human_seat == seat and summary.game == "briscola"
            assert db.load_record(summary.id).replay_error is None
        finally:
            db.close()


def test_a_killed_client_rejoins_its_seat_and_the_hand_finishes(net_table: Any) -> None:
    table = net_table("sueca", ["remote", "remote", "remote", "ai:random"], seed=23)
    table.start_host()
    seeds = {0: 1, 1: 2, 2: 3}
    for i, seed in seeds.items():
        table.start_client(i, seed)
    table.wait_for(1, "your_turn", 2)
    table.clients[1].send_signal(signal.SIGKILL)
    table.clients[1].wait()
    table.start_client(1, seeds[1])  # the same token file: it rejoins its seat
    table.finish()
    rejoined = table.messages(1)
    assert [m["rejoined"] for m in rejoined if m["type"] == "welcome"] == [False, True]
    [history] = check_histories(rejoined)  # the hand so far, as it was seen live: the table's log is as before
    assert history["ply"] >= 2
    session = table.saved_session()
    assert session.match.state.is_terminal()
    table.verify(session, seeds)


def test_a_killed_host_resumes_from_its_autosave_and_the_clients_rejoin(net_table: Any) -> None:
    table = net_table("hearts", ["remote", "remote", "remote", "ai:random"], seed=31)
    table.start_host()
    seeds = {0: 4, 1: 5, 2: 6}
    for i, seed in seeds.items():
        table.start_client(i, seed)
    table.wait_for(0, "played", 20)
    assert table.host is not None
    table.host.send_signal(signal.SIGKILL)
    table.host.wait()
    port = table.info["port"]
    info = table.start_host(resume=True)
    assert info["port"] == port and info["code"] == table.info["code"]
    table.finish()
    for i in table.clients:
        welcomes = [m for m in table.messages(i) if m["type"] == "welcome"]
        assert [w["rejoined"] for w in welcomes] == [False, True]
        [history] = check_histories(table.messages(i))  # each player's log of the hand so far, as before
        assert history["first"] == 0
        played = [m for m in history["messages"] if m["type"] == "played"]
        assert len(played) == history["ply"] >= 20
        seat = welcomes[0]["seat"]
        passes = [m for m in played if m["ply"] <= 12]  # Hearts: the pass is private to giver and receiver
        assert all(m["hidden"] == (m["seat"] != seat) for m in passes) and len(passes) == 12
    session = table.saved_session()
    assert session.match.state.is_terminal()
    table.verify(session, seeds)  # every message, each history's too, against the true game


def test_a_killed_host_resumes_on_a_new_port_when_its_own_is_taken_and_the_clients_follow(net_table: Any) -> None:
    """The old port is taken while the host is down: the resumed host listens on a new port with the same code,
    and the players, started again with the new address and their tokens, take their seats back and finish."""
    import socket

    table = net_table("scopa", ["remote", "remote"], seed=41)
    table.start_host()
    seeds = {0: 7, 1: 8}
    for i, seed in seeds.items():
        table.start_client(i, seed)
    table.wait_for(1, "played", 6)
    assert table.host is not None
    table.host.send_signal(signal.SIGKILL)
    table.host.wait()
    old = table.info
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as blocker:
        blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the killed host's connections linger
        blocker.bind(("127.0.0.1", old["port"]))
        blocker.listen()  # someone else has the port now
        for proc in table.clients.values():  # the players' programs are restarted with the new address
            proc.kill()
            proc.wait()
        info = table.start_host(resume=True)
        assert info["port"] != old["port"] and info["code"] == old["code"]
        for i, seed in seeds.items():
            table.start_client(i, seed)
        table.finish()
    for i in table.clients:
        welcomes = [m for m in table.messages(i) if m["type"] == "welcome"]
        assert [w["rejoined"] for w in welcomes] == [False, True]
        assert len(check_histories(table.messages(i))) == 1
    session = table.saved_session()
    assert session.match.state.is_terminal()
    table.verify(session, seeds)


def free_udp_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_client_follows_a_resumed_host_to_its_new_port_by_its_beacons(net_table: Any) -> None:
    """The old port is taken while the host is down and the resumed host listens on a new one: the client, still
    running, hears the table's beacon while it reconnects (beacons on 127.0.0.1 only), follows it and rejoins
    its seat there with its token; it gets the hand so far and the hand finishes."""
    import socket

    beacons = free_udp_port()
    table = net_table("briscola", ["remote", "ai:random"], seed=43, beacon_port=beacons)
    table.start_host()
    seeds = {0: 9}
    table.start_client(0, seeds[0], ["--follow", str(beacons), "--follow-bind", "127.0.0.1"])
    table.wait_for(0, "played", 6)
    assert table.host is not None
    table.host.send_signal(signal.SIGKILL)
    table.host.wait()
    old = table.info
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as blocker:
        blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        blocker.bind(("127.0.0.1", old["port"]))
        blocker.listen()  # someone else has the port now
        info = table.start_host(resume=True)
        assert info["port"] != old["port"] and info["code"] == old["code"]
        table.finish()
    messages = table.messages(0)
    assert [m["rejoined"] for m in messages if m["type"] == "welcome"] == [False, True]
    moved = [m for m in messages if m["type"] == "connection" and m["state"] == "moved"]
    assert [m["address"] for m in moved] == [info["address"]]
    assert len(check_histories(messages)) == 1
    session = table.final_session()
    assert session.match.state.is_terminal()
    table.verify(session, seeds)
