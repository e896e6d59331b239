"""Words for what happens at the table, in the player's language (no drawing): card names for the deck in use,
moves as phrases and sentences, the action log's entries, and the engine's illegal-move reasons translated.

Everything is read through the engine's public API (``GameState.move_cards``, ``is_pass_move``, ``move_text``)
and the registry's table kind; a game is never named here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app import moves as movelib
from app.i18n import t
from engine import registry
from engine.cards import Deck
from engine.game import GameState

ROMAN = {"7": "VII", "8": "VIII", "9": "IX", "X": "X"}
"""German-suited cards print their numbers in Roman numerals, and a player names them so."""


def card_name(deck: Deck, card: int) -> str:
    """A card's name in the current language ("Queen of Spades", "Donna di Picche", "7 of Coins", "VII of
    Leaves")."""
    symbol = deck.ranks[deck.rank_of(card)]
    if "Leaves" in deck.suit_names and symbol in ROMAN:
        rank = ROMAN[symbol]
    else:
        rank = symbol if symbol.isdigit() else t(deck.rank_names[deck.rank_of(card)])
    return t("{rank} of {suit}", rank=rank, suit=t(deck.suit_names[deck.suit_of(card)]))


def cards_text(deck: Deck, cards: Sequence[int]) -> str:
    """Several card names joined with " + "."""
    return " + ".join(card_name(deck, c) for c in cards)


def suit_name(deck: Deck, suit: int) -> str:
    """A suit's name in the current language."""
    return t(deck.suit_names[suit])


def table_kind(state: GameState) -> str:
    """The registry's table kind of the state's game ("" when the game is not registered)."""
    try:
        return registry.entry(state.game.name).table
    except registry.RegistryError:
        return ""


def hand_size(state: GameState, seat: int) -> int:
    """Cards in ``seat``'s hand (0 when the state does not show hands)."""
    hands = getattr(state, "hands", None)
    if hands is None or not 0 <= seat < len(hands):
        return 0
    hand = hands[seat]
    return hand.bit_count() if isinstance(hand, int) else len(hand)


@dataclass(frozen=True)
class LogEntry:
    """One line of the action log, kept without words so it reads in whatever language is current.

    ``kind``: ``play``, ``lay`` (a card laid on the table), ``capture`` (``cards[0]`` takes ``cards[1:]``),
    ``pass``/``discard`` (cards shown only to the seat that passed them), ``draw`` (``count`` cards), ``skip``,
    ``swap`` (the trump card exchanged), ``trick`` (``seat`` won the trick), ``other`` (``notation``).
    """

    seat: int
    kind: str
    cards: tuple[int, ...] = ()
    suit: int | None = None
    count: int = 0
    notation: str = ""


def log_entry(before: GameState, move: int, after: GameState | None = None) -> LogEntry:
    """The log entry of ``move`` played in ``before`` (``after``: the state once it was played, to count the
    cards a draw took; one without it)."""
    seat = before.current_player
    try:
        notation = before.move_text(move)
    except Exception:  # noqa: BLE001 - an odd move still gets a line
        notation = str(move)
    cards = tuple(before.move_cards(move))
    if before.is_pass_move(move):
        return LogEntry(seat, "discard" if notation.startswith("discard") else "pass", cards)
    if not cards:
        word = notation.split(" ")[0].lower()
        if word == "draw":
            drawn = hand_size(after, seat) - hand_size(before, seat) if after is not None else 0
            return LogEntry(seat, "draw", count=max(1, drawn))
        if word in ("skip", "pass"):
            return LogEntry(seat, "skip")
        if word in ("swap", "exchange"):
            return LogEntry(seat, "swap")
        return LogEntry(seat, "other", notation=notation)
    if table_kind(before) == "capture":
        return LogEntry(seat, "capture" if len(cards) > 1 else "lay", cards)
    return LogEntry(seat, "play", cards, movelib.named_suit(before, move))


