"""The host of a network table: a WebSocket server on a background thread around an authoritative :class:`Table`.

The server runs its own asyncio event loop on a thread of its own, so the caller (the app's UI thread, or the
command line) never blocks. Everything that touches the table happens on that loop. The host

* refuses bad input with a reason (malformed JSON, unknown types, wrong fields, moves out of turn or illegal)
  and plays on; a frame larger than :data:`net.protocol.MAX_CLIENT_MESSAGE` closes that connection (code 1009)
  and its player may rejoin;
* autosaves the session after every move *before* telling anyone about it, so a restarted host resumes at
  least where every client was (``--resume``) and the clients rejoin with their tokens;
* lets a dropped player rejoin their seat, and after ``rejoin_timeout`` seconds hands the seat to an AI until
  they return;
* records the finished match for each local human (``saves.records``) and clears the autosave.

AI seats think through :class:`engine.worker.MoveWorker` (``ai="worker"``, as the app does) or in a thread of
this process with the engine's agents (``ai="agents"``, for a headless host). Both draw the AI's randomness from
``derive_seed(session.seed, "ai", hand, ply)``, so a resumed table plays on exactly as it would have.

``python -m net.host --game G --seats remote,remote,ai:casual,... [--port 0]`` prints its address and code.
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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from engine.presets import LEVELS, preset_spec
from engine.rng import derive_seed
from engine.worker import MoveRequest, MoveWorker, WorkerDone, WorkerFailed
from net import protocol as p
from net.discovery import DISCOVERY_PORT, Announcer
from net.table import Outbox, Table, TableError, ai_move, random_fallback, record_for_seat
from saves.autosave import AutosaveStore
from saves.paths import data_dir
from saves.records import RecordsDB

CLI_AUTOSAVE_DIR = "net-host"
"""The command-line host's autosave directory under the data directory (apart from the app's own)."""
APP_AUTOSAVE_DIR = "net-app-host"
"""The app's hosted table's autosave directory: apart from the app's local autosave and the command-line host's."""

JOIN_TIMEOUT = 10.0
"""Seconds a new connection has to send its join before it is closed."""


@dataclass
class _Peer:
    """One connected remote player: the connection and its outgoing queue (kept in order by one writer)."""

    ws: ServerConnection
    seat: int
    outgoing: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


class Host:
    """A network table's server; see the module docstring. Thread-safe methods are marked so."""

    def __init__(self, table: Table, bind: str = "0.0.0.0", port: int = 0, *,
                 autosave: AutosaveStore | None = None, records: Callable[[], RecordsDB] | None = None,
                 ai: str = "agents", rejoin_timeout: float = 120.0, takeover: str = "casual",
                 hand_pause: float = 5.0, ai_time_limit: float | None = None,
                 announcer: Announcer | None = None) -> None:
        if ai not in ("agents", "worker"):
            raise ValueError(f"ai must be 'agents' or 'worker', not {ai!r}")
        self.table = table
        self.bind = bind
        self.port = port
        self.autosave = autosave
        self.records = records
        self.ai = ai
        self.rejoin_timeout = rejoin_timeout
        self.takeover = takeover
        self.hand_pause = hand_pause
        self.ai_time_limit = ai_time_limit
        self.announcer = announcer
        self.events: queue.Queue[tuple[int, dict[str, Any]]] = queue.Queue()
        """Messages for the host's own screen: ``(seat, message)`` for local seats, ``(-1, lobby)`` for the lobby."""
        self.errors: list[str] = []
        self.finished = threading.Event()
        self.record_ids: dict[int, int] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: Server | None = None
        self._ready = threading.Event()
        self._peers: dict[int, _Peer] = {}
        self._ai_task: asyncio.Task[None] | None = None
        self._break_task: asyncio.Task[None] | None = None
        self._away: dict[int, asyncio.TimerHandle] = {}
        self._worker: MoveWorker | None = None
        self._stopping = False
        self._shutdown_task: asyncio.Task[None] | None = None

    # --- thread-safe API ------------------------------------------------------------------------------
    def start(self, timeout: float = 30.0) -> str:
        """Start the server thread; returns the address once it listens (raises OSError if it cannot)."""
        self._thread = threading.Thread(target=self._run, name="net-host", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self._server is None:
            raise OSError("the table server did not start: " + "; ".join(self.errors or ["timed out"]))
        return self.address

    @property
    def address(self) -> str:
        """``ws://HOST:PORT`` for the players (the LAN address when bound to every interface)."""
        host = self.bind if self.bind not in ("0.0.0.0", "", "::") else local_address()
        return f"ws://{host}:{self.port}"

    def start_match(self) -> None:
        """Deal the first hand (thread-safe; errors land in :attr:`errors`)."""
        self._call(self._start_match)

    def play(self, seat: int, move: int, hand: int, ply: int) -> None:
        """A local human's move (thread-safe; a refusal arrives on :attr:`events` as ``move_refused``)."""
        self._call(self._local_move, seat, {"type": "move", "move": move, "hand": hand, "ply": ply})

    def confirm_hand(self, seat: int, hand: int) -> None:
        """A local human has seen the hand summary (thread-safe)."""
        self._call(self._ready_seat, seat, hand)

    def stop(self) -> None:
        """Close every connection and stop the server thread (idempotent)."""
        loop = self._loop
        if loop is not None and self._thread is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):  # the loop has just closed by itself
                loop.call_soon_threadsafe(self._begin_shutdown)
            self._thread.join(timeout=15)
        if self._worker is not None:
            self._worker.shutdown()

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        if self._loop is None:
            raise RuntimeError("the host is not running")
        self._loop.call_soon_threadsafe(self._guarded, fn, *args)

    def _guarded(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            fn(*args)
        except TableError as e:
            self.errors.append(str(e))
            self.events.put((-1, {"type": "error", "reason": "table", "message": str(e)}))

    # --- the loop -------------------------------------------------------------------------------------
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        except Exception as e:  # noqa: BLE001 - reported to the caller of start()
            self.errors.append(f"{type(e).__name__}: {e}")
        finally:
            self._ready.set()
            loop.close()

    async def _main(self) -> None:
        self._server = await serve(self._connection, self.bind, self.port, max_size=p.MAX_CLIENT_MESSAGE,
                                   ping_interval=10, ping_timeout=20, close_timeout=2)
        self.port = self._server.sockets[0].getsockname()[1] if self._server.sockets else self.port
        if self.announcer is not None:
            self.announcer.start(self.port, self.table)
        self._ready.set()
        self._lobby_changed()
        if self.table.started:  # a resumed table: the host's own seats see it again, the others rejoin
            for seat, slot in enumerate(self.table.slots):
                if slot.kind == "local":
                    self._deliver([(seat, m) for m in self.table.snapshot(seat)])
            self._await_absent()
            self._after_change()
        await self._server.wait_closed()
        if self._shutdown_task is not None:
            await self._shutdown_task

    def _begin_shutdown(self) -> None:
        if self._shutdown_task is None:
            self._shutdown_task = asyncio.get_running_loop().create_task(self._shutdown())

    async def _shutdown(self) -> None:
        self._stopping = True
        if self.announcer is not None:
            self.announcer.stop()
        for task in (self._ai_task, self._break_task):
            if task is not None:
                task.cancel()
        for peer in list(self._peers.values()):
            peer.outgoing.put_nowait(None)
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)

    def _deliver(self, outbox: Outbox) -> None:
        for seat, message in outbox:
            slot = self.table.slots[seat]
            if slot.kind == "local":
                self.events.put((seat, message))
                continue
            peer = self._peers.get(seat)
            if peer is not None:
                peer.outgoing.put_nowait(p.encode(message))

    def _lobby_changed(self) -> None:
        lobby = self.table.lobby_message()
        self.events.put((-1, lobby))
        self._deliver(self.table.broadcast(lobby))

    async def _writer(self, peer: _Peer) -> None:
        while True:
            text = await peer.outgoing.get()
            if text is None:
                await peer.ws.close(1001, "the table closed")
                return
            try:
                await peer.ws.send(text)
            except ConnectionClosed:
                return

    async def _send_now(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed):
            await ws.send(p.encode(message))

    async def _connection(self, ws: ServerConnection) -> None:
        """One client connection: join first, then moves, ready, ping and leave."""
        peer: _Peer | None = None
        writer: asyncio.Task[None] | None = None
        try:
            while True:
                try:
                    raw = await (ws.recv() if peer is not None else asyncio.wait_for(ws.recv(), JOIN_TIMEOUT))
                except TimeoutError:
                    await ws.close(1008, "no join message")
                    return
                try:
                    message = p.decode(raw, p.CLIENT_MESSAGES)
                except p.ProtocolError as e:
                    version = p.join_version(raw) if peer is None else None
                    if version is not None and version != p.PROTOCOL_VERSION:
                        await self._send_now(ws, p.mismatch(version, "?"))
                        await ws.close(1000, p.PROTOCOL_MISMATCH)
                        return
                    await self._send_now(ws, {"type": "error", "reason": e.reason, "message": str(e)})
                    continue
                kind = message["type"]
                if kind == "ping":
                    await self._send_now(ws, {"type": "pong", "id": message.get("id")})
                elif kind in ("join", "rejoin"):
                    if peer is not None:
                        await self._send_now(ws, {"type": "error", "reason": p.ALREADY_JOINED,
                                                  "message": f"this connection already plays seat {peer.seat}"})
                        continue
                    seat, answer = self.table.join(message)
                    await self._send_now(ws, answer)
                    if seat is None:
                        await ws.close(1000, answer["reason"])
                        return
                    old = self._peers.get(seat)
                    if old is not None:  # the same player on a new connection: the old one goes
                        old.outgoing.put_nowait(None)
                    peer = _Peer(ws, seat)
                    self._peers[seat] = peer
                    writer = asyncio.create_task(self._writer(peer))
                    self._seat_back(seat)
                else:
                    if peer is None:
                        await self._send_now(ws, {"type": "error", "reason": p.NOT_JOINED,
                                                  "message": "send join (with the table code) first"})
                        continue
                    if kind == "move":
                        self._remote_move(peer.seat, message)
                    elif kind == "ready":
                        self._ready_seat(peer.seat, message["hand"])
                    elif kind == "leave":
                        self._gone(peer, leave=True)
                        peer = None
                        await ws.close(1000, "left the table")
                        return
        except ConnectionClosed:
            pass
        finally:
            if peer is not None:
                self._gone(peer, leave=False)
            if writer is not None:
                await asyncio.sleep(0)

    def _seat_back(self, seat: int) -> None:
        timer = self._away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        slot = self.table.slots[seat]
        if slot.takeover:
            self.table.take_back(seat)
            if self._ai_task is not None and self.table.state.current_player == seat:
                self._ai_task.cancel()
                self._ai_task = None
            self._save()
        self._lobby_changed()
        if self.table.started:
            self._deliver([(seat, m) for m in self.table.snapshot(seat)])

    def _gone(self, peer: _Peer, leave: bool) -> None:
        if self._peers.get(peer.seat) is not peer:
            return  # replaced by a newer connection of the same player
        del self._peers[peer.seat]
        peer.outgoing.put_nowait(None)
        self.table.release(peer.seat, leave=leave)
        if self._stopping:
            return
        self._lobby_changed()
        if self.table.started and not self.table.finished() and self._loop is not None:
            self._away[peer.seat] = self._loop.call_later(self.rejoin_timeout, self._hand_over_seat, peer.seat)

    def _hand_over_seat(self, seat: int) -> None:
        self._away.pop(seat, None)
        slot = self.table.slots[seat]
        if slot.connected or slot.takeover or self.table.finished():
            return
        level = self.takeover if self.takeover in LEVELS else ""
        spec = preset_spec(self.table.game.name, level) if level else self.takeover
        self.table.hand_to_ai(seat, spec, level)
        self._save()
        self._lobby_changed()
        self._after_change()

    # --- play -------------------------------------------------------------------------------------------
    def _start_match(self) -> None:
        self._deliver(self.table.start())
        self._save()
        self._await_absent()
        self._after_change()

    def _await_absent(self) -> None:
        """Start the takeover clock of every remote seat whose player is not connected (dropped in the lobby, or
        not back yet after the host restarted)."""
        assert self._loop is not None
        for seat, slot in enumerate(self.table.slots):
            if slot.kind == "remote" and not slot.connected and not slot.takeover and seat not in self._away:
                self._away[seat] = self._loop.call_later(self.rejoin_timeout, self._hand_over_seat, seat)

    def _remote_move(self, seat: int, message: dict[str, Any]) -> None:
        reason, text = self.table.move(seat, message)
        if reason is not None:
            self._deliver([(seat, {"type": "move_refused", "reason": reason, "message": text,
                                   "move": message["move"], "hand": message["hand"], "ply": message["ply"]})])
            return
        self._apply(message["move"])

    def _local_move(self, seat: int, message: dict[str, Any]) -> None:
        if self.table.slots[seat].kind != "local":
            raise TableError(f"seat {seat} is not a local seat")
        self._remote_move(seat, message)

    def _apply(self, move: int) -> None:
        outbox = self.table.apply(move)
        self._save()  # first on disk, then told: a restarted host is never behind its players
        self._deliver(outbox)
        self._after_change()

    def _ready_seat(self, seat: int, hand: int) -> None:
        if self.table.started and hand == self.table.hand:
            self.table.ready.add(seat)

    def _after_change(self) -> None:
        """Start whatever comes next: the AI's move, the next hand, or the end of the table."""
        table = self.table
        if not table.started or self._stopping:
            return
        if table.finished():
            self._finish()
            return
        if table.state.is_terminal():
            if self._break_task is None or self._break_task.done():
                self._break_task = asyncio.get_running_loop().create_task(self._hand_break(table.hand))
            return
        seat = table.ai_to_move()
        if seat is not None and (self._ai_task is None or self._ai_task.done()):
            self._ai_task = asyncio.get_running_loop().create_task(self._ai_turn(seat))

    async def _hand_break(self, hand: int) -> None:
        deadline = time.monotonic() + self.hand_pause
        while time.monotonic() < deadline and self.table.waiting_for_ready():
            await asyncio.sleep(0.05)
        if self.table.hand == hand and not self._stopping:
            self._deliver(self.table.next_hand())
            self._save()
            self._after_change()

    async def _ai_turn(self, seat: int) -> None:
        table = self.table
        assert table.session is not None
        hand, ply = table.hand, table.ply
        try:
            if self.ai == "worker":
                move = await self._worker_move(seat)
            else:
                move = await asyncio.to_thread(ai_move, table.game, table.slots[seat].spec, table.state.clone(), seat,
                                               table.session.ai_rng())
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - a failed AI must not stop the table
            self.errors.append(f"AI of seat {seat}: {type(e).__name__}: {e}")
            move = random_fallback(table.state, derive_seed(table.seed, "fallback", hand, ply))
        if table.hand != hand or table.ply != ply or table.ai_to_move() != seat:
            return
        self._ai_task = None
        self._apply(move)

    async def _worker_move(self, seat: int) -> int:
        table = self.table
        assert table.session is not None
        if self._worker is None:
            self._worker = MoveWorker()
        worker = self._worker
        rid = worker.request(MoveRequest(
            game=table.game.name, variant=dict(table.game.variant), spec=table.slots[seat].spec or "random",
            state_json=table.state.to_json(), seat=seat, seed=derive_seed(table.seed, "ai", table.hand, table.ply),
            time_limit=self.ai_time_limit))
        try:
            while True:
                for event in worker.poll():
                    if event.request_id != rid:
                        continue
                    if isinstance(event, WorkerDone):
                        return event.move
                    if isinstance(event, WorkerFailed):
                        self.errors.append(f"AI of seat {seat}: {event.error.splitlines()[0]}")
                        if event.fallback_move >= 0:
                            return event.fallback_move
                        raise RuntimeError(event.error)
                await asyncio.sleep(0.02)
        except asyncio.CancelledError:
            worker.cancel()
            raise

    def _save(self) -> None:
        session = self.table.session
        if self.autosave is None or session is None:
            return
        session.meta["net"] = self.table.net_meta(self.port)
        try:
            self.autosave.save(session)
        except OSError as e:
            self.errors.append(f"autosave failed: {e}")

    def _finish(self) -> None:
        if self.finished.is_set():
            return
        table = self.table
        session = table.session
        assert session is not None
        if session.match.over:
            if self.records is not None:
                db = self.records()
                try:
                    for seat, slot in enumerate(table.slots):
                        if slot.kind == "local":
                            self.record_ids[seat] = record_for_seat(db, table.public_record(), seat)
                finally:
                    db.close()
            if self.autosave is not None:
                self.autosave.clear()
        self.finished.set()


