"""Play online through the real app loop (SDL dummy driver, synthetic events, everything on 127.0.0.1): the app
hosts a table with a remote seat that an in-process network client joins, the lobby shows the player, the host
starts and a whole hand is played at the ordinary table screen; the app also joins a table hosted in the same
process and plays its seat. The About screen lists the version, the licences and the source documents."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from app import describe, i18n  # noqa: E402
from app.workers import ThreadWorker  # noqa: E402
from engine import agents, registry  # noqa: E402
from net.client import Client, choose  # noqa: E402
from net.host import Host  # noqa: E402
from net.table import Table  # noqa: E402

STEPS = 6000
"""At most this many app frames per phase (each waits a few milliseconds for the network threads)."""


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    from app.main import App
    from app.screens import online

    monkeypatch.setattr(online, "HOST_BIND", "127.0.0.1")
    monkeypatch.setattr(online, "ANNOUNCE", False)
    monkeypatch.setattr(online, "BROWSE", False)
    monkeypatch.setattr(online, "HOST_AI", "agents")
    application = App((800, 600), headless=True, worker_factory=ThreadWorker)
    application.settings.animation_speed = 0
    i18n.set_language("en")
    yield application
    application.shutdown()
    i18n.set_language("en")


def press(app: Any, element: Any) -> None:
    pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=element))
    app.step()


def key(app: Any, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
    app.step()


def frames_until(app: Any, done: Any, what: str, between: Any = None) -> None:
    for _ in range(STEPS):
        if done():
            return
        if between is not None:
            between()
        app.step()
        time.sleep(0.003)
    raise AssertionError(f"the app never got to: {what}")


def play_seat_at_table(table: Any, rng: random.Random) -> None:
    """The table's player makes a legal move the way the screen does (a pass: select the cards, confirm)."""
    ctl = table.ctl
    if not ctl.human_to_move():
        return
    legal = ctl.state.legal_moves()
    if table.pass_mode():
        seat = ctl.viewer if ctl.viewer is not None else ctl.seat
        hand = [c for c in range(table.game.deck.size) if ctl.state.hands[seat] >> c & 1]
        table.selected = rng.sample(hand, table.pass_needed())
        table.confirm_pass()
        return
    table.play(rng.choice(legal))


class RemotePlayer:
    """An in-process network client that plays its seat with random legal moves."""

    def __init__(self, address: str, code: str, name: str) -> None:
        self.client = Client(address, code, name, reconnect_seconds=10)
        self.client.start()
        self.agent: Any = None
        self.seen: list[str] = []

    def poll(self) -> None:
        while not self.client.inbox.empty():
            message = self.client.inbox.get_nowait()
            kind = message["type"]
            self.seen.append(kind)
            if kind == "welcome":
                self.agent = agents.make("random", registry.create(message["game"], message["variant"]))
            elif kind == "your_turn":
                self.client.move(choose(self.agent, message, 5), message["hand"], message["ply"])
            elif kind == "hand_end":
                self.client.ready(message["hand"])


def test_host_a_table_a_client_joins_and_a_hand_is_played(app: Any) -> None:
    from app.screens.menu import MenuScreen

    app.reset_to(MenuScreen(app))
    app.step()
    press(app, app.top.buttons["online"])
    online = app.top
    assert online.name == "online"
    online.game_name = "hearts"
    online.kinds = ["local", "remote", "ai:random", "ai:random"]
    app.rebuild()
    press(app, online.widgets["host"])
    lobby = app.top
    assert lobby.name == "online_lobby" and lobby.net.is_host
    frames_until(app, lambda: lobby.net.controller.lobby is not None, "the lobby")
    assert not lobby.can_start
    player = RemotePlayer(lobby.net.address, lobby.net.code.lower(), "Rita")
    try:
        frames_until(app, lambda: lobby.can_start, "a full table", player.poll)
        seats = lobby.net.controller.lobby["seats"]
        assert seats[1]["name"] == "Rita" and seats[1]["connected"]
        key(app, pygame.K_RETURN)  # the host starts
        frames_until(app, lambda: app.top.name == "table", "the table", player.poll)
        table = app.top
        ctl = table.ctl
        assert ctl.seats[1].label == "Rita" and ctl.seat == 0
        rng = random.Random(3)

        def both_play() -> None:
            player.poll()
            if app.top is table:
                play_seat_at_table(table, rng)

        frames_until(app, lambda: app.top.name == "summary", "the end of the hand", both_play)
        assert ctl.hand_result is not None and len(ctl.hand_result.points) == 4
        assert sum(e.kind == "trick" for e in ctl.log) == 13  # every trick of the hand was seen at the table
        assert "hand_end" in player.seen
        assert table.face_up_drawn and {seat for seat, _ in table.face_up_drawn} == {0}
        key(app, pygame.K_RETURN)  # next hand: both are ready, the host deals
        frames_until(app, lambda: ctl.hand == 1 and ctl.state is not None and not ctl.state.is_terminal(),
                     "the second deal", player.poll)
        assert app.top is table and ctl.hand_result is None
    finally:
        player.client.close()
        app.reset_to(MenuScreen(app))  # leaves the table: the host stops


