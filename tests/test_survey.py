"""Questionnaires: the default one, validation errors naming item and field, answers linked to records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from saves.demo import demo_session, play_to_end
from saves.records import RecordsDB
from saves.settings import LANGUAGES, Settings
from saves.survey import (
    DEFAULT_QUESTIONNAIRE,
    AnswerError,
    Questionnaire,
    QuestionnaireError,
    default_questionnaire,
    load_answers,
    load_questionnaire,
    main,
    save_answers,
    survey_due,
)


@pytest.fixture
def db(tmp_path: Path) -> RecordsDB:
    with RecordsDB(tmp_path / "r.sqlite3") as d:
        yield d


def _record(db: RecordsDB, seed: int = 1) -> int:
    session = demo_session(seed)
    play_to_end(session)
    return db.record_game(session)


def test_default_questionnaire_is_valid_and_translated() -> None:
    q = default_questionnaire()
    ids = [i.id for i in q.items]
    assert ids == ["skill", "human_likeness", "predictability", "fairness", "enjoyment", "comment"]
    for item in q.items:
        assert set(item.text) == set(LANGUAGES)
        assert all(item.text[lang].strip() for lang in LANGUAGES)
        if item.type == "likert":
            assert item.scale == 7 and set(item.labels) == {1, 7}
            assert all(set(t) == set(LANGUAGES) for t in item.labels.values())
    assert q.item("fairness").scope == "per_opponent" and q.item("enjoyment").scope == "per_game"
    assert not q.item("comment").required
    assert q.item("skill").prompt("pt", "Adversário A") == "Quão bem jogou Adversário A?"
    assert Questionnaire.from_dict(q.to_dict()).to_dict() == q.to_dict()


def test_targets_are_ai_opponents_by_their_shown_names() -> None:
    session = demo_session(1)
    q = default_questionnaire()
    targets = q.targets(session.seats, teams=session.match.game.teams())
    assert [(t.seat, t.label) for t in targets] == [(1, "Opponent B"), (3, "Opponent D")]
    q.include_partners = True
    assert [t.seat for t in q.targets(session.seats, teams=session.match.game.teams())] == [1, 2, 3]


def _bad(mutate) -> str:  # type: ignore[no-untyped-def]
    d = json.loads(json.dumps(DEFAULT_QUESTIONNAIRE))
    mutate(d)
    with pytest.raises(QuestionnaireError) as info:
        Questionnaire.from_dict(d, "q.json")
    return str(info.value)


@pytest.mark.parametrize("mutate,expected", [
    (lambda d: d["items"][0].update(scale=12), "item 'skill' (#1), field 'scale'"),
    (lambda d: d["items"][1].update(type="slider"), "item 'human_likeness' (#2), field 'type'"),
    (lambda d: d["items"][4].update(scope="per_hand"), "item 'enjoyment' (#5), field 'scope'"),
    (lambda d: d["items"][0]["labels"].update({"9": "x"}), "item 'skill' (#1), field 'labels'"),
    (lambda d: d["items"][0].update(text={"de": "Wie?"}), "item 'skill' (#1), field 'text': unknown language"),
    (lambda d: d["items"][5].update(max_length=0), "item 'comment' (#6), field 'max_length'"),
    (lambda d: d["items"][5].update(scale=7), "item 'comment' (#6), field 'scale'"),
    (lambda d: d["items"][2].update(id="skill"), "item 3: field 'id': duplicate"),
    (lambda d: d["items"][2].update(id="../x"), "item 3: field 'id'"),
    (lambda d: d["items"][2].update(required="yes"), "field 'required'"),
    (lambda d: d["items"][2].update(colour="red"), "unknown field 'colour'"),
    (lambda d: d["items"].append({"id": "c", "type": "choice", "text": "?", "choices": [{"id": "a", "text": "A"}]}),
     "item 'c' (#7), field 'choices'"),
    (lambda d: d.update(items=[]), "field 'items'"),
    (lambda d: d.update(version=2), "newer"),
    (lambda d: d.update(format="x"), "field 'format'"),
])
def test_invalid_questionnaires_name_item_and_field(mutate, expected: str) -> None:  # type: ignore[no-untyped-def]
    message = _bad(mutate)
    assert message.startswith("q.json: ")
    assert expected in message


def test_load_questionnaire_file_errors(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text("{not json")
    with pytest.raises(QuestionnaireError, match="q.json: not valid JSON"):
        load_questionnaire(path)
    with pytest.raises(QuestionnaireError, match="cannot read"):
        load_questionnaire(tmp_path / "missing.json")
    assert main(["--write-default", str(path)]) == 0
    assert load_questionnaire(path).to_dict() == default_questionnaire().to_dict()
    assert main(["--check", str(path)]) == 0


def _good_answers() -> dict:
    return {"skill": {1: 5, "3": 2}, "human_likeness": {1: 4, 3: 4}, "predictability": {1: 1, 3: 7},
            "fairness": {1: 2, 3: 6}, "enjoyment": 6, "comment": "fun"}


def test_answers_are_stored_linked_to_the_record(db: RecordsDB) -> None:
    rid = _record(db)
    response = save_answers(rid, _good_answers(), db=db, language="it")
    (stored,) = load_answers(db, rid)
    assert stored["response_id"] == response and stored["language"] == "it"
    assert stored["answers"]["skill"] == {1: 5, 3: 2}
    assert stored["answers"]["enjoyment"] == 6 and stored["answers"]["comment"] == "fun"
    labels = {r[0] for r in db.conn.execute("SELECT opponent_label FROM survey_answers WHERE seat >= 0")}
    assert labels == {"Opponent B", "Opponent D"}


@pytest.mark.parametrize("change,expected", [
    (lambda a: a.pop("enjoyment"), "item 'enjoyment': an answer is required"),
    (lambda a: a["skill"].pop(1), "item 'skill' about Opponent B: an answer is required"),
    (lambda a: a.update(enjoyment=8), "item 'enjoyment': answer must be a whole number from 1 to 7"),
    (lambda a: a.update(enjoyment=True), "item 'enjoyment': answer must be a whole number"),
    (lambda a: a["fairness"].update({2: 3}), "seat 2 is not an opponent"),
    (lambda a: a.update(mood=3), "unknown item 'mood'"),
    (lambda a: a.update(comment="x" * 2001), "longer than 2000"),
])
def test_bad_answers_are_refused_and_nothing_is_stored(db: RecordsDB, change, expected: str) -> None:  # type: ignore[no-untyped-def]
    rid = _record(db)
    answers = _good_answers()
    change(answers)
    with pytest.raises(AnswerError) as info:
        save_answers(rid, answers, db=db)
    assert expected in str(info.value)
    assert load_answers(db, rid) == []


def test_optional_comment_may_be_left_out(db: RecordsDB) -> None:
    rid = _record(db)
    answers = _good_answers()
    del answers["comment"]
    save_answers(rid, answers, db=db)
    assert "comment" not in load_answers(db, rid)[0]["answers"]


def test_when_to_show() -> None:
    assert survey_due(Settings(survey="off"), 3, in_study=True)
    assert not survey_due(Settings(survey="off"), 3)
    assert survey_due(Settings(survey="every_n", survey_every_n=2), 4)
    assert not survey_due(Settings(survey="every_n", survey_every_n=2), 3)


def test_configured_questionnaire_file(tmp_path: Path) -> None:
    from saves.survey import configured_questionnaire

    assert configured_questionnaire(Settings())[0].id == "cardtable-default"
    path = tmp_path / "mine.json"
    doc = json.loads(json.dumps(DEFAULT_QUESTIONNAIRE))
    doc["id"] = "mine"
    path.write_text(json.dumps(doc))
    q, warnings = configured_questionnaire(Settings(questionnaire_file=str(path)))
    assert q.id == "mine" and warnings == []
    path.write_text("{broken")
    q, warnings = configured_questionnaire(Settings(questionnaire_file=str(path)))
    assert q.id == "cardtable-default" and "mine.json: not valid JSON" in warnings[0]
    assert path.read_text() == "{broken"
