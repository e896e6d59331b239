"""Pharaoh's heuristic players (kassak2023 section 4.3), extended to the classic Faraon special cards.

* ``biggest`` plays the largest tuple it can (draws only when it cannot play).
* ``smallest`` plays the smallest *meaningful* tuple: always every card it holds of the rank it plays
  (a whole group), choosing the smallest group; rare ranks go first because a larger group matches more
  suits later.
* ``annoying`` prefers moves after which the next player cannot play a card (only draw or skip); among
  them, and otherwise, it plays like ``smallest``. ``open=true`` is the seed's version: it looks at the next
  player's real hand (open cards; ``fair = False``). The default fair version judges from what it knows:
  the chance that none of the next player's cards is playable, from the unknown cards and the next
  player's hand size (hypergeometric); the most annoying move wins when it is at least
  ``ANNOY_MARGIN`` more likely to block than the smallest-tuple move.
* ``backtrack`` (open cards, ``fair = False``) searches the game tree to ``depth`` plies for a sequence
  of its own moves that finishes first against every reply, with the seed's move pruning (whole groups
  only, smallest first, plus draw/skip); with no forced win it plays like ``smallest``. It reads the true
  state, stock order included (the seed's players played with full information); given only an
  observation it searches one determinization of it. ``heuristic=shuffle`` is the seed's BTSH: every legal
  move in a random order (my_shuffle) instead of the pruning, and a random move without a forced win.

Order within a tuple: the last card becomes the top, so every player ends on the card whose suit it
holds most of afterwards (then the one the next player is least likely to match).

Classic Faraon (``rules=classic``), rules shared by all four players (:func:`classic_filter`):

* ``stack-seven``: with a VII pending, answer with VIIs (all of them) rather than draw; otherwise
  ``pharaoh-cancel``: cancel it with the Pharaoh (Unter of leaves) when at least 3 cards are pending.
* ``pending-ace``: with an Ace pending, answer with an Ace; never spend the Pharaoh just to avoid a skip.
* ``save-jokers``: keep the Pharaoh and the Obers (they can be played on anything) while another play
  exists, unless they finish the hand.
* ``ober-names``: an Ober names the suit the player holds most of after the play (ties: the suit with
  fewest cards still unknown, so the next player is least likely to hold it).
* ``dump-penalty``: with penalty scoring, ties go to the play shedding the most penalty points.

Search knowledge (the package's ``SearchKnowledge``):

* move pruners (kassak2023 4.4, ISMCTS ``prune=NAME``): ``smallest`` (``smallest_tuple``: only plays of a
  whole same-rank group, smallest groups first, then draw/skip), ``biggest`` (``biggest_tuple``: the same
  moves, biggest first) and ``play`` (``smallest`` without draw/skip while a play exists). All keep one card
  order per top card and one Ober naming (:meth:`PharaohState.canonical_plays`).
* fast rollouts (ISMCTS ``sim=NAME``): ``prune-random`` (uniform among the ``smallest`` moves),
  ``play-random`` (uniform among the pruned plays, draws only when it cannot play), ``play-first``
  (``play-random`` stopped when the first player goes out: exact for the win/loss rewards) and
  ``play-smallest`` (``play-first`` among the smallest groups' plays only).
"""

from __future__ import annotations

import math
import random
from typing import Any

from engine.agent import Agent, Budget
from engine.cards import bits, popcount
from engine.determinize import determinize
from engine.game import Game, GameState, Option
from engine.games.pharaoh.rules import DRAW, PLAY, SKIP, named_suit, play_cards
from engine.observation import Observation

__all__ = ["AnnoyingAgent", "BacktrackAgent", "BiggestAgent", "SmallestAgent", "biggest_move",
           "block_probability", "classic_filter", "pharaoh_biggest_policy", "pharaoh_smallest_policy",
           "play_first_rollout", "play_random_rollout", "play_smallest_rollout", "prune_biggest", "prune_play",
           "prune_smallest", "pruned_random_rollout", "smallest_move"]

ANNOY_MARGIN = 0.5
"""How much more likely to block the next player a fair annoying move must be than the smallest move
(tuned on the seed rules, small deck, hidden hands: 0.05 lost to ``smallest`` 44%, 0.5 won 54.5%)."""


