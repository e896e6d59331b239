"""Published experiments as data: one :class:`Experiment` per table or figure of the source documents.

An experiment names the arena set-ups it plays (:class:`Setup`: game, variant, agents, published size, and a
probe that measures decisions during the games, :mod:`engine.lab.probes`) and the published cells it compares
against (:class:`Row`: a statistic of some of those games, or of the probe's decision records as its
:class:`Reading` says, and the value the document printed). :func:`measure_row` turns the finished games of the
set-ups into a measured row. The catalogue itself is :data:`engine.lab.experiments_catalog.EXPERIMENTS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.game import GameError
from engine.lab import probes
from engine.lab.arena import GameRecord, mean_interval, wilson_interval

PROBE_STATISTICS = ("probe_share", "probe_mean", "probe_per_game")
"""Statistics of a probed set-up's decision records (:mod:`engine.lab.probes`), read as the row's
:class:`Reading` says: probe_share: share of the agent's measured decisions whose value lies in the reading's
range (Wilson interval); probe_mean: mean value over those decisions (normal approximation); probe_per_game:
measured decisions per game and seat of the agent (normal approximation)."""

STATISTICS = ("win", "loss", "tie", "win_or_tie", "points", "relative", *PROBE_STATISTICS)
"""win/loss/tie/win_or_tie: share of observations with that outcome (Wilson interval); points: mean points
of the side; relative: mean relative reward R(s,i) of manzke2025 4.2 in points (more is better); and the
:data:`PROBE_STATISTICS`."""


@dataclass(frozen=True)
class Setup:
    """One arena run: the agents' SPECs in seat order; ``games`` is the published size as arena games (every
    distinct rotation of the agents over the seats counts as a game)."""

    game: str
    agents: tuple[str, ...]
    games: int
    variant: tuple[tuple[str, Any], ...] = ()
    unit: str = "hand"
    probe: str = ""
    probed: tuple[str, ...] = ()
    """``probe``: a probe SPEC (:mod:`engine.lab.probes`) measuring the decisions of the ``probed`` SPECs (every
    seat when empty) during the games."""

    def variant_dict(self) -> dict[str, Any]:
        return dict(self.variant)


@dataclass(frozen=True)
class Reading:
    """What a probe row reads of its set-ups' decision records: the recorded ``value`` (element ``index`` of a
    list value, e.g. ``firsts`` index d - 1 = the iterations to depth d; decisions whose list is shorter do not
    count), for probe_share whether it lies in ``between`` (inclusive), and only decisions at the ``tricks``
    (1-based, inclusive) when given."""

    value: str
    index: int | None = None
    between: tuple[float, float] | None = None
    tricks: tuple[int, int] | None = None


@dataclass(frozen=True)
class Row:
    """One published cell: ``statistic`` of the games of ``setups`` seen from one side.

    The side is ``agent`` (every team or, for ``relative``, every seat the SPEC held), or the seat group
    ``seats`` (the outcome of its first seat), or the seat ``offset`` places after the first seat of
    ``offset_from``. ``rotation`` keeps only the games of that rotation of the agents (rotation 0 = the
    set-up's seat order, so with a dealer at the last seat ``seats=(0, 2), rotation=0`` is the hand team of
    the first agent). ``published_ci95`` is the document's interval or range where it prints one. ``series``
    and ``x`` place the row on a figure's plot."""

    label: str
    statistic: str
    setups: tuple[int, ...] = (0,)
    agent: str | None = None
    seats: tuple[int, ...] | None = None
    rotation: int | None = None
    offset_from: str | None = None
    offset: int = 0
    published: float | None = None
    published_ci95: tuple[float, float] | None = None
    series: str = ""
    x: float | None = None
    reading: Reading | None = None


@dataclass(frozen=True)
class Experiment:
    """A table or figure of a source document (``document`` is a key of docs/references.md)."""

    id: str
    document: str
    source: str
    title: str
    setups: tuple[Setup, ...]
    rows: tuple[Row, ...]
    note: str = ""
    x_label: str = ""
    tags: tuple[str, ...] = field(default=())

    @property
    def is_figure(self) -> bool:
        return "/figure-" in self.id

    @property
    def game(self) -> str:
        return ", ".join(dict.fromkeys(s.game for s in self.setups))

    def listing(self) -> dict[str, Any]:
        """The ``--list`` entry."""
        return {"id": self.id, "document": self.document, "game": self.game, "source": self.source,
                "title": self.title, "rows": len(self.rows), "games": sum(s.games for s in self.setups),
                "setups": [{"game": s.game, "variant": s.variant_dict(), "agents": list(s.agents),
                            "games": s.games, "unit": s.unit,
                            **({"probe": s.probe, "probed": list(s.probed)} if s.probe else {})}
                           for s in self.setups]}


