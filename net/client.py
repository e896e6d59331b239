"""A network table's client: a thread with its own asyncio loop, and a queue of incoming messages for the UI to poll.

:class:`Client` connects, joins (or rejoins with its token), and puts every message from the host on
:attr:`Client.inbox` as a dict, plus its own ``{"type": "connection", "state": ...}`` notes (``connected``,
``lost``, ``moved`` with the new ``address``, ``gave_up``). When the connection drops it reconnects and rejoins its
seat for ``reconnect_seconds``; with a ``discovery_port`` it also listens for the table's beacons meanwhile and
follows the table to a new address on the same computer (a host that came back on another port).
The caller's thread never blocks: :meth:`Client.move`, :meth:`Client.ready` and :meth:`Client.leave` only queue.

``python -m net.client --address ws://HOST:PORT --code CODE --agent random`` plays a seat headlessly.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import queue
import sys
import threading
import time
from pathlib import Path
from typing import Any, cast

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from engine import agents, registry
from engine.observation import Observation
from engine.rng import derived_rng
from net import protocol as p
from net.discovery import DISCOVERY_PORT, TableFinder, host_ip
from net.table import record_for_seat
from saves.records import RecordsDB

FINAL = ("match_end", "closed")
"""Messages after which the table has nothing more to send."""


class Client:
    """See the module docstring. ``seat`` and ``token`` are filled in by the host's welcome."""

    def __init__(self, address: str, code: str, name: str = "Player", seat: int | None = None,
                 token: str | None = None, reconnect_seconds: float = 30.0, discovery_port: int | None = None,
                 discovery_bind: str = "") -> None:
        self.address = address
        self.code = code
        self.name = name
        self.seat = seat
        self.token = token
        self.reconnect_seconds = reconnect_seconds
        self.discovery_port = discovery_port
        """Listen for the table's beacons on this UDP port while reconnecting (None: only retry the address)."""
        self.discovery_bind = discovery_bind
        self.table_id: str | None = None
        """The table's id from the host's welcome (what its beacons carry)."""
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.welcome: dict[str, Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outgoing: asyncio.Queue[dict[str, Any]] | None = None
        self._ws: ClientConnection | None = None
        self._done = False
        self._thread: threading.Thread | None = None

    # --- thread-safe API --------------------------------------------------------------------------------
    def start(self) -> None:
        """Connect and join in the background; results arrive on :attr:`inbox`."""
        self._thread = threading.Thread(target=self._run, name="net-client", daemon=True)
        self._thread.start()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for the host (dropped while disconnected: the host's snapshot on rejoin says what
        is still wanted)."""
        loop, out = self._loop, self._outgoing
        if loop is not None and out is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(out.put_nowait, message)

    def move(self, move: int, hand: int, ply: int) -> None:
        self.send({"type": "move", "move": move, "hand": hand, "ply": ply})

    def ready(self, hand: int) -> None:
        self.send({"type": "ready", "hand": hand})

    def leave(self) -> None:
        """Leave the table for good (no reconnecting)."""
        self._done = True
        self.send({"type": "leave"})

    def drop(self) -> None:
        """Close the connection without leaving, as a network fault would (it reconnects and rejoins)."""
        loop, ws = self._loop, self._ws
        if loop is not None and ws is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                asyncio.run_coroutine_threadsafe(ws.close(1001, "dropped"), loop)

    def close(self) -> None:
        """Stop for good and wait for the thread."""
        self._done = True
        self.drop()
        if self._thread is not None:
            self._thread.join(timeout=10)

    # --- the loop -----------------------------------------------------------------------------------------
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        finally:
            loop.close()

    def _note(self, state: str, message: str = "", **extra: Any) -> None:
        self.inbox.put({"type": "connection", "state": state, "message": message, **extra})

    async def _main(self) -> None:
        self._outgoing = asyncio.Queue()
        lost_at: float | None = None
        finder: TableFinder | None = None
        try:
            while not self._done:
                reason = "the connection closed"
                try:
                    async with connect(self.address, max_size=p.MAX_HOST_MESSAGE, open_timeout=5, proxy=None,
                                       ping_interval=10, ping_timeout=20, close_timeout=2) as ws:
                        self._ws = ws
                        lost_at = None
                        if finder is not None:
                            finder.close()
                            finder = None
                        self._note("connected")
                        await self._session(ws)
                except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as e:
                    reason = str(e) or type(e).__name__
                except InvalidURI as e:
                    self._note("gave_up", f"bad address: {e}")
                    return
                finally:
                    self._ws = None
                if self._done:
                    return
                now = time.monotonic()
                if lost_at is None:
                    lost_at = now
                    self._note("lost", reason)
                    finder = await self._finder()
                moved = finder.address(other_than=self.address) if finder is not None else None
                if moved is not None:
                    self.address = moved
                    lost_at = now  # a new address to try: the full time again
                    self._note("moved", f"the table is now at {moved}", address=moved)
                    continue
                if now - lost_at > self.reconnect_seconds:
                    self._note("gave_up", f"no connection for {self.reconnect_seconds:g} s")
                    return
                await asyncio.sleep(0.3)
        finally:
            if finder is not None:
                finder.close()

    async def _finder(self) -> TableFinder | None:
        """Listen for the table's beacons from the computer of its address (None when there is nothing to listen
        for, or the discovery port cannot be opened: then only the address is retried)."""
        if self.discovery_port is None or self.table_id is None or self.token is None:
            return None
        ip = await asyncio.to_thread(host_ip, self.address)
        if ip is None:
            return None
        try:
            return TableFinder(self.table_id, ip, self.discovery_port, self.discovery_bind)
        except OSError:
            return None

    async def _session(self, ws: ClientConnection) -> None:
        assert self._outgoing is not None
        hello: dict[str, Any] = {"protocol": p.PROTOCOL_VERSION, "app": p.app_version(), "code": self.code,
                                 "name": self.name}
        if self.token is not None and self.seat is not None:
            await ws.send(p.encode({"type": "rejoin", **hello, "seat": self.seat, "token": self.token}))
        else:
            await ws.send(p.encode({"type": "join", **hello, "seat": self.seat}))
        while not self._outgoing.empty():  # what was queued while away is out of date
            self._outgoing.get_nowait()
        writer = asyncio.create_task(self._write(ws))
        try:
            async for raw in ws:
                try:
                    message = p.decode(raw, p.HOST_MESSAGES)
                except p.ProtocolError as e:
                    if e.reason != p.UNKNOWN_TYPE:  # a type a later host of this protocol may send: ignored
                        self.inbox.put({"type": "error", "reason": e.reason, "message": f"from the host: {e}"})
                    continue
                if message["type"] == "welcome":
                    self.seat, self.token, self.welcome = message["seat"], message["token"], message
                    table_id = message.get("table")
                    self.table_id = table_id if isinstance(table_id, str) else self.table_id
                self.inbox.put(message)
                if message["type"] == "refused" or message["type"] in FINAL:
                    self._done = True
        finally:
            writer.cancel()

    async def _write(self, ws: ClientConnection) -> None:
        assert self._outgoing is not None
        while True:
            message = await self._outgoing.get()
            await ws.send(p.encode(message))
            if message["type"] == "leave":
                return


class _MoveList:
    """The little an agent that decides from the legal moves alone needs of an observation."""

    def __init__(self, seat: int, moves: list[int]) -> None:
        self.seat = seat
        self.current_player = seat
        self._moves = moves

    def legal_moves(self) -> list[int]:
        return list(self._moves)


CLIENT_AGENTS = ("random",)
"""Agents the command-line client can play: a masked observation cannot be rebuilt from JSON for every game, so
the client decides from the legal moves of ``your_turn``."""


def choose(agent: Any, turn: dict[str, Any], seed: int) -> int:
    """The agent's move for a ``your_turn`` message; randomness from ``derived_rng(seed, "client", hand, ply)``."""
    view = _MoveList(turn["seat"], [m["move"] for m in turn["moves"]])
    return int(agent.choose(cast(Observation, view), derived_rng(seed, "client", turn["hand"], turn["ply"])))


