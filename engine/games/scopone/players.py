"""Rule-based Scopone players of dipalma2014 chapter 4: Greedy, Chitarrella-Saracino (CS), Cicuti-Guardamagna (CG).

All three are fair: they decide from the seat's observation (hand, table, every capture so far, the public
move history). The same code runs on a full (determinized) state during search rollouts, where it still
reads only the acting seat's hand: the "unknown" cards are always everything not in that hand, on the
table or captured.

**Greedy** (dipalma2014 4.1, Algorithm 5): capture the most important card (card values of table 4.1:
primiera values with 7 = 29, +10 for coins, +100 for the settebello), breaking ties by the total value
taken; with no capture, lay the least important card. Scopa prevention first: only moves that leave no
table an unknown card could sweep, unless every move does.

**Chitarrella-Saracino** (4.2, Algorithm 6) adds, in this priority order: the tallone rules (CS5, CS4),
the play of sevens (CS27, CS29, CS28, CS26, CS21, CS22, CS20, CS23), the player's own mulinello (CS6
chooses its card), avoiding the opponents' mulinello (also CS7), scopa prevention, then capture by the
fundamental rule CS1 (hand team maximizes, deck team minimizes the decoupled ranks) validated by CS24, CS8
and CS12, or without capture CS11, CS13, CS17, doubles (CS16, CS10, CS14, CS15) and CS2/CS3. Every rule is
a small function ``cs<N>(view, moves)`` returning either a move, a filtered move list, or None when it does
not apply. The card guessing system (4.2.5) (:func:`guess_cards`) tracks which cards each player probably
holds from its past moves (CS10, CS18, CS19, CS25); :func:`scopone_guess_bias` turns it into a
determinization belief matrix.

**Cicuti-Guardamagna** (4.3, Algorithm 7): CG9, CG8, CG2, CG6, CG1, CG5, CG4 (move choices, kept only when
they do not bring to a scopa unless every move does), then the filters CG3, CG7, CG10, CG11, CG12, CG13,
then CS on what is left.

Ablations (dipalma2014 6.3): ``cs:scopa_prevention=false`` (CSWSP) and ``cs:sevens=false`` (CSWP7).

Search knowledge (the package's ``SearchKnowledge``): simulation policies ``greedy``
(:func:`scopone_greedy_move`), ``egreedy`` (:func:`scopone_epsilon_greedy_move`, epsilon 0.3 as tuned in
dipalma2014 6.4.3) and ``cardrandom`` (:func:`scopone_card_random_move`); bias ``cgs``
(:func:`scopone_guess_bias`); move handler ``card`` (one branch per played card; with ``resolve=greedy`` it is
dipalma2014 OCH, see :mod:`engine.games.scopone.handlers` for AMH/OMH/OCH/GOH).

Card notation in the docs/tests is the Italian deck's: ``7D`` = Seven of Coins (denari), J=8, H=9, K=10.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from typing import Any

import numpy as np

from engine.agent import Agent, Budget
from engine.cards import bits, popcount
from engine.game import Game, Option
from engine.games.scopone.inference import tables_before_moves
from engine.games.scopone.rules import CARD_BITS, CARD_MASK, COIN_MASK, DECK, SETTEBELLO, VALUE, VALUE_MASK
from engine.observation import Observation

__all__ = ["GREEDY_VALUE", "ChitarrellaSaracinoAgent", "CicutiGuardamagnaAgent", "GreedyAgent", "ScoponeView",
           "cg_strategy", "cs_strategy", "greedy_best", "greedy_strategy", "guess_cards",
           "scopone_card_random_move", "scopone_epsilon_greedy_move", "scopone_greedy_move",
           "scopone_guess_bias"]

FULL = (1 << 40) - 1
SEVENS = VALUE_MASK[7]
REP = [0] + [DECK.card(0, v - 1) for v in range(1, 11)]
"""A representative card of each capture value (captures depend on the value only)."""
_GV_RANK = (16, 12, 13, 14, 15, 18, 29, 10, 10, 10)
GREEDY_VALUE: list[int] = [_GV_RANK[c % 10] + (10 if COIN_MASK >> c & 1 else 0) + (100 if c == SETTEBELLO else 0)
                           for c in range(40)]
"""Card importance of dipalma2014 table 4.1 (7D = 139, 6D = 28, ..., figures 10)."""


def _card(m: int) -> int:
    return m & CARD_MASK


def _cap(m: int) -> int:
    return m >> CARD_BITS


def _cards(m: int) -> int:
    return m >> CARD_BITS | 1 << (m & CARD_MASK)


# --------------------------------------------------------------------------------------------------------
# Knowledge of one seat
# --------------------------------------------------------------------------------------------------------
class ScoponeView:
    """What the acting seat knows: hand, table, captures, roles, unknown cards, parity of ranks.

    Built from an observation's masked state or from a full state (only ``state.hands[seat]`` is read).
    """

    def __init__(self, state: Any, seat: int | None = None) -> None:
        self.state = state
        self.game = state.game
        self.me = state.current if seat is None else seat
        self.n = len(state.hands)
        self.hand: int = state.hands[self.me]
        self.table: int = state.table
        self.captured: int = state.captured[0] | state.captured[1]
        self.unknown: int = FULL & ~self.hand & ~self.table & ~self.captured
        self.dealer: int = state.dealer
        self.role = (self.me - self.dealer) % self.n  # 1 eldest, 2 dealer's teammate, 3 third hand, 0 dealer
        self.partner = (self.me + 2) % self.n if self.n == 4 else -1
        self.hand_team = self.role % 2 == 1
        self.last_play = state.plays + 1 >= state.total_plays
        self._guess: list[int] | None = None

    # --- counts ----------------------------------------------------------------------------------------
    def count(self, mask: int, value: int) -> int:
        return popcount(mask & VALUE_MASK[value])

    def unknown_count(self, value: int) -> int:
        return popcount(self.unknown & VALUE_MASK[value])

    def decoupled(self, value: int, extra_captured: int = 0) -> bool:
        """A rank is decoupled (odd) when an odd number of its cards has been captured."""
        return bool(popcount((self.captured | extra_captured) & VALUE_MASK[value]) & 1)

    def decoupled_count(self, extra_captured: int = 0) -> int:
        return sum(1 for v in range(1, 11) if self.decoupled(v, extra_captured))

    @property
    def guessed(self) -> list[int]:
        """Cards each seat probably holds (card guessing system), only among the unknown cards."""
        if self._guess is None:
            self._guess = guess_cards(self.state, self.me)
        return self._guess

    # --- tables after a move ---------------------------------------------------------------------------
    def table_after(self, move: int) -> int:
        cap = _cap(move)
        return self.table & ~cap if cap else self.table | 1 << _card(move)

    def capturers(self, table: int) -> int:
        """Bitmask over values 1..10 of the cards that could capture something from ``table``."""
        return self.game.capture_values(table)[0]

    def sweepers(self, table: int) -> int:
        """Bitmask over values of the cards that would clear ``table`` for a scopa."""
        return self.game.capture_values(table)[1]

    def brings_to_scopa(self, move: int) -> bool:
        """dipalma2014 BringToScopa: an unknown card could clear the table left by ``move``."""
        if self.last_play:
            return False
        after = self.table_after(move)
        sweep = self.sweepers(after)
        if not sweep:
            return False
        unknown = self.unknown
        return any(sweep >> v & 1 and unknown & VALUE_MASK[v] for v in range(1, 11))


# --------------------------------------------------------------------------------------------------------
# Greedy (Algorithm 5)
# --------------------------------------------------------------------------------------------------------
def _capture_key(m: int) -> tuple[int, int, int]:
    cards = _cards(m)
    values = [GREEDY_VALUE[c] for c in bits(cards)]
    return (max(values), sum(values), -m)


def greedy_best(moves: list[int]) -> int:
    """BestMove of Algorithm 5: the capture taking the most important card (then the largest total),
    else lay the least important card."""
    caps = [m for m in moves if m >> CARD_BITS]
    if caps:
        return max(caps, key=_capture_key)
    return min(moves, key=lambda m: (GREEDY_VALUE[_card(m)], m))


def greedy_strategy(view: ScoponeView, moves: list[int]) -> int:
    """Algorithm 5: BestMove among the moves that do not bring to a scopa (all moves if none)."""
    safe = [m for m in moves if not view.brings_to_scopa(m)]
    return greedy_best(safe or moves)


def scopone_greedy_move(state: Any, rng: random.Random | None = None) -> int:
    """Simulation policy GS: the Greedy move of the player to act (works on a full state)."""
    return greedy_strategy(ScoponeView(state), state.legal_moves())


def scopone_epsilon_greedy_move(state: Any, rng: random.Random, epsilon: float = 0.3) -> int:
    """Simulation policy EGS: a random legal move with probability ``epsilon``, else the Greedy move."""
    moves = state.legal_moves()
    if rng.random() < epsilon:
        return moves[int(rng.random() * len(moves))]
    return greedy_strategy(ScoponeView(state), moves)


def scopone_card_random_move(state: Any, rng: random.Random) -> int:
    """Simulation policy CRS: a random card from the hand; Greedy picks which capture it makes."""
    moves = state.legal_moves()
    cards = sorted({_card(m) for m in moves})
    card = cards[int(rng.random() * len(cards))]
    own = [m for m in moves if _card(m) == card]
    return own[0] if len(own) == 1 else greedy_best(own)


# --------------------------------------------------------------------------------------------------------
# Card guessing system (dipalma2014 4.2.5)
# --------------------------------------------------------------------------------------------------------
def guess_ranks(state: Any) -> list[set[int]]:
    """Per seat, the values of which it probably holds another card, from the public history.

    * CS10: a player that lays a card (no capture) probably holds its copy.
    * CS19: not when it lays a face card on a table holding low cards (it may be avoiding a scopa).
    * CS18: a player that lays a card of the rank just captured as a pair holds the fourth.
    * CS25: the dealer's teammate capturing a sum with a 7 holds another 7.
    * When the player later plays a card of a guessed rank, the guess is dropped.
    """
    n = len(state.hands)
    hist = state.history
    tables = tables_before_moves(state)
    ranks: list[set[int]] = [set() for _ in range(n)]
    teammate = (state.dealer + 2) % n if n == 4 else -1
    prev_pair = 0  # value captured as a pair by the previous move
    for i, (seat, m) in enumerate(hist):
        card, cap = _card(m), _cap(m)
        v = VALUE[card]
        if v in ranks[seat]:
            ranks[seat].discard(v)
            held_copy = True
        else:
            held_copy = False
        if not cap:
            if prev_pair == v:
                ranks[seat].add(v)  # CS18
            elif not held_copy:
                low_on_table = any(VALUE[c] <= 7 for c in bits(tables[i]))
                if not (v >= 8 and low_on_table):  # CS19
                    ranks[seat].add(v)  # CS10
        elif seat == teammate and v == 7 and popcount(cap) >= 2:
            ranks[seat].add(7)  # CS25
        prev_pair = v if cap and popcount(cap) == 1 and VALUE[bits(cap)[0]] == v else 0
    return ranks


def guess_cards(state: Any, observer: int) -> list[int]:
    """Per seat, the bitmask of cards it probably holds, among the cards ``observer`` cannot see."""
    hand = state.hands[observer]
    captured = state.captured[0] | state.captured[1]
    unknown = FULL & ~hand & ~state.table & ~captured
    out = []
    for seat, vals in enumerate(guess_ranks(state)):
        mask = 0
        if seat != observer:
            for v in vals:
                mask |= unknown & VALUE_MASK[v]
        out.append(mask)
    return out


def scopone_guess_bias(obs: Observation, weight: float = 8.0) -> np.ndarray:
    """Belief matrix (slots x 40) for ``engine.determinize.determinize``: guessed cards are ``weight``
    times more likely in the guessing seat's hand (dipalma2014 5.6)."""
    guessed = guess_cards(obs.state, obs.seat)
    m = np.zeros((len(obs.slots), 40))
    for i, slot in enumerate(obs.slots):
        allowed = slot.allowed & obs.unknown
        for c in bits(allowed):
            m[i, c] = 1.0
        if 0 <= slot.owner < len(guessed):
            for c in bits(guessed[slot.owner] & allowed):
                m[i, c] = weight
    return m


