"""Game records and statistics: a sqlite3 database (``records.sqlite3`` in the data directory).

Every finished game is stored with its seats, the full move list of every hand, the per-hand results,
winners, duration, hints/undos used, app version, seed and study condition. A record replays move by move
(:func:`replay`) by re-dealing each hand from the seed with ``Match.start(game, seed)`` and applying the
recorded moves. The database runs in WAL mode so the exporter can read while the app writes; its schema has
a version table and a migration list (:data:`SCHEMA_MIGRATIONS`).

Statistics are from the human seat's point of view (the first ``human`` seat; all-AI games are excluded):
see ``docs/saves.md`` for the exact definitions.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from engine import registry
from engine.game import GameError, GameState, HandResult
from engine.match import Match
from saves import paths
from saves.session import GameSession, Seat

DB_FILE = "records.sqlite3"
STATISTICS_GROUPS = ("game", "opponent", "game_opponent", "all")
BUSY_TIMEOUT_MS = 10_000

SCHEMA_MIGRATIONS: list[str] = [
    # version 1
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        seed INTEGER NOT NULL,
        first_dealer INTEGER NOT NULL,
        started_at REAL NOT NULL,
        finished_at REAL NOT NULL,
        duration_s REAL NOT NULL,
        hands_played INTEGER NOT NULL,
        totals TEXT NOT NULL,
        winner_teams TEXT NOT NULL,
        winner_seats TEXT NOT NULL,
        human_seat INTEGER,
        human_outcome REAL,
        human_points REAL,
        hints_used INTEGER NOT NULL DEFAULT 0,
        undos_used INTEGER NOT NULL DEFAULT 0,
        app_version TEXT NOT NULL,
        study_id TEXT,
        participant TEXT,
        condition TEXT,
        study TEXT,
        meta TEXT NOT NULL DEFAULT '{}',
        replay_error TEXT
    );
    CREATE INDEX games_by_game ON games(game, finished_at);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        spec TEXT NOT NULL,
        preset TEXT NOT NULL,
        display_name TEXT NOT NULL,
        team INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE hands (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        hand_index INTEGER NOT NULL,
        dealer INTEGER NOT NULL,
        result TEXT NOT NULL,
        team_points TEXT NOT NULL,
        winners TEXT NOT NULL,
        PRIMARY KEY (game_id, hand_index)
    );
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        hand_index INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move INTEGER NOT NULL,
        notation TEXT NOT NULL,
        PRIMARY KEY (game_id, hand_index, ply)
    );
    CREATE TABLE survey_responses (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        questionnaire_id TEXT NOT NULL,
        questionnaire_version INTEGER NOT NULL,
        language TEXT NOT NULL,
        answered_at REAL NOT NULL,
        study_id TEXT,
        participant TEXT
    );
    CREATE TABLE survey_answers (
        response_id INTEGER NOT NULL REFERENCES survey_responses(id) ON DELETE CASCADE,
        item_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        opponent_label TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (response_id, item_id, seat)
    );
    """,
]
"""``SCHEMA_MIGRATIONS[i]`` upgrades the schema from version ``i`` to ``i + 1`` (append, never edit)."""
SCHEMA_VERSION = len(SCHEMA_MIGRATIONS)


class RecordsError(Exception):
    """A records database problem, in plain words."""


class NewerDatabaseError(RecordsError):
    """The database was written by a newer cardtable; this build leaves it untouched."""


def _played_spec(game: str, seat: Seat) -> str:
    """The agent spec an AI seat played with: its own, or its preset's in this version (presets change
    between versions, so the record keeps what was really played)."""
    if seat.spec or seat.kind != "ai" or not seat.preset:
        return seat.spec
    try:
        from engine.presets import preset_spec

        return preset_spec(game, seat.preset)
    except Exception:  # noqa: BLE001 - an unknown preset is recorded as it was given
        return seat.spec


def app_version() -> str:
    """The installed cardtable version, or ``"dev"`` when running from a source tree."""
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("cardtable")
    except (ImportError, PackageNotFoundError, ValueError):
        return "dev"


def database_path(directory: Path | None = None) -> Path:
    return Path(directory or paths.data_dir()) / DB_FILE


