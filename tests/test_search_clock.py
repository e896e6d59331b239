"""What a search's time budget counts: elapsed time, or the searching thread's own processor time."""

from __future__ import annotations

import random
import time

import pytest

from engine import agents, registry
from engine.game import VariantError
from engine.search.common import CLOCKS, Clock
from tests.test_search import decision_points


def test_the_cpu_clock_does_not_run_while_the_thread_waits() -> None:
    wall, cpu = Clock(0, 0.02, None, "wall"), Clock(0, 0.02, None, "cpu")
    time.sleep(0.05)  # elapsed time passes; almost no processor time does
    assert wall.done(1)
    assert not cpu.done(1)
    assert cpu.left() > 0.0 > wall.left()


def test_the_cpu_clock_runs_while_the_thread_works() -> None:
    cpu = Clock(0, 0.01, None, "cpu")
    spins = 0
    while not cpu.done(1):
        spins += 1
    assert spins > 0 and CLOCKS["cpu"]() >= cpu.deadline


@pytest.mark.parametrize("spec", ["ismcts:iterations=0,seconds=0.02,clock=cpu",
                                  "ismcts:iterations=0,seconds=0.02,clock=cpu,endgame=50",
                                  "pimc:deals=0,seconds=0.02,clock=cpu", "cheat:iterations=0,seconds=0.02,clock=cpu",
                                  "detuct:iterations=0,seconds=0.02,clock=cpu"])
def test_searches_on_the_cpu_clock_decide_legal_moves(spec: str) -> None:
    game = registry.create("briscola")
    agent = agents.make(spec, game)
    rng = random.Random(4)
    for state in decision_points(game, 4, 12):  # spread over a hand, so the endgame solver's deadline is met too
        if agent.name == "cheat":
            move = agent.choose_full(state, rng)
        else:
            move = agent.choose(state.observation(state.current_player), rng)
        assert move in state.legal_moves()


def test_unknown_clocks_and_cpu_with_worker_processes_are_refused() -> None:
    game = registry.create("briscola")
    with pytest.raises(VariantError, match="wall"):
        agents.make("ismcts:clock=sundial", game)
    with pytest.raises(VariantError, match="workers"):
        agents.make("ismcts:clock=cpu,workers=2", game)
