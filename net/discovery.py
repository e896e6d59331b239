"""Finding tables on the local network: the host broadcasts a small UDP beacon, a joining player listens.

Chosen over mDNS/zeroconf because it needs nothing beyond the standard library, works the same on every
desktop system, and can be pointed at 127.0.0.1 (the tests never send anywhere else). A beacon is one JSON
object (:func:`beacon`) sent every :data:`INTERVAL` seconds to UDP port :data:`DISCOVERY_PORT` of each target
(the broadcast address by default). It never holds the table code: joining still needs the code from the host.
Discovery is optional: a player can always type an address and a code. The beacon's ``table`` id (not the
code) also lets a player's app that lost its table find it again at a new address (:class:`TableFinder`).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from net import protocol as p

DISCOVERY_PORT = 47474
INTERVAL = 1.0
BEACON_FORMAT = "cardtable-table"
MAX_BEACON = 2048
FORGET_AFTER = 5.0
"""Seconds after its last beacon that a table disappears from the list."""


def beacon(port: int, table: Any) -> dict[str, Any]:
    """The announcement of a table listening on ``port`` (its id, game, free remote seats; never the code)."""
    seats = table.seat_list()
    return {"format": BEACON_FORMAT, "protocol": p.PROTOCOL_VERSION, "app": p.app_version(), "port": port,
            "table": table.table_id,
            "game": table.game.name, "players": len(seats), "started": table.started,
            "free_seats": [s["seat"] for s in seats if s["kind"] == "remote" and not s["taken"]],
            "host": socket.gethostname()[:64]}


class Announcer:
    """Sends a table's beacon to ``targets`` every ``interval`` seconds from a thread of its own."""

    def __init__(self, targets: Iterable[str] = ("255.255.255.255",), port: int = DISCOVERY_PORT,
                 interval: float = INTERVAL) -> None:
        self.targets = tuple(targets)
        self.port = port
        self.interval = interval
        self.sent = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, table_port: int, table: Any) -> None:
        self._thread = threading.Thread(target=self._run, args=(table_port, table), name="net-announce", daemon=True)
        self._thread.start()

    def _run(self, table_port: int, table: Any) -> None:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            while not self._stop.is_set():
                try:
                    data = json.dumps(beacon(table_port, table)).encode()
                    for target in self.targets:
                        sock.sendto(data, (target, self.port))
                        self.sent += 1
                except (OSError, RuntimeError, ValueError):
                    pass  # no network, or the table changed while being read: next time
                self._stop.wait(self.interval)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)


class Browser:
    """Listens for beacons on ``port`` and keeps the tables heard recently (:meth:`tables`)."""

    def __init__(self, port: int = DISCOVERY_PORT, bind: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seen: dict[tuple[str, int], tuple[float, dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((bind, port))
        self._sock.settimeout(0.2)
        self.port = self._sock.getsockname()[1]
        self._thread = threading.Thread(target=self._run, name="net-browse", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data, (ip, _port) = self._sock.recvfrom(MAX_BEACON)
            except TimeoutError:
                continue
            except OSError:
                return
            info = parse_beacon(data)
            if info is not None:
                info["address"] = f"ws://{ip}:{info['port']}"
                with self._lock:
                    self._seen[(ip, info["port"])] = (self.clock(), info)

    def tables(self) -> list[dict[str, Any]]:
        """Tables heard in the last :data:`FORGET_AFTER` seconds, each with its ``address``."""
        now = self.clock()
        with self._lock:
            return [info for seen, info in self._seen.values() if now - seen <= FORGET_AFTER]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._sock.close()


def parse_beacon(data: bytes) -> dict[str, Any] | None:
    """A beacon's content, or None for anything that is not a well-formed cardtable beacon."""
    try:
        info = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(info, dict) or info.get("format") != BEACON_FORMAT:
        return None
    port = info.get("port")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        return None
    if not isinstance(info.get("protocol"), int) or not isinstance(info.get("game"), str):
        return None
    return info


def find_table(tables: Iterable[dict[str, Any]], table_id: str, host_ip: str, other_than: str = "") -> str | None:
    """An address other than ``other_than`` at which table ``table_id`` is announced from ``host_ip`` (the
    computer the player was connected to), or None. A beacon of another table, another protocol or another
    computer is not followed."""
    for info in tables:
        if info.get("table") != table_id or info.get("protocol") != p.PROTOCOL_VERSION:
            continue
        address = str(info.get("address", ""))
        if urlsplit(address).hostname == host_ip and address != other_than:
            return address
    return None


def host_ip(address: str) -> str | None:
    """The IPv4 address of a ``ws://HOST:PORT`` address's host (a name is looked up), or None."""
    try:
        name = urlsplit(address).hostname
        return socket.gethostbyname(name) if name else None
    except (OSError, ValueError, UnicodeError):
        return None


class TableFinder:
    """Listens for the beacons of one table (by its id) from one computer while a player reconnects: the
    table's host may have come back on another port. :meth:`address` is the table's new address once heard."""

    def __init__(self, table_id: str, host_ip: str, port: int = DISCOVERY_PORT, bind: str = "") -> None:
        self.table_id = table_id
        self.host_ip = host_ip
        self.browser = Browser(port, bind)  # raises OSError when the port cannot be listened on

    def address(self, other_than: str = "") -> str | None:
        """The table's address heard in a recent beacon, other than ``other_than`` (None while not heard)."""
        return find_table(self.browser.tables(), self.table_id, self.host_ip, other_than)

    def close(self) -> None:
        self.browser.close()
