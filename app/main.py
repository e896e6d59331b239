"""The application: window, event loop, screen stack, resize/fullscreen (F11), settings and services."""

from __future__ import annotations

import json
import os
import time
import warnings
from typing import Any

import pygame
import pygame_gui

from app import i18n, navigation, resources, screens  # noqa: F401 - importing the screens registers them
from app.i18n import t
from app.navigation import BACKGROUND, Screen  # noqa: F401 - re-exported

THEME_PATH = resources.asset("themes", "theme.json")
MIN_SIZE = (800, 600)


class App:
    """The window and the screen stack. ``step`` runs exactly one frame (tests drive it directly)."""

    def __init__(self, size: tuple[int, int] | None = None, headless: bool = False,
                 worker_factory: Any = None) -> None:
        t0 = time.perf_counter()
        from saves.settings import load_settings

        loaded = load_settings()
        self.settings = loaded.settings
        self.startup_warnings = list(loaded.warnings)
        i18n.set_language(self.settings.language)
        os.environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")  # crisp, unscaled pixels on HiDPI
        pygame.init()
        pygame.key.set_repeat(350, 40)
        self.headless = headless or os.environ.get("SDL_VIDEODRIVER") == "dummy"
        if size is None:
            size = (max(MIN_SIZE[0], self.settings.window_width), max(MIN_SIZE[1], self.settings.window_height))
        self.window_size = size
        self.fullscreen = False
        try:  # the window and taskbar icon, set before the window opens (some platforms read it only then)
            pygame.display.set_icon(pygame.image.load(resources.asset_path(*resources.WINDOW_ICON)))
        except (pygame.error, OSError):
            pass
        self.surface = self._set_mode(size, self.settings.fullscreen and not self.headless)
        pygame.display.set_caption(resources.WINDOW_TITLE)
        self.font_size = 0
        self.ui: pygame_gui.UIManager = self._make_manager()
        self.stack: list[Screen] = []
        self.clock = pygame.time.Clock()
        self.running = True
        self._worker: Any = None
        self._autosave: Any = None
        self._worker_factory = worker_factory
        self.frame_times: list[float] = []
        self._drawn_top: Screen | None = None
        self.study: Any = None
        """The running study (``app.study.StudyContext``) once a study file is opened."""
        self.study_file: str = str(self.settings.extra.get("study_file", "") or "")
        """The study file the menu's Study entry opens ("" = no Study entry); ``--study`` sets it."""
        from app.startup import open_data_folder

        open_data_folder(self)  # sets read_only when another cardtable uses the data folder
        self.startup_s = time.perf_counter() - t0

    # --- window --------------------------------------------------------------------------------
    def _set_mode(self, size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
        self.fullscreen = fullscreen
        if fullscreen:
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        return pygame.display.set_mode(size, pygame.RESIZABLE)

    def gui_font_size(self) -> int:
        """The GUI text size for the current window (even steps, 14..26 px): it grows with the height, but a
        tall narrow window (a portrait screen) keeps the text its width has room for."""
        w, h = self.surface.get_size()
        return max(14, min(26, int(min(h / 46, w / 73)) // 2 * 2))

    def _theme(self, size: int) -> dict[str, Any]:
        try:
            theme = json.loads(THEME_PATH.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            theme = {"defaults": {}}
        font: dict[str, str] = {"name": "cardtable", "size": str(size)}
        try:
            from app import fonts

            if fonts.font_path(False).is_file():
                font.update(regular_path=str(fonts.font_path(False)), bold_path=str(fonts.font_path(True)),
                            italic_path=str(fonts.font_path(False)), bold_italic_path=str(fonts.font_path(True)))
            else:
                font = {"name": "noto_sans", "size": str(size)}
        except ImportError:
            font = {"name": "noto_sans", "size": str(size)}
        theme.setdefault("defaults", {})["font"] = font
        for element in ("text_box", "label", "button", "drop_down_menu", "text_entry_line", "tool_tip"):
            theme.setdefault(element, {}).setdefault("font", font)
        big = dict(font, size=str(int(size * 1.8)), bold="1")
        theme.setdefault("#title", {})["font"] = big
        theme.setdefault("#help", {})["font"] = dict(font, size=str(max(12, int(size * 0.85))))
        return theme

    def _make_manager(self) -> pygame_gui.UIManager:
        self.font_size = self.gui_font_size()
        manager = pygame_gui.UIManager(self.surface.get_size(), self._theme(self.font_size),
                                       starting_language=self._gui_language())
        size = self.font_size
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                manager.preload_fonts([{"name": "cardtable", "point_size": px, "style": style, "antialiased": "1"}
                                   for px in (size, int(size * 0.85), int(size * 1.8))
                                   for style in ("bold", "regular")])
        except Exception:  # noqa: BLE001 - only a loading-time optimisation
            pass
        return manager

    @staticmethod
    def _gui_language() -> str:
        return i18n.language() if i18n.language() in ("en", "pt", "it") else "en"

    @property
    def size(self) -> tuple[int, int]:
        """The window size in pixels."""
        return self.surface.get_size()

    def resize(self, size: tuple[int, int]) -> None:
        """Adapt to a new window size (keeps a minimum size) and rebuild the current screen."""
        w, h = max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1]))
        if (w, h) != self.surface.get_size() or not self.fullscreen:
            self.surface = self._set_mode((w, h), False) if not self.fullscreen else self.surface
        self.window_size = (w, h)
        self._sync_manager()
        if not self.fullscreen:
            self.settings.window_width, self.settings.window_height = w, h
        self.rebuild()

    def toggle_fullscreen(self) -> None:
        """Switch between window and full screen (F11)."""
        self.surface = self._set_mode(self.window_size, not self.fullscreen)
        self.settings.fullscreen = self.fullscreen
        self._sync_manager()
        self.rebuild()

    def _sync_manager(self) -> None:
        if self.gui_font_size() != self.font_size:
            self.ui = self._make_manager()
        else:
            self.ui.set_window_resolution(self.surface.get_size())

    def set_language(self, lang: str) -> None:
        """Switch the UI language and rebuild the screen."""
        self.settings.language = lang
        i18n.set_language(lang)
        try:
            self.ui.set_locale(self._gui_language())
        except Exception:  # noqa: BLE001 - pygame-gui without this locale
            pass
        self.rebuild()

    def save_settings(self) -> None:
        """Persist the settings (a failure becomes a warning)."""
        from saves.settings import save_settings

        try:
            save_settings(self.settings)
        except OSError as e:
            self.startup_warnings.append(t("Could not save the settings: {error}", error=str(e)))

    # --- services ------------------------------------------------------------------------------
    @property
    def worker(self) -> Any:
        """The background move worker (created on first use)."""
        if self._worker is None:
            from app import workers

            self._worker = self._worker_factory() if self._worker_factory else workers.make_worker()
        return self._worker

    def autosave_store(self) -> Any:
        """The autosave (``saves.autosave.AutosaveStore`` written by a background thread; one per app)."""
        if self._autosave is None:
            from app.autosaver import BackgroundAutosave
            from saves.autosave import AutosaveStore

            self._autosave = BackgroundAutosave(AutosaveStore())
        return self._autosave

    def open_study(self, path: str | None = None) -> str | None:
        """Load the study file (``path`` or the configured one) and show its participant ID screen;
        returns the error message when the file cannot be used (the current screen stays)."""
        from app.study import StudyError, load_context

        path = path or self.study_file
        if not path:
            return t("No study file is configured.")
        try:
            ctx = load_context(path)
        except StudyError as e:
            return t("The study file could not be used: {error}", error=str(e))
        self.study_file = str(path)
        self.study = ctx
        self.reset_to(navigation.make(self, "study_participant", ctx))
        return None

    # --- screens -------------------------------------------------------------------------------
    @property
    def top(self) -> Screen | None:
        """The screen on top of the stack."""
        return self.stack[-1] if self.stack else None

    def push(self, screen: Screen) -> None:
        """Show ``screen`` on top of the current one."""
        self.stack.append(screen)
        self.rebuild()

    def pop(self) -> None:
        """Close the top screen."""
        if self.stack:
            self.stack.pop().leave()
        self.rebuild()

    def replace(self, screen: Screen) -> None:
        """Replace the top screen by ``screen``."""
        if self.stack:
            self.stack.pop().leave()
        self.push(screen)

    def reset_to(self, screen: Screen) -> None:
        """Clear the stack and show ``screen``."""
        while self.stack:
            self.stack.pop().leave()
        self.push(screen)

    def rebuild(self) -> None:
        """Recreate the top screen's GUI elements (after a screen change, resize or language switch)."""
        self.ui.clear_and_reset()
        if self.top is not None:
            self.top.build()

    # --- loop ----------------------------------------------------------------------------------
    def step(self, dt: float | None = None, redraw: bool = True) -> float:
        """Process pending events, update and draw one frame (``redraw`` False: draw only when an event came or
        the screen says something moves); returns the frame's work time in ms."""
        start = time.perf_counter()
        if dt is None:
            dt = 1 / 60
        events = pygame.event.get()
        for event in events:
            self.dispatch(event)
        top = self.top
        if top is not None:
            top.update(dt)
        self.ui.update(dt)
        if redraw or events or top is None or top is not self._drawn_top or top.changing():
            self._drawn_top = top
            self.draw()
        ms = (time.perf_counter() - start) * 1000.0
        self.frame_times.append(ms)
        if len(self.frame_times) > 4000:
            del self.frame_times[:2000]
        return ms

    def draw(self) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        top = self.top
        if top is not None:
            if not top.opaque and len(self.stack) > 1:
                self.stack[-2].draw(self.surface)
            top.draw(self.surface)
        self.ui.draw_ui(self.surface)
        if not self.headless:
            pygame.display.flip()

    def dispatch(self, event: pygame.event.Event) -> None:
        """Route one event: quit, resize and F11 here; everything else to the GUI and the top screen."""
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type == pygame.VIDEORESIZE and not self.fullscreen:
            self.resize((event.w, event.h))
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        self.ui.process_events(event)
        if self.top is not None:
            self.top.handle(event)

    def quit(self) -> None:
        """Leave the main loop after this frame."""
        self.running = False

    def run(self) -> None:
        """The interactive main loop."""
        last_input = 0.0
        while self.running:
            fps = self.top.frame_rate() if self.top is not None else 30
            if time.monotonic() - last_input < 1.0:
                fps = 60  # the mouse or keyboard is in use: stay smooth
            dt = self.clock.tick(fps) / 1000.0
            if pygame.event.peek((pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN)):
                last_input = time.monotonic()
            self.step(dt, redraw=False)  # a still screen is not drawn again: no CPU while nothing moves
        self.shutdown()

    def shutdown(self) -> None:
        """Close screens, save settings (not in a read-only instance: the cardtable that holds the data folder
        owns them), stop the worker and quit pygame."""
        while self.stack:
            self.stack.pop().leave()
        if not getattr(self, "read_only", False):
            self.save_settings()
        if self._autosave is not None:
            self._autosave.flush()
        if self._worker is not None:
            try:
                self._worker.shutdown()
            except Exception:  # noqa: BLE001
                pass
            self._worker = None
        from app.startup import close_data_folder

        close_data_folder(self)
        pygame.quit()
        from app import sound, text

        text.clear_caches()
        sound.clear()