def _is_play(m: int) -> bool:
    return m & 3 == PLAY


def _cards_mask(m: int) -> int:
    out = 0
    for c in play_cards(m):
        out |= 1 << c
    return out


def _whole_group(state: Any, m: int) -> bool:
    cards = play_cards(m)
    g = state.game
    hand = state.hands[state.current]
    return len(cards) == popcount(hand & g.rank_masks[cards[0] % g.nranks])


def _after_hand(state: Any, m: int) -> int:
    return state.hands[state.current] & ~_cards_mask(m)


def _top_key(state: Any, m: int, unknown: int) -> tuple[int, int]:
    """Prefer ending on the suit I hold most of afterwards, then on a suit with few unknown cards."""
    g = state.game
    cards = play_cards(m)
    named = named_suit(m)
    suit = named if named >= 0 else cards[-1] // g.nranks
    rest = _after_hand(state, m)
    return (popcount(rest & g.suit_masks[suit]), -popcount(unknown & g.suit_masks[suit]))


def _penalty(state: Any, m: int) -> int:
    g = state.game
    if g.variant["scoring"] != "penalty":
        return 0
    return sum(g.penalty[c] for c in play_cards(m))


def _unknown(state: Any, seat: int) -> int:
    """Cards not in ``seat``'s hand and not in the discard pile."""
    known = state.hands[seat]
    for c in state.discard:
        known |= 1 << c
    return state.game.deck.full_mask & ~known


def classic_filter(state: Any, moves: list[int]) -> tuple[list[int], str]:
    """The classic-rules layer shared by every Pharaoh player (module docstring): the moves worth
    considering and the rule that narrowed them ("" when none did)."""
    g = state.game
    if not g.classic:
        return moves, ""
    plays = [m for m in moves if _is_play(m)]
    if state.pending_draw:
        sevens = [m for m in plays if play_cards(m)[0] % g.nranks == g.seven]
        if sevens:
            return sevens, "stack-seven"
        phar = [m for m in plays if g.pharaoh in play_cards(m)]
        if phar and state.pending_draw >= 3:
            return phar, "pharaoh-cancel"
        rest = [m for m in moves if not _is_play(m)]
        return (rest or moves), "take-penalty"
    if state.pending_skip:
        aces = [m for m in plays if play_cards(m)[0] % g.nranks == g.ace]
        if aces:
            return aces, "pending-ace"
        rest = [m for m in moves if not _is_play(m)]
        return (rest or moves), "pending-ace"
    if not plays:
        return moves, ""
    finishing = [m for m in plays if not _after_hand(state, m)]
    if finishing:
        return finishing, "finish"

    def joker(m: int) -> bool:
        cards = play_cards(m)
        return cards[0] % g.nranks == g.ober or g.pharaoh in cards

    plain = [m for m in plays if not joker(m)]
    if plain and len(plain) < len(plays):
        return plain, "save-jokers"
    if not plain:
        # Only jokers: keep one naming per card order, naming my best suit.
        unknown = _unknown(state, state.current)
        best: dict[tuple[int, ...], int] = {}
        for m in plays:
            key = tuple(play_cards(m))
            if key not in best or _top_key(state, m, unknown) > _top_key(state, best[key], unknown):
                best[key] = m
        return list(best.values()), "ober-names"
    return plays, ""


def _best_naming(state: Any, moves: list[int]) -> list[int]:
    """Among Ober plays that differ only by the named suit keep the best naming."""
    unknown = _unknown(state, state.current)
    best: dict[tuple[int, ...], int] = {}
    out = []
    for m in moves:
        if named_suit(m) < 0:
            out.append(m)
            continue
        key = tuple(play_cards(m))
        if key not in best or _top_key(state, m, unknown) > _top_key(state, best[key], unknown):
            best[key] = m
    return out + list(best.values())


def biggest_move(state: Any, moves: list[int]) -> int:
    """The play with the most cards (then the best top card); draw/skip only without a play."""
    plays = [m for m in _best_naming(state, moves) if _is_play(m)]
    if not plays:
        return _no_play(moves)
    unknown = _unknown(state, state.current)
    return max(plays, key=lambda m: (len(play_cards(m)), _penalty(state, m), _top_key(state, m, unknown), -m))


