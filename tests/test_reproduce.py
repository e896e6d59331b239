"""The experiment registry and ``python -m engine.reproduce``: catalogue, statistics, resume, report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import agents, registry
from engine.game import GameError
from engine.lab import arena
from engine.lab.experiments import Experiment, Played, Row, Setup, agreement, check, measure_row, row_unit
from engine.lab.experiments_catalog import EXPERIMENTS
from engine.lab.reproduce import (
    BEGIN,
    DISCUSSION_DIR,
    END,
    current_note,
    load_discussions,
    load_results,
    main,
    records_path,
    replace_between_markers,
    run_experiment,
    scaled_games,
    undiscussed,
)
from engine.lab.tournament import sides_table

DOCUMENTS = {"fernandes2016", "manzke2025", "dipalma2014", "huang2017", "kassak2023"}


def test_the_catalogue_covers_every_document_with_valid_setups() -> None:
    assert len(EXPERIMENTS) >= 30
    assert {e.document for e in EXPERIMENTS.values()} == DOCUMENTS
    made: set[tuple] = set()
    for exp in EXPERIMENTS.values():
        check(exp)
        assert exp.rows and exp.setups
        for setup in exp.setups:
            game = registry.create(setup.game, setup.variant_dict())
            assert len(setup.agents) == game.num_players, exp.id
            for spec in setup.agents:
                if (setup.game, setup.variant, spec) not in made:
                    agents.make(spec, game)
                    made.add((setup.game, setup.variant, spec))
        for row in exp.rows:
            if row.published is not None and row_unit(exp, row) in ("share", "points"):
                assert -50 < row.published < 50, (exp.id, row.label)
            if row.published is not None and row_unit(exp, row) == "share":
                assert 0 <= row.published <= 1, (exp.id, row.label)


def test_check_rejects_an_agent_that_does_not_play() -> None:
    exp = Experiment("dipalma2014/table-x", "dipalma2014", "t", "t", (Setup("scopone", ("random",) * 4, 10),),
                     (Row("x", "win", agent="cs"),))
    with pytest.raises(ValueError, match="does not play"):
        check(exp)


def test_statistics_of_sides_and_agents_on_known_records() -> None:
    # two games of [A, B, A, B]: rotation 0 (A = seats 0+2) won by A, rotation 1 (B = seats 0+2) tied
    recs = [arena.GameRecord(0, 0, [0, 1, 0, 1], [4, 1, 4, 1], [1.0, 0.0, 1.0, 0.0], 40),
            arena.GameRecord(0, 1, [1, 0, 1, 0], [2, 2, 2, 2], [0.5, 0.5, 0.5, 0.5], 40)]
    played = [Played(["A", "B", "A", "B"], [(0, 2), (1, 3)], False, recs)]
    assert measure_row(Row("A hand", "win", agent="A", rotation=0), played)["measured"] == 1.0
    assert measure_row(Row("A all", "win", agent="A"), played) | {"ci95": None} == \
        {"measured": 0.5, "ci95": None, "n": 2}
    assert measure_row(Row("ties", "tie", seats=(0, 2)), played)["measured"] == 0.5
    assert measure_row(Row("B points", "points", agent="B"), played)["measured"] == 1.5
    hearts = [arena.GameRecord(0, 0, [0, 1, 1, 1], [0, 10, 6, 10], [1.0, 0.0, 0.0, 0.0], 52)]
    solo = [Played(["T", "I", "I", "I"], [(0,), (1,), (2,), (3,)], True, hearts)]
    # R(s,i): the others' points minus the seat's, negated in a penalty game: 26 - 4 * points
    assert measure_row(Row("T", "relative", offset_from="T"), solo)["measured"] == 26.0
    assert measure_row(Row("2nd", "relative", offset_from="T", offset=1), solo)["measured"] == -14.0


def test_agreement() -> None:
    assert agreement(0.42, None, 0.45, (0.40, 0.50)) == "agrees"
    assert agreement(0.30, None, 0.45, (0.40, 0.50)) == "disagrees"
    assert agreement(None, (0.17, 0.21), 0.25, (0.20, 0.30)) == "agrees"
    assert agreement(None, None, 0.25, (0.20, 0.30)) == "no published value"


def test_sizes_and_records_names() -> None:
    assert scaled_games(1000, 0.05) == 50
    assert scaled_games(90, 0.001) == 1
    assert records_path("runs/x.jsonl", 0, 1) == "runs/x.jsonl"
    assert records_path("runs/x.jsonl", 2, 3) == "runs/x.2.jsonl"


def test_a_cross_table_cell_is_the_tournament_cell() -> None:
    exp = EXPERIMENTS["dipalma2014/table-6.4"]
    result = run_experiment(exp, scale=0.003, seed=4, jobs=1)  # 3 deals per cell
    row = next(r for r in result["rows"] if r["label"] == "win: Greedy (hand) vs CS (deck)")
    table = sides_table("scopone", {"target": 0}, ["greedy", "cs"], 3, 4)
    assert row["n"] == 3
    assert row["measured"] == table["cells"]["0,1"]["win"]


def test_a_stopped_run_resumes_to_the_same_result(tmp_path: Path) -> None:
    exp = EXPERIMENTS["dipalma2014/table-6.1"]
    full = run_experiment(exp, scale=0.01, seed=3, jobs=1)
    records = str(tmp_path / "t61.jsonl")

    def stops_after_four(tasks: list[tuple], keep) -> None:  # a run lost after four games
        for t in tasks[:4]:
            keep(arena.play_one(*t))
        raise KeyboardInterrupt

    partial = run_experiment(exp, scale=0.01, seed=3, backend=stops_after_four, records=records)
    assert partial["interrupted"] and partial["rows"][0]["n"] == 4
    played: list[int] = []

    def counting(tasks: list[tuple], keep) -> None:
        played.append(len(tasks))
        for t in tasks:
            keep(arena.play_one(*t))

    resumed = run_experiment(exp, scale=0.01, seed=3, backend=counting, records=records)
    assert played == [6]  # only the games that were not recorded
    assert resumed["rows"] == full["rows"]
    assert resumed["resumed_games"] == 4 and "resumed_games" not in full


def test_cli_list_run_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listing = tmp_path / "list.json"
    assert main(["--list", "--json", str(listing)]) == 0
    entries = json.loads(listing.read_text())
    assert len(entries) == len(EXPERIMENTS)
    assert {"id", "document", "game", "source", "rows"} <= set(entries[0])
    out = tmp_path / "r.json"
    assert main(["dipalma2014/table-6.1", "--scale", "0.004", "--jobs", "1", "--quiet", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert {"id", "document", "source", "command", "commit", "rows"} <= set(result)
    assert {"label", "published", "measured", "ci95", "n"} <= set(result["rows"][0])
    capsys.readouterr()
    for bad in (["no/such", "--json", str(out)], ["dipalma2014/table-6.1", "--scale", "0", "--json", str(out)],
                ["dipalma2014/table-6.1"]):
        assert main(bad) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: ") and "\n" not in err
    assert main(["no/such", "--json", str(out)]) == 2
    assert "dipalma2014/table-6.1" in capsys.readouterr().err  # the valid ids are listed


def test_report_replaces_only_the_marked_part(tmp_path: Path) -> None:
    assert replace_between_markers("# R\n\nhand text\n", "gen\n") == f"# R\n\nhand text\n\n{BEGIN}\ngen\n{END}\n"
    marked = f"# R\nbefore\n{BEGIN}\nstale text\n{END}\nafter\n"
    assert replace_between_markers(marked, "new\n") == f"# R\nbefore\n{BEGIN}\nnew\n{END}\nafter\n"
    results = tmp_path / "results"
    results.mkdir()
    assert main(["dipalma2014/table-6.1", "--scale", "0.004", "--jobs", "1", "--quiet", "--json",
                 str(results / "dipalma2014_table-6.1.json")]) == 0
    doc = tmp_path / "results.md"
    doc.write_text(marked)
    assert main(["--report", "--results", str(results), "--output", str(doc)]) == 0
    text = doc.read_text()
    assert text.startswith("# R\nbefore\n" + BEGIN) and text.endswith(END + "\nafter\n")
    assert "### dipalma2014/table-6.1" in text and "41.7%" in text and "stale text" not in text
    (results / "bad.json").write_text("{}")
    assert main(["--report", "--results", str(results), "--output", str(doc)]) == 2


def test_records_of_another_run_fail_before_playing(tmp_path: Path) -> None:
    records = str(tmp_path / "r.jsonl")
    run_experiment(EXPERIMENTS["dipalma2014/table-6.1"], scale=0.002, seed=1, jobs=1, records=records)
    played: list[int] = []

    def never(tasks: list[tuple], keep) -> None:
        played.append(len(tasks))

    with pytest.raises(GameError, match="records another run"):
        run_experiment(EXPERIMENTS["dipalma2014/table-6.1"], scale=0.002, seed=2, backend=never, records=records)
    assert played == []


def test_setups_plays_only_the_chosen_setups(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exp = EXPERIMENTS["dipalma2014/table-6.2"]
    out = tmp_path / "r.json"
    assert main(["dipalma2014/table-6.2", "--setups", "1", "--scale", "0.002", "--jobs", "1", "--quiet",
                 "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert [s["setup"] for s in result["setups"]] == [1]
    assert result["only_setups"] == [1] and result["setups_total"] == len(exp.setups)
    for row, spec in zip(result["rows"], exp.rows, strict=True):
        assert (row["measured"] is not None) == (spec.setups == (1,)), row["label"]
    assert any(r["measured"] is not None for r in result["rows"])
    assert main(["dipalma2014/table-6.2", "--setups", "1", "--estimate", "--scale", "0.002"]) == 0
    printed = capsys.readouterr().out
    assert "set-up 1:" in printed and "set-up 0:" not in printed
    for bad in ("9", "x", ""):
        assert main(["dipalma2014/table-6.2", "--setups", bad, "--json", str(out)]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: --setups") and "\n" not in err


def _stored(exp_id: str, agreement: str, agents: list[str] | None = None) -> dict:
    """A minimal stored result of ``exp_id`` whose one row has ``agreement`` (set-up 0's agents unless given)."""
    setup = EXPERIMENTS[exp_id].setups[0]
    return {"id": exp_id, "document": exp_id.split("/")[0], "source": "s", "command": "c", "commit": "abc",
            "note": "stored note", "setups": [{"setup": 0, "game": setup.game, "variant": setup.variant_dict(),
                                                "agents": agents or list(setup.agents), "games": 4}],
            "rows": [{"label": "cell", "statistic": "win", "published": 0.5, "measured": 0.9, "ci95": [0.8, 1.0],
                      "n": 4, "agreement": agreement}]}


def test_report_shows_discussions_and_names_unexplained_disagreements(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "dipalma2014_table-6.1.json").write_text(json.dumps(_stored("dipalma2014/table-6.1", "disagrees")))
    (results / "dipalma2014_table-6.2.json").write_text(json.dumps(_stored("dipalma2014/table-6.2", "agrees")))
    doc = tmp_path / "results.md"
    assert main(["--report", "--results", str(results), "--output", str(doc)]) == 0
    err = capsys.readouterr().err
    assert "dipalma2014/table-6.1" in err and "dipalma2014/table-6.2" not in err
    assert "**Discussion.**" not in doc.read_text()
    (results / DISCUSSION_DIR).mkdir()
    (results / DISCUSSION_DIR / "dipalma2014_table-6.1.md").write_text("The deck team's edge was checked.\n")
    assert main(["--report", "--results", str(results), "--output", str(doc)]) == 0
    assert capsys.readouterr().err == ""
    text = doc.read_text()
    section = text.split("### dipalma2014/table-6.1", 1)[1].split("###", 1)[0]
    assert "**Discussion.** The deck team's edge was checked." in section
    assert "0 / 1 (discussed) |" in text and "1 / 1 |" in text
    (results / DISCUSSION_DIR / "dipalma2014_figure-9.9.md").write_text("about nothing stored\n")
    assert main(["--report", "--results", str(results), "--output", str(doc)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "dipalma2014_figure-9.9.md" in err and "\n" not in err


def test_the_note_follows_the_registry_unless_the_setups_changed() -> None:
    exp = EXPERIMENTS["dipalma2014/table-6.1"]
    assert current_note(_stored(exp.id, "agrees")) == exp.note
    stale = current_note(_stored(exp.id, "agrees", agents=["greedy"] * 4))
    assert stale.startswith("stored note") and "rerun" in stale


def test_every_stored_disagreement_is_discussed() -> None:
    folder = str(Path(__file__).resolve().parent.parent / "docs" / "results")
    results = load_results(folder)
    assert results and undiscussed(results, load_discussions(folder, results)) == []
