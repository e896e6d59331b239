"""Post-game questionnaires: schema, validation, the default questionnaire, and storing answers.

A questionnaire is JSON (format ``cardtable-questionnaire``, version 1)::

    {"format": "cardtable-questionnaire", "version": 1, "id": "my-study-q", "title": {"en": "..."},
     "include_partners": false,
     "items": [
       {"id": "skill", "type": "likert", "scope": "per_opponent", "required": true, "scale": 7,
        "text": {"en": "How well did {opponent} play?"}, "labels": {"1": {"en": "Very badly"}, "7": "Very well"}},
       {"id": "liked", "type": "choice", "scope": "per_game", "text": "Which game do you prefer?",
        "choices": [{"id": "sueca", "text": "Sueca"}, {"id": "hearts", "text": "Hearts"}]},
       {"id": "comment", "type": "text", "required": false, "max_length": 2000, "text": "Any comment?"}]}

Texts are a plain string or a ``{language: text}`` object (``en`` is the fallback); ``{opponent}`` in an
item's text is replaced by the opponent's shown name. ``scope`` is ``per_game`` (asked once) or
``per_opponent`` (asked about every AI opponent; with ``include_partners`` also about AI partners).
Every problem is reported as :class:`QuestionnaireError` naming the item and the field.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from saves import ids, paths
from saves.records import RecordsDB, human_seat_of, transaction
from saves.session import Seat
from saves.settings import LANGUAGES, Settings

QUESTIONNAIRE_FORMAT = "cardtable-questionnaire"
QUESTIONNAIRE_VERSION = 1
ITEM_TYPES = ("likert", "choice", "text")
SCOPES = ("per_game", "per_opponent")
MAX_FILE_BYTES = 1 << 20
MAX_ITEMS = 200
MAX_TEXT = 4000
PER_GAME_SEAT = -1


class QuestionnaireError(ValueError):
    """An invalid questionnaire; the message names the item and field."""


class AnswerError(ValueError):
    """Invalid or missing answers; the message names the item (and opponent)."""


Text = dict[str, str]
"""A translatable text: language -> string."""


def localize(text: Text, language: str) -> str:
    """``text`` in ``language``, else English, else any language given."""
    return text.get(language) or text.get("en") or next(iter(text.values()), "")


@dataclass
class Item:
    """One question."""

    id: str
    type: str
    text: Text
    scope: str = "per_game"
    required: bool = True
    scale: int = 7
    labels: dict[int, Text] = field(default_factory=dict)
    choices: list[tuple[str, Text]] = field(default_factory=list)
    max_length: int = 2000

    def prompt(self, language: str = "en", opponent: str = "") -> str:
        """The question in ``language`` with ``{opponent}`` filled in."""
        return localize(self.text, language).replace("{opponent}", opponent)

    def label(self, point: int, language: str = "en") -> str:
        """The label of a Likert point (empty when that point has none)."""
        text = self.labels.get(point)
        return localize(text, language) if text else ""

    def choice_texts(self, language: str = "en") -> list[tuple[str, str]]:
        return [(cid, localize(t, language)) for cid, t in self.choices]

    def check(self, value: Any, where: str) -> Any:
        """The validated answer value (raises :class:`AnswerError`)."""
        if self.type == "likert":
            if isinstance(value, str) and value.strip().isdigit():
                value = int(value)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= self.scale:
                raise AnswerError(f"{where}: answer must be a whole number from 1 to {self.scale}, "
                                  f"not {_short(value)}")
            return value
        if self.type == "choice":
            ids = [cid for cid, _ in self.choices]
            if value not in ids:
                raise AnswerError(f"{where}: answer must be one of {', '.join(ids)}, not {_short(value)}")
            return value
        if not isinstance(value, str):
            raise AnswerError(f"{where}: answer must be text, not {_short(value)}")
        if len(value) > self.max_length:
            raise AnswerError(f"{where}: answer is longer than {self.max_length} characters")
        return value

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "type": self.type, "text": self.text, "scope": self.scope,
                             "required": self.required}
        if self.type == "likert":
            d["scale"] = self.scale
            d["labels"] = {str(k): v for k, v in sorted(self.labels.items())}
        elif self.type == "choice":
            d["choices"] = [{"id": cid, "text": t} for cid, t in self.choices]
        else:
            d["max_length"] = self.max_length
        return d


@dataclass
class Target:
    """Whom a per-opponent item asks about: a seat and the name the player saw."""

    seat: int
    label: str


@dataclass
class Questionnaire:
    """A validated questionnaire."""

    id: str
    items: list[Item]
    title: Text = field(default_factory=dict)
    version: int = QUESTIONNAIRE_VERSION
    include_partners: bool = False

    @classmethod
    def from_dict(cls, d: Any, source: str = "questionnaire") -> Questionnaire:
        """Validate a parsed questionnaire; every problem raises :class:`QuestionnaireError`."""
        if not isinstance(d, dict):
            raise QuestionnaireError(f"{source}: expected a JSON object, got {type(d).__name__}")
        if d.get("format") != QUESTIONNAIRE_FORMAT:
            raise QuestionnaireError(f"{source}: field 'format' must be {QUESTIONNAIRE_FORMAT!r}")
        version = d.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise QuestionnaireError(f"{source}: field 'version' must be a positive integer")
        if version > QUESTIONNAIRE_VERSION:
            raise QuestionnaireError(f"{source}: version {version} is newer than this build reads "
                                     f"({QUESTIONNAIRE_VERSION})")
        qid = _ident(d.get("id"), f"{source}: field 'id'")
        title = _text(d.get("title", {"en": ""}), f"{source}: field 'title'", allow_empty=True)
        include_partners = d.get("include_partners", False)
        if not isinstance(include_partners, bool):
            raise QuestionnaireError(f"{source}: field 'include_partners' must be true or false")
        raw_items = d.get("items")
        if not isinstance(raw_items, list) or not raw_items:
            raise QuestionnaireError(f"{source}: field 'items' must be a non-empty list")
        if len(raw_items) > MAX_ITEMS:
            raise QuestionnaireError(f"{source}: too many items ({len(raw_items)} > {MAX_ITEMS})")
        items: list[Item] = []
        seen: set[str] = set()
        for n, raw in enumerate(raw_items, 1):
            item = _item(raw, source, n)
            if item.id in seen:
                raise QuestionnaireError(f"{source}: item {n}: field 'id': duplicate id {item.id!r}")
            seen.add(item.id)
            items.append(item)
        return cls(qid, items, title, version, include_partners)

    def to_dict(self) -> dict[str, Any]:
        return {"format": QUESTIONNAIRE_FORMAT, "version": self.version, "id": self.id, "title": self.title,
                "include_partners": self.include_partners, "items": [i.to_dict() for i in self.items]}

    def item(self, item_id: str) -> Item:
        for i in self.items:
            if i.id == item_id:
                return i
        raise KeyError(item_id)

    def targets(self, seats: list[Seat], human_seat: int | None = None, teams: list[tuple[int, ...]] | None = None
                ) -> list[Target]:
        """The seats per-opponent items ask about: AI seats not on the human's team (or every AI seat with
        ``include_partners``), named as the player saw them."""
        human = human_seat_of(seats) if human_seat is None else human_seat
        human_team: tuple[int, ...] = ()
        if human is not None:
            human_team = next((t for t in (teams or []) if human in t), (human,))
        return [Target(i, s.label) for i, s in enumerate(seats)
                if s.kind == "ai" and (self.include_partners or i not in human_team)]

    def validate_answers(self, answers: dict[str, Any], targets: list[Target]) -> list[tuple[str, int, str, Any]]:
        """Check answers and flatten them to ``(item_id, seat, opponent_label, value)`` rows.

        ``answers[item_id]`` is the value for a per-game item and ``{seat: value}`` for a per-opponent item
        (seat keys may be ints or strings). Unknown items, bad values and missing required answers raise
        :class:`AnswerError`; optional items may be left out, ``None`` or ``""``.
        """
        if not isinstance(answers, dict):
            raise AnswerError("answers must be an object mapping item ids to answers")
        known = {i.id for i in self.items}
        for key in answers:
            if key not in known:
                raise AnswerError(f"unknown item {key!r} (items: {', '.join(sorted(known))})")
        rows: list[tuple[str, int, str, Any]] = []
        for item in self.items:
            raw = answers.get(item.id)
            if item.scope == "per_game":
                value = self._one(item, raw, f"item {item.id!r}")
                if value is not None:
                    rows.append((item.id, PER_GAME_SEAT, "", value))
                continue
            if raw is None:
                raw = {}
            if not isinstance(raw, dict):
                raise AnswerError(f"item {item.id!r}: expected one answer per opponent ({{seat: answer}})")
            by_seat: dict[int, Any] = {}
            for k, v in raw.items():
                try:
                    by_seat[int(k)] = v
                except (TypeError, ValueError):
                    raise AnswerError(f"item {item.id!r}: {_short(k)} is not a seat number") from None
            valid_seats = {t.seat for t in targets}
            for seat in by_seat:
                if seat not in valid_seats:
                    raise AnswerError(f"item {item.id!r}: seat {seat} is not an opponent asked about")
            for t in targets:
                value = self._one(item, by_seat.get(t.seat), f"item {item.id!r} about {t.label}")
                if value is not None:
                    rows.append((item.id, t.seat, t.label, value))
        return rows

    @staticmethod
    def _one(item: Item, raw: Any, where: str) -> Any:
        if raw is None or raw == "":
            if item.required:
                raise AnswerError(f"{where}: an answer is required")
            return None
        return item.check(raw, where)


# --- parsing helpers ------------------------------------------------------------------------------------
def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _ident(value: Any, where: str) -> str:
    if not isinstance(value, str) or not ids.is_safe_id(value):
        raise QuestionnaireError(f"{where} must be {ids.RULE}, not {_short(value)}")
    return value


def _text(value: Any, where: str, allow_empty: bool = False) -> Text:
    if isinstance(value, str):
        value = {"en": value}
    if not isinstance(value, dict) or (not value and not allow_empty):
        raise QuestionnaireError(f"{where} must be a text or an object of texts by language (en, pt, it, sk)")
    out: Text = {}
    for lang, text in value.items():
        if lang not in LANGUAGES:
            raise QuestionnaireError(f"{where}: unknown language {_short(lang)} (use {', '.join(LANGUAGES)})")
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise QuestionnaireError(f"{where} ({lang}) must be a text of at most {MAX_TEXT} characters")
        out[lang] = text
    if not allow_empty and not any(t.strip() for t in out.values()):
        raise QuestionnaireError(f"{where} must not be empty")
    return out


def _item(raw: Any, source: str, n: int) -> Item:
    if not isinstance(raw, dict):
        raise QuestionnaireError(f"{source}: item {n}: expected an object, got {type(raw).__name__}")
    item_id = _ident(raw.get("id"), f"{source}: item {n}: field 'id'")
    where = f"{source}: item {item_id!r} (#{n})"
    allowed = {"id", "type", "text", "scope", "required", "scale", "labels", "choices", "max_length"}
    for key in raw:
        if key not in allowed:
            raise QuestionnaireError(f"{where}: unknown field {_short(key)} (fields: {', '.join(sorted(allowed))})")
    typ = raw.get("type")
    if typ not in ITEM_TYPES:
        raise QuestionnaireError(f"{where}, field 'type': must be one of {', '.join(ITEM_TYPES)}, not {_short(typ)}")
    scope = raw.get("scope", "per_game")
    if scope not in SCOPES:
        raise QuestionnaireError(f"{where}, field 'scope': must be one of {', '.join(SCOPES)}, not {_short(scope)}")
    required = raw.get("required", True)
    if not isinstance(required, bool):
        raise QuestionnaireError(f"{where}, field 'required': must be true or false")
    item = Item(item_id, typ, _text(raw.get("text"), f"{where}, field 'text'"), scope, required)
    if typ == "likert":
        scale = raw.get("scale", 7)
        if not isinstance(scale, int) or isinstance(scale, bool) or not 2 <= scale <= 11:
            raise QuestionnaireError(f"{where}, field 'scale': must be a whole number from 2 to 11, "
                                     f"not {_short(scale)}")
        item.scale = scale
        labels = raw.get("labels", {})
        if not isinstance(labels, dict):
            raise QuestionnaireError(f"{where}, field 'labels': must be an object {{\"1\": text, ...}}")
        for k, v in labels.items():
            if not (isinstance(k, str) and k.isdigit() and 1 <= int(k) <= scale):
                raise QuestionnaireError(f"{where}, field 'labels': key {_short(k)} is not a point 1..{scale}")
            item.labels[int(k)] = _text(v, f"{where}, field 'labels' point {k}")
    elif typ == "choice":
        choices = raw.get("choices")
        if not isinstance(choices, list) or len(choices) < 2 or len(choices) > 50:
            raise QuestionnaireError(f"{where}, field 'choices': must be a list of 2 to 50 choices")
        for n, c in enumerate(choices, 1):
            if not isinstance(c, dict):
                raise QuestionnaireError(f"{where}, field 'choices' #{n}: expected {{\"id\": ..., \"text\": ...}}")
            cid = _ident(c.get("id"), f"{where}, field 'choices' #{n} 'id'")
            if cid in [x for x, _ in item.choices]:
                raise QuestionnaireError(f"{where}, field 'choices' #{n}: duplicate id {cid!r}")
            item.choices.append((cid, _text(c.get("text"), f"{where}, field 'choices' #{n} 'text'")))
    else:
        max_length = raw.get("max_length", 2000)
        if not isinstance(max_length, int) or isinstance(max_length, bool) or not 1 <= max_length <= 100_000:
            raise QuestionnaireError(f"{where}, field 'max_length': must be a whole number from 1 to 100000")
        item.max_length = max_length
    for key in ("scale", "labels") if typ != "likert" else ():
        if key in raw:
            raise QuestionnaireError(f"{where}, field {key!r}: only likert items have it")
    if typ != "choice" and "choices" in raw:
        raise QuestionnaireError(f"{where}, field 'choices': only choice items have it")
    return item


def load_questionnaire(path: Path | str) -> Questionnaire:
    """Read and validate a questionnaire file (errors name the file, item and field)."""
    path = Path(path)
    data = paths.read_json_file(path, QuestionnaireError, MAX_FILE_BYTES)
    return Questionnaire.from_dict(data, path.name)


# --- the default questionnaire --------------------------------------------------------------------------
def _likert(item_id: str, scope: str, text: Text, low: Text, high: Text) -> dict[str, Any]:
    return {"id": item_id, "type": "likert", "scope": scope, "required": True, "scale": 7, "text": text,
            "labels": {"1": low, "7": high}}


DEFAULT_QUESTIONNAIRE: dict[str, Any] = {
    "format": QUESTIONNAIRE_FORMAT, "version": 1, "id": "cardtable-default",
    "title": {"en": "How was the game?", "pt": "Como foi o jogo?", "it": "Com'è andata la partita?",
              "sk": "Aká bola hra?"},
    "items": [
        _likert("skill", "per_opponent",
                {"en": "How well did {opponent} play?", "pt": "Quão bem jogou {opponent}?",
                 "it": "Quanto bene ha giocato {opponent}?", "sk": "Ako dobre hral {opponent}?"},
                {"en": "Very badly", "pt": "Muito mal", "it": "Molto male", "sk": "Veľmi zle"},
                {"en": "Very well", "pt": "Muito bem", "it": "Molto bene", "sk": "Veľmi dobre"}),
        _likert("human_likeness", "per_opponent",
                {"en": "How human did {opponent} seem?", "pt": "Quão humano pareceu {opponent}?",
                 "it": "Quanto è sembrato umano {opponent}?", "sk": "Nakoľko ľudsky pôsobil {opponent}?"},
                {"en": "Like a machine", "pt": "Como uma máquina", "it": "Come una macchina", "sk": "Ako stroj"},
                {"en": "Like a person", "pt": "Como uma pessoa", "it": "Come una persona", "sk": "Ako človek"}),
        _likert("predictability", "per_opponent",
                {"en": "How predictable was {opponent}?", "pt": "Quão previsível foi {opponent}?",
                 "it": "Quanto è stato prevedibile {opponent}?", "sk": "Nakoľko bol {opponent} predvídateľný?"},
                {"en": "Not at all predictable", "pt": "Nada previsível", "it": "Per niente prevedibile",
                 "sk": "Vôbec nepredvídateľný"},
                {"en": "Very predictable", "pt": "Muito previsível", "it": "Molto prevedibile",
                 "sk": "Veľmi predvídateľný"}),
        _likert("fairness", "per_opponent",
                {"en": "Did {opponent} seem to cheat (to see hidden cards)?",
                 "pt": "{opponent} pareceu fazer batota (ver cartas escondidas)?",
                 "it": "{opponent} sembrava barare (vedere le carte coperte)?",
                 "sk": "Zdalo sa, že {opponent} podvádza (vidí skryté karty)?"},
                {"en": "Clearly played fair", "pt": "Jogou claramente limpo", "it": "Ha giocato chiaramente pulito",
                 "sk": "Jednoznačne hral férovo"},
                {"en": "Clearly cheated", "pt": "Fez claramente batota", "it": "Ha chiaramente barato",
                 "sk": "Jednoznačne podvádzal"}),
        _likert("enjoyment", "per_game",
                {"en": "How much did you enjoy this game?", "pt": "Quanto gostou deste jogo?",
                 "it": "Quanto ti è piaciuta questa partita?", "sk": "Ako veľmi vás táto hra bavila?"},
                {"en": "Not at all", "pt": "Nada", "it": "Per niente", "sk": "Vôbec"},
                {"en": "Very much", "pt": "Muitíssimo", "it": "Moltissimo", "sk": "Veľmi"}),
        {"id": "comment", "type": "text", "scope": "per_game", "required": False, "max_length": 2000,
         "text": {"en": "Any comment? (optional)", "pt": "Algum comentário? (opcional)",
                  "it": "Qualche commento? (facoltativo)", "sk": "Nejaký komentár? (nepovinné)"}},
    ],
}
"""The built-in questionnaire (item texts in en/pt/it/sk)."""


def default_questionnaire() -> Questionnaire:
    """The built-in questionnaire, validated."""
    return Questionnaire.from_dict(json.loads(json.dumps(DEFAULT_QUESTIONNAIRE)), "default questionnaire")


def configured_questionnaire(settings: Settings) -> tuple[Questionnaire, list[str]]:
    """The questionnaire to show: ``settings.questionnaire_file`` when set and valid, else the built-in one
    (with a warning naming the problem; the file is only read, never changed)."""
    if not settings.questionnaire_file:
        return default_questionnaire(), []
    try:
        return load_questionnaire(Path(settings.questionnaire_file).expanduser()), []
    except QuestionnaireError as e:
        return default_questionnaire(), [f"the questionnaire file could not be used ({e}); "
                                         "showing the built-in questionnaire"]


# --- when to show, and storing answers ------------------------------------------------------------------
def survey_due(settings: Settings, games_finished: int, in_study: bool = False) -> bool:
    """Whether to show the questionnaire after a game: always in a study, else per the settings rule."""
    return in_study or settings.should_show_survey(games_finished)


def save_answers(record_id: int, answers: dict[str, Any], questionnaire: Questionnaire | None = None,
                 language: str = "en", db: RecordsDB | None = None, answered_at: float | None = None) -> int:
    """Validate ``answers`` for the game record ``record_id`` and store them; returns the response id.

    Per-opponent answers are keyed by seat number (see :meth:`Questionnaire.validate_answers`); the targets
    come from the record's seats, so a stored answer always names the opponent the player saw.
    """
    q = questionnaire or default_questionnaire()
    own = db is None
    database = RecordsDB() if db is None else db
    try:
        record = database.load_record(record_id)
        teams = _teams_of(database, record_id)
        rows = q.validate_answers(answers, q.targets(record.seats, record.human_seat, teams))
        lang = language if language in LANGUAGES else "en"
        study = record.study or {}
        with transaction(database.conn) as conn:
            cur = conn.execute(
                "INSERT INTO survey_responses (game_id, questionnaire_id, questionnaire_version, language, "
                "answered_at, study_id, participant) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (record_id, q.id, q.version, lang, time.time() if answered_at is None else answered_at,
                 _opt(study.get("study_id")), _opt(study.get("participant"))))
            rid = int(cur.lastrowid or 0)
            conn.executemany("INSERT INTO survey_answers VALUES (?, ?, ?, ?, ?)",
                             [(rid, item_id, seat, label, json.dumps(value, ensure_ascii=False))
                              for item_id, seat, label, value in rows])
        return rid
    finally:
        if own:
            database.close()


def load_answers(db: RecordsDB, record_id: int) -> list[dict[str, Any]]:
    """Every response stored for a game: ``{"response_id", "questionnaire_id", "answers": {...}}``."""
    out = []
    for r in db.conn.execute("SELECT * FROM survey_responses WHERE game_id = ? ORDER BY id", (record_id,)):
        answers: dict[str, Any] = {}
        for a in db.conn.execute("SELECT * FROM survey_answers WHERE response_id = ? ORDER BY item_id, seat",
                                 (r["id"],)):
            value = json.loads(a["value"])
            if a["seat"] == PER_GAME_SEAT:
                answers[a["item_id"]] = value
            else:
                answers.setdefault(a["item_id"], {})[int(a["seat"])] = value
        out.append({"response_id": int(r["id"]), "questionnaire_id": r["questionnaire_id"],
                    "language": r["language"], "answered_at": r["answered_at"], "answers": answers})
    return out


def _teams_of(db: RecordsDB, record_id: int) -> list[tuple[int, ...]]:
    teams: dict[int, list[int]] = {}
    for r in db.conn.execute("SELECT seat, team FROM seats WHERE game_id = ? ORDER BY seat", (record_id,)):
        teams.setdefault(int(r["team"]), []).append(int(r["seat"]))
    return [tuple(v) for _, v in sorted(teams.items())]


def _opt(value: Any) -> str | None:
    return None if value is None else str(value)


def main(argv: list[str] | None = None) -> int:
    """``python -m saves.survey --check FILE`` validates a questionnaire; ``--write-default FILE`` writes
    the built-in one as a starting point."""
    import sys

    from engine.lab import cli

    parser = cli.Parser(prog="python -m saves.survey", description=main.__doc__)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--check", metavar="FILE", help="validate a questionnaire file")
    group.add_argument("--write-default", metavar="FILE", type=cli.output_file,
                       help="write the default questionnaire as JSON")
    args = parser.parse_args(argv)
    if args.check:
        try:
            q = load_questionnaire(args.check)
        except QuestionnaireError as e:
            print(f"invalid: {e}", file=sys.stderr)
            return 1
        print(f"ok: questionnaire {q.id!r} with {len(q.items)} items")
        return 0
    Path(args.write_default).write_text(json.dumps(DEFAULT_QUESTIONNAIRE, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