# --------------------------------------------------------------------------------------------------------
# Chitarrella-Saracino rules; each returns a move, a filtered move list, or None (does not apply)
# --------------------------------------------------------------------------------------------------------
RuleResult = int | list[int] | None


def _filter(moves: list[int], keep: Callable[[int], bool]) -> list[int] | None:
    """The moves kept by ``keep`` when that is a proper, non-empty subset; else None."""
    kept = [m for m in moves if keep(m)]
    return kept if kept and len(kept) < len(moves) else None


def _lay_others(moves: list[int], values: Collection[int]) -> list[int] | None:
    """:func:`_filter` keeping every capture and every laid card whose value is not in ``values`` (laying a card
    of ``values`` waits)."""
    return _filter(moves, lambda m: _cap(m) != 0 or VALUE[_card(m)] not in values)


def _plays_value(m: int, v: int) -> bool:
    return VALUE[_card(m)] == v


def _captures_seven(m: int) -> bool:
    return bool(_cap(m) & SEVENS)


def _seven_spariglio(m: int) -> bool:
    """A capture taking a 7 as part of a sum (e.g. J taking 7+A)."""
    cap = _cap(m)
    return bool(cap & SEVENS) and popcount(cap) >= 2


def _last_move(view: ScoponeView, back: int = 1) -> tuple[int, int] | None:
    hist = view.state.history
    return hist[-back] if len(hist) >= back else None