def check(exp: Experiment) -> None:
    """Raise ValueError if the experiment is inconsistent (used by the tests on the whole catalogue)."""
    if "/" not in exp.id or exp.id.split("/")[0] != exp.document:
        raise ValueError(f"{exp.id}: the id must start with the document key {exp.document}/")
    for row in exp.rows:
        if row.statistic not in STATISTICS:
            raise ValueError(f"{exp.id} row {row.label!r}: unknown statistic {row.statistic!r}")
        if sum(x is not None for x in (row.agent, row.seats, row.offset_from)) != 1:
            raise ValueError(f"{exp.id} row {row.label!r}: give exactly one of agent, seats, offset_from")
        for k in row.setups:
            if not 0 <= k < len(exp.setups):
                raise ValueError(f"{exp.id} row {row.label!r}: no set-up {k}")
            specs = exp.setups[k].agents
            for who in (row.agent, row.offset_from):
                if who is not None and who not in specs:
                    raise ValueError(f"{exp.id} row {row.label!r}: {who!r} does not play in set-up {k}")
        _check_probe_row(exp, row)


def _check_probe_row(exp: Experiment, row: Row) -> None:
    where = f"{exp.id} row {row.label!r}"
    if row.statistic not in PROBE_STATISTICS:
        if row.reading is not None:
            raise ValueError(f"{where}: a reading needs a probe statistic ({', '.join(PROBE_STATISTICS)})")
        return
    if row.reading is None or row.agent is None:
        raise ValueError(f"{where}: a probe statistic needs a reading and an agent")
    for k in row.setups:
        setup = exp.setups[k]
        if not setup.probe:
            raise ValueError(f"{where}: set-up {k} has no probe")
        if setup.probed and row.agent not in setup.probed:
            raise ValueError(f"{where}: set-up {k} does not probe {row.agent!r}")
        try:
            info = probes.field(setup.probe, row.reading.value)
        except GameError as e:
            raise ValueError(f"{where}: {e}") from None
        if info.listed != (row.reading.index is not None):
            raise ValueError(f"{where}: give an index for a list value, and only for one")
    if (row.statistic == "probe_share") != (row.reading.between is not None):
        raise ValueError(f"{where}: probe_share needs a range (between), and only it")


def row_field(exp: Experiment, row: Row) -> probes.Field | None:
    """The probe value a row reads (its unit, whether comparable), None for a statistic of the outcomes."""
    if row.reading is None:
        return None
    return probes.field(exp.setups[row.setups[0]].probe, row.reading.value)


def row_unit(exp: Experiment, row: Row) -> str:
    """How a row's values read: ``share`` (shown as a percentage), ``points``, or a probe value's unit."""
    info = row_field(exp, row)
    if row.statistic == "probe_share":
        return "share"
    if row.statistic == "probe_per_game":
        return "decisions"
    if info is not None:
        return info.unit
    return "points" if row.statistic in ("points", "relative") else "share"


@dataclass
class Played:
    """The finished games of one set-up, with what is needed to read them."""

    specs: list[str]
    teams: list[tuple[int, ...]]
    lower_is_better: bool
    records: list[GameRecord]
    probe: str = ""


def _observations(row: Row, played: Played) -> list[tuple[float, float, float]]:
    """(outcome, points, relative reward) per observation of the row's side in one set-up's games."""
    specs, teams, sign = played.specs, played.teams, (-1.0 if played.lower_is_better else 1.0)
    team_of = {s: i for i, t in enumerate(teams) for s in t}
    out = []
    for r in played.records:
        if row.rotation is not None and r.rotation != row.rotation:
            continue
        n = len(r.points)
        total = sum(r.points)

        def rel(seat: int, r: GameRecord = r, n: int = n, total: float = total) -> float:
            return sign * (n * r.points[seat] - total)

        if row.seats is not None:
            seats = list(row.seats)
            out.append((r.outcomes[seats[0]], sum(r.points[s] for s in seats) / len(seats), rel(seats[0])))
        elif row.offset_from is not None:
            first = next(s for s in range(n) if specs[r.seat_agents[s]] == row.offset_from)
            seat = (first + row.offset) % n
            out.append((r.outcomes[seat], r.points[seat], rel(seat)))
        elif row.statistic == "relative":
            out.extend((r.outcomes[s], r.points[s], rel(s)) for s in range(n) if specs[r.seat_agents[s]] == row.agent)
        else:  # one observation per team the agent holds: partners count once
            by_team: dict[int, list[int]] = {}
            for s in range(n):
                if specs[r.seat_agents[s]] == row.agent:
                    by_team.setdefault(team_of[s], []).append(s)
            for seats in by_team.values():
                out.append((r.outcomes[seats[0]], sum(r.points[s] for s in seats) / len(seats), rel(seats[0])))
    return out


