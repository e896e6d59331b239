"""The trick games' search fast paths (table-driven legal moves, inlined rollouts, lean clones and outcomes)
agree exactly with the plain rules: same moves, same random choices, same final states."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.cards import FRENCH52, ITALIAN40, PORTUGUESE40, Deck, bits
from engine.game import GameState
from engine.games.tricks import PASS_FLAG, CardTables, TrickState, card_tables
from engine.knowledge import PLAIN_PLAYOUTS
from engine.search.sampler import DealSampler


def playouts(state):
    """The search's fast paths of ``state``'s game (its ``SearchKnowledge.playouts``)."""
    return registry.entry(state.game.name).knowledge.playouts

CASES = [
    ("sueca", {}), ("sueca", {"trump_card": "top"}),
    ("bisca", {}), ("bisca", {"hand_size": 3, "trump_exchange": "2"}), ("bisca", {"players": 4}),
    ("bisca", {"hand_size": 7, "trump_exchange": "7"}),
    ("briscola", {}), ("briscola", {"players": 4, "trump_exchange": "7"}), ("briscola", {"hand_size": 9}),
    ("hearts", {}), ("hearts", {"passing": "none"}), ("hearts", {"queen_breaks_hearts": False}),
    ("hearts", {"jack_diamonds": True, "moon": "minus"}),
    ("mosssidewhist", {}),
]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in v.items()) or 'default'}" for n, v in CASES]


def _reference_moves(state: TrickState) -> list[int]:
    """Legal moves from the rules' bitmask methods (no lookup tables)."""
    if state.is_terminal():
        return []
    name = state.game.name
    if name == "hearts" and state.passing:  # type: ignore[attr-defined]
        return [c | PASS_FLAG for c in bits(state.hands[state.current])]
    if name == "mosssidewhist" and state.discarding:  # type: ignore[attr-defined]
        return [c | PASS_FLAG for c in bits(state.hands[state.current])]
    moves = bits(state.legal_mask())
    if name in ("bisca", "briscola") and state.can_exchange():  # type: ignore[attr-defined]
        moves.append(state.exchange_card | 1 << 9)  # type: ignore[attr-defined]
    return moves


def _random_prefix(state: GameState, rng: random.Random, length: int) -> None:
    for _ in range(length):
        if state.is_terminal():
            return
        moves = state.legal_moves()
        state.do(moves[int(rng.random() * len(moves))])


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_rollout_makes_the_generic_loops_choices(name: str, variant: dict) -> None:
    """From fresh, mid-trick, mid-passing and late states, and from sampled deals of observations."""
    game = registry.create(name, variant)
    size = game.deck.size
    for seed in range(24):
        state = game.new_hand(random.Random(seed), dealer=seed % game.num_players, hand_index=seed)
        _random_prefix(state, random.Random(seed), (seed * 7) % size)
        starts = [state]
        if not state.is_terminal():
            obs = state.observation(state.current_player)
            starts.append(DealSampler(obs).deal(random.Random(seed)))
        for start in starts:
            fast, slow = start.clone(), start.clone()
            playouts(fast).random_rollout(fast, random.Random(1000 + seed))
            PLAIN_PLAYOUTS.random_rollout(slow, random.Random(1000 + seed))
            assert fast.is_terminal() and slow.is_terminal()
            assert fast.to_dict() == slow.to_dict(), (name, variant, seed)
            assert playouts(fast).outcomes(fast) == [fast.result().outcome(s) for s in range(game.num_players)]


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_legal_moves_current_player_and_clone_follow_the_rules(name: str, variant: dict) -> None:
    game = registry.create(name, variant)
    rng = random.Random(7)
    for hand in range(4):
        state = game.new_hand(rng, dealer=hand % game.num_players, hand_index=hand)
        while True:
            moves = state.legal_moves()
            assert moves == _reference_moves(state)
            assert state.current_player == (-1 if state.is_terminal() else state.current)
            copy = state.clone()
            assert copy == state and type(copy) is type(state)
            if not moves:
                break
            copy.do(moves[-1])  # the copy shares no mutable part with the original
            assert copy != state
            state.do(moves[int(rng.random() * len(moves))])
        assert playouts(state).outcomes(state) == [state.result().outcome(s) for s in range(game.num_players)]


_TWO_SUITS = Deck("two-suits", ("A", "B"), ("Alpha", "Beta"), ("1", "2", "3"), ("one", "two", "three"))


