"""Hand summaries a player can read: one builder per game family turns ``HandResult.breakdown`` into rows.

No drawing here (``app/screens/summary.py`` draws the rows). A row has a label and either one cell per column
(team or player) or no cells (a section heading, or a note line spanning the panel). A cell is a tuple of
parts: text, or :class:`Suit` (the deck's suit symbol, drawn as the card art's pip). Every label goes through
``app.i18n.t`` with a literal English text, so ``tests/test_app.py`` checks its translations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.i18n import language, option_value, t
from engine import registry


@dataclass(frozen=True)
class Suit:
    """A suit symbol inside a cell (``index`` into the game's deck suits)."""

    index: int


Part = str | Suit
Cell = tuple[Part, ...]


@dataclass(frozen=True)
class Row:
    """One line of the summary: ``style`` is "row", "section" (a heading), "total" (bold) or "note"."""

    label: str
    cells: tuple[Cell, ...] = ()
    style: str = "row"


@dataclass(frozen=True)
class Context:
    """What the builders need besides the breakdown."""

    game: Any
    teams: list[tuple[int, ...]]
    seat_names: list[str]
    team_points: list[float]

    @property
    def team_names(self) -> list[str]:
        """" & "-joined seat names per team (column)."""
        return [" & ".join(self.name(s) for s in team) for team in self.teams]

    def name(self, seat: Any) -> str:
        """A seat's display name (its number when the names are unknown)."""
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return str(seat)

    def team_of_seat(self, seat: int) -> int:
        """The column of ``seat``."""
        return next((i for i, team in enumerate(self.teams) if seat in team), 0)


def number(value: Any) -> str:
    """A number as a player reads it (no trailing ".0")."""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def cells(values: list[Any], fmt: Callable[[Any], str] = number) -> tuple[Cell, ...]:
    """One text cell per value."""
    return tuple((fmt(v),) for v in values)


def yes_no(value: Any) -> str:
    """A translated yes/no."""
    return t("yes") if value else t("no")


def cell_text(cell: Cell, suit_names: tuple[str, ...] = ()) -> str:
    """Plain text of a cell (suit symbols become the translated suit name's initial)."""
    out = []
    for part in cell:
        if isinstance(part, Suit):
            name = t(suit_names[part.index]) if part.index < len(suit_names) else "?"
            out.append(name[:1])
        else:
            out.append(part)
    return "".join(out)


def row_texts(rows: list[Row], suit_names: tuple[str, ...] = ()) -> list[str]:
    """Every text of ``rows`` (labels and cells), for tests and accessibility."""
    out: list[str] = []
    for row in rows:
        out.append(row.label)
        out += [cell_text(c, suit_names) for c in row.cells]
    return out


# --- per-game builders ---------------------------------------------------------------------------------------
def card_parts(game: Any, card_text: str) -> Cell:
    """A card given in notation ("TC") as rank + suit symbol ("10" + clubs)."""
    deck = game.deck
    try:
        card = deck.parse(card_text)
    except Exception:  # noqa: BLE001 - show the notation when it is not a card of this deck
        return (card_text,)
    rank = deck.ranks[deck.rank_of(card)]
    rank = {"T": "10", "X": "10"}.get(rank, rank)
    return (rank, Suit(deck.suit_of(card)))


def card_points_rows(b: dict[str, Any], ctx: Context) -> list[Row]:
    """Sueca and Bisca/Briscola: card points (of 120), game points, tricks, trump; capote/bandeira named."""
    rows: list[Row] = []
    card_points = list(b.get("card_points", []))
    shows_game_points = ctx.game.variant.get("match", "points4") == "points4"  # a game without match modes
    if len(card_points) == len(ctx.teams):
        rows.append(Row(t("Card points (of 120)"), cells(card_points)))
    if "tricks" in b and len(b["tricks"]) == len(ctx.teams):
        rows.append(Row(t("Tricks won"), cells(b["tricks"])))
    if shows_game_points and len(b.get("game_points", [])) == len(ctx.teams):
        rows.append(Row(t("Game points"), cells(b["game_points"]), "total"))
    if "trump" in b:
        trump = t("Trump: {suit}", suit=t(str(b["trump"])))
        if b.get("trump_card"):
            trump += " · " + t("turned up: {card}", card=card_name(ctx.game, str(b["trump_card"])))
        rows.append(Row(trump, style="note"))
    for i, points in enumerate(card_points):
        team = ctx.team_names[i] if i < len(ctx.teams) else "?"
        if points >= 120:
            rows.append(Row(t("Bandeira! {names} took all 120 card points.", names=team), style="note"))
        elif points >= 91:
            rows.append(Row(t("Capote! {names} took 91 card points or more.", names=team), style="note"))
    if len(card_points) == 2 and card_points[0] == card_points[1]:
        rows.append(Row(t("60 - 60: a draw, nobody scores."), style="note"))
    return rows


def card_name(game: Any, card_text: str) -> str:
    """A card's translated full name ("Seven of Coins")."""
    deck = game.deck
    try:
        card = deck.parse(card_text)
    except Exception:  # noqa: BLE001
        return card_text
    return t("{rank} of {suit}", rank=t(deck.rank_names[deck.rank_of(card)]),
             suit=t(deck.suit_names[deck.suit_of(card)]))


def capture_rows(b: dict[str, Any], ctx: Context) -> list[Row]:
    """Scopone/Scopa: what each side took, the points per category and the hand total."""
    variant = ctx.game.variant
    rows: list[Row] = []
    prim = b.get("primiera", [[0, 0, 0, 0], [0, 0, 0, 0]])
    prim_total = b.get("primiera_total", [sum(p) for p in prim])

    def primiera_cell(side: int) -> Cell:
        parts: list[Part] = []
        for suit, value in enumerate(prim[side]):
            if parts:
                parts.append("  ")
            parts += [Suit(suit), str(value) if value else "–"]
        parts.append(f"  = {prim_total[side]}")
        return tuple(parts)

    rows.append(Row(t("Taken in the hand"), style="section"))
    rows.append(Row(t("Cards"), cells(b.get("cards", [0, 0]))))
    rows.append(Row(t("Coins"), cells(b.get("coins", [0, 0]))))
    rows.append(Row(t("Settebello (7 of Coins)"), cells(b.get("settebello", [False, False]), yes_no)))
    rows.append(Row(t("Primiera (best card per suit)"), (primiera_cell(0), primiera_cell(1))))
    rows.append(Row(t("Scope (sweeps)"), cells(b.get("scope", [0, 0]))))
    if variant.get("napola"):
        rows.append(Row(t("Napola (run of Coins from the Ace)"),
                        cells(b.get("napola", [0, 0]), lambda v: str(v) if v else "–")))
    if variant.get("re_bello"):
        rows.append(Row(t("Re bello (King of Coins)"), cells(b.get("re_bello", [False, False]), yes_no)))
    points: dict[str, list[int]] = b.get("points", {})
    labels = {"cards": t("Cards"), "coins": t("Coins"), "settebello": t("Settebello"),
              "primiera": t("Primiera"), "scope": t("Scope"), "napola": t("Napola"), "re_bello": t("Re bello")}
    rows.append(Row(t("Points"), style="section"))
    for key, values in points.items():
        rows.append(Row(labels.get(key, humanise(key)), cells(values)))
    rows.append(Row(t("Hand total"), cells(b.get("total", ctx.team_points)), "total"))
    complete = b.get("primiera_complete", [True, True])
    if not all(complete):
        rows.append(Row(t("Primiera needs a card of every suit: a side without one cannot win it."),
                        style="note"))
    if variant.get("scopa_a_perdere"):
        rows.append(Row(t("Scopa a perdere: the lower score wins."), style="note"))
    if len(ctx.teams) == 2 and "hand_team" in b and "deck_team" in b:
        hand, deck = int(b["hand_team"]), int(b["deck_team"])
        if 0 <= hand < 2 and 0 <= deck < 2:
            names, dealer = ctx.team_names[hand], ctx.team_names[deck]
            if all(len(team) == 1 for team in ctx.teams):  # Scopa: players, not teams
                line = t("Played first: {names} · dealt: {deck}", names=names, deck=dealer)
            else:
                line = t("Played first (hand team): {names} · dealt (deck team): {deck}", names=names, deck=dealer)
            rows.append(Row(line, style="note"))
    return rows


def penalty_rows(b: dict[str, Any], ctx: Context) -> list[Row]:
    """Hearts: penalty cards taken, the hand's score per player, shooting the moon."""
    n = len(ctx.teams)
    rows: list[Row] = []
    if len(b.get("hearts", [])) == n:
        rows.append(Row(t("Hearts taken"), cells(b["hearts"])))
    queen = b.get("queen_of_spades")
    rows.append(Row(t("Queen of Spades (13)"), tuple(("Q", Suit(3)) if queen == s else ("",) for s in range(n))))
    jack = b.get("jack_of_diamonds")
    if ctx.game.variant.get("jack_diamonds"):
        rows.append(Row(t("Jack of Diamonds (-10)"), tuple(("J", Suit(1)) if jack == s else ("",) for s in range(n))))
    if len(b.get("tricks", [])) == n:
        rows.append(Row(t("Tricks won"), cells(b["tricks"])))
    if len(b.get("penalty", [])) == n:
        rows.append(Row(t("Penalty points taken"), cells(b["penalty"])))
    rows.append(Row(t("Hand score (lower is better)"), cells(b.get("points", ctx.team_points)), "total"))
    moon = b.get("moon")
    if isinstance(moon, int) and not isinstance(moon, bool):
        rows.append(Row(t("{name} shot the moon!", name=ctx.name(moon)), style="note"))
        if b.get("moon_rule") == "minus":
            rows.append(Row(t("{name} scores -26 instead of +26.", name=ctx.name(moon)), style="note"))
        else:
            rows.append(Row(t("Everyone else scores 26."), style="note"))
    direction = b.get("pass_direction")
    if direction and direction != "none":
        rows.append(Row(t("Cards were passed: {direction}", direction=option_value(direction)), style="note"))
    elif direction == "none":
        rows.append(Row(t("No passing this hand"), style="note"))
    return rows


def whist_rows(b: dict[str, Any], ctx: Context) -> list[Row]:
    """Moss Side Whist: tricks, the target (8 for the leader, 4 for the others) and the score."""
    n = len(ctx.teams)
    lead = b.get("leader")
    rows: list[Row] = []
    rows.append(Row(t("Role"), tuple((t("Leader ★") if s == lead else t("Opponent"),) for s in range(n))))
    if len(b.get("tricks", [])) == n:
        rows.append(Row(t("Tricks won"), cells(b["tricks"])))
    rows.append(Row(t("Tricks needed"), tuple(("8" if s == lead else "4",) for s in range(n))))
    rows.append(Row(t("Score (tricks minus tricks needed)"), cells(b.get("points", ctx.team_points)), "total"))
    if isinstance(lead, int):
        rows.append(Row(t("★ {name} led this hand.", name=ctx.name(lead)), style="note"))
    discards = str(b.get("discards", "")).split()
    if discards:
        parts: list[Part] = []
        for card in discards:
            if parts:
                parts.append("  ")
            parts += list(card_parts(ctx.game, card))
        rows.append(Row(t("The leader's discards"), (tuple(parts),)))
    return rows


def ordinal(n: int) -> str:
    """A place as the language writes it: 1st, 2nd (English), 1.º (Portuguese), 1° (Italian), 1. (Slovak)."""
    if language() == "en":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return t("{n}.", n=n)


def shedding_rows(b: dict[str, Any], ctx: Context) -> list[Row]:
    """Pharaoh: place, cards left and the points (places scoring) or penalty (penalty scoring)."""
    n = len(ctx.teams)
    rows: list[Row] = []
    place_of = b.get("place_of", [])
    if len(place_of) == n:
        rows.append(Row(t("Place"), cells(place_of, ordinal)))
    if len(b.get("cards_left", [])) == n:
        rows.append(Row(t("Cards left"), cells(b["cards_left"])))
    penalty_scoring = ctx.game.variant.get("scoring") == "penalty"
    if penalty_scoring:
        rows.append(Row(t("Penalty (value of the cards left)"), cells(b.get("penalty", ctx.team_points)), "total"))
    else:
        rows.append(Row(t("Place points"), cells(ctx.team_points), "total"))
    order = b.get("places", [])
    if order:
        rows.append(Row(t("Order: {names}", names=", ".join(f"{i + 1}. {ctx.name(s)}" for i, s in
                                                              enumerate(order))), style="note"))
    ended = b.get("ended")
    reasons = {"locked": t("The hand ended because nobody could play."),
               "no progress": t("The hand ended because nobody could make progress."),
               "turn limit": t("The hand ended at the turn limit.")}
    if ended in reasons:
        rows.append(Row(reasons[ended], style="note"))
    return rows


BUILDERS: dict[str, Callable[[dict[str, Any], Context], list[Row]]] = {
    "card-points": card_points_rows, "capture": capture_rows, "penalty": penalty_rows, "whist": whist_rows,
    "shedding": shedding_rows,
}
"""The builder of each hand-summary kind of ``engine.registry.SUMMARY_KINDS``."""


def summary_kind(game: Any) -> str:
    """The registry's hand-summary kind of ``game`` ("" for a game the registry does not know)."""
    try:
        return registry.entry(getattr(game, "name", "")).summary
    except registry.RegistryError:  # an unknown game gets the generic rows
        return ""


# --- generic fallback ----------------------------------------------------------------------------------------
HIDDEN_KEYS = frozenset({"sides", "hand_team", "deck_team", "finish_turns", "turns", "place_of", "moon_rule",
                         "primiera_complete", "ended", "finished"})
"""Internal breakdown keys the generic fallback never shows."""

SEAT_KEYS = frozenset({"leader", "hand_leader", "dealer", "winner", "first_out", "moon", "jack_of_diamonds",
                       "queen_of_spades"})
"""Breakdown keys that hold seat numbers (shown as names)."""


def humanise(key: str) -> str:
    """``"card_points"`` -> ``"Card points"`` (translated when the table knows it)."""
    text = key.replace("_", " ").strip()
    text = text[:1].upper() + text[1:]
    return t(text)


def value_text(value: Any, ctx: Context, key: str = "") -> str:
    """A breakdown value as a player reads it."""
    if value is None:
        return "–"
    if key in SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return ctx.name(value)
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, (int, float)):
        return number(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v, ctx) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{humanise(str(k))}: {value_text(v, ctx)}" for k, v in value.items())
    return t(str(value))


