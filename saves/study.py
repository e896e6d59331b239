"""Study mode: a JSON study file defines conditions that each participant plays in a counterbalanced order.

A study file (format ``cardtable-study``, version 1)::

    {"format": "cardtable-study", "version": 1, "id": "perception-2026",
     "title": {"en": "AI opponents study"}, "consent": {"en": "You will play ... Continue?"},
     "game": "sueca", "variant": {"target": 4}, "human_seat": 0,
     "questionnaire": "questionnaire.json",
     "games_per_condition": 2, "order": "balanced_latin_square", "deals": "shared", "seed": 2026,
     "conditions": [
        {"id": "ismcts", "seats": ["human", "ismcts:iterations=2000", "ismcts:iterations=2000",
                                   "ismcts:iterations=2000"]},
        {"id": "rules", "label": "B", "seats": ["human", {"preset": "casual"}, "heuristic", "heuristic"]}]}

* ``seats`` has one entry per player: ``"human"`` exactly once (at ``human_seat``), otherwise an agent SPEC
  string or ``{"spec": SPEC, "preset": LEVEL}``; a preset alone is resolved with ``engine.presets``.
* Opponents are shown only under neutral names: ``Opponent <label>`` (``<label><k>`` when a condition has
  several AI opponents) and ``Partner <label>``; ``label`` defaults to A, B, C ... by condition position.
  A condition may give its own ``names`` (one per seat).
* ``order``: ``balanced_latin_square`` (Williams design; participant ``i`` gets row ``i``),
  ``rotation`` (cyclic shift by the participant index) or ``fixed``. Each condition is played
  ``games_per_condition`` times in a row.
* ``deals``: ``shared`` (game ``k`` of every participant uses the same deal seed) or ``per_participant``.
* ``questionnaire``: a path relative to the study file that must stay inside the study file's directory
  (no absolute paths, no ``..``); omitted means the built-in questionnaire.

Progress lives in the data directory under ``studies/<study id>/`` (ids are restricted to safe characters, so
nothing from a study file can make the app write elsewhere). Finished games and answers are in the records
database, linked by study id, participant and condition; :class:`StudyRun` derives progress from them.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from engine import agents, registry
from engine.game import GameError
from engine.rng import derive_seed
from saves import ids, paths, pending
from saves.autosave import AutosaveStore
from saves.limits import GAMES_PER_PARTICIPANT_MAX, spec_problem
from saves.records import RecordsDB, RecordsError
from saves.session import GameSession, Seat
from saves.settings import LANGUAGES
from saves.survey import Questionnaire, default_questionnaire, load_questionnaire

STUDY_FORMAT = "cardtable-study"
STUDY_VERSION = 1
ORDERS = ("balanced_latin_square", "rotation", "fixed")
DEALS = ("shared", "per_participant")
MAX_FILE_BYTES = 1 << 20
MAX_CONDITIONS = 26


class StudyError(ValueError):
    """An invalid study file or participant; the message says which field is wrong."""


def safe_id(value: Any, where: str) -> str:
    """A study/participant/condition id usable as a file name on every system (:mod:`saves.ids`)."""
    if not isinstance(value, str) or not ids.is_safe_id(value):
        raise StudyError(f"{where} must be {ids.RULE}, not {str(value)[:40]!r}")
    return value


def safe_relative_path(base: Path, relative: Any, where: str) -> Path:
    """``base / relative`` for a relative path that cannot leave ``base`` (no absolute, no ``..``, no links out)."""
    if not isinstance(relative, str) or not relative.strip() or "\x00" in relative:
        raise StudyError(f"{where} must be a relative file path")
    for pure in (PurePosixPath(relative), PureWindowsPath(relative)):
        if pure.is_absolute() or pure.anchor or ".." in pure.parts:
            raise StudyError(f"{where}: {relative!r} must be a path inside the study's folder "
                             "(no absolute paths, no '..')")
    target = base / relative
    if not paths.is_inside(target, base):
        raise StudyError(f"{where}: {relative!r} leads outside the study's folder")
    return target


def williams_orders(n: int) -> list[list[int]]:
    """A balanced Latin square (Williams design) for ``n`` conditions: each condition appears once in every
    position and, over all rows, follows every other condition equally often (``2n`` rows when ``n`` is odd)."""
    if n < 1:
        return []
    first = [0]
    lo, hi = 1, n - 1
    for k in range(1, n):
        if k % 2:
            first.append(lo)
            lo += 1
        else:
            first.append(hi)
            hi -= 1
    rows = [[(c + r) % n for c in first] for r in range(n)]
    if n % 2 and n > 1:
        rows += [list(reversed(row)) for row in rows]
    return rows


def condition_order(order: str, n: int, participant_index: int) -> list[int]:
    """The condition order of participant ``participant_index`` (0-based)."""
    if order == "fixed":
        return list(range(n))
    if order == "rotation":
        shift = participant_index % n
        return [(i + shift) % n for i in range(n)]
    rows = williams_orders(n)
    return rows[participant_index % len(rows)]


@dataclass
class Condition:
    """One experimental condition: who sits where, and the neutral names the participant sees."""

    id: str
    label: str
    seats: list[Seat]


@dataclass
class Study:
    """A validated study file."""

    id: str
    game: str
    variant: dict[str, Any]
    human_seat: int
    conditions: list[Condition]
    games_per_condition: int = 1
    order: str = "balanced_latin_square"
    deals: str = "shared"
    seed: int = 0
    title: dict[str, str] = field(default_factory=dict)
    consent: dict[str, str] = field(default_factory=dict)
    questionnaire: Questionnaire = field(default_factory=default_questionnaire)
    questionnaire_path: Path | None = None
    source: Path | None = None

    @property
    def games_total(self) -> int:
        return len(self.conditions) * self.games_per_condition

    def consent_text(self, language: str = "en") -> str:
        return self.consent.get(language) or self.consent.get("en") or next(iter(self.consent.values()), "")

    def title_text(self, language: str = "en") -> str:
        return self.title.get(language) or self.title.get("en") or self.id

    @classmethod
    def from_dict(cls, d: Any, base_dir: Path | None = None, source: str = "study") -> Study:
        """Validate a parsed study (``base_dir`` resolves the questionnaire path)."""
        if not isinstance(d, dict):
            raise StudyError(f"{source}: expected a JSON object")
        if d.get("format") != STUDY_FORMAT:
            raise StudyError(f"{source}: field 'format' must be {STUDY_FORMAT!r}")
        version = d.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise StudyError(f"{source}: field 'version' must be a positive integer")
        if version > STUDY_VERSION:
            raise StudyError(f"{source}: version {version} is newer than this build reads ({STUDY_VERSION})")
        known = {"format", "version", "id", "title", "consent", "game", "variant", "human_seat", "questionnaire",
                 "games_per_condition", "order", "deals", "seed", "conditions"}
        for key in d:
            if key not in known:
                raise StudyError(f"{source}: unknown field {str(key)[:40]!r} (fields: {', '.join(sorted(known))})")
        sid = safe_id(d.get("id"), f"{source}: field 'id'")
        game_name = d.get("game")
        try:
            if not isinstance(game_name, str):
                raise TypeError(f"a game name is needed ({', '.join(registry.available())}), not {game_name!r}")
            game = registry.create(game_name, _object(d.get("variant", {}), f"{source}: field 'variant'"))
        except (GameError, TypeError) as e:
            raise StudyError(f"{source}: field 'game'/'variant': {e}") from None
        human_seat = _int(d.get("human_seat", 0), f"{source}: field 'human_seat'", 0, game.num_players - 1)
        gpc = _int(d.get("games_per_condition", 1), f"{source}: field 'games_per_condition'", 1,
                   GAMES_PER_PARTICIPANT_MAX)
        order = d.get("order", "balanced_latin_square")
        if order not in ORDERS:
            raise StudyError(f"{source}: field 'order' must be one of {', '.join(ORDERS)}")
        deals = d.get("deals", "shared")
        if deals not in DEALS:
            raise StudyError(f"{source}: field 'deals' must be one of {', '.join(DEALS)}")
        seed = _int(d.get("seed", 0), f"{source}: field 'seed'", 0, 2**63 - 1)
        raw_conditions = d.get("conditions")
        if not isinstance(raw_conditions, list) or not 1 <= len(raw_conditions) <= MAX_CONDITIONS:
            raise StudyError(f"{source}: field 'conditions' must be a list of 1 to {MAX_CONDITIONS} conditions")
        conditions: list[Condition] = []
        for n, raw in enumerate(raw_conditions):
            c = _condition(raw, n, game, human_seat, f"{source}: condition {n + 1}")
            if c.id in [x.id for x in conditions]:
                raise StudyError(f"{source}: condition {n + 1}: field 'id': duplicate id {c.id!r}")
            if c.label in [x.label for x in conditions]:
                raise StudyError(f"{source}: condition {n + 1}: field 'label': duplicate label {c.label!r}")
            conditions.append(c)
        if len(conditions) * gpc > GAMES_PER_PARTICIPANT_MAX:
            raise StudyError(f"{source}: {len(conditions)} conditions x {gpc} games per condition = "
                             f"{len(conditions) * gpc} games per participant; at most {GAMES_PER_PARTICIPANT_MAX}")
        questionnaire = default_questionnaire()
        q_path = None
        if d.get("questionnaire") is not None:
            if base_dir is None:
                raise StudyError(f"{source}: field 'questionnaire' needs the study file's folder")
            q_path = safe_relative_path(base_dir, d["questionnaire"], f"{source}: field 'questionnaire'")
            try:
                questionnaire = load_questionnaire(q_path)
            except ValueError as e:
                raise StudyError(f"{source}: field 'questionnaire': {e}") from None
        return cls(sid, game.name, game.variant, human_seat, conditions, gpc, order, deals, seed,
                   _texts(d.get("title", {}), f"{source}: field 'title'"),
                   _texts(d.get("consent", {}), f"{source}: field 'consent'"), questionnaire, q_path)

    # --- the schedule ---------------------------------------------------------------------------------
    def order_for(self, participant_index: int) -> list[int]:
        """Condition indexes in the order participant ``participant_index`` plays them."""
        return condition_order(self.order, len(self.conditions), participant_index)

    def plan(self, participant_index: int) -> list[GamePlan]:
        """Every game of a participant, in order."""
        out = []
        number = 0
        for ci in self.order_for(participant_index):
            for _ in range(self.games_per_condition):
                parts: tuple[Any, ...] = (self.seed, "study", self.id, number)
                if self.deals == "per_participant":
                    parts += (participant_index,)
                out.append(GamePlan(number, self.conditions[ci], derive_seed(*parts)))
                number += 1
        return out


@dataclass
class GamePlan:
    """One scheduled game of a participant."""

    number: int
    condition: Condition
    seed: int


def load_study(path: Path | str) -> Study:
    """Read and validate a study file; every problem raises :class:`StudyError` naming the field."""
    path = Path(path)
    data = paths.read_json_file(path, StudyError, MAX_FILE_BYTES)
    study = Study.from_dict(data, path.parent, path.name)
    study.source = path
    return study


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise StudyError(f"{where} must be an object")
    return value


def _int(value: Any, where: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise StudyError(f"{where} must be a whole number from {lo} to {hi}, not {str(value)[:40]!r}")
    return value


def _texts(value: Any, where: str) -> dict[str, str]:
    if isinstance(value, str):
        value = {"en": value}
    if not isinstance(value, dict):
        raise StudyError(f"{where} must be a text or an object of texts by language")
    for lang, text in value.items():
        if lang not in LANGUAGES or not isinstance(text, str) or len(text) > 20_000:
            raise StudyError(f"{where}: bad entry for language {str(lang)[:20]!r}")
    return dict(value)


def _condition(raw: Any, n: int, game: Any, human_seat: int, where: str) -> Condition:
    if not isinstance(raw, dict):
        raise StudyError(f"{where}: expected an object")
    for key in raw:
        if key not in ("id", "label", "seats", "names"):
            raise StudyError(f"{where}: unknown field {str(key)[:40]!r} (fields: id, label, names, seats)")
    cid = safe_id(raw.get("id"), f"{where}: field 'id'")
    label = raw.get("label", chr(ord("A") + n))
    if not isinstance(label, str) or not 1 <= len(label) <= 16:
        raise StudyError(f"{where}: field 'label' must be a short text")
    seats_raw = raw.get("seats")
    if not isinstance(seats_raw, list) or len(seats_raw) != game.num_players:
        raise StudyError(f"{where}: field 'seats' must list {game.num_players} seats")
    if [i for i, s in enumerate(seats_raw) if s == "human"] != [human_seat]:
        raise StudyError(f"{where}: field 'seats' must have \"human\" exactly once, at seat {human_seat}")
    teams = game.teams()
    human_team = next((t for t in teams if human_seat in t), (human_seat,))
    opponents = [i for i in range(game.num_players) if i not in human_team]
    partners = [i for i in human_team if i != human_seat]
    seats: list[Seat] = []
    for i, s in enumerate(seats_raw):
        if i == human_seat:
            seats.append(Seat("human", "Participant", display_name="You"))
            continue
        spec, preset = _seat_spec(s, game, f"{where}: seat {i}")
        group = opponents if i in opponents else partners
        role = "Opponent" if i in opponents else "Partner"
        suffix = str(group.index(i) + 1) if len(group) > 1 else ""
        shown = f"{role} {label}{suffix}"
        seats.append(Seat("ai", shown, spec=spec, preset=preset, display_name=shown))
    names = raw.get("names")
    if names is not None:
        if not isinstance(names, list) or len(names) != game.num_players or \
                not all(isinstance(x, str) and 0 < len(x) <= 40 for x in names):
            raise StudyError(f"{where}: field 'names' must list {game.num_players} short names")
        for seat, name in zip(seats, names, strict=True):
            if seat.kind == "ai":
                seat.name = seat.display_name = name
    return Condition(cid, label, seats)


def _seat_spec(value: Any, game: Any, where: str) -> tuple[str, str]:
    if isinstance(value, str):
        spec, preset = value, ""
    elif isinstance(value, dict) and set(value) <= {"spec", "preset"} and value:
        spec, preset = value.get("spec", ""), value.get("preset", "")
        if not isinstance(spec, str) or not isinstance(preset, str):
            raise StudyError(f"{where}: 'spec' and 'preset' must be texts")
        if preset and not ids.is_safe_id(preset):
            raise StudyError(f"{where}: bad preset name {preset[:40]!r}")
        if preset:
            spec = _preset_spec(game.name, preset, where) if not spec else spec
    else:
        raise StudyError(f"{where}: expected an agent SPEC text or {{\"spec\": ..., \"preset\": ...}}")
    if spec:
        problem = spec_problem(spec)
        if problem:
            raise StudyError(f"{where}: {problem}")
        try:
            name, _ = agents.parse_spec(spec)
        except GameError as e:
            raise StudyError(f"{where}: {e}") from None
        if name not in agents.available(game):
            raise StudyError(f"{where}: unknown agent {name!r} (agents: {', '.join(agents.available(game))})")
        try:
            if not agents.make(spec, game).fair:
                raise StudyError(f"{where}: agent {name!r} sees hidden cards and cannot be a study opponent")
        except GameError as e:
            raise StudyError(f"{where}: {e}") from None
    return spec, preset


def _preset_spec(game: str, preset: str, where: str) -> str:
    """The SPEC of a difficulty preset (``engine.presets``); empty when this build has no presets module."""
    try:
        from engine import presets
    except ImportError:
        return ""
    try:
        return presets.preset_spec(game, preset)
    except GameError as e:
        raise StudyError(f"{where}: {e}") from None


# --- running a study ------------------------------------------------------------------------------------
def studies_dir() -> Path:
    """Where study progress is kept (inside the data directory)."""
    d = paths.data_dir() / "studies"
    d.mkdir(parents=True, exist_ok=True)
    return d


@dataclass
class StudyRun:
    """One participant's run through a study. Progress = the study's records in the database."""

    study: Study
    participant: str
    participant_index: int
    consent_at: float | None = None
    root: Path = field(default_factory=studies_dir)
    rebuilt_from: Path | None = None
    """A damaged progress file, moved here; the progress was then rebuilt from the records."""

    @classmethod
    def start(cls, study: Study, participant: str, participant_index: int | None = None,
              root: Path | None = None) -> StudyRun:
        """Begin or resume ``participant``; a new participant without an index gets the next free one."""
        participant = safe_id(participant, "participant ID")
        root = root or studies_dir()
        run = cls(study, participant, 0, None, root)
        saved = run._read_progress()
        if saved is None:  # no usable progress file: the records may still know this participant
            saved = run._rebuild_progress()
        if saved is not None:
            if participant_index is not None and participant_index != saved["participant_index"]:
                raise StudyError(f"participant {participant} already has index {saved['participant_index']}")
            run.participant_index = saved["participant_index"]
            run.consent_at = saved.get("consent_at")
            return run
        if participant_index is None:
            participant_index = run._next_index()
        run.participant_index = _int(participant_index, "participant index", 0, 10**6)
        run._write_progress()
        return run

    @property
    def directory(self) -> Path:
        d = self.root / safe_id(self.study.id, "study id") / "participants"
        if not paths.is_inside(d, self.root):
            raise StudyError("study directory leads outside the data directory")
        return d

    @property
    def progress_file(self) -> Path:
        return self.directory / f"{self.participant}.json"

    def _read_progress(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.progress_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, RecursionError):
            self.rebuilt_from = paths.move_aside(self.progress_file, "corrupt")
            return None
        index = data.get("participant_index") if isinstance(data, dict) else None
        consent = data.get("consent_at") if isinstance(data, dict) else None
        if not isinstance(data, dict) or data.get("format") != "cardtable-study-progress" or \
                not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= 10**6 or \
                not (consent is None or isinstance(consent, (int, float)) and not isinstance(consent, bool)):
            self.rebuilt_from = paths.move_aside(self.progress_file, "corrupt")
            return None
        return data

    def _rebuild_progress(self) -> dict[str, Any] | None:
        """Progress from the records database (the source of truth) when the progress file is damaged or
        missing: the participant index and consent of this participant's recorded or autosaved games. None
        when there is none (the participant then starts as new)."""
        index: int | None = None
        started: float | None = None
        try:
            with RecordsDB() as db:
                for r in db.conn.execute("SELECT study, started_at FROM games WHERE study_id = ? AND participant = ? "
                                         "ORDER BY started_at", (self.study.id, self.participant)):
                    tag = json.loads(r["study"] or "{}")
                    if isinstance(tag.get("participant_index"), int) and index is None:
                        index, started = tag["participant_index"], float(r["started_at"])
        except (RecordsError, ValueError, TypeError):
            pass
        if index is None:  # no finished game yet: the game in progress knows it too
            session = AutosaveStore().peek()
            tag = (session.study or {}) if session is not None else {}
            if tag.get("study_id") == self.study.id and tag.get("participant") == self.participant and \
                    isinstance(tag.get("participant_index"), int):
                index, started = tag["participant_index"], session.started_at if session else None
        if index is None:
            return None
        self.participant_index, self.consent_at = index, started  # a game was played: consent was given
        self._write_progress()
        return {"participant_index": index, "consent_at": started}

    def _write_progress(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        data = {"format": "cardtable-study-progress", "version": 1, "study_id": self.study.id,
                "participant": self.participant, "participant_index": self.participant_index,
                "consent_at": self.consent_at}
        paths.atomic_write_bytes(self.progress_file, json.dumps(data, indent=2).encode())

    def _next_index(self) -> int:
        used = []
        if self.directory.exists():
            for p in self.directory.glob("*.json"):
                try:
                    used.append(int(json.loads(p.read_text(encoding="utf-8"))["participant_index"]))
                except (OSError, ValueError, KeyError, TypeError, RecursionError):
                    continue
        return max(used, default=-1) + 1

    def give_consent(self) -> None:
        """Record that the participant accepted the consent text."""
        self.consent_at = time.time()
        self._write_progress()

    @property
    def consented(self) -> bool:
        return self.consent_at is not None

    def plan(self) -> list[GamePlan]:
        return self.study.plan(self.participant_index)

    def completed_games(self, db: RecordsDB) -> dict[int, int]:
        """Game number -> record id of this participant's recorded games."""
        out: dict[int, int] = {}
        for r in db.conn.execute("SELECT id, study FROM games WHERE study_id = ? AND participant = ? ORDER BY id",
                                 (self.study.id, self.participant)):
            try:
                number = int(json.loads(r["study"])["game_number"])
            except (ValueError, KeyError, TypeError):
                continue
            out.setdefault(number, int(r["id"]))
        return out

    def pending_survey(self, db: RecordsDB) -> int | None:
        """A recorded game of this participant whose questionnaire is not answered yet (record id)."""
        for _, rid in sorted(self.completed_games(db).items()):
            if db.conn.execute("SELECT 1 FROM survey_responses WHERE game_id = ?", (rid,)).fetchone() is None:
                return rid
        return None

    def waiting_games(self) -> set[int]:
        """Game numbers of this participant's finished games that wait in ``saves.pending`` to be recorded."""
        out = set()
        for session in pending.waiting_games():
            tag = session.study or {}
            if tag.get("study_id") == self.study.id and tag.get("participant") == self.participant and \
                    isinstance(tag.get("game_number"), int):
                out.add(tag["game_number"])
        return out

    def next_game(self, db: RecordsDB) -> GamePlan | None:
        """The next game to play, or None when the participant has finished (a finished game waiting to be
        recorded counts as played)."""
        done = set(self.completed_games(db)) | self.waiting_games()
        return next((p for p in self.plan() if p.number not in done), None)

    def is_complete(self, db: RecordsDB) -> bool:
        return self.next_game(db) is None and self.pending_survey(db) is None

    def new_session(self, plan: GamePlan) -> GameSession:
        """The game session of ``plan``: the condition's seats under neutral names, tagged for the records."""
        game = registry.create(self.study.game, self.study.variant)
        seats = [Seat(s.kind, s.name, s.spec, s.preset, s.display_name) for s in plan.condition.seats]
        study_tag = {"study_id": self.study.id, "participant": self.participant,
                     "participant_index": self.participant_index, "condition": plan.condition.id,
                     "condition_label": plan.condition.label, "game_number": plan.number}
        return GameSession.start(game, seats, plan.seed, study=study_tag)