def smallest_move(state: Any, moves: list[int]) -> int:
    """The smallest whole-group play (then the best top card); draw/skip only without a play."""
    plays = [m for m in _best_naming(state, moves) if _is_play(m)]
    if not plays:
        return _no_play(moves)
    whole = [m for m in plays if _whole_group(state, m)] or plays
    unknown = _unknown(state, state.current)
    return max(whole, key=lambda m: (-len(play_cards(m)), _penalty(state, m), _top_key(state, m, unknown), -m))


def _no_play(moves: list[int]) -> int:
    for want in (DRAW, SKIP):
        if want in moves:
            return want
    return moves[0]


def _next_seat(state: Any, seat: int) -> int:
    n = state.num_players
    s = seat
    for _ in range(n):
        s = (s + 1) % n
        if s not in state.finished:
            return s
    return seat


def _after(state: Any, move: int) -> Any:
    nxt = state.clone()
    nxt.do(move)
    return nxt


def blocks_open(state: Any, move: int) -> bool:
    """Open cards: after ``move`` the next player holds no playable card."""
    after = _after(state, move)
    if after.is_terminal():
        return True
    hand = after.hands[after.current]
    return not any(after.can_start(c) for c in bits(hand))


def block_probability(state: Any, move: int, unknown: int) -> float:
    """Fair estimate: the chance that the next player holds no card playable after ``move``, when its
    cards are a uniform sample of ``unknown`` (hypergeometric)."""
    after = _after(state, move)
    if after.is_terminal():
        return 1.0
    seat = after.current
    known = after.hands[seat]
    if any(after.can_start(c) for c in bits(known)):
        return 0.0
    k = after.counts[seat] - popcount(known)
    pool = unknown & ~_cards_mask(move)
    u = popcount(pool)
    good = sum(1 for c in bits(pool) if after.can_start(c))
    if k <= 0:
        return 1.0
    if k > u:
        return 0.0
    return math.comb(u - good, k) / math.comb(u, k)


class _PharaohAgent(Agent):
    games = ("pharaoh",)

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.last_rule = ""

    def pick(self, state: Any, moves: list[int]) -> int:
        raise NotImplementedError

    def decide(self, state: Any) -> int:
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last_rule = "forced"
            return moves[0]
        pool, rule = classic_filter(state, moves)
        move = self.pick(state, pool)
        if rule:
            self.last_rule = rule
        return move

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        return self.decide(obs.state)


class BiggestAgent(_PharaohAgent):
    name = "biggest"
    description = "Pharaoh: plays the largest tuple of same-rank cards (kassak2023 BIGGEST)"

    def pick(self, state: Any, moves: list[int]) -> int:
        self.last_rule = "biggest"
        return biggest_move(state, moves)


class SmallestAgent(_PharaohAgent):
    name = "smallest"
    description = "Pharaoh: plays the smallest whole group of same-rank cards (kassak2023 SMALLEST)"

    def pick(self, state: Any, moves: list[int]) -> int:
        self.last_rule = "smallest"
        return smallest_move(state, moves)