@pytest.mark.parametrize("deck", [PORTUGUESE40, ITALIAN40, FRENCH52, _TWO_SUITS], ids=lambda d: d.name)
def test_card_tables_list_a_sets_cards_in_order(deck) -> None:
    """Suit tables, whole-set lists and ``kth`` (the k-th lowest card, also with a flag and for a deck that
    has not four suits) agree with a plain bit loop."""
    tables = card_tables(deck)
    flagged = CardTables(deck, PASS_FLAG)
    rng = random.Random(3)
    for _ in range(300):
        mask = rng.getrandbits(deck.size)
        assert tables.cards(mask) == bits(mask)
        for s in range(len(deck.suits)):
            sub = mask >> tables.shift[s] & tables.rank_mask
            assert list(tables.suit_cards[s][sub]) == bits(mask & deck.suit_mask(s))
        assert [tables.kth(mask, k) for k in range(mask.bit_count())] == bits(mask)
        assert [flagged.kth(mask, k) for k in range(mask.bit_count())] == [c | PASS_FLAG for c in bits(mask)]


@pytest.mark.parametrize("name", ["sueca", "hearts", "mosssidewhist", "briscola"])
def test_winner_keys_pick_the_trick_winner(name: str) -> None:
    """The rollouts' key tables agree with :meth:`TrickState.trick_winner_index` on random tricks."""
    game = registry.create(name)
    rng = random.Random(11)
    state = game.new_hand(rng)
    n = game.num_players
    for _ in range(500):
        state.trump = rng.choice([-1, 0, 1, 2, 3]) if name != "hearts" else -1
        state.trick = rng.sample(range(game.deck.size), n)
        keys = game.winner_keys(state.trump)[game.suit_of[state.trick[0]]]
        best = max(range(n), key=lambda i: keys[state.trick[i]])
        assert best == state.trick_winner_index()


@pytest.mark.parametrize(("name", "variant", "offset"), [
    ("bisca", {"hand_size": 3}, 1), ("bisca", {}, 1), ("scopa", {}, 0), ("pharaoh", {}, 0)])
def test_sampled_stock_order_is_uniform(name: str, variant: dict, offset: int) -> None:
    """The search's deals order a hidden stock uniformly: the 6 relative orders of the three lowest cards
    in the dealt stock are equally likely (chi-square, df = 5, 0.999 quantile 20.5; seeded, so
    deterministic). ``offset`` skips Bisca's face-up trump, which stays in place."""
    from itertools import permutations

    game = registry.create(name, variant)
    state = game.new_hand(random.Random(4))
    rng = random.Random(4)
    while len(state.legal_moves()) < 2:
        state.do(state.legal_moves()[0])
    sampler = DealSampler(state.observation(state.current_player))
    assert sampler.ordered_spans, "the stock's order should come from the sampler's shuffles"
    patterns = {p: 0 for p in permutations(range(3))}
    samples = 3000
    for _ in range(samples):
        stock = sampler.deal(rng).stock[offset:]  # type: ignore[attr-defined]
        low = sorted(stock)[:3]
        patterns[tuple(sorted(range(3), key=lambda i: stock.index(low[i])))] += 1
    expected = samples / 6
    assert sum((n - expected) ** 2 / expected for n in patterns.values()) < 20.5


def test_a_subclass_with_other_rules_gets_the_generic_paths() -> None:
    """Changing legal_mask alone switches legal_moves to the mask and the rollout to the generic loop."""
    from engine.games.tricks.sueca import SuecaState

    class AnyCardSueca(SuecaState):
        __slots__ = ()

        def legal_mask(self) -> int:
            return self.hands[self.current]

    assert SuecaState._plain_tricks and not AnyCardSueca._plain_tricks
    game = registry.create("sueca")
    base = game.new_hand(random.Random(2))
    state = AnyCardSueca.from_dict(game, base.to_dict())
    _random_prefix(state, random.Random(2), 5)  # a trick in progress
    hand = state.hands[state.current]
    led_suit = PORTUGUESE40.suit_mask(game.suit_of[state.trick[0]])
    assert state.trick and hand & ~led_suit  # the follow-suit rule would forbid some of these cards
    assert state.legal_moves() == bits(hand)
    fast, slow = state.clone(), state.clone()
    assert type(fast) is AnyCardSueca
    playouts(fast).random_rollout(fast, random.Random(3))
    PLAIN_PLAYOUTS.random_rollout(slow, random.Random(3))
    assert fast.to_dict() == slow.to_dict()
    assert fast.is_terminal()
