"""Study mode: study file validation, path safety, counterbalancing, neutral names, a participant's run."""

from __future__ import annotations

import copy
import itertools
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from engine import presets
from saves import paths
from saves.demo import make_agents, play_to_end
from saves.records import RecordsDB
from saves.study import (
    StudyError,
    StudyRun,
    condition_order,
    load_study,
    safe_relative_path,
    williams_orders,
)
from saves.survey import DEFAULT_QUESTIONNAIRE, save_answers

STUDY = {
    "format": "cardtable-study", "version": 1, "id": "perception-test",
    "title": {"en": "Test study", "pt": "Estudo"}, "consent": {"en": "Do you agree?"},
    "game": "sueca", "variant": {"target": 0}, "human_seat": 0, "games_per_condition": 2, "seed": 7,
    "conditions": [
        {"id": "rand", "seats": ["human", "random", "random", "random"]},
        {"id": "rand2", "seats": ["human", {"spec": "random", "preset": "easy"}, "random", "random"]},
        {"id": "rand3", "label": "Z", "seats": ["human", {"preset": "strong"}, "random", {"preset": "strong"}]},
    ],
}


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "home"))
    return tmp_path / "home"


def _write(directory: Path, study: dict, name: str = "study.json") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(json.dumps(study))
    return path


@pytest.mark.parametrize("n", range(1, 8))
def test_williams_design_is_balanced(n: int) -> None:
    rows = williams_orders(n)
    assert len(rows) == (2 * n if n % 2 and n > 1 else n)
    for row in rows:
        assert sorted(row) == list(range(n))
    for position in range(n):  # every condition equally often in every position
        counts = Counter(row[position] for row in rows)
        assert set(counts) == set(range(n)) and len(set(counts.values())) == 1
    pairs = Counter((a, b) for row in rows for a, b in itertools.pairwise(row))  # first-order carry-over
    if n > 1:
        assert set(pairs) == {(a, b) for a in range(n) for b in range(n) if a != b}
        assert len(set(pairs.values())) == 1


def test_rotation_and_fixed_orders() -> None:
    assert [condition_order("rotation", 3, p) for p in range(4)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]]
    assert condition_order("fixed", 3, 5) == [0, 1, 2]


def test_study_loads_with_neutral_names(tmp_path: Path) -> None:
    study = load_study(_write(tmp_path / "s", STUDY))
    assert study.games_total == 6 and study.consent_text("it") == "Do you agree?"
    names = [[s.display_name for s in c.seats] for c in study.conditions]
    assert names[0] == ["You", "Opponent A1", "Partner A", "Opponent A2"]
    assert names[2] == ["You", "Opponent Z1", "Partner Z", "Opponent Z2"]
    seat = study.conditions[1].seats[1]
    assert (seat.spec, seat.preset) == ("random", "easy")
    strong = study.conditions[2].seats[1]
    assert strong.preset == "strong" and strong.spec == presets.preset_spec("sueca", "strong")
    for c in study.conditions:  # nothing the participant sees names the agent
        for s in c.seats:
            assert "random" not in s.label and "easy" not in s.label and "strong" not in s.label
            assert "ismcts" not in s.label


def _mutated(change) -> dict:  # type: ignore[no-untyped-def]
    d = copy.deepcopy(STUDY)
    change(d)
    return d


