"""Trick-taking tables (Sueca, Hearts, Moss Side Whist, Bisca/Briscola): the trick in the centre, trump,
tricks taken per seat, and for Bisca the stock with the face-up trump card under it."""

from __future__ import annotations

import math

import pygame

from app import describe
from app import text as txt
from app.i18n import count_text, t
from app.layout import TableLayout
from app.tables.base import MUTED, Label, Scene, Sprite, TableRenderer, View, place_clear


class TrickRenderer(TableRenderer):
    """Renderer of the trick-taking games (registry table kind ``trick``)."""

    def seat_detail(self, view: View, seat: int) -> str:
        """Second line under a seat's name."""
        tricks = view.state.tricks_taken(seat)
        text = count_text(view.counts[seat], "1 card", "{n} cards")
        if tricks is not None:
            text = count_text(tricks, "1 trick", "{n} tricks") + " · " + text
        return text

    def own_detail(self, view: View, seat: int) -> str:
        """The bottom player's tricks taken (Moss Side Whist's leader needs 8, the others 4)."""
        tricks = view.state.tricks_taken(seat)
        return count_text(tricks, "1 trick", "{n} tricks") if tricks is not None else ""

    def add_centre(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """The centre of the table."""
        state = view.state
        trick: list[tuple[int, int]] = []
        if view.review_trick is not None:
            trick = view.review_trick
        else:
            trick = list(state.trick_plays())
        cw, ch = lay.card_w, lay.card_h
        for seat, card in trick:
            x, y = lay.trick_offset(self.seat_angle(seat, view.bottom))
            r = pygame.Rect(0, 0, cw, ch)
            r.center = (x, y)
            scene.sprites.append(Sprite(("card", card), r, card, 0, "trick", seat, width=cw))
        self.add_trump(scene, view, lay)

    def add_trump(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """The turned-up trump only while it lies on the table (``GameState.turned_trump``): under the stock
        (Bisca, Briscola) or in front of the dealer until the dealer plays it (Sueca); afterwards a small
        trump-suit marker (``GameState.trump_suit``)."""
        state = view.state
        turned = state.turned_trump()
        suit = state.trump_suit()
        stock = view.stock_count
        sw, sh = int(lay.card_w * 0.8), int(lay.card_h * 0.8)
        x = lay.centre.left + lay.margin
        y = lay.centre.bottom - sh - lay.label_size - lay.margin
        if stock:
            if turned is not None:  # face up under the stock, turned sideways
                r = pygame.Rect(0, 0, sh, sw)
                r.midleft = (x + sw // 2, y + sh // 2)
                scene.sprites.append(Sprite(("card", turned), r, turned, 90, "trump", -1, width=sw))
            for i in range(min(stock, 4)):
                r = pygame.Rect(x - i * 2, y - i * 2, sw, sh)
                scene.sprites.append(Sprite(("stock", i), r, None, 0, "stock", -1, width=sw))
            scene.labels.append(Label(t("Stock: {n}", n=stock), (x + sw // 2, y + sh + lay.label_size // 2 + 4),
                                      int(lay.label_size * 0.9), MUTED, "center"))
            return
        dealer = state.dealer_seat()
        if turned is not None and dealer is not None:
            r = self.trump_spot(scene, lay, self.seat_angle(dealer, view.bottom), sw, sh)
            scene.sprites.append(Sprite(("card", turned), r, turned, 0, "trump", -1, width=sw))
            scene.labels.append(Label(t("Trump"), (r.centerx, r.bottom + lay.label_size // 2 + 2),
                                      int(lay.label_size * 0.85), MUTED, "center"))
        elif suit is not None:  # top left of the centre, clear of the seats (the action buttons are below)
            place_clear(scene, Label(t("Trump: {suit}", suit=t(self.game.deck.suit_names[suit])),
                                     (x, lay.centre.top + lay.label_size), int(lay.label_size * 0.9), MUTED,
                                     "midleft", plate=True), -max(4, lay.label_size // 2), lay.centre.centery)

    @staticmethod
    def trump_spot(scene: Scene, lay: TableLayout, dealer_angle: float, sw: int, sh: int) -> pygame.Rect:
        """Where the dealer's turned-up trump lies: a corner of the centre, the one on the dealer's left (seen
        from the dealer) first, else the nearest corner that covers no card and no name plate."""
        taken = [sp.rect for sp in scene.sprites]
        for lab in scene.labels:
            w, h = txt.font(lab.size, lab.bold).size(lab.text)
            rect = pygame.Rect(0, 0, w + lab.size, h + lab.size // 2)
            setattr(rect, lab.anchor, lab.pos)
            taken.append(rect)
        label_room = lay.label_size * 2
        spots = []
        for inset in (sw, 2 * sw, 3 * sw):
            c = lay.centre.inflate(-2 * lay.margin - inset, -2 * lay.margin - label_room)
            for k in range(4):
                corner = math.radians(dealer_angle + 45 + 90 * k)
                r = pygame.Rect(0, 0, sw, sh + label_room // 2)
                r.center = (c.centerx + (c.w - sw) // 2 * (1 if math.cos(corner) > 0 else -1),
                            c.centery + (c.h - sh) // 2 * (1 if math.sin(corner) > 0 else -1))
                spots.append((k, inset, r))
        spots.sort(key=lambda spot: (spot[0] not in (0,), spot[1], spot[0]))
        for _, _, r in spots:
            if not any(r.colliderect(other) for other in taken):
                return pygame.Rect(r.x, r.y, sw, sh)
        r = spots[0][2]
        return pygame.Rect(r.x, r.y, sw, sh)

    def info_lines(self, view: View) -> list[str]:
        """Game information for the sidebar."""
        state = view.state
        lines = []
        trump = state.trump_suit()
        deck = self.game.deck
        if trump is not None:
            lines.append(t("Trump: {suit}", suit=t(deck.suit_names[trump])))
        leader = state.declarer()
        if leader is not None and 0 <= leader < len(view.names):
            lines.append(t("Leader: {name} (needs 8 tricks; the others need 4)", name=view.names[leader]))
        to = state.passes_to(view.bottom)
        if to is not None:
            if to == view.bottom:
                lines.append(t("No passing this hand"))
            else:
                lines.append(t("Passing 3 cards to {name}", name=view.names[to]))
        if view.received and view.received_from is not None:
            deck = self.game.deck
            lines.append(t("Received from {name}: {cards}", name=view.names[view.received_from],
                           cards=describe.cards_text(deck, sorted(view.received))))
        points = state.running_points() if self.game.lower_is_better() else None  # penalty points (Hearts)
        if points is not None and any(points):
            parts = [" & ".join(view.names[s] for s in team) + f" {points[team[0]]:g}" for team in self.game.teams()]
            lines.append(t("Points this hand: {points}", points=", ".join(parts)))
        return lines

    def needs_pass_selection(self, view: View) -> bool:
        """Whether the current moves are passes/discards."""
        moves = view.legal_moves
        return bool(moves) and all(view.state.is_pass_move(m) for m in moves)
