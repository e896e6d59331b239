"""Network play in one process on 127.0.0.1: bad input is refused and the table plays on, a lost seat goes to
an AI and comes back, a soak of random disconnects loses nothing, local seats and the host's records,
discovery beacons, and the protocol's checks.

The timeouts below only stop a hung test; nothing here measures speed.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from engine import agents, registry
from net import protocol as p
from net.client import Client, choose
from net.discovery import Announcer, Browser, TableFinder, find_table, parse_beacon
from net.host import Host
from net.table import Table, TableError, record_for_seat
from saves.autosave import AutosaveStore
from saves.records import RecordsDB, RecordsError
from tests.test_net import check_messages, play_locally

GUARD = 60.0


def make_host(tmp: Path, game: str, seats: str, seed: int = 3, hands: int | None = 1, **kwargs: Any) -> Host:
    table = Table.create(game, seats, seed=seed, hand_limit=hands)
    host = Host(table, "127.0.0.1", 0, autosave=AutosaveStore(tmp / "autosave"), hand_pause=0, **kwargs)
    host.start()
    return host


class Raw:
    """A hand-driven WebSocket connection that keeps every message it receives."""

    def __init__(self, host: Host) -> None:
        self.ws: ClientConnection = connect(host.address, proxy=None, max_size=p.MAX_HOST_MESSAGE).__enter__()
        self.code = host.table.code
        self.got: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def join(self, seat: int | None = None, kind: str = "join", **fields: Any) -> dict[str, Any]:
        self.send({"type": kind, "protocol": p.PROTOCOL_VERSION, "app": p.app_version(), "code": self.code,
                   "name": "Raw", "seat": seat, **fields})
        return self.next("welcome", "refused")

    def next(self, *kinds: str) -> dict[str, Any]:
        """The next message of one of ``kinds`` (others are kept in :attr:`got` too)."""
        deadline = time.monotonic() + GUARD
        while time.monotonic() < deadline:
            message = json.loads(self.ws.recv(timeout=GUARD))
            self.got.append(message)
            if message["type"] in kinds:
                return message
        raise AssertionError(f"no {kinds} message")

    def close(self) -> None:
        self.ws.close()


def play_client(client: Client, seed: int, log: list[dict[str, Any]], drops: random.Random | None = None,
                dropped: list[int] | None = None) -> threading.Thread:
    """Play ``client``'s seat with the random agent in a thread, keeping every message; optionally drop the
    connection at random moments."""
    def run() -> None:
        agent = None
        deadline = time.monotonic() + 4 * GUARD
        while time.monotonic() < deadline:
            message = client.inbox.get(timeout=GUARD)
            log.append(message)
            kind = message["type"]
            if kind == "welcome":
                agent = agents.make("random", registry.create(message["game"], message["variant"]))
            elif kind == "your_turn" and agent is not None:
                client.move(choose(agent, message, seed), message["hand"], message["ply"])
            elif kind == "hand_end":
                client.ready(message["hand"])
            elif kind in ("match_end", "closed", "refused"):
                return
            if drops is not None and dropped is not None and kind == "state" and drops.random() < 0.08:
                dropped.append(message["ply"])
                client.drop()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def expected_refusals(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages without the refusals a test provoked on purpose."""
    return [m for m in messages if m["type"] not in ("error", "move_refused", "refused")]


