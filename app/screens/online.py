"""Play online: host a table (game, seats) or join one (found on the local network, or an address and a code
typed in); the lobby until the host starts; the match's end, recorded on this computer.

The networking lives in :mod:`app.netplay` (the host's :class:`net.host.Host` or a :class:`net.client.Client`);
the game itself is played at the ordinary table screen, driven by :class:`app.netplay.NetController`.
"""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from app import describe, navigation, workers
from app import text as txt
from app.i18n import t
from app.navigation import BACKGROUND, Screen
from app.netplay import HostedTable, JoinedTable, host_autosave, seat_labels
from app.tables.base import GOLD, MUTED, WHITE
from app.widgets import button, dropdown, entry, label, line_height
from engine import registry
from engine.game import StateFormatError
from net.client import record_match
from net.discovery import Browser
from net.table import TableError
from saves.records import RecordsDB
from saves.session import GameSession
from saves.survey import survey_due

HOST_BIND = "0.0.0.0"
"""Where a hosted table listens (every interface: players on the local network can reach it)."""
ANNOUNCE = True
"""Announce hosted tables on the local network (UDP beacons)."""
BROWSE = True
"""Listen for other computers' tables on the local network."""
HOST_AI = "worker"
"""Where the host's AI seats think: ``worker`` (the search process, as at a local table) or ``agents``."""
ERROR = (255, 160, 140)


