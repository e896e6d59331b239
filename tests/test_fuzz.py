"""The agent fuzz harness (engine.fuzz): option coverage, a short clean run, failures reported with the state."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.lab import fuzz


@pytest.mark.parametrize("name", registry.available())
def test_option_specs_cover_the_games_registered_options_and_agents(name: str) -> None:
    game = registry.create(name)
    specs = fuzz.option_specs(game)
    assert len(specs) == len(set(specs))
    assert any(s.startswith("detuct:") for s in specs) and any(s.startswith("cheat:") for s in specs)
    assert any(",reuse=true" in s for s in specs) and any(",sim=nast" in s for s in specs)
    for spec in specs:
        agents.make(spec, game)  # every listed spec is usable here


def test_a_short_run_plays_a_whole_hand_of_every_game_without_failures(monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    played: list[str] = []
    original = fuzz.play_random_hand

    def watched(rng: random.Random, name: str | None = None) -> tuple[str, dict, list[str], str | None]:
        out = original(rng, name)
        played.append(out[0])
        return out

    monkeypatch.setattr(fuzz, "play_random_hand", watched)
    games = registry.available()
    assert fuzz.main(["--hands", str(len(games)), "--seconds", "0", "--seed", "3"]) == 0
    assert f"{len(games)} hands, 0 failures" in capsys.readouterr().out
    assert sorted(played) == sorted(games)


def test_a_run_needs_an_end() -> None:
    with pytest.raises(SystemExit):
        fuzz.main(["--seconds", "0"])


def test_a_failing_agent_is_reported_with_its_state(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.agents.base import Agent

    def broken(self: Agent, obs: object, rng: random.Random, budget: object = None) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(agents.agent_class("random"), "choose", broken)
    monkeypatch.setattr(fuzz, "option_specs", lambda game: ["random"])
    name, variant, specs, failure = fuzz.play_random_hand(random.Random(1))
    assert specs == ["random"] * registry.create(name, variant).num_players
    assert failure is not None and "RuntimeError: boom" in failure and "STATE {" in failure
