"""The game controller: seats as interchangeable inputs (human clicks or AI via the background worker).

No drawing here. The table screen calls :meth:`Controller.update` every frame and :meth:`Controller.play`
for human moves. The controller autosaves after every move, keeps the hotseat privacy state, undo and hints
(both recorded in the session) and the last completed trick for review.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app import describe, workers
from app.describe import LogEntry
from app.i18n import t
from engine.game import GameState, HandResult, IllegalMove
from engine.rng import derive_seed
from saves.limits import move_time_limit
from saves.session import GameSession, Seat


@dataclass
class Pending:
    """An outstanding worker request (an AI move or a hint)."""

    request_id: int
    seat: int
    ply: int
    hand: int
    requested_at: float
    hint: bool = False
    move: int | None = None
    ready_at: float = 0.0
    iterations: int = 0


@dataclass
class Notice:
    """A message shown in the sidebar until ``until`` (a ``hint`` notice goes as soon as a move is made)."""
    text: str
    until: float
    error: bool = False
    hint: bool = False


@dataclass
class LastTrick:
    """A completed trick: (seat, card) in play order and the seat that won it."""

    cards: list[tuple[int, int]]
    winner: int


def last_trick_of(state: GameState) -> LastTrick | None:
    """The state's last completed trick (``GameState.last_trick``), or None."""
    trick = state.last_trick()
    if trick is None:
        return None
    winner, plays = trick
    return LastTrick([(seat, card) for seat, card in plays], winner)


