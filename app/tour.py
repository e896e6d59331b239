"""``python -m app --tour DIR``: drive the app through every screen and write a PNG of each.

Works with ``SDL_VIDEODRIVER=dummy``. Writes ``DIR/<size>-<lang>-<screen>.png`` for three window sizes (the
smallest the app allows, 800x600, up to 2560x1440) and every language, with an action-log screen of each table
kind (``...-log_<kind>.png``), and ``DIR/tour.json``::

    {"screens": [...], "clipped": [...], "frame_ms_while_ai_thinks": {"p50", "p95", "max"}, "startup_s": x}

``clipped`` lists every drawn text that did not fit its box (``app.text.clipped``): screen, size, language, text.

Frame times are the work time of each frame (events, update, draw) at 1280x800 while an AI searches in the
background worker; ``startup_s`` is the wall time of a fresh ``python -m app --startup-probe`` process from
launch to the first drawn menu frame.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app.resources import app_command
from saves.examples import example_path

SIZES: tuple[tuple[int, int], ...] = ((800, 600), (1024, 640), (2560, 1440))
LANGS: tuple[str, ...] = ("en", "pt", "it", "sk")
PERF_SIZE = (1280, 800)
EXAMPLE_STUDY = example_path("study.json")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(q * (len(v) - 1)))))
    return round(v[k], 3)


def advance(session: Any, rng: random.Random, stop: Any, limit: int = 500) -> None:
    """Apply random legal moves (recorded) until ``stop(state)`` is true or the hand ends."""
    state = session.match.state
    for _ in range(limit):
        if state.is_terminal() or stop(state):
            return
        move = rng.choice(state.legal_moves())
        state.apply(move)
        session.record_move(move)


class Tour:
    """Drives the app through every screen and collects the screenshots."""
    def __init__(self, out: Path) -> None:
        self.out = out
        self.screens: list[str] = []
        self.app: Any = None
        self.prefix = ""
        self.size = ""
        self.lang = ""
        self.clipped: list[dict[str, Any]] = []

    def shot(self, name: str, frames: int = 2) -> None:
        """Draw a couple of frames and save the window as a PNG."""
        import pygame

        from app import text

        for _ in range(frames):
            self.app.step()
        file = f"{self.prefix}-{name}.png"
        pygame.image.save(self.app.surface, str(self.out / file))
        self.screens.append(file)
        seen = {(c["screen"], c["text"]) for c in self.clipped}
        for content, room, needed in text.clipped or []:
            if (name, content) not in seen:
                seen.add((name, content))
                self.clipped.append({"screen": name, "size": self.size, "language": self.lang, "text": content,
                                     "room_px": room, "needed_px": needed})
        text.clipped = []

    def table(self, game_name: str, variant: dict[str, Any] | None = None, humans: int = 1, seed: int = 7,
              stop: Any = None) -> Any:
        """Open a table for ``game_name`` advanced by random moves to a position where a human moves."""
        from app.controller import Controller
        from app.screens.table import TableScreen
        from app.sessions import new_session
        from engine import registry
        from saves.session import Seat

        game = registry.create(game_name, variant or {})
        seats = [Seat("human" if i < humans else "ai", name, "random", "" if i < humans else "casual")
                 for i, name in enumerate(("Ana", "Bruno", "Carla", "Dino", "Eva", "Filipe")[:game.num_players])]
        if humans == 2 and game.num_players >= 2:
            seats[2 % game.num_players] = Seat("human", seats[2 % game.num_players].name)
            seats[1] = Seat("ai", seats[1].name, "random", "casual")
        session = new_session(game, seats, seed)
        session.meta["hand_start"] = {"hand": 0, "state": session.match.state.to_json()}  # as a real game has
        rng = random.Random(seed)
        if stop is not None:
            advance(session, rng, stop)
        ctl = Controller(session, min_delay_ms=0, worker=self.app.worker, autosave=None)
        screen = TableScreen(self.app, ctl)
        self.app.reset_to(screen)
        return screen

    def run_screens(self) -> None:
        """Visit every screen at the current size and language: each registered game's table mid-hand, its
        passing or card choice where it has one, its hand summary, then the screens shared by all games."""
        from app.screens.menu import MenuScreen
        from app.screens.new_game import NewGameScreen
        from app.screens.rules import RulesScreen
        from app.screens.settings import SettingsScreen
        from app.screens.statistics import StatisticsScreen
        from engine import registry

        app = self.app
        entries = registry.entries()
        app.reset_to(MenuScreen(app))
        self.shot("menu")
        app.push(NewGameScreen(app, entries[0].name))
        self.shot("new_game")
        app.push(SettingsScreen(app))
        self.shot("settings")
        app.reset_to(RulesScreen(app, entries[0].name))
        self.shot("rules")
        self.run_online()
        reviewed = False
        logged: set[str] = set()
        for entry in entries:
            name = entry.name
            scr = self.table(name, stop=lambda s: len(getattr(s, "history", [])) >= 6 and s.current_player == 0)
            self.shot(f"table_{name}")
            if entry.table not in logged:
                logged.add(entry.table)
                scr = self.table(name, stop=lambda s: len(getattr(s, "history", [])) >= 24 and s.current_player == 0)
                scr.show_log = True
                self.shot(f"log_{entry.table}")
                scr.show_log = False
            if not reviewed and scr.ctl.last_trick is not None:
                scr.review = True
                self.shot("last_trick")
                scr.review = False
                reviewed = True
            scr = self.table(name, stop=lambda s: s.current_player == 0 and _passing(s))
            if _passing(scr.ctl.state):
                scr.selected = [c for m in scr.ctl.state.legal_moves()[:2] for c in scr.ctl.state.move_cards(m)]
                self.shot(f"{name}_passing")
            for seed in range(3, 30):
                scr = self.table(name, seed=seed, stop=lambda s: s.current_player == 0 and _choice_card(s) is not None)
                card = _choice_card(scr.ctl.state)
                if card is not None:
                    scr.click_hand_card(card)
                    self.shot(f"{name}_choice")
                    break
        # Hotseat privacy screen.
        many = next(e.name for e in entries if registry.create(e.name).num_players >= 3)
        scr = self.table(many, humans=2, stop=lambda s: len(getattr(s, "history", [])) >= 2 and s.current_player == 2)
        scr.ctl.viewer = 0
        self.shot("privacy")
        # Hand summaries, then the match end of the first match that is over.
        ended = False
        for entry in entries:
            scr = self.table(entry.name, _short_match(entry.name), stop=lambda s: False)
            advance(scr.ctl.session, random.Random(5), lambda s: False, limit=5000)
            scr.ctl._finish_hand()
            for _ in range(3):
                app.step()
            self.shot(f"summary_{entry.name}")
            summary = app.top
            if not ended and summary.name == "summary" and scr.ctl.match_over:
                ended = True
                summary.next()
                self.shot("match_end")
                from app.screens.survey import SurveyScreen

                end = app.top
                app.replace(SurveyScreen(app, end.ctl.session, end.record_id))
                self.shot("survey")
        app.reset_to(StatisticsScreen(app))
        self.shot("statistics")
        screen = app.top
        ids = [k[1] for k in screen.widgets if isinstance(k, tuple)]
        if ids:
            from app.screens.statistics import ReplayScreen

            app.push(ReplayScreen(app, ids[0]))
            app.top.go(12)
            self.shot("replay")
        self.run_study()

    def wait(self, done: Any, frames: int = 1500) -> None:
        """Step the app until ``done()`` (network threads answer in real time), at most ``frames`` frames."""
        for _ in range(frames):
            if done():
                return
            self.app.step()
            time.sleep(0.005)

    def run_online(self) -> None:
        """About, Play online (with a table found on the network), the host's lobby (two players at the host's
        screen, one joined from another computer, an AI), that player's lobby and their network table, the host's
        shared screen, then Play online offering to resume the hosted table and the resumed table with its log and
        the turn of the player who is away (host and player on 127.0.0.1 in this process)."""
        from app.netplay import HostedTable, JoinedTable, host_autosave
        from app.screens import online
        from app.screens.credits import CreditsScreen

        app = self.app
        app.reset_to(CreditsScreen(app))
        self.shot("credits")
        browse, online.BROWSE = online.BROWSE, False
        try:
            screen = online.OnlineScreen(app)
        finally:
            online.BROWSE = browse
        screen.found = [{"address": "ws://192.168.1.20:45085", "game": "sueca", "host": "kitchen-pc"}]
        app.reset_to(screen)
        self.shot("online")
        screen.options()
        self.shot("online_setup")
        store = host_autosave()
        hosted = HostedTable("sueca", ["local", "remote", "local", "ai:strong"], {}, ["Ana", "", "Carla", ""],
                             "127.0.0.1", announce=False, ai="agents", seed=7, autosave=store)
        joined = JoinedTable(hosted.address, hosted.code, "Rita")
        try:
            lobby = online.LobbyScreen(app, hosted)
            app.reset_to(lobby)

            def joined_and_ready() -> bool:
                joined.poll()
                return lobby.can_start and joined.controller is not None

            self.wait(joined_and_ready)
            self.shot("online_lobby_host")
            lobby.opened = True  # the table stays open for its player's screens below
            player = online.LobbyScreen(app, joined)
            app.reset_to(player)
            self.wait(lambda: joined.controller is not None and joined.controller.lobby is not None)
            self.shot("online_lobby_join")
            hosted.start()
            self.wait(lambda: app.top is not player and app.top.name == "table")
            shared = hosted.controller

            def player_to_move() -> bool:
                shared.update()  # the host's players play their first legal move when it is their turn
                if shared.privacy_for is not None:
                    shared.confirm_privacy()
                if shared.human_to_move() and shared.state is not None:
                    shared.play(shared.state.legal_moves()[0])
                return joined.controller is not None and joined.controller.human_to_move()

            self.wait(player_to_move, 400)
            self.shot("online_table")
            table = hosted.table
            client = joined.controller
            if client is not None and client.human_to_move() and client.state is not None:
                client.play(client.state.legal_moves()[0])  # then a player at the host's screen is to move
            self.wait(lambda: table.started and table.state.current_player in hosted.local_seats
                      and table.ai_to_move() is None, 400)
        finally:
            joined.close()
            hosted.close()  # the host stops: its table was saved after every move
        saved = (online.BROWSE, online.HOST_BIND, online.ANNOUNCE, online.HOST_AI)
        online.BROWSE, online.HOST_BIND, online.ANNOUNCE, online.HOST_AI = False, "127.0.0.1", False, "agents"
        try:
            app.reset_to(online.OnlineScreen(app))
            self.shot("online_resume")
            app.top.resume()  # the host's screen, shared by two players: the privacy screen first
            self.wait(lambda: app.top.name == "table" and app.top.ctl.privacy_for is not None, 400)
            self.shot("online_table_host")
            app.top.ctl.confirm_privacy()
            self.shot("online_table_host_hand")
            app.top.show_log = True  # the hand's log, as it was before the host stopped
            self.shot("online_table_host_log")
            app.top.show_log = False
            resumed = app.top.ctl

            def away_to_move() -> bool:  # the host's players play on until the player who is away is to move
                if resumed.privacy_for is not None:
                    resumed.confirm_privacy()
                elif resumed.human_to_move() and resumed.state is not None:
                    resumed.play(resumed.state.legal_moves()[0])
                return resumed.waiting_seat() is not None and resumed.clock() >= resumed.hold_until

            self.wait(away_to_move, 1500)
            self.shot("online_table_waiting")
        finally:
            online.BROWSE, online.HOST_BIND, online.ANNOUNCE, online.HOST_AI = saved
            if app.top.name == "table":
                app.top.ctl.close()
            store.clear()

    def run_study(self) -> None:
        """The study screens with ``saves/examples/study.json``: participant ID, consent, progress, a study
        table (neutral names), the study questionnaire's last page and the thank-you screen."""
        from app.controller import Controller
        from app.screens.study import ThankYouScreen
        from app.screens.survey import SurveyScreen
        from app.screens.table import TableScreen

        app = self.app
        error = app.open_study(str(EXAMPLE_STUDY))
        if error:
            raise RuntimeError(error)
        ctx = app.study
        start = app.top
        participant = "P" + self.prefix.replace("x", "-")
        start.field.set_text(participant)
        start.typed = participant
        self.shot("study_participant")
        start.submit(participant)
        self.shot("study_consent")
        app.top.agree()
        self.shot("study_progress")
        step = ctx.next_step(None)
        assert step.plan is not None
        session = ctx.new_session(step.plan)
        advance(session, random.Random(3), lambda s: len(s.history) >= 6 and s.current_player == 0)
        ctl = Controller(session, min_delay_ms=0, worker=app.worker, autosave=None)
        app.reset_to(TableScreen(app, ctl))
        self.shot("study_table")
        survey = SurveyScreen(app, session, None, then="study", in_study=True)
        app.reset_to(survey)
        self.shot("study_survey_opponent")
        survey.page = len(survey.pages) - 1
        app.rebuild()
        self.shot("study_survey_game")
        app.reset_to(ThankYouScreen(app, ctx))
        self.shot("study_thanks")
        app.study = None

    def measure_frames(self) -> dict[str, float]:
        """Frame work times at 1280x800 while an expert AI searches."""
        from app.controller import Controller
        from app.screens.table import TableScreen
        from app.sessions import new_session
        from app.workers import preset_spec
        from engine import registry
        from saves.session import Seat

        app = self.app
        app.resize(PERF_SIZE)
        app.settings.animation_speed = 2  # measure with the default animations on
        game = registry.create(registry.names()[0])
        spec = preset_spec(game.name, "expert")
        seats = [Seat("human", "Ana")] + [Seat("ai", n, spec, "expert") for n in ("Bruno", "Carla", "Dino")]
        session = new_session(game, seats, 11)
        state = session.match.state
        if state.current_player == 0:
            move = state.legal_moves()[0]
            state.apply(move)
            session.record_move(move)
        ctl = Controller(session, min_delay_ms=0, worker=app.worker, autosave=app.autosave_store())
        app.reset_to(TableScreen(app, ctl))
        times: list[float] = []
        deadline = time.monotonic() + 6.0
        while time.monotonic() < deadline and len(times) < 240:
            ms = app.step()
            if ctl.thinking_seat() is not None:
                times.append(ms)
            time.sleep(max(0.0, 1 / 60 - ms / 1000))
        ctl.close()
        return {"p50": _percentile(times, 0.5), "p95": _percentile(times, 0.95),
                "max": round(max(times), 3) if times else 0.0, "frames": len(times)}