def connect(path: Path, readonly: bool = False) -> sqlite3.Connection:
    """A connection with the project's pragmas (WAL, foreign keys, busy timeout)."""
    if readonly:
        conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                               timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    else:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


# --- records ----------------------------------------------------------------------------------------------
@dataclass
class GameSummary:
    """One line of the records list."""

    id: int
    game: str
    variant: dict[str, Any]
    finished_at: float
    duration_s: float
    totals: list[float]
    winner_seats: list[int]
    human_seat: int | None
    human_outcome: float | None
    opponents: list[str]
    study_id: str | None = None
    condition: str | None = None


@dataclass
class GameRecord:
    """A finished game as stored: enough to show, replay and export it."""

    id: int
    session_id: str
    game: str
    variant: dict[str, Any]
    seed: int
    first_dealer: int
    seats: list[Seat]
    moves: list[list[int]]
    hands: list[dict[str, Any]]
    hand_dealers: list[int]
    totals: list[float]
    winner_teams: list[int]
    winner_seats: list[int]
    started_at: float
    finished_at: float
    duration_s: float
    hints_used: int
    undos_used: int
    app_version: str
    human_seat: int | None
    human_outcome: float | None
    human_points: float | None
    study: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    replay_error: str | None = None
    """Why the recorded moves do not reproduce the game (None when the record replays)."""

    @property
    def study_id(self) -> str | None:
        return (self.study or {}).get("study_id")

    @property
    def condition(self) -> str | None:
        c = (self.study or {}).get("condition")
        return None if c is None else str(c)


@dataclass
class ReplayStep:
    """One position of a replay: ``state`` after ``move`` (None at the start of a hand) was made by ``seat``."""

    hand_index: int
    ply: int
    state: GameState
    move: int | None
    seat: int | None
    notation: str
    totals: list[float]
    dealer: int
    result: HandResult | None = None


def first_dealer_of(match: Match) -> int:
    """The dealer of the match's first hand, worked back from the current dealer and hand index."""
    game = match.game
    candidates = []
    for d in range(game.num_players):
        x = d
        for _ in range(match.hand_index):
            x = game.next_dealer(x)
        if x == match.dealer:
            candidates.append(d)
    if len(candidates) != 1:
        raise RecordsError("cannot work out the first dealer of this match")
    return candidates[0]


def replay_moves(game_name: str, variant: dict[str, Any], seed: int, first_dealer: int,
                 moves: list[list[int]]) -> Iterator[ReplayStep]:
    """Re-deal each hand from ``seed`` and apply ``moves``; yields every position (illegal -> RecordsError)."""
    game = registry.create(game_name, variant)
    match = Match.start(game, seed, dealer=first_dealer)
    for hand_index, hand_moves in enumerate(moves):
        if hand_index > 0:
            if not match.state.is_terminal():
                raise RecordsError(f"hand {hand_index} ended before its last move was recorded")
            if match.over:
                raise RecordsError(f"hand {hand_index + 1} was recorded after the match ended")
            match.next_hand()
        state = match.state
        yield ReplayStep(hand_index, 0, state.clone(), None, None, "", list(match.totals), match.dealer)
        for ply, move in enumerate(hand_moves):
            seat = state.current_player
            try:
                notation = state.move_text(move)
                state.apply(move)
            except GameError as e:
                raise RecordsError(f"hand {hand_index + 1}, move {ply + 1}: {e}") from None
            result = None
            if state.is_terminal():
                result = match.finish_hand()
            yield ReplayStep(hand_index, ply + 1, state.clone(), move, seat, notation, list(match.totals),
                             match.dealer, result)


def replay(record: GameRecord) -> Iterator[ReplayStep]:
    """Every position of a recorded game, hand by hand (the replay viewer steps through ``list(replay(r))``)."""
    if record.replay_error:
        raise RecordsError(f"record {record.id} cannot be replayed: {record.replay_error}")
    return replay_moves(record.game, record.variant, record.seed, record.first_dealer, record.moves)


def human_seat_of(seats: list[Seat]) -> int | None:
    """The seat whose point of view statistics take: the first human seat, or None."""
    return next((i for i, s in enumerate(seats) if s.kind == "human"), None)


