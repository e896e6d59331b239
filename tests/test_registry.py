"""The typed registry: one GameEntry per game found in the game packages, agents per game, search knowledge."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import agents, registry
from engine.game import VariantError
from engine.knowledge import SearchKnowledge
from engine.search import knowledge

ROOT = Path(__file__).resolve().parent.parent


def test_the_packages_register_every_game_in_menu_order() -> None:
    assert registry.names() == ["sueca", "bisca", "briscola", "hearts", "mosssidewhist", "scopone", "scopa",
                                "pharaoh"]
    assert [e.name for e in registry.entries()] == registry.names() == registry.available()
    with pytest.raises(VariantError, match="unknown game 'whist'; games: sueca, bisca"):
        registry.entry("whist")


@pytest.mark.parametrize("name", registry.names())
def test_an_entry_holds_what_the_app_and_the_search_need(name: str) -> None:
    e = registry.entry(name)
    assert e.game_class.name == name and e.title == e.game_class.title
    assert list(e.presets) == list(registry.LEVELS)
    assert all(spec.split(":")[0] in ("ismcts", "pimc") for spec in e.presets.values())
    assert isinstance(e.knowledge, SearchKnowledge)
    assert e.table in registry.TABLE_KINDS and e.summary in registry.SUMMARY_KINDS
    for lang in ("en", "it", "pt", "sk"):
        assert (ROOT / "assets" / "rules" / lang / f"{e.rules_page}.md").is_file()
    assert "heuristic" in e.agents
    for agent_name, cls in e.agents.items():
        assert cls.name == agent_name and (cls.games is None or name in cls.games)
    with pytest.raises(TypeError):
        e.presets["expert"] = "random"  # type: ignore[index]


def test_kinds_of_table_and_summary() -> None:
    kinds = {e.name: (e.table, e.summary) for e in registry.entries()}
    assert kinds["sueca"] == kinds["bisca"] == kinds["briscola"] == ("trick", "card-points")
    assert kinds["hearts"] == ("trick", "penalty") and kinds["mosssidewhist"] == ("trick", "whist")
    assert kinds["scopone"] == kinds["scopa"] == ("capture", "capture")
    assert kinds["pharaoh"] == ("shedding", "shedding")


def test_agents_come_from_the_game_entry() -> None:
    sueca, scopa, pharaoh = (registry.create(n) for n in ("sueca", "scopa", "pharaoh"))
    assert agents.available(sueca) == ["random", "ismcts", "detuct", "cheat", "pimc", "heuristic", "greedy"]
    assert agents.available(scopa)[5:] == ["heuristic", "greedy", "cs", "cg"]
    assert agents.agent_class("heuristic", sueca) is not agents.agent_class("heuristic", pharaoh)
    assert agents.make("heuristic", pharaoh).games == ("pharaoh",)
    with pytest.raises(VariantError, match="unknown agent 'cs' for sueca; agents: random, ismcts, detuct, cheat, "
                                           "pimc, heuristic, greedy$"):
        agents.make("cs", sueca)
    with pytest.raises(VariantError, match="unknown agent 'nobody'"):
        agents.agent_class("nobody")
    assert agents.describe("cs")["games"] == ["scopone", "scopa"] and agents.describe("random")["games"] == "all"
    assert set(agents.names()) >= {"random", "ismcts", "heuristic", "cs", "smallest", "backtrack"}


def test_unknown_search_names_list_the_valid_ones() -> None:
    hearts = registry.create("hearts")
    with pytest.raises(VariantError, match="no simulation policy 'greedyy' for hearts; available: random, nast, "
                                           "egreedy, greedy, heuristic"):
        agents.make("ismcts:sim=greedyy", hearts)
    with pytest.raises(VariantError, match="no bias function 'x' for hearts; available: inference"):
        agents.make("ismcts:bias=x", hearts)
    with pytest.raises(VariantError, match="no move pruner 'x' for hearts; available: none"):
        agents.make("ismcts:prune=x", hearts)
    assert knowledge.default_simulation("pharaoh") == "play-smallest"
    assert knowledge.score_span("hearts") == 26.0 and knowledge.score_span("pharaoh") is None
    assert knowledge.default_exploration(registry.create("bisca", {"hand_size": 9})) == 0.25
    assert knowledge.default_exploration(registry.create("briscola")) == 0.7
