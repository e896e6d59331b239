"""Hotseat passing: a player who passes several cards (Hearts) keeps their hand shown until the whole pass is
made, and it is hidden before the next player is asked for the device."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    from app.main import App
    from app.workers import ThreadWorker

    application = App((800, 600), headless=True, worker_factory=ThreadWorker)
    application.settings.animation_speed = 0
    yield application
    application.shutdown()


def test_a_hotseat_player_passes_all_three_cards(app: Any) -> None:
    from app.controller import Controller
    from app.screens.table import TableScreen
    from engine import registry
    from saves.session import GameSession, Seat

    game = registry.create("hearts", {})
    seats = [Seat("human", "A"), Seat("human", "B"), Seat("ai", "C", "random", ""), Seat("ai", "D", "random", "")]
    session = GameSession.start(game, seats, 3)
    ctl = Controller(session, min_delay_ms=0, worker=app.worker, autosave=None)
    screen = TableScreen(app, ctl)
    app.reset_to(screen)
    app.step()
    assert ctl.privacy_for == 0 and ctl.viewer is None
    ctl.confirm_privacy()
    app.step()
    assert screen.pass_mode() and screen.pass_needed() == 3
    hand = [c for c in range(game.deck.size) if ctl.state.hands[0] >> c & 1]
    screen.selected = hand[:3]
    screen.confirm_pass()
    assert session.ply == 3 and not [n for n in ctl.notices if n.error]
    assert ctl.viewer is None and ctl.last_viewer == 0  # hidden once the pass is made
    app.step()
    assert ctl.privacy_for == 1  # the device goes to the next player