class OnlineScreen(Screen):
    """Host a table (left) or join one (right)."""

    name = "online"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.games = registry.available()
        self.game_name = self.games[0]
        self.kinds: list[str] = []
        self.widgets: dict[Any, Any] = {}
        self.error = ""
        self.address = ""
        self.code = ""
        self.browser: Browser | None = None
        self.found: list[dict[str, Any]] = []
        if BROWSE:
            try:
                self.browser = Browser()
            except OSError:
                self.browser = None  # the port is busy (another cardtable): typing the address still works
        self.reset_seats()

    def reset_seats(self) -> None:
        """You at seat 1, a remote player at seat 2, AIs (casual) at the others."""
        n = registry.create(self.game_name, {}).num_players
        self.kinds = ["local", "remote"] + ["ai:casual"] * (n - 2)

    def kind_options(self) -> list[str]:
        return [t("Remote player"), t("Player here")] + [t("AI: {level}", level=t(level)) for level in workers.levels()]

    def kind_text(self, kind: str) -> str:
        if kind == "remote":
            return t("Remote player")
        if kind == "local":
            return t("Player here")
        return t("AI: {level}", level=t(kind.partition(":")[2]))

    def build(self) -> None:
        w, h = self.app.size
        ui = self.ui
        bh = line_height(self.app.font_size)
        gap = max(4, bh // 5)
        margin = max(16, w // 40)
        col_w = (w - 3 * margin) // 2
        self.widgets = {}
        label(ui, pygame.Rect(margin, margin // 2, w - 2 * margin, int(bh * 1.4)), t("Play online"), "#title")
        top = margin + int(bh * 1.8)
        # Host a table.
        x, y = margin, top
        label(ui, pygame.Rect(x, y, col_w, bh), t("Host a table"))
        y += bh + gap
        lw = int(col_w * 0.36)
        label(ui, pygame.Rect(x, y, lw, bh), t("Game"))
        titles = [t(registry.game_class(g).title) for g in self.games]
        self.widgets["game"] = dropdown(ui, pygame.Rect(x + lw, y, col_w - lw, bh), titles,
                                        t(registry.game_class(self.game_name).title))
        y += bh + gap
        for i, kind in enumerate(self.kinds):
            label(ui, pygame.Rect(x, y, lw, bh), t("Seat {n}", n=i + 1))
            r = pygame.Rect(x + lw, y, col_w - lw, bh)
            if i == 0:  # the host's own seat
                label(ui, r, t("You (this computer)"))
            else:
                self.widgets[("kind", i)] = dropdown(ui, r, self.kind_options(), self.kind_text(kind))
            y += bh + gap
        self.widgets["host"] = button(ui, pygame.Rect(x, y + gap, col_w, bh), t("Host the table (H)"), "#primary")
        y += bh + 2 * gap
        self.widgets["options"] = button(ui, pygame.Rect(x, y + gap, col_w, bh), t("Variant and names... (V)"))
        if host_autosave().exists():
            y += bh + 2 * gap
            self.widgets["resume"] = button(ui, pygame.Rect(x, y + gap, col_w, bh),
                                            t("Resume the hosted table (R)"))
        # Join a table.
        x, y = 2 * margin + col_w, top
        label(ui, pygame.Rect(x, y, col_w, bh), t("Join a table"))
        y += bh + gap
        for key, text, value in (("name", t("Your name"), self.app.settings.player_name or t("Player")),
                                 ("address", t("Address"), self.address), ("code", t("Table code"), self.code)):
            label(ui, pygame.Rect(x, y, lw, bh), text)
            self.widgets[key] = entry(ui, pygame.Rect(x + lw, y, col_w - lw, bh), value)
            y += bh + gap
        self.widgets["join"] = button(ui, pygame.Rect(x, y + gap, col_w, bh), t("Join (J)"), "#primary")
        y += bh + 2 * gap + gap
        self.list_top = y
        label(ui, pygame.Rect(x, y, col_w, bh), t("Tables on this network:"))
        y += bh + gap
        room = max(0, (h - margin - 2 * bh - y) // (bh + gap))
        for k, info in enumerate(self.found[:room]):
            text = f"{t(registry.game_class(info['game']).title) if info['game'] in self.games else info['game']}" \
                   f" · {info.get('host', '')} · {info['address'].removeprefix('ws://')}"
            self.widgets[("found", k)] = button(ui, pygame.Rect(x, y, col_w, bh), text)
            y += bh + gap
        bw = max(200, min(320, w // 5))
        self.widgets["back"] = button(ui, pygame.Rect(margin, h - margin - bh, bw, bh), t("Back (Esc)"))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            if key == "host":
                self.host()
            elif key == "options":
                self.options()
            elif key == "resume":
                self.resume()
            elif key == "join":
                self.join()
            elif key == "back":
                self.app.pop()
            elif isinstance(key, tuple) and key[0] == "found":
                self.read_fields()
                self.address = self.found[key[1]]["address"]
                self.app.rebuild()
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            self.read_fields()
            if key == "game":
                self.game_name = next((g for g in self.games if t(registry.game_class(g).title) == event.text),
                                      self.game_name)
                self.reset_seats()
                self.app.rebuild()
            elif isinstance(key, tuple) and key[0] == "kind":
                for kind in ["remote", "local"] + [f"ai:{lv}" for lv in workers.levels()]:
                    if self.kind_text(kind) == event.text:
                        self.kinds[key[1]] = kind
        elif event.type == pygame.KEYDOWN and not self.typing():
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key == pygame.K_h:
                self.host()
            elif event.key == pygame.K_v:
                self.options()
            elif event.key == pygame.K_r and "resume" in self.widgets:
                self.resume()
            elif event.key == pygame.K_j:
                self.join()

    def typing(self) -> bool:
        return any(isinstance(wdg, UITextEntryLine) and wdg.is_focused for wdg in self.widgets.values())

    def read_fields(self) -> None:
        for key in ("address", "code"):
            wdg = self.widgets.get(key)
            if wdg is not None:
                setattr(self, key, wdg.get_text().strip())

    def player_name(self) -> str:
        wdg = self.widgets.get("name")
        return (wdg.get_text().strip() if wdg is not None else "") or self.app.settings.player_name or t("Player")

    def host(self) -> None:
        """Open a table of the game's default variant with these seats and go to its lobby."""
        self.read_fields()
        self.host_with(self.game_name, {}, self.kinds, self.player_name())

    def options(self) -> None:
        """Choose the variant, the seats and the names on the New game screen, which then hosts the table."""
        self.read_fields()
        self.app.push(navigation.make(self.app, "new_game", self.game_name, online=self.host_with))

    def host_with(self, game_name: str, variant: dict[str, Any], kinds: list[str], name: str | list[str]) -> None:
        """Open the table and go to its lobby (on an error: back here, saying why). ``name``: this computer's
        player, or one name per seat (local players and AI seats keep theirs)."""
        try:
            hosted = HostedTable(game_name, kinds, variant, name, HOST_BIND, ANNOUNCE, HOST_AI,
                                 autosave=host_autosave())
        except (TableError, OSError) as e:
            self.error = t("The table could not be opened: {error}", error=str(e))
            if self.app.top is not self:
                self.app.pop()
            return
        self.app.reset_to(navigation.make(self.app, "online_lobby", hosted))

    def resume(self) -> None:
        """Reopen the table this computer hosted when the app stopped (see :func:`resume_hosted`)."""
        self.error = resume_hosted(self.app)
        if self.error:
            self.app.rebuild()

    def join(self) -> None:
        """Join the table at the typed address with the typed code."""
        self.read_fields()
        if not self.address or not self.code:
            self.error = t("Type the host's address and the table code.")
            return
        joined = JoinedTable(self.address, self.code, self.player_name())
        self.app.replace(navigation.make(self.app, "online_lobby", joined))

    def update(self, dt: float) -> None:
        if self.browser is None:
            return
        found = sorted(self.browser.tables(), key=lambda i: i["address"])
        found = [i for i in found if not i.get("started")]
        if [i["address"] for i in found] != [i["address"] for i in self.found]:
            self.found = found
            self.read_fields()
            self.app.rebuild()

    def changing(self) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        if self.error:
            w, h = surface.get_size()
            txt.blit_text(surface, self.error, (w // 2, h - max(80, h // 8)), max(14, h // 48), ERROR, False,
                          "center", max_width=w - 40)

    def leave(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None


def hosted_table_title() -> str | None:
    """The game of the table this computer hosted when the app stopped (saved after every move), or None."""
    try:
        saved = host_autosave().peek()
    except Exception:  # noqa: BLE001 - an unreadable save: Play online says why when it is resumed
        return None
    return t(saved.match.game.title) if saved is not None and "net" in saved.meta else None


def resume_hosted(app: Any) -> str:
    """Reopen the hosted table and go to its lobby (the table opens at once): the host's players see it again and
    the remote players' apps rejoin their seats. Returns why it could not be reopened ("" when it opened)."""
    try:
        hosted = HostedTable.resume(host_autosave(), HOST_BIND, ANNOUNCE, HOST_AI)
    except (StateFormatError, TableError, OSError) as e:
        return t("The hosted table could not be resumed: {error}", error=str(e).splitlines()[0])
    app.reset_to(navigation.make(app, "online_lobby", hosted))
    return ""


class LobbyScreen(Screen):
    """Who sits where until the host starts; the table opens when the first deal arrives."""

    name = "online_lobby"

    def __init__(self, app: Any, net: HostedTable | JoinedTable) -> None:
        super().__init__(app)
        self.net = net
        self.widgets: dict[str, Any] = {}
        self.started = False
        self.opened = False
        self.can_start = False

    def build(self) -> None:
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        margin = max(16, w // 40)
        bw = max(200, min(320, w // 4))
        title = t("Your table") if self.net.is_host else t("Joining a table")
        label(self.ui, pygame.Rect(margin, margin // 2, w - 2 * margin, int(bh * 1.4)), title, "#title")
        self.widgets = {"back": button(self.ui, pygame.Rect(margin, h - margin - bh, bw, bh), t("Leave (Esc)"))}
        if self.net.is_host:
            self.widgets["start"] = button(self.ui, pygame.Rect(w - margin - bw, h - margin - bh, bw, bh),
                                           t("Start (Enter)"), "#primary", enabled=self.can_start)

    def update(self, dt: float) -> None:
        net = self.net
        net.poll()
        can = net.can_start() and not self.started
        if can != self.can_start:
            self.can_start = can
            self.app.rebuild()
        ctl = net.controller
        if ctl is not None and ctl.ready and not self.opened:
            self.opened = True
            self.app.reset_to(navigation.make(self.app, "table", ctl))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.widgets.get("start"):
                self.start()
            elif event.ui_element is self.widgets.get("back"):
                self.back()
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.back()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.start()

    def start(self) -> None:
        """The host deals the first hand (when every remote seat has its player)."""
        if self.net.is_host and self.net.can_start() and not self.started:
            self.started = True
            self.net.start()

    def back(self) -> None:
        self.net.close()
        self.app.reset_to(navigation.make(self.app, "menu"))

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        w, h = surface.get_size()
        size = max(14, min(30, h // 34))
        margin = max(16, w // 40)
        x, y = w // 2, margin + int(line_height(self.app.font_size) * 2)
        net = self.net
        if net.is_host:
            y = txt.blit_text(surface, t("Table code: {code}", code=net.code), (x, y), int(size * 1.6), GOLD, True,
                              "midtop").bottom + 6
            y = txt.blit_text(surface, t("Address: {address}", address=net.address.removeprefix("ws://")), (x, y),
                              size, WHITE, False, "midtop", max_width=w - 40).bottom + 4
            y = txt.blit_text(surface, t("Give the players this address and code."), (x, y), size, MUTED, False,
                              "midtop", max_width=w - 40).bottom + size
        else:
            y = txt.blit_text(surface, t("Table at {address}", address=net.address.removeprefix("ws://")), (x, y),
                              size, WHITE, False, "midtop", max_width=w - 40).bottom + size
        ctl = net.controller
        lobby = ctl.lobby if ctl is not None else None
        if net.error:
            y = txt.blit_text(surface, net.error, (x, y), size, ERROR, False, "midtop", max_width=w - 40).bottom + 8
        elif lobby is None:
            y = txt.blit_text(surface, t("Connecting..."), (x, y), size, MUTED, False, "midtop").bottom + 8
        else:
            y = self.draw_seats(surface, lobby, (x, y), size, w)
            if self.started:
                text = t("Dealing...")
            elif net.is_host:
                text = t("Every seat is filled: start when you are ready.") if self.can_start else \
                    t("Waiting for the players to join...")
            else:
                text = t("Waiting for the host to start...")
            txt.blit_text(surface, text, (x, y + size), size, GOLD, False, "midtop", max_width=w - 40)

    def draw_seats(self, surface: pygame.Surface, lobby: dict[str, Any], pos: tuple[int, int], size: int,
                   w: int) -> int:
        """One line per seat: its number, who plays it and whether they are here."""
        x, y = pos
        ctl = self.net.controller
        seats = lobby.get("seats", [])
        labels = seat_labels(seats)
        mine = set(getattr(ctl, "local_seats", [ctl.seat])) if ctl is not None else set()
        for s in seats:
            kind = s.get("kind")
            who = describe.seat_name(labels.get(s.get("seat"), ""))
            if kind == "local":
                who = t("{name} (this computer)", name=who) if self.net.is_host else t("{name} (at the host)", name=who)
            elif kind == "remote" and not s.get("taken"):
                who = t("Free: waiting for a player")
            line = t("Seat {n}", n=s.get("seat", 0) + 1) + " · " + who
            if s.get("seat") in mine and len(mine) == 1:
                line += " · " + t("You")
            colour = WHITE if kind != "remote" or s.get("taken") else MUTED
            y = txt.blit_text(surface, line, (x, y), size, colour, s.get("seat") in mine, "midtop",
                              max_width=w - 40).bottom + 6
        return y

    def leave(self) -> None:
        if not self.opened:
            self.net.close()


class OnlineMatchEndScreen(Screen):
    """The end of a network match: the winners and totals; the match is recorded on this computer for each of
    its players (from their own seat), and each gets the survey when the settings ask for it."""

    name = "online_match_end"

    def __init__(self, app: Any, controller: Any) -> None:
        super().__init__(app)
        self.ctl = controller
        self.message = ""
        self.record_ids: dict[int, int] = {}
        self.button: Any = None
        self.session: GameSession | None = None
        self.seats: list[int] = list(getattr(controller, "local_seats", [controller.seat]))
        end = controller.match_end
        if end is not None and end.get("record") is not None:
            try:
                self.session = GameSession.from_dict(end["record"])
                for seat in self.seats:
                    self.record_ids[seat] = record_match(end, seat)
            except Exception as e:  # noqa: BLE001 - the game could not be recorded: say so, lose nothing else
                self.message = t("The game could not be recorded: {error}", error=str(e).splitlines()[0])
            else:
                for i, named in enumerate(self.session.seats):  # the survey names the seats as the table did
                    if named.kind == "ai" and i < len(controller.seats):
                        named.display_name = controller.seats[i].label
        controller.close()

    @property
    def record_id(self) -> int | None:
        """The record of this computer's (first) player."""
        return self.record_ids.get(self.seats[0])

    def build(self) -> None:
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        bw = max(240, min(360, w // 4))
        self.button = button(self.ui, pygame.Rect((w - bw) // 2, int(h * 0.72), bw, bh), t("Main menu (Enter)"),
                             "#primary")

    def handle(self, event: pygame.event.Event) -> None:
        if (event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.button) or \
                (event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER,
                                                                pygame.K_ESCAPE)):
            self.leave_to_menu()

    def leave_to_menu(self) -> None:
        """The survey on this screen when the settings ask for it - for each of its players in turn, about the
        game from their seat (answers stored here) - then the menu."""
        app = self.app
        if self.session is not None and self.record_ids:
            try:
                with RecordsDB() as db:
                    games = db.count()
            except Exception:  # noqa: BLE001 - the survey's frequency then counts this game only
                games = 1
            if survey_due(app.settings, games):
                self.survey(list(self.record_ids))
                return
        app.reset_to(navigation.make(app, "menu"))

    def survey(self, seats: list[int]) -> None:
        """The survey of the first of ``seats``, then of the others, then the menu."""
        app = self.app
        if not seats:
            app.reset_to(navigation.make(app, "menu"))
            return
        seat, rest = seats[0], seats[1:]
        player = describe.seat_name(self.ctl.seats[seat].label) if len(self.record_ids) > 1 else ""
        app.reset_to(navigation.make(app, "survey", self.session, self.record_ids[seat], then="menu",
                                     human_seat=seat, player=player, on_done=lambda: self.survey(rest)))

    def changing(self) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        w, h = surface.get_size()
        size = max(14, min(32, h // 32))
        ctl = self.ctl
        y = h // 6
        y = txt.blit_text(surface, t("The match is over"), (w // 2, y), int(size * 1.5), GOLD, True,
                          "midtop").bottom + size
        result = describe.winners_line([ctl.seats[s].label for s in ctl.match.winner_seats()])
        y = txt.blit_text(surface, result, (w // 2, y), size, WHITE, True, "midtop", max_width=w - 40).bottom + size
        for team, total in zip(ctl.game.teams(), ctl.match.totals, strict=False):
            names = " & ".join(describe.seat_name(ctl.seats[s].label) for s in team)
            y = txt.blit_text(surface, f"{names}: {total:g}", (w // 2, y), size, WHITE, False, "midtop",
                              max_width=w - 40).bottom + 4
        note = self.message or (t("The game is in your statistics.") if self.record_ids else "")
        if note:
            txt.blit_text(surface, note, (w // 2, y + size), size, ERROR if self.message else MUTED, False,
                          "midtop", max_width=w - 40)


navigation.register(OnlineScreen.name, OnlineScreen)
navigation.register(LobbyScreen.name, LobbyScreen)
navigation.register(OnlineMatchEndScreen.name, OnlineMatchEndScreen)
