"""Rerun the source documents' published tables and figures (the registry of
:mod:`engine.lab.experiments_catalog`) and compare with their numbers.

    python -m engine.reproduce --list [--json PATH]
    python -m engine.reproduce ID [--scale F] [--seed S] [--jobs N] [--backend local|ray] [--address ADDR]
                               [--records FILE] [--setups K,K] --json PATH
    python -m engine.reproduce ID --estimate [--scale F] [--jobs N] [--records FILE]
    python -m engine.reproduce --report [--results DIR] [--output FILE]

A run plays every arena set-up of the experiment at its published size times ``--scale`` (at least one deal)
through :func:`engine.lab.arena.run`, so it is seeded, duplicate-dealt and resumable as the arena is: with
``--records FILE`` the games of set-up k go to FILE with ``.k`` before its extension (FILE itself when there is
one set-up), plain arena records files that ``python -m engine.arena --pool`` also reads; the same command with
the same files resumes. ``--backend ray`` plays the games on Ray (``--address`` joins a running cluster; see
docs/research.md) with the same results as the local processes. A set-up with a probe (:mod:`engine.lab.probes`)
also measures decisions during its games; its records keep those measurements (their header names the probe), so
it resumes the same way.

Before a run (unless ``--quiet``), and alone with ``--estimate``, the cost is printed: the games at this scale
and at full size, and a rough time from a few timed decisions of every agent (:mod:`engine.lab.cost`), so that
``--scale``, ``--jobs`` or ``--backend ray`` can be chosen before a long run.

``--report`` rewrites, in ``--output`` (docs/results.md), only the text between the lines
``<!-- reproduce:begin -->`` and ``<!-- reproduce:end -->`` (appended at the end if absent) from the result
files in ``--results`` (docs/results/), with a plot per reproduced figure when matplotlib is installed
(``pip install .[research]``). A result that disagrees with its document is explained by hand in
``--results``/discussion/ID.md (the id's ``/`` written ``_``): what was checked and what the numbers say; the
report prints that text under the experiment's table and names every disagreeing result that has none.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from engine import agents, registry
from engine.game import GameError
from engine.lab import arena, cli, cluster, cost, probes
from engine.lab.cost import scaled_games
from engine.lab.experiments import Experiment, Played, agreement, measure_row, row_field, row_unit
from engine.lab.experiments_catalog import EXPERIMENTS, MISSING

RESULTS_DIR = os.path.join("docs", "results")
REPORT_FILE = os.path.join("docs", "results.md")
BEGIN = "<!-- reproduce:begin -->"
END = "<!-- reproduce:end -->"
RESULT_KEYS = ("id", "document", "source", "command", "commit", "rows")
DISCUSSION_DIR = "discussion"
"""The folder, inside the results folder, of the hand-written discussions (``<id with _ for />.md``)."""


def records_path(base: str, k: int, count: int) -> str:
    """The records file of set-up ``k`` of ``count``: ``base`` itself for one set-up, else ``.k`` is inserted
    before the extension."""
    if count == 1:
        return base
    stem, ext = os.path.splitext(base)
    return f"{stem}.{k}{ext or '.jsonl'}"


def arena_command(setup: Any, games: int, seed: int) -> str:
    """The arena command line that plays one set-up."""
    parts = ["python", "-m", "engine.arena", "--game", setup.game]
    if setup.variant:
        parts += ["--variant"] + [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in setup.variant]
    parts += ["--agents", *setup.agents, "--games", str(games), "--seed", str(seed), "--unit", setup.unit]
    return " ".join(shlex.quote(p) for p in parts)


def commit() -> str:
    """The checkout's commit, with ``+dirty`` when the code that plays (``engine/``) has uncommitted changes
    (other files, such as stored results, do not count), or ``unknown``."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short=10", "HEAD"],
                              capture_output=True, text=True, timeout=30, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no", "--", "engine"],
                                 capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head + ("+dirty" if changed else "")) if head else "unknown"


def get_experiment(exp_id: str) -> Experiment:
    if exp_id not in EXPERIMENTS:
        raise GameError(f"unknown experiment {exp_id!r}; valid ids: {', '.join(EXPERIMENTS)}")
    return EXPERIMENTS[exp_id]