@dataclass
class Controller:
    """Runs one :class:`GameSession` at the table."""

    session: GameSession
    min_delay_ms: int = 600
    allow_undo: bool = True
    allow_hints: bool = True
    """False in study mode: a participant plays without the AI's suggestions."""
    trick_pause_ms: int = 900
    worker: Any = None
    autosave: Any = None
    clock: Callable[[], float] = time.monotonic
    ai_time_limit: float | None = None
    """Seconds an AI move may take at most (None: the agent's own budget); never more than
    ``saves.limits.AI_SECONDS_MAX``."""
    notices: list[Notice] = field(default_factory=list)
    pending: Pending | None = None
    hint_move: int | None = None
    hint_moves: list[int] = field(default_factory=list)
    """Every move of the last hint (a pass names all its cards), the first being ``hint_move``."""
    log: list[LogEntry] = field(default_factory=list)
    """The action log of the current hand (``app.describe.entry_text`` words it)."""
    viewer: int | None = None
    last_viewer: int | None = None
    privacy_for: int | None = None
    last_trick: LastTrick | None = None
    hold_until: float = 0.0
    listeners: list[Callable[[str, int, int], None]] = field(default_factory=list)
    hand_result: HandResult | None = None
    ai_progress: float | None = None
    hint_spec: str | None = None
    version: int = 0
    """Incremented whenever the game state changes (moves, undo, new hand): lets the table cache its scene."""
    movers: list[int] = field(default_factory=list)
    """Seat of each move of the current hand (for undo)."""
    """Agent SPEC of the hint (None = the game's strong search with expert's endgame solver)."""

    def __post_init__(self) -> None:
        if self.worker is None:
            self.worker = workers.make_worker()
        humans = self.human_seats()
        if len(humans) == 1:
            self.viewer = humans[0]
        if "hand_start" not in self.session.meta or \
                self.session.meta["hand_start"].get("hand") != self.match.hand_index:
            if self.session.ply == 0:
                self._remember_hand_start()
        self.movers = self._compute_movers()
        self.last_trick = last_trick_of(self.state)  # a continued game can show its last trick at once
        self.log = self._replayed_log()
        if self.state.is_terminal():
            self._finish_hand()

    def _compute_movers(self) -> list[int]:
        start = self.session.meta.get("hand_start")
        if not start or start.get("hand") != self.match.hand_index:
            return []
        try:
            moves = self.session.moves[self.match.hand_index] if len(self.session.moves) > self.match.hand_index \
                else []
            return self._replay(len(moves))[1]
        except Exception:  # noqa: BLE001 - a save without a usable hand start: no undo for this hand
            return []

    # --- accessors -----------------------------------------------------------------------------
    @property
    def match(self) -> Any:
        """The session's match."""
        return self.session.match

    @property
    def state(self) -> GameState:
        """The current hand's true state."""
        return self.session.match.state

    @property
    def seats(self) -> list[Seat]:
        """The session's seats."""
        return self.session.seats

    def human_seats(self) -> list[int]:
        """Indexes of the human seats."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    def is_human(self, seat: int) -> bool:
        """Whether ``seat`` is played by a person."""
        return 0 <= seat < len(self.seats) and self.seats[seat].kind == "human"

    @property
    def current(self) -> int:
        """The seat to move (-1 when the hand is over)."""
        return self.state.current_player

    def human_to_move(self) -> bool:
        """Whether a human may play now (their turn, no privacy screen, no pause)."""
        return (not self.state.is_terminal() and self.is_human(self.current) and self.privacy_for is None
                and self.viewer == self.current)

    def thinking_seat(self) -> int | None:
        """The AI seat whose move is being searched or shown, if any."""
        if self.pending is not None and not self.pending.hint:
            return self.pending.seat
        return None

    def waiting_seat(self) -> int | None:
        """The seat to move whose player is away (only at a network table; here: None)."""
        return None

    def seat_name(self, seat: int) -> str:
        """A seat's name in the current language."""
        return describe.seat_name(self.seats[seat].label)

    # --- frame update --------------------------------------------------------------------------
    def update(self) -> None:
        """Poll the worker, apply due AI moves and handle turn changes (call once per frame)."""
        now = self.clock()
        self._poll_worker(now)
        take = getattr(self.autosave, "take_errors", None)
        if take is not None:
            for error in take():
                self.notify(t("Autosave failed: {error}", error=error), error=True)
        self.notices = [n for n in self.notices if n.until > now]
        state = self.state
        if state.is_terminal():
            return
        if now < self.hold_until:
            return
        seat = state.current_player
        if self.is_human(seat):
            if self.viewer != seat and self.privacy_for != seat:
                if len(self.human_seats()) > 1:
                    self.privacy_for = seat
                    self.viewer = None
                else:
                    self.viewer = seat
            return
        p = self.pending
        if p is None or p.hint or p.seat != seat or p.ply != self.session.ply or p.hand != self.match.hand_index:
            self._request(seat, hint=False)
            return
        if p.move is not None and now >= p.ready_at:
            move = p.move
            self.pending = None
            self._apply(move)

    def confirm_privacy(self) -> None:
        """The player named on the privacy screen has the device: show their hand."""
        if self.privacy_for is not None:
            self.viewer = self.privacy_for
            self.last_viewer = self.privacy_for
            self.privacy_for = None

    def bottom_seat(self) -> int:
        """The seat drawn at the bottom of the table (the viewer, or whoever is about to be)."""
        for seat in (self.privacy_for, self.viewer, self.last_viewer):
            if seat is not None:
                return seat
        humans = self.human_seats()
        return humans[0] if humans else 0

    def skip_pause(self) -> None:
        """End the pause after a completed trick now."""
        self.hold_until = 0.0

    def _request(self, seat: int, hint: bool, state: GameState | None = None) -> None:
        if hint:
            spec = self.hint_spec or workers.hint_spec(self.match.game.name)
        else:
            spec = self.seats[seat].spec
        if not spec:
            spec = "random"
        seed = derive_seed(self.session.seed, "hint" if hint else "ai", self.match.hand_index, self.session.ply)
        req = workers.make_request(game=self.match.game.name, variant=dict(self.match.game.variant), spec=spec,
                                   state_json=(state or self.state).to_json(), seat=seat, seed=seed,
                                   time_limit=move_time_limit(spec, self.ai_time_limit))
        try:
            rid = self.worker.request(req)
        except Exception as e:  # noqa: BLE001 - a broken worker must not stop the game
            self._worker_failed(seat, hint, f"{type(e).__name__}: {e}", -1)
            return
        self.pending = Pending(rid, seat, self.session.ply, self.match.hand_index, self.clock(), hint)
        self.ai_progress = None

    def _poll_worker(self, now: float) -> None:
        try:
            events = self.worker.poll()
        except Exception as e:  # noqa: BLE001
            events = []
            if self.pending is not None:
                failed = self.pending
                self.pending = None
                self._worker_failed(failed.seat, failed.hint, f"{type(e).__name__}: {e}", -1)
        for ev in events:
            p = self.pending
            if p is None or ev.request_id != p.request_id:
                continue
            if workers.is_progress(ev):
                p.iterations = ev.iterations
                self.ai_progress = ev.win_rate
            elif workers.is_done(ev):
                p.iterations = ev.iterations
                if p.hint:
                    self.pending = None
                    self._hint_ready(ev.move)
                else:
                    p.move = ev.move
                    p.ready_at = max(now, p.requested_at + self.min_delay_ms / 1000.0)
            elif workers.is_failed(ev):
                self.pending = None
                self._worker_failed(p.seat, p.hint, ev.error, ev.fallback_move)

    def _worker_failed(self, seat: int, hint: bool, error: str, fallback: int) -> None:
        first_line = error.strip().splitlines()[0] if error.strip() else "unknown error"
        if hint:
            self.notify(t("The hint could not be computed: {error}", error=first_line), error=True)
            return
        self.notify(t("The AI of {name} failed ({error}); it played a random legal move.",
                      name=describe.seat_name(self.seats[seat].label), error=first_line), error=True, seconds=6)
        state = self.state
        legal = state.legal_moves()
        if fallback not in legal:
            rng = random.Random(derive_seed(self.session.seed, "fallback", self.match.hand_index, self.session.ply))
            fallback = rng.choice(legal) if legal else -1
        if fallback in legal and state.current_player == seat:
            self._apply(fallback)

    def notify(self, text: str, error: bool = False, seconds: float = 4.0) -> None:
        """Show a message in the sidebar for ``seconds``."""
        self.notices.append(Notice(text, self.clock() + seconds, error))

    # --- moves ---------------------------------------------------------------------------------
    def play(self, move: int) -> IllegalMove | None:
        """A human move for the current seat; returns the reason when it is illegal (nothing changes)."""
        if not self.human_to_move():
            return describe.NOT_YOUR_TURN
        reason = self.state.illegal_move(move)
        if reason is not None:
            return reason
        self._apply(move)
        return None

    def _apply(self, move: int) -> None:
        state = self.state
        seat = state.current_player
        trick_before, points_before = state.last_trick(), state.running_points()
        entry = describe.log_entry(state, move)
        for listener in self.listeners:
            listener("before", seat, move)
        state.apply(move)
        self.log.append(entry)
        self.notices = [n for n in self.notices if not n.hint]
        self.session.record_move(move)
        self.movers.append(seat)
        if self.is_human(seat) and len(self.human_seats()) > 1 and (state.is_terminal() or
                                                                   state.current_player != seat):
            self.last_viewer = seat
            self.viewer = None  # hotseat: hide this hand as soon as its owner has played (a pass: all its cards)
        self.version += 1
        self.hint_move = None
        self.hint_moves = []
        won = describe.trick_entry(trick_before, points_before, state)
        if won is not None:
            self.last_trick = last_trick_of(state)
            self.log.append(won)
            self.hold_until = self.clock() + self.trick_pause_ms / 1000.0
        if state.is_terminal():
            self._finish_hand()
        self.save()
        for listener in self.listeners:
            listener("after", seat, move)

    def _finish_hand(self) -> None:
        self.hand_result = self.match.finish_hand()

    @property
    def hand_over(self) -> bool:
        """Whether the current hand is finished."""
        return self.state.is_terminal()

    @property
    def match_over(self) -> bool:
        """Whether the match is finished."""
        return self.state.is_terminal() and self.match.over

    def next_hand(self) -> None:
        """Deal the next hand of the match (after the summary)."""
        if not self.state.is_terminal() or self.match.over:
            return
        self.match.next_hand()
        while len(self.session.moves) <= self.match.hand_index:
            self.session.moves.append([])
        self.hand_result = None
        self.last_trick = None
        self.log = []
        self.pending = None
        self._remember_hand_start()
        self.movers = []
        self.version += 1
        if len(self.human_seats()) > 1:
            self.viewer = None
            self.privacy_for = None
        self.save()

    def _remember_hand_start(self) -> None:
        self.session.meta["hand_start"] = {"hand": self.match.hand_index, "state": self.state.to_json()}

    def save(self) -> None:
        """Autosave the session (errors become a notice, never a crash)."""
        if self.autosave is None:
            return
        try:
            self.autosave.save(self.session)
        except Exception as e:  # noqa: BLE001
            self.notify(t("Autosave failed: {error}", error=str(e)), error=True)

    # --- undo and hints ------------------------------------------------------------------------
    def can_undo(self) -> bool:
        """Whether undo is allowed now (setting on, one human against AIs, a human move to take back)."""
        humans = self.human_seats()
        if not self.allow_undo or len(humans) != 1 or self.state.is_terminal():
            return False
        start = self.session.meta.get("hand_start")
        if not start or start.get("hand") != self.match.hand_index:
            return False
        return bool(self._human_move_indexes(humans[0]))

    def _replay(self, count: int, log: list[LogEntry] | None = None) -> tuple[GameState, list[int]]:
        start = self.session.meta["hand_start"]["state"]
        state = self.match.game.state_from_json(start if isinstance(start, str) else json.dumps(start))
        movers = []
        for move in self.session.moves[self.match.hand_index][:count]:
            seat = state.current_player
            movers.append(seat)
            if log is None:
                state.apply(move)
                continue
            entry, trick, points = describe.log_entry(state, move), state.last_trick(), state.running_points()
            state.apply(move)
            log.append(entry)
            won = describe.trick_entry(trick, points, state)
            if won is not None:
                log.append(won)
        return state, movers

    def _replayed_log(self) -> list[LogEntry]:
        """The current hand's log rebuilt from its start (empty when the hand's start is unknown)."""
        start = self.session.meta.get("hand_start")
        if not start or start.get("hand") != self.match.hand_index:
            return []
        log: list[LogEntry] = []
        try:
            moves = self.session.moves[self.match.hand_index] if len(self.session.moves) > self.match.hand_index \
                else []
            self._replay(len(moves), log)
        except Exception:  # noqa: BLE001 - a save without a usable hand start: the log starts now
            return []
        return log

    def _human_move_indexes(self, seat: int) -> list[int]:
        return [i for i, s in enumerate(self.movers) if s == seat]

    def undo(self) -> bool:
        """Take back the human's last move (and the AI moves after it); recorded in the session."""
        if not self.can_undo():
            return False
        seat = self.human_seats()[0]
        index = self._human_move_indexes(seat)[-1]
        if self.pending is not None:
            self.worker.cancel()
            self.pending = None
        log: list[LogEntry] = []
        state, movers = self._replay(index, log)
        self.log = log
        self.match.state = state
        self.movers = movers
        self.version += 1
        del self.session.moves[self.match.hand_index][index:]
        self.session.undos_used += 1
        self.session.meta.setdefault("undos", []).append({"hand": self.match.hand_index, "ply": index})
        self.last_trick = last_trick_of(state)
        self.hint_move = None
        self.hint_moves = []
        self.notices = [n for n in self.notices if not n.hint]
        self.hold_until = 0.0
        self.save()
        return True

    def request_hint(self) -> bool:
        """Ask the worker for a suggested move for the human to move (recorded as a used hint)."""
        if not self.allow_hints or not self.human_to_move() or (self.pending is not None and self.pending.hint):
            return False
        self.hint_moves = []
        self._request(self.current, hint=True)
        return True

    def hint_pending(self) -> bool:
        """Whether a hint is being computed."""
        return self.pending is not None and self.pending.hint

    def _hint_ready(self, move: int) -> None:
        """A hinted move arrived. A pass or discard asks again, on a copy of the state with the hinted cards
        passed, until the seat's passing is complete, so that the hint names every card."""
        state = self.state
        chain = self.hint_moves + [move]
        probe = state.clone()
        for m in chain:
            if m not in probe.legal_moves():
                return
            probe.apply(m)
        seat = state.current_player
        legal = probe.legal_moves()
        if state.is_pass_move(move) and probe.current_player == seat and legal and \
                all(probe.is_pass_move(m) for m in legal) and len(chain) < 20:
            self.hint_moves = chain
            self._request(seat, hint=True, state=probe)
            return
        self.hint_moves = chain
        self.hint_move = chain[0]
        self.notices = [n for n in self.notices if not n.hint]
        self.notices.append(Notice(describe.hint_text(state, chain), self.clock() + 12, hint=True))
        self.session.hints_used += 1
        self.session.meta.setdefault("hints", []).append(
            {"hand": self.match.hand_index, "ply": self.session.ply, "move": chain[0]})
        self.save()

    def close(self) -> None:
        """Stop any search (the worker itself belongs to the app)."""
        if self.pending is not None:
            try:
                self.worker.cancel()
            except Exception:  # noqa: BLE001
                pass
            self.pending = None