def _passing(state: Any) -> bool:
    """Whether the player to move passes or discards cards (a Hearts pass, a Moss Side Whist discard)."""
    legal = state.legal_moves()
    return bool(legal) and all(state.is_pass_move(m) for m in legal)


def _choice_card(state: Any) -> int | None:
    """A card of the player to move that several legal moves play (a capture choice, a suit to name)."""
    from app import moves as movelib

    by_card, _ = movelib.group_by_card(state, state.legal_moves())
    for card, ms in by_card.items():
        if len(ms) > 1 and not any(state.is_pass_move(m) for m in ms):
            return card
    return None


def _short_match(name: str) -> dict[str, Any]:
    """A variant whose match ends after one hand when the game has a ``target`` option, else the default."""
    from engine import registry

    game = registry.create(name)
    return {"target": 0} if any(o.name == "target" for o in game.options) else {}


def startup_seconds() -> float:
    """Wall time of a fresh process from launch to the first drawn menu frame."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    subprocess.run(app_command("--startup-probe"), env=env, check=True, cwd=root,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    return round(time.perf_counter() - t0, 3)


def run_tour(directory: str) -> int:
    """Write every screen's PNG and ``tour.json`` into ``directory`` (exit status 2 and one line on stderr when
    it cannot be written). The app's data goes to ``CARDTABLE_HOME`` when set, else to a temporary folder
    that is removed afterwards."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    out = Path(directory)
    problem = unwritable(out)
    if problem:
        print(f"cardtable --tour: {problem}", file=sys.stderr)
        return 2
    if os.environ.get("CARDTABLE_HOME", "").strip():  # the caller chose where the tour's data goes
        return _run_tour(out)
    home = tempfile.mkdtemp(prefix="cardtable-tour-")
    os.environ["CARDTABLE_HOME"] = home
    try:
        return _run_tour(out)
    finally:
        del os.environ["CARDTABLE_HOME"]
        shutil.rmtree(home, ignore_errors=True)