def generic(b: dict[str, Any], ctx: Context) -> list[Row]:
    """Any breakdown: humanised labels, per-column values when a list matches the columns, else one cell."""
    n = len(ctx.teams)
    rows: list[Row] = [Row(t("Hand points"), cells(ctx.team_points), "total")]
    for key, value in b.items():
        if key in HIDDEN_KEYS or key.startswith("_"):
            continue
        if isinstance(value, dict):
            rows.append(Row(humanise(key), style="section"))
            for sub, sub_value in value.items():
                if isinstance(sub_value, (list, tuple)) and len(sub_value) == n:
                    rows.append(Row(humanise(str(sub)), tuple((value_text(v, ctx),) for v in sub_value)))
                else:
                    rows.append(Row(humanise(str(sub)), ((value_text(sub_value, ctx, str(sub)),),)))
        elif isinstance(value, (list, tuple)) and len(value) == n and n > 1:
            rows.append(Row(humanise(key), tuple((value_text(v, ctx),) for v in value)))
        else:
            rows.append(Row(humanise(key), ((value_text(value, ctx, key),),)))
    return rows


def pile_rows(game: Any, state: Any) -> list[Row]:
    """Scopone/Scopa at the end of a hand: the cards each side captured, one row per suit with the cards'
    values (1-10: Ace to King) in order; nothing for other games."""
    teams = list(game.teams())
    if summary_kind(game) != "capture":
        return []
    captured = [set(state.captured_cards(side)) for side in range(len(teams))]
    deck = game.deck
    rows = [Row(t("Captured cards"), style="section")]
    for suit, suit_name in enumerate(deck.suit_names):
        row: list[Cell] = []
        for pile in captured:
            values = [str(deck.rank_of(c) + 1) for c in range(deck.size)
                      if c in pile and deck.suit_of(c) == suit]
            row.append((Suit(suit), " " + (" ".join(values) if values else "–")))
        rows.append(Row(t(suit_name), tuple(row)))
    return rows


def hand_rows(game: Any, breakdown: dict[str, Any], seat_names: list[str],
              team_points: list[float]) -> list[Row]:
    """The summary rows of a finished hand of ``game`` (a per-game builder, else the generic fallback)."""
    ctx = Context(game, list(game.teams()), list(seat_names), list(team_points))
    builder = BUILDERS.get(summary_kind(game))
    if builder is not None:
        try:
            return builder(breakdown, ctx)
        except (KeyError, IndexError, TypeError, ValueError):
            pass  # an unexpected breakdown shape: the generic rows still show everything
    return generic(breakdown, ctx)
