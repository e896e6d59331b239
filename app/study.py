"""Study mode without drawing: the loaded study, the participant's run and the next step of the schedule.

``python -m app --study STUDY.json`` (or the menu's Study entry when a study file is configured) runs a
``saves.study`` study: participant ID -> consent -> the participant's games in the counterbalanced order of
:class:`saves.study.StudyRun`, each followed by the study's questionnaire -> thank you. Progress comes from the
records database (and the autosave for a game in progress), so a participant who stops continues where they
stopped. Nothing leaves the computer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.i18n import t
from saves.records import RecordsDB
from saves.session import GameSession
from saves.study import GamePlan, Study, StudyError, StudyRun, load_study, safe_id

__all__ = ["StudyContext", "StudyError", "NextStep", "load_context", "check_participant_id"]


def check_participant_id(text: str) -> str:
    """The participant ID typed by the researcher, validated with the rules of ``saves.study``
    (raises :class:`StudyError` with a translated message)."""
    text = text.strip()
    try:
        return safe_id(text, "participant ID")
    except StudyError:
        raise StudyError(t("A participant ID is 1 to 64 letters, digits, '_', '.' or '-' (no spaces).")) from None


@dataclass
class NextStep:
    """What the participant does next: ``kind`` is ``"survey"`` (``record_id``), ``"resume"`` (``session``),
    ``"game"`` (``plan``) or ``"done"``; ``number`` is the 1-based game number it concerns."""

    kind: str
    number: int
    total: int
    record_id: int | None = None
    plan: GamePlan | None = None
    session: GameSession | None = None


@dataclass
class StudyContext:
    """The study the app is running and the current participant (None until consent is given)."""

    study: Study
    path: Path
    run: StudyRun | None = None

    @property
    def total(self) -> int:
        """Number of games every participant plays."""
        return self.study.games_total

    def existing_run(self, participant: str) -> StudyRun | None:
        """The run of a participant who already consented (resume), else None. Writes nothing."""
        probe = StudyRun(self.study, participant, 0)
        if not probe.progress_file.is_file():
            return None
        run = StudyRun.start(self.study, participant)
        return run if run.consented else None

    def begin(self, participant: str) -> StudyRun:
        """Start (or resume) ``participant`` after they accepted the consent text."""
        run = StudyRun.start(self.study, participant)
        if not run.consented:
            run.give_consent()
        self.run = run
        return run

    def next_step(self, autosave: Any = None) -> NextStep:
        """The participant's next step: a questionnaire still to answer, the game in progress (from the
        autosave), the next scheduled game, or done."""
        run = self.run
        if run is None:
            raise StudyError("no participant")
        with RecordsDB() as db:
            pending = run.pending_survey(db)
            done = run.completed_games(db)
            plan = run.next_game(db)
        if pending is not None:
            number = next((n for n, rid in done.items() if rid == pending), 0) + 1
            return NextStep("survey", number, self.total, record_id=pending)
        if plan is None:
            return NextStep("done", self.total, self.total)
        saved = self.saved_game(plan, autosave)
        if saved is not None:
            return NextStep("resume", plan.number + 1, self.total, plan=plan, session=saved)
        return NextStep("game", plan.number + 1, self.total, plan=plan)

    def saved_game(self, plan: GamePlan, autosave: Any) -> GameSession | None:
        """The autosaved session of exactly this participant's planned game, if there is one."""
        if autosave is None or self.run is None:
            return None
        try:
            if not autosave.exists():
                return None
            result = autosave.load()
        except Exception:  # noqa: BLE001 - an unreadable save: the game starts again from its deal
            return None
        session = getattr(result, "session", None)
        tag = getattr(session, "study", None) or {}
        if session is None or tag.get("study_id") != self.study.id or \
                tag.get("participant") != self.run.participant or tag.get("game_number") != plan.number:
            return None
        return session

    def new_session(self, plan: GamePlan) -> GameSession:
        """The session of a planned game, with the neutral names in the current language."""
        assert self.run is not None
        session = self.run.new_session(plan)
        for seat in session.seats:
            seat.display_name = neutral_name(seat.label)
        return session

    def is_study_session(self, session: Any) -> bool:
        """Whether ``session`` is a game of this study's current participant."""
        tag = getattr(session, "study", None) or {}
        return self.run is not None and tag.get("study_id") == self.study.id and \
            tag.get("participant") == self.run.participant


def neutral_name(shown: str) -> str:
    """``saves.study``'s English neutral names ("Opponent A1", "Partner A", "You") in the current language."""
    if shown == "You":
        return t("You")
    for role, text in (("Opponent ", "Opponent {label}"), ("Partner ", "Partner {label}")):
        if shown.startswith(role) and " " not in shown[len(role):]:
            return t(text, label=shown[len(role):])
    return shown


def load_context(path: str | Path) -> StudyContext:
    """Load and validate a study file (raises :class:`StudyError` naming the problem)."""
    p = Path(path).expanduser()
    return StudyContext(load_study(p), p)


def study_progress_text(app: Any, session: Any) -> str:
    """"Game 2 of 6" for a game of the study the app is running, else ""."""
    ctx = getattr(app, "study", None)
    if ctx is None or session is None or not ctx.is_study_session(session):
        return ""
    number = int((session.study or {}).get("game_number", 0)) + 1
    return t("Game {n} of {total}", n=number, total=ctx.total)