def cs5(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS5: the third hand with its last two cards, an even (coupled) card and a decoupled card of higher
    rank, plays the even one."""
    if view.role != 3 or view.n != 4 or popcount(view.hand) != 2:
        return None
    a, b = bits(view.hand)
    for even, odd in ((a, b), (b, a)):
        if not view.decoupled(VALUE[even]) and view.decoupled(VALUE[odd]) and VALUE[odd] > VALUE[even]:
            own = [m for m in moves if _card(m) == even]
            if own:
                return greedy_best(own)
    return None


def cs4(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS4: the dealer with its last two cards, one even (coupled) and one odd (decoupled), plays the odd one
    and keeps the even one as the tallone."""
    if view.role != 0 or popcount(view.hand) != 2:
        return None
    a, b = bits(view.hand)
    da, db = view.decoupled(VALUE[a]), view.decoupled(VALUE[b])
    if da == db:
        return None
    odd = a if da else b
    return _filter(moves, lambda m: _card(m) == odd)


def cs27(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS27: while no 7 has been played, a player without 7s must not leave a combination summing to 7
    (which would bring to the spariglio of 7s)."""
    if view.hand & SEVENS or (view.captured | view.table) & SEVENS:
        return None

    def harmless(m: int) -> bool:
        after = view.table_after(m)
        return not (after & ~SEVENS and any(popcount(s) >= 2 for s in view.game.captures(after, REP[7])))

    return _filter(moves, harmless)


def cs29(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS29: holding three 7s, never capture a 7 with a spariglio."""
    if popcount(view.hand & SEVENS) != 3:
        return None
    return _filter(moves, lambda m: not _seven_spariglio(m))


def cs28(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS28: the dealer holding two 7s captures a 7 with a spariglio when it can; otherwise it plays its 7s
    as late as possible."""
    if view.role != 0 or popcount(view.hand & SEVENS) != 2:
        return None
    spar = [m for m in moves if _seven_spariglio(m)]
    if spar:
        return greedy_best(spar)
    return _lay_others(moves, (7,))  # laying a 7 waits; capturing not


def cs23(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS23: the dealer's teammate holding two 7s captures the 7 on the table directly, not by a spariglio."""
    if view.role != 2 or view.n != 4 or popcount(view.hand & SEVENS) != 2:
        return None
    direct = [m for m in moves if _plays_value(m, 7) and _cap(m) & SEVENS]
    return greedy_best(direct) if direct else None


def cs26(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS26: a player holding two 7s or the settebello captures the 7 played by the others (the dealer's
    teammate with two 7s does it directly, CS23)."""
    if not view.table & SEVENS:
        return None
    if popcount(view.hand & SEVENS) < 2 and not view.hand >> SETTEBELLO & 1:
        return None
    direct = cs23(view, moves)
    if direct is not None:
        return direct
    takes = [m for m in moves if _captures_seven(m)]
    return greedy_best(takes) if takes else None


def cs21(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS21: the dealer's teammate holding one 7 takes a 7 on the table by a spariglio when it can."""
    if view.role != 2 or view.n != 4 or popcount(view.hand & SEVENS) != 1:
        return None
    spar = [m for m in moves if _seven_spariglio(m)]
    return greedy_best(spar) if spar else None


def cs22(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS22: the dealer's teammate without 7s always takes a 7 by a spariglio, even decoupling three cards."""
    if view.role != 2 or view.n != 4 or view.hand & SEVENS:
        return None
    spar = [m for m in moves if _seven_spariglio(m)]
    return greedy_best(spar) if spar else None


def cs20(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS20: the dealer's teammate always captures a 7 played by the dealer or the opponents."""
    if view.role != 2 or view.n != 4 or not view.table & SEVENS:
        return None
    takes = [m for m in moves if _captures_seven(m)]
    return greedy_best(takes) if takes else None


def mulinello_moves(view: ScoponeView, moves: list[int]) -> list[int]:
    """Moves after which the opponents can capture nothing: every value that could take a card from the
    table left is dead (all its cards captured or in my hand) or its last card is guessed to be with my
    partner."""
    partner_guess = view.guessed[view.partner] if view.partner >= 0 else 0
    out = []
    for m in moves:
        if view.last_play:
            continue
        after = view.table_after(m)
        unknown = view.unknown
        ok = True
        caps = view.capturers(after)
        for v in range(1, 11):
            if caps >> v & 1:
                left = unknown & VALUE_MASK[v]
                if left and not (popcount(left) == 1 and left & partner_guess):
                    ok = False
                    break
        if ok:
            out.append(m)
    return out


def cs6(view: ScoponeView, mulinello: list[int]) -> RuleResult:
    """CS6: the hand team, able to make the mulinello on a low card or on a face card, prefers the low card.

    The card of a mulinello is the highest card it leaves on the table (or the card laid)."""
    if not view.hand_team:
        return None

    def top(m: int) -> int:
        after = view.table_after(m)
        return max((VALUE[c] for c in bits(after)), default=0)

    low = [m for m in mulinello if 0 < top(m) <= 7]
    face = [m for m in mulinello if top(m) >= 8]
    return greedy_best(low) if low and face else None


def opponent_mulinello(view: ScoponeView, move: int) -> bool:
    """Whether the next (opposing) player could answer ``move`` with a capture after which my side can take
    nothing from the table (the opponents' mulinello; CS7's "fourth card" case included)."""
    if view.last_play:
        return False
    after = view.table_after(move)
    if not after:
        return False
    unknown = view.unknown
    hand = view.hand & ~(1 << _card(move))
    caps = view.game.captures
    for r in range(1, 11):
        if not unknown & VALUE_MASK[r]:
            continue
        for s in caps(after, REP[r]):
            rest = after & ~s
            if not rest:
                continue
            ours = view.capturers(rest)
            blocked = True
            for w in range(1, 11):
                if ours >> w & 1:
                    left = popcount(unknown & VALUE_MASK[w]) - (1 if w == r else 0)
                    if hand & VALUE_MASK[w] or left > 0:
                        blocked = False
                        break
            if blocked:
                return True
    return False


def cs1_choose(view: ScoponeView, captures: list[int]) -> int:
    """CS1: among the captures taking the most important card (Greedy's first criterion), the hand team
    takes the one that maximizes the decoupled ranks, the deck team the one that minimizes them (then the
    Greedy total value)."""
    top = max(_capture_key(m)[0] for m in captures)
    pool = [m for m in captures if _capture_key(m)[0] == top]
    sign = 1 if view.hand_team else -1
    best = max(sign * view.decoupled_count(_cards(m)) for m in pool)
    return greedy_best([m for m in pool if sign * view.decoupled_count(_cards(m)) == best])


def cs24_ok(view: ScoponeView, move: int) -> bool:
    """CS24: the dealer's teammate avoids capturing a card that makes 7 with a card it holds twice."""
    if view.role != 2 or view.n != 4 or (view.captured & SEVENS) == SEVENS:
        return True
    hand = view.hand & ~(1 << _card(move))
    for c in bits(_cap(move)):
        d = 7 - VALUE[c]
        if 1 <= d <= 6 and view.count(hand, d) >= 2:
            return False
    return True


def cs8_ok(view: ScoponeView, move: int) -> bool:
    """CS8: on the opening table, do not capture one of two cards of the same rank."""
    if view.state.plays >= view.n:
        return True
    for c in bits(_cap(move)):
        if view.count(view.table, VALUE[c]) >= 2:
            return False
    return True


def _partner_laid(view: ScoponeView) -> int:
    """The card my partner laid on its last turn (-1 if it captured or there is no partner)."""
    if view.partner < 0:
        return -1
    last = _last_move(view, 2)
    if last is None or last[0] != view.partner or _cap(last[1]):
        return -1
    return _card(last[1])


def cs12_ok(view: ScoponeView, move: int) -> bool:
    """CS12: do not capture the double card just laid by the partner; let an opponent take it."""
    laid = _partner_laid(view)
    if laid < 0 or not view.table >> laid & 1 or not _cap(move) >> laid & 1:
        return True
    return not view.guessed[view.partner] & VALUE_MASK[VALUE[laid]]


def cs11(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS11: the partner laid a card, an opponent captured it, and I hold the same rank: lay it (franca)."""
    if view.partner < 0:
        return None
    a, b = _last_move(view, 2), _last_move(view, 1)
    if a is None or b is None or a[0] != view.partner or _cap(a[1]) or not _cap(b[1]) >> _card(a[1]) & 1:
        return None
    v = VALUE[_card(a[1])]
    return _filter(moves, lambda m: _plays_value(m, v))


def cs13(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS13: do not lay again a rank the partner did not replay after an opponent took it."""
    if view.partner < 0:
        return None
    hist = view.state.history
    dead: set[int] = set()
    for i, (seat, m) in enumerate(hist):
        if seat == view.me and not _cap(m) and i + 2 < len(hist):
            v = VALUE[_card(m)]
            opp, mate = hist[i + 1], hist[i + 2]
            if _cap(opp[1]) >> _card(m) & 1 and not (mate[0] == view.partner and VALUE[_card(mate[1])] == v):
                dead.add(v)
    if not dead:
        return None
    return _filter(moves, lambda m: VALUE[_card(m)] not in dead)


def cs17(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS17: when the hand team has made no spariglio and the deck team holds it in its grip (has taken
    clearly more cards: at least 4 more), the third hand plays single cards."""
    if view.role != 3 or view.n != 4:
        return None
    st = view.state
    if popcount(st.captured[st.deck_team]) < popcount(st.captured[st.hand_team]) + 4:
        return None
    for seat, m in view.state.history:
        if (seat - view.dealer) % 4 in (1, 3) and popcount(_cap(m)) >= 2:
            return None
    return _filter(moves, lambda m: view.count(view.hand, VALUE[_card(m)]) == 1)


def cs16(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS16: the eldest hand with doubles lays the lowest double."""
    if view.role != 1:
        return None
    doubles = [m for m in moves if view.count(view.hand, VALUE[_card(m)]) >= 2]
    if not doubles:
        return None
    low = min(VALUE[_card(m)] for m in doubles)
    return greedy_best([m for m in doubles if VALUE[_card(m)] == low])


def cs10_14_15(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS14: lay a triple first; CS10: else a double card; CS15: a double before a "third card" (the third
    of a rank two of which are captured)."""
    triples = [m for m in moves if view.count(view.hand, VALUE[_card(m)]) >= 3]
    if triples:
        return greedy_best(triples)
    doubles = [m for m in moves if view.count(view.hand, VALUE[_card(m)]) == 2]
    if doubles:
        return greedy_best(doubles)
    return None


def _last_decoupled(view: ScoponeView, m: int) -> bool:
    """The played card is the last card in play of a decoupled rank."""
    v = VALUE[_card(m)]
    return (view.decoupled(v) and view.count(view.hand, v) == 1 and not view.unknown & VALUE_MASK[v]
            and not view.table & VALUE_MASK[v])


def cs2(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS2: who wants the decoupling to last (the hand team) lays the last decoupled card of highest rank."""
    if not view.hand_team:
        return None
    last = [m for m in moves if _last_decoupled(view, m)]
    if not last:
        return None
    top = max(VALUE[_card(m)] for m in last)
    return greedy_best([m for m in last if VALUE[_card(m)] == top])


def cs3(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CS3: the dealer's teammate never lays the last decoupled card of highest rank (left to the dealer)."""
    if view.role != 2 or view.n != 4:
        return None
    return _filter(moves, lambda m: not _last_decoupled(view, m))


# --------------------------------------------------------------------------------------------------------
# Algorithm 6
# --------------------------------------------------------------------------------------------------------
class Decision:
    """A rule-based choice and the name of the rule that made it."""

    def __init__(self) -> None:
        self.rule = ""

    def take(self, result: RuleResult, name: str, moves: list[int]) -> tuple[int | None, list[int]]:
        if result is None:
            return None, moves
        if isinstance(result, list):
            return None, result
        self.rule = name
        return result, moves


def cs_strategy(view: ScoponeView, moves: list[int], scopa_prevention: bool = True, sevens: bool = True,
                decision: Decision | None = None) -> int:
    """Algorithm 6 (Chitarrella-Saracino) on ``moves``; ``decision.rule`` names the deciding rule."""
    d = decision or Decision()
    if len(moves) == 1:
        d.rule = "forced"
        return moves[0]
    rules: list[tuple[str, Callable[[ScoponeView, list[int]], RuleResult]]] = [("CS5", cs5), ("CS4", cs4)]
    if sevens:
        rules += [("CS27", cs27), ("CS29", cs29), ("CS28", cs28), ("CS26", cs26), ("CS21", cs21),
                  ("CS22", cs22), ("CS20", cs20), ("CS23", cs23)]
    safe_exists = scopa_prevention and any(not view.brings_to_scopa(m) for m in moves)
    for name, rule in rules:
        result = rule(view, moves)
        if isinstance(result, list) and safe_exists and all(view.brings_to_scopa(m) for m in result):
            continue  # a filter may not take away every move that is safe from a scopa
        move, moves = d.take(result, name, moves)
        if move is not None:
            return move
    mul = mulinello_moves(view, moves)
    if mul:
        move, _ = d.take(cs6(view, mul), "CS6", mul)
        if move is not None:
            return move
        d.rule = "mulinello"
        return greedy_best(mul)
    safe = [m for m in moves if _cap(m) or not opponent_mulinello(view, m)]  # CS7: laid cards only
    if scopa_prevention:
        no_scopa = [m for m in moves if not view.brings_to_scopa(m)]
        # Avoiding the opponents' mulinello never overrides the scopa prevention: a scopa is a sure point.
        both = [m for m in safe if m in no_scopa]
        moves = both or no_scopa or safe or moves
    elif safe:
        moves = safe
    return determine_move(view, moves, d)


def determine_move(view: ScoponeView, moves: list[int], d: Decision) -> int:
    """DetermineMove of Algorithm 6: CS1 captures validated by CS24/CS8/CS12, else the laying rules."""
    remaining = list(moves)
    caps = [m for m in remaining if _cap(m)]
    if caps:
        # CS9: when a capture is possible, capture. The validation rules only switch to another capture
        # (dipalma2014's TryAnotherMove); when no capture passes them all, the CS1 choice stands.
        first = move = cs1_choose(view, caps)
        while not (cs24_ok(view, move) and cs8_ok(view, move) and cs12_ok(view, move)):
            caps.remove(move)
            if not caps:
                move = first
                break
            move = cs1_choose(view, caps)
        d.rule = "CS1"
        return move
    for name, rule in (("CS11", cs11), ("CS13", cs13), ("CS17", cs17)):
        _, remaining = d.take(rule(view, remaining), name, remaining)
    if any(view.count(view.hand, VALUE[_card(m)]) >= 2 for m in remaining):
        for name, fn in (("CS16", cs16), ("CS10", cs10_14_15)):
            result = fn(view, remaining)
            if isinstance(result, int):
                d.rule = name
                return result
    chosen, remaining = d.take(cs2(view, remaining), "CS2", remaining)
    if chosen is not None:
        return chosen
    _, remaining = d.take(cs3(view, remaining), "CS3", remaining)
    d.rule = "best-move"
    return greedy_best(remaining)


# --------------------------------------------------------------------------------------------------------
# Cicuti-Guardamagna rules (Algorithm 7)
# --------------------------------------------------------------------------------------------------------
def _third_hand_laid_seven(view: ScoponeView) -> int:
    last = _last_move(view)
    if last is None or view.n != 4 or (last[0] - view.dealer) % 4 != 3 or _cap(last[1]):
        return -1
    c = _card(last[1])
    return c if VALUE[c] == 7 and view.table >> c & 1 else -1


def _redoubles(view: ScoponeView, table: int) -> bool:
    """The table holds two or more non-7 cards summing to 7 (a redoubled combination of 7)."""
    rest = table & ~SEVENS
    return any(popcount(s) >= 2 for s in view.game.captures(rest, REP[7])) if rest else False


def cg9(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG9: after the third hand lays a 7, the dealer without 7s must not redouble the combination of 7."""
    if view.role != 0 or view.hand & SEVENS or _third_hand_laid_seven(view) < 0:
        return None
    return _filter(moves, lambda m: not _redoubles(view, view.table_after(m)))


def cg8(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG8: the third hand laid a 7 and the eldest could redouble the combination of 7: the dealer takes
    that 7."""
    seven = _third_hand_laid_seven(view)
    if view.role != 0 or seven < 0:
        return None
    could = any(VALUE[c] < 7 and view.unknown & VALUE_MASK[7 - VALUE[c]] for c in bits(view.table & ~SEVENS))
    if not could:
        return None
    takes = [m for m in moves if _cap(m) >> seven & 1]
    return greedy_best(takes) if takes else None


def cg2(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG2: holding three 7s with the settebello, play one of the other 7s at once."""
    if popcount(view.hand & SEVENS) != 3 or not view.hand >> SETTEBELLO & 1:
        return None
    own = [m for m in moves if _plays_value(m, 7) and _card(m) != SETTEBELLO]
    return greedy_best(own) if own else None


def cg6(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG6: the dealer's teammate, third hand or dealer with three 7s but not the settebello lays a 7 on a
    low card that allows a spariglio of the 7."""
    if view.role == 1 or popcount(view.hand & SEVENS) != 3 or view.hand >> SETTEBELLO & 1:
        return None
    lays = [m for m in moves if _plays_value(m, 7) and not _cap(m)
            and any(VALUE[c] <= 3 for c in bits(view.table))]
    return greedy_best(lays) if lays else None


def cg1(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG1: the dealer's teammate holding two 7s always takes the 7, by a spariglio too."""
    if view.role != 2 or view.n != 4 or popcount(view.hand & SEVENS) != 2:
        return None
    takes = [m for m in moves if _captures_seven(m)]
    return greedy_best(takes) if takes else None


def cg5(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG5: holding the last two 7s with the settebello, the hand team plays the settebello, the deck team
    the other 7."""
    if popcount(view.hand & SEVENS) != 2 or not view.hand >> SETTEBELLO & 1:
        return None
    if (view.unknown | view.table) & SEVENS:
        return None
    if view.hand_team:
        own = [m for m in moves if _card(m) == SETTEBELLO]
    else:
        own = [m for m in moves if VALUE[_card(m)] == 7 and _card(m) != SETTEBELLO]
    return greedy_best(own) if own else None


def cg4(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG4: an opponent of the dealer with two 7s and the settebello lays the other 7 when its teammate can
    redouble the combination of 7 (a low card stays on the table)."""
    if not view.hand_team or popcount(view.hand & SEVENS) != 2 or not view.hand >> SETTEBELLO & 1:
        return None
    lays = [m for m in moves if _plays_value(m, 7) and _card(m) != SETTEBELLO and not _cap(m)
            and any(VALUE[c] < 7 for c in bits(view.table))]
    return greedy_best(lays) if lays else None


def cg3(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG3: holding two 7s without the settebello, lay the 7s as late as possible (captures stay free)."""
    if popcount(view.hand & SEVENS) != 2 or view.hand >> SETTEBELLO & 1:
        return None
    return _lay_others(moves, (7,))


def _keep_seven_maker(view: ScoponeView, moves: list[int]) -> RuleResult:
    """Keep an even (coupled) card that makes 7 with a decoupled rank: do not lay the last one held
    (capturing with it stays allowed: CS9)."""
    keep: set[int] = set()
    for v in range(1, 7):
        if view.count(view.hand, v) == 1 and not view.decoupled(v) and view.decoupled(7 - v):
            keep.add(v)
    if not keep:
        return None
    return _lay_others(moves, keep)


def _sevens_in_game(view: ScoponeView) -> int:
    return popcount(SEVENS & ~view.captured)


def cg7(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG7: three 7s still in play, the dealer (by the guessing system) holds the settebello: the dealer's
    teammate without 7s keeps an even card making 7 with a decoupled one."""
    if view.role != 2 or view.n != 4 or view.hand & SEVENS or _sevens_in_game(view) != 3:
        return None
    if not view.guessed[view.dealer] >> SETTEBELLO & 1:
        return None
    return _keep_seven_maker(view, moves)


def cg10(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG10: when the dealer's teammate and the third hand (by the guessing system) hold the last two 7s,
    the dealer keeps an even card making 7 with a decoupled one."""
    if view.role != 0 or view.n != 4 or view.hand & SEVENS:
        return None
    left = view.unknown & SEVENS
    if popcount(left) != 2 or view.table & SEVENS:
        return None
    g = view.guessed
    mate, third = (view.dealer + 2) % 4, (view.dealer + 3) % 4
    if not (g[mate] & left and g[third] & left):
        return None
    return _keep_seven_maker(view, moves)


def cg11(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG11: decoupled ranks 3-4-7, 2-5-7 or 1-6-7 with the last 7 (guessed) with the third hand: the dealer
    keeps a card of the pair; likewise the dealer's teammate when the eldest holds it."""
    if view.n != 4 or view.role not in (0, 2):
        return None
    left = view.unknown & SEVENS
    if popcount(left) != 1:
        return None
    holder = (view.dealer + 3) % 4 if view.role == 0 else (view.dealer + 1) % 4
    if not view.guessed[holder] & left:
        return None
    for a, b in ((3, 4), (2, 5), (1, 6)):
        if view.decoupled(a) and view.decoupled(b) and view.decoupled(7):
            held = view.count(view.hand, a) + view.count(view.hand, b)
            if held == 1:
                return _lay_others(moves, (a, b))
    return None


def cg12(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG12: three 7s in play, the eldest without 7s keeps a block for the 7: a J when the Ace is decoupled,
    a Horse (9) for the 2, a King for the 3; otherwise an even card making 7 with a decoupled one."""
    if view.role != 1 or view.hand & SEVENS or _sevens_in_game(view) != 3:
        return None
    blocks = {8: 1, 9: 2, 10: 3}
    keep = {face for face, low in blocks.items() if view.decoupled(low) and view.count(view.hand, face) == 1}
    if keep:
        return _lay_others(moves, keep)
    return _keep_seven_maker(view, moves)


def cg13(view: ScoponeView, moves: list[int]) -> RuleResult:
    """CG13: the eldest does not capture the 7 the dealer just laid unless that wins the primiera (its side
    then holds three 7s)."""
    last = _last_move(view)
    if view.role != 1 or last is None or last[0] != view.dealer or _cap(last[1]):
        return None
    seven = _card(last[1])
    if VALUE[seven] != 7 or not view.table >> seven & 1:
        return None
    mine = popcount(view.state.captured[view.me & 1] & SEVENS)
    if mine + 1 >= 3:
        return None
    return _filter(moves, lambda m: not _cap(m) >> seven & 1)


def cg_strategy(view: ScoponeView, moves: list[int], scopa_prevention: bool = True, sevens: bool = True,
                decision: Decision | None = None) -> int:
    """Algorithm 7 (Cicuti-Guardamagna): CG rules first, then CS on the remaining moves."""
    d = decision or Decision()
    if len(moves) == 1:
        d.rule = "forced"
        return moves[0]
    if sevens:
        _, moves = d.take(cg9(view, moves), "CG9", moves)
        move, moves = d.take(cg8(view, moves), "CG8", moves)
        if move is not None:
            return move
        all_scopa = all(view.brings_to_scopa(m) for m in moves)
        for name, rule in (("CG2", cg2), ("CG6", cg6), ("CG1", cg1), ("CG5", cg5), ("CG4", cg4)):
            result = rule(view, moves)
            if isinstance(result, int):
                if name == "CG1" or all_scopa or not view.brings_to_scopa(result):
                    d.rule = name
                    return result
        safe_exists = scopa_prevention and not all_scopa
        for name, rule in (("CG3", cg3), ("CG7", cg7), ("CG10", cg10), ("CG11", cg11), ("CG12", cg12),
                           ("CG13", cg13)):
            result = rule(view, moves)
            if isinstance(result, list) and safe_exists and all(view.brings_to_scopa(m) for m in result):
                continue  # as in CS: a filter may not take away every scopa-safe move
            _, moves = d.take(result, name, moves)
    return cs_strategy(view, moves, scopa_prevention, sevens, d)


# --------------------------------------------------------------------------------------------------------
# Agents
# --------------------------------------------------------------------------------------------------------
class _ScoponeAgent(Agent):
    games = ("scopone", "scopa")

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.last_rule = ""

    def decide(self, view: ScoponeView, moves: list[int]) -> int:
        raise NotImplementedError

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        moves = obs.legal_moves()
        return self.decide(ScoponeView(obs.state, obs.seat), moves)


class GreedyAgent(_ScoponeAgent):
    name = "greedy"
    description = "Scopone beginner (dipalma2014 Algorithm 5): take the most valuable cards, avoid giving a scopa"

    def decide(self, view: ScoponeView, moves: list[int]) -> int:
        self.last_rule = "greedy"
        return greedy_strategy(view, moves)


_CS_PARAMS = (
    Option("scopa_prevention", True, "avoid moves that leave a scopa to an unknown card (false = CSWSP)",
           type=bool),
    Option("sevens", True, "apply the rules on the play of sevens (false = CSWP7)", type=bool),
)


class ChitarrellaSaracinoAgent(_ScoponeAgent):
    name = "cs"
    description = "Scopone expert (dipalma2014 Algorithm 6): Chitarrella-Saracino rules CS1-CS29 and card guessing"
    params = _CS_PARAMS

    def decide(self, view: ScoponeView, moves: list[int]) -> int:
        d = Decision()
        move = cs_strategy(view, moves, self.config["scopa_prevention"], self.config["sevens"], d)
        self.last_rule = d.rule
        return move


class CicutiGuardamagnaAgent(_ScoponeAgent):
    name = "cg"
    description = "Scopone expert (dipalma2014 Algorithm 7): Cicuti-Guardamagna sevens rules CG1-CG13 over CS"
    params = _CS_PARAMS

    def decide(self, view: ScoponeView, moves: list[int]) -> int:
        d = Decision()
        move = cg_strategy(view, moves, self.config["scopa_prevention"], self.config["sevens"], d)
        self.last_rule = d.rule
        return move


# --------------------------------------------------------------------------------------------------------
# Search knowledge
# --------------------------------------------------------------------------------------------------------
def card_handler(state: Any, move: int) -> int:
    """Move handler ``card``: a move's branch is its played card (dipalma2014 OCH)."""
    return move & CARD_MASK


class HeuristicAgent(Agent):
    """The game's ``heuristic`` agent: the Chitarrella-Saracino player (fair: decides from its observation only)."""

    name = "heuristic"
    description = "rule-based player encoding well-known human strategy for each game (the Chitarrella-Saracino player)"
    games = ("scopone", "scopa")

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.agent = ChitarrellaSaracinoAgent(game)

    @property
    def last_rule(self) -> str:
        return getattr(self.agent, "last_rule", "")

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        return self.agent.choose(obs, rng, budget)

    def reset(self) -> None:
        self.agent.reset()