def test_garbage_oversized_and_out_of_turn_messages_are_refused_and_the_table_plays_on(tmp_path: Path) -> None:
    host = make_host(tmp_path, "sueca", "remote,remote,ai:random,ai:random")
    try:
        stranger = Raw(host)
        for text, reason in [("not json", p.BAD_JSON), ("[1, 2]", p.NOT_OBJECT), ('{"type": "hack"}', p.UNKNOWN_TYPE),
                             ("[" * 5000 + "]" * 5000, p.BAD_JSON + "|" + p.NOT_OBJECT),
                             ('{"type": "join", "protocol": "1", "app": "x", "code": "x", "name": "x"}', p.BAD_FIELD),
                             ('{"type": "move", "move": 1, "hand": 0, "ply": 0}', p.NOT_JOINED)]:
            stranger.send(text)  # (deep nesting is bad_json below the interpreter's recursion limit)
            assert stranger.next("error")["reason"] in reason.split("|"), text
        stranger.send({"type": "ping", "id": 7})
        assert stranger.next("pong")["id"] == 7
        assert stranger.join(code="WRONG1")["reason"] == p.BAD_CODE
        old = Raw(host)
        refused = old.join(protocol=p.PROTOCOL_VERSION + 1)
        assert refused["reason"] == p.PROTOCOL_MISMATCH and refused["host_protocol"] == p.PROTOCOL_VERSION
        assert "protocol" in refused["message"]
        future = Raw(host)  # a later version's join, whatever its other fields, is told the versions differ
        future.send({"type": "join", "protocol": p.PROTOCOL_VERSION + 1, "table": "x", "nickname": 5})
        assert future.next("refused")["reason"] == p.PROTOCOL_MISMATCH

        raw = Raw(host)
        welcome = raw.join(seat=0)
        assert welcome["type"] == "welcome" and welcome["seat"] == 0 and not welcome["app_mismatch"]
        assert Raw(host).join(seat=0)["reason"] == p.SEAT_TAKEN
        assert Raw(host).join(seat=2)["reason"] == p.BAD_SEAT
        raw.send({"type": "join", "protocol": 1, "app": "x", "code": raw.code, "name": "again"})
        assert raw.next("error")["reason"] == p.ALREADY_JOINED
        raw.send({"type": "move", "move": 0, "hand": 0, "ply": 0})
        assert raw.next("move_refused")["reason"] == p.NOT_STARTED

        log: list[dict[str, Any]] = []
        other = Client(host.address, host.table.code, "Other", seat=1)
        other.start()
        thread = play_client(other, 9, log)
        deadline = time.monotonic() + GUARD
        while not host.table.slots[1].connected:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert Raw(host).join()["reason"] == p.NO_FREE_SEAT
        host.start_match()
        turn = raw.next("your_turn")
        hand, ply = turn["hand"], turn["ply"]
        moves = [m["move"] for m in turn["moves"]]
        illegal = next(c for c in range(host.table.game.deck.size) if c not in moves)
        for message, reason in [({"move": moves[0], "hand": hand, "ply": ply + 1}, p.STALE),
                                ({"move": illegal, "hand": hand, "ply": ply}, p.ILLEGAL),
                                ({"move": 10**30, "hand": hand, "ply": ply}, p.BAD_FIELD)]:
            raw.send({"type": "move", **message})
            answer = raw.next("move_refused", "error")
            assert answer["reason"] == reason, message
        raw.send({"type": "move", "move": True, "hand": hand, "ply": ply})
        assert raw.next("error")["reason"] == p.BAD_FIELD
        raw.send("x" * (p.MAX_CLIENT_MESSAGE + 1))  # too big: the host closes this connection (1009)
        with pytest.raises(ConnectionClosed) as closed:
            raw.next("never")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

        back = Raw(host)
        assert back.join(seat=0, kind="rejoin", token="f" * 32)["reason"] == p.BAD_TOKEN
        back = Raw(host)
        assert back.join(seat=0, kind="rejoin", token=welcome["token"])["rejoined"] is True
        # play seat 0 by hand to the end of the hand, sending a move out of turn whenever it is not ours
        while True:
            message = back.next("your_turn", "played", "closed")
            if message["type"] == "closed":
                break
            if message["type"] == "your_turn":
                back.send({"type": "move", "move": message["moves"][0]["move"], "hand": message["hand"],
                           "ply": message["ply"]})
            elif message["seat"] == 0 and host.table.ply < 39 and not host.table.state.is_terminal():
                back.send({"type": "move", "move": 0, "hand": message["hand"], "ply": message["ply"]})
        thread.join(GUARD)
        refusals = [m for m in back.got if m["type"] == "move_refused"]
        assert refusals and {m["reason"] for m in refusals} <= {p.NOT_YOUR_TURN, p.STALE, p.ILLEGAL}
        session = host.table.session
        assert session is not None and session.match.state.is_terminal()
        check_messages(session, expected_refusals(back.got))
        check_messages(session, log)
        assert AutosaveStore(tmp_path / "autosave").load().session.moves == session.moves  # type: ignore[union-attr]
        assert not host.errors
    finally:
        host.stop()


