"""Hearts: 4 players each for themself, 52 cards, no trump, avoid hearts (1 each) and the Q of spades (13).

Rules: ``assets/rules/en/hearts.md``; background fernandes2016 section 3.4 and manzke2025 chapter 2. A hand may begin
with a passing phase: each seat, in play order starting after the dealer, makes three single-card pass
moves (``PASS_FLAG | card``, notation ``pass 7C``). Passed cards leave the passer's hand at once and are
delivered together after the twelfth pass, so every choice is made before anything is received. Other
seats see a pass only as ``HIDDEN_MOVE``; the passer knows where its three cards went until they are
played. The holder of the 2 of clubs then leads it.

Play: follow suit if able. First trick: no heart and no Q of spades unless the player has nothing else.
Hearts may not be led until broken (a heart - or, by default, the Q of spades - has been played) unless
the leader holds only hearts. Scores are penalty points (lower is better); shooting the moon gives the
other players +26 (or the shooter -26); optionally the J of diamonds is worth -10.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, cast

from engine.cards import FRENCH52, NotationError, bits, popcount
from engine.game import Game, HandResult, IllegalMove, Option, StateFormatError
from engine.games.tricks.core import HIDDEN_MOVE, PASS_FLAG, TrickGame, TrickState, _int
from engine.observation import HiddenSlot

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TWO_CLUBS = FRENCH52.parse("2C")
QUEEN_SPADES = FRENCH52.parse("QS")
JACK_DIAMONDS = FRENCH52.parse("JD")
HEART_MASK = FRENCH52.suit_mask(HEARTS)
POINT_MASK = HEART_MASK | 1 << QUEEN_SPADES
"""Cards that carry penalty points (restricted on the first trick; all of them = shooting the moon)."""
PASS_CARDS = 3

DIRECTIONS = {"hold": 0, "left": 1, "across": 2, "right": 3}
"""Seat offset of the receiver in play order (left = the next player)."""
CYCLES: dict[str, tuple[str, ...]] = {
    "rotate": ("left", "right", "across", "hold"),
    "rotate_across": ("left", "across", "right", "hold"),
    "left": ("left",), "right": ("right",), "across": ("across",), "none": ("hold",),
}


class Hearts(TrickGame):
    name = "hearts"
    title = "Hearts"
    deck = FRENCH52
    strength_order = "2 3 4 5 6 7 8 9 T J Q K A"
    options = (
        Option("passing", "rotate", "passing of 3 cards: rotate = left, right, across, hold by hand; "
               "rotate_across = left, across, right, hold (manzke2025); a fixed direction; or none "
               "(the seeds' experiments)", choices=tuple(CYCLES)),
        Option("target", 100, "the match ends when someone reaches this total; lowest total wins "
               "(0 = single hand)", type=int, min=0, max=1000),
        Option("moon", "others", "shooting the moon (all 26 points): every other player +26, or the shooter "
               "-26", choices=("others", "minus")),
        Option("queen_breaks_hearts", True, "playing the Q of spades also breaks hearts"),
        Option("jack_diamonds", False, "the J of diamonds counts -10 for the player who takes it"),
    )
    example_variants: ClassVar[tuple[dict[str, Any], ...]] = (
        {}, {"passing": "none", "target": 0}, {"moon": "minus", "jack_diamonds": True, "target": 50},
        {"queen_breaks_hearts": False, "passing": "across"}, {"passing": "rotate_across"},
        {"passing": "left"}, {"passing": "right"})

    def __init__(self, variant: dict[str, Any] | None = None) -> None:
        super().__init__(variant)
        self.card_points = [0] * 52
        for c in range(52):
            if self.suit_of[c] == HEARTS:
                self.card_points[c] = 1
        self.card_points[QUEEN_SPADES] = 13
        if self.variant["jack_diamonds"]:
            self.card_points[JACK_DIAMONDS] = -10
        self.queen_breaks = bool(self.variant["queen_breaks_hearts"])

    @property
    def num_players(self) -> int:
        return 4

    def state_class(self) -> type[HeartsState]:
        return HeartsState

    def pass_offset(self, hand_index: int) -> int:
        """Receiver offset for a hand (0 = no passing)."""
        cycle = CYCLES[self.variant["passing"]]
        return DIRECTIONS[cycle[hand_index % len(cycle)]]

    def new_hand(self, rng: random.Random, dealer: int = -1, hand_index: int = 0,
                 match_scores: list[float] | None = None) -> HeartsState:
        dealer = 3 if dealer < 0 else dealer
        cards = self.deal(rng)
        hands = [0] * 4
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            for c in cards[i * 13:(i + 1) * 13]:
                hands[seat] |= 1 << c
        return HeartsState(self, hands, dealer, self.pass_offset(hand_index))

    def lower_is_better(self) -> bool:
        return True

    def match_target(self) -> float | None:
        return self.variant["target"] or None


class HeartsState(TrickState):
    """A Hearts hand: passing phase (optional), then 13 tricks."""

    __slots__ = ("pass_offset", "passes_done", "pass_first", "passed", "hearts_broken", "excluded")
    _solver_ignores = ("excluded",)
    game: Hearts

    def __init__(self, game: Hearts, hands: list[int], dealer: int, pass_offset: int) -> None:
        super().__init__(game, hands, (dealer + 1) % 4, -1, dealer)
        self.pass_offset = pass_offset
        self.pass_first = (dealer + 1) % 4
        self.passes_done = 0
        self.passed = [0, 0, 0, 0]  # cards each seat passed (kept as a record after delivery)
        self.hearts_broken = False
        self.excluded = [0, 0, 0, 0]  # cards a seat publicly cannot hold (beyond suit voids)
        if pass_offset == 0:
            self._start_play()

    def _copy_extra(self, other: TrickState) -> None:
        other.pass_offset = self.pass_offset  # type: ignore[attr-defined]
        other.pass_first = self.pass_first  # type: ignore[attr-defined]
        other.passes_done = self.passes_done  # type: ignore[attr-defined]
        other.passed = self.passed[:]  # type: ignore[attr-defined]
        other.hearts_broken = self.hearts_broken  # type: ignore[attr-defined]
        other.excluded = self.excluded[:]  # type: ignore[attr-defined]

    def _start_play(self) -> None:
        bit = 1 << TWO_CLUBS
        for s in range(4):
            if self.hands[s] & bit:
                self.leader = self.current = s
                return
        # A masked observation state may not know who holds the 2 of clubs; keep the current seat.

    # --- phases -----------------------------------------------------------------------------------
    @property
    def passing(self) -> bool:
        """Whether the hand is in its passing phase."""
        return self.pass_offset != 0 and self.passes_done < 4 * PASS_CARDS

    def first_trick(self) -> bool:
        t = self.tricks_won
        return not (t[0] or t[1] or t[2] or t[3])

    def pass_target(self, seat: int) -> int:
        """The seat that receives ``seat``'s passed cards (== seat when holding)."""
        return (seat + self.pass_offset) % 4

    # --- rules ------------------------------------------------------------------------------------
    def legal_mask(self) -> int:
        hand = self.hands[self.current]
        trick = self.trick
        if trick:
            follow = hand & self.game.suit_masks[self.game.suit_of[trick[0]]]
            if follow:
                return follow
            if self.first_trick():
                safe = hand & ~POINT_MASK
                if safe:
                    return safe
            return hand
        if self.first_trick():
            lead = hand & 1 << TWO_CLUBS
            return lead or hand
        if not self.hearts_broken:
            safe = hand & ~HEART_MASK
            if safe:
                return safe
        return hand

    def legal_moves(self) -> list[int]:
        if self.pass_offset and self.passes_done < 4 * PASS_CARDS:
            return self.game.pass_tables.cards(self.hands[self.current])
        tables = self.game.tables
        trick = self.trick
        if trick:
            led = self.game.suit_of[trick[0]]
            follow = tables.suit_cards[led][self.hands[self.current] >> tables.shift[led] & tables.rank_mask]
            if follow:
                return list(follow)
        return tables.cards(self.legal_mask())  # empty when the hand is over

    def is_terminal(self) -> bool:
        h = self.hands
        return not (h[0] or h[1] or h[2] or h[3] or self.trick) and not self.passing

    def do(self, move: int) -> None:
        seat = self.current
        if move & PASS_FLAG:
            bit = 1 << (move ^ PASS_FLAG)
            self.hands[seat] &= ~bit
            self.passed[seat] |= bit
            self.history.append((seat, move))
            self.passes_done += 1
            if self.passes_done == 4 * PASS_CARDS:
                for s in range(4):
                    self.hands[(s + self.pass_offset) % 4] |= self.passed[s]
                self._start_play()
            elif self.passes_done % PASS_CARDS == 0:
                self.current = (seat + 1) % 4
            return
        g = self.game
        bit = 1 << move
        self.hands[seat] &= ~bit
        trick = self.trick
        suit = g.suit_of[move]
        if trick:
            led = g.suit_of[trick[0]]
            if suit != led:
                self.voids[seat] |= 1 << led
                if bit & POINT_MASK and self.first_trick():
                    self.excluded[seat] |= g.deck.full_mask & ~POINT_MASK  # had nothing else
        elif suit == HEARTS and not self.hearts_broken:
            self.excluded[seat] |= g.deck.full_mask & ~HEART_MASK  # led hearts unbroken: only hearts
        if suit == HEARTS or (move == QUEEN_SPADES and g.queen_breaks):
            self.hearts_broken = True
        trick.append(move)
        self.history.append((seat, move))
        if len(trick) == 4:
            self._finish_trick()
        else:
            self.current = (seat + 1) % 4

    def _random_passes(self, rng: random.Random, record: bool = True) -> None:
        """The passes still to make, uniformly random (one seat at a time), then the play starts; ``record``
        False leaves them out of the history (the search's scoring playouts)."""
        if not (self.pass_offset and self.passes_done < 4 * PASS_CARDS):
            return
        rand = rng.random
        hands = self.hands
        append = self.history.append
        passed = self.passed
        done = self.passes_done
        seat = self.current
        cards_of = self.game.tables.cards  # ascending, as the pass moves are listed
        while True:  # one seat at a time: its remaining passes, then the next seat
            held = cards_of(hands[seat])
            out = passed[seat]
            for _ in range(PASS_CARDS - done % PASS_CARDS):
                card = held.pop(int(rand() * len(held)))  # the k-th of the cards still held
                out |= 1 << card
                if record:
                    append((seat, card | PASS_FLAG))
            hands[seat] &= ~out
            passed[seat] = out
            done += PASS_CARDS - done % PASS_CARDS
            if done == 4 * PASS_CARDS:
                break
            seat = (seat + 1) % 4
        self.passes_done = done
        self.current = seat
        offset = self.pass_offset
        for s in range(4):
            hands[(s + offset) % 4] |= passed[s]
        self._start_play()

    def score_key(self) -> Any:
        """Each seat's hearts-and-queen penalty and whether it holds the J of diamonds: all the result takes
        from the captured cards (the solver's key)."""
        return tuple([(w & HEART_MASK).bit_count() + (13 if w >> QUEEN_SPADES & 1 else 0)
                      + (w >> JACK_DIAMONDS & 1) * 100 for w in self.won])

    def known_to(self, seat: int, observer: int) -> int:
        hand = self.hands[seat]
        if seat == observer:
            return hand
        known = 0
        if self.pass_offset and not self.passing and self.pass_target(observer) == seat:
            known = hand & self.passed[observer]  # cards the observer passed there, not yet played
        if not self.passing and self.first_trick() and not self.trick and seat == self.current:
            known |= hand & 1 << TWO_CLUBS  # everyone sees who must lead the 2 of clubs
        return known

    def hidden_allowed(self, seat: int, observer: int) -> int:
        return super().hidden_allowed(seat, observer) & ~self.excluded[seat]

    def mask_history(self, observer: int) -> list[tuple[int, int]]:
        return [(s, HIDDEN_MOVE) if m & PASS_FLAG and s != observer else (s, m) for s, m in self.history]

    def extra_slots(self, observer: int, masked: TrickState) -> list[tuple[HiddenSlot, int]]:
        if not self.passing:
            return []
        out = []
        full = self.game.deck.full_mask
        for s in range(4):
            if s != observer and self.passed[s]:
                out.append((HiddenSlot(f"pass{s}", s, popcount(self.passed[s]), full), self.passed[s]))
        return out

    def mask_private(self, observer: int, masked: TrickState) -> None:
        """Keep what the observer passed and, once delivered, what it received; hide other passes."""
        delivered = not self.passing
        masked.passed = [p if s == observer or (delivered and self.pass_target(s) == observer) else 0  # type: ignore[attr-defined]
                         for s, p in enumerate(self.passed)]

    def fill_hidden(self, slots: list[HiddenSlot], assignment: list[int], rng: random.Random,
                    orders: dict[int, list[int]] | None = None) -> None:
        """Hands and (during the passing phase) other seats' not-yet-delivered passes.

        After delivery the passes the observer neither made nor received stay empty in a sampled state:
        nothing in the rules depends on them, only what those seats would themselves know.
        """
        for slot, cards in zip(slots, assignment, strict=True):
            if slot.name.startswith("hand"):
                self.hands[slot.owner] |= cards
            elif slot.name.startswith("pass"):
                self.passed[slot.owner] |= cards
            else:
                raise ValueError(f"unknown hidden slot {slot.name!r} in hearts")

    # --- result -----------------------------------------------------------------------------------
    def penalty_taken(self, seat: int) -> int:
        """Hearts and Q of spades points in ``seat``'s tricks (without moon or jack adjustments)."""
        won = self.won[seat]
        return popcount(won & HEART_MASK) + (13 if won >> QUEEN_SPADES & 1 else 0)

    def result(self) -> HandResult:
        g = self.game
        taken = [self.penalty_taken(s) for s in range(4)]
        moon = taken.index(26) if 26 in taken else -1
        if moon < 0:
            points = list(taken)
        elif g.variant["moon"] == "others":
            points = [0 if s == moon else 26 for s in range(4)]
        else:
            points = [-26 if s == moon else 0 for s in range(4)]
        jack = -1
        if g.variant["jack_diamonds"]:
            for s in range(4):
                if self.won[s] >> JACK_DIAMONDS & 1:
                    jack = s
                    points[s] -= 10
        best = min(points)
        winners = [s for s in range(4) if points[s] == best]
        if len(winners) == 4:
            winners = []
        return HandResult(
            points=[float(p) for p in points], teams=[(0,), (1,), (2,), (3,)],
            team_points=[float(p) for p in points], winners=winners,
            breakdown={"penalty": taken, "points": points, "moon": None if moon < 0 else moon,
                       "moon_rule": g.variant["moon"], "jack_of_diamonds": None if jack < 0 else jack,
                       "queen_of_spades": next((s for s in range(4) if self.won[s] >> QUEEN_SPADES & 1), None),
                       "hearts": [popcount(self.won[s] & HEART_MASK) for s in range(4)],
                       "tricks": list(self.tricks_won),
                       "pass_direction": next(k for k, v in DIRECTIONS.items() if v == self.pass_offset)},
            lower_is_better=True)

    # --- notation and reasons ---------------------------------------------------------------------
    def explain(self, move: int) -> IllegalMove:
        d = self.game.deck
        if move < 0 or move >= 2 * PASS_FLAG:
            return IllegalMove("not_a_move", f"{move} is not a move of {self.game.name}", {"move": move})
        seat = self.current
        if self.passing:
            if not move & PASS_FLAG:
                example = bits(self.hands[seat])[0]
                return IllegalMove("pass_first", f"pass three cards first (e.g. 'pass {d.text(example)}')",
                                   {"n": 3, "card": example})
            card = move ^ PASS_FLAG
            if card >= d.size:
                return IllegalMove("not_a_move", f"{move} is not a card of the {d.name} deck", {"move": move})
            return IllegalMove("not_in_hand", f"{d.text(card)} is not in seat {seat}'s hand",
                               {"card": card, "seat": seat})
        if move & PASS_FLAG:
            return IllegalMove("no_pass_now", "no passing now" if self.pass_offset == 0 else "the passing is over")
        if not 0 <= move < d.size or not self.hands[seat] >> move & 1:
            return super().explain(move)
        hand = self.hands[seat]
        if self.trick:
            led = self.game.suit_of[self.trick[0]]
            if hand & self.game.suit_masks[led]:
                return IllegalMove("must_follow_suit", f"must follow suit: {d.suit_names[led]} was led", {"suit": led})
            return IllegalMove("no_points_first_trick",
                               f"no points on the first trick: {d.text(move)} may only be played with nothing else",
                               {"card": move})
        if self.first_trick():
            return IllegalMove("two_of_clubs_leads", "the 2 of clubs must lead the first trick",
                               {"card": d.parse("2C")})
        return IllegalMove("hearts_not_broken",
                           "hearts are not broken: lead another suit (hearts may be led only with nothing else)")

    def move_text(self, move: int) -> str:
        if move == HIDDEN_MOVE:
            return "pass (face down)"  # another seat's hidden move, as an observation records it
        return super().move_text(move)

    def describe_move(self, move: int) -> str:
        if move & PASS_FLAG:
            names = {1: "left", 2: "across", 3: "right"}
            return f"pass {self.game.deck.text(move ^ PASS_FLAG)} {names.get(self.pass_offset, '')}".rstrip()
        return self.move_text(move)

    # --- JSON -------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        deck = self.game.deck
        d.update(pass_offset=self.pass_offset, pass_first=self.pass_first, passes_done=self.passes_done,
                 passed=[deck.set_text(p) for p in self.passed], hearts_broken=self.hearts_broken,
                 excluded=list(self.excluded))
        return d

    @classmethod
    def from_dict(cls, game: Game, d: dict[str, Any]) -> HeartsState:
        state = object.__new__(cls)
        state.game = cast(Hearts, game)
        state._load_common(d)
        state.pass_offset = _int(d["pass_offset"], "pass_offset")
        state.pass_first = _int(d["pass_first"], "pass_first")
        state.passes_done = _int(d["passes_done"], "passes_done")
        try:
            state.passed = [game.deck.parse_set(p) for p in d["passed"]]
        except NotationError as e:
            raise StateFormatError(f"bad card in state: {e}") from None
        if not isinstance(d["hearts_broken"], bool):
            raise StateFormatError("hearts_broken must be true or false")
        state.hearts_broken = d["hearts_broken"]
        state.excluded = [_int(x, "excluded") for x in d["excluded"]]
        return state

    def extra_card_sets(self) -> list[int]:
        return list(self.passed) if self.passing else []

    def validate(self) -> None:
        super().validate()
        deck = self.game.deck
        if self.trump != -1:
            raise StateFormatError("Hearts has no trump (trump must be -1)")
        if self.pass_offset not in (0, 1, 2, 3) or not 0 <= self.pass_first < 4:
            raise StateFormatError("bad passing direction or first passer")
        if not 0 <= self.passes_done <= 12 or (self.pass_offset == 0 and self.passes_done):
            raise StateFormatError(f"bad number of passes {self.passes_done}")
        if len(self.passed) != 4 or len(self.excluded) != 4:
            raise StateFormatError("per-seat lists have the wrong length")
        everything = sum(self.hands) | sum(self.won) | sum(1 << c for c in self.trick)
        if self.passing:
            everything |= sum(self.passed)
            for s in range(4):
                done = min(max(self.passes_done - 3 * ((s - self.pass_first) % 4), 0), 3)
                if popcount(self.passed[s]) != done or popcount(self.hands[s]) != 13 - done:
                    raise StateFormatError(f"seat {s} has passed {popcount(self.passed[s])} cards; expected {done}")
            if self.current != (self.pass_first + self.passes_done // 3) % 4:
                raise StateFormatError("current seat does not match the passing order")
        else:
            if any(popcount(p) not in (0, 3) for p in self.passed):
                raise StateFormatError("every pass is three cards")
            if self.current != (self.leader + len(self.trick)) % 4:
                raise StateFormatError("current seat does not match the trick leader and trick length")
            played = set(self.trick_seats())
            base = popcount(self.hands[self.leader]) + (1 if self.trick else 0)
            for s in range(4):
                if popcount(self.hands[s]) != base - (s in played):
                    raise StateFormatError(f"seat {s} holds {popcount(self.hands[s])} cards; expected "
                                           f"{base - (s in played)}")
            if self.first_trick() and not self.trick and not self.hands[self.leader] >> TWO_CLUBS & 1 \
                    and self.hands[self.leader]:
                raise StateFormatError("the first leader must hold the 2 of clubs")
        if everything != deck.full_mask:
            raise StateFormatError(f"cards missing from the state: {deck.set_text(deck.full_mask & ~everything)}")
        if sum(popcount(w) for w in self.won) != 4 * sum(self.tricks_won):
            raise StateFormatError("captured cards do not match the number of tricks won")
        played_cards = passes = 0
        for seat, move in self.history:
            if not 0 <= seat < 4:
                raise StateFormatError(f"history seat {seat} out of range")
            if move == HIDDEN_MOVE:  # another seat's pass, as a sampled observation state records it
                passes += 1
                continue
            card = move ^ PASS_FLAG if move >= 0 and move & PASS_FLAG else move
            if not 0 <= card < deck.size:
                raise StateFormatError(f"bad move {move} in the history")
            if move & PASS_FLAG:
                if not self.passed[seat] >> card & 1:
                    raise StateFormatError(f"history passes {deck.text(card)} but seat {seat} did not pass it")
                passes += 1
            elif played_cards >> card & 1:
                raise StateFormatError(f"history plays {deck.text(card)} twice")
            else:
                played_cards |= 1 << card
        if passes != self.passes_done or played_cards != sum(self.won) | sum(1 << c for c in self.trick):
            raise StateFormatError("the history does not match the passes and cards played_cards")

    # --- the table API (engine/game.py) ------------------------------------------------------------
    illegal_codes: ClassVar[frozenset[str]] = TrickState.illegal_codes | {
        "pass_first", "no_points_first_trick", "two_of_clubs_leads", "hearts_not_broken"}

    def received_pass(self, seat: int) -> tuple[int, tuple[int, ...]] | None:
        if self.pass_offset == 0 or self.passing or not 0 <= seat < 4:
            return None
        passer = (seat - self.pass_offset) % 4
        return passer, tuple(bits(self.passed[passer]))

    def running_points(self) -> list[float] | None:
        """Penalty points taken so far (hearts and the queen of spades; the jack of diamonds' -10 with that
        variant); the moon is only settled at the end of the hand."""
        jack = self.game.variant["jack_diamonds"]
        return [float(self.penalty_taken(s) - (10 if jack and self.won[s] >> JACK_DIAMONDS & 1 else 0))
                for s in range(4)]

    # --- the table API: seats (engine/game.py) -------------------------------------------------------
    def passes_to(self, seat: int) -> int | None:
        return self.pass_target(seat) if self.passing and 0 <= seat < 4 else None
