"""The heuristic agent: one position per rule (Sueca, Bisca, Hearts, Moss Side Whist), legality, fairness."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.cards import popcount
from engine.games.tricks.sueca import SuecaState
from tests.test_heuristic_checks import fairness_check, games_available, play_out


def heuristic_agent(game):
    """The game's own ``heuristic`` agent."""
    return agents.agent_class("heuristic", game)(game)


TRICK_GAMES = ["sueca", "bisca", "briscola", "hearts", "mosssidewhist"]


def sueca_position(hands: list[str], trick: list[str], leader: int, trump: str = "H",
                   played: str = "", trump_card: str | None = None):
    """A Sueca state from card notation: seat hands, the cards of the trick so far (from ``leader``),
    and cards already played (credited to seat 1)."""
    game = registry.create("sueca", {"target": 0})
    d = game.deck
    hs = [d.parse_set(h) for h in hands]
    tsuit = d.suits.index(trump)
    tcard = d.parse(trump_card) if trump_card else next(c for c in range(40) if d.suit_of(c) == tsuit and not
                                                        any(h >> c & 1 for h in hs) and c not in
                                                        d.parse_list(played) + d.parse_list(" ".join(trick)))
    st = SuecaState(game, hs, leader, tsuit, 3, tcard)
    st.trick = d.parse_list(" ".join(trick))
    st.won[1] = d.parse_set(played)
    st.current = (leader + len(st.trick)) % 4
    return st


def choose(state, seat: int | None = None) -> tuple[str, str]:
    """(move text, rule) the heuristic picks for the current player."""
    game = state.game
    agent = heuristic_agent(game)
    seat = state.current_player if seat is None else seat
    move = agent.choose(state.observation(seat), random.Random(0))
    assert move in state.legal_moves()
    return state.move_text(move), agent.last_rule


def test_sueca_give_points_to_partner_master():
    # Seat 0 led the AC (master), seat 1 followed low; seat 2 loads the trick with its 7C.
    st = sueca_position(["QD 2D", "3D 4D 3S", "7C 2C 5S", "4C 5C 6S"], ["AC", "3C"], leader=0,
                        played="")
    assert choose(st) == ("7C", "give-points")


def test_sueca_never_overtake_unsafe_partner():
    # Partner's KC wins but the AC is still out and seat 3 is still to play: keep points back.
    st = sueca_position(["QD 2D", "3D 4D 3S", "7C 2C 5S", "AC 5C 6S"], ["KC", "3C"], leader=0)
    move, rule = choose(st)
    assert (move, rule) == ("2C", "never-overtake")


def test_sueca_take_cheaply_as_last_player():
    # Opponent's KC wins; seat 3 (last) takes with the cheapest winning club: the 7C (AC would waste 11).
    st = sueca_position(["QD 2D", "3D 4D 3S", "2S 5S 6S", "AC 7C 5C"], ["KC", "3C", "2C"], leader=0)
    assert choose(st) == ("7C", "take-cheaply")


def test_sueca_ruff_a_rich_trick_with_a_low_trump():
    # Void in clubs, the trick holds the AC of an opponent: trump it with the 2H, not the AH.
    st = sueca_position(["QD 2D", "3D 4D 3S", "2S 5S 6S", "AH 2H 5D"], ["AC", "4C", "3C"], leader=0)
    assert choose(st) == ("2H", "ruff")


def test_sueca_keep_trumps_on_a_poor_trick():
    # A pointless trick: do not waste a trump, discard the cheapest side card.
    st = sueca_position(["QD 2D", "3D 4D 3S", "2S 5S 6S", "AH 2H 5D 7D"], ["5C", "4C", "3C"], leader=0)
    assert choose(st) == ("5D", "discard-low")


def test_sueca_lead_master():
    # The AS is the master of spades: lead it (no opponent known void in spades).
    st = sueca_position(["AS 2S 4C", "3D 4D 3S", "7C 2C 5S", "4S 5C 6S"], [], leader=0)
    assert choose(st) == ("AS", "lead-master")