def test_a_seat_left_empty_goes_to_an_ai_and_its_player_takes_it_back(tmp_path: Path) -> None:
    host = make_host(tmp_path, "sueca", "remote,remote,ai:random,ai:random", rejoin_timeout=0.2, takeover="random")
    try:
        raw = Raw(host)
        welcome = raw.join(seat=0)
        log: list[dict[str, Any]] = []
        other = Client(host.address, host.table.code, "Other", seat=1)
        other.start()
        thread = play_client(other, 5, log)
        while not host.table.slots[1].connected:
            time.sleep(0.02)
        host.start_match()
        raw.next("your_turn")
        raw.close()  # gone: after 0.2 s the AI plays seat 0
        deadline = time.monotonic() + GUARD
        while not any(m["type"] == "played" and m["seat"] == 0 for m in log):
            assert time.monotonic() < deadline, "the AI never played the empty seat"
            time.sleep(0.02)
        lobby = [m for m in log if m["type"] == "lobby"][-1]
        assert lobby["seats"][0]["takeover"] is True and lobby["seats"][0]["connected"] is False
        back = Raw(host)
        assert back.join(seat=0, kind="rejoin", token=welcome["token"])["rejoined"] is True
        assert back.next("lobby")["seats"][0]["takeover"] is False
        while True:
            message = back.next("your_turn", "closed")
            if message["type"] == "closed":
                break
            back.send({"type": "move", "move": message["moves"][0]["move"], "hand": message["hand"],
                       "ply": message["ply"]})
        thread.join(GUARD)
        session = host.table.session
        assert session is not None and session.match.state.is_terminal()
        check_messages(session, back.got)
        check_messages(session, log)
    finally:
        host.stop()


def test_soak_random_disconnects_lose_nothing(tmp_path: Path) -> None:
    seats = ["remote", "remote", "remote", "ai:random"]
    host = make_host(tmp_path, "sueca", ",".join(seats), seed=77, hands=3)
    try:
        seeds = {0: 31, 1: 32, 2: 33}
        logs: dict[int, list[dict[str, Any]]] = {seat: [] for seat in seeds}
        dropped: list[int] = []
        clients = {seat: Client(host.address, host.table.code, f"P{seat}", seat=seat, reconnect_seconds=GUARD)
                   for seat in seeds}
        threads = []
        for seat, client in clients.items():
            client.start()
            threads.append(play_client(client, seeds[seat], logs[seat], random.Random(seat), dropped))
        deadline = time.monotonic() + GUARD
        while not all(host.table.slots[s].connected for s in seeds):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        host.start_match()
        for thread in threads:
            thread.join(4 * GUARD)
            assert not thread.is_alive()
        for client in clients.values():
            client.close()
        assert len(dropped) >= 5  # the seeded drops really happened
        session = host.table.session
        assert session is not None and len(session.match.hands) == 3
        for seat in seeds:
            welcomes = [m for m in logs[seat] if m["type"] == "welcome"]
            assert len(welcomes) >= 1 and all(m["seat"] == seat for m in welcomes)
            refused = [m for m in logs[seat] if m["type"] == "move_refused"]
            assert all(m["reason"] in (p.STALE, p.NOT_YOUR_TURN) for m in refused)  # a move sent just before a drop
            check_messages(session, [m for m in logs[seat] if m["type"] != "move_refused"])
        local = play_locally(session.match.game, 77, seats, seeds, 3)
        assert local.moves == session.moves and local.match.state == session.match.state
        assert not host.errors
    finally:
        host.stop()


def test_local_seats_play_through_the_host_and_the_host_records_for_them(tmp_path: Path) -> None:
    records = tmp_path / "records.sqlite3"
    table = Table.create("briscola", "local,remote", seed=4)
    host = Host(table, "127.0.0.1", 0, autosave=AutosaveStore(tmp_path / "autosave"), hand_pause=0,
                records=lambda: RecordsDB(records))
    host.start()
    try:
        log: list[dict[str, Any]] = []
        remote = Client(host.address, table.code, "Remote")
        remote.start()
        thread = play_client(remote, 3, log)
        lobby = host.events.get(timeout=GUARD)
        assert lobby[0] == -1 and lobby[1]["type"] == "lobby"
        while not table.all_taken():
            time.sleep(0.02)
        host.start_match()
        mine: list[dict[str, Any]] = []
        rng = random.Random(1)
        while not any(m["type"] == "match_end" for m in mine):
            seat, message = host.events.get(timeout=GUARD)
            if seat == 0:
                mine.append(message)
                if message["type"] == "your_turn":
                    move = rng.choice(message["moves"])["move"]
                    host.play(0, move, message["hand"], message["ply"])
        assert host.finished.wait(GUARD)
        thread.join(GUARD)
        end = next(m for m in mine if m["type"] == "match_end")
        assert host.record_ids.keys() == {0}
        db = RecordsDB(records)
        try:
            [summary] = db.list_games()
            assert summary.human_seat == 0 and summary.id == host.record_ids[0]
        finally:
            db.close()
        assert not AutosaveStore(tmp_path / "autosave").exists()
        session = table.session
        assert session is not None and session.match.over
        assert end["record"]["moves"] == session.moves
        check_messages(session, mine)
        check_messages(session, log)
    finally:
        host.stop()


