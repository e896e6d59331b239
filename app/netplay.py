"""Network play at the table screen: :class:`NetController` drives the ordinary table from one seat's messages.

A network game's true state lives with the host's :class:`net.host.Host` (on its own thread). Every human at a
network table - a remote player through :class:`net.client.Client`, the host's own player through the host's
``events`` queue - receives the same messages: its seat's observation (``state``), the moves made (``played``),
its legal moves (``your_turn``) and the hands' results. :class:`NetController` turns those messages into what
:class:`app.screens.table.TableScreen` reads from a :class:`app.controller.Controller` (state, seats, log, last
trick, hand result), and the table's moves into ``move`` messages. The state it shows is the seat's masked
observation (``Observation.from_dict``), so the screen never holds a card the seat may not see.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app import describe
from app.controller import LastTrick, Notice, last_trick_of
from app.describe import LogEntry
from app.i18n import t
from engine import registry
from engine.game import Game, HandResult, StateFormatError
from engine.observation import Observation
from net.client import Client
from net.discovery import Announcer
from net.host import APP_AUTOSAVE_DIR, Host
from net.table import Table
from saves.autosave import AutosaveStore
from saves.paths import data_dir


@dataclass
class NetSeat:
    """A seat as the table shows it: ``label`` (the player's name or the AI's) and ``kind`` (human or ai)."""

    label: str
    kind: str = "human"


class SeatView:
    """The seat's masked state as the table screen reads a state: its own observation, and the legal moves the
    host sent (nothing while it is not the seat's turn). Everything else is the masked state's."""

    def __init__(self, obs: Observation, moves: list[int]) -> None:
        self._obs = obs
        self._moves = moves

    @property
    def masked(self) -> Any:
        return self._obs.state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._obs.state, name)

    @property
    def current_player(self) -> int:
        return int(self._obs.state.current_player)

    def observation(self, seat: int) -> Observation:
        """The seat's own observation (the only one a network player has)."""
        return self._obs

    def legal_moves(self) -> list[int]:
        return list(self._moves)

    def is_terminal(self) -> bool:
        return bool(self._obs.state.is_terminal())

    def clone(self) -> Any:
        return self._obs.state.clone()

    def illegal_reason(self, move: int) -> str | None:
        if move in self._moves:
            return None
        return str(self._obs.state.illegal_reason(move) or "not one of the legal moves")


@dataclass
class NetMatch:
    """The match facts the table and its summary show: game, hand number, team totals, winners."""

    game: Game
    hand_index: int = 0
    totals: list[float] = field(default_factory=list)
    over: bool = False
    winners: list[int] = field(default_factory=list)

    @property
    def hands(self) -> list[int]:
        return list(range(self.hand_index + 1))

    def winner_seats(self) -> list[int]:
        return list(self.winners)


class NetController:
    """A :class:`app.controller.Controller` look-alike for one human seat of a network table.

    ``receive()`` returns the messages that arrived for the seat; ``send_move(move, hand, ply)`` and
    ``send_ready(hand)`` answer the host; ``stop()`` leaves the table. No hints and no undo at a network table.
    """

    end_screen = "online_match_end"
    """The screen the hand summary opens after the last hand (it records the match on this computer)."""

    def __init__(self, game: Game, seat: int, receive: Callable[[], list[dict[str, Any]]],
                 send_move: Callable[[int, int, int], None], send_ready: Callable[[int], None],
                 stop: Callable[[], None], clock: Callable[[], float] = time.monotonic) -> None:
        self.game = game
        self.seat = seat
        self.receive = receive
        self.send_move = send_move
        self.send_ready = send_ready
        self._stop = stop
        self.clock = clock
        n = game.num_players
        self.seats = [NetSeat(t("Player {n}", n=i + 1)) for i in range(n)]
        self.match = NetMatch(game, totals=[0.0] * len(game.teams()))
        self.state: SeatView | None = None
        self.hand = 0
        self.ply = 0
        self.moves: list[int] = []
        self.sent: set[tuple[int, int]] = set()
        self.viewer: int | None = seat
        self.last_viewer: int | None = seat
        self.privacy_for: int | None = None
        self.pending = None
        self.hint_moves: list[int] = []
        self.notices: list[Notice] = []
        self.listeners: list[Callable[[str, int, int], None]] = []
        self.log: list[LogEntry] = []
        self.movers: list[int] = []
        self.version = 0
        self.hold_until = 0.0
        self.trick_pause_ms = 900
        self.min_delay_ms = 0
        self.last_trick: LastTrick | None = None
        self.hand_result: HandResult | None = None
        self.match_end: dict[str, Any] | None = None
        self.waiting_deal = False
        self.lobby: dict[str, Any] | None = None
        self.session = None
        self.closed = False
        self._after: tuple[int, int] | None = None

    # --- messages -----------------------------------------------------------------------------------
    def feed(self, message: dict[str, Any]) -> None:
        """Take one message from the host (or the connection's own notes)."""
        kind = message.get("type")
        if kind in ("lobby", "start"):
            self.lobby = message
            self._name_seats(message.get("seats", []))
            if kind == "start":
                self.match.totals = [float(x) for x in message.get("totals", self.match.totals)]
        elif kind == "state":
            self._new_state(message)
        elif kind == "played":
            self._played(message)
        elif kind == "your_turn":
            key = (message["hand"], message["ply"])
            if message["seat"] == self.seat and key == (self.hand, self.ply) and key not in self.sent:
                self.moves = [int(m["move"]) for m in message["moves"]]
                self._refresh()
        elif kind == "move_refused":
            self.sent.discard((message.get("hand", -1), message.get("ply", -1)))
            self.notify(t("Not allowed: {reason}", reason=str(message.get("message", ""))), error=True)
        elif kind == "hand_end":
            self.hand_result = HandResult.from_dict(message["result"])
            self.match.totals = [float(x) for x in message["totals"]]
            self.match.over = bool(message["match_over"])
            self.version += 1
        elif kind == "match_end":
            self.match_end = message
            self.match.over = True
            self.match.winners = [int(s) for s in message.get("winner_seats", [])]
        elif kind in ("refused", "closed", "error"):
            self.notify(str(message.get("message", kind)), error=True, seconds=8)
        elif kind == "connection" and message.get("state") in ("lost", "gave_up"):
            self.notify(t("Connection to the table lost: {error}", error=message.get("message", "")), error=True,
                        seconds=8)
        elif kind == "connection" and message.get("state") == "connected" and self.state is not None:
            self.notify(t("Connected to the table again."), seconds=4)

    def _name_seats(self, seats: list[dict[str, Any]]) -> None:
        for s in seats:
            i = s.get("seat")
            if not isinstance(i, int) or not 0 <= i < len(self.seats):
                continue
            name = str(s.get("name") or t("Player {n}", n=i + 1))
            if i == self.seat:
                name = t("You")
            elif s.get("takeover"):
                name = t("{name} (AI)", name=name)
            self.seats[i] = NetSeat(name, "ai" if s.get("kind") == "ai" else "human")

    def _new_state(self, message: dict[str, Any]) -> None:
        try:
            obs = Observation.from_dict(self.game, message["observation"])
        except ValueError as e:  # a state this version cannot read: say so and keep the table as it was
            self.notify(str(e).splitlines()[0], error=True, seconds=8)
            return
        hand = int(message["hand"])
        if hand != self.hand or self.state is None:
            if hand != self.hand:
                self.log, self.movers, self.last_trick = [], [], None
                self.hand_result = None
                self.sent = set()
            self.waiting_deal = False
        trick_before = self.state.masked.last_trick() if self.state is not None else None
        self.hand, self.ply = hand, int(message["ply"])
        self.match.hand_index = hand
        self.match.totals = [float(x) for x in message.get("totals", self.match.totals)]
        self.moves = []
        self.state = SeatView(obs, self.moves)
        trick_after = obs.state.last_trick()
        if trick_after is not None and trick_after != trick_before:
            self.last_trick = last_trick_of(obs.state)
            if trick_before is not None or self.movers:
                self.log.append(LogEntry(trick_after[0], "trick"))
                self.hold_until = self.clock() + self.trick_pause_ms / 1000.0
        self.version += 1
        if self._after is not None:
            seat, move = self._after
            self._after = None
            for listener in list(self.listeners):
                listener("after", seat, move)

    def _played(self, message: dict[str, Any]) -> None:
        seat = int(message["seat"])
        move = message.get("move")
        if self.state is not None and not message.get("hidden") and isinstance(move, int):
            try:
                entry = describe.log_entry(self.state.masked, move)
            except Exception:  # noqa: BLE001 - a move the masked state cannot word: its notation
                entry = LogEntry(seat, "other", notation=str(message.get("text") or ""))
            for listener in list(self.listeners):
                listener("before", seat, move)
            self._after = (seat, move)
        else:
            entry = LogEntry(seat, "pass")
        self.log.append(entry)
        self.movers.append(seat)
        self.notices = [n for n in self.notices if n.until > self.clock()]

    def _refresh(self) -> None:
        if self.state is not None:
            self.state = SeatView(self.state._obs, self.moves)
        self.version += 1

    # --- what the table screen calls ----------------------------------------------------------------
    @property
    def allow_hints(self) -> bool:
        """No hints at a network table (the screen's setting is ignored)."""
        return False

    @allow_hints.setter
    def allow_hints(self, value: bool) -> None:
        pass

    @property
    def allow_undo(self) -> bool:
        """No undo at a network table: the other players have seen the move."""
        return False

    @allow_undo.setter
    def allow_undo(self, value: bool) -> None:
        pass

    @property
    def ready(self) -> bool:
        """Whether the first state has arrived (the table can be drawn)."""
        return self.state is not None

    @property
    def current(self) -> int:
        return self.state.current_player if self.state is not None else -1

    def human_seats(self) -> list[int]:
        return [self.seat]

    def is_human(self, seat: int) -> bool:
        return seat == self.seat

    def human_to_move(self) -> bool:
        return (self.state is not None and not self.waiting_deal and not self.state.is_terminal()
                and self.state.current_player == self.seat and bool(self.moves))

    def thinking_seat(self) -> int | None:
        if self.state is None or self.state.is_terminal() or self.waiting_deal:
            return None
        seat = self.state.current_player
        return None if seat == self.seat else seat

    def update(self) -> None:
        """Take the messages that arrived (call once per frame)."""
        for message in self.receive():
            self.feed(message)
        now = self.clock()
        self.notices = [n for n in self.notices if n.until > now]

    def play(self, move: int) -> str | None:
        """Send the seat's move; returns why it is refused here (nothing is sent then)."""
        if not self.human_to_move() or self.state is None:
            return "it is not your turn"
        reason = self.state.illegal_reason(move)
        if reason is not None:
            return reason
        self.sent.add((self.hand, self.ply))
        self.send_move(move, self.hand, self.ply)
        passing = self.state.is_pass_move(move)
        self.moves = []
        if passing:  # a pass of several cards: the next card goes out at once, for the position after this one
            probe = self.state.clone()
            try:
                probe.apply(move)  # the seat's own cards: the masked state knows them
            except Exception:  # noqa: BLE001 - the rest of the pass waits for the host's your_turn
                probe = None
            if probe is not None and not probe.is_terminal() and probe.current_player == self.seat:
                self.ply += 1
                self.moves = probe.legal_moves()
        self._refresh()
        return None

    def notify(self, text: str, error: bool = False, seconds: float = 4.0) -> None:
        self.notices.append(Notice(text, self.clock() + seconds, error))

    @property
    def hand_over(self) -> bool:
        return self.state is not None and self.state.is_terminal() and not self.waiting_deal \
            and self.hand_result is not None

    @property
    def match_over(self) -> bool:
        return self.hand_over and self.match.over

    def next_hand(self) -> None:
        """The player has seen the hand summary: tell the host, and wait for the next deal."""
        self.send_ready(self.hand)
        self.waiting_deal = True
        self.notify(t("Waiting for the other players..."), seconds=5)

    def confirm_privacy(self) -> None:
        """No privacy screen at a network table (one human per screen)."""

    def bottom_seat(self) -> int:
        return self.seat

    def skip_pause(self) -> None:
        self.hold_until = 0.0

    def can_undo(self) -> bool:
        return False

    def undo(self) -> bool:
        return False

    def request_hint(self) -> bool:
        return False

    def hint_pending(self) -> bool:
        return False

    def close(self) -> None:
        """Leave the table (idempotent)."""
        if not self.closed:
            self.closed = True
            self._stop()


def _drain(q: Any) -> list[Any]:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except Exception:  # noqa: BLE001 - queue.Empty
            return out


def host_autosave(directory: Path | str | None = None) -> AutosaveStore:
    """The app's hosted-table autosave (``net-app-host`` in the data directory): never the app's local autosave,
    so hosting a table does not overwrite the game that Continue resumes."""
    return AutosaveStore(Path(directory) if directory is not None else data_dir() / APP_AUTOSAVE_DIR)


class HostedTable:
    """The host's side: a :class:`net.host.Host` around a new (or resumed) table, and the controller of its local
    seat. With an ``autosave`` store the table is saved after every move (see :meth:`resume`)."""

    is_host = True

    def __init__(self, game_name: str, seats: list[str], variant: dict[str, Any] | None = None,
                 name: str = "", bind: str = "0.0.0.0", announce: bool = True, ai: str = "worker",
                 seed: int | None = None, autosave: AutosaveStore | None = None) -> None:
        table = Table.create(game_name, seats, variant or {}, seed)
        local = next(i for i, s in enumerate(table.slots) if s.kind == "local")
        if name:
            table.slots[local].name = name
        self._open(table, bind, 0, announce, ai, autosave)

    @classmethod
    def resume(cls, autosave: AutosaveStore, bind: str = "0.0.0.0", announce: bool = True,
               ai: str = "worker") -> HostedTable:
        """Reopen the table saved in ``autosave`` on its old port when it is free (the players' apps then
        reconnect by themselves; else on a new port, and they join again with the address and code). Raises
        StateFormatError when there is no hosted table to resume, TableError/OSError when it cannot open."""
        loaded = autosave.load()
        if loaded.session is None:
            raise StateFormatError("; ".join(loaded.warnings) or "there is no hosted table to resume")
        table = Table.from_session(loaded.session)
        if not any(s.kind == "local" for s in table.slots):
            raise StateFormatError("the saved table has no seat for this computer")
        saved_port = loaded.session.meta["net"].get("port")
        self = cls.__new__(cls)
        try:
            self._open(table, bind, saved_port if isinstance(saved_port, int) else 0, announce, ai, autosave)
        except OSError:
            self._open(table, bind, 0, announce, ai, autosave)
        return self

    def _open(self, table: Table, bind: str, port: int, announce: bool, ai: str,
              autosave: AutosaveStore | None) -> None:
        self.table = table
        self.local_seat = next(i for i, s in enumerate(table.slots) if s.kind == "local")
        self.host = Host(table, bind, port, ai=ai, autosave=autosave, announcer=Announcer() if announce else None)
        try:
            self.address = self.host.start()
        except OSError:
            self.host.stop()
            raise
        self.code = table.code
        self.error = ""
        self.controller = NetController(table.game, self.local_seat, self._receive, self._move, self._ready,
                                        self.close)

    def _receive(self) -> list[dict[str, Any]]:
        out = []
        for seat, message in _drain(self.host.events):
            if seat == self.local_seat or (seat == -1 and message.get("type") in ("lobby", "error")):
                out.append(message)
        return out

    def _move(self, move: int, hand: int, ply: int) -> None:
        self.host.play(self.local_seat, move, hand, ply)

    def _ready(self, hand: int) -> None:
        self.host.confirm_hand(self.local_seat, hand)

    def poll(self) -> None:
        self.controller.update()

    def can_start(self) -> bool:
        lobby = self.controller.lobby
        return bool(lobby and lobby.get("can_start") and not lobby.get("started"))

    def start(self) -> None:
        self.host.start_match()

    def close(self) -> None:
        self.host.stop()


class JoinedTable:
    """A player's side: a :class:`net.client.Client` and, once the host welcomed it, its seat's controller."""

    is_host = False

    def __init__(self, address: str, code: str, name: str) -> None:
        address = address.strip()
        if "://" not in address:
            address = "ws://" + address
        self.address = address
        self.code = code
        self.client = Client(address, code, name or "Player", reconnect_seconds=30.0)
        self.client.start()
        self.controller: NetController | None = None
        self.error = ""
        self._early: list[dict[str, Any]] = []

    def _receive(self) -> list[dict[str, Any]]:
        early, self._early = self._early, []
        return early + _drain(self.client.inbox)

    def poll(self) -> None:
        if self.controller is not None:
            self.controller.update()
            return
        for message in _drain(self.client.inbox):
            kind = message.get("type")
            if self.controller is not None:  # what came right after the welcome: for the new controller
                self._early.append(message)
            elif kind == "welcome":
                try:
                    game = registry.create(message["game"], message["variant"])
                except Exception as e:  # noqa: BLE001 - a game this version does not know
                    self.error = t("This table plays a game this version cannot show: {error}", error=str(e))
                    self.client.leave()
                    return
                self.controller = NetController(game, int(message["seat"]), self._receive, self.client.move,
                                                self.client.ready, self.close)
                if message.get("app_mismatch"):
                    self.controller.notify(t("The host runs cardtable {version}.", version=message.get("app")),
                                           seconds=8)
            elif kind == "refused":
                self.error = t("Refused: {reason}", reason=str(message.get("message", "")))
            elif kind == "connection" and message.get("state") == "gave_up":
                self.error = t("Could not reach the table: {error}", error=str(message.get("message", "")))
        if self.controller is not None:
            self.controller.update()

    def can_start(self) -> bool:
        return False

    def start(self) -> None:
        """Only the host starts the game."""

    def close(self) -> None:
        self.client.leave()
        self.client.close()