class AnnoyingAgent(_PharaohAgent):
    name = "annoying"
    description = ("Pharaoh: prefers moves that leave the next player unable to play, else smallest "
                   "(kassak2023 ANNOYING; open=true reads the open hands)")
    params = (Option("open", False, "judge from the next player's real hand (the seed's open-card version; "
                     "not fair)", type=bool),)

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.fair = not self.config["open"]  # type: ignore[misc]

    def pick(self, state: Any, moves: list[int]) -> int:
        plays = [m for m in _best_naming(state, moves) if _is_play(m)]
        if not plays:
            self.last_rule = "smallest"
            return _no_play(moves)
        smallest = smallest_move(state, moves)
        if self.config["open"]:
            annoying = [m for m in plays if blocks_open(state, m)]
            if annoying:
                self.last_rule = "annoy"
                return smallest_move(state, annoying)
            self.last_rule = "smallest"
            return smallest
        unknown = _unknown(state, state.current)
        probs = {m: block_probability(state, m, unknown) for m in plays}
        best = max(probs.values())
        if best >= probs[smallest] + ANNOY_MARGIN:
            self.last_rule = "annoy"
            return smallest_move(state, [m for m in plays if probs[m] >= best - 1e-12])
        self.last_rule = "smallest"
        return smallest

    def choose_full(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> int:
        if self.config["open"]:
            return self.decide(state)
        return self.choose(state.observation(state.current_player), rng, budget)


class BacktrackAgent(_PharaohAgent):
    name = "backtrack"
    description = ("Pharaoh: depth-limited search for a forced first finish with smallest-tuple pruning, "
                   "else smallest (kassak2023 BT; open cards)")
    fair = False
    params = (Option("depth", 9, "search depth limit in plies", type=int, min=1, max=30),
              Option("nodes", 1200, "node limit per decision (then the best found so far)", type=int, min=10,
                     max=10_000_000),
              Option("heuristic", "smallest", "move ordering in the search: smallest = the seed's smallest_tuple "
                     "pruning (whole groups, smallest first; BT), shuffle = my_shuffle, every legal move in a "
                     "random order, and a random move when no forced win is found (kassak2023 BTSH)",
                     choices=("smallest", "shuffle")))

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self._shuffle = self.config["heuristic"] == "shuffle"
        self._rng = random.Random(0)

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        # Called with an observation only (not the arena's way for an unfair agent): search one
        # determinization of it instead of the masked state, whose hidden hands look empty.
        self._rng = rng
        return self.decide(determinize(obs, rng) if obs.slots else obs.state)

    def choose_full(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> int:
        self._rng = rng
        return self.decide(state)

    def _shuffled(self, moves: list[int]) -> list[int]:
        """my_shuffle (kassak2023 4.4): the legal moves in a random order (drawn from the decision's generator)."""
        out = list(moves)
        self._rng.shuffle(out)
        return out

    def pick(self, state: Any, moves: list[int]) -> int:
        self._nodes = 0
        self._me = state.current
        ordered = self._shuffled(moves) if self._shuffle else self._ordered(state, moves)
        for depth in range(1, self.config["depth"] + 1):  # iterative deepening: shallow wins first
            for m in ordered:
                child = state.clone()
                child.do(m)
                if self._wins(child, depth - 1):
                    self.last_rule = "forced-win"
                    return m
                if self._nodes > self.config["nodes"]:
                    break
            if self._nodes > self.config["nodes"]:
                break
        if self._shuffle:
            self.last_rule = "shuffle"
            return ordered[0]
        self.last_rule = "smallest"
        return smallest_move(state, moves)

    def _ordered(self, state: Any, moves: list[int]) -> list[int]:
        """Seed pruning: whole-group plays, smallest first (best ordering kept), then draw/skip."""
        plays = [m for m in _best_naming(state, moves) if _is_play(m)]
        whole = [m for m in plays if _whole_group(state, m)] or plays
        unknown = _unknown(state, state.current)
        whole.sort(key=lambda m: (len(play_cards(m)), -_top_key(state, m, unknown)[0], m))
        rest = [m for m in moves if not _is_play(m)]
        return whole + rest

    @staticmethod
    def _pruned(state: Any, moves: list[int]) -> list[int]:
        """Cheap ordering inside the tree: whole-group plays (one naming per Ober play), smallest first."""
        g = state.game
        hand = state.hands[state.current]
        masks = g.rank_masks
        nr = g.nranks
        seen: set[int] = set()
        plays: list[tuple[int, int]] = []
        rest: list[int] = []
        for m in moves:
            if m & 3 != PLAY:
                rest.append(m)
                continue
            cards = play_cards(m)
            size = len(cards)
            if size != popcount(hand & masks[cards[0] % nr]):
                continue
            key = m & ~(7 << 2)  # the same cards with another named suit share a branch
            if key in seen:
                continue
            seen.add(key)
            plays.append((size, m))
        if not plays:
            plays = [(len(play_cards(m)), m) for m in moves if m & 3 == PLAY]
        plays.sort()
        return [m for _, m in plays] + rest

    def _wins(self, state: Any, depth: int) -> bool:
        self._nodes += 1
        if state.finished:
            return state.finished[0] == self._me
        if state.is_terminal() or depth <= 0 or self._nodes > self.config["nodes"]:
            return False
        legal = state.legal_moves()
        moves = self._shuffled(legal) if self._shuffle else self._pruned(state, legal)
        mine = state.current == self._me
        for m in moves:
            child = state.clone()
            child.do(m)
            ok = self._wins(child, depth - 1)
            if mine and ok:
                return True
            if not mine and not ok:
                return False
        return not mine


def pharaoh_smallest_policy(state: Any, rng: random.Random | None = None) -> int:
    """Simulation policy: the ``smallest`` player's move (classic rules layer included)."""
    moves, _ = classic_filter(state, state.legal_moves())
    return smallest_move(state, moves)


def pharaoh_biggest_policy(state: Any, rng: random.Random | None = None) -> int:
    """Simulation policy: the ``biggest`` player's move (classic rules layer included)."""
    moves, _ = classic_filter(state, state.legal_moves())
    return biggest_move(state, moves)


# --- search hooks: move pruners and fast rollouts (kassak2023 section 4.4) ------------------------------

def _pruned_moves(state: Any, moves: list[int], order: int) -> tuple[list[int], list[int]]:
    """``(plays, rest)``: the state's canonical whole-group plays (sorted by group size: ``order`` 1
    ascending, -1 descending; always legal moves of the state) and the non-play moves (draw/skip) of
    ``moves``, the state's legal moves."""
    plays = state.canonical_plays(order)
    rest = [m for m in (DRAW, SKIP) if m in moves]
    if not plays and not rest:  # cannot happen with the full legal list; keep something legal
        return list(moves), []
    return plays, rest


def prune_smallest(state: Any, moves: list[int]) -> list[int]:
    """kassak2023 4.4 ``smallest_tuple`` pruning: only plays of a whole same-rank group (one card order per
    top card, one Ober naming: the suit held most afterwards), smallest groups first, then draw/skip."""
    plays, rest = _pruned_moves(state, moves, 1)
    return plays + rest


def prune_biggest(state: Any, moves: list[int]) -> list[int]:
    """kassak2023 4.4 ``biggest_tuple`` pruning: the moves of :func:`prune_smallest`, biggest groups first."""
    plays, rest = _pruned_moves(state, moves, -1)
    return plays + rest


def prune_play(state: Any, moves: list[int]) -> list[int]:
    """:func:`prune_smallest` without draw/skip while a play exists (drawing instead of playing is dropped)."""
    plays, rest = _pruned_moves(state, moves, 1)
    return plays or rest


def pruned_random_rollout(state: Any, rng: random.Random) -> None:
    """Fast rollout ``prune-random``: uniformly random among the :func:`prune_smallest` moves."""
    state.pruned_rollout(rng, draws=True)


def play_random_rollout(state: Any, rng: random.Random) -> None:
    """Fast rollout ``play-random``: uniformly random among the pruned plays; draws or skips only when it
    cannot play (a random player that draws while holding a playable card makes ~265-ply playouts)."""
    state.pruned_rollout(rng, draws=False)


def play_first_rollout(state: Any, rng: random.Random) -> None:
    """Fast rollout ``play-first``: ``play-random`` that stops when the first player goes out (the winner
    is decided then: exact for the pwl/wl rewards, an estimate of the later places for the others)."""
    state.pruned_rollout(rng, draws=False, first_out=True)


def play_smallest_rollout(state: Any, rng: random.Random) -> None:
    """Fast rollout ``play-smallest``: ``play-first`` choosing only among the plays of the smallest whole
    groups (the kassak2023 4.3 ``smallest`` player with random tie-breaks)."""
    state.pruned_rollout(rng, draws=False, first_out=True, smallest=True)


class HeuristicAgent(Agent):
    """The game's ``heuristic`` agent: the fair annoying player (fair: decides from its observation only)."""

    name = "heuristic"
    description = "rule-based player encoding well-known human strategy for each game (the fair annoying player)"
    games = ("pharaoh",)

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.agent = AnnoyingAgent(game)

    @property
    def last_rule(self) -> str:
        return getattr(self.agent, "last_rule", "")

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        return self.agent.choose(obs, rng, budget)

    def reset(self) -> None:
        self.agent.reset()