def unwritable(out: Path) -> str | None:
    """Why the tour cannot write into ``out`` (None when it can): checked before anything runs."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as e:
        return f"cannot write to {out}: {e.strerror or e}"
    return None


def _run_tour(out: Path) -> int:
    from app.main import App

    tour = Tour(out)
    from app import text

    text.clipped = []
    app = App(SIZES[0], headless=True)
    if getattr(app, "read_only", False):  # another cardtable uses CARDTABLE_HOME: the tour would disturb it
        print(f"cardtable --tour: {'; '.join(app.startup_warnings[:1])}", file=sys.stderr)
        app.shutdown()
        return 2
    tour.app = app
    app.settings.animation_speed = 0
    app.settings.survey = "off"
    try:
        for lang in LANGS:
            app.set_language(lang)
            for size in SIZES:
                app.resize(size)
                tour.prefix = f"{size[0]}x{size[1]}-{lang}"
                tour.size, tour.lang = f"{size[0]}x{size[1]}", lang
                tour.run_screens()
        app.set_language("en")
        text.clipped = None
        frames = tour.measure_frames()
    finally:
        app.shutdown()
    startup = startup_seconds()
    report = {"screens": tour.screens, "clipped": tour.clipped, "frame_ms_while_ai_thinks": frames,
              "startup_s": startup}
    (out / "tour.json").write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    print(json.dumps({"screens": len(tour.screens), "clipped": len(tour.clipped), "frame_ms_while_ai_thinks": frames,
                      "startup_s": startup}))
    return 0
