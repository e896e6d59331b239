"""New game: the game, its variant options (from the engine's schema), the match target and each seat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from app import describe, i18n, navigation, resume, workers
from app import text as txt
from app.i18n import t
from app.navigation import BACKGROUND, Screen
from app.screens.confirm import ConfirmScreen
from app.sessions import new_session
from app.tables.base import GOLD, MUTED
from app.widgets import button, dropdown, entry, label, line_height
from engine import registry
from engine.game import Game, Option, VariantError
from saves.session import Seat

AI_NAMES = ("Ana", "Bruno", "Carla", "Dino", "Eva", "Filipe")


def default_seats(n: int, player_name: str = "") -> list[Seat]:
    """You against (and with) AIs at the casual level."""
    seats = [Seat("human", player_name or t("You"))]
    for i in range(1, n):
        seats.append(Seat("ai", AI_NAMES[(i - 1) % len(AI_NAMES)], "", "casual"))
    return seats


def seat_name(name: str, index: int, hotseat: bool) -> str:
    """A seat's name at the table: "Player 2" for an empty name, and in a game of several humans also for the
    default "You" (so that nobody is asked to "pass the device to You")."""
    if not name or (hotseat and describe.seat_name(name) == t("You")):
        return f"{t('Player')} {index + 1}"
    return name


def replace_unfinished_game(app: Any, game_name: str, start: Any) -> bool:
    """True when starting a game of ``game_name`` ends no unfinished game (an unfinished game of another kind
    is put aside first, see ``app.resume``); else ask first (start the new game with ``start``, continue the
    saved one, or go back) and return False."""
    ends = resume.make_room(app, game_name)
    if not ends:
        return True
    def continue_saved() -> None:
        navigation.make(app, "menu").continue_game()  # type: ignore[attr-defined]

    def start_anyway() -> None:
        resume.end_put_aside(game_name)
        start()

    titles = [t(registry.game_class(e).title) if isinstance(e, str) else t(e.match.game.title) for e in ends]
    question = t("An unfinished game of {game} is saved. Starting a new game ends it for good.",
                 game=" & ".join(titles))
    app.push(ConfirmScreen(app, question, [(t("Start the new game"), start_anyway),
                                           (t("Continue the saved game"), continue_saved), (t("Back"), lambda: None)]))
    return False


def option_values(option: Option) -> list[str] | None:
    """Display values of an option with a fixed set of values (None for free integers)."""
    return i18n.option_value_texts(option) or None


class NewGameScreen(Screen):
    """Choose the game, its options and the seats."""
    name = "new_game"

    def __init__(self, app: Any, game_name: str | None = None,
                 online: Callable[[str, dict[str, Any], list[str], list[str]], None] | None = None) -> None:
        super().__init__(app)
        self.online = online
        """Set for a network table (Play online): seat 1 is this computer's player, the others remote players,
        more players at this computer or AIs, and Start calls ``online(game, variant, seats, names)`` (seats as
        ``net.table.parse_seats`` reads, one name per seat)."""
        self.games = registry.available()
        self.game_name = game_name if game_name in self.games else self.games[0]
        self.variant: dict[str, Any] = {}
        self.seats: list[Seat] = []
        self.widgets: dict[Any, Any] = {}
        self.error = ""
        self._rule_agents: dict[str, list[str]] = {}
        self.reset_game(self.game_name)

    def reset_game(self, name: str) -> None:
        """Switch to game ``name`` with default options and seats."""
        self.game_name = name
        cls = registry.game_class(name)
        self.variant = {o.name: o.default for o in cls.options}
        self.seats = default_seats(self.num_players(), self.app.settings.player_name)
        if self.online is not None and len(self.seats) > 1:
            self.seats[1] = Seat("remote", "")
        self.error = ""

    def game(self) -> Game:
        """The game with the current options (may raise VariantError)."""
        return registry.create(self.game_name, self.variant)

    def num_players(self) -> int:
        """Number of seats of the current options."""
        try:
            return self.game().num_players
        except VariantError:
            return len(self.seats) or 4

    def rule_agents(self) -> list[str]:
        """Fair rule-based agents that play the chosen game (offered besides the search presets)."""
        if self.game_name not in self._rule_agents:
            from engine import agents

            names = []
            for name in ("heuristic", "greedy", "cs", "cg", "biggest", "smallest", "annoying", "random"):
                try:
                    cls = agents.agent_class(name, self.game_name)
                    if not cls.fair or (cls.games and self.game_name not in cls.games):
                        continue
                    agents.make(name, self.game())
                except Exception:  # noqa: BLE001 - an agent that does not support this game/variant
                    continue
                names.append(name)
            self._rule_agents[self.game_name] = names
        return self._rule_agents[self.game_name]

    def kind_options(self) -> list[str]:
        """Seat kinds: human, AI presets, rule-based agents."""
        return ([t("Remote player"), t("Player here")] if self.online else [t("Human")]) + \
            [t("AI: {level}", level=t(level)) for level in workers.levels()] + \
            [t("Rule-based: {name}", name=name) for name in self.rule_agents()]

    def seat_kind_text(self, seat: Seat) -> str:
        """The kind option shown for ``seat``."""
        if seat.kind == "human":
            return t("Player here") if self.online else t("Human")
        if seat.kind == "remote":
            return t("Remote player")
        if not seat.preset and seat.spec:
            return t("Rule-based: {name}", name=seat.spec)
        return t("AI: {level}", level=t(seat.preset or "casual"))

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        ui = self.ui
        bh = line_height(self.app.font_size)
        gap = max(4, bh // 5)
        margin = max(16, w // 40)
        self.widgets = {}
        col_w = (w - 3 * margin) // 2
        left = pygame.Rect(margin, margin + int(bh * 1.6), col_w, h - 2 * margin - int(bh * 3.2))
        right = pygame.Rect(2 * margin + col_w, left.top, col_w, left.h)
        label(ui, pygame.Rect(margin, margin // 2, w - 2 * margin, int(bh * 1.4)),
              t("Host a table") if self.online else t("New game"), "#title")
        y = left.top
        lw = int(col_w * 0.42)
        label(ui, pygame.Rect(left.left, y, lw, bh), t("Game"))
        titles = [t(registry.game_class(g).title) for g in self.games]
        self.widgets["game"] = dropdown(ui, pygame.Rect(left.left + lw, y, col_w - lw, bh), titles,
                                        t(registry.game_class(self.game_name).title))
        y += bh + gap
        cls = registry.game_class(self.game_name)
        help_size = max(12, int(self.app.font_size * 0.85))
        hh = int(bh * 0.7)
        blocks = []
        for opt in cls.options:
            lines = txt.wrap(i18n.option_help(opt), help_size, col_w - lw - 24)[:5]
            blocks.append((opt, lines, bh + len(lines) * hh + gap))
        total = sum(b[2] for b in blocks)
        room = left.bottom - y
        container = None
        ox, oy, ow = left.left, y, col_w
        if total > room:
            from pygame_gui.elements import UIScrollingContainer

            scroll = UIScrollingContainer(pygame.Rect(left.left, y, col_w, room), ui, allow_scroll_x=False)
            scroll.set_scrollable_area_dimensions((col_w - 24, total))
            self.widgets["options_scroll"] = scroll
            container = scroll
            ox, oy, ow = 0, 0, col_w - 24
        for opt, lines, _height in blocks:
            name = i18n.option_name(opt)
            label(ui, pygame.Rect(ox, oy, lw, bh), name, container=container)
            values = option_values(opt)
            r = pygame.Rect(ox + lw, oy, ow - lw, bh)
            current = str(self.variant.get(opt.name, opt.default))
            if values is not None:
                self.widgets[("opt", opt.name)] = dropdown(ui, r, [i18n.option_value(v) for v in values],
                                                           i18n.option_value(current), container=container)
            else:
                self.widgets[("opt", opt.name)] = entry(ui, r, current, container=container)
            oy += bh
            for line in lines:
                label(ui, pygame.Rect(ox + lw, oy, ow - lw, hh), line, "#help", container=container)
                oy += hh
            oy += gap
        # Seats.
        y = right.top
        partners = self.valid() and any(len(team) > 1 for team in self.game().teams())
        heading = t("Seats (in play order; A and B are the teams)") if partners else t("Seats (in play order)")
        label(ui, pygame.Rect(right.left, y, col_w, bh), heading)
        y += bh + gap
        n = self.num_players()
        while len(self.seats) < n:
            self.seats.append(Seat("ai", AI_NAMES[(len(self.seats) - 1) % len(AI_NAMES)], "", "casual"))
        del self.seats[n:]
        teams = self.game().teams() if self.valid() else []
        for i, seat in enumerate(self.seats):
            team = next((k for k, tm in enumerate(teams) if i in tm and len(tm) > 1), None)
            tag = f"{i + 1}" + (f" · {'AB'[team % 2]}" if team is not None else "")
            label(ui, pygame.Rect(right.left, y, int(col_w * 0.22), bh), tag)
            nx = right.left + int(col_w * 0.22)
            nw = int(col_w * 0.36)
            self.widgets[("name", i)] = entry(ui, pygame.Rect(nx, y, nw, bh), seat.name)
            if self.online is not None and i == 0:  # the host's own seat
                label(ui, pygame.Rect(nx + nw + gap, y, col_w - (nx + nw + gap - right.left), bh),
                      t("This computer"))
                y += bh + gap
                continue
            self.widgets[("kind", i)] = dropdown(ui, pygame.Rect(nx + nw + gap, y, col_w - (nx + nw + gap -
                                                                                        right.left), bh),
                                                 self.kind_options(), self.seat_kind_text(seat))
            y += bh + gap
        y += gap
        if any(s.kind == "ai" for s in self.seats):
            for lv in workers.levels():
                for line in txt.wrap(t(workers.describe_level(lv)), max(12, int(self.app.font_size * 0.85)),
                                     col_w - 16)[:2]:
                    if y + bh * 2 > right.bottom:
                        break
                    label(ui, pygame.Rect(right.left, y, col_w, int(bh * 0.7)), line, "#help")
                    y += int(bh * 0.7)
        bw = max(200, min(320, w // 5))
        by = h - margin - bh
        self.widgets["start"] = button(ui, pygame.Rect(w - margin - bw, by, bw, bh),
                                       t("Host (Enter)") if self.online else t("Start (Enter)"), "#primary")
        self.widgets["back"] = button(ui, pygame.Rect(margin, by, bw, bh), t("Back (Esc)"))

    def valid(self) -> bool:
        """Whether the current options are valid."""
        try:
            self.game()
        except VariantError:
            return False
        return True

    def read_widgets(self) -> None:
        """Copy text fields (names, integer options) into the model."""
        for key, widget in self.widgets.items():
            if isinstance(key, tuple) and key[0] == "name" and key[1] < len(self.seats):
                self.seats[key[1]].name = widget.get_text().strip()[:40] or self.seats[key[1]].name
            elif isinstance(key, tuple) and key[0] == "opt" and hasattr(widget, "get_text"):
                self.variant[key[1]] = widget.get_text().strip()

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.widgets.get("start"):
                self.start()
            elif event.ui_element is self.widgets.get("back"):
                self.app.pop()
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            self.on_dropdown(key, event.text)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            if isinstance(key, tuple) and key[0] == "opt":
                self.read_widgets()
                self.app.rebuild()
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not self.typing():
                self.start()

    def typing(self) -> bool:
        """Whether a text field has the keyboard focus."""
        return any(isinstance(wdg, UITextEntryLine) and wdg.is_focused for wdg in self.widgets.values())

    def on_dropdown(self, key: Any, text: str) -> None:
        """Apply a drop-down choice."""
        self.read_widgets()
        if key == "game":
            for g in self.games:
                if t(registry.game_class(g).title) == text:
                    self.reset_game(g)
            self.app.rebuild()
        elif isinstance(key, tuple) and key[0] == "opt":
            cls = registry.game_class(self.game_name)
            opt = next(o for o in cls.options if o.name == key[1])
            for v in option_values(opt) or []:
                if i18n.option_value(v) == text:
                    self.variant[opt.name] = v
            self.app.rebuild()
        elif isinstance(key, tuple) and key[0] == "kind":
            seat = self.seats[key[1]]
            if text == t("Human") or (text == t("Player here") and self.online is not None):
                seat.kind, seat.preset, seat.spec = "human", "", ""
            elif text == t("Remote player") and self.online is not None:
                seat.kind, seat.preset, seat.spec = "remote", "", ""
            else:
                for level in workers.levels():
                    if text == t("AI: {level}", level=t(level)):
                        seat.kind, seat.preset, seat.spec = "ai", level, ""
                for name in self.rule_agents():
                    if text == t("Rule-based: {name}", name=name):
                        seat.kind, seat.preset, seat.spec = "ai", "", name

    def start(self, seed: int | None = None) -> bool:
        """Validate and start the match; on bad input show the reason and stay."""
        self.read_widgets()
        try:
            game = self.game()
        except VariantError as e:
            self.error = str(e)
            return False
        hotseat = sum(s.kind == "human" for s in self.seats) > 1
        if self.online is not None:
            kinds = ["local"] + ["remote" if s.kind == "remote" else "local" if s.kind == "human" else
                                 f"ai:{s.preset or s.spec or 'casual'}" for s in self.seats[1:]]
            names = [seat_name(s.name, i, hotseat) if s.kind == "human" else s.name if s.kind == "ai" else ""
                     for i, s in enumerate(self.seats)]
            self.online(game.name, dict(game.variant), kinds, names)
            return True
        seats = [Seat(s.kind, seat_name(s.name, i, hotseat), s.spec if not s.preset else "", s.preset)
                 for i, s in enumerate(self.seats)]
        session = new_session(game, seats, seed)
        if not replace_unfinished_game(self.app, game.name, lambda: navigation.start_session(self.app, session)):
            return False  # the player is asked first
        navigation.start_session(self.app, session)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        surface.fill(BACKGROUND)
        if self.error:
            w, h = surface.get_size()
            txt.blit_text(surface, self.error, (w // 2, h - max(80, h // 8)), max(14, h // 48), (255, 160, 140),
                          False, "center", max_width=w - 40)
        _ = (GOLD, MUTED)


navigation.register(NewGameScreen.name, NewGameScreen)
