"""Scopone (4 players, seats 0+2 vs 1+3) and 2-player Scopa on the 40-card Italian deck.

Rules: ``assets/rules/en/scopone.md``; background dipalma2014 chapter 3. Seats are in play order, so the
counter-clockwise play of the real game is just "next seat". The dealer's side is the *deck team*, the
other side the *hand team*; eldest hand (dealer + 1) leads. Default FIGS deal: 9 cards each and 4 face up
on the table, dealt again (same dealer) while 3 or 4 Kings lie on the table. Capture values: A=1 .. 7=7,
J=8, H(orse)=9, K=10.

**Moves.** A move is one ``int``: ``card | (captured << 6)`` where ``card`` is the played card's index
(0..39) and ``captured`` the bitmask of the table cards it takes (0 = the card is laid on the table).
Notation: ``7D`` lays the Seven of Coins; ``7Dx3C+4S`` plays it and captures 3C and 4S. ``parse_move``
also accepts spaces or commas between the captured cards, and a bare card when that card has exactly one
legal move (e.g. ``7D`` when its only capture is ``7Dx7C``).

**Capture rules** (the legal moves list every allowed capture set): a table card equal in value to the
played card must be taken in preference to any sum (several equal cards: the player picks one);
otherwise any set of table cards summing to its value; a card that could capture may not be laid.
Clearing the table is a *scopa* except on the hand's very last play. Cards left on the table at the end go
to the side that captured last (not a scopa).

**Variants** (options): ``scopone_a_10`` (10 each, none on the table), ``napola`` (A-2-3 of coins scores
the length of the run of coins from the Ace, 3..10), ``ace_sweep`` = ``assi`` (Scopa d'Assi / Asso piglia
tutto: an Ace takes the whole table, not a scopa; with an Ace on the table it takes only an Ace) or
``sbarazzino`` (the same, but the sweep is a scopa), ``re_bello`` (King of coins +1), ``scopa_a_15``
(capture sets that sum to 15 together with the played card, instead of equal/sum captures; an Ace under
``ace_sweep`` still sweeps), ``scopa_a_perdere`` (the lower score wins hands and the match; a match ends when
a side reaches the target, but plays on while the lowest total is shared), ``capture_choice`` = ``fewest``
(among several sum captures the one with the fewest cards must be taken), ``target`` (11, 16, 21, 31 or any;
0 = one hand). A tie at or above the target plays on; when both sides pass the target the higher total wins.

**Scopa** (2 players, class :class:`Scopa`): 3 cards each and 4 on the table; whenever both hands are empty
3 more each are dealt from the stock (eldest first) until the pack is out. The stock is a hidden ordered
slot in observations.

**Observations.** Other hands (and the Scopa stock) are hidden; the table, every played card and capture
(so which cards each side has taken) and the scope are public.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engine.cards import ITALIAN40, NotationError, bits, popcount
from engine.game import Game, GameState, HandResult, IllegalMove, Option, StateFormatError, first_dealer_option
from engine.observation import HiddenSlot, Observation

CARD_BITS = 6
CARD_MASK = (1 << CARD_BITS) - 1
DECK = ITALIAN40
NUM_CARDS = 40
COINS = 0
COIN_MASK = DECK.suit_mask(COINS)
SETTEBELLO = DECK.parse("7D")
RE_BELLO = DECK.parse("KD")
KING_MASK = sum(1 << DECK.card(s, 9) for s in range(4))
ACE_MASK = sum(1 << DECK.card(s, 0) for s in range(4))
VALUE: list[int] = [c % 10 + 1 for c in range(NUM_CARDS)]
"""Capture value of each card: A=1 .. 7=7, J=8, H=9, K=10."""
PRIMIERA_BY_RANK = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
PRIMIERA: list[int] = [PRIMIERA_BY_RANK[c % 10] for c in range(NUM_CARDS)]
VALUE_MASK: list[int] = [sum(1 << DECK.card(s, v - 1) for s in range(4)) if v else 0 for v in range(11)]
"""Cards of each capture value 1..10 (index 0 unused)."""
HIDDEN = -1
"""An unknown card in a masked stock."""
RANK: list[int] = [c % 10 for c in range(NUM_CARDS)]
"""Rank index 0..9 of each card (capture value - 1); card = suit * 10 + rank."""
LAY: tuple[int, ...] = (0,)
"""The per-rank entry of :meth:`Scopone.table_captures` for a card that captures nothing: it is laid."""
LAY_PATTERN: tuple[tuple[int, ...], ...] = ((),)
"""The capture sets of a card that is laid, in a capture pattern (:meth:`Scopone.table_entry`)."""
BIT: list[int] = [1 << c for c in range(NUM_CARDS)]
_NEXT_SEAT: dict[int, tuple[int, ...]] = {n: tuple((s + 1) % n for s in range(n)) for n in (2, 4)}
_SUIT_CARDS: list[list[tuple[int, ...]]] = [
    [tuple(s * 10 + r for r in range(10) if m >> r & 1) for m in range(1024)] for s in range(4)]
_PRIMIERA_BEST: list[int] = [max((PRIMIERA_BY_RANK[r] for r in range(10) if m >> r & 1), default=0)
                             for m in range(1024)]
"""Best primiera value among the ranks of a 10-bit rank mask (0 for none)."""


# Value order: bit 4 * rank + suit of a "transposed" mask is the card (suit, rank), so its bits run through the
# cards sorted by value. Per 10-bit chunk: the transposed bits of a suit's ranks, and for a transposed chunk
# its cards' bits, their values, and a multiset key (3 bits per rank count).
_TRANSPOSE: list[list[int]] = [[sum(1 << (4 * r + s) for r in range(10) if m >> r & 1) for m in range(1024)]
                               for s in range(4)]
_T_BITS: list[list[tuple[int, ...]]] = [
    [tuple(1 << ((t % 4) * 10 + t // 4) for t in range(10 * k, 10 * k + 10) if m >> (t - 10 * k) & 1)
     for m in range(1024)] for k in range(4)]
_T_VALUES: list[list[tuple[int, ...]]] = [
    [tuple(t // 4 + 1 for t in range(10 * k, 10 * k + 10) if m >> (t - 10 * k) & 1) for m in range(1024)]
    for k in range(4)]
_T_KEY: list[list[int]] = [
    [sum(1 << (3 * (t // 4)) for t in range(10 * k, 10 * k + 10) if m >> (t - 10 * k) & 1) for m in range(1024)]
    for k in range(4)]


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a set in increasing order (table lookups: faster than bit loops for whole hands)."""
    c0, c1, c2, c3 = _SUIT_CARDS
    return c0[mask & 1023] + c1[mask >> 10 & 1023] + c2[mask >> 20 & 1023] + c3[mask >> 30 & 1023]