def test_sueca_lead_master_counts_played_aces():
    # The AS was played earlier, so the 7S is now the master of spades.
    st = sueca_position(["7S 2S 4C", "3D 4D 3S", "7C 2C 5S", "4S 5C 6S"], [], leader=0, played="AS 6D")
    assert choose(st) == ("7S", "lead-master")


def test_sueca_lead_low_without_masters():
    # Hearts are trumps: with a pointless trump (the 5H) it leads that, drawing the opponents' trumps ...
    st = sueca_position(["KS 2S 4C 5H", "3D 4D 3S", "7C 2C 5S", "4S 5C 6S"], [], leader=0)
    assert choose(st) == ("5H", "lead-low-trump")
    # ... with only the KH it keeps that and leads the cheapest card of its longest side suit.
    st = sueca_position(["KS 2S 4C KH", "3D 4D 3S", "7C 2C 5S", "4S 5C 6S"], [], leader=0)
    assert choose(st) == ("2S", "lead-low")


@pytest.mark.parametrize("name", games_available(TRICK_GAMES))
def test_heuristic_never_illegal_across_variants(name):
    cls = registry.game_class(name)
    for i, variant in enumerate(cls.example_variants):
        game = cls(variant)
        specs = ["heuristic", "random"] if i % 2 else ["heuristic"]
        for seed in range(5):
            play_out(game, specs, seed=1000 * i + seed)


@pytest.mark.parametrize("name", games_available(TRICK_GAMES))
def test_heuristic_is_fair(name):
    game = registry.create(name)
    play_out(game, ["heuristic", "random"], seed=7, check=fairness_check(3))


def test_heuristic_deterministic():
    game = registry.create("sueca")
    a = play_out(game, ["heuristic"], seed=5)
    b = play_out(game, ["heuristic"], seed=5)
    assert a.to_dict() == b.to_dict()


def test_registry_builds_heuristic():
    agent = agents.make("heuristic", registry.create("sueca"))
    assert agent.fair and agent.spec == "heuristic"