@pytest.mark.parametrize("change,expected", [
    (lambda d: d.update(id="../evil"), "field 'id'"),
    (lambda d: d.update(id=".."), "field 'id'"),
    (lambda d: d.update(game="chess"), "unknown game"),
    (lambda d: d.update(variant={"target": "x"}), "option 'target'"),
    (lambda d: d.update(order="random"), "field 'order'"),
    (lambda d: d.update(games_per_condition=0), "games_per_condition"),
    (lambda d: d["conditions"][0]["seats"].pop(), "must list 4 seats"),
    (lambda d: d["conditions"][0].update(seats=["random", "human", "random", "random"]), "exactly once, at seat 0"),
    (lambda d: d["conditions"][0]["seats"].__setitem__(1, "alphago"), "unknown agent 'alphago'"),
    (lambda d: d["conditions"][0]["seats"].__setitem__(1, "random:depth=3"), "unknown parameter 'depth'"),
    (lambda d: d["conditions"][1].update(id="rand"), "duplicate id"),
    (lambda d: d["conditions"][2]["seats"].__setitem__(1, {"preset": "godlike"}), "unknown level 'godlike'"),
    (lambda d: d["conditions"][2]["seats"].__setitem__(1, "cheat"), "sees hidden cards"),
    (lambda d: d["conditions"][1].update(label="A"), "duplicate label"),
    (lambda d: d.update(extra=1), "unknown field 'extra'"),
    (lambda d: d.update(version=9), "newer"),
    (lambda d: d.update(questionnaire="/etc/passwd"), "no absolute paths"),
    (lambda d: d.update(questionnaire="../q.json"), "no '..'"),
    (lambda d: d.update(questionnaire="sub/../../q.json"), "no '..'"),
    (lambda d: d.update(questionnaire="C:\\q.json"), "no absolute paths"),
    (lambda d: d.update(questionnaire="missing.json"), "cannot read"),
])
def test_invalid_studies_are_refused_clearly(tmp_path: Path, change, expected: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(StudyError) as info:
        load_study(_write(tmp_path / "s", _mutated(change)))
    assert info.value.args[0].startswith("study.json: ")
    assert expected in str(info.value)


def test_questionnaire_inside_the_study_folder(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    q = copy.deepcopy(DEFAULT_QUESTIONNAIRE)
    q["id"] = "custom"
    q["items"] = q["items"][4:]
    _write(folder / "forms", q, "q.json")
    study = load_study(_write(folder, _mutated(lambda d: d.update(questionnaire="forms/q.json"))))
    assert study.questionnaire.id == "custom" and len(study.questionnaire.items) == 2
    bad = copy.deepcopy(q)
    bad["items"][0]["scale"] = 1
    _write(folder / "forms", bad, "bad.json")
    with pytest.raises(StudyError, match="field 'questionnaire': bad.json: item 'enjoyment'"):
        load_study(_write(folder, _mutated(lambda d: d.update(questionnaire="forms/bad.json"))))


def test_symlink_out_of_the_study_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "q.json").write_text(json.dumps(DEFAULT_QUESTIONNAIRE))
    folder = tmp_path / "s"
    folder.mkdir()
    os.symlink(outside, folder / "link")
    with pytest.raises(StudyError, match="outside the study's folder"):
        safe_relative_path(folder, "link/q.json", "questionnaire")


def test_participant_ids_cannot_escape(tmp_path: Path) -> None:
    study = load_study(_write(tmp_path / "s", STUDY))
    for bad in ("../x", "a/b", "", "..", "x" * 65, "a\\b"):
        with pytest.raises(StudyError, match="participant ID"):
            StudyRun.start(study, bad)


def test_participants_get_successive_counterbalanced_orders(tmp_path: Path) -> None:
    study = load_study(_write(tmp_path / "s", STUDY))
    runs = [StudyRun.start(study, f"P{i}") for i in range(6)]
    assert [r.participant_index for r in runs] == list(range(6))
    orders = [[p.condition.id for p in r.plan()][::2] for r in runs]
    assert len({tuple(o) for o in orders}) == 6  # 3 conditions: 6 Williams rows
    again = StudyRun.start(study, "P3")
    assert again.participant_index == 3
    plans = [r.plan() for r in runs]
    assert [p.seed for p in plans[0]] == [p.seed for p in plans[1]]  # shared deals by game number
    assert all(p.number == k for k, p in enumerate(plans[0]))
    for run in runs:  # everything written stays inside the data directory
        assert paths.is_inside(run.progress_file, paths.data_dir())


def test_a_participant_runs_through_the_study(tmp_path: Path) -> None:
    study = load_study(_write(tmp_path / "s", _mutated(lambda d: d.update(games_per_condition=1))))
    run = StudyRun.start(study, "P01")
    assert not run.consented
    run.give_consent()
    assert StudyRun.start(study, "P01").consented
    with RecordsDB() as db:
        played = []
        while (plan := run.next_game(db)) is not None:
            assert run.pending_survey(db) is None
            session = run.new_session(plan)
            for seat in session.seats:  # fast players for the test (the plan's specs are checked above)
                seat.spec = "random" if seat.kind == "ai" else ""
            play_to_end(session, make_agents(session))
            rid = db.record_game(session)
            assert run.pending_survey(db) == rid
            save_answers(rid, {"skill": {1: 3, 3: 4}, "human_likeness": {1: 3, 3: 4},
                               "predictability": {1: 3, 3: 4}, "fairness": {1: 1, 3: 1}, "enjoyment": 5},
                         questionnaire=study.questionnaire, db=db)
            played.append(plan.condition.id)
        assert run.is_complete(db)
        assert played == [study.conditions[i].id for i in study.order_for(run.participant_index)]
        rows = db.conn.execute("SELECT study_id, participant, condition FROM games ORDER BY id").fetchall()
        assert [tuple(r) for r in rows] == [("perception-test", "P01", c) for c in played]


def test_shipped_examples_load() -> None:
    from saves.examples import example_path

    study = load_study(example_path("study.json"))
    assert study.questionnaire.id == "example-sueca-perception-q" and study.questionnaire.include_partners
    assert len(study.conditions) == 3 and study.games_total == 6
    assert all(s.spec for c in study.conditions for s in c.seats if s.kind == "ai")
    assert len({tuple(p.condition.id for p in study.plan(i)) for i in range(6)}) == 6


def test_a_study_game_interrupted_by_a_crash_continues_and_counts_once(tmp_path: Path) -> None:
    from saves.autosave import AutosaveStore
    from saves.demo import step

    study = load_study(_write(tmp_path / "s", _mutated(lambda d: d.update(games_per_condition=1))))
    run = StudyRun.start(study, "P9")
    store = AutosaveStore()
    with RecordsDB() as db:
        plan = run.next_game(db)
        assert plan is not None
        session = run.new_session(plan)
        for seat in session.seats:
            seat.spec = "random" if seat.kind == "ai" else ""
        players = make_agents(session)
        for _ in range(17):
            step(session, players)
            store.save(session)
        # the app dies here; on restart the autosave holds the study game with its tag
        restored = store.load().session
        assert restored is not None and restored.study == session.study
        play_to_end(restored, make_agents(restored))
        rid = db.record_game(restored)
        assert db.record_game(restored) == rid
        store.clear()
        assert run.completed_games(db) == {0: rid}
        assert run.pending_survey(db) == rid
        nxt = run.next_game(db)
        assert nxt is not None and nxt.number == 1
