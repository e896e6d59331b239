"""Headless tests of the app's study mode, the survey's questionnaire choice, Continue after a damaged save,
and the translations of the engine's variant options (SDL dummy driver, synthetic events)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from app import i18n  # noqa: E402
from app import text as txt  # noqa: E402
from app.workers import ThreadWorker  # noqa: E402
from engine import registry  # noqa: E402
from tests.test_app import play_hand, press  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "saves" / "examples"
HIDDEN_WORDS = ("random", "casual", "strong", "expert", "beginner", "ismcts", "heuristic")
"""Agent names and preset levels: none may ever be shown to a study participant."""


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path / "home"))
    from app.main import App

    application = App((1024, 640), headless=True, worker_factory=ThreadWorker)
    application.settings.animation_speed = 0
    application.settings.ai_min_delay_ms = 0
    i18n.set_language("en")
    yield application
    application.shutdown()
    i18n.set_language("en")


@pytest.fixture
def study_file(tmp_path: Path) -> Path:
    """A 2-condition single-hand Sueca study (random opponents, one with a preset tag) using the example
    questionnaire."""
    folder = tmp_path / "study"
    folder.mkdir()
    shutil.copy(EXAMPLES / "questionnaire.json", folder / "questionnaire.json")
    study = {"format": "cardtable-study", "version": 1, "id": "app-test", "title": {"en": "Card study"},
             "consent": {"en": "You will play two short games. Do you agree?"},
             "game": "sueca", "variant": {"target": 0}, "human_seat": 0, "questionnaire": "questionnaire.json",
             "games_per_condition": 1, "order": "balanced_latin_square", "deals": "shared", "seed": 5,
             "conditions": [
                 {"id": "plain", "seats": ["human", "random", "random", "random"]},
                 {"id": "tagged", "seats": ["human", {"spec": "random", "preset": "casual"},
                                            {"spec": "random", "preset": "casual"},
                                            {"spec": "random", "preset": "casual"}]}]}
    path = folder / "study.json"
    path.write_text(json.dumps(study), encoding="utf-8")
    return path


class TextSpy:
    """Every text drawn by the app (pygame text renders and pygame-gui element texts)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: set[str] = set()
        original = txt.render

        def render(text: str, *args: Any, **kwargs: Any) -> Any:
            self.texts.add(text)
            return original(text, *args, **kwargs)

        render.cache_clear = original.cache_clear  # type: ignore[attr-defined]
        monkeypatch.setattr(txt, "render", render)

    def collect_gui(self, app: Any) -> None:
        for element in app.ui.get_root_container().elements:
            self._element(element)

    def _element(self, element: Any) -> None:
        text = getattr(element, "text", None)
        if isinstance(text, str):
            self.texts.add(text)
        for child in getattr(element, "elements", []) or []:
            self._element(child)

    def leaks(self) -> list[str]:
        return [s for s in self.texts if any(re.search(rf"\b{w}\b", s, re.I) for w in HIDDEN_WORDS)]


def step(app: Any, spy: TextSpy | None = None, frames: int = 1) -> None:
    for _ in range(frames):
        app.step()
        if spy is not None:
            spy.collect_gui(app)


def answer_survey(app: Any, spy: TextSpy) -> None:
    """Answer every page with clicks; the first click on Next with nothing answered must be refused."""
    survey = app.top
    assert survey.name == "survey" and survey.in_study and "skip" not in survey.widgets
    press(app, survey.widgets["next"])
    assert survey.page == 0 and "Please answer" in survey.error
    while app.top is survey:
        target, items = survey.current_items()
        for item in items:
            if item.type == "likert":
                press(app, survey.widgets[("likert", item.id, 4)])
            elif item.type == "choice":
                press(app, survey.widgets[("choice", item.id, item.choices[0][0])])
        step(app, spy)
        press(app, survey.widgets["next"])
        step(app, spy)


def play_study_game(app: Any, spy: TextSpy, seed: int) -> None:
    table = app.top
    assert table.name == "table" and table.in_study
    table.ctl.trick_pause_ms = 0
    assert not table.ctl.allow_hints and not table.ctl.allow_undo
    play_hand(app, table, seed=seed, check=lambda scr: spy.collect_gui(app))
    summary = app.top
    step(app, spy)
    press(app, summary.buttons["next"])
    end = app.top
    assert end.name == "match_end" and end.record_id is not None
    step(app, spy)
    assert set(end.buttons) == {"study"}
    press(app, end.buttons["study"])