def test_tables_are_found_by_their_beacons_which_never_hold_the_code(tmp_path: Path) -> None:
    browser = Browser(port=0, bind="127.0.0.1")
    announcer = Announcer(targets=["127.0.0.1"], port=browser.port, interval=0.05)
    host = make_host(tmp_path, "scopa", "remote,ai:random", announcer=announcer)
    try:
        deadline = time.monotonic() + GUARD
        while not browser.tables():
            assert time.monotonic() < deadline, "no beacon arrived"
            time.sleep(0.02)
        [found] = browser.tables()
        assert found["address"] == host.address and found["game"] == "scopa" and found["free_seats"] == [0]
        assert host.table.code not in json.dumps(found) and found["table"] == host.table.table_id
    finally:
        host.stop()
        browser.close()
    assert parse_beacon(b"\xff") is None and parse_beacon(b"[]") is None
    assert parse_beacon(json.dumps({"format": "cardtable-table", "protocol": 1, "game": "x", "port": 0}).encode()) \
        is None


def test_a_reconnecting_player_follows_only_its_own_tables_beacon_from_the_same_computer() -> None:
    """The matching of a lost table's beacons: the same table id and protocol, from the computer the player was
    connected to, at another address; a real beacon sent on 127.0.0.1 is heard by a :class:`TableFinder`."""
    beacon = {"format": "cardtable-table", "protocol": p.PROTOCOL_VERSION, "port": 40002, "game": "scopa",
              "table": "5eed", "address": "ws://127.0.0.1:40002"}
    old = "ws://127.0.0.1:40001"
    assert find_table([beacon], "5eed", "127.0.0.1", old) == "ws://127.0.0.1:40002"
    assert find_table([beacon], "other", "127.0.0.1", old) is None  # another table
    assert find_table([beacon], "5eed", "127.0.0.2", old) is None  # the same id from another computer
    assert find_table([{**beacon, "protocol": p.PROTOCOL_VERSION + 1}], "5eed", "127.0.0.1", old) is None
    assert find_table([{**beacon, "address": old}], "5eed", "127.0.0.1", old) is None  # where it already looks
    assert find_table([{k: v for k, v in beacon.items() if k != "table"}], "5eed", "127.0.0.1", old) is None
    finder = TableFinder("5eed", "127.0.0.1", port=0, bind="127.0.0.1")
    try:
        import socket

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            deadline = time.monotonic() + GUARD
            while finder.address(old) is None:
                assert time.monotonic() < deadline, "the beacon was never heard"
                for table_id in ("other", "5eed"):
                    fake = {**beacon, "table": table_id}
                    del fake["address"]  # the listener names the address from where the beacon came
                    sock.sendto(json.dumps(fake).encode(), ("127.0.0.1", finder.browser.port))
                time.sleep(0.05)
        assert finder.address(old) == "ws://127.0.0.1:40002" and finder.address("ws://127.0.0.1:40002") is None
    finally:
        finder.close()


def test_a_long_hands_history_keeps_its_last_moves_within_the_limit() -> None:
    """A seat's history is the messages it was sent live, rebuilt from the hand's deal; a history beyond the
    size limit keeps the last moves, from a ``state`` on."""
    table = Table.create("pharaoh", "remote,ai:random,ai:random,ai:random", seed=5)
    table.slots[0].taken = True
    live: list[dict[str, Any]] = [m for seat, m in table.start() if seat == 0 and m["type"] == "state"]
    rng = random.Random(1)
    while table.ply < 60 and not table.state.is_terminal():
        live += [m for seat, m in table.apply(rng.choice(table.state.legal_moves()))
                 if seat == 0 and m["type"] in ("played", "state")]
    table._hand_start = None  # as after a restart: the deal is worked out again from the seed
    full = table.history(0)
    assert full is not None and full["first"] == 0 and full["ply"] == table.ply
    assert full["messages"] == [{k: v for k, v in m.items() if k != "totals"} for m in live]
    limit = len(p.encode(full)) // 3
    short = table.history(0, limit=limit)
    assert short is not None and 0 < short["first"] < table.ply and len(p.encode(short)) <= limit + 200
    assert short["messages"] == full["messages"][2 * short["first"]:]
    start = short["messages"][0]
    assert start["type"] == "state" and start["ply"] == short["first"]