def test_join_a_table_from_the_app_and_play_a_hand(app: Any) -> None:
    from app.screens.menu import MenuScreen

    table = Table.create("bisca", ["remote", "ai:random"], {}, seed=9)
    host = Host(table, "127.0.0.1", 0, ai="agents", hand_pause=30)
    address = host.start()
    try:
        app.reset_to(MenuScreen(app))
        app.step()
        key(app, pygame.K_o)
        online = app.top
        online.widgets["address"].set_text(address.removeprefix("ws://"))
        online.widgets["code"].set_text("wrong1")
        press(app, online.widgets["join"])
        lobby = app.top
        frames_until(app, lambda: bool(lobby.net.error), "the refusal of a wrong code")
        assert "code" in lobby.net.error
        key(app, pygame.K_ESCAPE)
        key(app, pygame.K_o)
        online = app.top
        online.widgets["address"].set_text(address.removeprefix("ws://"))
        online.widgets["code"].set_text(table.code)
        press(app, online.widgets["join"])
        lobby = app.top
        frames_until(app, lambda: lobby.net.controller is not None and lobby.net.controller.lobby is not None,
                     "the welcome")
        assert lobby.net.controller.seat == 0 and table.slots[0].connected
        host.start_match()
        frames_until(app, lambda: app.top.name == "table", "the table")
        screen = app.top
        ctl = screen.ctl
        rng = random.Random(4)
        frames_until(app, lambda: app.top.name == "summary", "the end of the hand",
                     lambda: play_seat_at_table(screen, rng) if app.top is screen else None)
        truth = table.session.match.hands[-1] if table.session.match.hands else None
        assert ctl.hand_result is not None and truth is not None
        assert ctl.hand_result.to_dict() == truth.to_dict()
    finally:
        app.reset_to(MenuScreen(app))
        host.stop()


def test_about_lists_version_licences_and_sources(app: Any) -> None:
    from app.resources import app_version
    from app.screens.menu import MenuScreen

    app.reset_to(MenuScreen(app))
    app.step()
    press(app, app.top.buttons["credits"])
    about = app.top
    assert about.name == "credits"
    text = " ".join(line for line, *_ in about.lines(16, 700))
    for needle in (app_version(), "LGPL", "websockets", "DejaVu", "Di Palma", "Kaššák", "Cowling"):
        assert needle in text
    key(app, pygame.K_DOWN)
    key(app, pygame.K_ESCAPE)
    assert app.top.name == "menu"


