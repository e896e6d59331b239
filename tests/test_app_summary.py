"""Hand summaries a player can read (app/summaries.py, screens/summary.py) and readable variant options on the
New game screen, in every language (SDL dummy driver)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from app import i18n, summaries  # noqa: E402
from engine import registry  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLES = {lang: json.loads((ROOT / f"assets/i18n/{lang}.json").read_text(encoding="utf-8")) for lang in i18n.LANGUAGES}
NAMES = ["Ana", "Bruno", "Carla", "Dino", "Eva", "Filipe"]
INTERNAL_ROWS = ("hand team", "deck team", "sides", "primiera complete", "primiera total", "place of",
                 "finish turns", "moon rule", "pass direction", "points · cards", "total")
INTERNAL_WORDS = ("_", "True", "False", "None", "sides 0")


@pytest.fixture(autouse=True)
def english() -> Any:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def finished(game_name: str, variant: dict[str, Any] | None = None, seed: int = 5) -> tuple[Any, Any]:
    """A game and the result of one hand played with seeded random moves."""
    game = registry.create(game_name, variant or {})
    rng = random.Random(seed)
    state = game.new_hand(rng, 0)
    for _ in range(5000):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
    assert state.is_terminal()
    return game, state.result()


def rows_of(game: Any, result: Any) -> list[summaries.Row]:
    return summaries.hand_rows(game, result.breakdown, NAMES[:game.num_players], list(result.team_points))


def record_keys(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the summary builders pass to ``t`` (the translation keys they use)."""
    keys: list[str] = []
    real = i18n.t

    def spy(text: str, **kwargs: Any) -> str:
        keys.append(text)
        return real(text, **kwargs)

    monkeypatch.setattr(summaries, "t", spy)
    return keys


GAMES = [("scopone", {"napola": True, "re_bello": True, "scopa_a_perdere": True}), ("scopa", {}),
         ("sueca", {}), ("bisca", {"match": "points4"}), ("briscola", {"players": 4}), ("hearts", {}),
         ("hearts", {"jack_diamonds": True}), ("mosssidewhist", {}), ("pharaoh", {}),
         ("pharaoh", {"scoring": "penalty"})]


