"""The host's authoritative table, without any networking: seats, joins, moves and the messages each seat gets.

A :class:`Table` owns a :class:`saves.session.GameSession` (the unit the host autosaves) and answers every input
with a list of ``(seat, message)`` pairs for the transport to deliver. What a seat receives is built only from
``state.observation(seat)`` and public events, so no message for one seat carries another seat's hidden card.
The network settings (code, seat kinds, rejoin tokens, port) live in ``session.meta["net"]``, so a table restored
from the autosave takes its players back.
"""

from __future__ import annotations

import copy
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from engine import agents, registry
from engine.game import Game, GameError, GameState, StateFormatError
from engine.match import Match
from engine.presets import LEVELS, preset_spec
from net import protocol as p
from saves.records import RecordsDB
from saves.session import GameSession, Seat

SEAT_KINDS = ("remote", "local", "ai")
Outbox = list[tuple[int, dict[str, Any]]]


class TableError(ValueError):
    """A table set-up that cannot work (bad seat list, unknown game or agent); the text says why."""


@dataclass
class SeatSlot:
    """One seat of a network table.

    ``kind``: ``remote`` (a human at another computer), ``local`` (a human at the host's screen) or ``ai``.
    ``taken`` says a remote player has joined; ``connected`` whether that player is connected now; ``takeover``
    whether an AI plays the seat while its player is away (``spec`` is then the AI's SPEC).
    """

    kind: str
    name: str = ""
    spec: str = ""
    preset: str = ""
    token: str = ""
    taken: bool = False
    connected: bool = False
    takeover: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "spec": self.spec, "preset": self.preset,
                "token": self.token, "taken": self.taken, "takeover": self.takeover}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SeatSlot:
        kind = d.get("kind")
        if kind not in SEAT_KINDS:
            raise StateFormatError(f"network seat kind must be one of {', '.join(SEAT_KINDS)}, not {kind!r}")
        return cls(kind, str(d.get("name", "")), str(d.get("spec", "")), str(d.get("preset", "")),
                   str(d.get("token", "")), bool(d.get("taken", False)), False, bool(d.get("takeover", False)))

    @property
    def human(self) -> bool:
        return self.kind in ("remote", "local")

    @property
    def ai_plays(self) -> bool:
        """Whether the host's AI chooses this seat's moves now."""
        return self.kind == "ai" or self.takeover


def parse_seats(text: str | list[str], game: Game) -> list[SeatSlot]:
    """Seats from ``remote,local,ai:LEVEL,ai:SPEC,...`` (one per player); raises :class:`TableError`."""
    items = [s.strip() for s in (text.split(",") if isinstance(text, str) else text)]
    if len(items) != game.num_players:
        raise TableError(f"{game.name} needs {game.num_players} seats, got {len(items)}: "
                         f"give one of remote, local, ai:LEVEL or ai:SPEC per seat")
    slots = []
    for i, item in enumerate(items):
        kind, _, rest = item.partition(":")
        if kind in ("remote", "local") and not rest:
            slots.append(SeatSlot(kind, name="" if kind == "remote" else f"Player {i + 1}"))
        elif kind == "ai" and rest:
            slots.append(ai_slot(game, rest))
        else:
            raise TableError(f"bad seat {item!r}: valid seats are remote, local, ai:LEVEL "
                             f"({', '.join(LEVELS)}) or ai:SPEC")
    if not any(s.human for s in slots):
        raise TableError("a network table needs at least one remote or local seat")
    return slots


def ai_slot(game: Game, level_or_spec: str, name: str = "") -> SeatSlot:
    """An AI seat from a difficulty level or an agent SPEC (checked: unknown agents raise :class:`TableError`).

    Its ``name`` may stay empty: each player's screen then names it by its level in its own language."""
    preset = level_or_spec if level_or_spec in LEVELS else ""
    spec = preset_spec(game.name, preset) if preset else level_or_spec
    try:
        agents.make(spec, game)
    except (GameError, ValueError) as e:
        raise TableError(f"bad AI {level_or_spec!r}: {e}") from None
    return SeatSlot("ai", name=name, spec=spec, preset=preset, taken=True)


