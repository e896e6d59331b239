"""Study mode screens: participant ID, consent, progress between games, thank you (see ``app.study``)."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from app import i18n, navigation
from app import text as txt
from app.i18n import t
from app.navigation import BACKGROUND, Screen
from app.resume import make_room_for_study
from app.study import NextStep, StudyContext, StudyError, check_participant_id
from app.tables.base import GOLD, MUTED, WHITE
from app.widgets import button, button_width, dropdown, entry, line_height

ERROR = (255, 160, 140)
PANEL = (12, 40, 28)


def title_of(ctx: StudyContext) -> str:
    """The study's title in the current language."""
    return ctx.study.title_text(i18n.language())


def draw_progress(surface: pygame.Surface, rect: pygame.Rect, done: int, total: int) -> None:
    """A bar of ``total`` boxes, the first ``done`` filled."""
    total = max(1, total)
    gap = max(4, rect.w // (total * 12))
    bw = (rect.w - gap * (total - 1)) // total
    for i in range(total):
        r = pygame.Rect(rect.left + i * (bw + gap), rect.top, bw, rect.h)
        if i < done:
            pygame.draw.rect(surface, GOLD, r, border_radius=4)
        else:
            pygame.draw.rect(surface, GOLD, r, width=2, border_radius=4)


class StudyScreen(Screen):
    """Shared layout: the study title at the top, a text block, buttons at the bottom."""

    name = "study"

    def __init__(self, app: Any, ctx: StudyContext) -> None:
        super().__init__(app)
        self.ctx = ctx
        self.buttons: dict[str, Any] = {}
        self.message = ""

    def pressed(self, event: pygame.event.Event) -> str | None:
        """The key of the pressed button, if ``event`` is a button press of this screen."""
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return None
        return next((k for k, b in self.buttons.items() if b is event.ui_element), None)

    def sizes(self) -> tuple[int, int, int]:
        """(text size, margin, button height) for the current window."""
        w, h = self.app.size
        return max(16, h // 34), max(20, w // 30), line_height(self.app.font_size)

    def draw_header(self, surface: pygame.Surface) -> int:
        """The study title; returns the y below it."""
        surface.fill(BACKGROUND)
        w, h = surface.get_size()
        size, margin, _ = self.sizes()
        r = txt.blit_text(surface, title_of(self.ctx), (w // 2, margin), int(size * 1.6), GOLD, True, "midtop",
                          max_width=w - 2 * margin)
        return r.bottom + size

    def draw_message(self, surface: pygame.Surface) -> None:
        """The error or notice line above the buttons."""
        if self.message:
            w, h = surface.get_size()
            size, margin, bh = self.sizes()
            for i, line in enumerate(txt.wrap(self.message, size, w - 2 * margin)[:3]):
                txt.blit_text(surface, line, (w // 2, h - margin - bh - size * (4 - i) - 8), size, ERROR, False,
                              "midtop")

    def bottom_buttons(self, primary: tuple[str, str], secondary: tuple[str, str] | None) -> None:
        """A primary button on the right and an optional secondary one on the left."""
        w, h = self.app.size
        _, margin, bh = self.sizes()
        texts = [primary[1]] + ([secondary[1]] if secondary is not None else [])
        bw = button_width(self.app.font_size, texts, max(240, min(420, w // 4)), w // 2 - 2 * margin)
        y = h - margin - bh
        self.buttons[primary[0]] = button(self.ui, pygame.Rect(w - margin - bw, y, bw, bh), primary[1], "#primary")
        if secondary is not None:
            self.buttons[secondary[0]] = button(self.ui, pygame.Rect(margin, y, bw, bh), secondary[1])


class ParticipantScreen(StudyScreen):
    """The researcher types the participant ID (checked with ``saves.study``'s rules)."""

    name = "study_participant"

    def __init__(self, app: Any, ctx: StudyContext, message: str = "") -> None:
        super().__init__(app, ctx)
        ctx.run = None
        self.message = message
        self.typed = ""
        self.field: Any = None
        self.language: Any = None

    def build(self) -> None:
        """The ID field and the buttons."""
        w, h = self.app.size
        size, margin, bh = self.sizes()
        fw = min(520, w - 2 * margin)
        self.field = entry(self.ui, pygame.Rect((w - fw) // 2, int(h * 0.42), fw, bh), self.typed)
        self.field.focus()
        self.buttons = {}
        self.bottom_buttons(("start", t("Start (Enter)")), ("menu", t("Main menu")))
        lw = max(220, min(320, w // 6))
        self.language = dropdown(self.ui, pygame.Rect((w - lw) // 2, int(h * 0.66), lw, bh),
                                 [i18n.LANGUAGE_NAMES[c] for c in i18n.LANGUAGES],
                                 i18n.LANGUAGE_NAMES.get(i18n.language(), "English"))

    def handle(self, event: pygame.event.Event) -> None:
        """Enter or Start checks the ID; Main menu leaves the study."""
        key = self.pressed(event)
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.language:
            code = next((c for c, n in i18n.LANGUAGE_NAMES.items() if n == event.text), "en")
            self.app.set_language(code)
            self.app.save_settings()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.field:
            self.typed = self.field.get_text()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.field:
            self.submit(self.field.get_text())
        elif key == "start":
            self.submit(self.field.get_text() if self.field is not None else self.typed)
        elif key == "menu":
            self.app.reset_to(navigation.make(self.app, "menu"))

    def submit(self, text: str) -> bool:
        """Check the ID; a participant who already consented resumes, a new one sees the consent text."""
        self.typed = text
        try:
            participant = check_participant_id(text)
            run = self.ctx.existing_run(participant)
        except StudyError as e:
            self.message = str(e)
            return False
        if run is not None:
            self.ctx.run = run
            self.app.reset_to(ProgressScreen(self.app, self.ctx))
        else:
            self.app.reset_to(ConsentScreen(self.app, self.ctx, participant))
        return True

    def draw(self, surface: pygame.Surface) -> None:
        """Title, the prompt above the field, the hint below it."""
        y = self.draw_header(surface)
        w, h = surface.get_size()
        size, margin, bh = self.sizes()
        txt.blit_text(surface, t("Study mode"), (w // 2, y), size, MUTED, False, "midtop")
        txt.blit_text(surface, t("Participant ID"), (w // 2, int(h * 0.42) - int(size * 1.6)), size, WHITE, True,
                      "midtop")
        hint = t("Type the ID the researcher gave you, then press Enter.") + " " + \
            t("A returning participant continues where they stopped.")
        for i, line in enumerate(txt.wrap(hint, int(size * 0.85), min(700, w - 2 * margin))):
            txt.blit_text(surface, line, (w // 2, int(h * 0.42) + bh + 12 + i * int(size * 1.2)), int(size * 0.85),
                          MUTED, False, "midtop")
        txt.blit_text(surface, t("Language"), (w // 2, int(h * 0.66) - int(size * 0.4)), int(size * 0.85), MUTED,
                      False, "midbottom")
        self.draw_message(surface)


class ConsentScreen(StudyScreen):
    """The study's consent text; accepting starts the participant, declining records nothing."""

    name = "study_consent"

    def __init__(self, app: Any, ctx: StudyContext, participant: str) -> None:
        super().__init__(app, ctx)
        self.participant = participant

    def build(self) -> None:
        """Agree / do not agree."""
        self.buttons = {}
        self.bottom_buttons(("agree", t("I agree")), ("decline", t("I do not agree")))

    def handle(self, event: pygame.event.Event) -> None:
        """Run the pressed button."""
        key = self.pressed(event)
        if key == "agree":
            self.agree()
        elif key == "decline":
            self.decline()

    def agree(self) -> None:
        """Record the consent and show the first game."""
        try:
            self.ctx.begin(self.participant)
        except (StudyError, OSError) as e:
            self.message = str(e)
            return
        self.app.reset_to(ProgressScreen(self.app, self.ctx))

    def decline(self) -> None:
        """Back to the start; nothing about this participant is stored."""
        self.app.reset_to(ParticipantScreen(self.app, self.ctx, t("You did not agree: nothing was recorded.")))

    def draw(self, surface: pygame.Surface) -> None:
        """The consent text, wrapped, in a panel."""
        y = self.draw_header(surface)
        w, h = surface.get_size()
        size, margin, bh = self.sizes()
        txt.blit_text(surface, t("Participant {id}", id=self.participant), (w // 2, y), int(size * 0.9), MUTED,
                      False, "midtop")
        y += int(size * 2)
        box = pygame.Rect(0, y, min(w - 2 * margin, max(1100, int(w * 0.6))), h - y - bh - margin * 2 - size * 2)
        box.centerx = w // 2
        body = self.ctx.study.consent_text(i18n.language()) or t("Do you agree to take part in this study?")
        size_used = size
        lines = txt.wrap(body, size, box.w - 2 * size)
        if len(lines) * int(size * 1.45) > box.h - 2 * size:  # a long text: smaller type so all of it fits
            size_used = max(12, int(size * 0.8))
            lines = txt.wrap(body, size_used, box.w - 2 * size)
        line_h = int(size_used * 1.45)
        shown = max(1, (box.h - 2 * size) // line_h)
        box.h = min(box.h, len(lines[:shown]) * line_h + 2 * size)  # the panel fits the text
        pygame.draw.rect(surface, PANEL, box, border_radius=10)
        pygame.draw.rect(surface, GOLD, box, width=2, border_radius=10)
        for i, line in enumerate(lines[:shown]):
            txt.blit_text(surface, line, (box.left + size, box.top + size + i * line_h), size_used, WHITE)
        self.draw_message(surface)


class ProgressScreen(StudyScreen):
    """Between games: "Game 2 of 6", who the opponents are (neutral names), and the button to go on."""

    name = "study_progress"

    def __init__(self, app: Any, ctx: StudyContext) -> None:
        super().__init__(app, ctx)
        self.step_info: NextStep | None = None
        self.lines: list[str] = []
        self.refresh()

    def refresh(self) -> None:
        """Work out the next step from the records and the autosave."""
        try:
            self.step_info = self.ctx.next_step(self.app.autosave_store())
            self.lines = self.describe(self.step_info)
        except Exception as e:  # noqa: BLE001 - e.g. an unreadable records database
            self.step_info = None
            self.message = t("The study data could not be read: {error}", error=str(e))

    def build(self) -> None:
        """The continue button (its text says what comes next) and the pause button."""
        self.buttons = {}
        step = self.step_info
        if step is None:
            self.bottom_buttons(("pause", t("Main menu")), None)
            return
        if step.kind == "done":
            return  # update() shows the thank-you screen
        text = {"survey": t("Answer the questions"), "resume": t("Continue the game"),
                "game": t("Start game {n}", n=step.number)}[step.kind]
        self.bottom_buttons(("go", text), ("pause", t("Pause (next participant)")))

    def update(self, dt: float) -> None:
        """A participant who has finished sees the thank-you screen."""
        if self.step_info is not None and self.step_info.kind == "done" and self.app.top is self:
            self.app.replace(ThankYouScreen(self.app, self.ctx))

    def handle(self, event: pygame.event.Event) -> None:
        """Run the pressed button; Enter continues."""
        key = self.pressed(event)
        if key == "go" or (event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)):
            self.go()
        elif key == "pause":
            self.pause()

    def pause(self) -> None:
        """Stop here; the participant resumes by typing the same ID."""
        if self.step_info is None:
            self.app.reset_to(navigation.make(self.app, "menu"))
            return
        self.app.reset_to(ParticipantScreen(self.app, self.ctx))

    def go(self) -> None:
        """The next step: the questionnaire, the game in progress or the next game."""
        step = self.step_info
        if step is None:
            return
        if step.kind == "survey" and step.record_id is not None:
            self.app.reset_to(navigation.make(self.app, "survey_for_record", step.record_id, then="study"))
        elif step.kind == "resume" and step.session is not None:
            navigation.start_session(self.app, step.session)
        elif step.kind == "game" and step.plan is not None:
            make_room_for_study(self.app)  # an unfinished ordinary game is put aside, not ended
            navigation.start_session(self.app, self.ctx.new_session(step.plan))
        else:
            self.app.replace(ThankYouScreen(self.app, self.ctx))

    def draw(self, surface: pygame.Surface) -> None:
        """Progress bar, "Game n of N" and the opponents of the next game."""
        y = self.draw_header(surface)
        w, h = surface.get_size()
        size, margin, bh = self.sizes()
        step = self.step_info
        if step is not None and self.ctx.run is not None:
            txt.blit_text(surface, t("Participant {id}", id=self.ctx.run.participant), (w // 2, y),
                          int(size * 0.9), MUTED, False, "midtop")
            y += int(size * 2.5)
            done = step.number - 1 if step.kind != "survey" else step.number
            txt.blit_text(surface, t("Game {n} of {total}", n=step.number, total=step.total), (w // 2, y),
                          int(size * 1.8), WHITE, True, "midtop")
            y += int(size * 3)
            bar = pygame.Rect(0, y, min(w - 2 * margin, 900), max(14, size))
            bar.centerx = w // 2
            draw_progress(surface, bar, done, step.total)
            y = bar.bottom + size * 2
            for line in self.lines:
                for part in txt.wrap(line, size, min(w - 2 * margin, max(1000, int(w * 0.6)))):
                    txt.blit_text(surface, part, (w // 2, y), size, WHITE, False, "midtop")
                    y += int(size * 1.5)
        self.draw_message(surface)

    def describe(self, step: NextStep) -> list[str]:
        """What comes next, in words (neutral names only)."""
        if step.kind == "survey":
            return [t("Please answer a few questions about game {n}.", n=step.number)]
        lines = []
        if step.kind == "resume":
            lines.append(t("Your game {n} was interrupted; it continues where it stopped.", n=step.number))
        if step.plan is not None and self.ctx.run is not None:
            from engine import registry

            seats = (step.session or self.ctx.new_session(step.plan)).seats
            game = registry.create(self.ctx.study.game, self.ctx.study.variant)
            human = self.ctx.study.human_seat
            team = next((tm for tm in game.teams() if human in tm), (human,))
            opponents = [s.label for i, s in enumerate(seats) if i not in team]
            partners = [s.label for i, s in enumerate(seats) if i in team and i != human]
            lines.append(t("Next: {game} against {names}.", game=t(game.title), names=", ".join(opponents)))
            if partners:
                lines.append(t("Your partner: {names}.", names=", ".join(partners)))
        return lines


class ThankYouScreen(StudyScreen):
    """The end of a participant's run."""

    name = "study_thanks"

    def build(self) -> None:
        """Next participant."""
        self.buttons = {}
        self.bottom_buttons(("next", t("Next participant")), None)

    def handle(self, event: pygame.event.Event) -> None:
        """Back to the participant ID screen."""
        if self.pressed(event) == "next":
            self.app.reset_to(ParticipantScreen(self.app, self.ctx))

    def draw(self, surface: pygame.Surface) -> None:
        """Thank-you text and the full progress bar."""
        y = self.draw_header(surface)
        w, h = surface.get_size()
        size, margin, _ = self.sizes()
        total = self.ctx.total
        txt.blit_text(surface, t("Thank you!"), (w // 2, int(h * 0.3)), int(size * 2.4), GOLD, True, "center")
        bar = pygame.Rect(0, int(h * 0.42), min(w - 2 * margin, 900), max(14, size))
        bar.centerx = w // 2
        draw_progress(surface, bar, total, total)
        y = bar.bottom + size * 2
        for line in (t("You have played all {total} games and answered every questionnaire.", total=total),
                     t("Your answers are stored on this computer only.") + " " +
                     t("Please tell the researcher that you have finished.")):
            for part in txt.wrap(line, size, min(w - 2 * margin, max(1000, int(w * 0.6)))):
                txt.blit_text(surface, part, (w // 2, y), size, WHITE, False, "midtop")
                y += int(size * 1.5)


navigation.register(ParticipantScreen.name, ParticipantScreen)
navigation.register(ConsentScreen.name, ConsentScreen)
navigation.register(ProgressScreen.name, ProgressScreen)
navigation.register(ThankYouScreen.name, ThankYouScreen)
