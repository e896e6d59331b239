"""Hearts search parts: the inference belief matrix (ISMCTS-TI), the abstraction key and the cheating UCT."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import agents, registry
from engine.cards import FRENCH52, popcount
from engine.determinize import determinize, sample_assignment
from engine.game import VariantError
from engine.games.hearts import inference as hearts_inference
from engine.games.hearts.inference import hearts_belief
from engine.games.hearts.rules import Hearts, HeartsState
from engine.search import knowledge

D = FRENCH52
QS = D.parse("QS")

DEAL = [
    "2C 3C 4C 5S 6S 2D 3D 4D 5D 6D 2H 3H 4H",   # seat 0: the observer
    "AC KS 7S 8S 7D 8D 9D TD 5H 6H 7H 8H 9H",   # seat 1: wins the first trick, leads the K of spades
    "5C 6C 9S 2S JD QD KD AD TH JH QH KH AH",   # seat 2
    "7C 8C 9C TC JC QC KC 3S 4S TS JS QS AS",   # seat 3: holds the queen, void in hearts and diamonds
]


def make_state(moves: str = "") -> HeartsState:
    state = HeartsState(Hearts({"passing": "none", "target": 0}), [D.parse_set(h) for h in DEAL], 3, 0)
    for token in filter(None, moves.split(",")):
        state.apply(state.parse_move(token))
    return state


def row_of(obs, seat: int) -> int:
    return next(i for i, s in enumerate(obs.slots) if s.owner == seat and s.name.startswith("hand"))


def neutral_belief(obs, monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    """The belief with every likelihood ratio set to 1 (the uniform prior of the same observation)."""
    with monkeypatch.context() as m:
        for key in hearts_inference.FACTORS:
            m.setitem(hearts_inference.FACTORS, key, 1.0)
        return hearts_belief(obs)


def check_matrix(obs, b: np.ndarray) -> None:
    assert b.shape == (len(obs.slots), 52)
    assert (b >= 0).all()
    for c in range(52):
        col = b[:, c]
        if obs.unknown >> c & 1:
            assert col.sum() == pytest.approx(1.0, abs=1e-9)
        else:
            assert not col.any(), D.text(c)  # seen, played or own cards: no slot holds them
        for i, slot in enumerate(obs.slots):
            if not slot.allowed >> c & 1:
                assert col[i] == 0.0, (slot.name, D.text(c))
    # Rows add up to about the slot's card count (fitted).
    for i, slot in enumerate(obs.slots):
        assert b[i].sum() == pytest.approx(slot.count, rel=0.05)


def test_belief_respects_hard_constraints_and_is_normalized() -> None:
    state = make_state("2C,AC,5C,7C,KS,9S,3S,5S,7D,JD,8C,2D")
    obs = state.observation(0)
    b = hearts_belief(obs)
    check_matrix(obs, b)
    seat3 = row_of(obs, 3)
    for c in D.parse_list("3H 4D 5H 9D TD QD AH"):  # seat 3 is void in diamonds (and shows no hearts yet)
        if D.suit_of(c) == 1:
            assert b[seat3, c] == 0.0
    for c in D.parse_list("2C AC 5C 7C KS 9S 3S 5S 7D JD 8C 2D 3C 6S 2H"):  # played or the observer's
        assert not b[:, c].any()


def test_risky_king_of_spades_raises_the_queen_and_a_kept_queen_lowers_it(monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state("2C,AC,5C,7C,KS")  # seat 1 leads the K of spades while the queen is out
    obs = state.observation(0)
    b, u = hearts_belief(obs), neutral_belief(obs, monkeypatch)
    r1, r2, r3 = row_of(obs, 1), row_of(obs, 2), row_of(obs, 3)
    assert b[r1, QS] > u[r1, QS] + 0.05
    assert b[r1, QS] > max(b[r2, QS], b[r3, QS])
    state.apply(state.parse_move("9S"))  # seat 2 could drop the queen under the king: it did not
    obs2 = state.observation(0)
    b2, u2 = hearts_belief(obs2), neutral_belief(obs2, monkeypatch)
    assert b2[r2, QS] < u2[r2, QS] - 0.1
    assert b2[r2, QS] < b[r2, QS]


def test_discard_without_the_queen_lowers_it() -> None:
    state = make_state("2C,AC,5C,7C,KS,9S,3S,5S,7D,JD")
    before = hearts_belief(state.observation(0))
    state.apply(state.parse_move("8C"))  # seat 3, void in diamonds, discards a club, keeps the queen
    obs = state.observation(0)
    after = hearts_belief(obs)
    r3 = row_of(obs, 3)
    assert after[r3, QS] < 0.8 * before[r3, QS]


# Seat 3 is void in diamonds; seat 1 wins the first trick with the K of clubs and leads the 5 of diamonds.
DEAL_B = [
    "2C 3D KD 4S 5S 6S 7S 8S 9S TS JS 2H 3H",
    "KC 5D 6D 8D 9D TD 4H 5H 6H 7H 8H TH JH",
    "3C 7D 2D 4D JD QD AD QH KH AH 2S 3S QS",   # seat 2: the observer
    "4C 5C 6C 7C 8C 9C TC JC QC AC KS AS 9H",
]


@pytest.mark.parametrize(("last_card", "signal"), [("KD", True), ("3D", False)])
def test_overtaking_a_trick_with_points_makes_lower_cards_unlikely(
        monkeypatch: pytest.MonkeyPatch, last_card: str, signal: bool) -> None:
    state = HeartsState(Hearts({"passing": "none", "target": 0}), [D.parse_set(h) for h in DEAL_B], 3, 0)
    for token in "2C,KC,3C,4C,5D,7D,9H".split(","):  # seat 3 sheds the 9 of hearts into the trick
        state.apply(state.parse_move(token))
    state.apply(state.parse_move(last_card))  # seat 0, last: overtakes (KD) or ducks (3D)
    obs = state.observation(2)
    b, u = hearts_belief(obs), neutral_belief(obs, monkeypatch)
    r0 = row_of(obs, 0)
    check_matrix(obs, b)
    low = D.parse("6D")  # below the 7D it could have ducked under, unknown to seat 2
    if signal:
        assert b[r0, low] < 0.6 * u[r0, low]
    else:
        assert b[r0, low] == pytest.approx(u[r0, low], rel=0.05)


def test_belief_is_fair_two_deals_with_equal_observations_give_equal_matrices() -> None:
    game = registry.create("hearts", {"passing": "none", "target": 0})
    rng = random.Random(7)
    state = game.new_hand(rng, dealer=3)
    players = [agents.make("heuristic", game) for _ in range(4)]
    for _ in range(23):
        state.do(players[state.current_player].choose(state.observation(state.current_player), rng))
    obs = state.observation(0)
    base = hearts_belief(obs)
    others = [determinize(obs, random.Random(seed)) for seed in (1, 2)]
    assert others[0].hands != others[1].hands  # really different hidden cards
    for full in others:
        assert np.array_equal(hearts_belief(full.observation(0)), base)
    assert np.array_equal(hearts_belief(state.observation(0)), base)


def test_biased_sampling_is_legal_and_follows_the_belief() -> None:
    state = make_state("2C,AC,5C,7C,KS,9S")  # seat 2 kept the queen (if it had it) under the king
    obs = state.observation(0)
    b = hearts_belief(obs)
    r2 = row_of(obs, 2)
    rng = random.Random(3)
    hits_biased = hits_uniform = 0
    n = 300
    for _ in range(n):
        biased = sample_assignment(obs, rng, b)
        uniform = sample_assignment(obs, rng)
        for out in (biased, uniform):
            for slot, cards in zip(obs.slots, out, strict=True):
                assert popcount(cards) == slot.count and cards & ~slot.allowed == 0
        hits_biased += biased[r2] >> QS & 1
        hits_uniform += uniform[r2] >> QS & 1
    assert hits_biased + 50 < hits_uniform  # the queen is dealt to seat 2 far less often than a third


def test_ismcts_ti_spec_plays_legal_moves() -> None:
    game = registry.create("hearts", {"passing": "none", "target": 0})
    assert knowledge.bias("hearts", "inference") is hearts_belief
    state = make_state("2C,AC,5C,7C,KS")
    rng = random.Random(5)
    for spec in ("ismcts:iterations=60,bias=inference",
                 "ismcts:iterations=60,reward=relative,transpositions=true,dets=20,bias=inference"):
        agent = agents.make(spec, game)
        seat = state.current_player
        move = agent.choose(state.observation(seat), rng)
        assert move in state.legal_moves()


@pytest.mark.parametrize("passing", ["none", "left", "across", "jack", "minus"])
def test_fast_abstraction_key_equals_the_reference(passing: str) -> None:
    from engine.games.hearts.abstraction import hearts_key, hearts_key_reference

    variant = {"passing": passing}
    if passing == "jack":
        variant = {"passing": "rotate", "jack_diamonds": True}
    elif passing == "minus":
        variant = {"passing": "right", "moon": "minus", "queen_breaks_hearts": False}
    game = registry.create("hearts", {**variant, "target": 0})
    rng = random.Random(11)
    keys: dict = {}
    for hand in range(3):
        state = game.new_hand(rng, dealer=hand, hand_index=hand + 1)  # rotate: right, across, hold
        while True:
            for observer in range(4):
                fast = hearts_key(state, observer)
                assert fast == hearts_key_reference(state, observer)
                keys.setdefault(fast, set()).add(len(state.history))
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state.do(moves[int(rng.random() * len(moves))])
    assert len(keys) > 400  # the key tells positions apart


def test_abstraction_counts_a_passed_card_as_held_by_its_receiver() -> None:
    from engine.games.hearts.abstraction import QUEEN_FLAG, hearts_key, hearts_key_reference

    state = HeartsState(Hearts({"passing": "left", "target": 0}), [D.parse_set(h) for h in DEAL], 3, 1)
    passes = ["2D 3D 4D", "7D 8D 9D", "JD QD KD", "QS AS JS"]  # seat 3 passes the queen to seat 0
    for seat_cards in passes:
        for card in seat_cards.split():
            state.apply(state.parse_move(f"pass {card}"))
    assert not state.passing and state.hands[0] >> QS & 1
    for observer, holder_bits in ((3, 1 << 0), (1, 0b1101)):  # seat 1 does not know where it went
        key = hearts_key(state, observer)
        assert key == hearts_key_reference(state, observer)
        queen = [v for v in key[3][3] if v & QUEEN_FLAG]
        assert queen == [holder_bits | QUEEN_FLAG]


def test_full_shared_wins_counts_every_lowest_score_as_a_win() -> None:
    from engine.search.uct import full_shared_wins

    assert full_shared_wins([0.5, 0.0, 0.5, 0.0], "pwl") == [1.0, 0.0, 1.0, 0.0]
    assert full_shared_wins([1.0, 0.0, 0.0, 0.0], "pwl") == [1.0, 0.0, 0.0, 0.0]
    assert full_shared_wins([0.5, 0.5], "pwl") == [0.5, 0.5]  # a draw stays a draw
    assert full_shared_wins([0.0, -1.0, 0.0, -1.0], "wl") == [1.0, -1.0, 1.0, -1.0]
    assert full_shared_wins([0.25, -0.5], "relative") == [0.25, -0.5]


@pytest.mark.parametrize("shared", ["half", "full"])
def test_cheat_agent_plays_legal_moves_with_either_shared_rule(shared: str) -> None:
    game = registry.create("hearts", {"passing": "none", "target": 0})
    agent = agents.make(f"cheat:iterations=200,shared={shared}", game)
    state = make_state("2C,AC,5C,7C")
    move = agent.choose_full(state.clone(), random.Random(1))
    assert move in state.legal_moves()
    with pytest.raises(Exception, match="shared"):
        agents.make("cheat:shared=some", game)


def test_measure_signals_counts_right_and_wrong_guesses() -> None:
    from engine.games.hearts.inference import measure_signals, uniform_belief

    # Trick 2: seat 1 leads the K of spades, seats 2, 3 and 0 follow low: each of them "kept the queen
    # under a higher spade", but only seat 3 really holds it.
    moves = [D.parse(c) for c in "2C AC 5C 7C KS 9S 3S 5S".split()]
    stats = measure_signals([(make_state(), moves)])
    held, prior, count = stats["queen_kept_under_higher_spade"]
    assert (held, count) == (3.0, 7.0)  # seat 3 seen by 3 observers; seats 2 and 0 by 2 each
    assert 0.0 < prior < count
    assert stats["risky_high_spade"][0] == 0.0 and stats["risky_high_spade"][2] == 2.0
    obs = make_state("2C,AC,5C,7C").observation(0)
    u = uniform_belief(obs)
    check_matrix(obs, u)


def test_feature_accuracy_on_a_scripted_trick() -> None:
    from engine.games.hearts.inference import feature_accuracy

    moves = [D.parse(c) for c in "2C AC 5C 7C KS 9S 3S 5S".split()]
    inferred, uniform, points = feature_accuracy([(make_state(), moves)], 30, random.Random(4))
    # Choices: 5C, 7C, KS, 9S, 3S, 5S (2C and AC are forced); at 3S seat 3 sees all of Q, K, A of spades.
    assert points == 5
    assert 0.0 <= uniform <= 1.0 and 0.0 <= inferred <= 1.0


def test_tree_depth_counts_moves_to_the_deepest_node() -> None:
    from engine.lab.depth import tree_depth
    from engine.search.ismcts import Node

    root = Node(None, -1, None)
    assert tree_depth(root) == 0
    a = root.children[1] = Node(1, 0, root)
    b = root.children[2] = Node(2, 0, root)
    a.children[3] = Node(3, 1, a)
    shared = Node(5, 2, b)  # a transposition: reached from two parents at different depths
    b.children[5] = shared
    a.children[3].children[5] = shared
    assert tree_depth(root) == 3


def test_transpositions_search_deeper_with_the_same_iterations() -> None:
    """manzke2025 figure 6.1 in miniature: ISMCTS-T's tree is deeper than plain ISMCTS's from the same roots."""
    from engine.lab.depth import depth_table, sample_positions

    game = registry.create("hearts", {"passing": "none", "target": 0})
    positions = sample_positions(game, 4, seed=3, max_tricks=3)
    assert all(len(p.legal_moves()) >= 2 and len(p.history) <= 12 for p in positions)
    plain, with_t = depth_table(game, ["ismcts:iterations=300,reward=relative",
                                       "ismcts:iterations=300,reward=relative,transpositions=true,dets=300"],
                                positions, seed=3)
    assert all(1 <= d <= 300 for d in plain["depths"] + with_t["depths"])
    assert with_t["mean"] > plain["mean"]
    with pytest.raises(VariantError):
        depth_table(game, ["random"], positions, seed=3)


def _edges_by_children(root: object) -> tuple[dict[int, list], int]:
    """Every edge of a search graph grouped by the node (children dict) it leads into, and how many
    dicts hold each edge object at most (1 = no edge is shared by two parents)."""
    into: dict[int, list] = {}
    holders: dict[int, int] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node.children) in seen:
            continue
        seen.add(id(node.children))
        for edge in node.children.values():
            holders[id(edge)] = holders.get(id(edge), 0) + 1
            into.setdefault(id(edge.children), []).append(edge)
            stack.append(edge)
    return into, max(holders.values())


@pytest.mark.parametrize("stats", ["edge", "node"])
def test_transposition_statistics_live_on_edges_or_on_shared_nodes(stats: str) -> None:
    """manzke2025 4.3: with tt_stats=edge every parent keeps its own counts for the move into a shared
    information set; with tt_stats=node the parents share one child object and its counts. Either way no
    information set is left more often than it was entered."""
    from engine.search.ismcts import run_ismcts

    game = registry.create("hearts", {"passing": "none", "target": 0})
    state = game.new_hand(random.Random(8))
    rng = random.Random(8)
    for _ in range(9):
        state.do(rng.choice(state.legal_moves()))
    agent = agents.make(f"ismcts:iterations=1500,reward=relative,transpositions=true,dets=200,tt_stats={stats}",
                        game)
    result, root = run_ismcts(state.observation(state.current_player), random.Random(2), agent.conf, None)
    into, most_holders = _edges_by_children(root)
    merged = [edges for edges in into.values() if len({id(e) for e in edges}) > 1 or len(edges) > 1]
    assert merged, "this position has transpositions"
    root_visits = sum({id(ch): ch.visits for ch in root.children.values()}.values())
    assert root_visits == 1500  # every iteration goes through one root edge
    if stats == "edge":
        assert sum(result.visits.values()) == 1500
        assert most_holders == 1
        assert any(len({id(e) for e in edges}) > 1 for edges in merged)
    else:
        assert most_holders > 1
        assert all(len({id(e) for e in edges}) == 1 for edges in into.values())
    overdrawn = 0  # information sets whose moves out carry more visits than came in through its edges
    for edges in into.values():
        unique = {id(e): e for e in edges}.values()
        entered = sum(e.visits for e in unique)
        below = next(iter(unique)).children.values()
        overdrawn += sum({id(ch): ch.visits for ch in below}.values()) > entered
    # Per-edge counts only hold this search's passes through that parent; shared nodes also count the
    # passes that arrived from elsewhere, so a parent may read more visits below it than it ever sent.
    assert (overdrawn == 0) == (stats == "edge")


def test_transposition_statistics_need_transpositions() -> None:
    with pytest.raises(VariantError, match="transpositions"):
        agents.make("ismcts:tt_stats=node", registry.create("hearts"))
    with pytest.raises(VariantError, match="edge"):
        agents.make("ismcts:transpositions=true,tt_stats=parent", registry.create("hearts"))


def test_abstraction_tells_a_low_lead_from_a_high_one() -> None:
    """manzke2025 4.1.1 keeps which card is winning the trick: seat 0, void in diamonds, sees the same
    unplayed cards either way, but a led 3 of diamonds is beaten by almost every diamond still out and the
    ace by none, so the two must not share a node."""
    from engine.games.hearts.abstraction import hearts_key, hearts_key_reference

    deal = ["2C 4C 5C 6C 2S 3S 4S 5S 6S 7S 8S 2H 3H",
            "3C 7C 8C 9C 2D 4D 5D 6D 7D 9S TS 4H 5H",
            "TC JC QC KC 8D 9D TD JD QD JS QS 6H 7H",
            "AC 3D AD KD KS AS 8H 9H TH JH QH KH AH"]
    keys = []
    for lead in ("3D", "AD"):
        state = HeartsState(Hearts({"passing": "none", "target": 0}), [D.parse_set(h) for h in deal], 3, 0)
        for token in ("2C", "3C", "TC", "AC", lead):
            state.apply(state.parse_move(token))
        assert state.current_player == 0
        keys.append(hearts_key(state, 0))
        assert keys[-1] == hearts_key_reference(state, 0)
    assert keys[0][1:] == keys[1][1:]  # everything but the trick agrees
    assert keys[0] != keys[1]


def test_every_move_changes_the_abstraction_key() -> None:
    """No move leads back to an information set already met in the hand (so ISMCTS-T's graph has no
    cycle), the passing phase included: whose turn it is and what the observer passed are in the key."""
    from engine.games.hearts.abstraction import hearts_key

    game = registry.create("hearts", {"passing": "left", "target": 0, "jack_diamonds": True})
    rng = random.Random(5)
    for hand in range(2):
        state = game.new_hand(rng, dealer=hand)
        seen: list[set] = [set(), set(), set(), set()]
        while not state.is_terminal():
            for observer in range(4):
                key = hearts_key(state, observer)
                assert key not in seen[observer]
                seen[observer].add(key)
            moves = state.legal_moves()
            state.do(moves[int(rng.random() * len(moves))])


def test_abstraction_follows_the_jack_of_diamonds() -> None:
    """With the jack of diamonds variant the key knows where the -10 card is, and taking it alone does not
    stop anyone shooting the moon (only hearts and the queen do)."""
    from engine.games.hearts.abstraction import hearts_key, hearts_key_reference

    deal = ["2C 5C 6C 7C 2D 3D 4D 5D TD 3H 4H 5H 6H",
            "3C 8C 9C TC JD 2S 3S 4S 6S 7S 8S 9S TS",
            "4C JC QC KC 2H 7H 8H 9H TH JH QH KH AH",
            "AC 6D 7D 8D 9D QD KD AD 5S JS QS KS AS"]
    swapped = [h.replace("TD", "XX").replace("JD", "TD").replace("XX", "JD") for h in deal]

    def key(hands: list[str], moves: str) -> tuple:
        state = HeartsState(Hearts({"passing": "none", "target": 0, "jack_diamonds": True}),
                            [D.parse_set(h) for h in hands], 3, 0)
        for token in moves.split():
            state.apply(state.parse_move(token))
        assert state.current_player == 0
        k = hearts_key(state, 0)
        assert k == hearts_key_reference(state, 0)
        return k

    jack_alone = key(deal, "2C 3C 4C AC AD 2D JD JC 5S 3H TS 2H 2S KC JS")  # seat 3 took only the jack
    jack_and_heart = key(deal, "2C 3C 4C AC AD 2D JD 2H 5S 3H TS JC 2S KC JS")
    still_held = key(swapped, "2C 3C 4C AC AD 2D TD 2H 5S 3H TS JC 2S KC JS")  # seat 0 holds the jack
    assert jack_alone[1] == 1 and jack_and_heart[1] == 4  # only seat 1 has penalty points / several
    assert len({jack_alone, jack_and_heart, still_held}) == 3
    assert jack_and_heart[:5] == still_held[:5]  # the same but for where the jack is


def test_tree_depth_refuses_a_cycle() -> None:
    from engine.lab.depth import tree_depth
    from engine.search.ismcts import Node

    root = Node(None, -1, None)
    a = root.children[1] = Node(1, 0, root)
    a.children[2] = a
    with pytest.raises(ValueError, match="cycle"):
        tree_depth(root)