@dataclass
class Table:
    """A network table: its code, seats and (once started) the session; see the module docstring."""

    game: Game
    slots: list[SeatSlot]
    seed: int
    code: str = field(default_factory=p.new_code)
    session: GameSession | None = None
    hand_limit: int | None = None
    """Stop after this many hands (tests and demos); None = play the match to its end."""
    ready: set[int] = field(default_factory=set)
    table_id: str = field(default_factory=lambda: secrets.token_hex(8))
    """Names this table on the local network (beacons, ``welcome``), so a player's app finds it again at a new
    address; unlike the code it is public and does not let anyone join."""
    _hand_start: tuple[int, GameState] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def create(cls, game_name: str, seats: str | list[str], variant: dict[str, Any] | None = None,
               seed: int | None = None, code: str | None = None, hand_limit: int | None = None) -> Table:
        """A new table in its lobby (raises :class:`TableError` for a bad game, variant or seat list)."""
        try:
            game = registry.create(game_name, variant or {})
        except (GameError, KeyError, ValueError) as e:
            raise TableError(str(e)) from None
        slots = parse_seats(seats, game)
        return cls(game, slots, secrets.randbits(62) if seed is None else seed,
                   p.normalize_code(code) if code else p.new_code(), hand_limit=hand_limit)

    @classmethod
    def from_session(cls, session: GameSession) -> Table:
        """The table of a restored autosave (raises StateFormatError if it is not a network table)."""
        net = session.meta.get("net")
        if not isinstance(net, dict) or not isinstance(net.get("slots"), list):
            raise StateFormatError("the saved game is not a network table")
        slots = [SeatSlot.from_dict(d) for d in net["slots"]]
        if len(slots) != session.match.game.num_players:
            raise StateFormatError("the saved network seats do not match the game")
        limit = net.get("hand_limit")
        table = cls(session.match.game, slots, session.seed, p.normalize_code(str(net.get("code", ""))), session,
                    limit if isinstance(limit, int) else None)
        table_id = net.get("table_id")
        if isinstance(table_id, str) and 0 < len(table_id) <= 64:
            table.table_id = table_id
        return table

    # --- state ------------------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def state(self) -> GameState:
        assert self.session is not None
        return self.session.match.state

    @property
    def hand(self) -> int:
        return self.session.match.hand_index if self.session else 0

    @property
    def ply(self) -> int:
        return self.session.ply if self.session else 0

    def all_taken(self) -> bool:
        """Whether every remote seat has a player (the host may start)."""
        return all(s.taken for s in self.slots if s.kind == "remote")

    def humans(self) -> list[int]:
        """Seats that receive messages: remote and local humans (also while an AI plays for them)."""
        return [i for i, s in enumerate(self.slots) if s.human]

    def finished(self) -> bool:
        """Whether the table has nothing more to play (match over or hand limit reached)."""
        if self.session is None or not self.state.is_terminal():
            return False
        match = self.session.match
        return match.over or (self.hand_limit is not None and match.hand_index + 1 >= self.hand_limit)

    def ai_to_move(self) -> int | None:
        """The seat whose move the host's AI must choose now, or None."""
        if self.session is None or self.state.is_terminal():
            return None
        seat = self.state.current_player
        return seat if self.slots[seat].ai_plays else None

    def net_meta(self, port: int | None = None) -> dict[str, Any]:
        """What ``session.meta["net"]`` holds (seats with their tokens: it stays on the host)."""
        return {"code": self.code, "table_id": self.table_id, "slots": [s.to_dict() for s in self.slots], "port": port,
                "hand_limit": self.hand_limit, "protocol": p.PROTOCOL_VERSION}

    # --- lobby --------------------------------------------------------------------------------------------
    def seat_list(self) -> list[dict[str, Any]]:
        """The public seat list: kind, name, whether joined/connected, AI level; never a token."""
        out = []
        for i, s in enumerate(self.slots):
            out.append({"seat": i, "kind": s.kind, "name": s.name, "taken": s.taken or s.kind != "remote",
                        "connected": s.connected if s.kind == "remote" else True,
                        "ai": s.preset or (s.spec if s.ai_plays else ""), "takeover": s.takeover})
        return out

    def lobby_message(self) -> dict[str, Any]:
        return {"type": "lobby", "seats": self.seat_list(), "started": self.started, "code_required": True,
                "game": self.game.name, "variant": self.game.variant, "can_start": self.all_taken()}

    def broadcast(self, message: dict[str, Any]) -> Outbox:
        return [(seat, message) for seat in self.humans()]

    def join(self, message: dict[str, Any]) -> tuple[int | None, dict[str, Any]]:
        """Handle a ``join`` or ``rejoin``: ``(seat, welcome)`` or ``(None, refused)``; marks the seat connected."""
        def refuse(reason: str, text: str, **extra: Any) -> tuple[None, dict[str, Any]]:
            return None, {"type": "refused", "reason": reason, "message": text, **extra}

        if message["protocol"] != p.PROTOCOL_VERSION:
            return None, p.mismatch(message["protocol"], message["app"])
        if not secrets.compare_digest(p.normalize_code(message["code"]).encode(), self.code.encode()):
            return refuse(p.BAD_CODE, "wrong table code")
        name = p.clean_name(message["name"])
        wanted = message.get("seat")
        if wanted is not None and not (0 <= wanted < len(self.slots) and self.slots[wanted].kind == "remote"):
            remote = [i for i, s in enumerate(self.slots) if s.kind == "remote"]
            return refuse(p.BAD_SEAT, f"seat {wanted} is not open to remote players; remote seats: "
                          + ", ".join(map(str, remote)))
        rejoined = False
        if message["type"] == "rejoin":
            seat = wanted
            assert seat is not None
            slot = self.slots[seat]
            if not slot.taken:
                return refuse(p.BAD_SEAT, f"seat {seat} has no player to rejoin as; join it instead")
            token = message.get("token") or ""
            if token:
                if not secrets.compare_digest(token.encode(), slot.token.encode()):
                    return refuse(p.BAD_TOKEN, f"wrong rejoin token for seat {seat}")
            elif slot.connected or name != slot.name:
                return refuse(p.BAD_TOKEN, f"seat {seat} is held by {slot.name}: rejoin with its token, "
                              "or as the same name once that player has dropped")
            rejoined = True
        elif self.started:  # a player who lost the address or token: their dropped seat, found by name
            back = [i for i, s in enumerate(self.slots) if s.kind == "remote" and s.taken and not s.connected
                    and s.name == name and wanted in (None, i)]
            if not back:
                return refuse(p.STARTED, "the game has started: only its players can rejoin (with the name they "
                              "played under)")
            seat = back[0]
            slot = self.slots[seat]
            rejoined = True
        else:
            free = [i for i, s in enumerate(self.slots) if s.kind == "remote" and not s.taken]
            if wanted is not None and wanted not in free:
                return refuse(p.SEAT_TAKEN, f"seat {wanted} is taken; free seats: "
                              + (", ".join(map(str, free)) or "none"))
            if not free:
                return refuse(p.NO_FREE_SEAT, "every remote seat is taken")
            seat = wanted if wanted is not None else free[0]
            slot = self.slots[seat]
            slot.token = p.new_token()
            slot.taken = True
            slot.name = name
        slot.connected = True
        welcome = {"type": "welcome", "seat": seat, "token": slot.token, "name": slot.name, "rejoined": rejoined,
                   "table": self.table_id, "protocol": p.PROTOCOL_VERSION, "app": p.app_version(),
                   "game": self.game.name, "variant": self.game.variant, "players": self.game.num_players,
                   "teams": self.game.teams(), "app_mismatch": message["app"] != p.app_version()}
        return seat, welcome

    def release(self, seat: int, leave: bool = False) -> None:
        """A remote player disconnected (``leave``: left for good; in the lobby the seat becomes free)."""
        slot = self.slots[seat]
        slot.connected = False
        if leave and not self.started:
            slot.taken = False
            slot.token = ""
            slot.name = ""

    def hand_to_ai(self, seat: int, spec: str, preset: str = "") -> None:
        """An AI plays the seat of a player who stayed away; the player takes it back by rejoining."""
        slot = self.slots[seat]
        slot.takeover = True
        slot.spec = spec
        slot.preset = preset

    def take_back(self, seat: int) -> None:
        """The player of a taken-over seat is back: the seat is theirs again."""
        self.slots[seat].takeover = False

    # --- play ---------------------------------------------------------------------------------------------
    def start(self) -> Outbox:
        """Deal the first hand (every remote seat must be taken)."""
        if self.started:
            raise TableError("the game has already started")
        if not self.all_taken():
            raise TableError("not every remote seat has a player yet")
        seats = [Seat("human", s.name or f"Player {i + 1}") if s.human else
                 Seat("ai", s.name or f"AI {i + 1}", spec=s.spec, preset=s.preset) for i, s in enumerate(self.slots)]
        self.session = GameSession.start(self.game, seats, self.seed)
        self._hand_start = (self.hand, self.state.clone())
        return self.deal_messages()

    def deal_messages(self) -> Outbox:
        out: Outbox = self.broadcast(self.lobby_message())
        for seat in self.humans():
            out.extend((seat, m) for m in self.snapshot(seat))
        return out

    def snapshot(self, seat: int) -> list[dict[str, Any]]:
        """What a seat needs to (re)draw the table now: start, the hand's history as the seat saw it, its
        observation, your_turn / hand_end."""
        assert self.session is not None
        match = self.session.match
        msgs: list[dict[str, Any]] = [{
            "type": "start", "hand": self.hand, "dealer": match.dealer, "totals": list(match.totals),
            "game": self.game.name, "variant": self.game.variant, "seats": self.seat_list(), "seat": seat}]
        history = self.history(seat)
        if history is not None:
            msgs.append(history)
        msgs.append(self.state_message(seat))
        if self.state.is_terminal():
            msgs.extend(self.end_messages(seat))
        elif self.state.current_player == seat:
            msgs.append(self.turn_message())
        return msgs

    def state_message(self, seat: int) -> dict[str, Any]:
        """The seat's own observation (``Observation.to_dict``) and the public facts around it."""
        assert self.session is not None
        return {**self._view(seat, self.state, self.ply), "totals": list(self.session.match.totals)}

    def _view(self, seat: int, state: GameState, ply: int) -> dict[str, Any]:
        assert self.session is not None
        return {"type": "state", "hand": self.hand, "ply": ply, "observation": state.observation(seat).to_dict(),
                "current_player": state.current_player,
                "dealer": self.session.match.dealer}

    def _played(self, state: GameState, move: int, ply: int) -> tuple[int, dict[str, Any], dict[str, Any]]:
        """``(mover, played message for the mover and every seat when the move is public, for the others when
        it is hidden)`` of ``move`` made in ``state`` as the hand's move number ``ply``."""
        public = {"type": "played", "hand": self.hand, "ply": ply, "seat": state.current_player, "move": move,
                  "text": state.move_text(move), "cards": list(state.move_cards(move)), "hidden": False}
        if not state.is_pass_move(move):
            return state.current_player, public, public
        return state.current_player, public, {**public, "move": None, "text": None, "cards": [], "hidden": True}

    def hand_start(self) -> GameState:
        """The current hand as it was dealt (re-dealt from the seed and the earlier hands' moves once per hand)."""
        assert self.session is not None
        if self._hand_start is None or self._hand_start[0] != self.hand:
            match = Match.start(self.game, self.session.seed)
            for moves in self.session.moves[:self.hand]:
                for move in moves:
                    match.state.apply(move)
                match.next_hand()
            self._hand_start = (self.hand, match.state.clone())
        return self._hand_start[1].clone()

    def history(self, seat: int, limit: int = p.MAX_HISTORY) -> dict[str, Any] | None:
        """The current hand so far exactly as ``seat`` received it: its ``state`` at the deal, then each move's
        ``played`` and the ``state`` after it (a hidden move of another seat stays hidden). Beyond ``limit``
        bytes only the last moves are kept (``first``: the ply of the first ``state``). None before the first
        move, or when the saved moves do not replay to the table's state."""
        assert self.session is not None
        moves = self.session.moves[self.hand] if len(self.session.moves) > self.hand else []
        if not moves:
            return None
        try:
            state = self.hand_start()
            messages = [self._view(seat, state, 0)]
            for ply, move in enumerate(moves, 1):
                mover, public, secret = self._played(state, move, ply)
                messages.append(public if mover == seat else secret)
                state.apply(move)
                messages.append(self._view(seat, state, ply))
        except (GameError, StateFormatError, ValueError):
            return None
        if state != self.state:
            return None
        first, size = len(moves), 0
        for ply in range(len(moves), -1, -1):  # from the last move back: a state and the move that led to it
            size += sum(len(p.encode(m)) + 1 for m in messages[2 * ply - 1 if ply else 0:2 * ply + 1])
            if size > limit:
                break
            first = ply
        return {"type": "history", "hand": self.hand, "ply": len(moves), "first": first,
                "messages": messages[2 * first:]}

    def turn_message(self) -> dict[str, Any]:
        state = self.state
        return {"type": "your_turn", "hand": self.hand, "ply": self.ply, "seat": state.current_player,
                "moves": [{"move": m, "text": state.move_text(m), "cards": list(state.move_cards(m))}
                          for m in state.legal_moves()]}

    def end_messages(self, seat: int) -> list[dict[str, Any]]:
        assert self.session is not None
        match = self.session.match
        result = match.finish_hand()
        msgs = [{"type": "hand_end", "hand": self.hand, "result": result.to_dict(), "totals": list(match.totals),
                 "match_over": match.over, "last_hand": self.finished()}]
        if match.over:
            msgs.append({"type": "match_end", "totals": list(match.totals), "winners": match.winners(),
                         "winner_seats": match.winner_seats(), "record": self.public_record(), "seat": seat})
        elif self.finished():
            msgs.append({"type": "closed", "reason": "hand_limit", "message": f"the table stops after "
                         f"{self.hand_limit} hand(s)"})
        return msgs

    def public_record(self) -> dict[str, Any]:
        """The finished session for the players' records: the seed and every move, without the rejoin tokens.

        Only sent once the match is over (it reveals that match's deals, as turning the cards face up would)."""
        assert self.session is not None and self.session.match.over
        record = copy.deepcopy(self.session.to_dict())
        record["meta"].pop("net", None)
        record["meta"]["network"] = {"seats": [s.kind for s in self.slots]}
        return record

    def move(self, seat: int, message: dict[str, Any]) -> tuple[str | None, str]:
        """Check a human's ``move`` message: ``(None, "")`` when it may be applied, else (reason code, text)."""
        if self.session is None:
            return p.NOT_STARTED, "the game has not started"
        state = self.state
        if state.is_terminal():
            return p.HAND_OVER, "the hand is over"
        if message["hand"] != self.hand or message["ply"] != self.ply:
            return p.STALE, f"the table is at hand {self.hand} move {self.ply}, not hand {message['hand']} " \
                            f"move {message['ply']}"
        if state.current_player != seat or self.slots[seat].ai_plays:
            return p.NOT_YOUR_TURN, f"it is seat {state.current_player}'s turn"
        reason = state.illegal_reason(message["move"])
        if reason is not None:
            return p.ILLEGAL, reason
        return None, ""

    def apply(self, move: int) -> Outbox:
        """Apply a checked move of the seat to move and return every seat's messages."""
        assert self.session is not None
        mover, public, secret = self._played(self.state, move, self.ply + 1)
        self.session.apply(move)
        out: Outbox = []
        for seat in self.humans():
            out.append((seat, public if seat == mover else secret))
            out.append((seat, self.state_message(seat)))
        if self.state.is_terminal():
            self.ready = set()
            for seat in self.humans():
                out.extend((seat, m) for m in self.end_messages(seat))
        else:
            current = self.state.current_player
            if self.slots[current].human and not self.slots[current].ai_plays:
                out.append((current, self.turn_message()))
        return out

    def next_hand(self) -> Outbox:
        """Deal the next hand (after a finished one that is not the last)."""
        assert self.session is not None
        if not self.state.is_terminal() or self.finished():
            return []
        self.session.match.finish_hand()
        self.session.next_hand()
        self._hand_start = (self.hand, self.state.clone())
        self.ready = set()
        return self.deal_messages()

    def waiting_for_ready(self) -> list[int]:
        """Connected human seats that have not yet confirmed the hand summary."""
        return [i for i in self.humans() if i not in self.ready and
                (self.slots[i].kind == "local" or self.slots[i].connected)]


def ai_move(game: Game, spec: str, state: GameState, seat: int, rng: random.Random) -> int:
    """An AI's move for ``seat`` in this process: a fresh agent of ``spec`` (the session's AI randomness)."""
    agent = agents.make(spec or "random", game)
    if agent.fair:
        return agent.choose(state.observation(seat), rng)
    return agent.choose_full(state, rng)


def random_fallback(state: GameState, seed: int) -> int:
    """A random legal move (for an AI whose search failed)."""
    moves = state.legal_moves()
    return moves[random.Random(seed).randrange(len(moves))]


def record_for_seat(db: RecordsDB, record: dict[str, Any], seat: int) -> int:
    """Record a finished network match (a ``match_end`` record) from ``seat``'s point of view; returns its id.

    Each seat's record has its own id (``SESSION_ID:seatN``), so two players sharing a computer both keep theirs."""
    session = GameSession.from_dict(record)
    session.session_id = f"{session.session_id}:seat{seat}"
    return db.record_game(session, human_seat=seat)
