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
from engine.presets import LEVELS
from net.client import Client
from net.discovery import DISCOVERY_PORT, Announcer
from net.host import APP_AUTOSAVE_DIR, Host
from net.protocol import clean_name, normalize_code
from net.table import Table
from saves.autosave import AutosaveStore
from saves.paths import data_dir

FOLLOW_PORT: int | None = DISCOVERY_PORT
"""While a joined table's connection is lost, listen on this UDP port for its beacons, to follow a host that came
back on another port (None: only retry the old address)."""
FOLLOW_BIND = ""
"""The address that listening binds to (every interface)."""
RECONNECT_SECONDS = 120.0
"""How long a joined table keeps reconnecting (the host's default time before an AI takes a lost seat)."""


def ai_level_text(ai: str) -> str:
    """An AI seat's level in the current language (an agent SPEC as written)."""
    return t(ai) if ai in LEVELS else (ai or t("casual"))


def seat_labels(seats: list[dict[str, Any]], own: int | None = None) -> dict[int, str]:
    """What each seat of a ``lobby``/``start`` seat list is called on this screen, in its language: "You" for
    ``own``, a player's name (``(away)`` while disconnected, ``(AI)`` while an AI plays for them), and for an AI
    seat its level - "AI (strong)", numbered when two AI seats would read alike, or "Ana (AI: strong)" when the
    host named it."""
    labels: dict[int, str] = {}
    plain: dict[int, str] = {}
    for s in seats:
        i = s.get("seat")
        if not isinstance(i, int):
            continue
        name = str(s.get("name") or "")
        if s.get("kind") == "ai":
            level = ai_level_text(str(s.get("ai") or ""))
            if name:
                labels[i] = t("{name} (AI: {level})", name=name, level=level)
            else:
                plain[i] = labels[i] = t("AI ({level})", level=level)
        else:
            name = name or t("Player {n}", n=i + 1)
            if s.get("takeover"):
                name = t("{name} (AI)", name=name)
            elif s.get("kind") == "remote" and s.get("taken") and not s.get("connected"):
                name = t("{name} (away)", name=name)
            labels[i] = name
        if i == own:
            labels[i] = t("You")
    for i, text in plain.items():
        if sum(other == text for other in plain.values()) > 1:
            level = ai_level_text(str(next(s for s in seats if s.get("seat") == i).get("ai") or ""))
            labels[i] = t("AI {n} ({level})", n=i + 1, level=level)
    return labels


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


class _NetworkTableLimits:
    """What a network table does not offer, whatever the table screen's settings say."""

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


