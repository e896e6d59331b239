"""The capture games (registry table kind ``capture``): table cards in the centre, each side's capture pile
with its scope face up."""

from __future__ import annotations

import pygame

from app.i18n import t
from app.layout import TableLayout
from app.tables.base import GOLD, MUTED, Label, Scene, Sprite, TableRenderer, View


class CaptureRenderer(TableRenderer):
    """Scopone and Scopa table."""
    clockwise = False
    autoplay_single = True

    def side_name(self, view: View, side: int) -> str:
        """Names of the players of one side."""
        return " & ".join(view.names[s] for s in range(self.n) if s % 2 == side)

    def add_centre(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """The centre of the table."""
        state = view.state
        table = list(state.table_cards())
        cw = int(lay.card_w * 0.9)
        ch = int(lay.card_h * 0.9)
        centre = lay.centre
        per_row = max(1, min(len(table), int((centre.w * 0.7) // (cw + 8)))) if table else 1
        rows = (len(table) + per_row - 1) // per_row if table else 0
        total_h = rows * ch + max(0, rows - 1) * 8
        y0 = centre.centery - total_h // 2
        for i, card in enumerate(table):
            row, col = divmod(i, per_row)
            in_row = min(per_row, len(table) - row * per_row)
            x0 = centre.centerx - (in_row * (cw + 8) - 8) // 2
            r = pygame.Rect(x0 + col * (cw + 8), y0 + row * (ch + 8), cw, ch)
            mark = "picked" if card in view.chosen else "candidate" if card in view.candidates else ""
            scene.sprites.append(Sprite(("card", card), r, card, 0, "table", -1, mark, cw))
        if not table:
            scene.labels.append(Label(t("The table is empty"), centre.center, lay.label_size, MUTED))
        self.add_piles(scene, view, lay)

    def add_piles(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """Each side's capture pile with its scope face up, and the Scopa stock."""
        state = view.state
        scope = [state.sweep_cards(side) for side in (0, 1)]
        sw, sh = int(lay.card_w * 0.6), int(lay.card_h * 0.6)
        centre = lay.centre
        my_side = view.bottom % 2
        spots = {my_side: (centre.right - sw - lay.margin, centre.bottom - sh - lay.label_size),
                 1 - my_side: (centre.left + lay.margin, centre.top + lay.label_size)}
        for side in (0, 1):
            x, y = spots[side]
            count = len(state.captured_cards(side))
            for i in range(min(4, (count + 5) // 6)):
                r = pygame.Rect(x - i * 2, y - i * 2, sw, sh)
                scene.sprites.append(Sprite(("pile", side, i), r, None, 0, "pile", -1, width=sw))
            for j, card in enumerate(scope[side]):
                r = pygame.Rect(0, 0, sh, sw)
                r.center = (x + sw // 2 + j * (sw // 4), y + sh // 2)
                scene.sprites.append(Sprite(("sweep", card), r, card, 90, "sweep", -1, width=sw))
            text = self.side_name(view, side) + " · " + t("Taken: {n}", n=count)
            if scope[side]:
                text += " · " + t("Scope: {n}", n=len(scope[side]))
            ly = y + sh + lay.label_size // 2 + 4 if side == my_side else y - lay.label_size // 2 - 4
            scene.labels.append(Label(text, (x + sw // 2, ly), int(lay.label_size * 0.85), GOLD, "center",
                                      max_width=int(lay.centre.w * 0.4)))
        stock = state.stock_count()
        if stock:
            x, y = centre.left + lay.margin, centre.bottom - sh - lay.label_size
            for i in range(min(3, stock)):
                scene.sprites.append(Sprite(("stock", i), pygame.Rect(x - i * 2, y - i * 2, sw, sh), None, 0,
                                            "stock", -1, width=sw))
            scene.labels.append(Label(t("Stock: {n}", n=stock), (x + sw // 2, y + sh + lay.label_size // 2 + 4),
                                      int(lay.label_size * 0.85), MUTED))

    def info_lines(self, view: View) -> list[str]:
        """Game information for the sidebar."""
        state = view.state
        return [f"{self.side_name(view, side)}: " + t("Taken: {n}", n=len(state.captured_cards(side))) + " · "
                + t("Scope: {n}", n=state.sweeps(side)) for side in (0, 1)]
