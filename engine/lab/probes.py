"""Probes: a per-decision measurement of some seats' agents while the arena plays (experiments whose statistic
is not an outcome of the games but what happened inside the decisions).

A probe SPEC is ``NAME`` or ``NAME:key=value,...``:

* ``seconds``: the wall time of every decision (kassak2023 tables 5.3 and 5.5; machine-dependent);
* ``search``: for every decision an ISMCTS search took (not a single legal move, a decision rule or the endgame
  solver), how deep it descended below the root and after how many iterations it first reached each depth
  (manzke2025 figures 6.1 and 6.2; :attr:`engine.search.ismcts.SearchResult.depth_firsts`);
* ``sampling:samples=K``: at every decision where the agent's determinization belief matters (two or more legal
  moves and a card the belief guesses still hidden and possible in two or more places), the share of ``K``
  deals sampled with the agent's ``bias=`` belief, and of ``K`` uniform deals, that put every such hidden card
  in its true holder's hand (manzke2025 6.3.1, figures 6.3 and 6.4). The cards come from the game's registered
  :attr:`engine.knowledge.SearchKnowledge.bias_features`.

Each measured decision becomes one dict ``{"seat", "trick", <fields>}`` (``trick``: 1-based trick of the hand,
None in games without tricks) in the game's record. The probes never touch the game's random numbers (the
sampling probe draws from its own seeded generator), so the games are those of the plain arena run.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine import agents
from engine.agent import Agent, parse_spec
from engine.determinize import sample_assignment
from engine.game import Game, GameError, GameState, Option
from engine.search import knowledge
from engine.search.ismcts import ISMCTSAgent

Values = dict[str, Any]


@dataclass(frozen=True)
class Field:
    """A value a probe records per decision: its unit (``seconds``, ``moves``, ``iterations``, ``share``) and
    whether it can be compared with a published value (a time measured on another machine cannot)."""

    unit: str
    comparable: bool = True
    listed: bool = False  # a list per decision (read one element: Reading.index)


class Probe:
    """One probe kind (see the module docstring): ``decide`` makes the decision through ``choose`` and returns the
    move and the values recorded for it (None: nothing recorded for this decision)."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    params: ClassVar[tuple[Option, ...]] = ()
    fields: ClassVar[dict[str, Field]] = {}

    def __init__(self, **params: str) -> None:
        by_name = {p.name: p for p in self.params}
        self.config = {p.name: p.default for p in self.params}
        for key, value in params.items():
            if key not in by_name:
                valid = ", ".join(by_name) or "none"
                raise GameError(f"unknown option {key!r} of probe {self.name!r}; valid: {valid}")
            self.config[key] = by_name[key].validate(value)

    def check(self, game: Game, agent: Agent) -> None:
        """Raise GameError if ``agent`` cannot be probed (before any game is played)."""

    def decide(self, agent: Agent, state: GameState, rng: random.Random,
               choose: Callable[[], int]) -> tuple[int, Values | None]:
        raise NotImplementedError


class SecondsProbe(Probe):
    name = "seconds"
    description = "wall time of every decision (machine-dependent)"
    fields = {"seconds": Field("seconds", comparable=False)}

    def decide(self, agent: Agent, state: GameState, rng: random.Random,
               choose: Callable[[], int]) -> tuple[int, Values | None]:
        start = time.perf_counter()
        move = choose()
        return move, {"seconds": time.perf_counter() - start}


class SearchProbe(Probe):
    name = "search"
    description = "depth of each ISMCTS search and the iterations after which it first reached each depth"
    fields = {"depth": Field("moves"), "iterations": Field("iterations"),
              "firsts": Field("iterations", listed=True)}

    def check(self, game: Game, agent: Agent) -> None:
        if not isinstance(agent, ISMCTSAgent) or agent.conf.workers > 1:
            raise GameError(f"the search probe reads single-process ismcts agents only, not {agent.spec!r}")

    def decide(self, agent: Agent, state: GameState, rng: random.Random,
               choose: Callable[[], int]) -> tuple[int, Values | None]:
        move = choose()
        result = getattr(agent, "last_search", None)
        if result is None:
            return move, None
        return move, {"depth": result.depth, "iterations": result.iterations, "firsts": list(result.depth_firsts)}


class SamplingProbe(Probe):
    name = "sampling"
    description = "share of the agent's belief-sampled and of uniform deals that place the guessed cards right"
    params = (Option("samples", 1000, "deals sampled per decision with the belief and as many uniform", type=int,
                     min=1, max=100_000),)
    fields = {"belief": Field("share"), "uniform": Field("share")}

    def check(self, game: Game, agent: Agent) -> None:
        bias = getattr(getattr(agent, "conf", None), "bias", "")
        if not bias or knowledge.bias_features(game.name, bias) is None:
            raise GameError(f"the sampling probe needs an agent with a bias= whose game registers the cards it "
                            f"guesses (SearchKnowledge.bias_features), not {agent.spec!r}")

    def decide(self, agent: Agent, state: GameState, rng: random.Random,
               choose: Callable[[], int]) -> tuple[int, Values | None]:
        bias = agent.conf.bias  # type: ignore[attr-defined]
        values = sampling_accuracy(state, knowledge.bias(state.game.name, bias),
                                   knowledge.bias_features(state.game.name, bias) or 0,
                                   int(self.config["samples"]), rng)
        return choose(), values


