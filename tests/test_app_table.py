"""The table tells the player everything: the real app loop (SDL dummy driver) driven by synthetic keyboard and mouse
events through whole hands by keyboard only, choices with many options, the Hearts pass confirmed by Enter, the menu's
Esc, the turned-up trump shown only while it lies on the table, the action log, and every card, hint and illegal-move
reason in the player's language."""

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
import pytest  # noqa: E402

from app import describe, i18n  # noqa: E402
from app import moves as movelib  # noqa: E402
from app.workers import ThreadWorker  # noqa: E402
from engine import registry  # noqa: E402
from engine.game import IllegalMove  # noqa: E402
from saves.session import Seat  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"\b(?:10|[2-9TJQKAXUOH])[CDHSLBA]\b")
"""A card in engine notation ("QS", "2C", "XL"): never shown to a player."""


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    from app.main import App

    application = App((800, 600), headless=True, worker_factory=ThreadWorker)
    application.settings.animation_speed = 0
    i18n.set_language("en")
    yield application
    application.shutdown()
    i18n.set_language("en")


def open_table(app: Any, game_name: str, seed: int = 1, stop: Any = None, humans: tuple[int, ...] = (0,),
               variant: dict[str, Any] | None = None) -> Any:
    """A table with random AIs, advanced by random moves until ``stop(state)`` (the hand's start recorded)."""
    from app.controller import Controller
    from app.screens.new_game import new_session
    from app.screens.table import TableScreen
    from app.tour import advance

    game = registry.create(game_name, variant or {})
    seats = [Seat("human", f"H{i}") if i in humans else Seat("ai", f"AI{i}", "random", "casual")
             for i in range(game.num_players)]
    session = new_session(game, seats, seed)
    session.meta["hand_start"] = {"hand": 0, "state": session.match.state.to_json()}
    if stop is not None:
        advance(session, random.Random(seed), stop)
    ctl = Controller(session, min_delay_ms=0, trick_pause_ms=0, worker=app.worker, autosave=None)
    screen = TableScreen(app, ctl)
    app.reset_to(screen)
    ctl.trick_pause_ms = ctl.min_delay_ms = 0  # the screen set them from the settings
    app.step()
    return screen


