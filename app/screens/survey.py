"""The post-game survey (``saves.survey``): one page per AI opponent, then the per-game page.

The questionnaire is the study's in study mode, else ``saves.survey.configured_questionnaire(settings)`` (the
researcher's questionnaire file from the settings when set and valid, else the built-in one). Required items
must be answered before Next/Send (the message names the question); optional ones may stay empty. Outside a
study the whole survey may be skipped; in a study it may not.
"""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from app import i18n, navigation
from app import text as txt
from app.i18n import t
from app.navigation import BACKGROUND, Screen
from app.tables.base import GOLD, MUTED, WHITE
from app.widgets import button, entry, line_height

ERROR = (255, 160, 140)
LIKERT_LABEL_W = 180


class SurveyScreen(Screen):
    """The questionnaire after a game, one page per opponent plus the per-game page."""
    name = "survey"

    def __init__(self, app: Any, session: Any, record_id: int | None, then: str = "menu", *,
                 seats: list[Any] | None = None, teams: list[tuple[int, ...]] | None = None,
                 questionnaire: Any = None, in_study: bool | None = None, human_seat: int | None = None,
                 player: str = "", on_done: Any = None) -> None:
        """``human_seat``: the seat whose player answers (default: the first human seat); ``player``: their name,
        shown when several players share the screen; ``on_done``: called instead of going on to ``then``."""
        super().__init__(app)
        from saves.survey import configured_questionnaire

        self.session = session
        self.record_id = record_id
        self.then = then
        self.player = player
        self.on_done = on_done
        study_ctx = getattr(app, "study", None)
        if in_study is None:
            in_study = session is not None and study_ctx is not None and study_ctx.is_study_session(session)
        self.in_study = in_study
        self.notice = ""
        if questionnaire is not None:
            self.q = questionnaire
        elif in_study and study_ctx is not None:
            self.q = study_ctx.study.questionnaire
        else:
            self.q, warnings = configured_questionnaire(app.settings)
            self.notice = "; ".join(warnings)
        if seats is None:
            seats = session.seats
        if teams is None:
            teams = session.match.game.teams()
        self.targets = self.q.targets(seats, human_seat, teams)
        self.pages: list[tuple[Any, list[Any]]] = []
        """(target or None for the per-game page, items) of every page."""
        per_game = [i for i in self.q.items if i.scope == "per_game"]
        per_opp = [i for i in self.q.items if i.scope != "per_game"]
        for target in self.targets:
            if per_opp:
                self.pages.append((target, per_opp))
        if per_game:
            self.pages.append((None, per_game))
        self.page = 0
        self.answers: dict[str, Any] = {}
        self.widgets: dict[Any, Any] = {}
        self.texts: list[tuple[str, tuple[int, int], int, tuple[int, int, int], bool, int]] = []
        self.error = ""
        self.flag_missing = False
        """After a refused Next: the unanswered required questions of the page are shown in red."""

    @classmethod
    def for_record(cls, app: Any, record_id: int, then: str = "menu") -> SurveyScreen:
        """The survey of a recorded game (a study participant who stopped before answering)."""
        from engine import registry
        from saves.records import RecordsDB

        with RecordsDB() as db:
            record = db.load_record(record_id)
        teams = registry.create(record.game, record.variant).teams()
        study_ctx = getattr(app, "study", None)
        study = record.study or {}
        in_study = bool(study) and study_ctx is not None and study.get("study_id") == study_ctx.study.id
        return cls(app, None, record_id, then, seats=record.seats, teams=teams, in_study=in_study)

    def value(self, item: Any, target: Any) -> Any:
        """The answer given so far to ``item`` (about ``target``)."""
        v = self.answers.get(item.id)
        if target is None:
            return v
        return (v or {}).get(target.seat)

    def set_value(self, item: Any, target: Any, value: Any) -> None:
        """Record an answer to ``item`` (about ``target``)."""
        if target is None:
            self.answers[item.id] = value
        else:
            self.answers.setdefault(item.id, {})[target.seat] = value

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        margin = max(16, w // 40)
        size = self.text_size()
        self.widgets = {}
        self.texts = []
        if not self.pages:
            return
        target, items = self.pages[self.page]
        lang = i18n.language()
        y = margin + int(size * 4.2)
        box_w = min(w - 2 * margin, max(1100, int(w * 0.6)))
        x = (w - box_w) // 2
        small = int(size * 0.85)
        # Measured over the whole questionnaire, so that every page and language puts the scales at the
        # same place (a scale that moves between pages is a confound in a perception study).
        widest = max([txt.font(small).size(i.label(p, lang))[0] for _target, page in self.pages for i in page
                      if i.type == "likert" for p in (1, i.scale)] or [0])
        label_w = max(LIKERT_LABEL_W, min(widest + 16, box_w // 4))  # room for the Likert scales' end labels
        for item in items:
            prompt = item.prompt(lang, target.label if target else "")
            if item.required:
                prompt += " *"
            flagged = self.flag_missing and item.required and self.value(item, target) in (None, "")
            for line in txt.wrap(prompt, size, box_w, bold=True)[:2]:
                self.texts.append((line, (x, y), size, ERROR if flagged else WHITE, True, box_w))
                y += int(size * 1.35)
            y += max(4, size // 3)
            if item.type == "likert":
                bw = min(int(bh * 2), (box_w - 2 * label_w) // item.scale - 4)
                left = x + label_w
                for p in range(1, item.scale + 1):
                    chosen = self.value(item, target) == p
                    self.widgets[("likert", item.id, p)] = button(
                        self.ui, pygame.Rect(left + (p - 1) * (bw + 4), y, bw, bh), str(p),
                        "#primary" if chosen else None)
                low = item.label(1, lang)
                low_w = txt.font(txt.fit(low, small, label_w - 10)).size(low)[0]
                self.texts.append((low, (left - 8 - low_w, y + (bh - small) // 2), small, MUTED, False,
                                   label_w - 10))  # right-aligned against the scale, as the high end is left-aligned
                self.texts.append((item.label(item.scale, lang),
                                   (left + item.scale * (bw + 4) + 8, y + (bh - small) // 2), small, MUTED, False,
                                   label_w - 10))
                y += bh
            elif item.type == "choice":
                choices = item.choice_texts(lang)
                per_row = min(4, len(choices))
                cw = (box_w - 8 * (per_row - 1)) // per_row
                for n, (cid, text) in enumerate(choices):
                    row, col = divmod(n, per_row)
                    r = pygame.Rect(x + col * (cw + 8), y + row * (bh + 6), cw, bh)
                    chosen = self.value(item, target) == cid
                    self.widgets[("choice", item.id, cid)] = button(self.ui, r, text, "#primary" if chosen else None)
                y += ((len(choices) + per_row - 1) // per_row) * (bh + 6) - 6
            else:
                self.widgets[("text", item.id)] = entry(self.ui, pygame.Rect(x, y, box_w, bh),
                                                        str(self.value(item, target) or ""))
                y += bh
            y += max(12, int(bh * 0.6))
        by = h - margin - bh
        bw = max(200, min(320, w // 5))
        last = self.page == len(self.pages) - 1
        self.widgets["next"] = button(self.ui, pygame.Rect(w - margin - bw, by, bw, bh),
                                      t("Send") if last else t("Next"), "#primary")
        if self.page > 0:
            self.widgets["back"] = button(self.ui, pygame.Rect(w - margin - 2 * bw - 12, by, bw, bh), t("Back"))
        if not self.in_study:
            self.widgets["skip"] = button(self.ui, pygame.Rect(margin, by, bw, bh), t("Skip the survey"))

    def text_size(self) -> int:
        """The question text size for the window height."""
        return max(15, self.app.size[1] // 42)

    def current_items(self) -> tuple[Any, list[Any]]:
        """(target, items) of the page shown."""
        return self.pages[self.page]

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            if key == "next":
                self.next_page()
            elif key == "back":
                self.previous_page()
            elif key == "skip":
                self.skip()
            elif isinstance(key, tuple) and key[0] in ("likert", "choice"):
                target, items = self.current_items()
                item = next(i for i in items if i.id == key[1])
                self.set_value(item, target, key[2])
                self.error = ""
                self.app.rebuild()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            if isinstance(key, tuple) and key[0] == "text":
                target, items = self.current_items()
                item = next(i for i in items if i.id == key[1])
                self.set_value(item, target, event.ui_element.get_text()[:item.max_length])

    def missing(self) -> list[str]:
        """The questions of this page that are required and not answered yet."""
        target, items = self.current_items()
        lang = i18n.language()
        return [i.prompt(lang, target.label if target else "") for i in items
                if i.required and self.value(i, target) in (None, "")]

    def next_page(self) -> bool:
        """Check the page is complete, then show the next page or send the answers; False if incomplete."""
        if not self.pages:
            self.finish(save=False)
            return True
        missing = self.missing()
        if missing:
            self.error = t("Please answer this question: {question}", question=missing[0]) if len(missing) == 1 \
                else t("Please answer the {n} questions still open, starting with: {question}", n=len(missing),
                       question=missing[0])
            self.flag_missing = True
            self.app.rebuild()
            return False
        self.error = ""
        self.flag_missing = False
        if self.page < len(self.pages) - 1:
            self.page += 1
            self.app.rebuild()
            return True
        return self.finish(save=True)

    def previous_page(self) -> None:
        """Back to the previous page (answers are kept)."""
        if self.page > 0:
            self.page -= 1
            self.error = ""
            self.app.rebuild()

    def skip(self) -> bool:
        """Leave without answering (not allowed in a study)."""
        if self.in_study:
            self.error = t("In a study every required question must be answered.")
            return False
        return self.finish(save=False)

    def finish(self, save: bool) -> bool:
        """Store the answers (when ``save``) and leave the survey; False (and a message) if saving failed."""
        if save:
            from app.keeping import store_answers

            error = store_answers(self.app, self.session, self.record_id, self.answers, self.q, i18n.language())
            if error is not None:
                self.error = error
                return False
        if self.on_done is not None:
            self.on_done()
            return True
        navigation.go_next(self.app, self.then, self.session)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        surface.fill(BACKGROUND)
        w, h = surface.get_size()
        size = self.text_size()
        margin = max(16, w // 40)
        title = self.q.title.get(i18n.language()) or self.q.title.get("en", "")
        txt.blit_text(surface, title or t("Survey"), (w // 2, margin), int(size * 1.6), GOLD, True, "midtop",
                      max_width=w - 2 * margin)
        sub = t("Page {n} of {total}", n=self.page + 1, total=max(1, len(self.pages)))
        if self.player:
            sub = t("For {name}", name=self.player) + " · " + sub
        if self.pages and self.pages[self.page][0] is not None:
            sub += " · " + t("About {name}", name=self.pages[self.page][0].label)
        txt.blit_text(surface, sub, (w // 2, margin + int(size * 2.3)), int(size * 0.9), MUTED, False, "midtop",
                      max_width=w - 2 * margin)
        for text, pos, tsize, colour, bold, max_w in self.texts:
            if text:
                txt.blit_text(surface, text, pos, tsize, colour, bold, max_width=max_w)
        bh = line_height(self.app.font_size)
        bottom = h - margin - bh - 8
        if any(i.required for i in (self.pages[self.page][1] if self.pages else [])):
            bottom = txt.blit_text(surface, t("* required"), (margin, bottom), int(size * 0.8), MUTED, False,
                                   "bottomleft").top - 4
        for message, colour in ((self.error, ERROR), (self.notice, MUTED)):
            if message:
                lines = txt.wrap(message, size, w - 2 * margin)[:3]
                for line in reversed(lines):
                    bottom = txt.blit_text(surface, line, (w // 2, bottom), size, colour, False, "midbottom").top - 2


navigation.register(SurveyScreen.name, SurveyScreen)
navigation.register("survey_for_record", SurveyScreen.for_record)