def sampling_accuracy(state: GameState, belief: Callable[[Any], Any], features: int, samples: int,
                      rng: random.Random) -> Values | None:
    """At the decision of ``state``'s current player: the share of ``samples`` deals drawn with ``belief`` (then of
    as many uniform deals, in that order from ``rng``) in which every card of ``features`` hidden from the player
    lies with its true holder; None where the belief cannot matter (one legal move, or every such card's place
    known)."""
    seat = state.current_player
    obs = state.observation(seat)
    hidden = [c for c in range(state.game.deck.size) if features >> c & 1 and obs.unknown >> c & 1]
    uncertain = any(sum(1 for slot in obs.slots if slot.allowed >> c & 1) > 1 for c in hidden)
    if not uncertain or len(state.legal_moves()) < 2:
        return None
    holders = [sum(1 << c for c in state.hand_cards(s)) for s in range(state.game.num_players)]
    truth = {c: next((s for s, cards in enumerate(holders) if cards >> c & 1), -1) for c in hidden}
    owners = [slot.owner for slot in obs.slots]

    def right(deal: list[int]) -> bool:
        for c, holder in truth.items():
            slot = next((i for i, cards in enumerate(deal) if cards >> c & 1), None)
            if slot is None or owners[slot] != holder:
                return False
        return True

    matrix = belief(obs)
    hits = [sum(right(sample_assignment(obs, rng, bias)) for _ in range(samples)) for bias in (matrix, None)]
    return {"belief": hits[0] / samples, "uniform": hits[1] / samples}


PROBES: dict[str, type[Probe]] = {p.name: p for p in (SecondsProbe, SearchProbe, SamplingProbe)}
"""Every probe kind by name."""


def make(spec: str) -> Probe:
    """The probe of a SPEC (``name`` or ``name:key=value,...``); GameError lists the valid names or options."""
    try:
        name, params = parse_spec(spec)
    except GameError as e:
        raise GameError(f"bad probe {spec!r}: {e}") from None
    if name not in PROBES:
        raise GameError(f"unknown probe {name!r}; valid: {', '.join(PROBES)}")
    return PROBES[name](**params)


def field(spec: str, value: str) -> Field:
    """What the probe of ``spec`` records as ``value``; GameError naming the valid ones."""
    kind = PROBES.get(parse_spec(spec)[0])
    if kind is None:
        raise GameError(f"unknown probe {spec!r}; valid: {', '.join(PROBES)}")
    if value not in kind.fields:
        raise GameError(f"probe {kind.name!r} records no {value!r}; it records: {', '.join(kind.fields)}")
    return kind.fields[value]


def trick_number(state: GameState) -> int | None:
    """The 1-based trick of ``state``'s hand (tricks taken so far + 1), None in a game without tricks."""
    taken = [state.tricks_taken(s) for s in range(state.game.num_players)]
    if any(t is None for t in taken):
        return None
    return sum(t for t in taken if t is not None) + 1


class Prober:
    """One game's probe: decides for the probed ``seats`` through the probe and keeps their records in ``log``."""

    def __init__(self, probe: Probe, seats: Sequence[int], seed: int) -> None:
        self.probe = probe
        self.seats = frozenset(seats)
        self.rng = random.Random(seed)
        self.log: list[Values] = []

    def decide(self, seat: int, agent: Agent, state: GameState, choose: Callable[[], int]) -> int:
        trick = trick_number(state)
        move, values = self.probe.decide(agent, state, self.rng, choose)
        if values is not None:
            self.log.append({"seat": seat, "trick": trick, **values})
        return move


def prober(spec: str, game: Game, specs: Sequence[str], arrangement: Sequence[int], players: Sequence[Agent],
           probed: Sequence[str], seed: int) -> Prober:
    """The :class:`Prober` of one game: ``probed`` SPECs (every seat when empty) are checked and watched."""
    probe = make(spec)
    seats = [s for s, a in enumerate(arrangement) if not probed or specs[a] in probed]
    for s in seats:
        probe.check(game, players[s])
    return Prober(probe, seats, seed)


def check(spec: str, game: Game, specs: Sequence[str], probed: Sequence[str]) -> None:
    """Fail before playing (GameError) if the probe or its probed agents are wrong."""
    probe = make(spec)
    for name in probed:
        if name not in specs:
            raise GameError(f"the probed agent {name!r} does not play in this set-up")
    for name in dict.fromkeys(probed or specs):
        probe.check(game, agents.make(name, game))
