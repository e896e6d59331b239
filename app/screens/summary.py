"""Hand summary (per-game rows from :mod:`app.summaries` + the match scoreboard) and the match end screen."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from app import describe, navigation, summaries
from app import text as txt
from app.art import card_art
from app.i18n import t
from app.navigation import Screen
from app.study import study_progress_text
from app.tables.base import GOLD, MUTED, WHITE
from app.widgets import button, button_width, line_height

PANEL = (12, 40, 28)


class SummaryScreen(Screen):
    """After each hand: the breakdown and the scoreboard; Next hand or the match result."""

    name = "summary"
    opaque = False

    def __init__(self, app: Any, controller: Any, table: Any) -> None:
        super().__init__(app)
        self.ctl = controller
        self.table = table
        self.buttons: dict[str, Any] = {}
        self.panel = pygame.Rect(0, 0, 10, 10)

    def rows(self) -> list[summaries.Row]:
        """The hand's summary rows (the per-game builder of :mod:`app.summaries`) and the match total."""
        ctl = self.ctl
        rows: list[summaries.Row] = []
        result = ctl.hand_result
        if result is not None:
            names = [describe.seat_name(s.label) for s in ctl.seats]
            rows = summaries.hand_rows(ctl.match.game, result.breakdown, names,
                                       list(result.team_points))
            rows += summaries.pile_rows(ctl.match.game, ctl.state)  # Scopone/Scopa: the sides' captured cards
        rows.append(summaries.Row(t("Match total"), summaries.cells(list(ctl.match.totals)), "match"))
        return rows

    def font_sizes(self, h: int) -> tuple[int, int]:
        """(title size, row size) for a window ``h`` pixels high."""
        size = max(14, min(34, h // 40))
        return int(size * 1.5), max(12, int(size * 0.9))

    def layout_height(self, rows: list[summaries.Row], small: int, width: int) -> int:
        """Pixel height of ``rows`` at row size ``small`` in a panel ``width`` wide."""
        total = 0
        for row in rows:
            if row.style == "note":
                total += len(txt.wrap(row.label, small, width - 48)) * (small + 6) + 4
            elif row.style == "section":
                total += small + 14
            else:
                total += small + 8
        return total

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        title, small = self.font_sizes(h)
        width = min(w - 40, max(820, int(w * 0.62)), max(820, small * 48))  # room for the primiera chips
        rows = self.rows()
        head = 16 + title + 10 + 2 * (small + 12) + 10
        while small > 11 and head + self.layout_height(rows, small, width) + bh + 48 > h - 30:
            small -= 1
        self.row_size = small
        needed = head + self.layout_height(rows, small, width) + bh + 48
        self.panel = pygame.Rect(0, 0, width, min(h - 30, needed))
        self.panel.center = (w // 2, h // 2)
        over = self.ctl.match_over
        texts = [t("Match result (Enter)") if over else t("Next hand (Enter)"), t("Look at the table (Esc)")]
        bw = button_width(self.app.font_size, texts, min(340, self.panel.w // 2 - 30), self.panel.w // 2 - 30)
        y = self.panel.bottom - bh - 16
        self.buttons = {
            "next": button(self.ui, pygame.Rect(self.panel.right - bw - 16, y, bw, bh),
                           t("Match result (Enter)") if over else t("Next hand (Enter)"), "#primary"),
            "table": button(self.ui, pygame.Rect(self.panel.left + 16, y, bw, bh), t("Look at the table (Esc)")),
        }

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.buttons.get("next"):
                self.next()
            elif event.ui_element is self.buttons.get("table"):
                self.look_at_table()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.next()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.look_at_table()

    def look_at_table(self) -> None:
        """Back to the finished hand's table (its last trick shown) until "Show the result"."""
        self.table.looking_at_end = True
        self.table.summary_shown = False
        self.table.review = self.ctl.last_trick is not None
        self.app.pop()

    def next(self) -> None:
        """Deal the next hand, or show the match result after the last one."""
        ctl = self.ctl
        if ctl.match_over:
            end = getattr(ctl, "end_screen", None)  # a network table ends on its own screen
            self.app.replace(navigation.make(self.app, end, ctl) if end else MatchEndScreen(self.app, ctl))
            return
        ctl.next_hand()
        self.table.summary_shown = False
        self.table.review = False
        self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        p = self.panel
        pygame.draw.rect(surface, PANEL, p, border_radius=12)
        pygame.draw.rect(surface, GOLD, p, width=2, border_radius=12)
        ctl = self.ctl
        result = ctl.hand_result
        game = ctl.match.game
        title_size, _ = self.font_sizes(surface.get_height())
        small = getattr(self, "row_size", 14)
        x0, y = p.left + 24, p.top + 16
        title = t("Hand {n} is over", n=ctl.match.hand_index + 1)
        y = txt.blit_text(surface, title, (p.centerx, y), title_size, GOLD, True, "midtop").bottom + 10
        teams = game.teams()
        names = [" & ".join(describe.seat_name(ctl.seats[s].label) for s in team) for team in teams]
        if result is not None and result.winners:
            won = [i for i, team in enumerate(teams) if set(team) <= set(result.winners)]
            win_names = ", ".join(names[i] for i in won) if won else \
                ", ".join(describe.seat_name(ctl.seats[s].label) for s in result.winners)
            line = t("Hand won by {names}", names=win_names)
        else:
            line = t("The hand is drawn.")
        y = txt.blit_text(surface, line, (p.centerx, y), small + 2, WHITE, True, "midtop",
                          max_width=p.w - 40).bottom + 12
        rows = self.rows()
        widest = max((txt.font(small, row.style in ("total", "match")).size(row.label)[0] for row in rows
                      if row.style not in ("note", "section")), default=0)
        label_w = int(min((p.w - 48) * 0.55, max((p.w - 48) * 0.25, widest + 20)))
        col_w = (p.w - 48 - label_w) // max(1, len(teams))
        for i, name in enumerate(names):
            cx = x0 + label_w + col_w * i + col_w // 2
            txt.blit_text(surface, name, (cx, y), small + 2, GOLD, True, "midtop", max_width=col_w - 8)
        y += small + 14
        bottom_limit = self.buttons["next"].rect.top - 8 if self.buttons else p.bottom - 60
        art = card_art(game.deck.name, getattr(self.app.settings, "card_style", "classic"))
        right = p.right - 24
        for row in rows:
            if y + small > bottom_limit:
                break
            if row.style == "note":
                for line in txt.wrap(row.label, small, p.w - 48):
                    txt.blit_text(surface, line, (x0, y), small, GOLD, False, max_width=p.w - 48)
                    y += small + 6
                y += 4
                continue
            if row.style == "section":
                y += 6
                txt.blit_text(surface, row.label, (x0, y), small, GOLD, True, max_width=p.w - 48)
                y += small + 8
                pygame.draw.line(surface, (80, 120, 90), (x0, y - 4), (right, y - 4))
                continue
            bold = row.style in ("total", "match")
            if row.style == "match":
                pygame.draw.line(surface, GOLD, (x0, y - 5), (right, y - 5))
            txt.blit_text(surface, row.label, (x0, y), small, WHITE if bold else MUTED, bold,
                          max_width=label_w - 8)
            if len(row.cells) == len(teams):
                for i, cell in enumerate(row.cells):
                    cx = x0 + label_w + col_w * i + col_w // 2
                    draw_cell(surface, cell, (cx, y), small, bold, col_w - 8, art, "midtop")
            elif row.cells:
                draw_cell(surface, row.cells[0], (x0 + label_w, y), small, bold, right - x0 - label_w, art,
                          "topleft")
            y += small + 8
            pygame.draw.line(surface, (40, 80, 60), (x0, y - 4), (right, y - 4))


def suit_chip(art: Any, suit: int, size: int) -> pygame.Surface:
    """A suit symbol on a small card-coloured chip (black suits stay visible on the dark panel)."""
    symbol = art.suit_symbol(suit, max(8, int(size * 1.1)))
    pad = max(2, size // 6)
    chip = pygame.Surface((symbol.get_width() + 2 * pad, symbol.get_height() + pad), pygame.SRCALPHA)
    pygame.draw.rect(chip, (245, 240, 225), chip.get_rect(), border_radius=max(2, size // 4))
    chip.blit(symbol, (pad, pad // 2))
    out = pygame.Surface((chip.get_width() + 2 * pad, chip.get_height()), pygame.SRCALPHA)
    out.blit(chip, (pad, 0))
    return out


def draw_cell(surface: pygame.Surface, cell: summaries.Cell, pos: tuple[int, int], size: int, bold: bool,
              max_width: int, art: Any, anchor: str) -> pygame.Rect:
    """Draw one summary cell (text and suit symbols) anchored at ``pos``, shrunk to ``max_width``."""
    while True:
        pieces: list[pygame.Surface] = []
        for part in cell:
            if isinstance(part, summaries.Suit):
                try:
                    pieces.append(suit_chip(art, part.index, size))
                except Exception:  # noqa: BLE001 - a fallback art without symbols: the suit's letter
                    pieces.append(txt.render(str(part.index), size, WHITE, bold))
            elif part:
                pieces.append(txt.render(part, size, WHITE, bold))
        width = sum(pc.get_width() for pc in pieces)
        if width <= max_width or size <= 9:
            break
        size -= 1
    height = max([pc.get_height() for pc in pieces] + [size])
    rect = pygame.Rect(0, 0, width, height)
    setattr(rect, anchor, pos)
    x = rect.left
    for pc in pieces:
        surface.blit(pc, (x, rect.top + (height - pc.get_height()) // 2))
        x += pc.get_width()
    return rect


class MatchEndScreen(Screen):
    """The match result; records the game, clears the autosave, then offers the survey."""

    name = "match_end"

    def __init__(self, app: Any, controller: Any) -> None:
        super().__init__(app)
        self.ctl = controller
        self.buttons: dict[str, Any] = {}
        self.record_id: Any = None
        self.message = ""
        self.finish()

    def finish(self) -> None:
        """Record the game, then clear the autosave; a game that cannot be recorded is kept (see
        ``app.keeping.record_finished_game``)."""
        from app.keeping import record_finished_game

        self.record_id, self.message = record_finished_game(self.app, self.ctl.session)
        self.ctl.close()

    @property
    def in_study(self) -> bool:
        """Whether this game belongs to the study the app is running (then: questionnaire, next study game)."""
        ctx = getattr(self.app, "study", None)
        return ctx is not None and ctx.is_study_session(self.ctl.session)

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        texts = [t("Play again (Enter)"), t("Main menu (Esc)")]
        bw = button_width(self.app.font_size, texts, max(240, min(360, w // 4)), w // 2 - 30)
        y = int(h * 0.72)
        if self.in_study:
            r = pygame.Rect(0, y, bw + 80, bh)
            r.centerx = w // 2
            self.buttons = {"study": button(self.ui, r, t("Continue (Enter)"), "#primary")}
            return
        self.buttons = {
            "again": button(self.ui, pygame.Rect(w // 2 - bw - 10, y, bw, bh), t("Play again (Enter)"), "#primary"),
            "menu": button(self.ui, pygame.Rect(w // 2 + 10, y, bw, bh), t("Main menu (Esc)")),
        }

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.buttons.get("again"):
                self.leave_to("again")
            elif event.ui_element is self.buttons.get("menu"):
                self.leave_to("menu")
            elif event.ui_element is self.buttons.get("study"):
                self.leave_to("study")
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
            again = event.key != pygame.K_ESCAPE
            self.leave_to("study" if self.in_study else "again" if again else "menu")

    def leave_to(self, where: str) -> None:
        """Leave the match end for the survey (when due; always in a study) or the next screen."""
        app = self.app
        if self.in_study:
            app.replace(navigation.make(app, "survey", self.ctl.session, self.record_id, then="study", in_study=True))
            return
        from saves.survey import survey_due

        games = self.games_finished()
        if survey_due(app.settings, games):
            app.replace(navigation.make(app, "survey", self.ctl.session, self.record_id, then=where))
            return
        navigation.go_next(app, where, self.ctl.session)

    def games_finished(self) -> int:
        """Number of recorded games (for the survey frequency)."""
        try:
            from saves.records import RecordsDB

            with RecordsDB() as db:
                return db.count()
        except Exception:  # noqa: BLE001
            return 1

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        surface.fill((16, 60, 40))
        w, h = surface.get_size()
        ctl = self.ctl
        game = ctl.match.game
        size = max(16, h // 36)
        txt.blit_text(surface, t("Match over"), (w // 2, int(h * 0.12)), int(size * 2.2), GOLD, True, "center")
        txt.blit_text(surface, t(game.title), (w // 2, int(h * 0.12) + int(size * 1.6)), size, MUTED, False,
                      "midtop")
        winners = ctl.match.winner_seats()
        text = describe.winners_line([ctl.seats[s].label for s in winners])
        txt.blit_text(surface, text, (w // 2, int(h * 0.22)), int(size * 1.3), WHITE, True, "center",
                      max_width=w - 60)
        y = int(h * 0.32)
        # Best first (the winners on top, in gold), so the order reads as a ranking.
        standings = sorted(zip(game.teams(), ctl.match.totals, strict=False),
                           key=lambda tt: tt[1], reverse=not game.lower_is_better())
        for team, total in standings:
            names = " & ".join(describe.seat_name(ctl.seats[s].label) for s in team)
            won = any(s in winners for s in team)
            txt.blit_text(surface, f"{names}: {total:g}", (w // 2, y), size, GOLD if won else WHITE, won, "center",
                          max_width=w - 60)
            y += size + 10
        if game.lower_is_better():
            txt.blit_text(surface, t("(the lowest total wins)"), (w // 2, y), int(size * 0.85), MUTED, False,
                          "midtop")
            y += int(size * 1.3)
        session = ctl.session
        extra = t("Hands: {n} · hints used: {hints} · undos: {undos}", n=len(ctl.match.hands),
                  hints=session.hints_used, undos=session.undos_used)
        txt.blit_text(surface, extra, (w // 2, y + 10), int(size * 0.85), MUTED, False, "center")
        progress = study_progress_text(self.app, session)
        if progress:
            txt.blit_text(surface, progress, (w // 2, int(h * 0.64)), size, GOLD, True, "center")
        if self.message:  # why the game is not recorded yet: a few wrapped lines at the bottom
            small = int(size * 0.8)
            lines = txt.wrap(self.message, small, w - 80)[:3]
            y = h - 40 - (len(lines) - 1) * int(small * 1.3)
            for line in lines:
                txt.blit_text(surface, line, (w // 2, y), small, (255, 160, 140), False, "center", max_width=w - 40)
                y += int(small * 1.3)


navigation.register(SummaryScreen.name, SummaryScreen)
navigation.register(MatchEndScreen.name, MatchEndScreen)