def entry_text(entry: LogEntry, deck: Deck, names: Sequence[str], viewer: int | None) -> str:
    """The log entry as a sentence ("Bruno plays 7 of Leaves", "Ana wins the trick"); passed and discarded
    cards are named only for the seat that passed them (``viewer``)."""
    name = names[entry.seat] if 0 <= entry.seat < len(names) else str(entry.seat + 1)
    kind = entry.kind
    if kind in ("pass", "discard"):
        if entry.seat == viewer:
            shown = cards_text(deck, entry.cards)
            return t("{name} discards {cards}", name=name, cards=shown) if kind == "discard" else \
                t("{name} passes {cards}", name=name, cards=shown)
        n = len(entry.cards) or 1
        return t("{name} discards {n} cards", name=name, n=n) if kind == "discard" else \
            t("{name} passes {n} cards", name=name, n=n)
    if kind == "capture":
        return t("{name} plays {card} and takes {cards}", name=name, card=card_name(deck, entry.cards[0]),
                 cards=cards_text(deck, entry.cards[1:]))
    if kind == "lay":
        return t("{name} lays {card} on the table", name=name, card=card_name(deck, entry.cards[0]))
    if kind == "play":
        text = t("{name} plays {cards}", name=name, cards=cards_text(deck, entry.cards))
        if entry.suit is not None:
            text += " → " + suit_name(deck, entry.suit)
        return text
    if kind == "draw":
        return t("{name} draws a card", name=name) if entry.count == 1 else \
            t("{name} draws {n} cards", name=name, n=entry.count)
    if kind == "skip":
        return t("{name} skips the turn", name=name)
    if kind == "swap":
        return t("{name} exchanges the trump card", name=name)
    if kind == "trick":
        return t("{name} wins the trick", name=name)
    return f"{name}: {t(entry.notation)}"


def move_phrase(state: GameState, move: int) -> str:
    """What a move does, for a hint or a button ("Queen of Spades", "7 of Coins, taking 3 of Cups")."""
    deck = state.game.deck
    entry = log_entry(state, move)
    if entry.kind == "capture":
        return t("{card}, taking {cards}", card=card_name(deck, entry.cards[0]),
                 cards=cards_text(deck, entry.cards[1:]))
    if entry.kind in ("play", "lay", "pass", "discard"):
        text = cards_text(deck, entry.cards)
        if entry.suit is not None:
            text += " → " + suit_name(deck, entry.suit)
        return text
    if entry.kind == "draw":
        return t("draw a card")
    if entry.kind == "skip":
        return t("skip the turn")
    if entry.kind == "swap":
        return t("exchange the trump card")
    return t(entry.notation)


def hint_text(state: GameState, moves: Sequence[int]) -> str:
    """The hint notice: every card it names in the player's language ("Hint: pass 2 of Clubs + ...")."""
    if moves and all(state.is_pass_move(m) for m in moves):
        deck = state.game.deck
        cards = [c for m in moves for c in state.move_cards(m)]
        shown = cards_text(deck, cards)
        if log_entry(state, moves[0]).kind == "discard":
            return t("Hint: discard {cards}", cards=shown)
        return t("Hint: pass {cards}", cards=shown)
    return t("Hint: {move}", move=move_phrase(state, moves[0])) if moves else ""


# --- the engine's illegal-move reasons ----------------------------------------------------------------------
_Fields = dict[str, str]


def _suit(deck: Deck, english: str) -> str:
    return t(english) if english in deck.suit_names else english


def _card(deck: Deck, code: str) -> str:
    try:
        return card_name(deck, deck.parse(code))
    except Exception:  # noqa: BLE001 - not a card of this deck: keep the text
        return code