def local_address() -> str:
    """This computer's address on the local network (no packet is sent), else 127.0.0.1."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


# --- command line -------------------------------------------------------------------------------------
def _variant(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"bad --variant {item!r}: write KEY=VALUE")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m net.host``: host a table from the command line (remote and AI seats)."""
    ap = argparse.ArgumentParser(prog="python -m net.host", description="Host a cardtable network table.")
    ap.add_argument("--game", help="game name (python -m engine.arena --list-games)")
    ap.add_argument("--variant", nargs="*", default=[], metavar="K=V")
    ap.add_argument("--seats", help="one per player: remote, ai:LEVEL or ai:SPEC, comma-separated")
    ap.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: every interface)")
    ap.add_argument("--port", type=int, default=None, help="port (0: any free port; default 0, or the saved one)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--code", default=None, help="table code (default: a fresh random one)")
    ap.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    ap.add_argument("--hand-pause", type=float, default=5.0, help="seconds between hands unless all are ready")
    ap.add_argument("--rejoin-timeout", type=float, default=120.0, help="seconds before an AI takes a lost seat")
    ap.add_argument("--takeover", default="casual", help="the AI level or SPEC that takes over a lost seat")
    ap.add_argument("--ai", choices=("agents", "worker"), default="agents",
                    help="AI seats think in this process (agents) or in a MoveWorker search process (worker)")
    ap.add_argument("--autosave", default=None,
                    help="autosave directory (default: net-host in the data directory, apart from the app's own)")
    ap.add_argument("--resume", action="store_true", help="resume the network table of the autosave")
    ap.add_argument("--no-announce", action="store_true", help="do not announce the table on the local network")
    ap.add_argument("--announce-to", default="255.255.255.255", metavar="ADDRESS",
                    help="where the beacons go (default: the local network's broadcast address)")
    ap.add_argument("--discovery-port", type=int, default=DISCOVERY_PORT, metavar="PORT",
                    help=f"the UDP port of the beacons (default {DISCOVERY_PORT})")
    ap.add_argument("--linger", type=float, default=2.0, help="seconds to stay up after the end for the players")
    args = ap.parse_args(argv)
    store = AutosaveStore(args.autosave if args.autosave else data_dir() / CLI_AUTOSAVE_DIR)
    try:
        if args.resume:
            loaded = store.load()
            for warning in loaded.warnings:
                print(f"warning: {warning}", file=sys.stderr)
            if loaded.session is None:
                print("error: there is no autosave to resume", file=sys.stderr)
                return 2
            table = Table.from_session(loaded.session)
            saved_port = loaded.session.meta["net"].get("port")
            port = args.port if args.port is not None else (saved_port if isinstance(saved_port, int) else 0)
        else:
            if not args.game or not args.seats:
                print("error: --game and --seats are required (or --resume)", file=sys.stderr)
                return 2
            table = Table.create(args.game, args.seats, _variant(args.variant), args.seed, args.code, args.hands)
            if any(s.kind == "local" for s in table.slots):
                raise TableError("the command-line host has no screen: use remote and ai seats")
            port = args.port or 0
    except (TableError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    def open_host(port: int) -> Host:
        return Host(table, args.bind, port, autosave=store, records=RecordsDB, ai=args.ai,
                    rejoin_timeout=args.rejoin_timeout, takeover=args.takeover, hand_pause=args.hand_pause,
                    announcer=None if args.no_announce else Announcer((args.announce_to,), args.discovery_port))

    host = open_host(port)
    try:
        address = host.start()
    except OSError as e:
        host.stop()
        if not (args.resume and args.port is None and port):
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"note: the saved port {port} is taken ({e}); the players join again at the new address",
              file=sys.stderr)
        host = open_host(0)  # the saved port is taken: a new one, the same code
        try:
            address = host.start()
        except OSError as e2:
            print(f"error: {e2}", file=sys.stderr)
            return 2
    print(json.dumps({"address": address, "code": table.code, "port": host.port, "game": table.game.name,
                      "seats": [s.kind for s in table.slots]}), flush=True)
    try:
        asked = table.started
        while not host.finished.wait(0.1):
            if not asked and table.all_taken() and all(s.connected for s in table.slots if s.kind == "remote"):
                host.start_match()
                asked = True
        time.sleep(args.linger)
    except KeyboardInterrupt:
        pass
    finally:
        host.stop()
    for error in host.errors:
        print(f"warning: {error}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["APP_AUTOSAVE_DIR", "CLI_AUTOSAVE_DIR", "Host", "local_address", "main", "record_for_seat"]