TableEntry = tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], ...], ...], tuple[int, ...], int]
"""(counts, sets, bits, several) of one table: see :meth:`Scopone.table_entry`."""


def make_move(card: int, captured: int = 0) -> int:
    """Encode a move: the played card and the bitmask of captured table cards."""
    return card | captured << CARD_BITS


def move_card(move: int) -> int:
    return move & CARD_MASK


def move_captured(move: int) -> int:
    return move >> CARD_BITS


def subsets_with_sum(table: int, target: int) -> list[int]:
    """Every subset (bitmask) of the ``table`` cards whose capture values sum to ``target``.

    Grows the list of partial subsets card by card, keeping only those still below the target, so the
    work is bounded by the number of subsets summing to less than ``target``; any table size works.
    """
    out: list[int] = []
    if target <= 0:
        return out
    partial: list[tuple[int, int]] = [(0, 0)]
    t = table
    while t:
        low = t & -t
        t ^= low
        v = VALUE[low.bit_length() - 1]
        if v > target:
            continue
        grown = []
        for m, total in partial:
            total += v
            if total == target:
                out.append(m | low)
            elif total < target:
                grown.append((m | low, total))
        partial += grown
    return out


class Scopone(Game):
    """Scopone scientifico for 4 players in two partnerships (seats 0+2 vs 1+3)."""

    name = "scopone"
    title = "Scopone"
    deck = ITALIAN40
    players: ClassVar[int] = 4
    hand_size: ClassVar[int] = 9
    options: ClassVar[tuple[Option, ...]] = (
        Option("target", 11, "points that win the match (usually 11, 16, 21 or 31; 0 = a single hand)",
               type=int, min=0, max=100),
        Option("scopone_a_10", False, "Scopone a 10: 10 cards each and none on the table"),
        Option("napola", False, "Napola: A-2-3 of coins scores the length of the coin run from the Ace"),
        Option("ace_sweep", "off", "an Ace takes the whole table (assi: not a scopa; sbarazzino: a scopa); "
               "with an Ace on the table it takes only an Ace", choices=("off", "assi", "sbarazzino")),
        Option("re_bello", False, "Re bello: the King of coins is worth 1 point"),
        Option("scopa_a_15", False, "Scopa a 15: capture sets summing to 15 together with the played card"),
        Option("scopa_a_perdere", False, "Scopa a perdere: the lower score wins"),
        Option("capture_choice", "any", "which sum capture a player may choose: any, or one with the fewest "
               "cards", choices=("any", "fewest")),
        first_dealer_option(),
    )
    example_variants: ClassVar[tuple[dict[str, Any], ...]] = (
        {}, {"target": 0, "scopone_a_10": True, "napola": True, "ace_sweep": "assi"},
        {"ace_sweep": "sbarazzino", "re_bello": True, "capture_choice": "fewest", "target": 16},
        {"scopa_a_15": True, "target": 21}, {"scopa_a_perdere": True, "target": 31, "napola": True},
        {"first_dealer": "last_seat"},
    )

    def __init__(self, variant: dict[str, Any] | None = None) -> None:
        super().__init__(variant)
        v = self.variant
        self.ace_sweep: str = v["ace_sweep"]
        self.scopa_15: bool = v["scopa_a_15"]
        self.fewest: bool = v["capture_choice"] == "fewest"
        self.napola: bool = bool(v["napola"])
        self.re_bello: bool = bool(v["re_bello"])
        self.lower_wins: bool = bool(v["scopa_a_perdere"])
        self._table_cache: dict[int, TableEntry] = {}
        self._patterns: dict[int, tuple[tuple[int, ...], tuple[Any, ...], int]] = {}
        self._mask_cache: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._values_cache: dict[int, tuple[int, int]] = {}

    @property
    def num_players(self) -> int:
        return self.players

    def teams(self) -> list[tuple[int, ...]]:
        return [(0, 2), (1, 3)]

    def state_class(self) -> type[ScoponeState]:
        return ScoponeState

    def lower_is_better(self) -> bool:
        return bool(self.variant["scopa_a_perdere"])

    def match_over(self, totals: list[float], hands_played: int) -> bool:
        """:meth:`Game.match_over`; in Scopa a perdere the match ends when a side reaches the target, except
        that equal lowest totals play on (both sides at or past the target with the same score)."""
        target = self.match_target()
        if not self.lower_wins or target is None:
            return super().match_over(totals, hands_played)
        return max(totals) >= target and totals.count(min(totals)) == 1

    def deal_sizes(self) -> tuple[int, int]:
        """(cards per hand, cards on the table) of the first deal."""
        if self.variant.get("scopone_a_10"):
            return 10, 0
        return self.hand_size, 4

    def new_hand(self, rng: random.Random, dealer: int = -1, hand_index: int = 0,
                 match_scores: list[float] | None = None) -> ScoponeState:
        n = self.players
        dealer = n - 1 if dealer < 0 else dealer
        if not 0 <= dealer < n:
            raise ValueError(f"dealer seat {dealer} out of range 0..{n - 1}")
        per_hand, on_table = self.deal_sizes()
        while True:
            cards = list(range(NUM_CARDS))
            rng.shuffle(cards)
            table = sum(1 << c for c in cards[:on_table])
            if popcount(table & KING_MASK) < 3:
                break
        hands = [0] * n
        pos = on_table
        for i in range(n):
            seat = (dealer + 1 + i) % n
            hands[seat] = sum(1 << c for c in cards[pos:pos + per_hand])
            pos += per_hand
        stock = cards[pos:]
        return ScoponeState(self, hands, table, dealer, stock)

    # --- capture rules ----------------------------------------------------------------------------
    # The capture sets of a table depend only on the multiset of its card values, so they are computed once
    # per sorted value tuple as a *pattern* (one subset-sum pass bucketed by sum, then the capture rules
    # for every value 1..10) of positions in the table's cards sorted by value; about 1,200 patterns cover
    # every table a search meets. A table's entry adds the bits of its cards in that order: a capture set
    # is the sum of the bits at a pattern's positions (made into bitmasks and sorted only when needed).
    TABLE_CACHE_SIZE: ClassVar[int] = 100_000
    """Tables whose entry (:meth:`table_entry`) is kept (~0.3 kB each); a full cache is cleared."""
    PATTERN_CACHE_SIZE: ClassVar[int] = 50_000
    """Value multisets whose capture pattern is kept."""
    MASK_CACHE_SIZE: ClassVar[int] = 50_000
    """Tables whose capture sets are kept as bitmasks (for :meth:`table_captures` and :meth:`captures`)."""

    def captures(self, table: int, card: int) -> tuple[int, ...]:
        """Every capture set ``card`` may take from ``table`` (empty: it can only be laid)."""
        masks = self._mask_cache.get(table)
        if masks is None:
            masks = self.table_captures(table)
        sets = masks[RANK[card]]
        return () if sets is LAY else sets

    def table_captures(self, table: int) -> tuple[tuple[int, ...], ...]:
        """The capture sets of every rank at once for ``table`` (cached): entry ``r`` lists the sets a card of
        rank ``r`` (value ``r + 1``) may take in increasing bitmask order, or is :data:`LAY` (``(0,)``) when
        such a card captures nothing, so ``card | s << 6`` over the entry are exactly its legal moves."""
        masks = self._mask_cache.get(table)
        if masks is not None:
            return masks
        _counts, sets_by_card, table_bits, _several = self.table_entry(table)
        masks = tuple(LAY if sets is LAY_PATTERN else tuple(sorted(sum(table_bits[i] for i in pos) for pos in sets))
                      for sets in sets_by_card[:10])
        if len(self._mask_cache) >= self.MASK_CACHE_SIZE:
            self._mask_cache.clear()
        self._mask_cache[table] = masks
        return masks

    def table_entry(self, table: int) -> TableEntry:
        """``(counts, sets, bits, several)`` of ``table`` (cached). ``bits`` are the table's cards as bitmasks
        sorted by value (then suit); for each card index ``c`` (0..39), ``sets[c]`` are the capture sets of
        that card as tuples of positions in ``bits`` (not in bitmask order), or :data:`LAY_PATTERN` (``((),)``:
        the card is laid, capturing nothing), ``counts[c]`` is ``len(sets[c])``, its number of moves, and
        ``several`` is the mask of the cards with two or more moves."""
        entry = self._table_cache.get(table)
        if entry is None:
            entry = self._new_table_entry(table)
        return entry

    def _new_table_entry(self, table: int) -> TableEntry:
        cache = self._table_cache
        if len(cache) >= self.TABLE_CACHE_SIZE:
            cache.clear()
        t0, t1, t2, t3 = _TRANSPOSE
        tt = t0[table & 1023] | t1[table >> 10 & 1023] | t2[table >> 20 & 1023] | t3[table >> 30 & 1023]
        a, b, c, d = tt & 1023, tt >> 10 & 1023, tt >> 20 & 1023, tt >> 30 & 1023
        k0, k1, k2, k3 = _T_KEY
        key = k0[a] + k1[b] + k2[c] + k3[d]
        pattern = self._patterns.get(key)
        if pattern is None:
            v0, v1, v2, v3 = _T_VALUES
            pattern = self._build_pattern(v0[a] + v1[b] + v2[c] + v3[d])
            self._patterns[key] = pattern
        b0, b1, b2, b3 = _T_BITS
        entry = (pattern[0], pattern[1], b0[a] + b1[b] + b2[c] + b3[d], pattern[2])
        cache[table] = entry
        return entry

    def _build_pattern(self, values: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[Any, ...], int]:
        """The capture rules applied to a table whose cards have ``values``: (counts, sets, several) as in
        :meth:`table_entry`."""
        if len(self._patterns) >= self.PATTERN_CACHE_SIZE:
            self._patterns.clear()
        scopa_15 = self.scopa_15
        limit = 14 if scopa_15 else 10
        subsets: list[tuple[int, int]] = [(0, 0)]  # (position mask, sum of values)
        equal = [0] * 11  # positions of each value
        for i, v in enumerate(values):
            low = 1 << i
            equal[v] |= low
            subsets += [(m | low, t + v) for m, t in subsets if t + v <= limit]
        by_sum: list[list[int]] = [[] for _ in range(limit + 1)]
        for m, t in subsets[1:]:
            by_sum[t].append(m)
        every = (1 << len(values)) - 1
        sweep = self.ace_sweep != "off" and values
        fewest = self.fewest
        out: list[tuple[tuple[int, ...], ...]] = []
        for value in range(1, 11):
            if value == 1 and sweep:
                sets = [m for m in by_sum[1]] if equal[1] else [every]
            elif scopa_15:
                sets = by_sum[15 - value]
            elif equal[value]:
                sets = [m for m in by_sum[value] if m & equal[value] == m]
            else:
                sets = by_sum[value]
            if fewest and len(sets) > 1 and not (value == 1 and sweep):
                least = min(m.bit_count() for m in sets)
                sets = [m for m in sets if m.bit_count() == least]
            out.append(tuple(tuple(i for i in range(len(values)) if m >> i & 1) for m in sets) if sets
                       else LAY_PATTERN)
        sets_by_card = tuple(out) * 4  # card = suit * 10 + rank
        several = sum(VALUE_MASK[r + 1] for r in range(10) if len(out[r]) > 1)
        return tuple(map(len, sets_by_card)), sets_by_card, several

    def capture_values(self, table: int) -> tuple[int, int]:
        """``(capturing, sweeping)`` for ``table`` (cached): bitmasks over values 1..10 (bit ``v``) of the
        cards that could capture something from it, and of those that would clear it for a scopa (an Ace
        sweep of a table without an Ace under ``assi`` is no scopa; the last-play rule is not applied)."""
        got = self._values_cache.get(table)
        if got is not None:
            return got
        capturing = sweeping = 0
        if table:
            masks = self.table_captures(table)
            assi = self.ace_sweep == "assi"
            for v in range(1, 11):
                sets = masks[v - 1]
                if sets is not LAY:
                    capturing |= 1 << v
                    if table in sets and not (assi and v == 1 and not table & ACE_MASK):
                        sweeping |= 1 << v
        if len(self._values_cache) >= self.MASK_CACHE_SIZE:
            self._values_cache.clear()
        got = self._values_cache[table] = (capturing, sweeping)
        return got

    def _compute_captures(self, table: int, value: int) -> tuple[int, ...]:
        """Reference (slow) capture sets of one card value: the rules written out directly, used by tests
        to check :meth:`table_captures`."""
        if not table:
            return ()
        if value == 1 and self.ace_sweep != "off":
            aces = table & ACE_MASK
            if aces:
                return tuple(1 << c for c in bits(aces))
            return (table,)
        if self.scopa_15:
            sets = subsets_with_sum(table, 15 - value)
        else:
            equal = table & VALUE_MASK[value]
            if equal:
                return tuple(1 << c for c in bits(equal))
            sets = subsets_with_sum(table, value)
        if self.fewest and len(sets) > 1:
            least = min(popcount(s) for s in sets)
            sets = [s for s in sets if popcount(s) == least]
        return tuple(sorted(sets))

    def is_sweep(self, card: int, captured: int) -> bool:
        """An Ace sweep under ``ace_sweep`` (an Ace capture that takes no Ace)."""
        return self.ace_sweep != "off" and VALUE[card] == 1 and not captured & ACE_MASK

    # --- scoring ----------------------------------------------------------------------------------
    def side_points(self, captured: list[int], scope: list[int]) -> dict[str, Any]:
        """The per-side breakdown of a finished hand (see :meth:`ScoponeState.result`)."""
        v = self.variant
        cards = [popcount(m) for m in captured]
        coins = [popcount(m & COIN_MASK) for m in captured]
        sette = [bool(m >> SETTEBELLO & 1) for m in captured]
        prim = [[max((PRIMIERA[c] for c in bits(m & DECK.suit_mask(s))), default=0) for s in range(4)]
                for m in captured]
        complete = [all(p) for p in prim]
        totals = [sum(p) for p in prim]
        pts: dict[str, list[int]] = {
            "cards": _more(cards), "coins": _more(coins), "settebello": [int(x) for x in sette]}
        if complete[0] and complete[1]:
            pts["primiera"] = _more(totals)
        else:
            pts["primiera"] = [int(complete[0] and not complete[1]), int(complete[1] and not complete[0])]
        pts["scope"] = list(scope)
        napola = [napola_length(m) for m in captured]
        if v["napola"]:
            pts["napola"] = list(napola)
        if v["re_bello"]:
            pts["re_bello"] = [int(bool(m >> RE_BELLO & 1)) for m in captured]
        total = [sum(p[i] for p in pts.values()) for i in range(2)]
        return {"cards": cards, "coins": coins, "settebello": sette, "primiera": prim,
                "primiera_total": totals, "primiera_complete": complete, "scope": list(scope),
                "napola": napola if v["napola"] else [0, 0],
                "re_bello": [bool(m >> RE_BELLO & 1) for m in captured] if v["re_bello"] else [False, False],
                "points": pts, "total": total}


    def hand_totals(self, captured: list[int], scope: list[int]) -> tuple[int, int]:
        """Each side's hand points: the ``total`` of :meth:`side_points` without the breakdown (the
        search scores one finished playout per iteration with it)."""
        a, b = captured
        t0, t1 = scope
        n0, n1 = a.bit_count(), b.bit_count()
        t0 += n0 > n1
        t1 += n1 > n0
        n0, n1 = (a & COIN_MASK).bit_count(), (b & COIN_MASK).bit_count()
        t0 += n0 > n1
        t1 += n1 > n0
        t0 += a >> SETTEBELLO & 1
        t1 += b >> SETTEBELLO & 1
        best = _PRIMIERA_BEST
        p0, q0, r0, s0 = best[a & 1023], best[a >> 10 & 1023], best[a >> 20 & 1023], best[a >> 30 & 1023]
        p1, q1, r1, s1 = best[b & 1023], best[b >> 10 & 1023], best[b >> 20 & 1023], best[b >> 30 & 1023]
        complete0 = bool(p0 and q0 and r0 and s0)
        complete1 = bool(p1 and q1 and r1 and s1)
        if complete0 and complete1:
            n0, n1 = p0 + q0 + r0 + s0, p1 + q1 + r1 + s1
            t0 += n0 > n1
            t1 += n1 > n0
        else:
            t0 += complete0 and not complete1
            t1 += complete1 and not complete0
        if self.napola:
            t0 += napola_length(a)
            t1 += napola_length(b)
        if self.re_bello:
            t0 += a >> RE_BELLO & 1
            t1 += b >> RE_BELLO & 1
        return t0, t1


