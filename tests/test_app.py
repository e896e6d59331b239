"""Headless app tests (SDL dummy driver, synthetic events): play by clicking, hotseat privacy, capture choice,
resize, language switch, AI worker crash."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from app import describe, i18n  # noqa: E402
from app import moves as movelib  # noqa: E402
from app.workers import ThreadWorker  # noqa: E402
from engine import registry  # noqa: E402
from engine.games.tricks import PASS_FLAG  # noqa: E402
from engine.worker import WorkerFailed  # noqa: E402
from saves.session import Seat  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    from app.main import App

    application = App((1024, 640), headless=True, worker_factory=ThreadWorker)
    application.settings.animation_speed = 0
    i18n.set_language("en")
    yield application
    application.shutdown()
    i18n.set_language("en")


def open_table(app: Any, game_name: str, variant: dict[str, Any] | None = None, humans: tuple[int, ...] = (0,),
               seed: int = 1) -> Any:
    from app.controller import Controller
    from app.screens.new_game import new_session
    from app.screens.table import TableScreen

    game = registry.create(game_name, variant or {})
    seats = [Seat("human", f"H{i}") if i in humans else Seat("ai", f"AI{i}", "random", "casual")
             for i in range(game.num_players)]
    session = new_session(game, seats, seed)
    ctl = Controller(session, min_delay_ms=0, trick_pause_ms=0, worker=app.worker, autosave=app.autosave_store())
    screen = TableScreen(app, ctl)
    app.reset_to(screen)
    ctl.trick_pause_ms = 0
    ctl.min_delay_ms = 0
    return screen


def click(app: Any, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.step()


def visible_point(sprite: Any) -> tuple[int, int]:
    """A point of a fanned hand card that the next card does not cover."""
    return sprite.rect.left + 4, sprite.rect.centery


def uncovered_point(screen: Any, rect: pygame.Rect) -> tuple[int, int]:
    """A point of ``rect`` that no cell of the open choice covers (the card stays clickable there)."""
    for point in (rect.center, rect.midbottom, rect.bottomleft, rect.bottomright, rect.midtop):
        point = (min(point[0], rect.right - 2), min(point[1], rect.bottom - 2))
        if screen.choice_at(point) is None:
            return point
    raise AssertionError(f"the choice covers the whole card at {rect}")


def press(app: Any, element: Any) -> None:
    pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=element))
    app.step()


def human_turn_by_clicking(app: Any, screen: Any, rng: random.Random) -> None:
    """One human action, made only with clicks on cards and buttons."""
    ctl = screen.ctl
    if ctl.privacy_for is not None:
        press(app, screen.buttons["privacy"])
        return
    state = ctl.state
    if screen.pass_mode():
        if len(screen.selected) < screen.pass_needed():
            sp = next(s for s in screen.hand_sprites() if s.card not in screen.selected)
            click(app, visible_point(sp))
        else:
            app.step()
            press(app, screen.buttons["confirm_pass"])
        return
    if screen.choice is not None:
        table_cands = [s for s in screen.scene.sprites if s.zone == "table" and s.mark == "candidate"
                       and screen.choice_at(s.rect.center) is None]
        if table_cands:
            before = list(screen.choice.candidates)
            card = table_cands[0].card
            click(app, table_cands[0].rect.center)
            if screen.choice is not None:
                assert all(card in movelib.move_cards(state, m) for m in screen.choice.candidates)
                assert len(screen.choice.candidates) < len(before)
            return
        app.step()
        cells = screen.choice_cells()
        assert len(cells) == len(screen.choice.candidates)
        click(app, cells[0].rect.center)
        return
    move = rng.choice(state.legal_moves())
    cards = movelib.move_cards(state, move)
    if cards:
        sp = next(s for s in screen.hand_sprites() if s.card == cards[0])
        click(app, visible_point(sp))
    else:
        app.step()
        press(app, screen.buttons[("move", move)])


def play_hand(app: Any, screen: Any, seed: int, max_frames: int = 3000, check: Any = None) -> None:
    rng = random.Random(seed)
    ctl = screen.ctl
    for _ in range(max_frames):
        if app.top is not screen:
            break
        screen.face_up_drawn.clear()
        app.step()
        if check is not None:
            check(screen)
        if app.top is screen and (ctl.human_to_move() or ctl.privacy_for is not None):
            human_turn_by_clicking(app, screen, rng)
    assert ctl.hand_over, f"{ctl.match.game.name}: the hand did not finish"
    assert app.top.name == "summary"


@pytest.mark.parametrize("game_name", registry.available())
def test_human_plays_a_whole_hand_by_clicking(app: Any, game_name: str) -> None:
    variant = {"scoring": "penalty"} if game_name == "pharaoh" else {}  # shorter hands keep the test fast
    screen = open_table(app, game_name, variant, seed=3)
    play_hand(app, screen, seed=3)
    session = screen.ctl.session
    assert len(session.moves[0]) > 0
    assert screen.ctl.state.is_terminal()
    store = app.autosave_store()
    assert store.exists()  # autosaved after every move
    restored = store.load().session
    assert restored.moves == session.moves


def test_hotseat_never_shows_a_hand_to_the_wrong_player(app: Any) -> None:
    screen = open_table(app, "sueca", humans=(0, 2), seed=5)
    seen_privacy = []

    def check(scr: Any) -> None:
        ctl = scr.ctl
        if ctl.privacy_for is not None:
            seen_privacy.append(ctl.privacy_for)
            assert not scr.face_up_drawn
        for seat, _card in scr.face_up_drawn:
            assert seat == ctl.viewer
            assert ctl.is_human(seat)

    play_hand(app, screen, seed=5, check=check)
    assert 0 in seen_privacy and 2 in seen_privacy


def test_capture_choice_filters_and_cancels(app: Any) -> None:
    multi: list[int] = []
    for seed in range(1, 40):
        screen = open_table(app, "scopone", seed=seed)
        ctl = screen.ctl
        rng = random.Random(seed)
        while not ctl.state.is_terminal():
            state = ctl.state
            if state.current_player == 0:
                by_card, _ = movelib.group_by_card(state, state.legal_moves())
                multi = [c for c, ms in by_card.items() if len(ms) > 1]
                if multi:
                    break
            move = rng.choice(state.legal_moves())
            state.apply(move)
            ctl.session.record_move(move)
        if multi:
            break
    else:
        pytest.fail("no position with a capture choice")
    app.step()
    card = multi[0]
    ply = ctl.session.ply
    screen.click_hand_card(card)
    assert screen.choice is not None and len(screen.choice.candidates) > 1
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))
    app.step()
    assert screen.choice is None and ctl.session.ply == ply
    screen.click_hand_card(card)
    candidates = list(screen.choice.candidates)
    table_cards = set()
    for m in candidates:
        table_cards.update(movelib.move_cards(ctl.state, m)[1:])
    # A card in some but not all sets narrows the choice; clicking until one is left plays it.
    while screen.choice is not None:
        app.step()
        sets = [set(movelib.move_cards(ctl.state, m)[1:]) for m in screen.choice.candidates]
        common = set.intersection(*sets)
        distinguishing = sorted(set.union(*sets) - common - set(screen.choice.picked))
        sp = next(s for s in screen.scene.sprites if s.zone == "table" and s.card == distinguishing[0])
        click(app, uncovered_point(screen, sp.rect))
    assert ctl.session.ply == ply + 1
    assert ctl.session.moves[0][-1] in candidates


def test_resize_keeps_everything_inside_the_window(app: Any) -> None:
    screen = open_table(app, "hearts", seed=4)
    for size in ((1024, 640), (1600, 900), (2560, 1440), (1280, 800)):
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size))
        app.step()
        app.step()
        assert app.size == size
        lay = screen.lay
        assert lay.sidebar.right == size[0]
        for sp in screen.scene.sprites:
            assert lay.table.contains(sp.rect), (size, sp)
        hand = [s.rect for s in screen.scene.sprites if s.zone == "hand"]
        others = [s.rect for s in screen.scene.sprites if s.zone != "hand"]
        assert not any(h.colliderect(o) for h in hand for o in others)
        for element in screen.buttons.values():
            assert pygame.Rect(0, 0, *size).contains(element.rect)


def test_language_switch_translates_the_menu(app: Any) -> None:
    from app.screens.menu import MenuScreen
    from app.screens.settings import SettingsScreen

    app.reset_to(MenuScreen(app))
    app.push(SettingsScreen(app))
    app.top.change("language", "Português")
    assert i18n.language() == "pt" and app.settings.language == "pt"
    app.pop()
    app.step()
    texts = {b.text for b in app.top.buttons.values()}
    assert "Novo jogo" in texts and "Definições" in texts
    from saves.settings import load_settings

    assert load_settings().settings.language == "pt"


def test_every_ui_string_is_translated() -> None:
    en = json.loads((ROOT / "assets/i18n/en.json").read_text(encoding="utf-8"))
    keys: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        keys.update(re.findall(r'\bt\(\s*"([^"\\]*)"', path.read_text(encoding="utf-8")))
    assert keys <= set(en), sorted(keys - set(en))
    for lang in ("pt", "it", "sk"):
        table = json.loads((ROOT / f"assets/i18n/{lang}.json").read_text(encoding="utf-8"))
        assert set(table) == set(en), lang
        for key, value in table.items():
            assert set(re.findall(r"{\w+}", key)) == set(re.findall(r"{\w+}", value)), (lang, key)


def test_engine_texts_shown_in_the_ui_are_translated() -> None:
    from engine import presets

    en = json.loads((ROOT / "assets/i18n/en.json").read_text(encoding="utf-8"))
    texts = {presets.describe_level(level) for level in presets.LEVELS}
    for name in registry.available():
        deck = registry.create(name).deck
        texts.update(deck.suit_names)
        texts.update(deck.rank_names)
    for lang in ("pt", "it", "sk"):
        table = json.loads((ROOT / f"assets/i18n/{lang}.json").read_text(encoding="utf-8"))
        missing = sorted(x for x in texts if x not in table or x not in en)
        assert not missing, (lang, missing)


@pytest.mark.parametrize("size", [(1024, 640), (1024, 1472), (1920, 1080)])
def test_no_label_is_clipped_in_any_language(app: Any, size: tuple[int, int]) -> None:
    import warnings

    from app.screens.menu import MenuScreen
    from app.screens.new_game import NewGameScreen
    from app.screens.settings import SettingsScreen

    app.resize(size)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for lang in ("en", "pt", "it", "sk"):
            app.set_language(lang)
            for game_name in ("sueca", "bisca", "hearts", "scopone", "pharaoh"):
                app.reset_to(MenuScreen(app))
                app.push(NewGameScreen(app, game_name))
                app.step()
            app.push(SettingsScreen(app))
            app.step()
    clipped = sorted({str(w.message).split(" - ")[0] for w in caught if "too small for text" in str(w.message)})
    assert not clipped, (size, clipped)


class CrashingWorker(ThreadWorker):
    """Every AI request fails as if the search process had died."""

    def request(self, req: Any) -> int:
        self._next += 1
        self._current = self._next
        with self._lock:
            self._events.append(WorkerFailed(self._next, "search process died", -1))
        return self._next


def test_ai_worker_crash_shows_a_message_and_the_game_continues(app: Any) -> None:
    app._worker = CrashingWorker()
    screen = open_table(app, "sueca", seed=6, humans=())
    ctl = screen.ctl
    for _ in range(10):
        app.step()
    assert ctl.session.ply >= 5
    assert any("failed" in n.text for n in ctl.notices)


def test_undo_and_hint_are_recorded(app: Any) -> None:
    screen = open_table(app, "sueca", seed=8)
    ctl = screen.ctl
    rng = random.Random(8)
    for _ in range(200):
        app.step()
        if ctl.human_to_move() and ctl.session.ply > 4:
            break
        if ctl.human_to_move():
            human_turn_by_clicking(app, screen, rng)
    ctl.hint_spec = "random"
    assert ctl.request_hint()
    for _ in range(200):
        app.step()
        if ctl.hint_move is not None:
            break
    assert ctl.hint_move in ctl.state.legal_moves() and ctl.session.hints_used == 1
    ply = ctl.session.ply
    assert ctl.can_undo()
    assert ctl.undo()
    assert ctl.session.undos_used == 1 and ctl.session.ply < ply
    assert ctl.state.current_player == 0
    replayed = ctl.match.game.state_from_json(ctl.session.meta["hand_start"]["state"])
    for m in ctl.session.moves[0]:
        replayed.apply(m)
    assert replayed == ctl.state


def test_hearts_pass_requires_the_full_selection(app: Any) -> None:
    screen = open_table(app, "hearts", seed=9)
    ctl = screen.ctl
    for _ in range(50):
        app.step()
        if screen.pass_mode():
            break
    assert screen.pass_mode() and screen.pass_needed() == 3
    cards = [s.card for s in screen.hand_sprites()][:4]
    for c in cards:
        screen.click_hand_card(c)
    assert screen.selected == cards[:3]
    screen.confirm_pass()
    assert [m & ~PASS_FLAG for m in ctl.session.moves[0][:3]] == cards[:3]


def test_continue_restores_the_exact_game(app: Any) -> None:
    from app.screens.menu import MenuScreen

    screen = open_table(app, "scopa", seed=12)
    rng = random.Random(12)
    for _ in range(60):
        app.step()
        if screen.ctl.human_to_move():
            human_turn_by_clicking(app, screen, rng)
        if screen.ctl.session.ply >= 6 and screen.ctl.human_to_move():
            break
    state_json = screen.ctl.state.to_json()
    moves = [list(h) for h in screen.ctl.session.moves]
    screen.to_menu()
    menu = app.top
    assert isinstance(menu, MenuScreen) and menu.has_autosave
    app.step()
    menu.activate("continue")
    table = app.top
    assert table.name == "table"
    assert table.ctl.state.to_json() == state_json
    assert table.ctl.session.moves == moves
    assert table.ctl.can_undo()


def test_new_game_screen_starts_the_chosen_seats(app: Any) -> None:
    from app.screens.new_game import NewGameScreen

    app.push(NewGameScreen(app, "scopone"))
    screen = app.top
    assert screen.seats[0].kind == "human" and all(s.kind == "ai" for s in screen.seats[1:])
    options = screen.kind_options()
    assert "Rule-based: cs" in options
    screen.on_dropdown(("kind", 1), "Rule-based: cs")
    screen.on_dropdown(("kind", 3), "AI: expert")
    screen.on_dropdown(("opt", "target"), "21")
    app.rebuild()
    screen.widgets[("opt", "target")].set_text("21")
    assert screen.start(seed=4)
    table = app.top
    seats = table.ctl.session.seats
    assert seats[1].spec == "cs" and seats[3].preset == "expert" and seats[3].spec
    assert table.ctl.match.game.variant["target"] == 21


def test_bad_variant_value_is_reported_and_nothing_starts(app: Any) -> None:
    from app.screens.new_game import NewGameScreen

    app.push(NewGameScreen(app, "sueca"))
    screen = app.top
    screen.widgets[("opt", "target")].set_text("lots")
    assert not screen.start(seed=1)
    assert "target" in screen.error and app.top is screen


def test_match_end_records_the_game_and_the_survey_saves_answers(app: Any) -> None:
    from app.screens.statistics import ReplayScreen, StatisticsScreen
    from app.screens.survey import SurveyScreen
    from saves.records import RecordsDB
    from saves.survey import load_answers

    app.settings.survey = "every"
    screen = open_table(app, "sueca", {"target": 0}, seed=13)
    play_hand(app, screen, seed=13)
    app.top.next()
    end = app.top
    assert end.name == "match_end" and end.record_id is not None
    assert not app.autosave_store().exists()
    end.leave_to("menu")
    survey = app.top
    assert isinstance(survey, SurveyScreen)
    for target, items in survey.pages:
        for item in items:
            if item.type == "likert":
                survey.set_value(item, target, 5)
    for _ in survey.pages:
        survey.next_page()
    assert app.top.name == "menu"
    with RecordsDB() as db:
        answers = load_answers(db, end.record_id)
    assert answers and answers[0]["answers"]
    app.push(StatisticsScreen(app))
    app.step()
    assert app.top.stats["sueca"].games == 1
    app.push(ReplayScreen(app, end.record_id))
    replay = app.top
    app.step()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode=""))
    app.step()
    assert replay.index == len(replay.steps) - 1 and replay.steps[-1].state.is_terminal()


def test_look_at_the_table_after_a_hand_and_back_to_the_result(app: Any) -> None:
    screen = open_table(app, "bisca", seed=14)
    play_hand(app, screen, seed=14)
    summary = app.top
    press(app, summary.buttons["table"])
    for _ in range(3):
        app.step()
    assert app.top is screen and screen.looking_at_end
    press(app, screen.buttons["show_summary"])
    app.step()
    assert app.top.name == "summary"


def key(app: Any, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    app.step()


def test_keyboard_play_and_illegal_card_reason_on_hover(app: Any) -> None:
    screen = open_table(app, "sueca", seed=15)
    ctl = screen.ctl
    for _ in range(100):
        app.step()
        if ctl.human_to_move() and ctl.state.trick:
            break
        if ctl.human_to_move():
            legal = ctl.state.legal_moves()
            screen.play(legal[0])
    assert ctl.human_to_move() and ctl.state.trick
    legal = set(ctl.state.legal_moves())
    illegal = [s for s in screen.hand_sprites() if s.card not in legal]
    if illegal:
        sp = illegal[0]
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=visible_point(sp), rel=(0, 0), buttons=(0, 0, 0)))
        app.step()
        assert screen.hover_text == describe.reason_text(ctl.state.illegal_move(sp.card), ctl.state.game.deck,
                                                         sp.card)
        assert "follow suit" in screen.hover_text
    cards = [s.card for s in screen.hand_sprites()]
    playable = [c for c in cards if c in legal]
    app.step()
    assert screen.view.focus in playable  # the cursor never starts on a card that cannot be played
    seen = []
    for _ in range(len(playable)):
        key(app, pygame.K_RIGHT)
        seen.append(screen.view.focus)
    assert sorted(seen) == sorted(playable)  # ... and the arrows stop only on playable cards
    target = screen.view.focus
    ply = ctl.session.ply
    key(app, pygame.K_RETURN)
    assert ctl.session.ply == ply + 1 and ctl.session.moves[0][-1] == target


@pytest.mark.parametrize("size", [(800, 600), (1024, 640), (2560, 1440)])
def test_no_overlaps_on_any_table(app: Any, size: tuple[int, int]) -> None:
    from app.tour import advance

    app.resize(size)
    for game_name in registry.available():
        variant = {"players": 4} if game_name == "briscola" else {}
        screen = open_table(app, game_name, variant, seed=16)
        advance(screen.ctl.session, random.Random(16),
                lambda s: len(getattr(s, "history", [])) >= 6 and s.current_player == 0)
        screen.ctl.version += 1
        app.step()
        app.step()
        sprites = screen.scene.sprites
        hand = [s.rect for s in sprites if s.zone == "hand"]
        labels = screen.label_rects
        for sp in sprites:
            assert screen.lay.table.contains(sp.rect), (game_name, size, sp)
        for i, a in enumerate(labels):
            assert screen.lay.table.contains(a), (game_name, size, a)
            for b in labels[i + 1:]:
                assert not a.colliderect(b), (game_name, size, a, b)
            assert not any(a.colliderect(sp.rect) for sp in sprites), (game_name, size, a)
        others = [s.rect for s in sprites if s.zone != "hand"]
        assert not any(h.colliderect(o) for h in hand for o in others), (game_name, size)


def test_move_labels_are_readable(app: Any) -> None:
    from engine.games.pharaoh.rules import DRAW

    screen = open_table(app, "pharaoh", seed=17)
    i18n.set_language("it")
    assert screen.move_label(DRAW).startswith("Pesca ")
    i18n.set_language("en")
    assert screen.move_label(DRAW).startswith("Draw ")


def test_hearts_shows_the_passed_direction_and_the_received_cards(app: Any) -> None:
    from app.tour import advance

    screen = open_table(app, "hearts", {"passing": "left"}, seed=18)
    app.step()
    lines = screen.renderer.info_lines(screen.view)
    target = screen.ctl.state.pass_target(0)
    assert any(screen.ctl.seats[target].label in line for line in lines)
    advance(screen.ctl.session, random.Random(18), lambda s: not s.passing)
    screen.ctl.version += 1
    app.step()
    state = screen.ctl.state
    passer = next(s for s in range(4) if state.pass_target(s) == 0)
    assert screen.view.received == {c for c in range(52) if state.passed[passer] >> c & 1}
    marked = {s.card for s in screen.hand_sprites() if s.mark == "received"}
    assert marked and marked <= screen.view.received


def test_f11_toggles_full_screen_and_back(app: Any) -> None:
    screen = open_table(app, "sueca", seed=19)
    app.step()
    key(app, pygame.K_F11)
    assert app.fullscreen and app.settings.fullscreen
    assert screen.lay.width == app.size[0] and screen.lay.height == app.size[1]
    key(app, pygame.K_F11)
    assert not app.fullscreen and app.size == (1024, 640)


class FullDisk:
    """An autosave store whose disk is full."""

    def save(self, session: Any) -> None:
        raise OSError(28, "No space left on device")

    def exists(self) -> bool:
        return False

    def load(self) -> Any:
        raise OSError("nothing saved")

    def clear(self) -> None:
        pass


def test_autosave_failure_is_reported_and_play_goes_on(app: Any) -> None:
    from app.autosaver import BackgroundAutosave

    app._autosave = BackgroundAutosave(FullDisk())
    screen = open_table(app, "sueca", seed=20, humans=())
    ctl = screen.ctl
    for _ in range(40):
        app.step()
        app.autosave_store().flush()
        if any("Autosave failed" in n.text for n in ctl.notices):
            break
    assert any("No space left" in n.text for n in ctl.notices)
    assert ctl.session.ply >= 1


def test_killed_search_process_shows_a_message_and_the_game_continues(app: Any) -> None:
    import signal
    import time

    from engine.worker import MoveWorker

    app._worker = MoveWorker()
    screen = open_table(app, "sueca", seed=22, humans=())
    ctl = screen.ctl
    for seat in ctl.seats:
        seat.spec = "random"
    slow_seat = ctl.state.current_player
    ctl.seats[slow_seat].spec = "ismcts:iterations=100000000"
    killed = False
    for _ in range(3000):
        app.step()
        if not killed and ctl.thinking_seat() == slow_seat and app.worker.pid is not None:
            time.sleep(0.2)  # let the search start
            os.kill(app.worker.pid, signal.SIGKILL)
            killed = True
        if killed and ctl.session.ply >= 1:
            break
        time.sleep(0.005)
    assert killed and ctl.session.ply >= 1
    assert any("failed" in n.text for n in ctl.notices)
    start = ctl.match.game.state_from_json(ctl.session.meta["hand_start"]["state"])
    assert ctl.session.moves[0][0] in start.legal_moves()  # the fallback move was legal


def test_the_bottom_player_sees_its_own_tricks_in_a_trick_game(app: Any) -> None:
    """Opponents' tricks are under their names; the viewer's own count follows its name at the bottom
    (Moss Side Whist's leader needs 8 of 16), and it follows the state."""
    from app.tour import advance

    screen = open_table(app, "mosssidewhist", seed=21)
    advance(screen.ctl.session, random.Random(21),
            lambda s: sum(s.tricks_won) >= 2 and s.current_player == 0)
    screen.ctl.version += 1
    app.step()
    own = screen.ctl.state.tricks_won[0]
    texts = [label.text for label in screen.scene.labels]
    assert any(text.startswith("H0 ") and text.endswith(f"{own} trick" + ("" if own == 1 else "s"))
               for text in texts), texts
    scopone = open_table(app, "scopone", seed=21)
    app.step()
    assert not any("trick" in label.text for label in scopone.scene.labels)


def test_typing_in_the_settings_name_field_renames_the_player(app: Any) -> None:
    from app.screens.menu import MenuScreen
    from app.screens.settings import SettingsScreen

    app.reset_to(MenuScreen(app))
    app.push(SettingsScreen(app))
    app.step()
    field = app.top.widgets["player_name"]
    before = field.get_text()
    click(app, field.rect.center)
    for char in "Zé":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
        app.step()
    app.step()  # the field's change event arrives on the next frame
    assert field.get_text() != before
    assert app.settings.player_name == field.get_text()[:40] and "Zé" in app.settings.player_name


def test_the_replay_counts_moves_per_hand_and_holds_each_completed_trick(app: Any) -> None:
    from app.screens.statistics import ReplayScreen

    screen = open_table(app, "sueca", {"target": 0}, seed=13)
    play_hand(app, screen, seed=13)
    app.top.next()
    end = app.top
    assert end.name == "match_end" and end.record_id is not None
    app.push(ReplayScreen(app, end.record_id))
    replay = app.top
    app.step()
    assert replay.sidebar_lines()[2] == "Cards dealt" and replay.make_view().review_trick is None
    for ply in range(1, 5):
        key(app, pygame.K_RIGHT)
        assert replay.sidebar_lines()[2] == f"Move {ply} of 40"
        view = replay.make_view()
        if ply < 4:  # the trick is still on the table as it is being played
            assert view.review_trick is None and len(view.state.trick_plays()) == ply
    state = replay.steps[replay.index].state
    winner, plays = state.last_trick()
    assert not state.trick_plays()  # the table itself has been cleared
    assert view.review_trick == list(plays) and view.review_winner == winner
    won = f"{replay.record.seats[winner].label} wins the trick"
    assert any(line.startswith(won) for line in replay.sidebar_lines())
    key(app, pygame.K_RIGHT)  # the next trick's lead: the centre shows only that card
    assert replay.make_view().review_trick is None


def test_page_keys_jump_between_the_hands_of_a_replay(app: Any) -> None:
    from app.screens.statistics import ReplayScreen
    from saves.demo import demo_session, play_to_end
    from saves.records import RecordsDB

    session = demo_session(3, game="mosssidewhist")
    play_to_end(session)
    with RecordsDB() as db:
        record_id = db.record_game(session)
    app.push(ReplayScreen(app, record_id))
    replay = app.top
    app.step()
    starts = replay.hand_starts()
    assert len(starts) == len(session.moves) >= 2 and starts[0] == 0
    for start in starts[1:]:
        key(app, pygame.K_PAGEDOWN)
        assert replay.index == start and replay.sidebar_lines()[2] == "Cards dealt"
    key(app, pygame.K_PAGEDOWN)  # from the last deal: the end of the match
    assert replay.index == len(replay.steps) - 1 and replay.steps[-1].state.is_terminal()
    key(app, pygame.K_PAGEUP)  # back to the last hand's deal
    assert replay.index == starts[-1]
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_PAGEUP)  # from inside a hand: its own deal first
    assert replay.index == starts[-1]
    key(app, pygame.K_PAGEUP)
    assert replay.index == starts[-2]