REASONS: tuple[tuple[re.Pattern[str], str, Callable[[Deck, _Fields, int | None], dict[str, Any]]], ...] = tuple(
    (re.compile(pattern), template, fields) for pattern, template, fields in (
        (r"must follow suit: (?P<suit>.+) was led$", "you must follow suit: {suit} was led",
         lambda d, f, c: {"suit": _suit(d, f["suit"])}),
        (r"must follow suit once the stock is empty: (?P<suit>.+) was led$",
         "the stock is empty, so you must follow suit: {suit} was led", lambda d, f, c: {"suit": _suit(d, f["suit"])}),
        (r"no points on the first trick: (?P<card>\S+) may only be played with nothing else$",
         "no points on the first trick: {card} only when you hold nothing else",
         lambda d, f, c: {"card": _card(d, f["card"])}),
        (r"the 2 of clubs must lead the first trick$", "the 2 of Clubs leads the first trick", lambda d, f, c: {}),
        (r"hearts are not broken", "Hearts are not broken yet: lead another suit", lambda d, f, c: {}),
        (r"pass three cards first", "pass three cards first", lambda d, f, c: {}),
        (r"^(?P<card>\S+) may not be played now$", "{card} may not be played now",
         lambda d, f, c: {"card": _card(d, f["card"])}),
        (r"an Ace is pending", "an Ace is pending: play an Ace or the Pharaoh, or skip the turn", lambda d, f, c: {}),
        (r"a VII is pending: .* draw (?P<n>\d+)$", "a VII is pending: play a VII or the Pharaoh, or draw {n}",
         lambda d, f, c: {"n": f["n"]}),
        (r"the stock is empty: skip$", "the stock is empty: skip the turn", lambda d, f, c: {}),
        (r"there is no card left to draw$", "there is no card left to draw", lambda d, f, c: {}),
        (r"the stock is not empty: play or draw$", "the stock is not empty: play or draw", lambda d, f, c: {}),
        (r"cards played together must have the same rank$", "cards played together must have the same rank",
         lambda d, f, c: {}),
        (r"the named suit is (?P<suit>\w+): ", "the named suit is {suit}: play {suit}, an Ober or the Pharaoh",
         lambda d, f, c: {"suit": _suit(d, f["suit"])}),
        (r"^the top card is .*: (?:the first card must be|play) (?P<suit>\w+)",
         "play {suit} or the same rank as the top card",
         lambda d, f, c: {"suit": _suit(d, f["suit"])}),
        (r"can capture \(e\.g\. .*\): a card that can capture may not be laid$",
         "{card} can capture, so it may not be laid on the table", lambda d, f, c: {"card": _optional_card(d, c)}),
        (r"an Ace on the table must be taken by", "an Ace on the table must be taken by an Ace, alone",
         lambda d, f, c: {}),
        (r"sweeps the whole table", "this card sweeps the whole table", lambda d, f, c: {}),
        (r"must take a single card of equal value", "{card} must take a single card of equal value first",
         lambda d, f, c: {"card": _optional_card(d, c)}),
        (r"must capture with the fewest cards", "{card} must capture with the fewest cards",
         lambda d, f, c: {"card": _optional_card(d, c)}),
        (r"^the hand is over$", "the hand is over", lambda d, f, c: {}),
        (r"^it is not your turn$", "it is not your turn", lambda d, f, c: {}),
        (r"is not in seat \d+'s hand$", "that card is not in your hand", lambda d, f, c: {}),
        (r"this is not the time to pass or discard a card$", "this is not the time to pass or discard a card",
         lambda d, f, c: {}),
    ))
"""The engine's English reasons (``GameState.illegal_reason``) read as patterns: each gives a translated
template and its fields (suits and cards named in the player's language)."""


def _optional_card(deck: Deck, card: int | None) -> str:
    return card_name(deck, card) if card is not None else t("this card")


def reason_text(reason: str, deck: Deck, card: int | None = None) -> str:
    """The engine's reason for an illegal move in the player's language (``card``: the card the player tried);
    a reason no pattern knows is shown as the engine wrote it."""
    for pattern, template, fields in REASONS:
        found = pattern.search(reason)
        if found:
            return t(template, **fields(deck, found.groupdict(), card))
    return reason


def card_reason(state: GameState, card: int) -> tuple[str | None, str]:
    """Why ``card`` cannot be played now: the engine's reason and the player's words for it ((None, "") when it
    can be played). A card whose play must also name a suit (``>S`` in the notation) is asked about with the
    first suit, so that the reason is about the card, not the missing suit."""
    deck = state.game.deck
    reason: str | None = None
    for text in (deck.text(card), f"{deck.text(card)}>{deck.suits[0]}"):
        try:
            reason = state.illegal_reason(state.parse_move(text))
        except Exception:  # noqa: BLE001 - not a move in this notation
            continue
        if reason is None or "name a suit" not in reason:
            break
    if reason is None:
        return None, ""
    return reason, reason_text(reason, deck, card)