def test_a_client_ignores_a_message_type_it_does_not_know() -> None:
    """A later host of the same protocol may send more message types: the client passes them over silently and
    goes on; a malformed known message is still reported."""
    from websockets.sync.server import ServerConnection, serve

    def host(ws: ServerConnection) -> None:
        ws.recv()  # the join
        for message in ({"type": "novelty", "x": 1}, {"type": "state", "hand": 0}, {"type": "pong", "id": 4}):
            ws.send(json.dumps(message))
        ws.recv()  # until the client goes

    with serve(host, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        client = Client(f"ws://127.0.0.1:{server.socket.getsockname()[1]}", "ABCDEF", "Ana", reconnect_seconds=0)
        client.start()
        got = []
        while not got or got[-1]["type"] != "pong":
            got.append(client.inbox.get(timeout=GUARD))
        client.close()
        server.shutdown()
    assert [m["type"] for m in got] == ["connection", "error", "pong"]
    assert got[1]["reason"] == p.BAD_FIELD


def test_protocol_checks_each_field() -> None:
    ok = p.decode('{"type": "move", "move": 3, "hand": 0, "ply": 5}', p.CLIENT_MESSAGES)
    assert ok["move"] == 3
    for text in ['{"type": "move", "move": 3, "hand": 0}', '{"type": "move", "move": "3", "hand": 0, "ply": 0}',
                 '{"type": "move", "move": false, "hand": 0, "ply": 0}', '{"type": "welcome", "seat": 0}']:
        with pytest.raises(p.ProtocolError) as e:
            p.decode(text, p.CLIENT_MESSAGES)
        assert e.value.reason in (p.BAD_FIELD, p.UNKNOWN_TYPE)
    with pytest.raises(ValueError):
        p.encode({"type": "x", "v": float("nan")})
    assert p.normalize_code(" ab cd ") == "ABCD" and len(p.new_code()) == p.CODE_LENGTH
    assert p.clean_name("\x00\x1b") == "Player" and len(p.clean_name("x" * 100)) == p.NAME_LIMIT


def test_bad_table_setups_say_what_is_valid() -> None:
    with pytest.raises(TableError, match="needs 4 seats"):
        Table.create("sueca", "remote,ai:casual")
    with pytest.raises(TableError, match="valid seats are remote, local"):
        Table.create("sueca", "remote,human,ai:casual,ai:casual")
    with pytest.raises(TableError, match="bad AI 'nosuchagent'"):
        Table.create("sueca", "remote,ai:nosuchagent,ai:casual,ai:casual")
    with pytest.raises(TableError, match="at least one remote or local"):
        Table.create("briscola", "ai:casual,ai:random")
    with pytest.raises(TableError, match="unknown"):
        Table.create("nosuchgame", "remote")
    table = Table.create("briscola", "remote,ai:casual")
    assert table.slots[1].preset == "casual" and table.slots[1].spec


def test_ai_seats_can_think_in_the_move_worker_and_play_as_the_in_process_agents(tmp_path: Path) -> None:
    host = make_host(tmp_path, "briscola", "remote,ai:random", seed=12, hands=None, ai="worker")
    try:
        log: list[dict[str, Any]] = []
        client = Client(host.address, host.table.code, "Remote")
        client.start()
        thread = play_client(client, 8, log)
        while not host.table.all_taken():
            time.sleep(0.02)
        host.start_match()
        thread.join(2 * GUARD)
        assert host.finished.wait(GUARD) and not host.errors
        session = host.table.session
        assert session is not None and session.match.over
        check_messages(session, log)
        local = play_locally(session.match.game, 12, ["remote", "ai:random"], {0: 8}, 10**6)
        assert local.moves == session.moves
        db = RecordsDB(tmp_path / "records.sqlite3")
        try:
            with pytest.raises(RecordsError, match="not a human seat"):
                record_for_seat(db, host.table.public_record(), 1)
            assert db.load_record(record_for_seat(db, host.table.public_record(), 0)).human_seat == 0
        finally:
            db.close()
    finally:
        host.stop()


def test_net_never_imports_pygame_or_the_app() -> None:
    import ast

    root = Path(__file__).resolve().parents[1] / "net"
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert name.split(".")[0] not in ("pygame", "pygame_gui", "app"), f"{path.name} imports {name}"


def test_a_player_who_dropped_in_the_lobby_is_replaced_by_an_ai_once_the_game_starts(tmp_path: Path) -> None:
    host = make_host(tmp_path, "briscola", "remote,remote", rejoin_timeout=0.2, takeover="random")
    try:
        raw = Raw(host)
        assert raw.join(seat=0)["type"] == "welcome"
        raw.close()
        log: list[dict[str, Any]] = []
        client = Client(host.address, host.table.code, "Stays", seat=1)
        client.start()
        thread = play_client(client, 2, log)
        while not host.table.slots[1].connected or host.table.slots[0].connected:
            time.sleep(0.02)
        host.start_match()
        thread.join(2 * GUARD)
        assert host.finished.wait(GUARD)
        session = host.table.session
        assert session is not None and session.match.over and host.table.slots[0].takeover
        check_messages(session, log)
    finally:
        host.stop()


def test_two_local_seats_and_a_remote_one_each_get_only_their_own_view(tmp_path: Path) -> None:
    """Two players at the host's screen and one at another computer: each local seat's events carry only its own
    observation, the lobby names the AI seat by its level, and the hand is the same as played in one process."""
    records = tmp_path / "records.sqlite3"
    table = Table.create("sueca", "local,remote,local,ai:random", seed=6, hand_limit=1)
    host = Host(table, "127.0.0.1", 0, autosave=AutosaveStore(tmp_path / "autosave"), hand_pause=0,
                records=lambda: RecordsDB(records))
    host.start()
    try:
        log: list[dict[str, Any]] = []
        remote = Client(host.address, table.code, "Remote")
        remote.start()
        thread = play_client(remote, 3, log)
        while not table.all_taken():
            time.sleep(0.02)
        host.start_match()
        mine: dict[int, list[dict[str, Any]]] = {0: [], 2: []}
        lobbies: list[dict[str, Any]] = []
        seeds = {0: 10, 2: 12}
        player = agents.make("random", table.game)
        while not all(any(m["type"] == "closed" for m in msgs) for msgs in mine.values()):
            seat, message = host.events.get(timeout=GUARD)
            if seat == -1:
                lobbies.append(message)
                continue
            assert seat in mine, f"a message for seat {seat} reached the host's screen"
            mine[seat].append(message)
            if message["type"] == "your_turn":
                assert message["seat"] == seat
                host.play(seat, choose(player, message, seeds[seat]), message["hand"], message["ply"])
        thread.join(GUARD)
        session = table.session
        assert session is not None and session.match.state.is_terminal()
        for seat, msgs in mine.items():
            assert {m["seat"] for m in msgs if m["type"] == "start"} == {seat}
            assert {m["observation"]["seat"] for m in msgs if m["type"] == "state"} == {seat}
            check_messages(session, msgs)
        check_messages(session, log)
        ai = next(s for s in lobbies[-1]["seats"] if s["seat"] == 3)
        assert ai["kind"] == "ai" and ai["ai"] == "random" and ai["name"] == ""
        local = play_locally(table.game, 6, ["remote", "remote", "remote", "ai:random"],
                             {0: 10, 1: 3, 2: 12}, 1)
        assert local.moves == session.moves and local.match.state == session.match.state
        assert not host.errors
    finally:
        host.stop()


def test_after_the_start_a_join_takes_back_only_a_dropped_seat_of_the_same_name() -> None:
    table = Table.create("sueca", "remote,remote,ai:random,ai:random", seed=2)
    hello = {"type": "join", "protocol": p.PROTOCOL_VERSION, "app": p.app_version(), "code": table.code}
    seat_a, _ = table.join({**hello, "name": "Ana", "seat": None})
    seat_b, _ = table.join({**hello, "name": "Bea", "seat": None})
    assert (seat_a, seat_b) == (0, 1)
    table.start()
    seat, answer = table.join({**hello, "name": "Eve", "seat": None})
    assert seat is None and answer["reason"] == p.STARTED
    seat, answer = table.join({**hello, "name": "Ana", "seat": None})  # Ana is still connected
    assert seat is None and answer["reason"] == p.STARTED
    table.release(0)
    seat, answer = table.join({**hello, "name": "Ana", "seat": 1})  # not Ana's seat
    assert seat is None and answer["reason"] == p.STARTED
    seat, answer = table.join({**hello, "name": "Ana", "seat": None})
    assert seat == 0 and answer["type"] == "welcome" and answer["rejoined"] and answer["token"] == table.slots[0].token
    assert table.slots[0].connected and table.slots[0].name == "Ana"
