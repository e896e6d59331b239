"""Fuzzing every loader of the saves package (hypothesis): truncated files, random bytes, wrong types, huge
numbers, deep nesting and unknown versions give clear errors - never a crash, never an overwritten file."""

from __future__ import annotations

import copy
import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from saves import autosave
from saves.autosave import AutosaveStore, SaveFormatError, decode_session, encode_session
from saves.demo import demo_session, make_agents, step
from saves.records import RecordsDB
from saves.settings import Settings, load_settings, save_settings, settings_path
from saves.study import Study, StudyError
from saves.survey import DEFAULT_QUESTIONNAIRE, AnswerError, Questionnaire, QuestionnaireError, default_questionnaire

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.function_scoped_fixture])

json_scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.sampled_from([10**400, -(10**30)])
                | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:  # type: ignore[type-arg]
    out = [prefix]
    if len(prefix) > 12:
        return out
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with one to three random places replaced, deleted or deeply nested."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        places = _paths(doc)
        path = draw(st.sampled_from(places))
        action = draw(st.sampled_from(["replace", "replace", "delete", "deep", "version"]))
        if not path:
            if action == "replace":
                doc = draw(json_values)
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if action == "delete":
            del parent[key]
        elif action == "deep":
            parent[key] = _deep(draw(st.sampled_from([50, 400])))
        elif action == "version" and isinstance(parent, dict):
            parent["version"] = draw(st.sampled_from([0, 2, 99, -1, "1", 1.5, None, 2**80]))
        else:
            parent[key] = draw(json_values)
    return doc


_SESSION = demo_session(3)
for _ in range(45):
    step(_SESSION, make_agents(_SESSION))
_SESSION.study = {"study_id": "s", "condition": "c"}
GOOD_SAVE = encode_session(_SESSION)
GOOD_BODY = json.loads(GOOD_SAVE)["session"]


def _reseal(body: Any) -> bytes:
    """An autosave envelope around ``body`` with a correct checksum (so the session parser itself is fuzzed)."""
    try:
        digest = hashlib.sha256(autosave._canonical(body)).hexdigest()
    except (ValueError, RecursionError, TypeError):
        digest = "x"
    env = {"format": autosave.AUTOSAVE_FORMAT, "version": 1, "saved_at": 0, "sha256": digest, "session": body}
    try:
        return json.dumps(env).encode()
    except RecursionError:
        return b'{"format": "cardtable-autosave", "version": 1, "session": ' + b"[" * 5000


@FUZZ
@given(body=mutated(GOOD_BODY))
def test_mutated_sessions_load_or_fail_clearly(body: Any) -> None:
    try:
        session = decode_session(_reseal(body))
    except SaveFormatError as e:
        assert str(e)
    else:
        assert session.match.game.num_players == len(session.seats)


@FUZZ
@given(data=st.one_of(st.binary(max_size=300), st.integers(0, len(GOOD_SAVE) - 1).map(lambda n: GOOD_SAVE[:n]),
                      st.just(b"[" * 100_000), st.just(b'{"format": "cardtable-autosave", "version": 10e999}'),
                      mutated(json.loads(GOOD_SAVE)).map(lambda d: json.dumps(d).encode())))