def key(app: Any, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
    app.step()


def click(app: Any, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.step()


def many_moves_card(state: Any, at_least: int) -> int | None:
    by_card, _ = movelib.group_by_card(state, state.legal_moves())
    return next((card for card, moves in by_card.items() if len(moves) >= at_least), None)


# --- the keyboard ---------------------------------------------------------------------------------------------
def keyboard_turn(app: Any, screen: Any) -> None:
    """One human action made with keys only."""
    ctl = screen.ctl
    if ctl.privacy_for is not None:
        key(app, pygame.K_RETURN)
        return
    if screen.choice is not None:
        key(app, pygame.K_RETURN)  # the line under the cursor
        return
    if screen.pass_mode():
        if len(screen.selected) == screen.pass_needed():
            key(app, pygame.K_RETURN)  # Enter confirms a complete pass
            return
        focus = screen.view.focus
        if focus in screen.selected:
            key(app, pygame.K_RIGHT)
            return
        key(app, pygame.K_SPACE)  # select the card under the cursor
        return
    by_card, other = movelib.group_by_card(ctl.state, ctl.state.legal_moves())
    if not by_card:
        assert len(other) == 1, "a card-less choice that D cannot make"
        key(app, pygame.K_d)
        return
    assert screen.view.focus in by_card, "the cursor rests on a card that cannot be played"
    key(app, pygame.K_RETURN)


@pytest.mark.parametrize("game_name", registry.names())
def test_a_whole_hand_by_keyboard_only(app: Any, game_name: str) -> None:
    screen = open_table(app, game_name, seed=3)
    ctl = screen.ctl
    for _ in range(4000):
        if ctl.hand_over:
            break
        if ctl.human_to_move() and app.top is screen:
            ply = ctl.session.ply
            keyboard_turn(app, screen)
            assert not [n for n in ctl.notices if n.error], [n.text for n in ctl.notices]
            if screen.choice is None and not screen.pass_mode():
                assert ctl.session.ply >= ply
        else:
            app.step()
    assert ctl.hand_over
    for _ in range(3):
        app.step()
    assert app.top.name == "summary"
    key(app, pygame.K_ESCAPE)  # Esc on the hand summary: back to the finished table
    assert app.top is screen and screen.looking_at_end
    key(app, pygame.K_RETURN)
    assert app.top.name == "summary"


def test_hearts_pass_confirmed_by_enter_and_hint_names_all_three_cards(app: Any) -> None:
    screen = open_table(app, "hearts", seed=4)
    ctl = screen.ctl
    assert screen.pass_mode() and screen.pass_needed() == 3
    assert "(Enter)" in screen.buttons["confirm_pass"].text
    ctl.hint_spec = "random"
    key(app, pygame.K_h)
    for _ in range(200):
        app.step()
        if len(ctl.hint_moves) == 3 and not ctl.hint_pending():
            break
    assert len(ctl.hint_moves) == 3 and all(ctl.state.is_pass_move(m) for m in ctl.hint_moves)
    hint = next(n.text for n in ctl.notices if n.hint)
    assert not CODE.search(hint), hint
    assert hint.count("+") == 2
    hinted = [movelib.move_cards(ctl.state, m)[0] for m in ctl.hint_moves]
    app.step()
    assert screen.view.focus == hinted[0]  # H moved the cursor to the hinted card
    for _ in range(3):
        key(app, pygame.K_SPACE)
        key(app, pygame.K_RIGHT)
    assert len(screen.selected) == 3
    ply = ctl.session.ply
    key(app, pygame.K_RETURN)
    assert ctl.session.ply == ply + 3 and not screen.selected
    assert not [n for n in ctl.notices if n.hint]  # the hint leaves with the move


def test_a_choice_of_eight_options_shows_every_option_whole(app: Any) -> None:
    for seed in range(1, 60):
        screen = open_table(app, "pharaoh", seed=seed,
                            stop=lambda s: s.current_player == 0 and many_moves_card(s, 8) is not None)
        card = many_moves_card(screen.ctl.state, 8)
        if card is not None:
            break
    else:
        pytest.fail("no Pharaoh position with a card of eight moves")
    ctl = screen.ctl
    for size in ((800, 600), (2560, 1440)):
        app.resize(size)
        app.step()
        screen.click_hand_card(card)
        app.step()
        cells = screen.choice_cells()
        assert len(cells) == len(screen.choice.candidates) >= 8
        window = pygame.Rect(0, 0, *size)
        for i, cell in enumerate(cells):
            assert window.contains(cell.rect)
            assert cell.cards or cell.text
            assert not any(cell.rect.colliderect(other.rect) for other in cells[i + 1:])
        screen.choice = None
    screen.click_hand_card(card)
    eighth = screen.choice.candidates[7]
    ply = ctl.session.ply
    key(app, pygame.K_8)
    assert ctl.session.ply == ply + 1 and ctl.session.moves[0][-1] == eighth


def test_esc_on_the_menu_asks_first(app: Any) -> None:
    from app.screens.menu import MenuScreen

    app.reset_to(MenuScreen(app))
    app.step()
    key(app, pygame.K_ESCAPE)
    assert app.running and app.top.asking_quit and "quit_yes" in app.top.buttons
    key(app, pygame.K_ESCAPE)
    assert app.running and not app.top.asking_quit
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_RETURN)
    assert not app.running


def trump_sprites(screen: Any) -> list[Any]:
    return [sp for sp in screen.scene.sprites if sp.zone == "trump"]


def test_the_turned_trump_is_drawn_only_while_it_lies_on_the_table(app: Any) -> None:
    screen = open_table(app, "sueca", seed=5, humans=())
    ctl = screen.ctl
    state = ctl.state
    dealer, trump = state.dealer, state.turned_trump()
    assert trump is not None and [sp.card for sp in trump_sprites(screen)] == [trump]
    while state.turned_trump() is not None:
        app.step()
        ctl.hold_until = 0
    app.step()
    assert trump_sprites(screen) == []  # played: no longer drawn as the turned card
    assert any(lab.text.startswith("Trump") for lab in screen.scene.labels)  # the suit marker instead
    assert dealer == state.dealer
    screen = open_table(app, "bisca", seed=5, humans=())
    ctl = screen.ctl
    seen_under_stock = False
    for _ in range(3000):
        if ctl.hand_over:
            break
        app.step()
        turned = ctl.state.turned_trump()
        cards = [sp.card for sp in trump_sprites(screen)]
        assert cards == ([turned] if turned is not None else [])
        seen_under_stock |= turned is not None
    assert seen_under_stock and ctl.state.turned_trump() is None


def test_the_action_log_records_every_move_and_trick(app: Any) -> None:
    screen = open_table(app, "sueca", seed=6, stop=lambda s: len(s.history) >= 9)
    ctl = screen.ctl
    plays = [e for e in ctl.log if e.kind == "play"]
    tricks = [e for e in ctl.log if e.kind == "trick"]
    assert len(plays) == 9 and len(tricks) == 2
    assert tricks[-1].seat == ctl.state.last_trick()[0]
    key(app, pygame.K_l)
    assert screen.show_log
    lines = [text for text, _ in screen.log_lines()]
    assert any("wins the trick" in line for line in lines) and not any(CODE.search(line) for line in lines)
    key(app, pygame.K_ESCAPE)
    assert not screen.show_log and app.top is screen


@pytest.mark.parametrize("lang", ["pt", "it", "sk"])
def test_cards_hints_and_reasons_read_in_the_players_language(lang: str) -> None:
    i18n.set_language(lang)
    try:
        for game_name in registry.names():
            game = registry.create(game_name)
            state = game.new_hand(random.Random(2), dealer=game.num_players - 1)
            rng = random.Random(2)
            for _ in range(40):
                if state.is_terminal():
                    break
                moves = state.legal_moves()
                text = describe.hint_text(state, moves[:1])
                assert text and not CODE.search(text), (game_name, text)
                hand = getattr(state, "hands", [0])[state.current_player]
                for card in range(game.deck.size):
                    if isinstance(hand, int) and hand >> card & 1 and card not in movelib.group_by_card(
                            state, moves)[0]:
                        reason, shown = describe.card_reason(state, card)
                        if reason:
                            assert reason.code in describe.REASON_TEMPLATES, (game_name, reason)
                            assert shown != reason.text, (game_name, reason)
                            assert not CODE.search(shown), (game_name, shown)
                state.apply(rng.choice(moves))
    finally:
        i18n.set_language("en")


def test_every_reason_template_is_translated() -> None:
    tables = {lang: json.loads((ROOT / f"assets/i18n/{lang}.json").read_text(encoding="utf-8"))
              for lang in ("en", "pt", "it", "sk")}
    fields = re.compile(r"{(\w+)}")
    for template, _ in describe.REASON_TEMPLATES.values():
        for lang, table in tables.items():
            assert template in table, (lang, template)
            assert sorted(fields.findall(table[template])) == sorted(fields.findall(template)), (lang, template)


@pytest.mark.parametrize("name", registry.names())
def test_every_illegal_code_a_game_can_give_is_translated(name: str) -> None:
    """Each code of the game's illegal_codes has a template, every field it names is filled in each language,
    and the fields the engine gives (suits, cards) come out as names, not codes."""
    game = registry.create(name)
    state = game.new_hand(random.Random(0), dealer=0)
    codes = type(state).illegal_codes
    assert codes and codes <= set(describe.REASON_TEMPLATES), codes - set(describe.REASON_TEMPLATES)
    deck = game.deck
    sample = {"suit": 0, "card": 0, "cards": (0, 1), "example": (1,), "n": 3, "seat": 1, "total": 9, "value": 7}
    try:
        for lang in ("en", "pt", "it", "sk"):
            i18n.set_language(lang)
            for code in codes:
                shown = describe.reason_text(IllegalMove(code, "English", dict(sample)), deck, 0)
                assert shown != "English" and "{" not in shown and not CODE.search(shown), (lang, code, shown)
    finally:
        i18n.set_language("en")


def test_unknown_reason_code_falls_back_to_the_english_text() -> None:
    game = registry.create("sueca")
    assert describe.reason_text(IllegalMove("new_rule", "a brand new rule"), game.deck) == "a brand new rule"


def test_court_index_letters_follow_the_language() -> None:
    from app.art import index_letters

    i18n.set_language("it")
    try:
        assert index_letters("italian40") == {"J": "F", "H": "C", "K": "R"}
    finally:
        i18n.set_language("en")
    assert index_letters("italian40") == {"J": "J", "H": "H", "K": "K"}


def test_play_again_is_a_rematch_with_the_same_seats(app: Any) -> None:
    app.settings.survey = "off"
    screen = open_table(app, "scopa", seed=8, humans=(), variant={"target": 0})
    ctl = screen.ctl
    for _ in range(3000):
        if app.top is not screen:
            break
        app.step()
    assert app.top.name == "summary" and ctl.match_over
    key(app, pygame.K_RETURN)
    assert app.top.name == "match_end" and "(Enter)" in app.top.buttons["again"].text
    key(app, pygame.K_RETURN)
    table = app.top
    assert table.name == "table" and table.ctl is not ctl and table.ctl.session.ply == 0
    assert table.game.name == "scopa" and table.game.variant == ctl.match.game.variant
    assert [(s.kind, s.name) for s in table.ctl.seats] == [(s.kind, s.name) for s in ctl.seats]


def test_a_still_table_is_not_drawn_again(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    screen = open_table(app, "hearts", seed=9)
    ctl = screen.ctl
    ctl.notices.clear()
    for _ in range(60):  # the card faces are prepared a few per frame
        app.step()
    assert ctl.human_to_move() and not screen.changing()
    drawn: list[int] = []
    monkeypatch.setattr(app, "draw", lambda: drawn.append(1))
    for _ in range(5):
        app.step(redraw=False)
    assert drawn == []
    key(app, pygame.K_RIGHT)  # an event: drawn (tests' step() always draws)
    drawn.clear()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode=""))
    app.step(redraw=False)
    assert drawn == [1]