def test_participant_runs_a_two_condition_study(app: Any, study_file: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from saves.records import RecordsDB
    from saves.study import StudyRun, load_study
    from saves.survey import load_answers

    spy = TextSpy(monkeypatch)
    study = load_study(study_file)
    StudyRun.start(study, "P0")  # an earlier participant: ours gets index 1, the reversed order
    assert app.open_study(str(study_file)) is None
    start = app.top
    assert start.name == "study_participant"
    step(app, spy)
    start.field.set_text("not valid!")
    press(app, start.buttons["start"])
    assert app.top is start and "participant ID" in start.message
    start.field.set_text("P1")
    press(app, start.buttons["start"])
    consent = app.top
    assert consent.name == "study_consent"
    step(app, spy)
    assert "You will play two short games. Do you agree?" in spy.texts
    press(app, consent.buttons["agree"])
    progress = app.top
    assert progress.name == "study_progress"
    step(app, spy)
    assert "Game 1 of 2" in spy.texts
    press(app, progress.buttons["go"])
    play_study_game(app, spy, seed=1)
    answer_survey(app, spy)
    progress = app.top
    assert progress.name == "study_progress" and progress.step_info.number == 2
    step(app, spy)
    assert "Game 2 of 2" in spy.texts
    # Pause and come back: the participant continues with game 2.
    press(app, progress.buttons["pause"])
    again = app.top
    again.field.set_text("P1")
    press(app, again.buttons["start"])
    progress = app.top
    assert progress.name == "study_progress" and progress.step_info.kind == "game"
    press(app, progress.buttons["go"])
    table = app.top
    table.ctl.trick_pause_ms = 0
    for _ in range(200):  # a few moves, then leave the table: the game waits in the autosave
        step(app, spy)
        if table.ctl.session.ply >= 6 and table.ctl.human_to_move():
            break
    moves = [list(h) for h in table.ctl.session.moves]
    press(app, table.buttons["menu"])
    progress = app.top
    assert progress.name == "study_progress" and progress.step_info.kind == "resume"
    press(app, progress.buttons["go"])
    assert app.top.name == "table" and app.top.ctl.session.moves == moves
    play_study_game(app, spy, seed=2)
    answer_survey(app, spy)
    step(app, spy, 2)
    assert app.top.name == "study_thanks"
    step(app, spy)
    assert "Thank you!" in spy.texts
    # Neutral names only, on every screen the participant saw.
    assert "Opponent A1" in spy.texts or "Opponent B1" in spy.texts
    assert not spy.leaks(), spy.leaks()
    # The records: the order saves.study gives participant 1, answers linked to each game.
    expected = [p.condition.id for p in study.plan(1)]
    assert expected == ["tagged", "plain"]
    with RecordsDB() as db:
        rows = db.conn.execute("SELECT id, condition, participant FROM games ORDER BY id").fetchall()
        assert [r["condition"] for r in rows] == expected and {r["participant"] for r in rows} == {"P1"}
        for r in rows:
            record = db.load_record(r["id"])
            assert [s.label for s in record.seats] == ["You"] + [s.label for s in record.seats[1:]]
            assert all(re.fullmatch(r"(Opponent|Partner) [AB]\d?", s.label) for s in record.seats[1:])
            answers = load_answers(db, r["id"])
            assert len(answers) == 1 and answers[0]["questionnaire_id"] == study.questionnaire.id
            assert answers[0]["answers"]["enjoyment"] == 4
            assert set(answers[0]["answers"]["skill"]) == {1, 2, 3}
        run = StudyRun.start(study, "P1")
        assert run.participant_index == 1 and run.is_complete(db)


def test_declining_consent_records_nothing(app: Any, study_file: Path) -> None:
    from saves import paths
    from saves.records import RecordsDB

    assert app.open_study(str(study_file)) is None
    start = app.top
    start.field.set_text("P9")
    press(app, start.buttons["start"])
    consent = app.top
    assert consent.name == "study_consent"
    press(app, consent.buttons["decline"])
    back = app.top
    assert back.name == "study_participant" and "nothing was recorded" in back.message
    app.step()
    assert not list(paths.data_dir().rglob("P9*"))
    assert not list(paths.data_dir().rglob("*.json"))
    with RecordsDB() as db:
        assert db.count() == 0
        assert db.conn.execute("SELECT COUNT(*) FROM survey_responses").fetchone()[0] == 0


def test_a_bad_study_file_is_reported_on_the_menu(app: Any, tmp_path: Path) -> None:
    from app.screens.menu import MenuScreen

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cardtable-study", "version": 1, "id": "x/../y"}', encoding="utf-8")
    app.reset_to(MenuScreen(app))
    app.study_file = str(bad)
    app.rebuild()
    menu = app.top
    assert "study" in menu.buttons
    press(app, menu.buttons["study"])
    assert app.top is menu and "could not be used" in menu.message and "'id'" in menu.message
    app.step()


def save_two_moves(app: Any) -> Any:
    """An autosave of a Sueca game two moves in (current = 2 moves, backup = 1 move)."""
    from app.screens.new_game import new_session
    from saves.autosave import AutosaveStore
    from saves.session import Seat

    game = registry.create("sueca")
    session = new_session(game, [Seat("human", "Ana")] + [Seat("ai", f"AI{i}", "random") for i in (1, 2, 3)],
                          seed=3)
    store = AutosaveStore()
    state = session.match.state
    for _ in range(2):
        move = state.legal_moves()[0]
        state.apply(move)
        session.record_move(move)
        store.save(session)
    return store


def test_continue_after_a_corrupt_save_uses_the_backup_and_says_so(app: Any) -> None:
    from app.screens.menu import MenuScreen

    store = save_two_moves(app)
    store.current.write_bytes(b'{"format": "cardtable-autosave", "vers')
    app.reset_to(MenuScreen(app))
    menu = app.top
    assert menu.has_autosave and "continue" in menu.buttons
    press(app, menu.buttons["continue"])
    table = app.top
    assert table.name == "table"
    assert table.ctl.session.ply == 1  # the backup: one move before the damaged save
    notices = [n.text for n in table.ctl.notices]
    assert any("continues from the save before it" in n for n in notices)
    assert any("used the backup" in n for n in notices) and any("moved to" in n for n in notices)
    app.step()
    assert list(store.directory.glob("autosave.json.corrupt-*"))


def test_continue_with_no_usable_save_keeps_the_menu(app: Any) -> None:
    from app.screens.menu import MenuScreen

    store = save_two_moves(app)
    store.current.write_bytes(b"\x00garbage")
    store.backup.write_bytes(b"[1, 2")
    app.reset_to(MenuScreen(app))
    menu = app.top
    press(app, menu.buttons["continue"])
    assert app.top is menu and not menu.has_autosave and "continue" not in menu.buttons
    assert "could not be loaded" in menu.message
    app.step()
    press(app, menu.buttons["new"])
    assert app.top.name == "new_game"


def test_survey_uses_the_configured_questionnaire(app: Any, tmp_path: Path) -> None:
    from app.screens.new_game import new_session
    from app.screens.survey import SurveyScreen
    from saves.session import Seat

    session = new_session(registry.create("bisca"), [Seat("human", "Ana"), Seat("ai", "Bot", "random")], seed=1)
    custom = tmp_path / "q.json"
    custom.write_text(json.dumps({"format": "cardtable-questionnaire", "version": 1, "id": "mine",
                                  "items": [{"id": "fun", "type": "choice", "text": "Fun?",
                                             "choices": [{"id": "y", "text": "Yes"}, {"id": "n", "text": "No"}]},
                                            {"id": "note", "type": "text", "required": False,
                                             "text": "Note"}]}), encoding="utf-8")
    app.settings.questionnaire_file = str(custom)
    app.reset_to(SurveyScreen(app, session, None))
    survey = app.top
    assert survey.q.id == "mine" and len(survey.pages) == 1 and "skip" in survey.widgets
    press(app, survey.widgets["next"])
    assert "Fun?" in survey.error and app.top is survey
    app.settings.questionnaire_file = str(tmp_path / "missing.json")
    app.reset_to(SurveyScreen(app, session, None))
    survey = app.top
    assert survey.q.id != "mine" and "questionnaire file could not be used" in survey.notice
    press(app, survey.widgets["skip"])
    assert app.top.name == "menu"


def test_every_engine_option_text_is_translated() -> None:
    tables = {lang: json.loads((ROOT / f"assets/i18n/{lang}.json").read_text(encoding="utf-8"))
              for lang in i18n.LANGUAGES}
    missing = []
    for name in registry.names():
        for option in registry.game_class(name).options:
            strings = i18n.option_strings(option)
            assert option.help in strings and i18n.option_name_text(option.name) in strings
            for text in strings:
                for lang, table in tables.items():
                    value = table.get(text, "")
                    if not value.strip() or set(re.findall(r"{\w+}", text)) != set(re.findall(r"{\w+}", value)):
                        missing.append((name, option.name, lang, text))
    assert not missing, missing


def test_new_game_options_are_shown_in_the_chosen_language(app: Any) -> None:
    from app.screens.new_game import NewGameScreen

    app.set_language("it")
    app.push(NewGameScreen(app, "scopone"))
    app.step()
    screen = app.top
    labels: list[str] = []

    def walk(element: Any) -> None:
        if isinstance(getattr(element, "text", None), str):
            labels.append(element.text)
        for child in getattr(element, "elements", []) or []:
            walk(child)

    walk(app.ui.get_root_container())
    assert "Asso piglia tutto" in labels and "Scelta della presa" in labels
    ace = screen.widgets[("opt", "ace_sweep")]
    assert "no" in ace.options_list[0] or ace.selected_option[0] == "no"
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=ace, text="sbarazzino"))
    app.step()
    assert screen.variant["ace_sweep"] == "sbarazzino"
    capture = screen.widgets[("opt", "capture_choice")]
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=capture,
                                         text="meno carte"))
    app.step()
    assert screen.variant["capture_choice"] == "fewest"


