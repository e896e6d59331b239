"""Hand summary (the engine's full breakdown + the match scoreboard) and the match end screen."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from app import text as txt
from app.i18n import t
from app.main import Screen
from app.tables.base import GOLD, MUTED, WHITE
from app.widgets import button, line_height

PANEL = (12, 40, 28)


SEAT_KEYS = ("leader", "hand_leader", "dealer", "finished", "winner", "first_out")
"""Breakdown entries that hold seat numbers (shown as names when the seat names are known)."""


def breakdown_rows(breakdown: dict[str, Any], columns: int,
                   names: list[str] | None = None) -> list[tuple[str, list[str]]]:
    """Flatten a result breakdown into (row name, one cell per column or a single cell) rows."""
    rows: list[tuple[str, list[str]]] = []

    def seat_names(value: Any) -> str | None:
        if names is None:
            return None
        seats = value if isinstance(value, list) else [value]
        if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(names) for x in seats):
            return None
        return ", ".join(names[x] for x in seats)

    def cell(v: Any) -> str:
        """Display text of one breakdown value."""
        if isinstance(v, bool):
            return t("yes") if v else t("no")
        if isinstance(v, float):
            return f"{v:g}"
        if isinstance(v, (list, tuple)):
            return " ".join(cell(x) for x in v)
        if isinstance(v, dict):
            return ", ".join(f"{k}: {cell(x)}" for k, x in v.items())
        return t(str(v)) if isinstance(v, str) else str(v)

    def walk(prefix: str, value: Any, key: str = "") -> None:
        """Add the rows of one breakdown entry."""
        shown = seat_names(value) if key in SEAT_KEYS else None
        if shown is not None:
            rows.append((prefix, [shown]))
        elif isinstance(value, dict) and len(rows) < 60:
            for k, v in value.items():
                walk(f"{prefix} · {t(str(k))}" if prefix else t(str(k).replace("_", " ")), v, str(k))
        elif isinstance(value, (list, tuple)) and len(value) == columns and \
                all(not isinstance(x, (dict, list)) for x in value):
            rows.append((prefix, [cell(x) for x in value]))
        elif isinstance(value, (list, tuple)) and len(value) == columns and \
                all(isinstance(x, dict) for x in value):
            keys: list[str] = []
            for x in value:
                keys += [k for k in x if k not in keys]
            for k in keys:
                rows.append((f"{prefix} · {t(str(k))}", [cell(x.get(k, "")) for x in value]))
        elif isinstance(value, (list, tuple)) and len(value) == columns and \
                all(isinstance(x, (list, tuple)) for x in value):
            rows.append((prefix, [cell(x) for x in value]))
        else:
            rows.append((prefix, [cell(value)]))

    walk("", breakdown)
    return rows


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

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        size = max(14, min(24, h // 40))
        rows = 2 + len(breakdown_rows(self.ctl.hand_result.breakdown, len(self.ctl.match.game.teams()))) \
            if self.ctl.hand_result is not None else 2
        needed = int(size * 1.5) + 3 * size + 40 + rows * (int(size * 0.9) + 8) + bh + 40
        self.panel = pygame.Rect(0, 0, min(w - 40, max(700, int(w * 0.62))), min(h - max(40, h // 10), needed))
        self.panel.center = (w // 2, h // 2)
        bw = min(340, self.panel.w // 2 - 30)
        y = self.panel.bottom - bh - 16
        over = self.ctl.match_over
        self.buttons = {
            "next": button(self.ui, pygame.Rect(self.panel.right - bw - 16, y, bw, bh),
                           t("Match result") if over else t("Next hand (Enter)"), "#primary"),
            "table": button(self.ui, pygame.Rect(self.panel.left + 16, y, bw, bh), t("Look at the table")),
        }

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.buttons.get("next"):
                self.next()
            elif event.ui_element is self.buttons.get("table"):
                self.table.looking_at_end = True
                self.table.summary_shown = False
                self.table.review = self.ctl.last_trick is not None
                self.app.pop()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.next()

    def next(self) -> None:
        """Deal the next hand, or show the match result after the last one."""
        ctl = self.ctl
        if ctl.match_over:
            self.app.replace(MatchEndScreen(self.app, ctl))
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
        size = max(14, min(24, surface.get_height() // 40))
        x0, y = p.left + 24, p.top + 16
        title = t("Hand {n} is over", n=ctl.match.hand_index + 1)
        y = txt.blit_text(surface, title, (p.centerx, y), int(size * 1.5), GOLD, True, "midtop").bottom + 10
        teams = game.teams()
        names = [" & ".join(ctl.seats[s].label for s in team) for team in teams]
        if result is not None and result.winners:
            win_names = ", ".join(ctl.seats[s].label for s in result.winners)
            y = txt.blit_text(surface, t("Hand won by {names}", names=win_names), (p.centerx, y), size, WHITE, True,
                              "midtop", max_width=p.w - 40).bottom + 10
        elif result is not None:
            y = txt.blit_text(surface, t("The hand is drawn."), (p.centerx, y), size, WHITE, True,
                              "midtop").bottom + 10
        label_w = int((p.w - 48) * 0.38)
        col_w = (p.w - 48 - label_w) // max(1, len(teams))
        header_y = y
        for i, name in enumerate(names):
            cx = x0 + label_w + col_w * i + col_w // 2
            txt.blit_text(surface, name, (cx, header_y), size, GOLD, True, "midtop", max_width=col_w - 8)
        y += size + 10
        rows: list[tuple[str, list[str]]] = []
        if result is not None:
            rows.append((t("Hand points"), [f"{v:g}" for v in result.team_points]))
            rows += breakdown_rows(result.breakdown, len(teams), [s.label for s in ctl.seats])
            if len(teams) != len(result.points):
                pass
        rows.append((t("Match total"), [f"{v:g}" for v in ctl.match.totals]))
        bottom_limit = self.buttons["next"].rect.top - 10 if self.buttons else p.bottom - 60
        small = max(12, int(size * 0.9))
        for name, cells in rows:
            if y + small > bottom_limit:
                break
            bold = name == t("Match total")
            txt.blit_text(surface, name, (x0, y), small, MUTED if not bold else WHITE, bold, max_width=label_w - 6)
            if len(cells) == len(teams):
                for i, c in enumerate(cells):
                    cx = x0 + label_w + col_w * i + col_w // 2
                    txt.blit_text(surface, c, (cx, y), small, WHITE, bold, "midtop", max_width=col_w - 8)
            else:
                txt.blit_text(surface, cells[0], (x0 + label_w, y), small, WHITE, bold,
                              max_width=p.right - 24 - (x0 + label_w))
            y += small + 8
            pygame.draw.line(surface, (40, 80, 60), (x0, y - 4), (p.right - 24, y - 4))


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
        """Record the game and clear the autosave."""
        session = self.ctl.session
        try:
            from saves.records import RecordsDB

            with RecordsDB() as db:
                self.record_id = db.record_game(session)
        except ImportError:
            pass
        except Exception as e:  # noqa: BLE001
            self.message = t("The game could not be recorded: {error}", error=str(e))
        try:
            self.app.autosave_store().clear()
        except Exception:  # noqa: BLE001
            pass
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
        bw = max(240, min(360, w // 4))
        y = int(h * 0.72)
        if self.in_study:
            r = pygame.Rect(0, y, bw + 80, bh)
            r.centerx = w // 2
            self.buttons = {"study": button(self.ui, r, t("Continue (Enter)"), "#primary")}
            return
        self.buttons = {
            "again": button(self.ui, pygame.Rect(w // 2 - bw - 10, y, bw, bh), t("Play again"), "#primary"),
            "menu": button(self.ui, pygame.Rect(w // 2 + 10, y, bw, bh), t("Main menu")),
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
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_ESCAPE):
            self.leave_to("study" if self.in_study else "menu")

    def leave_to(self, where: str) -> None:
        """Leave the match end for the survey (when due; always in a study) or the next screen."""
        app = self.app
        if self.in_study:
            from app.screens.survey import SurveyScreen

            if self.record_id is None:  # not recorded: nothing to link answers to; the game is played again
                go_next(app, "study", self.ctl.session)
                return
            app.replace(SurveyScreen(app, self.ctl.session, self.record_id, then="study", in_study=True))
            return
        from saves.survey import survey_due

        games = self.games_finished()
        if survey_due(app.settings, games):
            from app.screens.survey import SurveyScreen

            app.replace(SurveyScreen(app, self.ctl.session, self.record_id, then=where))
            return
        go_next(app, where, self.ctl.session)

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
        winners = ctl.match.winner_seats()
        if winners:
            text = t("Winners: {names}", names=", ".join(ctl.seats[s].label for s in winners))
        else:
            text = t("The match is drawn.")
        txt.blit_text(surface, text, (w // 2, int(h * 0.22)), int(size * 1.3), WHITE, True, "center",
                      max_width=w - 60)
        y = int(h * 0.32)
        for team, total in zip(game.teams(), ctl.match.totals, strict=False):
            names = " & ".join(ctl.seats[s].label for s in team)
            txt.blit_text(surface, f"{names}: {total:g}", (w // 2, y), size, WHITE, False, "center",
                          max_width=w - 60)
            y += size + 10
        session = ctl.session
        extra = t("Hands: {n} · hints used: {hints} · undos: {undos}", n=len(ctl.match.hands),
                  hints=session.hints_used, undos=session.undos_used)
        txt.blit_text(surface, extra, (w // 2, y + 10), int(size * 0.85), MUTED, False, "center")
        progress = study_progress_text(self.app, session)
        if progress:
            txt.blit_text(surface, progress, (w // 2, int(h * 0.64)), size, GOLD, True, "center")
        if self.message:
            txt.blit_text(surface, self.message, (w // 2, h - 40), int(size * 0.8), (255, 160, 140), False,
                          "center", max_width=w - 40)


def study_progress_text(app: Any, session: Any) -> str:
    """"Game 2 of 6" for a game of the study the app is running, else ""."""
    ctx = getattr(app, "study", None)
    if ctx is None or session is None or not ctx.is_study_session(session):
        return ""
    number = int((session.study or {}).get("game_number", 0)) + 1
    return t("Game {n} of {total}", n=number, total=ctx.total)


def go_next(app: Any, where: str, session: Any) -> None:
    """After the match (and survey): a new game with the same seats, or the menu."""
    from app.screens.menu import MenuScreen

    ctx = getattr(app, "study", None)
    if where == "study" and ctx is not None and ctx.run is not None:
        from app.screens.study import ProgressScreen

        app.reset_to(ProgressScreen(app, ctx))
        return
    if where == "again":
        from app.screens.new_game import NewGameScreen

        app.reset_to(MenuScreen(app))
        screen = NewGameScreen(app, session.match.game.name)
        screen.variant = dict(session.match.game.variant)
        from saves.session import Seat

        screen.seats = [Seat(s.kind, s.name, s.spec if not s.preset else "", s.preset) for s in session.seats]
        app.push(screen)
    else:
        app.reset_to(MenuScreen(app))