def validate(exp: Experiment) -> None:
    """Fail before playing: every set-up's game, variant, agents and probe must exist."""
    for setup in exp.setups:
        game = registry.create(setup.game, setup.variant_dict())
        for spec in setup.agents:
            agents.make(spec, game)
        if setup.probe:
            probes.check(setup.probe, game, setup.agents, setup.probed)


def check_records(exp: Experiment, records: str, seed: int) -> None:
    """Fail before playing if an existing records file of the experiment belongs to another run."""
    for k, setup in enumerate(exp.setups):
        path = records_path(records, k, len(exp.setups))
        if not (os.path.exists(path) and os.path.getsize(path) > 0):
            continue
        header = arena.read_records(path)[0]
        want = {"arena_records": arena.RECORDS_VERSION,
                **arena.records_header(setup.game, registry.create(setup.game, setup.variant_dict()).variant,
                                       setup.agents, seed, setup.unit, setup.probe, setup.probed)}
        if header != want:
            diff = sorted(key for key in set(header) | set(want) if header.get(key) != want.get(key))
            raise GameError(f"{path} records another run than set-up {k} of {exp.id} (differs in: "
                            f"{', '.join(diff)}); give --records a new path or repeat that run's command")


def parse_setups(text: str | None, exp: Experiment) -> list[int] | None:
    """``--setups 0,2`` as set-up indexes of ``exp`` (None: every set-up); GameError on a bad list."""
    if text is None:
        return None
    try:
        picked = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        picked = []
    if not picked or not all(0 <= k < len(exp.setups) for k in picked):
        raise GameError(f"--setups must list set-up numbers of {exp.id} separated by commas, from 0 to "
                        f"{len(exp.setups) - 1} (see --estimate), not {text!r}")
    return picked


def run_experiment(exp: Experiment, scale: float = 1.0, seed: int = 1, jobs: int = 0,
                   backend: arena.Backend | None = None, records: str | None = None,
                   progress: bool = False, only: Sequence[int] | None = None) -> dict[str, Any]:
    """Play the experiment at ``scale`` of its published size and return the result (without ``command``).
    ``only`` plays just those set-ups: the rows that read another one are not measured."""
    if not scale > 0:
        raise GameError(f"--scale must be positive, not {scale}")
    validate(exp)
    if records:
        check_records(exp, records, seed)
    revision = commit()  # the code that plays, read before the run (the checkout may change during it)
    started = time.time()
    played: dict[int, Played] = {}
    resumed = 0
    setups_out = []
    interrupted = False
    with tempfile.TemporaryDirectory(prefix="reproduce-") as scratch:
        for k, setup in enumerate(exp.setups):
            if only is not None and k not in only:
                continue
            games = scaled_games(setup.games, scale)
            path = records_path(records or os.path.join(scratch, "records.jsonl"), k, len(exp.setups))
            if progress:
                print(f"[{k + 1}/{len(exp.setups)}] {arena_command(setup, games, seed)}", file=sys.stderr)
            summary = arena.run(setup.game, setup.variant_dict(), list(setup.agents), games, seed, jobs,
                                setup.unit, progress=progress, records_path=path, backend=backend,
                                probe=setup.probe, probed=setup.probed)
            _header, recs, _complete, _cut = arena.read_records(path)
            planned = {(d, r) for d in range(summary["deals"]) for r in range(summary["rotations"])}
            recs = [r for r in recs if (r.deal, r.rotation) in planned]  # a larger earlier run's extra games
            game = registry.create(setup.game, setup.variant_dict())
            played[k] = Played(list(setup.agents), game.teams(), game.lower_is_better(), recs, setup.probe)
            setups_out.append({"setup": k, "game": setup.game, "variant": setup.variant_dict(),
                               "agents": list(setup.agents), "unit": setup.unit, "games": len(recs),
                               **({"probe": setup.probe, "probed": list(setup.probed)} if setup.probe else {}),
                               "published_games": setup.games,
                               "arena_command": arena_command(setup, games, seed),
                               "full_size_command": arena_command(setup, setup.games, seed)})
            resumed += summary.get("resumed_games", 0)
            if summary.get("interrupted"):
                interrupted = True
                break
    rows = []
    for row in exp.rows:
        if any(k not in played for k in row.setups):
            measured: dict[str, Any] = {"measured": None, "ci95": None, "n": 0}
        else:
            measured = measure_row(row, played)
        info = row_field(exp, row)
        agrees = agreement(row.published, row.published_ci95, measured["measured"], measured["ci95"])
        if info is not None and not info.comparable and agrees in ("agrees", "disagrees"):
            agrees = "machine-dependent"  # a time measured here against one measured on the document's machine
        rows.append({"label": row.label, "statistic": row.statistic, "unit": row_unit(exp, row),
                     "published": row.published,
                     "published_ci95": list(row.published_ci95) if row.published_ci95 else None, **measured,
                     "agreement": agrees, "series": row.series, "x": row.x})
    out: dict[str, Any] = {"id": exp.id, "document": exp.document, "source": exp.source, "title": exp.title,
                           "scale": scale, "seed": seed, "commit": revision, "note": exp.note,
                           "x_label": exp.x_label, "setups": setups_out, "rows": rows,
                           "seconds": round(time.time() - started, 1)}
    if resumed:
        out["resumed_games"] = resumed  # read back from the records: their time is not in "seconds"
    if only is not None:
        out["only_setups"] = list(only)
        out["setups_total"] = len(exp.setups)
    if interrupted:
        out["interrupted"] = True
    return out


