"""Window geometry: every size and position on the table is derived from the window size here.

All rectangles are computed for the current window so nothing overlaps from 1024x640 up to 2560x1440.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

CARD_ASPECT = 3.5 / 2.5


@dataclass
class TableLayout:
    """Regions of the table screen."""

    width: int
    height: int
    sidebar: pygame.Rect
    table: pygame.Rect
    card_w: int
    card_h: int
    small_w: int
    small_h: int
    hand: pygame.Rect
    centre: pygame.Rect
    label_size: int
    margin: int

    def seat_anchor(self, angle_deg: float) -> tuple[int, int]:
        """Centre of an opponent's area at ``angle_deg`` (90 = bottom, 180 = left, 270 = top, 0 = right)."""
        a = math.radians(angle_deg)
        cx, cy = self.centre.center
        rx = self.table.w / 2 - self.margin - self.small_h * 0.75
        ry = cy - (self.table.top + self.margin + self.small_h / 2)
        return int(cx + math.cos(a) * rx), int(cy + math.sin(a) * ry)

    def trick_offset(self, angle_deg: float, scale: float = 1.0) -> tuple[int, int]:
        """Where a card played by the seat at ``angle_deg`` lies in the centre."""
        a = math.radians(angle_deg)
        room_y = max(0.0, (self.centre.h - self.card_h) / 2)
        room_x = max(0.0, (self.centre.w - self.card_w) / 2)
        dx = math.cos(a) * min(self.card_w * 0.85, room_x) * scale
        dy = math.sin(a) * min(self.card_h * 0.5, room_y) * scale
        cx, cy = self.centre.center
        return int(cx + dx), int(cy + dy)


def sidebar_width(width: int) -> int:
    """Width of the table screen's sidebar for a window width."""
    return max(230, min(420, int(width * 0.22)))


def table_layout(width: int, height: int) -> TableLayout:
    """The table geometry for a window of ``width`` x ``height`` pixels."""
    side_w = sidebar_width(width)
    sidebar = pygame.Rect(width - side_w, 0, side_w, height)
    table = pygame.Rect(0, 0, width - side_w, height)
    margin = max(8, height // 80)
    label = max(13, min(26, height // 42))
    card_w = int(min(table.w / 9.0, height / 5.8))
    card_h = int(card_w * CARD_ASPECT)
    small_w = int(card_w * 0.55)
    small_h = int(small_w * CARD_ASPECT)
    hand_h = int(card_h * 1.2) + label + margin * 2
    hand = pygame.Rect(table.left + margin, table.bottom - hand_h, table.w - 2 * margin, hand_h)
    top_band = table.top + margin + small_h + int(label * 3.0) + margin * 2
    centre = pygame.Rect(table.left + small_h + label * 4, top_band, table.w - 2 * (small_h + label * 4),
                         hand.top - top_band - margin)
    return TableLayout(width, height, sidebar, table, card_w, card_h, small_w, small_h, hand, centre, label,
                       margin)


def column(rect: pygame.Rect, count: int, item_h: int, gap: int) -> list[pygame.Rect]:
    """``count`` rectangles of height ``item_h`` stacked from the top of ``rect``."""
    return [pygame.Rect(rect.left, rect.top + i * (item_h + gap), rect.w, item_h) for i in range(count)]


def centred_box(width: int, height: int, box_w: int, box_h: int) -> pygame.Rect:
    """A ``box_w`` x ``box_h`` rectangle centred in the window (clamped to fit)."""
    box_w, box_h = min(box_w, width - 20), min(box_h, height - 20)
    return pygame.Rect((width - box_w) // 2, (height - box_h) // 2, box_w, box_h)


def fan_positions(count: int, area_w: int, card_w: int, max_step: float) -> tuple[float, int]:
    """Step between cards of a fan of ``count`` cards in ``area_w`` pixels and the fan's total width."""
    if count <= 1:
        return 0.0, card_w
    step = min(max_step, (area_w - card_w) / (count - 1))
    return step, int(card_w + step * (count - 1))
