"""About cardtable: its version, the fonts' and libraries' licences, and the documents the project implements
(the entries of ``docs/references.md``)."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from app import navigation
from app import text as txt
from app.i18n import t
from app.navigation import BACKGROUND, Screen
from app.resources import app_version
from app.tables.base import GOLD, MUTED, WHITE
from app.widgets import button, line_height

LICENCES = (
    ("DejaVu Sans", "DejaVu Fonts License (Bitstream Vera / Arev): assets/fonts/LICENSE-DejaVu.txt"),
    ("pygame-ce", "GNU LGPL 2.1"),
    ("pygame-gui", "MIT"),
    ("numpy", "BSD 3-Clause"),
    ("platformdirs", "MIT"),
    ("websockets", "BSD 3-Clause"),
    ("cardtable", "MIT"),
)
"""The fonts and libraries the app ships with, and their licences."""

SOURCES = (
    "Pedro Ricardo Oliveira Fernandes. Framework for Monte Carlo Tree Search-related strategies in Competitive Card "
    "Based Games. MSc dissertation, FEUP, Porto, 2016.",
    "Henrique Borges Manzke. Monte Carlo Tree Search with Transposition Detection and Probabilistic Inference for "
    "the Card Game of Hearts. BSc thesis, UFRGS, Porto Alegre, 2025.",
    "Stefano Di Palma. Monte Carlo Tree Search algorithms applied to the card game Scopone. MSc thesis, "
    "Politecnico di Milano, 2014.",
    "Evan Huang. Moss Side Whist (Information Set Monte Carlo Tree Search for Moss Side Whist). Student project "
    "report, The University of Western Australia, 2017.",
    "Jakub Kaššák. Monte Carlo Tree Search in Card and Other Games. BSc thesis, Comenius University in Bratislava, "
    "2023.",
    "Jeffrey Long, Nathan R. Sturtevant, Michael Buro, Timothy Furtak. Understanding the Success of Perfect "
    "Information Monte Carlo Sampling in Game Tree Search. AAAI-10, 2010.",
    "Matthew L. Ginsberg. GIB: Imperfect Information in a Computationally Challenging Game. JAIR 14, 2001.",
    "Peter I. Cowling, Edward J. Powley, Daniel Whitehouse. Information Set Monte Carlo Tree Search. IEEE TCIAIG "
    "4(2), 2012.",
)
"""The documents of docs/references.md, in its order."""


class CreditsScreen(Screen):
    """About: version, licences and source documents; Up/Down (or the wheel) scroll when the window is small."""

    name = "credits"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.scroll = 0
        self.max_scroll = 0
        self.back: Any = None

    def build(self) -> None:
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        margin = max(16, w // 40)
        bw = max(200, min(320, w // 5))
        self.back = button(self.ui, pygame.Rect(margin, h - margin - bh, bw, bh), t("Back (Esc)"))

    def lines(self, size: int, width: int) -> list[tuple[str, int, tuple[int, int, int], bool]]:
        """Every line of the page: (text, size, colour, bold)."""
        out: list[tuple[str, int, tuple[int, int, int], bool]] = [
            ("cardtable " + app_version(), int(size * 1.6), GOLD, True),
            (t("A card table with fair AI opponents."), size, WHITE, False), ("", size, WHITE, False),
            (t("Fonts and libraries"), int(size * 1.2), GOLD, True)]
        for name, licence in LICENCES:
            out += [(line, size, WHITE, False) for line in txt.wrap(f"{name}: {licence}", size, width)]
        out += [("", size, WHITE, False), (t("Source documents"), int(size * 1.2), GOLD, True)]
        for source in SOURCES:
            out += [(line, size, MUTED, False) for line in txt.wrap(source, size, width)]
            out.append(("", size // 2, WHITE, False))
        return out

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        w, h = surface.get_size()
        margin = max(16, w // 40)
        size = max(13, min(24, h // 40))
        bottom = h - margin - int(line_height(self.app.font_size) * 1.5)
        lines = self.lines(size, w - 2 * margin)
        total = sum(s + 5 for _, s, _, _ in lines)
        self.max_scroll = max(0, total - (bottom - margin))
        self.scroll = max(0, min(self.scroll, self.max_scroll))
        y = margin - self.scroll
        clip = surface.get_clip()
        surface.set_clip(pygame.Rect(0, margin, w, bottom - margin))
        for text, s, colour, bold in lines:
            if text and y + s > margin - s and y < bottom:
                txt.blit_text(surface, text, (margin, y), s, colour, bold, max_width=w - 2 * margin)
            y += s + 5
        surface.set_clip(clip)
        if self.max_scroll:
            txt.blit_text(surface, t("Up/Down: scroll"), (w - margin, h - margin), max(12, size - 2), MUTED,
                          False, "bottomright")

    def handle(self, event: pygame.event.Event) -> None:
        step = max(20, self.app.size[1] // 12)
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.back:
            self.app.pop()
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.app.pop()
            elif event.key in (pygame.K_DOWN, pygame.K_PAGEDOWN):
                self.scroll += step * (4 if event.key == pygame.K_PAGEDOWN else 1)
            elif event.key in (pygame.K_UP, pygame.K_PAGEUP):
                self.scroll -= step * (4 if event.key == pygame.K_PAGEUP else 1)
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll -= event.y * step

    def changing(self) -> bool:
        return False


navigation.register(CreditsScreen.name, CreditsScreen)