def test_a_finished_network_match_is_recorded_here_and_leaves_the_local_autosave_alone(app: Any) -> None:
    """A whole match of a network table (a Table in this process, its seat 0 shown by the app's table screen):
    the last summary opens the online match end, which records the match from seat 0's point of view; the
    player's own autosave of a local game is still there afterwards."""
    import queue

    from app import navigation
    from app.netplay import NetController
    from saves.records import RecordsDB
    from saves.session import GameSession, Seat

    game = registry.create("scopa", {"target": 1})
    local = GameSession.start(game, [Seat("human", "Me"), Seat("ai", "Bot", "random", "")], 5)
    app.autosave_store().save(local)
    net = Table.create("scopa", ["local", "ai:random"], {"target": 1}, seed=21)
    inbox: queue.Queue[dict[str, Any]] = queue.Queue()
    rng = random.Random(8)

    def deliver(outbox: Any) -> None:
        for seat, message in outbox:
            if seat == 0:
                inbox.put(message)

    def move(m: int, hand: int, ply: int) -> None:
        reason, _ = net.move(0, {"move": m, "hand": hand, "ply": ply})
        assert reason is None
        deliver(net.apply(m))

    def ready(hand: int) -> None:
        deliver(net.next_hand())

    ctl = NetController(net.game, 0,
                        lambda: [inbox.get_nowait() for _ in range(inbox.qsize())], move, ready, lambda: None)
    deliver(net.start())
    ctl.update()
    app.reset_to(navigation.make(app, "table", ctl))
    table = app.top
    for _ in range(STEPS):
        if app.top.name == "online_match_end":
            break
        seat = net.ai_to_move()
        if seat is not None:
            deliver(net.apply(rng.choice(net.state.legal_moves())))
        if app.top is table:
            play_seat_at_table(table, rng)
        elif app.top.name == "summary":
            key(app, pygame.K_RETURN)
        app.step()
    end = app.top
    assert end.name == "online_match_end" and net.session is not None and net.session.match.over
    assert end.record_id is not None and not end.message
    with RecordsDB() as db:
        assert db.count() == 1
    assert ctl.match.totals == list(net.session.match.totals)
    assert {seat for seat, _ in table.face_up_drawn} == {0}  # only this seat's hand was ever drawn face up
    assert app.autosave_store().exists()  # the local game's autosave is untouched
    key(app, pygame.K_RETURN)
    assert app.top.name in ("menu", "survey")


def test_the_new_game_screen_chooses_the_variant_and_seats_of_a_hosted_table(app: Any) -> None:
    from app.screens.menu import MenuScreen

    app.reset_to(MenuScreen(app))
    app.step()
    key(app, pygame.K_o)
    key(app, pygame.K_v)
    setup = app.top
    assert setup.name == "new_game" and setup.online is not None
    assert "kind" not in {k[0] for k in setup.widgets if isinstance(k, tuple) and k[1] == 0}  # seat 1: this computer
    setup.reset_game("sueca")
    setup.variant["target"] = 2
    setup.seats[2].kind, setup.seats[2].preset = "remote", ""
    app.rebuild()
    press(app, setup.widgets["start"])
    lobby = app.top
    try:
        assert lobby.name == "online_lobby"
        table = lobby.net.table
        assert table.game.name == "sueca" and table.game.variant["target"] == 2
        assert [s.kind for s in table.slots] == ["local", "remote", "remote", "ai"]
        frames_until(app, lambda: lobby.net.controller.lobby is not None, "the lobby")
        assert not lobby.can_start  # two remote seats are still free
    finally:
        key(app, pygame.K_ESCAPE)
    assert app.top.name == "menu"


def test_an_unreadable_state_is_reported_and_the_table_stays_as_it_was() -> None:
    from app.netplay import NetController

    game = registry.create("sueca", {})
    state = game.new_hand(random.Random(2))
    good = {"type": "state", "hand": 0, "ply": 0, "observation": state.observation(0).to_dict(), "totals": [0, 0]}
    ctl = NetController(game, 0, list, lambda *a: None, lambda h: None, lambda: None)
    ctl.feed(good)
    before = ctl.state
    ctl.feed({**good, "observation": {"seat": 0, "state": {"hands": 5}, "unknown": 0, "slots": []}})
    assert ctl.state is before and ctl.notices and ctl.notices[-1].error
    assert "malformed sueca observation" in ctl.notices[-1].text