@pytest.mark.parametrize("game_name,variant", GAMES)
def test_every_summary_is_translated_and_shows_no_internal_keys(game_name: str, variant: dict[str, Any],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    game, result = finished(game_name, variant)
    kind = registry.entry(game_name).summary
    assert kind in summaries.BUILDERS
    keys = record_keys(monkeypatch)
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        rows = summaries.BUILDERS[kind](result.breakdown, summaries.Context(
            game, list(game.teams()), NAMES[:game.num_players], list(result.team_points)))
        texts = summaries.row_texts(rows, game.deck.suit_names)
        for text in texts:
            assert text.strip().lower() not in INTERNAL_ROWS, (lang, text)
            assert not any(word in text for word in INTERNAL_WORDS), (lang, text)
        for row in rows:
            assert row.style in ("row", "section", "total", "note")
            assert len(row.cells) in (0, 1, len(game.teams())), row
    assert keys
    for key in set(keys):
        for lang, table in TABLES.items():
            assert table.get(key, "").strip(), (lang, key)


def test_scopone_summary_names_every_category_and_the_teams_in_words() -> None:
    game, result = finished("scopone", {"napola": True, "re_bello": True})
    i18n.set_language("pt")
    rows = rows_of(game, result)
    labels = [r.label for r in rows]
    for english in ("Cards", "Coins", "Settebello (7 of Coins)", "Primiera (best card per suit)",
                    "Scope (sweeps)", "Napola (run of Coins from the Ace)", "Re bello (King of Coins)", "Points",
                    "Hand total"):
        assert TABLES["pt"][english] in labels
    assert "Cards" not in labels  # translated, not English
    primiera = next(r for r in rows if r.label == TABLES["pt"]["Primiera (best card per suit)"])
    for side, cell in enumerate(primiera.cells):
        suits = [p.index for p in cell if isinstance(p, summaries.Suit)]
        assert suits == [0, 1, 2, 3]
        assert cell[-1].endswith(str(result.breakdown["primiera_total"][side]))
    total = next(r for r in rows if r.style == "total")
    assert [c[0] for c in total.cells] == [str(v) for v in result.breakdown["total"]]
    hand, deck = result.breakdown["hand_team"], result.breakdown["deck_team"]
    teams = [" & ".join(NAMES[s] for s in team) for team in game.teams()]
    note = next(r.label for r in rows if r.style == "note" and teams[hand] in r.label)
    assert teams[deck] in note and "equipa de mão" in note


def test_scopa_summary_names_the_first_player_and_the_dealer_not_teams() -> None:
    game, result = finished("scopa")
    i18n.set_language("it")
    rows = rows_of(game, result)
    hand, deck = result.breakdown["hand_team"], result.breakdown["deck_team"]
    note = next(r.label for r in rows if r.style == "note" and NAMES[hand] in r.label)
    assert NAMES[deck] in note and "mazziere" in note
    assert "squadra" not in note


def test_scopone_variant_categories_only_when_the_variant_is_on() -> None:
    game, result = finished("scopone")
    labels = [r.label for r in rows_of(game, result)]
    assert not any("Napola" in x or "Re bello" in x for x in labels)
    assert "Scopa a perdere: the lower score wins." not in labels


def test_hearts_moon_and_sueca_bandeira_are_named() -> None:
    game = registry.create("hearts")
    breakdown = {"penalty": [26, 0, 0, 0], "points": [0, 26, 26, 26], "moon": 0, "moon_rule": "others",
                 "jack_of_diamonds": None, "queen_of_spades": 0, "hearts": [13, 0, 0, 0], "tricks": [13, 0, 0, 0],
                 "pass_direction": "left"}
    labels = [r.label for r in summaries.hand_rows(game, breakdown, NAMES[:4], [0, 26, 26, 26])]
    assert "Ana shot the moon!" in labels and "Everyone else scores 26." in labels
    assert "Cards were passed: to the left" in labels
    sueca = registry.create("sueca")
    breakdown = {"card_points": [120, 0], "game_points": [4, 0], "tricks": [10, 0], "trump": "Hearts",
                 "bandeira": True}
    i18n.set_language("pt")
    labels = [r.label for r in summaries.hand_rows(sueca, breakdown, NAMES[:4], [120, 0])]
    assert "Bandeira! Ana & Carla fizeram os 120 pontos." in labels and "Trunfo: Copas" in labels
    breakdown = {"card_points": [95, 25], "game_points": [2, 0], "tricks": [8, 2], "trump": "Hearts"}
    labels = [r.label for r in summaries.hand_rows(sueca, breakdown, NAMES[:4], [95, 25])]
    assert any(x.startswith("Capote! Ana & Carla") for x in labels)


def test_moss_side_whist_marks_the_leader() -> None:
    game, result = finished("mosssidewhist")
    rows = rows_of(game, result)
    lead = result.breakdown["leader"]
    role = next(r for r in rows if r.label == "Role")
    assert [c[0] for c in role.cells].count("Leader ★") == 1 and role.cells[lead][0] == "Leader ★"
    assert any(r.style == "note" and NAMES[lead] in r.label for r in rows)


def test_generic_fallback_is_readable() -> None:
    game = registry.create("sueca")
    breakdown = {"lucky_draws": True, "sides": [[0, 2], [1, 3]], "streak": [1, 2, 3], "best_seat": 0.5,
                 "per_team": [3, 4], "extra": {"bonus_cards": [1, 0]}}
    rows = summaries.generic(breakdown, summaries.Context(game, list(game.teams()), NAMES[:4], [1.0, 0.0]))
    texts = summaries.row_texts(rows)
    assert "Lucky draws" in texts and "yes" in texts and "1, 2, 3" in texts and "Bonus cards" in texts
    assert not any("sides" in x.lower() or "_" in x for x in texts)
    per_team = next(r for r in rows if r.label == "Per team")
    assert [c[0] for c in per_team.cells] == ["3", "4"]
    # An unknown game falls back to the generic rows; a broken breakdown of a known game too.
    assert summaries.hand_rows(game, {"trump": 5, "card_points": "x"}, NAMES[:4], [0.0, 0.0])


def test_boolean_options_show_on_off_and_choices_read_naturally() -> None:
    option = next(o for o in registry.game_class("sueca").options if o.name == "redeal")
    expected = {"en": ("On", "Off"), "pt": ("Ligado", "Desligado")}
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        shown = [i18n.option_value(v) for v in i18n.option_value_texts(option)]
        assert "True" not in shown and "False" not in shown
        assert shown == [TABLES[lang]["On"], TABLES[lang]["Off"]]
        if lang in expected:
            assert tuple(shown) == expected[lang]
    i18n.set_language("en")
    assert i18n.option_value("counterclockwise") == "counter-clockwise"
    assert i18n.option_value("best3") == "best of 3 hands"
    # Within one option, every value reads differently (the drop-down maps the text back to the value).
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        for name in registry.names():
            for opt in registry.game_class(name).options:
                shown = [i18n.option_value(v) for v in i18n.option_value_texts(opt)]
                assert len(set(shown)) == len(shown), (lang, name, opt.name, shown)
                assert not any("_" in s for s in shown), (lang, name, opt.name, shown)


def test_new_game_boolean_drop_down_sets_the_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    from app.main import App
    from app.screens.new_game import NewGameScreen
    from app.workers import ThreadWorker

    app = App((1024, 640), headless=True, worker_factory=ThreadWorker)
    try:
        app.set_language("pt")
        app.push(NewGameScreen(app, "sueca"))
        app.step()
        screen = app.top
        redeal = screen.widgets[("opt", "redeal")]
        assert redeal.selected_option[0] == "Desligado"
        pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=redeal,
                                             text="Ligado"))
        app.step()
        assert screen.game().variant["redeal"] is True
        assert screen.widgets[("opt", "direction")].selected_option[0] == "sentido anti-horário"
    finally:
        app.shutdown()