# --- Hearts ------------------------------------------------------------------------------------------------
def hearts_position(mine: str, trick: list[str] = (), leader: int = 1, won: dict[int, str] | None = None,
                    passing: bool = False, broken: bool = True):
    """Seat 0 holds ``mine``; the other cards are spread over seats 1-3; ``won`` credits cards to seats."""
    from engine.games.hearts.rules import HeartsState
    game = registry.create("hearts", {"target": 0, "passing": "left" if passing else "none"})
    d = game.deck
    h0 = d.parse_set(mine)
    t = d.parse_list(" ".join(trick))
    w = {s: d.parse_set(x) for s, x in (won or {}).items()}
    used = h0 | sum(1 << c for c in t) | sum(w.values())
    rest = [c for c in range(52) if not used >> c & 1]
    hands = [h0, 0, 0, 0]
    for i, c in enumerate(rest):
        hands[1 + i % 3] |= 1 << c
    st = HeartsState(game, hands, 3, 1 if passing else 0)
    if not passing:
        for s, m in w.items():
            st.won[s] = m
            st.tricks_won[s] = max(1, popcount(m) // 4)
        st.tricks_won[2] += 1  # past the first trick
        st.trick = t
        st.leader = leader
        st.current = (leader + len(t)) % 4
        st.hearts_broken = broken
    return st


def test_hearts_pass_queen_then_high_hearts():
    st = hearts_position("QS 3S 4S AH KH 2C 5C 7C 9D TD JD 3H 6D", passing=True)
    agent = heuristic_agent(st.game)
    passed = []
    for _ in range(3):
        m = agent.choose(st.observation(0), random.Random(0))
        assert agent.last_rule == "pass-danger"
        passed.append(st.move_text(m))
        st.apply(m)
    assert passed == ["pass QS", "pass AH", "pass KH"]


def test_hearts_pass_keeps_a_protected_queen():
    from engine.games.hearts.players import hearts_pass_danger
    game = registry.create("hearts")
    d = game.deck
    danger = hearts_pass_danger(game, d.parse_set("QS 2S 3S 4S 5S AH KH 2C 5C 7C 9D TD JD"))
    assert danger[d.parse("AH")] > danger[d.parse("QS")]


def test_hearts_duck_under_the_winner():
    st = hearts_position("QD 4D AD 2C", ["9D", "KD"], leader=2)
    assert choose(st) == ("QD", "duck")


def test_hearts_last_player_sheds_the_highest_on_a_trick_without_points():
    st = hearts_position("QD 4D AD 2C", ["9D", "KD", "3D"], leader=1)
    assert choose(st) == ("AD", "last-take-high")


def test_hearts_last_player_ducks_a_trick_with_points():
    st = hearts_position("QD 4D AD 2C", ["9D", "KD", "3H"], leader=1)
    assert choose(st) == ("QD", "duck")


def test_hearts_dump_the_queen_when_void():
    st = hearts_position("QS 4D AH 2H", ["5C", "KC", "3C"], leader=1)
    assert choose(st) == ("QS", "dump-queen")


def test_hearts_dump_high_hearts_when_void_without_the_queen():
    st = hearts_position("4D AH 2H", ["5C", "KC", "3C"], leader=1)
    assert choose(st) == ("AH", "dump-danger")


def test_hearts_last_player_forced_to_win_takes_with_the_highest():
    st = hearts_position("9D KD 2C", ["2D", "3D", "4D"], leader=1)
    assert choose(st) == ("KD", "last-take-high")


def test_hearts_lead_low_and_stay_out_of_spades_with_the_queen():
    st = hearts_position("QS 5S 2D 9C KC", [], leader=0)
    move, rule = choose(st)
    assert rule == "lead-safe" and move in ("2D",)


def test_hearts_block_an_opponents_moon():
    # Seat 3 has taken every point (QS and hearts); it now leads a heart: win it from them.
    st = hearts_position("AH 3H 2C", ["KH"], leader=3, won={3: "QS 2H 4H 5H 6H 7H 8H 9H"})
    assert choose(st) == ("AH", "block-moon")


# --- Moss Side Whist ---------------------------------------------------------------------------------------
def test_whist_dls_discards_lowest_non_honours_of_the_shortest_suit():
    from engine.games.mosssidewhist.players import whist_dls_discards
    game = registry.create("mosssidewhist")
    d = game.deck
    hand = d.parse_set("2C 5C AC 3D 4D 6D JD QD 2H 3H 7H 9H TH KH 2S 5S 8S 9S QS AS")
    assert [d.text(c) for c in whist_dls_discards(game, hand)] == ["2C", "5C", "3D", "4D"]


def test_whist_void_discards_bury_a_whole_short_suit_without_its_ace():
    from engine.games.mosssidewhist.players import whist_dls_discards, whist_void_discards
    game = registry.create("mosssidewhist")
    d = game.deck
    hand = d.parse_set("3C 4C QC 2D 5D 6D 8D KD 2H 4H 6H 9H JH AH 2S 5S 8S 9S QS AS")
    # Clubs fit in the four discards and hold no ace: all three go (the queen too), then DLS's next card.
    assert [d.text(c) for c in whist_void_discards(game, hand)] == ["3C", "4C", "QC", "2D"]
    assert [d.text(c) for c in whist_dls_discards(game, hand)] == ["3C", "4C", "2D", "5D"]
    # No side suit without an ace fits: DLS's order.
    hand = d.parse_set("2C 5C AC 3D 4D 6D JD QD 2H 3H 7H 9H TH KH 2S 5S 8S 9S QS AS")
    assert whist_void_discards(game, hand) == whist_dls_discards(game, hand)


def test_whist_leader_discards_to_a_void_then_ruffs_when_void():
    game = registry.create("mosssidewhist")
    st = game.new_hand(random.Random(4))
    leader = st.current
    agent = heuristic_agent(game)
    from engine.games.mosssidewhist.players import whist_void_discards
    expected = whist_void_discards(game, st.hands[leader])
    m = agent.choose(st.observation(leader), random.Random(0))
    assert agent.last_rule == "void-discard" and m & ~256 == expected[0]
    # A void seat ruffs a side-suit lead with its lowest winning spade.
    from engine.games.mosssidewhist.rules import MossSideWhistState
    d = game.deck
    hands = [d.parse_set("2S 9S 4D"), d.parse_set("3H 5D 6D"), d.parse_set("4H 7D 8D")]
    ws = MossSideWhistState(game, hands, 1, 0)
    ws.discards_done = 4
    ws.trick = [d.parse("KH"), d.parse("AH")]
    ws.leader, ws.current = 1, 0
    ws.hands[1] = d.parse_set("5D 6D")
    ws.hands[2] = d.parse_set("7D 8D")
    assert choose(ws) == ("2S", "ruff")


def test_whist_ese_bias_places_a_shown_out_suit_with_the_other_opponent():
    from engine.games.mosssidewhist.players import whist_ese_bias
    game = registry.create("mosssidewhist")
    rng = random.Random(0)
    st = game.new_hand(rng)
    while st.discards_done < 4 or not any(st.voids[s] for s in range(3) if s != st.current):
        assert not st.is_terminal()
        moves = st.legal_moves()
        st.apply(moves[int(rng.random() * len(moves))])
    seat = st.current
    obs = st.observation(seat)
    m = whist_ese_bias(obs)
    assert m.shape == (len(obs.slots), 52)
    void_seat = next(s for s in range(3) if s != seat and st.voids[s])
    suit = next(x for x in range(4) if st.voids[void_seat] >> x & 1)
    other = next(i for i, sl in enumerate(obs.slots) if sl.owner not in (seat, void_seat, -1))
    cards = [c for c in range(52) if c // 13 == suit and obs.unknown >> c & 1]
    assert all(m[other, c] >= 4.0 for c in cards)


# --- Bisca -------------------------------------------------------------------------------------------------
def test_bisca_swaps_a_low_exchange_card_for_a_better_face_up_trump():
    game = registry.create("bisca", {"trump_exchange": "2"})
    for seed in range(300):
        st = game.new_hand(random.Random(seed))
        swaps = [m for m in st.legal_moves() if m >= 40]
        if swaps:
            assert choose(st)[1] == "trump-exchange"
            return
    raise AssertionError("no deal with a trump exchange in 300 seeds")


def test_bisca_second_player_takes_an_ace_with_a_low_trump():
    from engine.games.tricks.bisca import BiscaState
    game = registry.create("bisca")
    assert issubclass(game.state_class(), BiscaState)
    for seed in range(400):
        st = game.new_hand(random.Random(seed))
        lead = next((c for c in st.legal_moves() if game.card_points[c] == 11 and game.suit_of[c] != st.trump), None)
        if lead is None:
            continue
        st.apply(lead)
        me = st.hands[st.current]
        same = [c for c in range(40) if me >> c & 1 and game.suit_of[c] == game.suit_of[lead]]
        low_trumps = [c for c in range(40) if me >> c & 1 and game.suit_of[c] == st.trump and game.card_points[c] == 0]
        if not same and low_trumps:
            move, rule = choose(st)
            assert rule == "ruff" and game.card_points[game.deck.parse(move)] == 0
            return
    raise AssertionError("no suitable deal")


def test_bisca_lets_a_poor_trump_lead_go_and_keeps_its_trumps():
    game = registry.create("bisca")
    found = 0
    for seed in range(400):
        st = game.new_hand(random.Random(seed))
        lead = next((c for c in st.legal_moves() if game.suit_of[c] == st.trump and game.card_points[c] == 0), None)
        if lead is None:
            continue
        st.apply(lead)
        me = st.hands[st.current]
        higher = [c for c in range(40) if me >> c & 1 and game.suit_of[c] == st.trump
                  and game.strength[c] > game.strength[lead]]
        if not higher or all(game.suit_of[c] == st.trump for c in range(40) if me >> c & 1):
            continue
        move, rule = choose(st)
        card = game.deck.parse(move)
        # Not taken with a trump: the cheapest side card goes instead.
        assert rule == "discard-low" and game.suit_of[card] != st.trump
        found += 1
        if found == 5:
            return
    raise AssertionError("too few deals with a low trump lead")


def test_four_player_briscola_loads_the_partners_trick():
    game = registry.create("briscola", {"players": "4"})
    found = 0
    for seed in range(300):
        rng = random.Random(seed)
        st = game.new_hand(rng)
        while not st.is_terminal():
            if len(st.trick) >= 2:
                best = st.trick[st.trick_winner_index()]
                winner = (st.leader + st.trick_winner_index()) % 4  # seats in playing order
                plain = [c for c in st.legal_moves() if game.suit_of[c] != st.trump and game.card_points[c] > 0]
                if winner % 2 == st.current % 2 and plain and game.suit_of[best] == st.trump:
                    move, rule = choose(st)
                    # The partner's trump wins so far: the richest plain card goes on it, even before the last
                    # opponent has played.
                    assert rule == "load-partner"
                    assert game.deck.parse(move) == max(plain, key=lambda c: (game.card_points[c], -game.strength[c]))
                    found += 1
                    break
            moves = st.legal_moves()
            st.apply(moves[int(rng.random() * len(moves))])
        if found == 5:
            return
    raise AssertionError("too few positions with the partner winning")


@pytest.mark.parametrize("name", games_available(TRICK_GAMES))
def test_heuristic_simulation_policy_plays_legal_moves(name):
    from engine.search import knowledge
    game = registry.create(name)
    state = game.new_hand(random.Random(8))
    fn = knowledge.policy(name, "heuristic")
    for _ in range(30):
        if state.is_terminal():
            break
        move = fn(state, random.Random(0))
        assert move in state.legal_moves()
        state.do(move)
    assert knowledge.bias("mosssidewhist", "ese") is not None


def test_bisca_endgame_counts_out_the_last_tricks():
    # Stock out, every card known: seat 1 leads; the heuristic finds the best line by exact count.
    from engine.games.tricks.players import endgame_best
    game = registry.create("bisca")
    rng = random.Random(0)
    st = game.new_hand(rng)
    while st.stock_size or st.trick:
        moves = st.legal_moves()
        st.apply(moves[int(rng.random() * len(moves))])
    while sum(popcount(h) for h in st.hands) > 6:
        st.apply(st.legal_moves()[0])
    seat = st.current
    agent = heuristic_agent(game)
    move = agent.choose(st.observation(seat), random.Random(0))
    assert agent.last_rule == "endgame-count"
    team = (seat,)

    def best_value(state):  # plain minimax, no pruning, as the reference
        if state.is_terminal():
            return sum(game.card_points[c] for s in team for c in range(40) if state.won[s] >> c & 1)
        vals = []
        for m in state.legal_moves():
            child = state.clone()
            child.do(m)
            vals.append(best_value(child))
        return max(vals) if state.current in team else min(vals)

    after = st.clone()
    after.do(move)
    assert best_value(after) == best_value(st)
    assert endgame_best(st, team, st.legal_moves()) == move


def test_sueca_draw_trumps_with_the_master_and_the_majority():
    # Trump hearts: AH is the master; 4 trumps in hand against 3 left out: lead the AH.
    st = sueca_position(["AH 2H 3H 4H 2C", "5D 6D 5H", "7D QD 6H", "KD JD 7H"], [], leader=0,
                        played="KH JH QH", trump_card="5H")
    assert choose(st) == ("AH", "draw-trumps")


def test_sueca_lead_to_the_partners_ruff():
    st = sueca_position(["2D 5C 6C", "3D 4D 3S", "7C 2C 5S", "4S KC 6S"], [], leader=0)
    st.voids[2] = 1 << 1  # partner (seat 2) showed out of diamonds earlier
    assert choose(st) == ("2D", "lead-to-partner-ruff")


def test_hearts_take_low_when_every_card_wins_and_others_follow():
    st = hearts_position("KH AH 2C", ["9H"], leader=3)
    assert choose(st) == ("KH", "take-low")


def test_hearts_take_high_on_a_trick_without_points():
    st = hearts_position("KD AD 2C", ["9D"], leader=3)
    assert choose(st) == ("AD", "take-high")


def test_hearts_void_discard_the_card_most_likely_to_win_later():
    st = hearts_position("KD 4D AC 3C 2C", ["5S", "KS", "3S"], leader=1, won={3: "QS"})
    assert choose(st) == ("KD", "dump-danger")


def test_hearts_void_discard_keeps_a_low_heart_and_throws_a_king():
    # The 2 of hearts can never win a trick; the lone king of clubs beats eleven clubs still out.
    st = hearts_position("2H KC 3D 4D", ["5S", "KS", "3S"], leader=1, won={3: "QS"})
    assert choose(st) == ("KC", "dump-danger")


def test_hearts_void_discard_keeps_a_high_card_with_low_cards_to_duck_with():
    # AD has three lower diamonds of mine to duck with; the lone QC has none.
    st = hearts_position("AD 2D 3D 4D QC", ["5S", "KS", "3S"], leader=1, won={3: "QS"})
    assert choose(st) == ("QC", "dump-danger")


def test_hearts_never_leads_the_queen_of_spades():
    st = hearts_position("QS KD", [], leader=0)
    assert choose(st) == ("KD", "lead-safe")


def test_hearts_top_cards_count_each_suits_unbroken_run_from_the_ace():
    from engine.games.hearts.players import hearts_top_cards
    game = registry.create("hearts")
    assert hearts_top_cards(game, game.deck.parse_set("AH KH JH AS 2C KD")) == 3


def test_hearts_moon_hand_passes_its_lowest_cards():
    st = hearts_position("AH KH QH AS 2C 7C 9D JD 4S 5S 6H 8H TH", passing=True)
    st.current = 0
    assert choose(st) == ("pass 2C", "pass-moon")


def test_hearts_shoot_the_moon_while_holding_every_point_taken():
    st = hearts_position("AH 2C 5D", [], leader=0, won={0: "QS 2H 3H 4H"})
    assert choose(st) == ("AH", "shoot-moon")
    # a heart gone to another seat ends the attempt: back to losing the lead
    st = hearts_position("AH 2C 5D", [], leader=0, won={0: "QS 2H 3H", 1: "4H"})
    assert choose(st)[1] != "shoot-moon"


def test_hearts_shoot_the_moon_follows_with_the_highest_winner():
    st = hearts_position("AD 9D 4D 2C", ["5D", "7D"], leader=2, won={0: "QS 2H"})
    assert choose(st) == ("AD", "shoot-moon")


def whist_position(hands: list[str], trick: list[str], leader: int, played: str = ""):
    from engine.games.mosssidewhist.rules import MossSideWhistState
    game = registry.create("mosssidewhist")
    d = game.deck
    st = MossSideWhistState(game, [d.parse_set(h) for h in hands], 0, 2)
    st.discards_done = 4
    st.trick = d.parse_list(" ".join(trick))
    st.leader = leader
    st.current = (leader + len(st.trick)) % 3
    st.won[1] = d.parse_set(played)
    return st


def test_whist_lead_master_then_the_top_spot_card_of_the_longest_suit():
    st = whist_position(["AC 2D 3D 4H 5H 6H", "KC 5D 9H", "QC 6D TH"], [], leader=0)
    assert choose(st) == ("AC", "lead-master")
    st = whist_position(["KC 2D 3D 4H 5H 6H", "AC 5D 9H", "QC 6D TH"], [], leader=0)
    assert choose(st) == ("6H", "lead-long")
    # The longest suit holds a king the ace beats: lead from another suit rather than away from it.
    st = whist_position(["KC 7C 8C 2C 2D 3D", "AC 5D 9H", "QC 6D TH"], [], leader=0)
    assert choose(st) == ("3D", "lead-long")


def test_whist_draw_trumps_before_cashing_side_masters():
    st = whist_position(["AS 2S AC 3D", "3S 5D 9H 4D", "4S 6D TH 7D"], [], leader=0)
    assert choose(st) == ("AS", "draw-trumps")


def test_whist_draw_trumps_with_master_and_length():
    st = whist_position(["AS KS QS 2C", "3S 5D 9H 4D", "4S 6D TH 7D"], [], leader=0,
                        played="2S 5S 6S 7S 8S 9S TS JS")
    assert choose(st) == ("AS", "draw-trumps")


def test_whist_the_hand_leader_draws_trumps_from_length_without_the_master():
    # Seat 0 took the 20 cards: with four spades it leads its top one though the AS is out ...
    st = whist_position(["KS 7S 5S 2S AC 3D", "AS 5D 9H 4D", "4S 6D TH 7D"], [], leader=0)
    assert choose(st) == ("KS", "draw-trumps")
    # ... with three it cashes its side master instead ...
    st = whist_position(["KS 7S 5S AC 3D", "AS 5D 9H 4D", "4S 6D TH 7D"], [], leader=0)
    assert choose(st) == ("AC", "lead-master")
    # ... and a defender with four spades keeps them for ruffing.
    st = whist_position(["AS 5D 9H 4D", "KS 7S 5S 2S AC 3D", "4S 6D TH 7D"], [], leader=1)
    assert choose(st) == ("AC", "lead-master")


def test_whist_second_low_third_wins_cheaply_discard_low():
    # Second hand wins with its cheapest winning card below the queen, though the AD is out behind it ...
    st = whist_position(["2C 3C", "6D 9D KD 4D", "AD 8D 7D 3H"], ["5D"], leader=0)
    assert choose(st) == ("6D", "win-cheaply")
    # ... and holding the master it still plays the cheap winner, keeping the ace for a later trick.
    st = whist_position(["2C 3C", "9D AD 4D", "KD 6D 7D"], ["5D"], leader=0)
    assert choose(st) == ("9D", "win-cheaply")
    # ... and with only an honour that wins, play low.
    st = whist_position(["2C 3C", "KD 4D", "AD 6D 7D"], ["5D"], leader=0)
    assert choose(st) == ("4D", "second-low")
    # Last to play wins with the cheapest winning card.
    st = whist_position(["2C 3C", "9D KD 4D", "AD 6D 7D"], ["5D", "8D"], leader=0)
    assert choose(st) == ("AD", "win-cheaply")
    # Void in the led suit and no trump: discard the lowest card of a side suit.
    st = whist_position(["2C 3C", "9D KD 4D", "2H 7H QC"], ["5D", "8D"], leader=0)
    assert choose(st) == ("2H", "discard-low")


def test_sueca_forced_win_takes_with_a_card_nobody_can_beat():
    # Clubs trump, void in spades: every card ruffs the 2S. The KC is out behind me, so only the 7C is sure.
    st = sueca_position(["2D 3D 4D", "5D 6D", "7C JC QC", "KH 4H KC"], ["2S"], leader=1,
                        played="AC 3S 4S 5S 6S QS JS KS AS 7S", trump="C", trump_card="2C")
    assert choose(st) == ("7C", "forced-win")
