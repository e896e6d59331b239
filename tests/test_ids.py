"""IDs that become file names: the whole text must match, and Windows device names are refused everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from saves.ids import is_safe_id
from saves.study import StudyError, StudyRun, load_study, safe_id
from saves.survey import DEFAULT_QUESTIONNAIRE, Questionnaire, QuestionnaireError
from tests.test_study import STUDY, _write

BAD = ["P1\n", "P1\r\n", "\nP1", "CON", "con", "Nul", "nul.json", "AUX", "PRN.txt", "COM1", "com9.log", "LPT1",
       "lpt9", "P1.", "..", ".", "", "a b", "x" * 65]
GOOD = ["P1", "st-2.b", "participant_07", "CONSOLE", "COM10", "LPT0", "nul_1", "x" * 64, ".hidden"]


@pytest.mark.parametrize("text", BAD)
def test_bad_ids_are_refused(text: str) -> None:
    assert not is_safe_id(text)
    with pytest.raises(StudyError, match="Windows device name"):
        safe_id(text, "participant ID")


@pytest.mark.parametrize("text", GOOD)
def test_good_ids_are_kept(text: str) -> None:
    assert is_safe_id(text) and safe_id(text, "participant ID") == text


def test_a_participant_named_like_a_device_or_with_a_newline_cannot_start(tmp_path: Path) -> None:
    study = load_study(_write(tmp_path / "s", STUDY))
    for bad in ("P1\n", "NUL", "com3"):
        with pytest.raises(StudyError, match="participant ID"):
            StudyRun.start(study, bad)
    assert not list((tmp_path / "s").rglob("*NUL*")) and not list((tmp_path / "s").rglob("*com3*"))


def test_study_and_questionnaire_ids_follow_the_same_rule(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match="field 'id'"):
        load_study(_write(tmp_path / "s", dict(STUDY, id="AUX")))
    d = json.loads(json.dumps(DEFAULT_QUESTIONNAIRE))
    d["id"] = "default\n"
    with pytest.raises(QuestionnaireError, match="Windows device name"):
        Questionnaire.from_dict(d, "q.json")