# ------------------------------------------------------------------------------------------------ report

def load_results(folder: str) -> list[dict[str, Any]]:
    """Every result file of ``folder`` (sorted by experiment id); a file that is not a result is an error."""
    if not os.path.isdir(folder):
        raise GameError(f"no results folder {folder}")
    out = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            raise GameError(f"cannot read the result file {path}: {e}") from e
        if not isinstance(data, dict) or any(k not in data for k in RESULT_KEYS) or not isinstance(data["rows"], list):
            raise GameError(f"{path} is not a reproduce result (needs {', '.join(RESULT_KEYS)})")
        out.append(data)
    order = {k: i for i, k in enumerate(EXPERIMENTS)}
    out.sort(key=lambda d: (order.get(d["id"], len(order)), d["id"]))
    return out


def load_discussions(folder: str, results: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The hand-written discussion of each stored result that has one, by experiment id; a discussion file whose
    name matches no stored result is an error."""
    path = os.path.join(folder, DISCUSSION_DIR)
    if not os.path.isdir(path):
        return {}
    stems = {res["id"].replace("/", "_"): res["id"] for res in results}
    out = {}
    for name in sorted(os.listdir(path)):
        if not name.endswith(".md"):
            continue
        stem = name[:-3]
        if stem not in stems:
            raise GameError(f"{os.path.join(path, name)} discusses no stored result (expected one of: "
                            f"{', '.join(sorted(stems))})")
        with open(os.path.join(path, name), encoding="utf-8") as f:
            out[stems[stem]] = f.read().strip()
    return out


def undiscussed(results: Sequence[dict[str, Any]], discussions: dict[str, str]) -> list[str]:
    """The ids of the stored results with a row that disagrees with its document and no discussion."""
    return [res["id"] for res in results if res["id"] not in discussions
            and any(r.get("agreement") == "disagrees" for r in res["rows"])]


def current_note(res: dict[str, Any]) -> str:
    """The note to print with a stored result: the registry's present wording when the experiment's set-ups are
    still the ones the result played, else the stored note and a warning that the definition changed."""
    exp = EXPERIMENTS.get(res["id"])
    if exp is not None:
        registered = [(s.game, s.variant_dict(), list(s.agents)) for s in exp.setups]
        played = {int(s.get("setup", i)): (s.get("game"), s.get("variant"), s.get("agents"))
                  for i, s in enumerate(res.get("setups", []))}
        if all(0 <= k < len(registered) and registered[k] == setup for k, setup in played.items()):
            return exp.note
    return (str(res.get("note") or "") + " **The registry's set-ups for this experiment changed after this run: "
            "rerun it to refresh the result.**").strip()


def _kind(row: dict[str, Any]) -> str:
    """How a result row's values are written: its ``unit`` (``share``, ``points``, ``seconds``, ``moves``,
    ``iterations``, ``decisions``), ``relative`` for the relative reward (signed); results written before rows
    had a unit read it from their statistic."""
    stat = row.get("statistic", "win")
    if stat == "relative":
        return "relative"
    return str(row.get("unit") or ("points" if stat == "points" else "share"))


def _fmt(value: Any, kind: str) -> str:
    if value is None:
        return "-"
    if kind == "relative":
        return f"{value:+.2f}"
    if kind == "share":
        return f"{100 * value:.1f}%"
    if kind == "seconds":
        return f"{value:.3g} s"
    if kind == "iterations" and abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.2f}"


def _fmt_interval(ci: Any, kind: str) -> str:
    if not ci:
        return ""
    lo, hi = (_fmt(v, kind).removesuffix("%").removesuffix(" s") for v in ci)
    return f"[{lo}, {hi}]"


AXIS_LABELS = {"share": "share (%)", "points": "points", "relative": "relative reward (points)",
               "seconds": "seconds per decision", "moves": "moves", "iterations": "iterations",
               "decisions": "decisions per game"}


def plot_result(result: dict[str, Any], path: str) -> bool:
    """A PNG of a figure's measured rows (95% intervals) with the published values; False without matplotlib."""
    try:
        import matplotlib  # optional: the 'research' extra

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in result["rows"] if r.get("measured") is not None]
    if any(r.get("x") is not None for r in rows):
        rows = [r for r in rows if r.get("x") is not None]  # the rows off the curves are in the table
    if not rows:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    kind = _kind(rows[0])
    scale = 100 if kind == "share" else 1
    if all(r.get("x") is not None for r in rows):
        for series in dict.fromkeys(r.get("series", "") for r in rows):
            pts = sorted((r for r in rows if r.get("series", "") == series), key=lambda r: r["x"])
            xs = [r["x"] for r in pts]
            ys = [scale * r["measured"] for r in pts]
            err = [[scale * max(0.0, r["measured"] - r["ci95"][0]) for r in pts],  # rounding may cross the value
                   [scale * max(0.0, r["ci95"][1] - r["measured"]) for r in pts]]
            line = ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=f"{series} (measured)")
            pub = [(r["x"], scale * r["published"]) for r in pts if r.get("published") is not None]
            if pub:
                ax.plot(*zip(*pub, strict=True), "x", markersize=10, color=line[0].get_color(),
                        label=f"{series} (published)")
        xs_all = [r["x"] for r in rows]
        if min(xs_all) > 0 and max(xs_all) >= 20 * min(xs_all):
            ax.set_xscale("log")
        ys_all = [r["measured"] for r in rows]
        if kind == "iterations" and min(ys_all) > 0 and max(ys_all) >= 100 * min(ys_all):
            ax.set_yscale("log")  # iterations to each depth grow by orders of magnitude
        ax.set_xlabel(result.get("x_label") or "x")
    else:
        xs = list(range(len(rows)))
        ys = [scale * r["measured"] for r in rows]
        err = [[scale * max(0.0, r["measured"] - r["ci95"][0]) for r in rows],  # rounding may cross the value
               [scale * max(0.0, r["ci95"][1] - r["measured"]) for r in rows]]
        ax.bar(xs, ys, yerr=err, capsize=3, color="#8fb3d9", label="measured")
        pub = [(i, scale * r["published"]) for i, r in enumerate(rows) if r.get("published") is not None]
        if pub:
            ax.plot(*zip(*pub, strict=True), "kx", markersize=10, label="published")
        ax.set_xticks(xs, [r["label"] for r in rows], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("win rate (%)" if kind == "share" and rows[0]["statistic"] not in ("probe_share", "probe_mean")
                  else AXIS_LABELS.get(kind, kind))
    ax.set_title(f"{result['id']} (scale {result.get('scale')})", fontsize=9)
    ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def report_text(results: Sequence[dict[str, Any]], plots_dir: str | None = None,
                plots_link: str = "results/plots", discussions: dict[str, str] | None = None) -> str:
    """The generated part of docs/results.md: an overview and one section per stored result, with its
    discussion (``discussions``, by id) under its table."""
    discussions = discussions or {}
    lines = ["## Reproduction of the published experiments", "",
             "Generated by `python -m engine.reproduce --report` from the result files in `docs/results/`; do "
             "not edit by hand. Each experiment ran at `scale` times its published size; `agreement` says "
             "whether the measured 95% interval holds the published value (or overlaps the published range). "
             "`python -m engine.reproduce --list` lists every experiment; rerun one at full size with "
             "`--scale 1` (see docs/research.md for a Ray cluster).", "",
             "| experiment | source | scale | games | rows agreeing / with a published value |",
             "| --- | --- | --- | --- | --- |"]
    for res in results:
        rows = res["rows"]
        with_pub = [r for r in rows if r.get("agreement") in ("agrees", "disagrees")]
        agree = sum(1 for r in with_pub if r["agreement"] == "agrees")
        games = sum(s.get("games", 0) for s in res.get("setups", []))
        seen = " (discussed)" if res["id"] in discussions else ""
        lines.append(f"| [{res['id']}](#{_anchor(res['id'])}) | {res['source']} | {res.get('scale', '')} | "
                     f"{games} | {agree} / {len(with_pub)}{seen} |")
    if MISSING:
        lines += ["", "Not reproducible with the current agents: "
                  + "; ".join(f"{k} ({v})" for k, v in MISSING.items()) + "."]
    for res in results:
        lines += ["", f"### {res['id']}", "", f"{res.get('title', '')} ({res['document']} {res['source']})."]
        note = current_note(res)
        if note:
            lines += ["", note]
        if res.get("interrupted"):
            lines += ["", "**Interrupted run: only the games finished are counted.**"]
        lines += ["", "| cell | published | measured [95% CI] | n | agreement |", "| --- | --- | --- | --- | --- |"]
        for r in res["rows"]:
            kind = _kind(r)
            pub = _fmt(r.get("published"), kind)
            if r.get("published_ci95"):
                pub += f" {_fmt_interval(r['published_ci95'], kind)}"
            lines.append(f"| {r['label']} | {pub} | {_fmt(r.get('measured'), kind)} "
                         f"{_fmt_interval(r.get('ci95'), kind)} | {r.get('n', 0)} | {r.get('agreement', '')} |")
        if plots_dir is not None and res["id"].split("/")[1].startswith("figure-"):
            name = res["id"].replace("/", "_") + ".png"
            if plot_result(res, os.path.join(plots_dir, name)):
                lines += ["", f"![{res['id']}]({plots_link}/{name})"]
        if res["id"] in discussions:
            lines += ["", "**Discussion.** " + discussions[res["id"]]]
        games = sum(s.get("games", 0) for s in res.get("setups", []))
        published = sum(s.get("published_games", 0) for s in res.get("setups", []))
        stem = res["id"].replace("/", "_")
        if res.get("only_setups") is not None:
            lines += ["", f"Only set-up(s) {', '.join(map(str, res['only_setups']))} of "
                          f"{res.get('setups_total', '?')} played (`--setups`); the other rows are not measured."]
        lines += ["", f"Sample: {games} games (published size {published}), seed {res.get('seed')}, "
                      f"commit `{res['commit']}`, {res.get('seconds', '?')} s"
                      + (f" (and {res['resumed_games']} games read back from the records of an earlier run: a "
                         "stopped one, or another experiment of the same set-ups)"
                         if res.get("resumed_games") else "") + ". Command:", "",
                  f"    {res['command']}", "",
                  f"Full size: `python -m engine.reproduce {res['id']} --scale 1 --records {stem}.jsonl "
                  f"--json docs/results/{stem}.json` (`--estimate` first prints its cost; the arena commands of its "
                  "set-ups are in the result file)."]
    return "\n".join(lines) + "\n"


def _anchor(exp_id: str) -> str:
    return "".join(ch for ch in exp_id.lower() if ch.isalnum() or ch in "-_ ").replace(" ", "-")


def replace_between_markers(text: str, generated: str) -> str:
    """``text`` with the part between the reproduce markers replaced (the markers appended if absent)."""
    if BEGIN in text and END in text and text.index(BEGIN) < text.index(END):
        head, rest = text.split(BEGIN, 1)
        _old, tail = rest.split(END, 1)
        return f"{head}{BEGIN}\n{generated}{END}{tail}"
    sep = "" if not text or text.endswith("\n") else "\n"
    return f"{text}{sep}\n{BEGIN}\n{generated}{END}\n"


def write_report(results_dir: str, output: str) -> tuple[int, list[str]]:
    """Regenerate the reproduction part of ``output``; returns the number of results and the ids of those that
    disagree with their document without a discussion."""
    results = load_results(results_dir)
    discussions = load_discussions(results_dir, results)
    plots_dir = os.path.join(results_dir, "plots")
    os.makedirs(plots_dir, exist_ok=True)
    link = os.path.relpath(plots_dir, os.path.dirname(os.path.abspath(output)) or ".").replace(os.sep, "/")
    generated = report_text(results, plots_dir, link, discussions)
    text = ""
    if os.path.exists(output):
        with open(output, encoding="utf-8") as f:
            text = f.read()
    with open(output, "w", encoding="utf-8") as f:
        f.write(replace_between_markers(text, generated))
    return len(results), undiscussed(results, discussions)


# ------------------------------------------------------------------------------------------------ CLI

def listing() -> list[dict[str, Any]]:
    return [e.listing() for e in EXPERIMENTS.values()]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = cli.Parser(prog="python -m engine.reproduce", description=__doc__.split("\n\n")[0])
    parser.add_argument("id", nargs="?", help="experiment id (see --list)")
    parser.add_argument("--list", action="store_true", help="list the experiments")
    parser.add_argument("--estimate", action="store_true",
                        help="only print the run's games and a rough time (a few timed decisions per agent)")
    parser.add_argument("--report", action="store_true", help="regenerate the reproduction part of docs/results.md")
    parser.add_argument("--results", default=RESULTS_DIR, help=f"result files for --report (default {RESULTS_DIR})")
    parser.add_argument("--output", default=REPORT_FILE, help=f"file --report writes into (default {REPORT_FILE})")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the published size (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=0, help="local worker processes (default: all cores)")
    parser.add_argument("--records", metavar="FILE", help="arena records of the games (resumable)")
    parser.add_argument("--setups", metavar="K,K", help="play only these set-ups (numbers from --estimate); the "
                        "rows that read another set-up are not measured")
    parser.add_argument("--json", metavar="PATH", help="write the list or the result here")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    cluster.add_options(parser)
    args = parser.parse_args(argv)
    cluster.check_options(parser, args)
    try:
        if args.list:
            entries = listing()
            for e in entries:
                print(f"{e['id']:<34} {e['game']:<22} {e['rows']:>4} rows  {e['source']}")
            if args.json:
                with open(args.json, "w", encoding="utf-8") as f:
                    json.dump(entries, f, indent=2)
            return 0
        if args.report:
            n, missing = write_report(args.results, args.output)
            print(f"{args.output}: reproduction section regenerated from {n} results in {args.results}")
            if missing:
                print(f"warning: {len(missing)} result(s) disagree with their document and have no "
                      f"{DISCUSSION_DIR}/ID.md: {', '.join(missing)}", file=sys.stderr)
            return 0
        if not args.id:
            raise GameError("give an experiment id, --list or --report")
        exp = get_experiment(args.id)
        if not args.json and not args.estimate:
            raise GameError("give --json PATH for the result (or --estimate to print the cost only)")
        if not args.scale > 0:
            raise GameError(f"--scale must be positive, not {args.scale}")
        if args.jobs < 0:
            raise GameError(f"--jobs must be 0 (all cores) or more, not {args.jobs}")
        if args.json:
            json_dir = os.path.dirname(os.path.abspath(args.json))
            if not os.path.isdir(json_dir):
                raise GameError(f"no folder {json_dir} for --json")
        validate(exp)
        only = parse_setups(args.setups, exp)
        if args.records:
            check_records(exp, args.records, args.seed)
        if args.estimate or not args.quiet:
            paths = [records_path(args.records, k, len(exp.setups)) if args.records else None
                     for k in range(len(exp.setups))]
            costs = cost.estimate(exp, args.scale, args.seed, paths, only)
            print(cost.format_estimate(exp, args.scale, costs, args.jobs, os.cpu_count() or 1),
                  file=sys.stdout if args.estimate else sys.stderr, flush=True)
        if args.estimate:
            return 0
    except GameError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    command = "python -m engine.reproduce " + " ".join(shlex.quote(a) for a in argv)
    with arena.StoppableRun(args) as session:
        try:
            result = run_experiment(exp, args.scale, args.seed, args.jobs, session.open_backend(), args.records,
                                    progress=not args.quiet, only=only)
        except GameError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    result = {"id": result["id"], "document": result["document"], "source": result["source"], "command": command,
              **{k: v for k, v in result.items() if k not in ("id", "document", "source")}}
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
    for r in result["rows"]:
        kind = _kind(r)
        print(f"{r['label']:<48} published {_fmt(r['published'], kind):>8}  measured {_fmt(r['measured'], kind):>8} "
              f"{_fmt_interval(r['ci95'], kind):<18} n={r['n']:<6} {r['agreement']}")
    if result.get("interrupted"):
        print("interrupted: run the same command with the same --records to resume", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
