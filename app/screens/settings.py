"""Settings (persisted through ``saves.settings``): language, animation speed, AI delay, card style, ..."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from app import i18n, navigation
from app.i18n import t
from app.navigation import Screen
from app.widgets import button, dropdown, entry, label, line_height

SPEEDS = ("Off", "Slow", "Normal", "Fast")
DELAYS = (0, 300, 600, 1000, 1500, 2500)
SURVEYS = {"off": "Never", "every": "After every game", "every_n": "After every 3 games"}


def capture_values(settings: Any) -> bool:
    """Whether the court cards of the capture games show their values (kept in ``Settings.extra``)."""
    return bool(settings.extra.get("capture_values", False))


class SettingsScreen(Screen):
    """Every persisted setting as a drop-down, saved on each change."""
    name = "settings"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.widgets: dict[str, Any] = {}

    def rows(self) -> list[tuple[str, str, list[str], str]]:
        """(key, label, options, current option) of every setting."""
        s = self.app.settings
        on_off = [t("On"), t("Off")]

        def yn(v: bool) -> str:
            """On/Off text of a flag."""
            return t("On") if v else t("Off")

        return [
            ("language", t("Language"), [i18n.LANGUAGE_NAMES[c] for c in i18n.LANGUAGES],
             i18n.LANGUAGE_NAMES.get(s.language, "English")),
            ("animation_speed", t("Animation speed"), [t(x) for x in SPEEDS], t(SPEEDS[s.animation_speed])),
            ("ai_min_delay_ms", t("AI minimum move delay"), [f"{d} ms" for d in DELAYS], f"{s.ai_min_delay_ms} ms"),
            ("card_style", t("Card style"), [t("Classic"), t("Four-colour")],
             t("Four-colour") if s.card_style == "four_colour" else t("Classic")),
            ("auto_sort", t("Sort my hand"), on_off, yn(s.auto_sort)),
            ("capture_values", t("Capture values on court cards"), on_off, yn(capture_values(s))),
            ("sound", t("Sound"), on_off, yn(s.sound)),
            ("fullscreen", t("Full screen (F11)"), on_off, yn(self.app.fullscreen)),
            ("allow_undo", t("Allow undo against AI"), on_off, yn(s.allow_undo)),
            ("survey", t("Survey after a game"), [t(v) for v in SURVEYS.values()], t(SURVEYS[s.survey])),
        ]

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        gap = max(6, bh // 4)
        box_w = min(w - 40, max(900, int(w * 0.5)))
        x = (w - box_w) // 2
        y = max(16, h // 30)
        label(self.ui, pygame.Rect(x, y, box_w, int(bh * 1.4)), t("Settings"), "#title")
        y += int(bh * 1.6)
        lw = int(box_w * 0.45)
        self.widgets = {}
        for key, name, options, current in self.rows():
            label(self.ui, pygame.Rect(x, y, lw, bh), name)
            self.widgets[key] = dropdown(self.ui, pygame.Rect(x + lw, y, box_w - lw, bh), options, current)
            y += bh + gap
        label(self.ui, pygame.Rect(x, y, lw, bh), t("Your name"))
        self.widgets["player_name"] = entry(self.ui, pygame.Rect(x + lw, y, box_w - lw, bh),
                                            self.app.settings.player_name)
        self.widgets["back"] = button(self.ui, pygame.Rect(x, h - bh - max(16, h // 30), min(300, box_w), bh),
                                      t("Back (Esc)"), "#primary")

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        name_field = self.widgets.get("player_name")
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            if key:
                self.change(key, event.text)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and name_field is not None \
                and event.ui_element is name_field:
            self.app.settings.player_name = name_field.get_text()[:40]
        elif event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.widgets.get("back"):
            self.close()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()

    def close(self) -> None:
        """Save and go back."""
        self.app.save_settings()
        self.app.pop()

    def change(self, key: str, text: str) -> None:
        """Apply one setting from its displayed value and persist it."""
        s = self.app.settings
        if key == "language":
            code = next((c for c, n in i18n.LANGUAGE_NAMES.items() if n == text), "en")
            self.app.save_settings()
            self.app.set_language(code)
        elif key == "animation_speed":
            s.animation_speed = next((i for i, x in enumerate(SPEEDS) if t(x) == text), 2)
        elif key == "ai_min_delay_ms":
            s.ai_min_delay_ms = int(text.split()[0])
        elif key == "card_style":
            s.card_style = "four_colour" if text == t("Four-colour") else "classic"
        elif key == "fullscreen":
            if (text == t("On")) != self.app.fullscreen:
                self.app.toggle_fullscreen()
        elif key == "survey":
            s.survey = next((k for k, v in SURVEYS.items() if t(v) == text), "off")
        elif key == "capture_values":
            s.extra["capture_values"] = text == t("On")
        elif key in ("auto_sort", "sound", "allow_undo"):
            setattr(s, key, text == t("On"))
        self.app.save_settings()


navigation.register(SettingsScreen.name, SettingsScreen)