def test_a_seat_whose_player_dropped_reads_waiting_for_them_to_reconnect(app: Any) -> None:
    """While a remote player is away and it is their turn, the table does not say they are thinking: it says it
    waits for them to reconnect (in each language), and once they are back that they are thinking."""
    from app import navigation
    from app.netplay import NetController
    from net import protocol as p

    table = Table.create("sueca", ["local", "remote", "ai:random", "ai:random"], seed=4)
    hello = {"protocol": p.PROTOCOL_VERSION, "app": p.app_version(), "code": table.code, "name": "Rita", "seat": 1}
    seat, welcome = table.join({"type": "join", **hello})
    assert seat == 1
    table.start()
    table.release(1)  # Rita's connection dropped
    ctl = NetController(table.game, 0, list, lambda *a: None, lambda h: None, lambda: None)
    for message in table.snapshot(0):
        ctl.feed(message)
    while table.state.current_player != 1:
        for to, message in table.apply(table.state.legal_moves()[0]):
            if to == 0:
                ctl.feed(message)
    app.reset_to(navigation.make(app, "table", ctl))
    app.step()
    screen = app.top
    assert ctl.waiting_seat() == 1 and ctl.thinking_seat() is None
    assert screen.status_text() == "Waiting for Rita to reconnect..."
    assert describe.seat_name(ctl.seats[1].label) == "Rita (away)"
    for lang, text in [("pt", "À espera que Rita volte a ligar-se..."), ("it", "In attesa che Rita si ricolleghi..."),
                       ("sk", "Čaká sa, kým sa Rita znova pripojí...")]:
        i18n.set_language(lang)
        assert screen.status_text() == text
    i18n.set_language("en")
    assert table.join({"type": "rejoin", **hello, "token": welcome["token"]})[0] == 1  # Rita is back
    ctl.feed(table.lobby_message())
    app.step()
    assert ctl.waiting_seat() is None and ctl.thinking_seat() == 1
    assert screen.status_text() == "Rita is thinking..."


def test_the_app_host_resumes_its_table_and_the_player_rejoins(app: Any) -> None:
    """The app's host saves its table after every move (apart from the local autosave); after the host stops
    mid-hand, "Resume the hosted table" reopens it on the same port, the remote player's app rejoins its seat
    by itself and the hand is played to its end."""
    from app.netplay import host_autosave
    from app.screens.menu import MenuScreen
    from saves.autosave import AutosaveStore
    from saves.paths import data_dir

    app.reset_to(MenuScreen(app))
    app.step()
    key(app, pygame.K_o)
    online = app.top
    assert "resume" not in online.widgets
    online.game_name = "bisca"
    online.kinds = ["local", "remote"]
    app.rebuild()
    press(app, online.widgets["host"])
    lobby = app.top
    first = lobby.net
    frames_until(app, lambda: first.controller.lobby is not None, "the lobby")
    player = RemotePlayer(first.address, first.code, "Rita")
    rng = random.Random(6)
    try:
        frames_until(app, lambda: lobby.can_start, "a full table", player.poll)
        key(app, pygame.K_RETURN)
        frames_until(app, lambda: app.top.name == "table", "the table", player.poll)
        table = app.top

        def both_play(screen: Any) -> None:
            player.poll()
            if app.top is screen:
                play_seat_at_table(screen, rng)

        frames_until(app, lambda: first.table.ply >= 5, "five moves", lambda: both_play(table))
        first.host.stop()  # the host's app stops mid-hand
        saved = host_autosave().peek()
        assert saved is not None and saved.meta["net"]["code"] == first.code
        assert 5 <= saved.ply < 40 and not saved.match.state.is_terminal()
        table.ctl.update()  # what the host's seat was told before it stopped
        assert table.ctl.ply == saved.ply
        log_before = list(table.ctl.log)
        assert sum(e.kind in ("play", "lay", "capture") for e in log_before) == saved.ply
        assert not AutosaveStore(data_dir()).exists()  # the app's own autosave is untouched
        app.reset_to(MenuScreen(app))
        app.step()
        key(app, pygame.K_o)
        online = app.top
        assert "resume" in online.widgets
        press(app, online.widgets["resume"])  # the lobby opens the table as soon as the host's seat sees it
        frames_until(app, lambda: app.top.name == "table", "the resumed table", player.poll)
        resumed = app.top
        second = resumed.ctl.owner  # the resumed HostedTable
        assert second is not first and second.address == first.address and second.code == first.code
        assert resumed.ctl.ply == saved.ply and resumed.ctl.hand == 0
        assert resumed.ctl.log == log_before  # the action log of the hand so far, as it was
        assert resumed.ctl.last_trick == table.ctl.last_trick
        frames_until(app, lambda: second.table.slots[1].connected, "the player back", lambda: both_play(resumed))
        frames_until(app, lambda: app.top.name == "summary", "the end of the hand", lambda: both_play(resumed))
        truth = second.table.session.match.hands[0]
        assert resumed.ctl.hand_result is not None and resumed.ctl.hand_result.to_dict() == truth.to_dict()
        assert player.seen.count("welcome") >= 2  # joined, then rejoined the resumed table
    finally:
        player.client.close()
        app.reset_to(MenuScreen(app))