def test_enter_starts_the_game_right_after_a_drop_down_pick(app: Any) -> None:
    import pygame_gui

    from app import navigation
    from app.i18n import t

    app.reset_to(navigation.make(app, "menu"))
    key(app, pygame.K_n)
    setup = app.top
    assert setup.name == "new_game"
    kind = setup.widgets[("kind", 1)]
    kind.focus()  # as after a click on the drop-down
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=kind,
                                         text=t("AI: {level}", level=t("beginner"))))
    app.step()
    assert setup.seats[1].preset == "beginner"
    key(app, pygame.K_RETURN)
    assert app.top.name == "table" and app.top.ctl.seats[1].preset == "beginner"


def test_log_says_what_a_trick_brought_and_how_many_cards_a_draw_took() -> None:
    game = registry.create("sueca")
    state = game.new_hand(random.Random(5), dealer=3)
    rng = random.Random(2)
    won = None
    while won is None:
        trick, points = state.last_trick(), state.running_points()
        state.apply(rng.choice(state.legal_moves()))
        won = describe.trick_entry(trick, points, state)
    winner, plays = state.last_trick()
    total = sum(game.card_points[c] for _, c in plays)
    assert won.seat == winner and won.points == total
    names = ["Ana", "Bruno", "Carla", "Dario"]
    expected = f"{names[winner]} wins the trick: " + ("1 point" if total == 1 else f"{total} points")
    assert describe.entry_text(won, game.deck, names, None) == expected
    pharaoh = registry.create("pharaoh")
    state = pharaoh.new_hand(random.Random(1), dealer=0)
    for _ in range(400):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        draws = [m for m in moves if state.draw_count(m)]
        if draws and state.draw_count(draws[0]) > 1:
            entry = describe.log_entry(state, draws[0])
            assert entry.kind == "draw" and entry.count == state.draw_count(draws[0]) > 1
            break
        state.apply(rng.choice(moves))
    else:
        pytest.fail("no VII penalty draw in 400 moves")