def opponent_type(seat: Seat) -> str:
    """The statistics key of an AI opponent: its preset, else its agent spec."""
    return seat.preset or seat.spec or seat.name


def _team_index(teams: list[tuple[int, ...]], seat: int) -> int:
    return next(i for i, t in enumerate(teams) if seat in t)


def _outcome(winner_seats: list[int], human: int, teams: list[tuple[int, ...]]) -> float:
    if not winner_seats:
        return 0.5
    if human not in winner_seats:
        return 0.0
    team = teams[_team_index(teams, human)]
    return 1.0 if set(winner_seats) <= set(team) else 0.5


@dataclass
class Stats:
    """Statistics of a group of games from the human's point of view."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points_total: float = 0.0
    current_streak: int = 0
    best_streak: int = 0

    @property
    def win_pct(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0

    @property
    def average_points(self) -> float:
        return self.points_total / self.games if self.games else 0.0

    def add(self, outcome: float, points: float) -> None:
        self.games += 1
        self.points_total += points
        if outcome == 1.0:
            self.wins += 1
            self.current_streak += 1
            self.best_streak = max(self.best_streak, self.current_streak)
        else:
            self.current_streak = 0
            if outcome == 0.0:
                self.losses += 1
            else:
                self.draws += 1

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "win_pct": round(self.win_pct, 2), "average_points": round(self.average_points, 4),
                "current_streak": self.current_streak, "best_streak": self.best_streak}


class RecordsDB:
    """The records database (cheap to open; the app may open it per use). Every write is one transaction."""

    _checked: ClassVar[set[str]] = set()

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else database_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.warnings: list[str] = []
        try:
            self.conn = self._open()
        except sqlite3.OperationalError as e:  # locked, unreadable, I/O error: not the file's fault
            raise RecordsError(f"the records database {self.path} cannot be used now: {e}") from None
        except sqlite3.DatabaseError as e:  # not a database / malformed: keep it aside, start afresh
            moved = self._move_aside()
            self.conn = self._open()
            recovered = recover_into(self.conn, moved)
            reason = "; ".join(line for line in str(e).splitlines() if "***" not in line)[:80]
            self.warnings.append(f"the records database was damaged ({reason}); it was moved to {moved} "
                                 f"and a new one was started with the {recovered} game(s) that could be read")

    def _open(self) -> sqlite3.Connection:
        conn = connect(self.path)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")  # a recorded game survives a power cut
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            key = str(self.path.resolve())
            if key not in RecordsDB._checked:  # a full page check once per process, not on every open
                problems = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
                if problems != ["ok"]:
                    raise sqlite3.DatabaseError(f"integrity check failed: {'; '.join(problems)[:300]}")
                RecordsDB._checked.add(key)
            self._migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _move_aside(self) -> Path:
        moved = paths.move_aside(self.path, "corrupt")
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.replace(moved.with_name(moved.name + suffix))
        return moved

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            version = 0 if row is None else int(row[0])
            if version > SCHEMA_VERSION:
                raise NewerDatabaseError(f"the records database was written by a newer cardtable (schema "
                                         f"{version}; this build knows {SCHEMA_VERSION}); it was left untouched")
            for v in range(version, SCHEMA_VERSION):
                for statement in _split_sql(SCHEMA_MIGRATIONS[v]):
                    conn.execute(statement)
            if row is None:
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            else:
                conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> RecordsDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ----------------------------------------------------------------------------------------
    def record_game(self, session: GameSession, finished_at: float | None = None, human_seat: int | None = None) -> int:
        """Store a finished game and return its record id (the same id again if already recorded).

        ``human_seat`` is the seat whose point of view the statistics take (default: the first human seat; a
        network table records one game per human, each from their own seat)."""
        match = session.match
        if match.state.is_terminal():
            match.finish_hand()
        if not match.over:
            raise RecordsError("the game is not finished")
        existing = self.conn.execute("SELECT id FROM games WHERE session_id = ?", (session.session_id,)).fetchone()
        if existing is not None:
            return int(existing[0])
        game = match.game
        teams = game.teams()
        first_dealer = first_dealer_of(match)
        moves = [list(h) for h in session.moves[:match.hand_index + 1]]
        while len(moves) < match.hand_index + 1:
            moves.append([])
        move_rows, dealers, replay_error = _replay_rows(match, first_dealer, moves)
        finished = time.time() if finished_at is None else finished_at
        human = human_seat_of(session.seats) if human_seat is None else human_seat
        if human is not None and not (0 <= human < game.num_players and session.seats[human].kind == "human"):
            raise RecordsError(f"seat {human} is not a human seat")
        winner_seats = match.winner_seats()
        outcome = points = None
        if human is not None:
            outcome = _outcome(winner_seats, human, teams)
            points = float(match.totals[_team_index(teams, human)])
        study = session.study or None
        with _transaction(self.conn):
            cur = self.conn.execute(
                "INSERT INTO games (session_id, game, variant, seed, first_dealer, started_at, finished_at, "
                "duration_s, hands_played, totals, winner_teams, winner_seats, human_seat, human_outcome, "
                "human_points, hints_used, undos_used, app_version, study_id, participant, condition, study, meta, "
                "replay_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (session.session_id, game.name, _dumps(game.variant), match.seed, first_dealer,
                 session.started_at, finished, max(0.0, finished - session.started_at), len(match.hands),
                 _dumps(match.totals), _dumps(match.winners()), _dumps(winner_seats), human, outcome, points,
                 session.hints_used, session.undos_used, app_version(),
                 None if study is None else _opt_str(study.get("study_id")),
                 None if study is None else _opt_str(study.get("participant")),
                 None if study is None else _opt_str(study.get("condition")),
                 None if study is None else _dumps(study), _dumps(session.meta), replay_error))
            gid = int(cur.lastrowid or 0)
            self.conn.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(gid, i, s.kind, s.name, _played_spec(game.name, s), s.preset, s.display_name, _team_index(teams, i))
                 for i, s in enumerate(session.seats)])
            self.conn.executemany(
                "INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?)",
                [(gid, i, dealers[i] if i < len(dealers) else -1, _dumps(h.to_dict()), _dumps(h.team_points),
                  _dumps(h.winners))
                 for i, h in enumerate(match.hands)])
            self.conn.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)",
                                  [(gid, *row) for row in move_rows])
        return gid

    def delete_game(self, record_id: int) -> None:
        """Remove a record and everything linked to it (survey answers included)."""
        with _transaction(self.conn):
            self.conn.execute("DELETE FROM games WHERE id = ?", (record_id,))

    # --- reading ----------------------------------------------------------------------------------------
    def list_games(self, game: str | None = None, limit: int | None = None, offset: int = 0) -> list[GameSummary]:
        """Recorded games, newest first (optionally one game only)."""
        sql = "SELECT * FROM games" + (" WHERE game = ?" if game else "") + " ORDER BY finished_at DESC, id DESC"
        args: list[Any] = [game] if game else []
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            args += [limit, offset]
        rows = self.conn.execute(sql, args).fetchall()
        seats = self._seats_by_game([int(r["id"]) for r in rows])
        out = []
        for r in rows:
            gseats = seats.get(int(r["id"]), [])
            human = r["human_seat"]
            opponents = [opponent_type(s) for i, (s, team) in enumerate(gseats)
                         if s.kind == "ai" and (human is None or team != gseats[human][1]) and i != human]
            out.append(GameSummary(int(r["id"]), r["game"], json.loads(r["variant"]), r["finished_at"],
                                   r["duration_s"], json.loads(r["totals"]), json.loads(r["winner_seats"]),
                                   human, r["human_outcome"], opponents, r["study_id"], r["condition"]))
        return out

    def _seats_by_game(self, ids: list[int]) -> dict[int, list[tuple[Seat, int]]]:
        out: dict[int, list[tuple[Seat, int]]] = {}
        if not ids:
            return out
        for chunk_start in range(0, len(ids), 500):
            chunk = ids[chunk_start:chunk_start + 500]
            rows = self.conn.execute(
                f"SELECT * FROM seats WHERE game_id IN ({','.join('?' * len(chunk))}) ORDER BY game_id, seat",
                chunk).fetchall()
            for r in rows:
                out.setdefault(int(r["game_id"]), []).append(
                    (Seat(r["kind"], r["name"], r["spec"], r["preset"], r["display_name"]), int(r["team"])))
        return out

    def load_record(self, record_id: int) -> GameRecord:
        """The full record ``record_id`` (RecordsError when there is none)."""
        r = self.conn.execute("SELECT * FROM games WHERE id = ?", (record_id,)).fetchone()
        if r is None:
            raise RecordsError(f"no game record {record_id}")
        seats = [s for s, _ in self._seats_by_game([record_id]).get(record_id, [])]
        hands_rows = self.conn.execute("SELECT * FROM hands WHERE game_id = ? ORDER BY hand_index",
                                       (record_id,)).fetchall()
        moves: list[list[int]] = [[] for _ in range(max(1, len(hands_rows)))]
        for m in self.conn.execute("SELECT hand_index, move FROM moves WHERE game_id = ? ORDER BY hand_index, ply",
                                   (record_id,)):
            while len(moves) <= m["hand_index"]:
                moves.append([])
            moves[m["hand_index"]].append(int(m["move"]))
        return GameRecord(
            id=int(r["id"]), session_id=r["session_id"], game=r["game"], variant=json.loads(r["variant"]),
            seed=int(r["seed"]), first_dealer=int(r["first_dealer"]), seats=seats, moves=moves,
            hands=[json.loads(h["result"]) for h in hands_rows], hand_dealers=[int(h["dealer"]) for h in hands_rows],
            totals=json.loads(r["totals"]), winner_teams=json.loads(r["winner_teams"]),
            winner_seats=json.loads(r["winner_seats"]), started_at=r["started_at"], finished_at=r["finished_at"],
            duration_s=r["duration_s"], hints_used=int(r["hints_used"]), undos_used=int(r["undos_used"]),
            app_version=r["app_version"], human_seat=r["human_seat"], human_outcome=r["human_outcome"],
            human_points=r["human_points"], study=None if r["study"] is None else json.loads(r["study"]),
            meta=json.loads(r["meta"]), replay_error=r["replay_error"])

    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    # --- statistics -------------------------------------------------------------------------------------
    def statistics(self, by: str = "game") -> dict[str, Stats]:
        """Human-perspective statistics grouped ``by`` ``"game"``, ``"opponent"``, ``"game_opponent"``
        (keys ``game/opponent``) or ``"all"`` (one key ``"all"``).

        Games are taken in the order they finished. With ``by="opponent"`` a game counts once for every
        distinct opponent type (preset, else agent spec) among the AI seats not on the human's team.
        """
        if by not in STATISTICS_GROUPS:
            raise ValueError(f"statistics by {by!r}: use one of {', '.join(STATISTICS_GROUPS)}")
        rows = self.conn.execute(
            "SELECT id, game, human_seat, human_outcome, human_points FROM games "
            "WHERE human_seat IS NOT NULL ORDER BY finished_at, id").fetchall()
        seats = self._seats_by_game([int(r["id"]) for r in rows]) if "opponent" in by else {}
        out: dict[str, Stats] = {}
        for r in rows:
            if by == "game":
                keys = [r["game"]]
            elif by == "all":
                keys = ["all"]
            else:
                gseats = seats.get(int(r["id"]), [])
                human = int(r["human_seat"])
                human_team = gseats[human][1] if human < len(gseats) else -1
                keys = sorted({opponent_type(s) for s, team in gseats if s.kind == "ai" and team != human_team})
                if by == "game_opponent":
                    keys = [f"{r['game']}/{k}" for k in keys]
            for key in keys:
                out.setdefault(key, Stats()).add(float(r["human_outcome"]), float(r["human_points"]))
        return out


RECOVERY_ORDER = (("games", None), ("seats", ("game_id", "games")), ("hands", ("game_id", "games")),
                  ("moves", ("game_id", "games")), ("survey_responses", ("game_id", "games")),
                  ("survey_answers", ("response_id", "survey_responses")))
"""Tables copied by :func:`recover_into`, parents first, each with the column linking it to its parent."""


def recover_into(conn: sqlite3.Connection, damaged: Path) -> int:
    """Copy every readable row of a damaged records database into ``conn`` (a fresh database), table by table,
    skipping past unreadable pages; rows whose parent was lost are left out. Returns the games recovered.

    The damaged file itself is not touched: a scratch copy (with its ``-wal``) is read and then removed."""
    scratch = damaged.with_name(f".{damaged.name}.{os.getpid()}.tmp")
    try:
        shutil.copyfile(damaged, scratch)
        wal = damaged.with_name(damaged.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, scratch.with_name(scratch.name + "-wal"))
        src = sqlite3.connect(scratch)
    except (OSError, sqlite3.Error):
        _remove_scratch(scratch)
        return 0
    kept: dict[str, set[int]] = {}
    try:
        with _transaction(conn):
            for table, parent in RECOVERY_ORDER:
                columns = _columns(conn, table)
                try:
                    old_columns = _columns(src, table)
                except sqlite3.Error:
                    old_columns = []
                shared = [c for c in columns if c in old_columns]
                kept[table] = set()
                if not shared:
                    continue
                key = "id" if "id" in shared else None
                for row in _readable_rows(src, table, shared):
                    if parent is not None and row[parent[0]] not in kept[parent[1]]:
                        continue
                    cur = conn.execute(f"INSERT OR IGNORE INTO {table} ({', '.join(shared)}) "
                                       f"VALUES ({', '.join('?' * len(shared))})", [row[c] for c in shared])
                    if key is not None and cur.rowcount == 1:
                        kept[table].add(row[key])
    except sqlite3.Error:
        return 0
    finally:
        src.close()
        _remove_scratch(scratch)
    return len(kept.get("games", ()))


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def _readable_rows(src: sqlite3.Connection, table: str, columns: list[str], max_skips: int = 40
                   ) -> list[dict[str, Any]]:
    """The rows of ``table`` that can be read, in rowid order; after an unreadable stretch the scan goes on
    from ever further rowids (1, 2, 4, ... past the last good one)."""
    rows: list[dict[str, Any]] = []
    last = 0
    skip = 0
    sql = f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid > ? ORDER BY rowid"
    for _ in range(max_skips):
        try:
            for r in src.execute(sql, (last + (1 << skip) - 1 if skip else last,)):
                rows.append(dict(zip(columns, tuple(r)[1:], strict=True)))
                last = int(r[0])
            return rows
        except sqlite3.DatabaseError:
            skip += 1
    return rows


def _remove_scratch(scratch: Path) -> None:
    for p in (scratch, scratch.with_name(scratch.name + "-wal"), scratch.with_name(scratch.name + "-shm")):
        try:
            p.unlink(missing_ok=True)
        except OSError:
            pass


def _replay_rows(match: Match, first_dealer: int, moves: list[list[int]]
                 ) -> tuple[list[tuple[int, int, int, int, str]], list[int], str | None]:
    """Move rows (hand, ply, seat, move, notation), hand dealers and the replay problem, if any.

    A game whose moves do not reproduce it is still recorded (nothing is lost), flagged with the reason.
    """
    rows: list[tuple[int, int, int, int, str]] = []
    dealers: list[int] = []
    final_state: GameState | None = None
    try:
        for step in replay_moves(match.game.name, match.game.variant, match.seed, first_dealer, moves):
            if step.move is None:
                dealers.append(step.dealer)
            else:
                rows.append((step.hand_index, step.ply - 1, int(step.seat if step.seat is not None else -1),
                             step.move, step.notation))
            final_state = step.state
    except (RecordsError, GameError) as e:
        error: str | None = str(e)
    else:
        error = None
        if final_state is None or final_state.to_dict() != match.state.to_dict():
            error = "the recorded moves do not reproduce the final position"
    if error is not None:
        rows = [(h, p, -1, int(m), "?") for h, hand in enumerate(moves) for p, m in enumerate(hand)]
    return rows, dealers, error


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type is not None else "COMMIT")


def transaction(conn: sqlite3.Connection) -> _transaction:
    """A write transaction on a connection from :func:`connect` (used by the survey module too)."""
    return _transaction(conn)


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