def test_resuming_without_a_hosted_table_says_so(tmp_path: Path) -> None:
    from app.netplay import HostedTable, host_autosave
    from engine.game import StateFormatError

    with pytest.raises(StateFormatError, match="no hosted table to resume"):
        HostedTable.resume(host_autosave(tmp_path / "net-app-host"), "127.0.0.1", announce=False, ai="agents")


def test_two_players_at_the_host_share_its_screen_as_at_hotseat(app: Any) -> None:
    """Two local seats and a remote one at a hosted Hearts table: the privacy screen hands the device over,
    only the shown player's hand is ever drawn face up and the state shown is that seat's own observation; the
    AI seat is named by its level; the pass of three cards is made seat by seat; the next deal starts hidden."""
    from app.netplay import SharedScreenController
    from app.screens.menu import MenuScreen

    app.reset_to(MenuScreen(app))
    app.step()
    key(app, pygame.K_o)
    online = app.top
    online.game_name = "hearts"
    online.kinds = ["local", "remote", "local", "ai:random"]
    app.rebuild()
    press(app, online.widgets["host"])
    lobby = app.top
    ctl = lobby.net.controller
    assert isinstance(ctl, SharedScreenController) and ctl.local_seats == [0, 2]
    player = RemotePlayer(lobby.net.address, lobby.net.code, "Rita")
    try:
        frames_until(app, lambda: lobby.can_start, "a full table", player.poll)
        key(app, pygame.K_RETURN)
        frames_until(app, lambda: app.top.name == "table", "the table", player.poll)
        table = app.top
        assert [describe.seat_name(s.label) for s in ctl.seats] == ["Player", "Rita", "Player 3", "AI (random)"]
        rng = random.Random(5)
        asked: list[int] = []
        shown: set[int] = set()

        def hotseat_turn() -> None:
            player.poll()
            if app.top is not table:
                return
            if ctl.hold_until > ctl.clock():
                ctl.skip_pause()  # a click on the table ends the pause after a trick
            if ctl.privacy_for is not None:
                assert ctl.viewer is None
                asked.append(ctl.privacy_for)
                key(app, pygame.K_RETURN)  # "I am ...: show my cards"
                return
            if ctl.viewer is not None:
                shown.add(ctl.viewer)
                assert ctl.state.observation(ctl.viewer).seat == ctl.viewer  # the shown seat's own view
            before = set(table.face_up_drawn)
            play_seat_at_table(table, rng)
            app.step()
            assert {seat for seat, _ in table.face_up_drawn - before} <= {ctl.viewer, ctl.last_viewer}

        frames_until(app, lambda: app.top.name == "summary", "the end of the hand", hotseat_turn)
        assert {seat for seat, _ in table.face_up_drawn} == {0, 2} and shown == {0, 2}
        assert set(asked) == {0, 2} and len(asked) >= 10  # the device went back and forth
        assert ctl.hand_result is not None and sum(e.kind == "trick" for e in ctl.log) == 13
        key(app, pygame.K_RETURN)  # both local players are ready, the remote one too: the next deal
        frames_until(app, lambda: ctl.hand == 1 and ctl.state is not None and not ctl.state.is_terminal(),
                     "the second deal", player.poll)
        assert ctl.viewer is None  # nobody's hand is shown until its player says so
    finally:
        player.client.close()
        app.reset_to(MenuScreen(app))