class NetController(_NetworkTableLimits):
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
        self.away: set[int] = set()
        """Seats whose player has dropped and that nobody plays meanwhile: the table waits for them."""
        self.names: dict[int, str] = {}
        """Each seat's name as the lobby gives it (without "(away)" or "(AI)")."""
        self.session = None
        self.closed = False
        self.own_is_you = True
        """Call this seat "You" (False when several players share the host's screen: each by their name)."""
        self.owner: Any = None
        """The :class:`HostedTable` or :class:`JoinedTable` this controller plays for."""
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
                self.sent = set()  # the table as it is now: a move sent before a lost connection is asked again
        elif kind == "history":
            self._replay(message)
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
        elif kind == "connection" and message.get("state") == "moved":
            self.notify(t("The table is now at {address}: taking the seat back...",
                          address=str(message.get("address", "")).removeprefix("ws://")), seconds=8)

    def _name_seats(self, seats: list[dict[str, Any]]) -> None:
        labels = seat_labels(seats, self.seat if self.own_is_you else None)
        self.away = set()
        for s in seats:
            i = s.get("seat")
            if isinstance(i, int) and 0 <= i < len(self.seats) and i in labels:
                self.seats[i] = NetSeat(labels[i], "ai" if s.get("kind") == "ai" else "human")
                self.names[i] = str(s.get("name") or "") or t("Player {n}", n=i + 1)
                if s.get("kind") == "remote" and s.get("taken") and not s.get("connected") and not s.get("takeover"):
                    self.away.add(i)

    def _replay(self, message: dict[str, Any]) -> None:
        """The hand so far, as the host sent it on a (re)join or after it resumed: its messages are taken as they
        would have been live (so the action log and the last trick are as they were), without sounds,
        animations or the trick pause."""
        entries = message.get("messages")
        if not isinstance(entries, list):
            return
        listeners, hold, before = self.listeners, self.hold_until, self.state
        self.listeners = []
        try:
            self.state = None
            self.log, self.movers, self.last_trick = [], [], None
            for entry in entries:
                if isinstance(entry, dict) and entry.get("type") in ("state", "played") \
                        and entry.get("hand") == message.get("hand"):
                    self.feed(entry)
        except (KeyError, TypeError, ValueError) as e:  # a history this version cannot read: the log starts now
            self.notify(str(e).splitlines()[0] if str(e) else type(e).__name__, error=True, seconds=8)
        finally:
            self.listeners = listeners
            self.hold_until = hold
            self._after = None
            if self.state is None:
                self.state = before

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
        """The other seat to move, unless its player is away (see :meth:`waiting_seat`)."""
        if self.state is None or self.state.is_terminal() or self.waiting_deal:
            return None
        seat = self.state.current_player
        return None if seat == self.seat or seat in self.away else seat

    def waiting_seat(self) -> int | None:
        """The seat to move whose player has dropped: the table waits for them to reconnect (or for the host's
        AI to take the seat over)."""
        if self.state is None or self.state.is_terminal() or self.waiting_deal:
            return None
        seat = self.state.current_player
        return seat if seat in self.away and seat != self.seat else None

    def seat_name(self, seat: int) -> str:
        """A seat's player as named at the table, without "(away)" (the own seat: "You" when it is so called)."""
        if seat == self.seat and self.own_is_you:
            return t("You")
        return self.names.get(seat) or describe.seat_name(self.seats[seat].label)

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


