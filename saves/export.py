"""Export the records database to CSV and JSON: ``python -m saves.export --out DIR [--db PATH]``.

Files written to ``DIR``:

* ``games.csv``, ``seats.csv``, ``hands.csv``, ``moves.csv`` - one row per game / seat / hand / move;
* ``survey_answers.csv`` - one row per answer (with its response, game and opponent seat);
* ``study.csv`` - the joined study export: every survey answer of a study game with its study, participant,
  condition, game number, the real agent behind the neutral name, and the game's outcome for the participant;
* ``export.json`` - everything nested by game (seats, hands, moves, survey responses).

The exporter opens the database read-only and reads everything in ONE read transaction, so it can run while
the app is writing (WAL mode): the export is a consistent snapshot. JSON-valued columns are JSON text in CSV.

A CSV text cell that a spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return and is not a plain number) is written with a leading single quote, as the OWASP guidance on CSV
injection advises: a survey comment ``=HYPERLINK(...)`` opens as text. The JSON export keeps every value as it is.
A JSON cell that does not parse (a damaged database) is exported as its text, and the export says so.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from engine.lab import cli
from saves import paths
from saves.records import DB_FILE, connect

EXPORT_FORMAT = "cardtable-export"
EXPORT_VERSION = 1
JSON_COLUMNS = {"variant", "totals", "winner_teams", "winner_seats", "study", "meta", "result", "team_points",
                "winners", "value"}

GAME_COLUMNS = ["id", "session_id", "game", "variant", "seed", "first_dealer", "started_at", "finished_at",
                "duration_s", "hands_played", "totals", "winner_teams", "winner_seats", "human_seat",
                "human_outcome", "human_points", "hints_used", "undos_used", "app_version", "study_id",
                "participant", "condition", "study", "meta", "replay_error"]
SEAT_COLUMNS = ["game_id", "seat", "kind", "name", "spec", "preset", "display_name", "team"]
HAND_COLUMNS = ["game_id", "hand_index", "dealer", "team_points", "winners", "result"]
MOVE_COLUMNS = ["game_id", "hand_index", "ply", "seat", "move", "notation"]
ANSWER_COLUMNS = ["response_id", "game_id", "questionnaire_id", "questionnaire_version", "language",
                  "answered_at", "study_id", "participant", "item_id", "seat", "opponent_label", "value"]
STUDY_COLUMNS = ["study_id", "participant", "participant_index", "game_number", "condition", "condition_label",
                 "game_id", "game", "seed", "finished_at", "human_outcome", "human_points", "response_id",
                 "questionnaire_id", "language", "item_id", "seat", "opponent_label", "opponent_spec",
                 "opponent_preset", "value"]


def read_snapshot(db_path: Path) -> dict[str, list[dict[str, Any]]]:
    """Every table as lists of dicts, read in one transaction from a read-only connection."""
    if not db_path.exists():
        raise FileNotFoundError(f"no records database at {db_path}")
    if not db_path.is_file():
        raise FileNotFoundError(f"{db_path} is not a file; give --db the records database file")
    conn = connect(db_path, readonly=True)
    try:
        conn.execute("BEGIN")
        try:
            tables = {
                "games": _rows(conn, "SELECT * FROM games ORDER BY id"),
                "seats": _rows(conn, "SELECT * FROM seats ORDER BY game_id, seat"),
                "hands": _rows(conn, "SELECT * FROM hands ORDER BY game_id, hand_index"),
                "moves": _rows(conn, "SELECT * FROM moves ORDER BY game_id, hand_index, ply"),
                "answers": _rows(conn, "SELECT r.id AS response_id, r.game_id, r.questionnaire_id, "
                                       "r.questionnaire_version, r.language, r.answered_at, r.study_id, "
                                       "r.participant, a.item_id, a.seat, a.opponent_label, a.value "
                                       "FROM survey_responses r JOIN survey_answers a ON a.response_id = r.id "
                                       "ORDER BY r.id, a.item_id, a.seat"),
            }
        finally:
            conn.execute("COMMIT")
    finally:
        conn.close()
    return tables


def _rows(conn: sqlite3.Connection, sql: str) -> list[dict[str, Any]]:
    return [dict(r) for r in conn.execute(sql)]


class CorruptCells(list[str]):
    """Where JSON cells did not parse (kept as their text), e.g. ``games id 3: totals``."""


def _json_cell(text: Any, where: str, corrupt: CorruptCells | None) -> Any:
    """``text`` decoded from JSON; a cell that is not JSON stays text and is noted in ``corrupt``."""
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        if corrupt is not None:
            corrupt.append(where)
        return text


def _decoded(row: dict[str, Any], table: str = "", corrupt: CorruptCells | None = None) -> dict[str, Any]:
    out = dict(row)
    for k in sorted(JSON_COLUMNS & set(out)):
        out[k] = _json_cell(out[k], f"{table} id {row.get('id', row.get('game_id'))}: {k}", corrupt)
    return out


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(value: Any) -> Any:
    """A value as it goes into a CSV cell: None is empty; text a spreadsheet would run as a formula gets a
    leading single quote (numbers, and text that is a plain number such as ``-3``, are left alone).

    >>> print(csv_cell('=HYPERLINK("http://example.com")'))
    '=HYPERLINK("http://example.com")
    >>> csv_cell("-3"), csv_cell(-3), csv_cell("fine"), csv_cell(None)
    ('-3', -3, 'fine', '')
    >>> csv_cell("-1+2"), csv_cell("@SUM(A1)")
    ("'-1+2", "'@SUM(A1)")
    """
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def study_rows(tables: dict[str, list[dict[str, Any]]], corrupt: CorruptCells | None = None) -> list[dict[str, Any]]:
    """The joined study export: answers + game records + conditions (study games only)."""
    games = {g["id"]: g for g in tables["games"] if g["study_id"] is not None}
    seats = {(s["game_id"], s["seat"]): s for s in tables["seats"]}
    out = []
    for a in tables["answers"]:
        g = games.get(a["game_id"])
        if g is None:
            continue
        study = _decoded(g, "games", corrupt).get("study")
        if not isinstance(study, dict):
            study = {}
        seat = seats.get((a["game_id"], a["seat"]), {})
        out.append({
            "study_id": g["study_id"], "participant": g["participant"],
            "participant_index": study.get("participant_index"), "game_number": study.get("game_number"),
            "condition": g["condition"], "condition_label": study.get("condition_label"), "game_id": g["id"],
            "game": g["game"], "seed": g["seed"], "finished_at": g["finished_at"],
            "human_outcome": g["human_outcome"], "human_points": g["human_points"],
            "response_id": a["response_id"], "questionnaire_id": a["questionnaire_id"], "language": a["language"],
            "item_id": a["item_id"], "seat": a["seat"], "opponent_label": a["opponent_label"],
            "opponent_spec": seat.get("spec", ""), "opponent_preset": seat.get("preset", ""),
            "value": a["value"]})
    return out


def nested(tables: dict[str, list[dict[str, Any]]], corrupt: CorruptCells | None = None) -> dict[str, Any]:
    """The JSON export: every game with its seats, hands, moves and survey responses (JSON cells that do not
    parse stay text and are noted in ``corrupt``)."""
    by_game: dict[int, dict[str, Any]] = {}
    for row in tables["games"]:
        by_game[row["id"]] = dict(_decoded(row, "games", corrupt), seats=[], hands=[], moves=[], survey_responses=[])
    for s in tables["seats"]:
        if s["game_id"] in by_game:
            by_game[s["game_id"]]["seats"].append({k: v for k, v in s.items() if k != "game_id"})
    for h in tables["hands"]:
        if h["game_id"] in by_game:
            by_game[h["game_id"]]["hands"].append(
                {k: v for k, v in _decoded(h, f"hands hand {h['hand_index']} of game", corrupt).items()
                 if k != "game_id"})
    for m in tables["moves"]:
        if m["game_id"] in by_game:
            by_game[m["game_id"]]["moves"].append([m["hand_index"], m["ply"], m["seat"], m["move"], m["notation"]])
    responses: dict[int, dict[str, Any]] = {}
    for a in tables["answers"]:
        g = by_game.get(a["game_id"])
        if g is None:
            continue
        r = responses.get(a["response_id"])
        if r is None:
            r = {k: a[k] for k in ("response_id", "questionnaire_id", "questionnaire_version", "language",
                                   "answered_at", "study_id", "participant")}
            r["answers"] = []
            responses[a["response_id"]] = r
            g["survey_responses"].append(r)
        r["answers"].append({"item_id": a["item_id"], "seat": a["seat"], "opponent_label": a["opponent_label"],
                             "value": _json_cell(a["value"], f"survey answers response {a['response_id']} item "
                                                 f"{a['item_id']}: value", corrupt)})
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exported_at": time.time(),
            "move_columns": ["hand_index", "ply", "seat", "move", "notation"], "games": list(by_game.values())}


def _csv_bytes(columns: list[str], rows: list[dict[str, Any]]) -> bytes:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: csv_cell(r.get(k)) for k in columns})
    return buf.getvalue().encode("utf-8")


def export(out_dir: Path | str, db_path: Path | str | None = None,
           corrupt: CorruptCells | None = None) -> dict[str, int]:
    """Write every export file into ``out_dir``; returns row counts per file. JSON cells that do not parse are
    exported as their text and noted in ``corrupt``."""
    out = Path(out_dir)
    db = Path(db_path) if db_path is not None else paths.data_dir() / DB_FILE
    tables = read_snapshot(db)
    out.mkdir(parents=True, exist_ok=True)
    study = study_rows(tables, corrupt)
    files = {
        "games.csv": (GAME_COLUMNS, tables["games"]), "seats.csv": (SEAT_COLUMNS, tables["seats"]),
        "hands.csv": (HAND_COLUMNS, tables["hands"]), "moves.csv": (MOVE_COLUMNS, tables["moves"]),
        "survey_answers.csv": (ANSWER_COLUMNS, tables["answers"]), "study.csv": (STUDY_COLUMNS, study),
    }
    counts: dict[str, int] = {}
    for name, (columns, rows) in files.items():
        paths.atomic_write_bytes(out / name, _csv_bytes(columns, rows))
        counts[name] = len(rows)
    data = nested(tables, corrupt)
    paths.atomic_write_bytes(out / "export.json", json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8"))
    counts["export.json"] = len(data["games"])
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = cli.Parser(prog="python -m saves.export",
                        description="Export game records and survey answers to CSV and JSON.")
    parser.add_argument("--out", required=True, type=cli.output_folder, help="output directory (created if missing)")
    parser.add_argument("--db", help="records database (default: the one in the data directory)")
    args = parser.parse_args(argv)
    corrupt = CorruptCells()
    try:
        counts = export(args.out, args.db, corrupt)
    except (OSError, sqlite3.DatabaseError) as e:
        print(f"export failed: {e}", file=sys.stderr)
        return 1
    for name, n in counts.items():
        print(f"{name}: {n} {'games' if name.endswith('.json') else 'rows'}")
    if corrupt:
        more = f" and {len(corrupt) - 1} more" if len(corrupt) > 1 else ""
        print(f"export written, but damaged JSON cells were kept as text: {corrupt[0]}{more}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
