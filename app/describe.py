"""Words for what happens at the table, in the player's language (no drawing): card names for the deck in use,
moves as phrases and sentences, the action log's entries, and the engine's illegal-move reasons translated.

Everything is read through the engine's public API (``GameState.move_cards``, ``is_pass_move``, ``move_text``)
and the registry's table kind; a game is never named here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app import moves as movelib
from app.i18n import LANGUAGES, load_table, t
from engine import registry
from engine.cards import Deck
from engine.game import GameState, IllegalMove

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


def _in(lang: str, text: str) -> str:
    return text if lang == "en" else load_table(lang).get(text, text)


def seat_name(label: str) -> str:
    """A seat's name in the current language: the default names ("You", "Player 2"), stored in the language the
    game started in, follow the current language; any other name is shown as written."""
    for lang in LANGUAGES:
        if label == _in(lang, "You"):
            return t("You")
        player = _in(lang, "Player") + " "
        if label.startswith(player) and label[len(player):].isdigit():
            return f"{t('Player')} {label[len(player):]}"
    return label


def winners_line(labels: Sequence[str]) -> str:
    """The match's result in words from its winners' seat labels: "Winner: Ana", "Winners: Ana & Carla", or a draw
    when there are none."""
    names = [seat_name(label) for label in labels]
    if len(names) == 1:
        return t("Winner: {name}", name=names[0])
    if names:
        return t("Winners: {names}", names=" & ".join(names))
    return t("The match is drawn.")


def table_kind(state: GameState) -> str:
    """The registry's table kind of the state's game ("" when the game is not registered)."""
    try:
        return registry.entry(state.game.name).table
    except registry.RegistryError:
        return ""


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
    points: float | None = None
    """``trick``: the points the trick brought its winner's side (``GameState.running_points``), when the game
    counts points during the hand."""


def log_entry(before: GameState, move: int, after: GameState | None = None) -> LogEntry:
    """The log entry of ``move`` played in ``before`` (a draw counts its cards with ``GameState.draw_count``;
    ``after``, the state once it was played, counts them for a game without it)."""
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
            drawn = before.draw_count(move)
            if not drawn and after is not None:
                drawn = after.hand_size(seat) - before.hand_size(seat)
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
        if n == 1:
            return t("{name} discards a card", name=name) if kind == "discard" else t("{name} passes a card", name=name)
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
        if entry.points is None:
            return t("{name} wins the trick", name=name)
        if entry.points == 1:
            return t("{name} wins the trick: 1 point", name=name)
        return t("{name} wins the trick: {n} points", name=name, n=f"{entry.points:g}")
    return f"{name}: {t(entry.notation)}"


def trick_entry(trick_before: Any, points_before: list[float] | None, after: GameState) -> LogEntry | None:
    """The ``trick`` entry when the move that led from ``trick_before`` (``last_trick()`` before it) and
    ``points_before`` (``running_points()`` before it) to ``after`` completed a trick, else None."""
    trick = after.last_trick()
    if trick is None or trick == trick_before:
        return None
    winner = trick[0]
    points = after.running_points()
    gained = None if points is None or points_before is None else points[winner] - points_before[winner]
    return LogEntry(winner, "trick", points=gained)


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
_Builder = Callable[[Deck, dict[str, Any], int | None], dict[str, Any]]


def _suit_of(deck: Deck, fields: dict[str, Any], card: int | None) -> dict[str, Any]:
    suit = fields.get("suit")
    return {"suit": suit_name(deck, suit) if isinstance(suit, int) and 0 <= suit < len(deck.suits) else "?"}


def _card_of(deck: Deck, fields: dict[str, Any], card: int | None) -> dict[str, Any]:
    named = fields.get("card", card)
    return {"card": _optional_card(deck, named if isinstance(named, int) else None)}


def _tried_card(deck: Deck, fields: dict[str, Any], card: int | None) -> dict[str, Any]:
    return {"card": _optional_card(deck, card if card is not None else fields.get("card"))}


def _none(deck: Deck, fields: dict[str, Any], card: int | None) -> dict[str, Any]:
    return {}


def _count(deck: Deck, fields: dict[str, Any], card: int | None) -> dict[str, Any]:
    return {"n": fields.get("n", "?")}


def _sum(deck: Deck, fields: dict[str, Any], card: int | None) -> dict[str, Any]:
    return {**_card_of(deck, fields, card), "cards": cards_text(deck, fields.get("cards", ())),
            "total": fields.get("total", "?"), "value": fields.get("value", "?")}


REASON_TEMPLATES: dict[str, tuple[str, _Builder]] = {
    "hand_over": ("the hand is over", _none),
    "not_your_turn": ("it is not your turn", _none),
    "not_a_move": ("that is not a move of this game", _none),
    "not_legal": ("that move is not allowed now", _none),
    "not_in_hand": ("that card is not in your hand", _none),
    "no_pass_now": ("this is not the time to pass or discard a card", _none),
    "must_follow_suit": ("you must follow suit: {suit} was led", _suit_of),
    "must_follow_suit_stock_empty": ("the stock is empty, so you must follow suit: {suit} was led", _suit_of),
    "not_now": ("{card} may not be played now", _card_of),
    "pass_first": ("pass three cards first", _none),
    "no_points_first_trick": ("no points on the first trick: {card} only when you hold nothing else", _card_of),
    "two_of_clubs_leads": ("the 2 of Clubs leads the first trick", _none),
    "hearts_not_broken": ("Hearts are not broken yet: lead another suit", _none),
    "discard_first": ("the leader discards {n} more cards first", _count),
    "discards_done": ("the discards are done: play a card to the trick", _none),
    "exchange_off": ("the trump card is not exchanged in this game", _none),
    "exchange_stock_empty": ("the stock is empty: the trump card can no longer be exchanged", _none),
    "exchange_only": ("only the {card} may be exchanged for the trump card", _card_of),
    "ace_pending": ("an Ace is pending: play an Ace or the Pharaoh, or skip the turn", _none),
    "seven_pending": ("a VII is pending: play a VII or the Pharaoh, or draw {n}", _count),
    "stock_empty_skip": ("the stock is empty: skip the turn", _none),
    "nothing_to_draw": ("there is no card left to draw", _none),
    "stock_not_empty": ("the stock is not empty: play or draw", _none),
    "skip_when_stuck": ("you may only skip when you can neither play nor draw", _none),
    "same_rank": ("cards played together must have the same rank", _none),
    "name_a_suit": ("an Ober must name a suit", _none),
    "only_ober_names": ("only an Ober names a suit", _none),
    "named_suit": ("the named suit is {suit}: play {suit}, an Ober or the Pharaoh", _suit_of),
    "follow_top": ("play {suit} or the same rank as the top card", _suit_of),
    "not_on_table": ("those cards are not on the table", _none),
    "captures_nothing": ("{card} captures nothing here, so it is laid on the table", _tried_card),
    "must_capture": ("{card} can capture, so it may not be laid on the table", _tried_card),
    "ace_takes_ace": ("an Ace on the table must be taken by an Ace, alone", _none),
    "ace_sweeps": ("this card sweeps the whole table", _none),
    "sum_not_15": ("{card} and {cards} sum to {total}, not 15", _sum),
    "equal_first": ("{card} must take a single card of equal value first", _tried_card),
    "wrong_sum": ("{cards} sum to {total}, not {value}", _sum),
    "fewest_cards": ("{card} must capture with the fewest cards", _tried_card),
}
"""Each code of ``GameState.illegal_move`` (engine/game.py ``IllegalMove``) as an English template (the key of
``assets/i18n``) and the builder of its fields: suits and cards named in the player's language."""