def test_a_move_lost_with_the_connection_is_asked_again_after_the_rejoin() -> None:
    """A move sent just before the connection dropped never reached the host: the rejoin's snapshot asks for it
    again, and the player can make it (it is not taken for already sent)."""
    from app.netplay import NetController

    table = Table.create("sueca", ["remote", "ai:random", "ai:random", "ai:random"], seed=2)
    table.slots[0].taken = True
    table.start()
    while table.state.current_player != 0:
        table.apply(table.state.legal_moves()[0])
    lost: list[int] = []
    ctl = NetController(table.game, 0, list, lambda m, h, p: lost.append(m), lambda h: None, lambda: None)
    for message in table.snapshot(0):
        ctl.feed(message)
    assert ctl.human_to_move() and ctl.play(ctl.state.legal_moves()[0]) is None and lost
    assert not ctl.human_to_move()
    for message in table.snapshot(0):  # the rejoin: the table is where it was
        ctl.feed(message)
    assert ctl.human_to_move() and ctl.ply == table.ply


def test_the_shared_screen_does_not_ask_again_for_a_player_whose_move_is_on_its_way() -> None:
    """Two players at the host's screen: right after one of them moves, before the host's answer, the screen does
    not bring up the privacy screen for that same player again (it would stay up while a remote player is to
    move, and then show that hand)."""
    from app.netplay import NetController, SharedScreenController

    table = Table.create("sueca", ["local", "remote", "local", "ai:random"], seed=9)
    table.slots[1].taken = True
    inbox: dict[int, list[dict[str, Any]]] = {0: [], 2: []}
    sent: list[tuple[int, int, int, int]] = []

    def deliver(outbox: list[tuple[int, dict[str, Any]]]) -> None:
        for seat, message in outbox:
            if seat in inbox:
                inbox[seat].append(message)

    def receive(seat: int) -> list[dict[str, Any]]:
        out, inbox[seat] = inbox[seat], []
        return out

    subs = {seat: NetController(table.game, seat, lambda seat=seat: receive(seat),  # type: ignore[misc]
                                lambda m, h, p, seat=seat: sent.append((seat, m, h, p)),  # type: ignore[misc]
                                lambda h: None, lambda: None) for seat in (0, 2)}
    shared = SharedScreenController(subs)
    deliver(table.start())
    while table.state.current_player != 0:
        deliver(table.apply(table.state.legal_moves()[0]))
    shared.update()
    assert shared.privacy_for == 0
    shared.confirm_privacy()
    assert shared.play(shared.state.legal_moves()[0]) is None and shared.viewer is None
    shared.update()  # the host has not answered yet
    assert shared.privacy_for is None and shared.viewer is None
    seat, move, hand, ply = sent[-1]
    assert seat == 0 and table.move(0, {"move": move, "hand": hand, "ply": ply}) == (None, "")
    deliver(table.apply(move))
    shared.update()
    assert shared.current == 1 and shared.privacy_for is None and shared.viewer is None  # the remote player's turn


def test_a_player_follows_a_host_that_had_to_change_its_port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host stops mid-hand and comes back on another port: joining again at the new address with the same
    code takes the player's seat back - with the token this app kept, or (an app started afresh) by the name
    the player played under - and the player gets the current state and the hand's log as it was."""
    from app import netplay
    from saves.autosave import AutosaveStore

    monkeypatch.setattr(netplay, "FOLLOW_PORT", None)  # no discovery here: the address is typed again

    store = AutosaveStore(tmp_path / "host")
    table = Table.create("bisca", ["remote", "ai:random"], {}, seed=12)
    host = Host(table, "127.0.0.1", 0, ai="agents", autosave=store, hand_pause=30)
    first = host.start()
    joined = netplay.JoinedTable(first, table.code, "Rita")
    hosts = [host]
    try:
        for _ in range(STEPS):
            joined.poll()
            if joined.controller is not None and joined.controller.lobby is not None:
                break
            time.sleep(0.003)
        host.start_match()
        ctl = joined.controller
        assert ctl is not None
        while table.ply < 4:
            joined.poll()
            if ctl.human_to_move():
                ctl.play(ctl.state.legal_moves()[0])
            time.sleep(0.003)
        host.stop()
        for _ in range(STEPS):
            joined.poll()
            if ctl.ply == table.ply:
                break
            time.sleep(0.003)
        log_before = list(ctl.log)
        assert ctl.ply == table.ply and len(log_before) >= table.ply
        joined.close()
        for forget in (False, True):
            if forget:  # a player whose app was restarted: no token, the same name
                netplay._seats_taken.clear()
            else:
                assert netplay._seats_taken[table.code] == (0, table.slots[0].token)
            saved = store.load().session
            assert saved is not None
            moved = Host(Table.from_session(saved), "127.0.0.1", 0, ai="agents", autosave=store, hand_pause=30)
            hosts.append(moved)
            address = moved.start()
            assert address != first
            again = netplay.JoinedTable(address, table.code.lower(), "Rita")
            try:
                for _ in range(STEPS):
                    again.poll()
                    if again.controller is not None and again.controller.ready:
                        break
                    time.sleep(0.003)
                assert again.client.welcome is not None and again.client.welcome["rejoined"]
                assert again.controller is not None and again.controller.seat == 0
                assert again.controller.ply == saved.ply
                log = again.controller.log  # a new app's table: the hand's log as it was (and what the AI
                assert log[:len(log_before)] == log_before  # may have played since at the new address)
            finally:
                again.client.close()
                moved.stop()
    finally:
        for h in hosts:
            h.stop()