def _more(values: list[int]) -> list[int]:
    """1 point to the side with strictly more, none on a tie."""
    return [int(values[0] > values[1]), int(values[1] > values[0])]


def napola_length(captured: int) -> int:
    """Napola value of a side's cards: the length of the run of coins from the Ace if it is 3+, else 0."""
    run = 0
    while run < 10 and captured >> DECK.card(COINS, run) & 1:
        run += 1
    return run if run >= 3 else 0


class Scopa(Scopone):
    """2-player Scopa: 3 cards each and 4 on the table, 3 more each from the stock when hands are empty."""

    name = "scopa"
    title = "Scopa"
    players = 2
    hand_size = 3
    options = tuple(o for o in Scopone.options if o.name != "scopone_a_10")
    example_variants: ClassVar[tuple[dict[str, Any], ...]] = (
        {}, {"target": 0, "napola": True, "ace_sweep": "assi", "capture_choice": "fewest"},
        {"ace_sweep": "sbarazzino", "re_bello": True, "scopa_a_perdere": True},
        {"scopa_a_15": True, "target": 21}, {"first_dealer": "last_seat"},
    )

    def teams(self) -> list[tuple[int, ...]]:
        return [(0,), (1,)]


class ScoponeState(GameState):
    """A Scopone/Scopa hand in progress (mutable; :meth:`clone` is cheap)."""

    __slots__ = ("game", "hands", "hand_counts", "table", "captured", "scope", "last_capturer", "current",
                 "dealer", "plays", "total_plays", "stock", "history")
    game: Scopone

    def __init__(self, game: Scopone, hands: list[int], table: int, dealer: int, stock: list[int]) -> None:
        self.game = game
        self.hands = hands
        self.hand_counts = [popcount(h) for h in hands]
        self.table = table
        self.captured = [0, 0]
        self.scope = [0, 0]
        self.last_capturer = -1
        self.dealer = dealer
        self.current = (dealer + 1) % len(hands)
        self.plays = 0
        self.total_plays = NUM_CARDS - popcount(table)
        self.stock = stock
        self.history: list[tuple[int, int]] = []

    # --- basics -----------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.hands)

    @property
    def current_player(self) -> int:
        return -1 if self.plays >= self.total_plays else self.current

    def is_terminal(self) -> bool:
        return self.plays >= self.total_plays

    def side_of(self, seat: int) -> int:
        """Side index (0 or 1) of a seat: seats 0+2 are side 0 in Scopone."""
        return seat & 1

    @property
    def hand_team(self) -> int:
        """The side of eldest hand (the leading side)."""
        return self.side_of((self.dealer + 1) % self.num_players)

    @property
    def deck_team(self) -> int:
        """The dealer's side."""
        return self.side_of(self.dealer)

    def clone(self) -> ScoponeState:
        o = object.__new__(ScoponeState)
        o.game = self.game
        o.hands = self.hands[:]
        o.hand_counts = self.hand_counts[:]
        o.table = self.table
        o.captured = self.captured[:]
        o.scope = self.scope[:]
        o.last_capturer = self.last_capturer
        o.current = self.current
        o.dealer = self.dealer
        o.plays = self.plays
        o.total_plays = self.total_plays
        o.stock = self.stock[:]
        o.history = self.history[:]
        return o

    # --- rules ------------------------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        if self.plays >= self.total_plays:
            return []
        game = self.game
        caps = game._mask_cache.get(self.table) or game.table_captures(self.table)
        rank = RANK
        return [card | s << CARD_BITS for card in cards_of(self.hands[self.current]) for s in caps[rank[card]]]

    def random_rollout(self, rng: random.Random) -> None:
        """Play a full (determinized) state to the end with uniformly random legal moves: the same choices as
        the generic loop over :meth:`legal_moves` / :meth:`do`, with both inlined. Hands are kept as sorted
        card lists and the move list is never built: the number of moves is summed from the table's capture
        pattern (:meth:`Scopone.table_entry`) and only the ``int(rand() * n)``-th move is made."""
        self._play_out(rng, True)

    def scored_playout(self, rng: random.Random) -> None:
        """:meth:`random_rollout`'s choices without the history: the same captures, sweeps and result."""
        self._play_out(rng, False)

    def _play_out(self, rng: random.Random, record: bool) -> None:
        """:meth:`random_rollout`; ``record`` False leaves the plays out of the history."""
        rand = rng.random
        g = self.game
        table_entry = g._table_cache.get  # the cache is only ever cleared, never replaced
        new_entry = g._new_table_entry
        sweep_rule = g.ace_sweep == "assi"
        is_sweep = g.is_sweep
        hands = self.hands
        captured = self.captured
        scope = self.scope
        append_history = self.history.append
        n = len(hands)
        next_seat = _NEXT_SEAT[n]
        held = [list(cards_of(h)) for h in hands]
        total = self.total_plays
        table = self.table
        seat = self.current
        last_capturer = self.last_capturer
        start = plays = self.plays
        for plays in range(start + 1, total + 1):  # plays: the count after this move
            cards = held[seat]
            entry = table_entry(table)
            if entry is None:
                entry = new_entry(table)
            counts, sets_by_card, table_bits, several = entry
            if hands[seat] & several:  # some card has two or more moves: find the r-th move
                r = int(rand() * sum(map(counts.__getitem__, cards)))
                i = 0
                for card in cards:
                    k = counts[card]
                    if r < k:
                        break
                    r -= k
                    i += 1
                del cards[i]
                sets = sets_by_card[card]
                bit_at = table_bits.__getitem__
                cap = sorted([sum(map(bit_at, p)) for p in sets])[r] if len(sets) > 1 else sum(map(bit_at, sets[0]))
            else:  # one move per card
                card = cards.pop(int(rand() * len(cards)))
                positions = sets_by_card[card][0]
                if not positions:
                    cap = 0
                elif len(positions) == 1:
                    cap = table_bits[positions[0]]
                else:
                    cap = sum(map(table_bits.__getitem__, positions))
            hands[seat] ^= 1 << card
            if record:
                append_history((seat, card | cap << CARD_BITS))
            if cap:
                table ^= cap
                captured[seat & 1] |= cap | 1 << card
                last_capturer = seat
                if not table and plays < total and (not sweep_rule or not is_sweep(card, cap)):
                    scope[seat & 1] += 1
            else:
                table |= 1 << card
            seat = next_seat[seat]
            if not cards and self.stock and not any(hands):  # Scopa: deal from the stock, as do() would
                stock = self.stock
                per = g.hand_size
                if len(stock) < per * n:
                    raise ValueError("the stock ran out")
                for i in range(n):
                    eldest_on = (self.dealer + 1 + i) % n
                    chunk = stock[-per:]
                    del stock[-per:]
                    chunk.sort()
                    held[eldest_on] = chunk
                    mask = 0
                    for c in chunk:
                        mask |= 1 << c
                    hands[eldest_on] = mask
        if plays > start:
            seat = (seat - 1) % n  # the last mover stays current, as in do()
            if table and last_capturer >= 0:
                captured[last_capturer & 1] |= table
                table = 0
        self.hand_counts = list(map(len, held))
        self.table = table
        self.current = seat
        self.plays = plays
        self.last_capturer = last_capturer

    def do(self, move: int) -> None:
        seat = self.current
        card = move & CARD_MASK
        cap = move >> CARD_BITS
        self.hands[seat] &= ~(1 << card)
        counts = self.hand_counts
        counts[seat] -= 1
        plays = self.plays = self.plays + 1
        self.history.append((seat, move))
        last = plays >= self.total_plays
        table = self.table
        if cap:
            side = seat & 1
            table &= ~cap
            self.captured[side] |= cap | 1 << card
            self.last_capturer = seat
            if not table and not last:
                if self.game.ace_sweep != "assi" or not self.game.is_sweep(card, cap):
                    self.scope[side] += 1
        else:
            table |= 1 << card
        if last:
            if table and self.last_capturer >= 0:
                self.captured[self.last_capturer & 1] |= table
                table = 0
            self.table = table
            return
        self.table = table
        seat += 1
        self.current = 0 if seat == len(counts) else seat
        if self.stock and not any(counts):
            self._deal_from_stock()

    def _deal_from_stock(self) -> None:
        """Each seat from eldest hand on takes the next ``hand_size`` cards from the end of the stock."""
        hands = self.hands
        stock = self.stock
        n = len(hands)
        per = self.game.hand_size
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            if len(stock) < per:
                raise ValueError("the stock ran out")
            mask = 0
            for c in stock[-per:]:
                mask |= 1 << c
            del stock[-per:]
            hands[seat] |= mask
            self.hand_counts[seat] += per

    def would_be_scopa(self, move: int) -> bool:
        """Whether ``move`` clears the table for a scopa (used by the UI and agents)."""
        cap = move >> CARD_BITS
        if not cap or self.table & ~cap or self.plays + 1 >= self.total_plays:
            return False
        return self.game.ace_sweep != "assi" or not self.game.is_sweep(move & CARD_MASK, cap)

    # --- result -----------------------------------------------------------------------------------
    def result(self) -> HandResult:
        if not self.is_terminal():
            raise ValueError("the hand is not over")
        b = self.game.side_points(self.captured, self.scope)
        total = b["total"]
        teams = self.game.teams()
        lower = self.game.lower_is_better()
        if total[0] == total[1]:
            winners: list[int] = []
        else:
            best = 0 if (total[0] < total[1]) == lower else 1
            winners = list(teams[best])
        b["hand_team"] = self.hand_team
        b["deck_team"] = self.deck_team
        b["sides"] = [list(t) for t in teams]
        points = [float(total[self.side_of(s)]) for s in range(self.num_players)]
        return HandResult(points=points, teams=teams, team_points=[float(t) for t in total],
                          winners=winners, breakdown=b, lower_is_better=lower)

    def outcomes(self) -> list[float]:
        """Each seat's PWL outcome, equal to ``result().outcome(s)`` but from :meth:`Scopone.hand_totals`."""
        if self.plays < self.total_plays:
            raise ValueError("the hand is not over")
        t0, t1 = self.game.hand_totals(self.captured, self.scope)
        n = len(self.hands)
        if t0 == t1:
            return [0.5] * n
        side0_wins = (t0 > t1) != self.game.lower_wins
        return [1.0, 0.0] * (n // 2) if side0_wins else [0.0, 1.0] * (n // 2)

    # --- information ------------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        masked = self.clone()
        unknown = 0
        slots: list[HiddenSlot] = []
        hidden_sets: list[tuple[str, int, int, bool]] = []
        for s in range(self.num_players):
            if s != seat:
                masked.hands[s] = 0
                if self.hands[s]:
                    unknown |= self.hands[s]
                    hidden_sets.append((f"hand{s}", s, popcount(self.hands[s]), False))
        if self.stock:
            stock_mask = sum(1 << c for c in self.stock if c >= 0)
            unknown |= stock_mask
            masked.stock = [HIDDEN] * len(self.stock)
            hidden_sets.append(("stock", -1, len(self.stock), True))
        for name, owner, count, ordered in hidden_sets:
            slots.append(HiddenSlot(name, owner, count, unknown, ordered))
        return Observation(seat, masked, unknown, slots)

    def fill_hidden(self, slots: list[HiddenSlot], assignment: list[int], rng: random.Random,
                    orders: dict[int, list[int]] | None = None) -> None:
        for k, (slot, cards) in enumerate(zip(slots, assignment, strict=True)):
            if slot.name == "stock":
                if orders is not None and k in orders:
                    self.stock = orders[k][:]
                    continue
                stock = list(cards_of(cards))
                rand = rng.random
                for i in range(len(stock) - 1, 0, -1):  # Fisher-Yates with one rng.random() per card
                    j = int(rand() * (i + 1))
                    stock[i], stock[j] = stock[j], stock[i]
                self.stock = stock
            else:
                self.hands[slot.owner] |= cards

    # --- notation ---------------------------------------------------------------------------------
    def move_cards(self, move: int) -> tuple[int, ...]:
        """The played card, then the captured cards."""
        return (move & CARD_MASK, *bits(move >> CARD_BITS))

    def move_text(self, move: int) -> str:
        card = move & CARD_MASK
        cap = move >> CARD_BITS
        text = DECK.text(card)
        if cap:
            text += "x" + "+".join(DECK.text(c) for c in bits(cap))
        return text

    def describe_move(self, move: int) -> str:
        card = move & CARD_MASK
        cap = move >> CARD_BITS
        if not cap:
            return f"lays {DECK.long_name(card)}"
        text = f"plays {DECK.long_name(card)} taking {', '.join(DECK.long_name(c) for c in bits(cap))}"
        return text + (" (scopa!)" if self.would_be_scopa(move) else "")

    def parse_move(self, text: str) -> int:
        raw = text
        text = text.strip()
        if not text:
            raise NotationError("empty move: expected e.g. '7D' or '7Dx3C+4S'")
        head, sep, tail = text.replace("X", "x").partition("x")
        card = DECK.parse(head)
        if sep:
            cap = DECK.parse_set(tail.replace("+", " "))
            if not cap:
                raise NotationError(f"bad move {raw!r}: no captured cards after 'x'")
            return make_move(card, cap)
        if not self.is_terminal() and self.hands[self.current] >> card & 1:
            options = self.game.captures(self.table, card)
            if len(options) == 1:
                return make_move(card, options[0])
        return make_move(card)

    def illegal_move(self, move: int) -> IllegalMove | None:
        if self.is_terminal():
            return IllegalMove("hand_over", "the hand is over")
        if isinstance(move, bool) or not isinstance(move, int):
            return IllegalMove("not_a_move", f"a move must be an int, not {type(move).__name__}")
        if move < 0:
            return IllegalMove("not_a_move", f"{move} is not a move", {"move": move})
        card = move & CARD_MASK
        cap = move >> CARD_BITS
        if card >= NUM_CARDS:
            return IllegalMove("not_a_move", f"{card} is not a card of the {DECK.name} deck", {"move": move})
        name = DECK.text(card)
        if not self.hands[self.current] >> card & 1:
            return IllegalMove("not_in_hand", f"{name} is not in seat {self.current}'s hand",
                               {"card": card, "seat": self.current})
        if cap >> NUM_CARDS or cap & ~self.table:
            off = cap & ~self.table & DECK.full_mask
            return IllegalMove("not_on_table", f"{DECK.set_text(off) or 'those cards'} "
                               f"{'is' if popcount(off) == 1 else 'are'} not on the table", {"cards": tuple(bits(off))})
        options = self.game.captures(self.table, card)
        if (cap in options) if options else cap == 0:
            return None
        captured = tuple(bits(cap))
        if not options:
            return IllegalMove("captures_nothing",
                               f"{name} cannot capture {DECK.set_text(cap)}: it captures nothing here, so it is laid",
                               {"card": card, "cards": captured})
        example = self.move_text(make_move(card, options[0]))
        example_fields = {"card": card, "example": tuple(bits(options[0]))}
        if cap == 0:
            return IllegalMove("must_capture",
                               f"{name} can capture (e.g. {example}): a card that can capture may not be laid",
                               example_fields)
        g = self.game
        if VALUE[card] == 1 and g.ace_sweep != "off":
            if self.table & ACE_MASK:
                return IllegalMove("ace_takes_ace",
                                   f"an Ace on the table must be taken by {name}, alone (e.g. {example})",
                                   example_fields)
            return IllegalMove("ace_sweeps", f"{name} sweeps the whole table: {example}", example_fields)
        total = sum(VALUE[c] for c in bits(cap))
        if g.scopa_15:
            return IllegalMove("sum_not_15", f"{name} and {DECK.set_text(cap)} sum to {total + VALUE[card]}, not 15",
                               {"card": card, "cards": captured, "total": total + VALUE[card]})
        equal = self.table & VALUE_MASK[VALUE[card]]
        if equal:
            return IllegalMove("equal_first", f"{name} must take a single card of equal value "
                               f"({DECK.set_text(equal)}) before any sum", {"card": card, "cards": tuple(bits(equal))})
        if total != VALUE[card]:
            return IllegalMove("wrong_sum", f"{DECK.set_text(cap)} sum to {total}, not {VALUE[card]} ({name})",
                               {"card": card, "cards": captured, "total": total, "value": VALUE[card]})
        if g.fewest:
            return IllegalMove("fewest_cards", f"{name} must capture with the fewest cards (e.g. {example})",
                               example_fields)
        return IllegalMove("not_legal", f"{self.move_text(move)} is not a legal capture", {"move": move})

    # --- JSON -------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": [DECK.set_text(h) for h in self.hands],
            "hand_counts": list(self.hand_counts),
            "table": DECK.set_text(self.table),
            "captured": [DECK.set_text(m) for m in self.captured],
            "scope": list(self.scope),
            "last_capturer": self.last_capturer,
            "current": self.current,
            "dealer": self.dealer,
            "plays": self.plays,
            "total_plays": self.total_plays,
            "stock": ["??" if c < 0 else DECK.text(c) for c in self.stock],
            "history": [[s, self.history_text(m)] for s, m in self.history],
        }

    @staticmethod
    def history_text(move: int) -> str:
        card = move & CARD_MASK
        cap = move >> CARD_BITS
        return DECK.text(card) + ("x" + "+".join(DECK.text(c) for c in bits(cap)) if cap else "")

    @classmethod
    def from_dict(cls, game: Game, d: dict[str, Any]) -> ScoponeState:
        if not isinstance(game, Scopone):
            raise TypeError(f"a Scopone or Scopa state needs its game, not {game!r}")
        s = object.__new__(cls)
        s.game = game
        try:
            s.hands = [DECK.parse_set(h) for h in d["hands"]]
            s.hand_counts = [_int(x, "hand_counts") for x in d["hand_counts"]]
            s.table = DECK.parse_set(d["table"])
            s.captured = [DECK.parse_set(m) for m in d["captured"]]
            s.scope = [_int(x, "scope") for x in d["scope"]]
            s.last_capturer = _int(d["last_capturer"], "last_capturer")
            s.current = _int(d["current"], "current")
            s.dealer = _int(d["dealer"], "dealer")
            s.plays = _int(d["plays"], "plays")
            s.total_plays = _int(d["total_plays"], "total_plays")
            s.stock = [HIDDEN if c == "??" else DECK.parse(c) for c in d["stock"]]
            s.history = []
            for seat, text in d["history"]:
                head, _, tail = str(text).partition("x")
                s.history.append((_int(seat, "history seat"),
                                  make_move(DECK.parse(head), DECK.parse_set(tail.replace("+", " ")))))
        except NotationError as e:
            raise StateFormatError(f"bad card in scopone state: {e}") from None
        return s

    def validate(self) -> None:
        n = self.game.num_players
        if len(self.hands) != n or len(self.hand_counts) != n:
            raise StateFormatError(f"state has {len(self.hands)} hands but {self.game.name} has {n} players")
        if len(self.captured) != 2 or len(self.scope) != 2:
            raise StateFormatError("captured and scope must have one entry per side")
        for name, v in (("current", self.current), ("dealer", self.dealer)):
            if not 0 <= v < n:
                raise StateFormatError(f"{name} seat {v} out of range 0..{n - 1}")
        if not -1 <= self.last_capturer < n:
            raise StateFormatError(f"last_capturer {self.last_capturer} out of range")
        if not 0 <= self.plays <= self.total_plays <= NUM_CARDS or any(x < 0 for x in self.scope):
            raise StateFormatError("bad play counters")
        seen = 0
        for m in self.hands + self.captured + [self.table] + [1 << c for c in self.stock if c >= 0]:
            if seen & m:
                raise StateFormatError("a card appears in two places")
            seen |= m
        for s in range(n):
            if self.hand_counts[s] < popcount(self.hands[s]):
                raise StateFormatError(f"seat {s} holds more cards than its hand count")
        hidden = sum(self.hand_counts) - sum(popcount(h) for h in self.hands)
        hidden += sum(1 for c in self.stock if c < 0)
        if popcount(seen) + hidden != NUM_CARDS:
            raise StateFormatError(f"cards do not add up to {NUM_CARDS}")

    def __repr__(self) -> str:
        return (f"ScoponeState(table={DECK.set_text(self.table)!r}, current={self.current}, "
                f"plays={self.plays}/{self.total_plays})")

    # --- the table API (engine/game.py) ------------------------------------------------------------
    illegal_codes: ClassVar[frozenset[str]] = frozenset({
        "hand_over", "not_a_move", "not_in_hand", "not_on_table", "captures_nothing", "must_capture",
        "ace_takes_ace", "ace_sweeps", "sum_not_15", "equal_first", "wrong_sum", "fewest_cards", "not_legal"})

    # --- the table API: seats (engine/game.py) -------------------------------------------------------
    def hand_cards(self, seat: int) -> tuple[int, ...]:
        return tuple(bits(self.hands[seat])) if 0 <= seat < len(self.hands) else ()

    def hand_size(self, seat: int) -> int:
        return self.hand_counts[seat] if 0 <= seat < len(self.hands) else 0

    def dealer_seat(self) -> int | None:
        return self.dealer

    # --- the table API: the centre of the table (engine/game.py) ------------------------------------------
    def stock_count(self) -> int | None:
        return len(self.stock)

    def table_cards(self) -> tuple[int, ...]:
        return tuple(bits(self.table))

    def captured_cards(self, side: int) -> tuple[int, ...]:
        return tuple(bits(self.captured[side])) if 0 <= side < len(self.captured) else ()

    def sweeps(self, side: int) -> int:
        return self.scope[side] if 0 <= side < len(self.scope) else 0

    def sweep_cards(self, side: int) -> tuple[int, ...]:
        """Reconstructed from the public history: a capture that leaves the table empty, except the last play
        of the hand (which takes the rest without a sweep)."""
        if not 0 <= side < len(self.scope) or not self.scope[side]:
            return ()
        history = self.history
        terminal = self.is_terminal()
        table = self.table
        if terminal:
            taken = 0
            for _, move in history:
                if move_captured(move):
                    taken |= move_captured(move) | 1 << move_card(move)
            table = (self.captured[0] | self.captured[1]) & ~taken
        found: list[int] = []
        after = table
        for i in range(len(history) - 1, -1, -1):
            seat, move = history[i]
            card, cap = move_card(move), move_captured(move)
            if cap and after == 0 and not (terminal and i == len(history) - 1) and seat % 2 == side:
                found.append(card)
            after = after | cap if cap else after & ~(1 << card)
        return tuple(reversed(found))[-self.scope[side]:]


def _int(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise StateFormatError(f"{what} must be an integer, got {x!r}")
    return x


__all__ = ["Scopone", "Scopa", "ScoponeState", "make_move", "move_card", "move_captured", "subsets_with_sum",
           "napola_length"]