NOT_YOUR_TURN = IllegalMove("not_your_turn", "it is not your turn")
"""The app's own reason, in the engine's form."""


def _optional_card(deck: Deck, card: int | None) -> str:
    return card_name(deck, card) if card is not None and 0 <= card < deck.size else t("this card")


def reason_text(reason: IllegalMove, deck: Deck, card: int | None = None) -> str:
    """An illegal move's reason in the player's language (``card``: the card the player tried); a code the app
    does not know is shown in the engine's English."""
    known = REASON_TEMPLATES.get(reason.code)
    if known is None:
        return reason.text
    template, build = known
    return t(template, **build(deck, dict(reason.fields), card))


def card_reason(state: GameState, card: int) -> tuple[IllegalMove | None, str]:
    """Why ``card`` cannot be played now: the engine's reason and the player's words for it ((None, "") when it
    can be played). A card whose play must also name a suit is asked about again with the first suit named, so
    that the reason is about the card, not the missing suit."""
    deck = state.game.deck
    reason: IllegalMove | None = None
    for text in (deck.text(card), f"{deck.text(card)}>{deck.suits[0]}"):
        try:
            reason = state.illegal_move(state.parse_move(text))
        except Exception:  # noqa: BLE001 - not a move in this notation
            continue
        if reason is None or reason.code != "name_a_suit":
            break
    if reason is None:
        return None, ""
    return reason, reason_text(reason, deck, card)
