"""Small helpers to create pygame-gui elements with less boilerplate."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextEntryLine


def button(ui: pygame_gui.UIManager, rect: pygame.Rect, text: str, object_id: str | None = None,
           enabled: bool = True, tooltip: str | None = None, container: Any = None) -> UIButton:
    """A button (disabled when ``enabled`` is false)."""
    b = UIButton(rect, text, ui, container=container, tool_tip_text=tooltip,
                 object_id=pygame_gui.core.ObjectID(object_id=object_id) if object_id else None)
    if not enabled:
        b.disable()
    return b


def fit_button_text(b: UIButton, text: str) -> None:
    """Show ``text`` on ``b``, cut short with an ellipsis (the whole text as its tooltip) if it is wider than
    the button."""
    room = b.rect.w - 12
    font = getattr(b, "font", None)
    if font is None or font.size(text)[0] <= room:
        b.set_text(text)
        return
    cut = text
    while cut and font.size(cut + "…")[0] > room:
        cut = cut[:-1]
    b.set_text(cut.rstrip() + "…")
    b.set_tooltip(text)


def label(ui: pygame_gui.UIManager, rect: pygame.Rect, text: str, object_id: str | None = None,
          container: Any = None) -> UILabel:
    """A text label."""
    return UILabel(rect, text, ui, container=container,
                   object_id=pygame_gui.core.ObjectID(object_id=object_id) if object_id else None)


def dropdown(ui: pygame_gui.UIManager, rect: pygame.Rect, options: list[str], current: str,
             container: Any = None) -> UIDropDownMenu:
    """A drop-down list showing ``current``."""
    if current not in options:
        current = options[0]
    return UIDropDownMenu(options, current, rect, ui, container=container)


def entry(ui: pygame_gui.UIManager, rect: pygame.Rect, text: str, container: Any = None) -> UITextEntryLine:
    """A one-line text field holding ``text``."""
    e = UITextEntryLine(rect, ui, container=container)
    e.set_text(text)
    return e


def line_height(ui_font_size: int) -> int:
    """A comfortable height for buttons and dropdowns at a GUI font size."""
    return int(ui_font_size * 2.2)
