"""Progress reports of the UCT agents (detuct, cheat) while they search, as ISMCTS sends them.

Reports are throttled by time (:attr:`Clock.REPORT_EVERY`); the tests set that interval to 0 so that every
16th iteration reports and the counts below depend on iterations only, never on the machine's speed.
"""

from __future__ import annotations

import random
import threading

import pytest

from engine import agents, registry
from engine.agents.base import Budget, Progress
from engine.game import GameState
from engine.search.common import Clock
from engine.search.uct import REPORT_EVERY
from tests.test_search import decision_points


@pytest.fixture(autouse=True)
def _report_every_16_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Clock, "REPORT_EVERY", 0.0)


def opening(name: str = "sueca") -> GameState:
    """An early decision with several legal moves (a search long enough to report many times)."""
    return decision_points(registry.create(name), 2, 1)[0]


def decide(spec: str, state: GameState, budget: Budget) -> int:
    """The move of ``spec`` for the seat to move in ``state`` (the cheating agent sees the whole state)."""
    agent = agents.make(spec, state.game)
    if agent.fair:
        return agent.choose(state.observation(state.current_player), random.Random(1), budget)
    return agent.choose_full(state.clone(), random.Random(1), budget)


def assert_well_formed(reports: list[Progress], state: GameState, move: int) -> None:
    """Legal best moves, win rates in 0..1, iteration counts that only grow; the last report is the move."""
    legal = state.legal_moves()
    for report in reports:
        assert report.best_move in legal
        assert report.win_rate is not None and 0.0 <= report.win_rate <= 1.0
    counts = [r.iterations for r in reports]
    assert counts == sorted(counts)
    assert len(set(counts[:-1])) == len(counts) - 1  # strictly increasing before the final report
    assert reports[-1].best_move == move


@pytest.mark.parametrize("name", ["sueca", "hearts", "scopone"])
def test_detuct_reports_during_the_first_tree_and_counts_over_all_trees(name: str) -> None:
    if name not in registry.available():
        pytest.skip(f"{name} is not in this build")
    state = opening(name)
    reports: list[Progress] = []
    move = decide("detuct:iterations=400,trees=4", state, Budget(on_progress=reports.append))
    assert_well_formed(reports, state, move)
    assert reports[0].iterations < 400 // 4  # before the first tree is finished
    assert reports[-1].iterations == 400
    assert [r.iterations for r in reports[:-1]] == list(range(REPORT_EVERY, 401, REPORT_EVERY))


def test_cheat_reports_during_the_search_with_a_win_rate() -> None:
    state = opening()
    reports: list[Progress] = []
    move = decide("cheat:iterations=300", state, Budget(on_progress=reports.append))
    assert_well_formed(reports, state, move)
    assert len(reports) > 1 and reports[-1].iterations == 300
    assert reports[-2].iterations == 300 // REPORT_EVERY * REPORT_EVERY


def test_detuct_with_a_time_budget_reports_and_stops_on_cancel() -> None:
    state = opening()
    cancel = threading.Event()
    reports: list[Progress] = []

    def record(report: Progress) -> None:
        reports.append(report)
        if len(reports) == 5:
            cancel.set()

    move = decide("detuct:iterations=0,seconds=600,trees=3", state, Budget(cancel=cancel, on_progress=record))
    assert_well_formed(reports, state, move)
    assert len(reports) >= 5


@pytest.mark.parametrize("spec", ["detuct:iterations=200,trees=3", "cheat:iterations=200"])
def test_reporting_does_not_change_the_move(spec: str) -> None:
    for state in decision_points(registry.create("hearts"), 5, 3):
        assert decide(spec, state, Budget(on_progress=lambda _report: None)) == decide(spec, state, Budget())