def test_participant_screen_language_switch_shows_the_consent_in_that_language(app: Any,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    spy = TextSpy(monkeypatch)
    assert app.open_study(str(EXAMPLES / "study.json")) is None
    start = app.top
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=start.language,
                                         text="Português"))
    app.step()
    assert i18n.language() == "pt" and app.settings.language == "pt"
    start = app.top
    start.field.set_text("P5")
    press(app, start.buttons["start"])
    app.step()
    assert any(s.startswith("Vai jogar seis jogos curtos de Sueca") for s in spy.texts)
    assert app.top.buttons["agree"].text == "Aceito"


def test_a_study_game_continued_from_the_menu_stays_in_the_study(app: Any, study_file: Path) -> None:
    from app.screens.menu import MenuScreen
    from app.study import load_context
    from saves.autosave import AutosaveStore

    ctx = load_context(study_file)
    ctx.begin("P3")
    step_info = ctx.next_step(None)
    session = ctx.new_session(step_info.plan)
    AutosaveStore().save(session)
    app.study_file = str(study_file)
    app.reset_to(MenuScreen(app))
    press(app, app.top.buttons["continue"])
    table = app.top
    assert table.name == "table" and table.in_study and app.study.run.participant == "P3"
    assert "hint" not in table.buttons and not table.ctl.allow_undo