class SharedScreenController(_NetworkTableLimits):
    """Several humans at the host's screen (hotseat at a network table): one :class:`NetController` per local
    seat, each fed only its own seat's messages, shown one at a time as at a local hotseat table.

    The table screen reads the controller of the seat it shows (``viewer``; else the seat named on the privacy
    screen, else the last one shown). When a local seat is to move and another hand was shown last, the
    privacy screen asks for the device to be passed (``privacy_for``); a hand is hidden as soon as its player has
    made their move. Seats at other computers and AI seats are shown face down to every local player."""

    end_screen = "online_match_end"
    min_delay_ms = 0
    pending = None

    def __init__(self, subs: dict[int, NetController], clock: Callable[[], float] = time.monotonic) -> None:
        if len(subs) < 2:
            raise ValueError("a shared screen needs at least two local seats")
        self.subs = subs
        self.local_seats = sorted(subs)
        self.seat = self.local_seats[0]
        self.primary = subs[self.seat]
        self.clock = clock
        self.listeners: list[Callable[[str, int, int], None]] = []
        self.primary.listeners = self.listeners  # one sound and notice per move, not one per local seat
        for sub in subs.values():
            sub.own_is_you = False
        self.viewer: int | None = None
        self.last_viewer: int | None = None
        self.privacy_for: int | None = None
        self.owner: Any = None
        self._switches = 0

    @property
    def shown(self) -> NetController:
        """The controller of the seat the screen shows now."""
        for seat in (self.viewer, self.privacy_for, self.last_viewer):
            if seat is not None:
                return self.subs[seat]
        return self.primary

    def __getattr__(self, name: str) -> Any:
        if name in ("subs", "primary"):
            raise AttributeError(name)
        return getattr(self.shown, name)

    @property
    def version(self) -> int:
        return sum(sub.version for sub in self.subs.values()) + self._switches

    @property
    def trick_pause_ms(self) -> int:
        return self.primary.trick_pause_ms

    @trick_pause_ms.setter
    def trick_pause_ms(self, value: int) -> None:
        for sub in self.subs.values():
            sub.trick_pause_ms = value

    @property
    def hold_until(self) -> float:
        return max(sub.hold_until for sub in self.subs.values())

    @property
    def notices(self) -> list[Notice]:
        """Every local seat's notices, each text once (a public message reaches every local seat)."""
        seen: dict[str, Notice] = {}
        for sub in self.subs.values():
            for notice in sub.notices:
                seen.setdefault(notice.text, notice)
        return list(seen.values())

    def notify(self, text: str, error: bool = False, seconds: float = 4.0) -> None:
        self.shown.notify(text, error, seconds)

    def human_seats(self) -> list[int]:
        return list(self.local_seats)

    def is_human(self, seat: int) -> bool:
        return seat in self.subs

    def human_to_move(self) -> bool:
        return self.viewer is not None and self.privacy_for is None and self.subs[self.viewer].human_to_move()

    def thinking_seat(self) -> int | None:
        seat = self.primary.thinking_seat()
        return None if seat in self.subs else seat

    def update(self) -> None:
        """Take every local seat's messages; ask for the device when another local seat is to move."""
        for local in self.subs.values():
            local.update()
        state = self.primary.state
        if state is None or state.is_terminal() or self.primary.waiting_deal or self.clock() < self.hold_until:
            return
        seat = state.current_player
        sub = self.subs.get(seat)
        if sub is not None and (sub.hand, sub.ply) in sub.sent:
            return  # that seat's move is on its way to the host: the next state tells who is to move
        if seat in self.subs and self.viewer != seat and self.privacy_for != seat:
            self.privacy_for = seat
            self.viewer = None
            self._switches += 1

    def confirm_privacy(self) -> None:
        """The player named on the privacy screen has the device: show their hand."""
        if self.privacy_for is not None:
            self.viewer = self.last_viewer = self.privacy_for
            self.privacy_for = None
            self._switches += 1

    def bottom_seat(self) -> int:
        for seat in (self.privacy_for, self.viewer, self.last_viewer):
            if seat is not None:
                return seat
        return self.seat

    def play(self, move: int) -> str | None:
        """The shown seat's move; its hand is hidden once its turn is over (a pass goes on card by card)."""
        if self.viewer is None or self.privacy_for is not None:
            return "it is not your turn"
        sub = self.subs[self.viewer]
        reason = sub.play(move)
        if reason is None and not sub.human_to_move():
            self.last_viewer = self.viewer
            self.viewer = None
            self._switches += 1
        return reason

    def skip_pause(self) -> None:
        for sub in self.subs.values():
            sub.skip_pause()

    def next_hand(self) -> None:
        """The summary was seen: every local seat is ready; the next deal starts with the privacy screen."""
        for sub in self.subs.values():
            sub.next_hand()
        self.viewer = self.privacy_for = None
        self._switches += 1

    def close(self) -> None:
        for sub in self.subs.values():
            sub.close()


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
    seat(s): a :class:`NetController`, or a :class:`SharedScreenController` when several players sit at this
    screen. With an ``autosave`` store the table is saved after every move (see :meth:`resume`)."""

    is_host = True

    def __init__(self, game_name: str, seats: list[str], variant: dict[str, Any] | None = None,
                 name: str | list[str] = "", bind: str = "0.0.0.0", announce: bool = True, ai: str = "worker",
                 seed: int | None = None, autosave: AutosaveStore | None = None) -> None:
        """``name``: the first local player's name, or one name per seat (used for local and AI seats; an AI
        seat without a name is called by its level on every screen)."""
        table = Table.create(game_name, seats, variant or {}, seed)
        if isinstance(name, str):  # the first local seat's name
            first = next(i for i, s in enumerate(table.slots) if s.kind == "local")
            names = [name if i == first else "" for i in range(len(table.slots))]
        else:
            names = list(name)
        for slot, given in zip(table.slots, names, strict=False):
            given = clean_name(given) if given else ""
            if given and slot.kind in ("local", "ai"):
                slot.name = given
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
        self.moved = isinstance(saved_port, int) and self.host.port != saved_port
        if self.moved:
            text = t("The saved port was taken: the table is now at {address}.",
                     address=self.address.removeprefix("ws://")) + " " + \
                t("Players on this network follow it by themselves; others join there with the code {code}.",
                  code=self.code)
            self.controller.notify(text, seconds=60)
        return self

    def _open(self, table: Table, bind: str, port: int, announce: bool, ai: str,
              autosave: AutosaveStore | None) -> None:
        self.table = table
        self.local_seats = [i for i, s in enumerate(table.slots) if s.kind == "local"]
        self.local_seat = self.local_seats[0]
        self.moved = False
        self.host = Host(table, bind, port, ai=ai, autosave=autosave, announcer=Announcer() if announce else None)
        try:
            self.address = self.host.start()
        except OSError:
            self.host.stop()
            raise
        self.code = table.code
        self.error = ""
        self._inboxes: dict[int, list[dict[str, Any]]] = {seat: [] for seat in self.local_seats}
        subs = {seat: NetController(table.game, seat, lambda seat=seat: self._receive(seat),  # type: ignore[misc]
                                    lambda m, h, p, seat=seat: self.host.play(seat, m, h, p),  # type: ignore[misc]
                                    lambda h, seat=seat: self.host.confirm_hand(seat, h),  # type: ignore[misc]
                                    self.close) for seat in self.local_seats}
        self.controller: Any = subs[self.local_seat] if len(subs) == 1 else SharedScreenController(subs)
        self.controller.owner = self
        for sub in subs.values():
            sub.owner = self

    def _receive(self, seat: int) -> list[dict[str, Any]]:
        """The messages for one local seat (the lobby and the host's errors go to every local seat)."""
        for to, message in _drain(self.host.events):
            if to in self._inboxes:
                self._inboxes[to].append(message)
            elif to == -1 and message.get("type") in ("lobby", "error"):
                for inbox in self._inboxes.values():
                    inbox.append(message)
        out, self._inboxes[seat] = self._inboxes[seat], []
        return out

    def poll(self) -> None:
        self.controller.update()

    def can_start(self) -> bool:
        lobby = self.controller.lobby
        return bool(lobby and lobby.get("can_start") and not lobby.get("started"))

    def start(self) -> None:
        self.host.start_match()

    def close(self) -> None:
        self.host.stop()


_seats_taken: dict[str, tuple[int, str]] = {}
"""Table code -> (seat, rejoin token) of the tables this app joined: joining the same table again (say, at the
new address of a host that had to change its port) takes the seat back with its token."""


class JoinedTable:
    """A player's side: a :class:`net.client.Client` and, once the host welcomed it, its seat's controller."""

    is_host = False

    def __init__(self, address: str, code: str, name: str) -> None:
        address = address.strip()
        if "://" not in address:
            address = "ws://" + address
        self.address = address
        self.code = code
        seat, token = _seats_taken.get(normalize_code(code), (None, None))
        self.client = Client(address, code, name or "Player", seat, token, reconnect_seconds=RECONNECT_SECONDS,
                             discovery_port=FOLLOW_PORT, discovery_bind=FOLLOW_BIND)
        self.client.start()
        self.controller: NetController | None = None
        self.error = ""
        self._early: list[dict[str, Any]] = []

    def _receive(self) -> list[dict[str, Any]]:
        early, self._early = self._early, []
        messages = early + _drain(self.client.inbox)
        for message in messages:
            if message.get("type") == "connection" and message.get("state") == "moved":
                self.address = str(message.get("address") or self.address)  # the host came back elsewhere
        return messages

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
                self.controller.owner = self
                _seats_taken[normalize_code(self.code)] = (int(message["seat"]), str(message["token"]))
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
        if self.controller is None or self.controller.state is None:  # left in the lobby: the seat is free again
            _seats_taken.pop(normalize_code(self.code), None)
        self.client.leave()
        self.client.close()
