"""Small helpers to create pygame-gui elements with less boilerplate."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextEntryLine

from app import text as txt


def button(ui: pygame_gui.UIManager, rect: pygame.Rect, text: str, object_id: str | None = None,
           enabled: bool = True, tooltip: str | None = None, container: Any = None) -> UIButton:
    """A button (disabled when ``enabled`` is false)."""
    b = UIButton(rect, text, ui, container=container, tool_tip_text=tooltip,
                 object_id=pygame_gui.core.ObjectID(object_id=object_id) if object_id else None)
    if not enabled:
        b.disable()
    note_if_too_wide(b, text)
    return b


def note_if_too_wide(element: Any, text: str) -> None:
    """Record (``app.text.note_clipped``) a button or label text wider than its element."""
    font = getattr(element, "font", None)
    if font is None or not text:
        return
    room = element.rect.w - 8
    needed = font.size(text)[0]
    if needed > room:
        txt.note_clipped(text, room, needed)


def label(ui: pygame_gui.UIManager, rect: pygame.Rect, text: str, object_id: str | None = None,
          container: Any = None) -> UILabel:
    """A text label."""
    element = UILabel(rect, text, ui, container=container,
                      object_id=pygame_gui.core.ObjectID(object_id=object_id) if object_id else None)
    note_if_too_wide(element, text)
    return element


def dropdown(ui: pygame_gui.UIManager, rect: pygame.Rect, options: list[str], current: str,
             container: Any = None) -> UIDropDownMenu:
    """A drop-down list showing ``current``."""
    if current not in options:
        current = options[0]
    choices: list[str | tuple[str, str]] = list(options)
    return UIDropDownMenu(choices, current, rect, ui, container=container)


def entry(ui: pygame_gui.UIManager, rect: pygame.Rect, text: str, container: Any = None) -> UITextEntryLine:
    """A one-line text field holding ``text``."""
    e = UITextEntryLine(rect, ui, container=container)
    e.set_text(text)
    return e


def line_height(ui_font_size: int) -> int:
    """A comfortable height for buttons and dropdowns at a GUI font size."""
    return int(ui_font_size * 2.2)


def button_width(font_size: int, texts: list[str], minimum: int, maximum: int) -> int:
    """A button width that holds the widest of ``texts`` at the GUI font size (at least ``minimum``, at most
    ``maximum`` pixels)."""
    widest = max((txt.font(font_size).size(text)[0] for text in texts), default=0)
    return max(minimum, min(maximum, widest + 2 * font_size))