def _probe_values(row: Row, played: Played) -> tuple[list[float], list[float]]:
    """A probe row's values in one set-up's games: per measured decision of the row's agent (the reading's
    value), and per game and seat of the agent (how many decisions passed the reading's filter)."""
    reading = row.reading
    assert reading is not None
    values: list[float] = []
    counts: list[float] = []
    for r in played.records:
        seats = [s for s in range(len(r.seat_agents)) if played.specs[r.seat_agents[s]] == row.agent]
        per_seat = dict.fromkeys(seats, 0)
        for d in r.probes or ():
            if d.get("seat") not in per_seat:
                continue
            trick = d.get("trick")
            if reading.tricks is not None and (trick is None or not reading.tricks[0] <= trick <= reading.tricks[1]):
                continue
            value = d.get(reading.value)
            if reading.index is not None:
                value = value[reading.index] if isinstance(value, list) and len(value) > reading.index else None
            if value is None:
                continue
            per_seat[d["seat"]] += 1
            values.append(float(value))
        counts.extend(float(c) for c in per_seat.values())
    return values, counts


def played_probe_unit(row: Row, played: Sequence[Played] | Mapping[int, Played]) -> str:
    """The unit of the probe value a row reads in its first set-up's games ('' without a probe)."""
    probe = played[row.setups[0]].probe
    return probes.field(probe, row.reading.value).unit if probe and row.reading is not None else ""


def _measure_probe(row: Row, played: Sequence[Played] | Mapping[int, Played]) -> dict[str, Any]:
    values: list[float] = []
    counts: list[float] = []
    for k in row.setups:
        v, c = _probe_values(row, played[k])
        values += v
        counts += c
    if row.statistic == "probe_share":
        assert row.reading is not None and row.reading.between is not None
        lo, hi = row.reading.between
        n = len(values)
        hits = sum(1 for v in values if lo <= v <= hi)
        return {"measured": hits / n if n else None, "ci95": list(wilson_interval(hits, n)) if n else None, "n": n}
    sample = values if row.statistic == "probe_mean" else counts
    mean, (lo, hi) = mean_interval(sample)
    # every probe value is a count, a time or a share: the normal approximation must not leave that range
    lo = max(0.0, lo)
    if row.statistic == "probe_mean" and played_probe_unit(row, played) == "share":
        hi = min(1.0, hi)
    return {"measured": mean if sample else None, "ci95": [lo, hi] if sample else None, "n": len(sample)}


def measure_row(row: Row, played: Sequence[Played] | Mapping[int, Played]) -> dict[str, Any]:
    """The measured value of one row: ``measured``, ``ci95`` and the sample size ``n`` (``played[k]`` is the
    games of set-up k)."""
    if row.statistic in PROBE_STATISTICS:
        return _measure_probe(row, played)
    obs = [o for k in row.setups for o in _observations(row, played[k])]
    n = len(obs)
    if row.statistic in ("points", "relative"):
        values = [o[1] if row.statistic == "points" else o[2] for o in obs]
        mean, ci = mean_interval(values)
        return {"measured": mean if n else None, "ci95": list(ci) if n else None, "n": n}
    hits: dict[str, Callable[[float], bool]] = {"win": lambda o: o == 1.0, "loss": lambda o: o == 0.0,
                                                "tie": lambda o: o == 0.5, "win_or_tie": lambda o: o >= 0.5}
    hit = hits[row.statistic]
    k = sum(1 for o in obs if hit(o[0]))
    return {"measured": k / n if n else None, "ci95": list(wilson_interval(k, n)) if n else None, "n": n}


def agreement(published: float | None, published_ci95: Sequence[float] | None, measured: float | None,
              ci95: Sequence[float] | None) -> str:
    """``agrees`` when the measured interval holds the published value (or overlaps the published
    interval), ``disagrees`` otherwise, ``no published value`` / ``not measured`` when one side is missing."""
    if measured is None or ci95 is None:
        return "not measured"
    if published is None and published_ci95 is None:
        return "no published value"
    lo, hi = ci95[0] - 1e-9, ci95[1] + 1e-9  # a Wilson bound of 0 or 1 is computed with rounding error
    if published_ci95 is not None:
        plo, phi = published_ci95
        return "agrees" if lo <= phi and plo <= hi else "disagrees"
    assert published is not None
    return "agrees" if lo <= published <= hi else "disagrees"