def free_udp_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_players_app_finds_a_host_that_came_back_on_another_port(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The host stops mid-hand and comes back on another port: the player's app, reconnecting, hears the
    table's beacon (its table id, from the same computer), follows it to the new address and takes its seat
    back with its token - nothing typed - with the hand's log as it was (beacons on 127.0.0.1 only)."""
    from app import netplay
    from net.discovery import Announcer
    from saves.autosave import AutosaveStore

    port = free_udp_port()
    monkeypatch.setattr(netplay, "FOLLOW_PORT", port)
    monkeypatch.setattr(netplay, "FOLLOW_BIND", "127.0.0.1")
    store = AutosaveStore(tmp_path / "host")
    table = Table.create("briscola", ["remote", "ai:random"], {}, seed=14)
    host = Host(table, "127.0.0.1", 0, ai="agents", autosave=store, hand_pause=30)
    first = host.start()
    joined = netplay.JoinedTable(first, table.code, "Rita")
    hosts = [host]

    def until(done: Any, what: str) -> None:
        for _ in range(STEPS):
            joined.poll()
            if done():
                return
            time.sleep(0.003)
        raise AssertionError(f"never: {what}")

    try:
        until(lambda: joined.controller is not None and joined.controller.lobby is not None, "the lobby")
        host.start_match()
        ctl = joined.controller
        assert ctl is not None

        def play() -> bool:
            if ctl.human_to_move() and table.ply < 5:
                ctl.play(ctl.state.legal_moves()[0])
            return table.ply >= 5 and ctl.human_to_move()

        until(play, "five moves, then the player's turn")  # (the AI cannot play on before the player is back)
        host.stop()
        log_before, state_before = list(ctl.log), ctl.state
        saved = store.load().session
        assert saved is not None and saved.ply == ctl.ply
        ply = saved.ply
        beacons = Announcer(("127.0.0.1",), port, interval=0.1)
        moved = Host(Table.from_session(saved), "127.0.0.1", 0, ai="agents", autosave=store, hand_pause=30,
                     announcer=beacons)
        hosts.append(moved)
        address = moved.start()
        assert address != first
        until(lambda: joined.address == address and ctl.state is not state_before and ctl.human_to_move(),
              "the seat taken back at the new address")  # (the snapshot's your_turn came last)
        assert joined.client.welcome is not None and joined.client.welcome["rejoined"] and ctl.ply == ply
        assert joined.client.address == address and joined.controller is ctl and ctl.seat == 0
        assert ctl.log == log_before
        assert any("now at" in n.text for n in ctl.notices)  # the player is told where the table went
        def play_on() -> bool:
            if ctl.human_to_move():
                ctl.play(ctl.state.legal_moves()[0])
            return moved.table.ply >= ply + 3  # (three moves of a two-player trick game: both seats)

        until(play_on, "the player's moves at the new address")
    finally:
        joined.close()
        for h in hosts:
            h.stop()


def test_each_player_at_the_host_gets_their_record_and_their_survey(app: Any) -> None:
    """A finished match of two players sharing the host's screen and an AI: the match end records it once per
    local player, from their own seat, then the survey asks each of them in turn before the menu."""
    import queue

    from app import navigation
    from app.netplay import NetController, SharedScreenController
    from saves.records import RecordsDB

    app.settings.survey = "every"
    net = Table.create("briscola", ["local", "ai:random", "local", "ai:random"], {"players": 4}, seed=3)
    inboxes: dict[int, queue.Queue[dict[str, Any]]] = {0: queue.Queue(), 2: queue.Queue()}
    rng = random.Random(2)

    def deliver(outbox: Any) -> None:
        for seat, message in outbox:
            inboxes[seat].put(message)

    subs = {seat: NetController(net.game, seat, lambda q=inboxes[seat]: [q.get_nowait() for _ in range(q.qsize())],
                                lambda *a: None, lambda h: None, lambda: None) for seat in inboxes}
    ctl = SharedScreenController(subs)
    deliver(net.start())
    while not net.session.match.over:
        if net.state.is_terminal():
            deliver(net.next_hand())
        else:
            deliver(net.apply(rng.choice(net.state.legal_moves())))
    ctl.update()
    assert ctl.match_end is not None and all(sub.match_end is not None for sub in subs.values())
    assert [describe.seat_name(s.label) for s in ctl.seats] == ["Player 1", "AI 2 (random)", "Player 3",
                                                                  "AI 4 (random)"]
    app.reset_to(navigation.make(app, "online_match_end", ctl))
    end = app.top
    assert set(end.record_ids) == {0, 2} and not end.message
    with RecordsDB() as db:
        assert sorted(g.human_seat for g in db.list_games()) == [0, 2]
    key(app, pygame.K_RETURN)
    asked = []
    while app.top.name == "survey":
        survey = app.top
        asked.append(survey.player)
        opponents = {target.seat for target in survey.targets}
        assert opponents == {1, 3}  # the AI seats, as the player saw them named
        assert {target.label for target in survey.targets} == {"AI 2 (random)", "AI 4 (random)"}
        survey.skip()
        app.step()
    assert asked == ["Player 1", "Player 3"] and app.top.name == "menu"


def test_the_menus_continue_offers_the_unfinished_hosted_table(app: Any) -> None:
    """A hosted table stopped mid-hand: the menu's Continue reopens it (alone, at once; beside a local game,
    as one of the games to continue)."""
    from app.netplay import HostedTable, host_autosave
    from app.screens.menu import MenuScreen
    from saves.session import GameSession, Seat

    hosted = HostedTable("briscola", ["local", "ai:random"], {}, "Ana", "127.0.0.1", announce=False, ai="agents",
                         seed=4, autosave=host_autosave())
    try:
        hosted.start()
        ctl = hosted.controller
        for _ in range(STEPS):
            ctl.update()
            if hosted.table.ply >= 3:
                break
            if ctl.human_to_move():
                ctl.play(ctl.state.legal_moves()[0])
            time.sleep(0.003)
    finally:
        hosted.close()
    saved = host_autosave().peek()
    assert saved is not None and 3 <= saved.ply
    app.reset_to(MenuScreen(app))
    app.step()
    assert app.top.hosted == "Briscola" and "continue" in app.top.buttons
    press(app, app.top.buttons["continue"])
    frames_until(app, lambda: app.top.name == "table", "the hosted table")
    assert app.top.ctl.ply >= saved.ply and app.top.ctl.owner.code == hosted.code  # its AI may move on at once
    app.reset_to(MenuScreen(app))  # leaves the table: the host stops, the save stays
    game = registry.create("scopa", {})
    app.autosave_store().save(GameSession.start(game, [Seat("human", "Me"), Seat("ai", "Bot", "random", "")], 5))
    app.reset_to(MenuScreen(app))
    app.step()
    press(app, app.top.buttons["continue"])
    choices = [text for text, _ in app.top.choices]
    assert "The hosted table: Briscola" in choices and "Scopa" in choices
    app.top.choices[choices.index("The hosted table: Briscola")][1]()
    frames_until(app, lambda: app.top.name == "table", "the hosted table again")
    app.reset_to(MenuScreen(app))