def test_a_participant_who_stopped_before_the_questionnaire_answers_it_first(app: Any, study_file: Path) -> None:
    from saves.demo import play_to_end
    from saves.records import RecordsDB
    from saves.survey import load_answers

    assert app.open_study(str(study_file)) is None
    app.study.begin("P4")
    plan = app.study.next_step(None).plan
    session = app.study.new_session(plan)
    play_to_end(session)
    with RecordsDB() as db:
        record_id = db.record_game(session)
    start = app.top
    start.field.set_text("P4")
    press(app, start.buttons["start"])
    progress = app.top
    assert progress.name == "study_progress" and progress.step_info.kind == "survey"
    assert progress.step_info.number == 1 and progress.step_info.record_id == record_id
    press(app, progress.buttons["go"])
    survey = app.top
    assert survey.name == "survey" and survey.in_study and survey.record_id == record_id
    assert [t.label for t in survey.targets] == [s.label for s in session.seats[1:]]
    for target, items in survey.pages:
        for item in items:
            value = 2 if item.type == "likert" else item.choices[0][0] if item.type == "choice" else None
            if value is not None:
                survey.set_value(item, target, value)
    for _ in survey.pages:
        survey.next_page()
    assert app.top.name == "study_progress" and app.top.step_info.number == 2
    with RecordsDB() as db:
        assert load_answers(db, record_id)[0]["answers"]["enjoyment"] == 2
