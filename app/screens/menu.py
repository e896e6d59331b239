"""The main menu: Continue (when an autosave or a hosted network table is unfinished), New game, Play online,
Statistics, Settings, Rules, Quit."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pygame
import pygame_gui

from app import navigation, resume
from app import text as txt
from app.i18n import t
from app.navigation import BACKGROUND, Screen
from app.screens.confirm import ConfirmScreen
from app.screens.online import hosted_table_title, resume_hosted
from app.tables.base import GOLD, MUTED
from app.widgets import button, line_height
from engine import registry


class MenuScreen(Screen):
    """The main menu."""
    name = "menu"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.buttons: dict[str, Any] = {}
        self.message = "; ".join(app.startup_warnings[:2])  # e.g. a settings file that could not be read
        app.startup_warnings.clear()
        self._deco: list[tuple[pygame.Surface, tuple[int, int]]] = []
        self._deco_size: tuple[int, int] | None = None
        self.has_autosave = False
        self.put_aside: list[str] = []
        self.hosted: str | None = None
        self.read_only = bool(getattr(app, "read_only", False))
        """Another cardtable uses the data folder: only statistics, settings, rules and quit are offered."""
        self.asking_quit = False
        """Esc was pressed: the menu asks whether to quit (Enter quits, Esc stays)."""
        try:
            self.store = app.autosave_store()
            self.has_autosave = bool(self.store.exists())
            self.put_aside = resume.put_aside_games()
            """Unfinished games of other kinds, put aside: Continue lists them with the game at the table."""
            self.hosted = hosted_table_title()
            """The game of the network table this computer hosted, still unfinished: Continue offers it too."""
            self.has_autosave = self.has_autosave or bool(self.put_aside) or self.hosted is not None
        except Exception as e:  # noqa: BLE001
            self.store = None
            self.message = t("The autosave could not be read: {error}", error=str(e))

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        bh = int(line_height(self.app.font_size) * 1.2)
        gap = bh // 3
        bw = max(280, min(460, w // 3))
        items = []
        if self.has_autosave and not self.read_only:
            items.append(("continue", t("Continue")))
        if not self.read_only:
            items.append(("new", t("New game")))
        if not self.read_only:
            items.append(("online", t("Play online (O)")))
        if self.app.study_file and not self.read_only:
            items.append(("study", t("Study")))
        items += [("stats", t("Statistics")), ("settings", t("Settings")),
                  ("rules", t("Rules")), ("credits", t("About (A)")), ("quit", t("Quit"))]
        if self.asking_quit:
            items = [("quit_yes", t("Quit (Enter)")), ("quit_no", t("Stay (Esc)"))]
        total = len(items) * (bh + gap)
        y = max(int(h * 0.32), (h - total) // 2 + h // 12)
        self.buttons = {}
        for key, label in items:
            r = pygame.Rect((w - bw) // 2, y, bw, bh)
            primary = key in ("continue", "new", "quit_yes")
            self.buttons[key] = button(self.ui, r, label, "#primary" if primary else None)
            y += bh + gap

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            key = next((k for k, b in self.buttons.items() if b is event.ui_element), None)
            if key:
                self.activate(key)
        elif event.type == pygame.KEYDOWN and self.asking_quit:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_q):
                self.activate("quit_yes")
            elif event.key == pygame.K_ESCAPE:
                self.activate("quit_no")
        elif event.type == pygame.KEYDOWN:
            shortcuts = {pygame.K_n: "new", pygame.K_c: "continue", pygame.K_s: "settings", pygame.K_r: "rules",
                         pygame.K_o: "online", pygame.K_a: "credits",
                         pygame.K_q: "quit", pygame.K_ESCAPE: "ask_quit"}
            key = shortcuts.get(event.key)
            if key and (key in self.buttons or key == "ask_quit"):
                self.activate(key)

    def changing(self) -> bool:
        """The menu is still between events."""
        return False

    def activate(self, key: str) -> None:
        """Run a menu entry."""
        app = self.app
        if self.read_only and key in ("continue", "new", "study", "online"):
            return
        if key == "continue":
            self.continue_game()
        elif key == "new":
            app.push(navigation.make(app, "new_game"))
        elif key == "study":
            error = app.open_study()
            if error:
                self.message = error
        elif key == "online":
            app.push(navigation.make(app, "online"))
        elif key == "credits":
            app.push(navigation.make(app, "credits"))
        elif key == "stats":
            app.push(navigation.make(app, "statistics"))
        elif key == "settings":
            app.push(navigation.make(app, "settings"))
        elif key == "rules":
            app.push(navigation.make(app, "rules", None))
        elif key in ("quit", "quit_yes"):
            app.quit()
        elif key in ("ask_quit", "quit_no"):
            self.asking_quit = key == "ask_quit"
            app.rebuild()

    def continue_game(self) -> None:
        """Restore the autosaved game and open its table; with games put aside, ask which one first."""
        if self.store is None:
            return
        if self.hosted is not None and not self.put_aside and not self.store.exists():
            self.continue_hosted()
            return
        if self.put_aside or self.hosted is not None:
            self.choose_game()
            return
        self.continue_current()

    def choose_game(self) -> None:
        """Continue which game: the one at the table or one put aside (``app.resume``)."""
        choices: list[tuple[str, Callable[[], None]]] = []
        current = resume.unfinished_at_table(self.app)
        if current is not None or self.store.exists():
            title = t(current.match.game.title) if current is not None else t("The last game")
            choices.append((title, self.continue_current))
        for name in self.put_aside:
            choices.append((t(registry.game_class(name).title), partial(self.continue_put_aside, name)))
        if self.hosted is not None:
            choices.append((t("The hosted table: {game}", game=self.hosted), self.continue_hosted))
        choices.append((t("Back"), lambda: None))
        self.app.push(ConfirmScreen(self.app, t("Continue which game?"), choices))

    def continue_hosted(self) -> None:
        """Reopen the network table this computer hosted (its players rejoin): ``app.screens.online``."""
        error = resume_hosted(self.app)
        if error:
            self.message = error
            self.app.rebuild()

    def continue_put_aside(self, game_name: str) -> None:
        """Take the game of ``game_name`` back from where it was put aside and open its table."""
        session, warnings = resume.take_back(self.app, game_name)
        if session is None:
            self.message = t("The saved game could not be loaded, so there is nothing to continue.") + " " + \
                t("Any damaged file was kept aside. Details: {error}", error="; ".join(warnings) or t("no save found"))
            self.put_aside = resume.put_aside_games()
            self.app.rebuild()
            return
        self.attach_study(session)
        navigation.start_session(self.app, session, warnings)
        resume.forget_put_aside(self.app, session)

    def continue_current(self) -> None:
        """Restore the autosaved game and open its table."""
        if self.store is None:
            return
        try:
            result = self.store.load()
        except Exception as e:  # noqa: BLE001
            self.message = t("The autosave could not be read: {error}", error=str(e))
            return
        session = getattr(result, "session", None)
        warnings = [str(w) for w in getattr(result, "warnings", []) or []]
        if session is None:
            self.message = t("The saved game could not be loaded, so there is nothing to continue.") + " " + \
                t("Any damaged file was kept aside. Details: {error}", error="; ".join(warnings) or t("no save found"))
            self.has_autosave = bool(self.put_aside)
            self.app.rebuild()
            return
        self.attach_study(session)
        notices = []
        if getattr(result, "source", None) == "backup":
            notices.append(
                t("The last save was damaged: the game continues from the save before it (one move earlier)."))
        elif warnings:
            notices.append(t("There was a problem with the saved game:"))
        navigation.start_session(self.app, session, notices + warnings)

    def attach_study(self, session: Any) -> None:
        """A study game continued from the menu goes on inside its study (questionnaire, next game) when the
        configured study file is that study and the participant has consented."""
        tag = getattr(session, "study", None) or {}
        app = self.app
        if not tag or not app.study_file:
            return
        from app.study import StudyError, load_context

        try:
            ctx = app.study if app.study is not None else load_context(app.study_file)
            if ctx.study.id != tag.get("study_id"):
                return
            run = ctx.existing_run(str(tag.get("participant", "")))
        except (StudyError, OSError):
            return
        if run is not None:
            ctx.run = run
            app.study = ctx

    def decoration(self, size: tuple[int, int]) -> list[tuple[pygame.Surface, tuple[int, int]]]:
        """Two fans of cards (French and Italian decks) beside the buttons, cached per window size."""
        if self._deco_size == size:
            return self._deco
        from app.art import card_art
        from engine.cards import FRENCH52, ITALIAN40

        w, h = size
        card_w = max(60, min(150, w // 11))
        out: list[tuple[pygame.Surface, tuple[int, int]]] = []
        fans = ((FRENCH52, ("AS", "KH", "QD", "JC")), (ITALIAN40, ("7D", "AB", "KC", "HS")))
        for side, (deck, cards) in enumerate(fans):
            art = card_art(deck.name, self.app.settings.card_style)
            cx = int(w * (0.17 if side == 0 else 0.83))
            cy = int(h * 0.6)
            for i, text in enumerate(cards):
                angle = (i - 1.5) * 12 * (1 if side == 0 else -1)
                face = pygame.transform.rotozoom(art.face(deck.parse(text), card_w), -angle, 1.0)
                dx = int((i - 1.5) * card_w * 0.32)
                out.append((face, (cx + dx - face.get_width() // 2, cy - face.get_height() // 2 + abs(int(angle)))))
        self._deco, self._deco_size = out, size
        return out

    def draw(self, surface: pygame.Surface) -> None:
        """The title, two fans of cards and the key help (the buttons are GUI elements)."""
        surface.fill(BACKGROUND)
        w, h = surface.get_size()
        for face, pos in self.decoration((w, h)):
            surface.blit(face, pos)
        big = max(40, h // 9)
        txt.blit_text(surface, "cardtable", (w // 2, int(h * 0.14)), big, GOLD, True, "center")
        txt.blit_text(surface, " · ".join(t(e.title) for e in registry.entries()),
                      (w // 2, int(h * 0.14) + big), max(14, h // 45), MUTED, False, "center", max_width=w - 40)
        if self.asking_quit:
            txt.blit_text(surface, t("Quit cardtable?"), (w // 2, int(h * 0.32) - max(14, h // 30)), max(16, h // 30),
                          GOLD, True, "center", max_width=w - 40)
        keys = t("Keys: N new game, S settings, R rules, Q quit") if not self.has_autosave else \
            t("Keys: C continue, N new game, S settings, R rules, Q quit")
        if not self.message:  # the message takes the place of the key help
            txt.blit_text(surface, keys, (w // 2, h - max(56, h // 11)), max(13, h // 52), MUTED, False, "center",
                          max_width=w - 40)
        else:
            size = max(14, h // 48)
            lines = txt.wrap(self.message, size, w - 80)[:3]
            y = h - max(30, h // 20) - (len(lines) - 1) * int(size * 1.3)
            for line in lines:
                txt.blit_text(surface, line, (w // 2, y), size, (255, 160, 140), False, "center", max_width=w - 40)
                y += int(size * 1.3)


navigation.register(MenuScreen.name, MenuScreen)