def test_hearts_sidebar_shows_running_penalty_points_and_received_cards() -> None:
    from app.screens.table import TableScreen
    from app.tables.base import View

    game = registry.create("hearts", {"passing": "left"})
    state = game.new_hand(random.Random(4), dealer=0)
    while state.passing:
        state.apply(state.legal_moves()[0])
    passer, cards = state.received_pass(0)
    view = View(state=state, viewer=0, bottom=0, counts=[13] * 4, names=["You", "Bruno", "Carla", "Dario"], current=0)
    TableScreen.add_received(view, state, state.observation(0))
    assert view.received_from == passer == 3 and view.received == set(cards)
    rng = random.Random(3)
    while not any(state.running_points()) and not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    from app.tables.trick import TrickRenderer
    view = View(state=state, viewer=0, bottom=0, counts=[13] * 4, names=["You", "Bruno", "Carla", "Dario"], current=0)
    lines = TrickRenderer(game, None).info_lines(view)
    points = state.running_points()
    assert any(line.startswith("Points this hand: ") and f"You {points[0]:g}" in line for line in lines), lines


def test_default_seat_names_follow_the_current_language() -> None:
    """A game started in Italian shows "You"/"Player 2" in English once the language changes, and back."""
    from app.screens.new_game import seat_name as new_seat_name

    try:
        i18n.set_language("it")
        started = [i18n.t("You"), new_seat_name("", 1, True), "Ana"]
        assert started == ["Tu", "Giocatore 2", "Ana"]
        i18n.set_language("en")
        assert [describe.seat_name(n) for n in started] == ["You", "Player 2", "Ana"]
        i18n.set_language("sk")
        assert [describe.seat_name(n) for n in started] == ["Vy", "Hráč 2", "Ana"]
        assert new_seat_name("Tu", 0, True) == "Hráč 1"  # a hotseat's default "You" of any language
    finally:
        i18n.set_language("en")


