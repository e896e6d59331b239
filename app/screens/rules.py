"""Rules: a readable page per game in the current language (``assets/rules/<lang>/<game>.md``)."""

from __future__ import annotations

import html
import re
import warnings
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UITextBox

from app import i18n, navigation, resources
from app.i18n import t
from app.navigation import BACKGROUND, Screen
from app.widgets import button, label, line_height
from engine import registry

RULES_DIR = resources.asset("rules")


def rules_markdown(game: str, lang: str) -> str:
    """The rules page of ``game`` in ``lang`` (English fallback, then a short notice)."""
    for code in (lang, "en"):
        path = RULES_DIR / code / f"{game}.md"
        try:
            return path.read_text(encoding="utf-8")
        except OSError:
            continue
    return f"# {game}\n\n" + t("No rules page is available for this game yet.")


def _inline(text: str) -> str:
    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)\*(?!\w)", r"\1", out)
    out = re.sub(r"`(.+?)`", r"\1", out)
    return out


def markdown_to_html(md: str) -> str:
    """A small markdown subset (headings, paragraphs, bullet lists, bold) as pygame-gui HTML."""
    parts: list[str] = []
    para: list[str] = []

    def flush() -> None:
        """Close the pending paragraph."""
        if para:
            parts.append(_inline(" ".join(para)) + "<br><br>")
            para.clear()

    for raw in md.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        m = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if m:
            flush()
            level = len(m.group(1))
            size = {1: 6, 2: 5, 3: 4}.get(level, 4)
            parts.append(f"<font size={size}><b>{_inline(m.group(2))}</b></font><br>")
            continue
        m = re.match(r"^[-*+]\s+(.*)$", stripped)
        if m:
            flush()
            indent = "&nbsp;" * (2 * ((len(line) - len(line.lstrip())) // 2))
            parts.append(f"{indent}• {_inline(m.group(1))}<br>")
            continue
        m = re.match(r"^\d+[.)]\s+(.*)$", stripped)
        if m:
            flush()
            parts.append(f"{_inline(stripped)}<br>")
            continue
        para.append(stripped)
    flush()
    return "".join(parts)


class RulesScreen(Screen):
    """The rules pages with a game list on the left."""
    name = "rules"

    def __init__(self, app: Any, game: str | None) -> None:
        super().__init__(app)
        names = registry.names()
        self.games = names
        self.game = game if game in names else names[0]
        self.widgets: dict[Any, Any] = {}

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        margin = max(12, w // 60)
        label(self.ui, pygame.Rect(margin, margin // 2, w - 2 * margin, int(bh * 1.3)), t("Rules"), "#title")
        top = margin + int(bh * 1.3)
        list_w = max(200, min(300, w // 5))
        self.widgets = {}
        y = top
        for g in self.games:
            try:
                title = t(registry.game_class(g).title)
            except ImportError:
                title = g.capitalize()
            b = button(self.ui, pygame.Rect(margin, y, list_w, bh), title, "#primary" if g == self.game else None)
            self.widgets[("game", g)] = b
            y += bh + 6
        self.widgets["back"] = button(self.ui, pygame.Rect(margin, h - margin - bh, list_w, bh), t("Back (Esc)"))
        box = pygame.Rect(margin * 2 + list_w, top, w - 3 * margin - list_w, h - top - margin)
        self.widgets["text"] = UITextBox(self.page_html(), box, self.ui)

    def page_html(self) -> str:
        """The page as pygame-gui HTML (the project's rules_pages module; a local fallback otherwise)."""
        size = self.app.font_size
        try:
            from app.rules_pages import load_rules, parse_markdown, to_gui_html

            h1, h2 = int(size * 1.7), int(size * 1.35)
            html_text = to_gui_html(parse_markdown(load_rules(self.game, i18n.language())), h1, h2)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    self.ui.preload_fonts([{"name": "cardtable", "point_size": px, "style": style, "antialiased": "1"}
                                       for px in (h1, h2, size) for style in ("bold", "regular")])
            except Exception:  # noqa: BLE001 - only a loading-time optimisation
                pass
            return html_text.replace("<font pixel_size=", "<font face='cardtable' pixel_size=")
        except (ImportError, KeyError, ValueError, OSError):
            return markdown_to_html(rules_markdown(self.game, i18n.language()))

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            if key == "back":
                self.app.pop()
            elif isinstance(key, tuple):
                self.game = key[1]
                self.app.rebuild()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        surface.fill(BACKGROUND)


navigation.register(RulesScreen.name, RulesScreen)