def test_summary_screen_draws_the_per_game_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    from app import text as txt
    from app.controller import Controller
    from app.main import App
    from app.screens.new_game import new_session
    from app.screens.table import TableScreen
    from app.tour import advance
    from app.workers import ThreadWorker
    from saves.session import Seat

    drawn: list[str] = []
    real = txt.render

    def spy(text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(text, *args, **kwargs)

    spy.cache_clear = real.cache_clear  # type: ignore[attr-defined]
    monkeypatch.setattr(txt, "render", spy)
    app = App((1024, 640), headless=True, worker_factory=ThreadWorker)
    try:
        app.settings.animation_speed = 0
        app.set_language("it")
        game = registry.create("scopone", {"target": 0})
        seats = [Seat("human", "Ana")] + [Seat("ai", n, "random", "casual") for n in ("Bruno", "Carla", "Dino")]
        session = new_session(game, seats, 3)
        advance(session, random.Random(3), lambda s: False)
        ctl = Controller(session, min_delay_ms=0, worker=app.worker, autosave=None)
        app.reset_to(TableScreen(app, ctl))
        ctl._finish_hand()
        for _ in range(3):
            app.step()
        assert app.top.name == "summary"
        drawn.clear()
        app.step()
        for text in ("Preso nella mano", "Settebello (7 di denari)", "Totale della mano", "Totale della partita"):
            assert text in drawn, text
        assert not any(word in x for x in drawn for word in ("hand team", "deck team", "primiera complete"))
        panel = app.top.panel
        assert app.surface.get_rect().contains(panel)
    finally:
        app.shutdown()


def test_option_texts_shown_to_players_cite_no_design_documents() -> None:
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        for name in registry.names():
            for opt in registry.game_class(name).options:
                shown = [i18n.option_name(opt), i18n.option_help(opt)]
                assert not any("seeds" in s or "_" in s for s in shown), (lang, name, opt.name, shown)
                assert all(s.strip() for s in shown)
    i18n.set_language("en")
    jack = next(o for o in registry.game_class("hearts").options if o.name == "jack_diamonds")
    assert i18n.option_name(jack) == "Jack of Diamonds"


def test_replay_moves_read_as_sentences() -> None:
    from app.screens.statistics import replay_move_text

    game = registry.create("scopone")
    rng = random.Random(2)
    state = game.new_hand(rng, 0)
    capture = None
    for _ in range(40):
        moves = state.legal_moves()
        capture = next((m for m in moves if m >> 6), None)
        if capture is not None:
            break
        state.apply(rng.choice(moves))
    assert capture is not None
    text = replay_move_text(state, capture, "Ana", state.move_text(capture))
    assert text.startswith("Ana plays ") and " and takes " in text and " of " in text
    hearts = registry.create("hearts")
    state = hearts.new_hand(random.Random(1), 0)
    move = next(m for m in state.legal_moves())
    i18n.set_language("pt")
    assert replay_move_text(state, move, "Ana", state.move_text(move)).startswith("Ana passa ")
    assert replay_move_text(None, move, "Ana", "pass 2C") == "Ana: pass 2C"


def test_last_trick_button_only_in_trick_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    from app.controller import Controller
    from app.main import App
    from app.screens.new_game import new_session
    from app.screens.table import TableScreen
    from app.workers import ThreadWorker
    from saves.session import Seat

    app = App((1024, 640), headless=True, worker_factory=ThreadWorker)
    try:
        for name, has_review in (("sueca", True), ("pharaoh", False), ("scopone", False)):
            game = registry.create(name)
            seats = [Seat("human", "Ana")] + [Seat("ai", f"AI{i}", "random", "casual")
                                              for i in range(1, game.num_players)]
            ctl = Controller(new_session(game, seats, 1), min_delay_ms=0, worker=app.worker, autosave=None)
            screen = TableScreen(app, ctl)
            app.reset_to(screen)
            app.step()
            assert ("review" in screen.buttons) is has_review, name
            ctl.close()
    finally:
        app.shutdown()