def test_the_match_result_names_one_winner_several_or_a_draw() -> None:
    try:
        i18n.set_language("pt")
        one = describe.winners_line(["You"])  # a default name stored in English reads in Portuguese
        assert one == "Vencedor: Você", one
        assert describe.winners_line(["Ana", "Carla"]) == "Vencedores: Ana & Carla"
        assert describe.winners_line([]) == i18n.t("The match is drawn.") != "The match is drawn."
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("name", ["pharaoh", "scopone"])
def test_an_open_choice_hides_no_seat_and_no_plates_overlap(app: Any, name: str) -> None:
    """At 800x600 the choice grid covers no seat's cards, name plate or pile, and no two name plates or banners
    (Pharaoh's pending VII/Ace, the named suit) overlap."""
    from app.tables.base import label_rect

    for seed in range(3, 40):
        screen = open_table(app, name, seed=seed,
                            stop=lambda s: s.current_player == 0 and many_moves_card(s, 2) is not None)
        card = many_moves_card(screen.ctl.state, 2)
        if card is not None:
            break
    else:
        pytest.fail(f"no {name} position with a choice")
    app.step()
    screen.click_hand_card(card)
    app.step()
    cells = screen.choice_cells()
    assert len(cells) >= 2
    scene = screen.scene
    seats = [sp.rect for sp in scene.sprites if sp.zone in ("opp", "open", "hand", "pile")]
    seats += [label_rect(lab) for lab in scene.labels]
    for cell in cells:
        assert cell.rect.collidelist(seats) < 0, cell.text


def test_pharaoh_pending_banner_leaves_the_seat_plates_free(app: Any) -> None:
    from app.tables.base import label_rect

    for seed in range(1, 60):
        screen = open_table(app, "pharaoh", seed=seed,
                            stop=lambda s: s.current_player == 0 and any(s.penalty_pending()))
        if any(screen.ctl.state.penalty_pending()):
            break
    else:
        pytest.fail("no Pharaoh position with a pending VII or Ace")
    app.set_language("it")  # the longest banner and dealer mark
    for size in ((800, 600), (1024, 640), (2560, 1440)):
        app.resize(size)
        app.step()
        plates = [label_rect(lab) for lab in screen.scene.labels if lab.plate or lab.highlight]
        assert any(lab.text.startswith(("Asso in sospeso", "VII in sospeso"))
                   for lab in screen.scene.labels), [lab.text for lab in screen.scene.labels]
        for i, r in enumerate(plates):
            assert r.collidelist(plates[i + 1:]) < 0