def record_match(message: dict[str, Any], seat: int, db: RecordsDB | None = None) -> int:
    """Record a ``match_end`` on this machine from ``seat``'s point of view; returns the record id."""
    own = db is None
    db = db or RecordsDB()
    try:
        return record_for_seat(db, message["record"], seat)
    finally:
        if own:
            db.close()


def main(argv: list[str] | None = None) -> int:
    """``python -m net.client``: join a table and play a seat with an agent."""
    ap = argparse.ArgumentParser(prog="python -m net.client", description="Join a cardtable network table.")
    ap.add_argument("--address", required=True, help="ws://HOST:PORT")
    ap.add_argument("--code", required=True, help="the table code")
    ap.add_argument("--name", default="Player")
    ap.add_argument("--seat", type=int, default=None, help="the seat wanted (default: the first free one)")
    ap.add_argument("--agent", default="random", help=f"who plays the seat: {', '.join(CLIENT_AGENTS)}")
    ap.add_argument("--seed", type=int, default=0, help="the agent's seed")
    ap.add_argument("--token-file", default=None, help="keep the seat's rejoin token here (rejoin after a restart)")
    ap.add_argument("--log", default=None, help="append every message received to this JSON Lines file")
    ap.add_argument("--record", action="store_true", help="record the finished match in this machine's records")
    ap.add_argument("--reconnect-seconds", type=float, default=30.0)
    ap.add_argument("--follow", type=int, nargs="?", const=DISCOVERY_PORT, default=None, metavar="PORT",
                    help="while reconnecting, listen for the table's beacons (UDP port, default "
                         f"{DISCOVERY_PORT}) and follow it to a new address on the same computer")
    ap.add_argument("--follow-bind", default="", metavar="ADDRESS",
                    help="the address that listening binds to (default: every interface)")
    args = ap.parse_args(argv)
    if args.agent not in CLIENT_AGENTS:
        print(f"error: unknown agent {args.agent!r}; valid agents: {', '.join(CLIENT_AGENTS)}", file=sys.stderr)
        return 2
    seat, token = args.seat, None
    token_file = Path(args.token_file) if args.token_file else None
    if token_file is not None and token_file.exists():
        try:
            saved = json.loads(token_file.read_text())
            seat, token = int(saved["seat"]), str(saved["token"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"error: unreadable token file {token_file}: {e}", file=sys.stderr)
            return 2
    client = Client(args.address, args.code, args.name, seat, token, args.reconnect_seconds, args.follow,
                    args.follow_bind)
    client.start()
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115 - closed below
    agent: Any = None
    code = 0
    try:
        while True:
            message = client.inbox.get()
            if log is not None:
                log.write(json.dumps(message) + "\n")
                log.flush()
            kind = message["type"]
            if kind == "welcome":
                agent = agents.make(args.agent, registry.create(message["game"], message["variant"]))
                if token_file is not None:
                    token_file.write_text(json.dumps({"seat": message["seat"], "token": message["token"]}))
            elif kind == "your_turn" and agent is not None:
                client.move(choose(agent, message, args.seed), message["hand"], message["ply"])
            elif kind == "hand_end":
                client.ready(message["hand"])
            elif kind == "match_end":
                if args.record and client.seat is not None:
                    record_match(message, client.seat)
                break
            elif kind == "closed":
                break
            elif kind == "refused":
                print(f"refused ({message['reason']}): {message['message']}", file=sys.stderr)
                code = 3
                break
            elif kind == "connection" and message["state"] == "gave_up":
                print(f"error: {message['message']}", file=sys.stderr)
                code = 4
                break
    except KeyboardInterrupt:
        code = 130
    finally:
        client.close()
        if log is not None:
            log.close()
    return code


if __name__ == "__main__":
    sys.exit(main())
