"""A question before something that cannot be undone: a text and a row of choices (Esc = the last choice)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui

from app import text as txt
from app.navigation import BACKGROUND, Screen
from app.tables.base import GOLD
from app.widgets import button, line_height


class ConfirmScreen(Screen):
    """Ask ``question``; each choice is ``(label, action)``, the first one is the primary choice and the last
    one the way back (also Esc). The screen closes itself before the action runs."""

    name = "confirm"

    def __init__(self, app: Any, question: str, choices: list[tuple[str, Callable[[], Any]]]) -> None:
        super().__init__(app)
        self.question = question
        self.choices = choices
        self.buttons: list[Any] = []

    def build(self) -> None:
        """One button per choice, in a row under the question (a column when there are more than three)."""
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        gap = 16
        if len(self.choices) > 3:
            bw = max(280, min(460, w // 3))
            y = int(h * 0.3)
            step = min(bh + gap // 2, max(bh + 2, (h - y - 20) // len(self.choices)))
            self.buttons = []
            for i, (label, _) in enumerate(self.choices):
                self.buttons.append(button(self.ui, pygame.Rect((w - bw) // 2, y, bw, bh), label,
                                           "#primary" if i == 0 else None))
                y += step
            return
        bw = max(200, min(360, (w - 80) // max(1, len(self.choices)) - gap))
        total = len(self.choices) * bw + (len(self.choices) - 1) * gap
        x = (w - total) // 2
        self.buttons = []
        for i, (label, _) in enumerate(self.choices):
            self.buttons.append(button(self.ui, pygame.Rect(x, int(h * 0.6), bw, bh), label,
                                       "#primary" if i == 0 else None))
            x += bw + gap

    def choose(self, index: int) -> None:
        """Close the question and run choice ``index``."""
        action = self.choices[index][1]
        self.app.pop()
        action()

    def handle(self, event: pygame.event.Event) -> None:
        """A button, or Esc for the last choice."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self.choose(self.buttons.index(event.ui_element))
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.choose(len(self.choices) - 1)

    def draw(self, surface: pygame.Surface) -> None:
        """The question, wrapped to the window."""
        surface.fill(BACKGROUND)
        w, h = surface.get_size()
        size = max(18, h // 32)
        lines = txt.wrap(self.question, size, w - 120)
        y = (int(h * 0.45) if len(self.choices) <= 3 else int(h * 0.25)) - len(lines) * int(size * 1.35)
        for line in lines:
            txt.blit_text(surface, line, (w // 2, y), size, GOLD, False, "midtop", max_width=w - 80)
            y += int(size * 1.35)