def test_store_never_crashes_never_overwrites_and_uses_the_backup(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        store = AutosaveStore(d)
        store.backup.write_bytes(GOOD_SAVE)
        store.current.write_bytes(data)
        result = store.load()
        if result.source == "current":
            assert data == GOOD_SAVE or result.session is not None
            return
        assert result.source == "backup" and result.session is not None
        assert result.session.to_dict() == _SESSION.to_dict()
        assert any("backup" in w for w in result.warnings)
        (aside,) = result.moved_aside
        assert aside.read_bytes() == data  # the unreadable file is kept, byte for byte
        store.save(result.session)  # saving afterwards never touches the moved file
        assert aside.read_bytes() == data


@FUZZ
@given(data=st.one_of(st.binary(max_size=200),
                      mutated(Settings().to_dict()).map(lambda d: json.dumps(d).encode()),
                      st.just(b"[" * 100_000), st.just(b'{"format": "cardtable-settings", "version": 1e999}')))
def test_settings_always_load_to_valid_values(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = settings_path(Path(d))
        path.write_bytes(data)
        loaded = load_settings(Path(d))
        assert loaded.settings.validate() == []
        if path.exists():
            assert path.read_bytes() == data  # read fine (maybe with per-field warnings): left as it was
        else:
            (aside,) = Path(d).glob("settings.json.corrupt-*")
            assert aside.read_bytes() == data
        save_settings(loaded.settings, Path(d))
        assert load_settings(Path(d)).warnings == []


@FUZZ
@given(doc=mutated(DEFAULT_QUESTIONNAIRE))
def test_questionnaire_validation_never_crashes(doc: Any) -> None:
    try:
        q = Questionnaire.from_dict(doc, "q.json")
    except QuestionnaireError as e:
        assert str(e).startswith("q.json")
    else:
        assert Questionnaire.from_dict(q.to_dict()).to_dict() == q.to_dict()


GOOD_ANSWERS = {"skill": {1: 5, 3: 2}, "human_likeness": {1: 4, 3: 4}, "predictability": {1: 1, 3: 7},
                "fairness": {1: 2, 3: 6}, "enjoyment": 6, "comment": "ok"}


@FUZZ
@given(answers=mutated(json.loads(json.dumps(GOOD_ANSWERS))))
def test_answer_validation_never_crashes(answers: Any) -> None:
    q = default_questionnaire()
    targets = q.targets(_SESSION.seats, teams=_SESSION.match.game.teams())
    try:
        rows = q.validate_answers(answers, targets)
    except AnswerError as e:
        assert str(e)
    else:
        assert all(isinstance(r[1], int) for r in rows)


STUDY = {"format": "cardtable-study", "version": 1, "id": "fz", "game": "sueca", "human_seat": 0,
         "consent": "ok?", "conditions": [{"id": "a", "seats": ["human", "random", "random", "random"]},
                                          {"id": "b", "seats": ["human", {"preset": "casual"}, "random", "random"]}]}


@FUZZ
@given(doc=mutated(STUDY))
def test_study_validation_never_crashes(doc: Any, tmp_path: Path) -> None:
    try:
        study = Study.from_dict(doc, tmp_path, "study.json")
    except StudyError as e:
        assert str(e).startswith("study.json")
    else:
        assert study.plan(0) and all(c.seats[study.human_seat].kind == "human" for c in study.conditions)


@pytest.mark.parametrize("damage", ["truncate", "garbage_header", "random_pages", "empty"])
def test_damaged_records_database_never_crashes(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "r.sqlite3"
    with RecordsDB(path) as db:
        session = demo_session(1, variant={"target": 0})
        while step(session, make_agents(session)):
            pass
        db.record_game(session)
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    if damage == "truncate":
        data = data[:len(data) // 2 + 100]
    elif damage == "garbage_header":
        data = b"\x00" * 100 + data[100:]
    elif damage == "random_pages":
        data = data[:4096] + bytes((b * 7 + 13) % 256 for b in data[4096:])
    else:
        data = b""
    path.write_bytes(data)
    with RecordsDB(path) as db:
        assert db.count() == 0
        if damage == "empty":  # an empty file is simply a new database
            assert db.warnings == []
            return
        assert "moved to" in db.warnings[0]
    (aside,) = tmp_path.glob("r.sqlite3.corrupt-*")
    assert aside.read_bytes() == data  # kept byte for byte for recovery


@FUZZ
@given(data=st.one_of(st.binary(max_size=200), st.just(b"[" * 100_000), st.just(b"\xef\xbb\xbf{}"),
                      st.just(json.dumps(STUDY).encode()[:50]), st.just(b'{"version": 1e999}')))
def test_study_and_questionnaire_files_with_random_bytes(data: bytes) -> None:
    from saves.study import load_study
    from saves.survey import load_questionnaire

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "file.json"
        path.write_bytes(data)
        with pytest.raises(StudyError, match="^file.json: "):
            load_study(path)
        with pytest.raises(QuestionnaireError, match="^file.json: "):
            load_questionnaire(path)
        assert path.read_bytes() == data
