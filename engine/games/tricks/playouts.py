"""The trick games' search fast paths (:class:`TrickPlayouts`, a :class:`~engine.knowledge.Playouts`): random
playouts by table lookups, the PWL playout that stops once a side has more than half of the card points, lean
outcomes, and the endgame solver's keys, move lists and card points. Each makes exactly the plain rules' choices
and gives their values (tests/test_trick_speed_paths.py, tests/test_generic_games.py, tests/test_endgame.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from engine.games.tricks.bisca import SWAP_FLAG, BiscaState
from engine.games.tricks.core import TrickState, equivalent_cards, exchange_or_pick, side_outcomes, trick_so_far
from engine.games.tricks.solver import DealSolver, applies
from engine.knowledge import PLAIN_PLAYOUTS, StatePlayouts

__all__ = ["BiscaPlayouts", "TrickPlayouts", "side_points_playout"]


T = TypeVar("T", bound=TrickState)


class TrickPlayouts(StatePlayouts[T]):
    """The fast paths of a :class:`TrickState` class. Playout methods the state class itself defines (Moss Side
    Whist's rollouts) are used instead of this class's (:class:`~engine.knowledge.StatePlayouts`)."""

    def outcomes(self, state: T) -> list[float]:
        """Lean ``result().outcome(s)`` where card points decide (the side with more wins, equal points draw)."""
        if state.game.points_decide:
            ours, theirs = state.side_points()[:2]
            return side_outcomes(ours - theirs, state.num_players)
        return state.outcomes()

    def random_rollout(self, state: T, rng: random.Random) -> None:
        """Random playout to the end. Inlined fast path (:meth:`play_out_tricks`) when the class keeps the
        plain trick rules of this class (decided once per class); otherwise the generic loop."""
        if state._plain_tricks:
            state.play_out_tricks(rng)
        else:
            PLAIN_PLAYOUTS.random_rollout(state, rng)

    def playout_outcomes(self, state: T, rng: random.Random) -> list[float]:
        """Random playout and its outcomes. A game decided by card points (Sueca) with this class's plain
        trick rules stops the playout at the end of the trick that gives a side more than half of the points
        (:meth:`_side_points_playout`; the state is used up), others play to the end."""
        if state._plain_tricks and state.game.winning_points:
            return side_points_playout(state, rng)
        self.scored_playout(state, rng)
        return self.outcomes(state)

    def scored_playout(self, state: T, rng: random.Random) -> None:
        """:meth:`random_rollout`'s choices without the history and voids (with this class's plain trick
        rules); tricks, trick piles and so the result are the same."""
        if state._plain_tricks:
            state.play_out_tricks(rng, False)
        else:
            self.random_rollout(state, rng)

    def solver_key(self, state: T) -> Any:
        """Hands, the player to lead, tricks won, :meth:`score_key` and the fields a game adds (lists as tuples):
        not the history, the voids or the order in which the captured cards came. Only between tricks
        (``None`` inside one: cards played to a trick cannot come in another order)."""
        if state.trick:
            return None
        key = [tuple(state.hands), state.current, tuple(state.tricks_won), state.score_key()]
        for name in state._solver_slots:
            value = getattr(state, name)
            key.append(tuple(value) if value.__class__ is list else value)
        return tuple(key)

    def solver_moves(self, state: T) -> list[int]:
        """The legal moves less each card that an equivalent lower one of the same hand stands for (see
        :meth:`solver_equivalents`); in card-point games, likely best first (the last card of a trick by what
        the trick brings, other cards the most valuable first)."""
        moves = state.legal_moves()
        if len(moves) < 2:
            return moves
        same = self.solver_equivalents(state, moves)
        if same:
            moves = [m for m in moves if m not in same]
        if not state.game.points_decide or len(moves) < 2 or max(moves) >= state.game.deck.size:
            return moves  # no order for flagged moves (Bisca's exchange) or where points do not decide
        if len(state.trick) == state.num_players - 1:
            moves = self._last_to_play_order(state, moves)
        else:
            pts, st, suit, trump = state.game.card_points, state.game.strength, state.game.suit_of, state.trump
            moves = sorted(moves, key=lambda m: (-pts[m], suit[m] == trump, -st[m]))
        return moves

    def _last_to_play_order(self, state: T, moves: list[int]) -> list[int]:
        """The last card of a trick, best for the mover's side first by what the trick alone brings (win: +its
        points, lose: -its points; then the weaker card): the solver tries likely best moves first."""
        g = state.game
        trick = state.trick
        key = g.winner_keys(state.trump)[g.suit_of[trick[0]]]
        points = g.card_points
        best_i = 0
        best_v = key[trick[0]]
        at_stake = points[trick[0]]
        for i in range(1, len(trick)):
            at_stake += points[trick[i]]
            if key[trick[i]] > best_v:
                best_i, best_v = i, key[trick[i]]
        n = state.num_players
        partner_wins = (state.leader + best_i) % n % 2 == state.current % 2
        strength = g.strength

        def gain(m: int) -> tuple[int, int]:
            stake = at_stake + points[m]
            ours = key[m] > best_v or partner_wins
            return (-stake if ours else stake, strength[m])

        return sorted(moves, key=gain)

    def solver_equivalents(self, state: T, moves: list[int]) -> dict[int, int]:
        """``{card: stand-in}`` for each legal card that plays exactly like a lower legal card of the same
        hand: same suit and card points, and no card between them still in play (in a hand or on the table).
        Whichever of the two is played, the rest of the hand can go the same way with the other one, so
        the endgame solver searches the lowest card of each such run only. Empty when the game's rules
        give cards other roles (flagged moves such as a pass or an exchange, or
        :meth:`solver_equivalence_applies` false)."""
        g = state.game
        size = g.deck.size
        legal = 0
        for m in moves:
            if m >= size or m < 0:
                return {}
            legal |= 1 << m
        if not state.solver_equivalence_applies():
            return {}
        in_play = 0
        for h in state.hands:
            in_play |= h
        for c in state.trick:
            in_play |= 1 << c
        return equivalent_cards(g, legal, in_play)

    def solver_points(self, state: T, seat: int) -> tuple[int, int, int] | None:
        """With :attr:`TrickGame.points_decide`: the card points ``seat``'s side has taken, those the other
        side has taken and those still to be won; else None."""
        if not state.game.points_decide:
            return None
        sides = state.side_points()
        mine, theirs = sides[seat % 2], sides[1 - seat % 2]
        return mine, theirs, state.game.total_points - mine - theirs


class BiscaPlayouts(TrickPlayouts[BiscaState]):
    """Bisca's and Briscola's fast paths: the stock, the trump exchange and the revealed cards."""

    def deal_search(self, state: BiscaState, seat: int, moves: list[int], depth: int, allowance: int,
                    score_weight: float, stop: Callable[[], bool] | None) -> dict[int, float] | None:
        """Two players without an exchange: :class:`~engine.games.tricks.solver.DealSolver` on ints."""
        if not applies(state):
            return None
        return DealSolver(state, seat, score_weight, stop).deepen(moves, depth, allowance)

    def random_rollout(self, state: BiscaState, rng: random.Random) -> None:
        """Random playout to the end (search fast path): the same choices and final state as repeatedly
        doing ``legal_moves()[int(rng.random() * len(moves))]``, one trick at a time with table lookups
        instead of move lists (the exchange move, when legal, is the last of the moves)."""
        rand = rng.random
        g = state.game
        suit_cards, shifts, rank_mask, kth, keys, followers, suit_of = g.playout_tables(state.trump)
        hands, voids, won, tricks_won = state.hands, state.voids, state.won, state.tricks_won
        append = state.history.append
        stock = state.stock
        follow_rule = g.follow_after_stock
        two = state.num_players == 2
        xcard = state.exchange_card
        exchange = xcard >= 0
        revealed = state.revealed
        trick = state.trick
        leader = state.leader
        if trick:  # finish the trick in progress
            led = suit_of[trick[0]]
            key = keys[led]
            best, best_v, w = trick_so_far(trick, (leader,) + followers[leader], key)
            seats: tuple[int, ...] = followers[leader][len(trick) - 1:]
        else:
            leader = state.current
            if not hands[leader]:
                return
            seats = ()
        while True:
            if not seats:  # lead a new trick with any card (or exchange first)
                hand = hands[leader]
                if not hand:
                    break
                count = hand.bit_count()
                if exchange and stock and hand >> xcard & 1:
                    k = int(rand() * (count + 1))
                    if k == count:  # the exchange move (last in legal_moves()); the turn goes on
                        face = stock[0]
                        hand = hands[leader] = hand ^ (1 << xcard) | 1 << face
                        stock[0] = xcard
                        revealed = (revealed | 1 << face) & ~(1 << xcard)
                        append((leader, SWAP_FLAG | xcard))
                        k = int(rand() * count)
                else:
                    k = int(rand() * count)
                card = kth(hand, k)
                w = 1 << card
                hands[leader] = hand ^ w
                if revealed and revealed & w:
                    revealed ^= w
                append((leader, card))
                led = suit_of[card]
                key = keys[led]
                best, best_v = leader, key[card]
                seats = followers[leader]
            if follow_rule and not stock:  # Bisca after the stock: follow suit if able
                table = suit_cards[led]
                shift = shifts[led]
                for seat in seats:
                    hand = hands[seat]
                    follow = table[hand >> shift & rank_mask]
                    if follow:
                        card = follow[int(rand() * len(follow))]
                        bit = 1 << card
                    else:
                        voids[seat] |= 1 << led
                        card = kth(hand, int(rand() * hand.bit_count()))
                        bit = 1 << card
                    hands[seat] = hand ^ bit
                    if revealed and revealed & bit:
                        revealed ^= bit
                    w |= bit
                    if key[card] > best_v:
                        best, best_v = seat, key[card]
                    append((seat, card))
            else:
                for seat in seats:
                    hand = hands[seat]
                    count = hand.bit_count()
                    if exchange and stock and hand >> xcard & 1:
                        k = int(rand() * (count + 1))
                        if k == count:  # exchange, then choose the card to play
                            face = stock[0]
                            hand = hands[seat] = hand ^ (1 << xcard) | 1 << face
                            stock[0] = xcard
                            revealed = (revealed | 1 << face) & ~(1 << xcard)
                            append((seat, SWAP_FLAG | xcard))
                            k = int(rand() * count)
                    else:
                        k = int(rand() * count)
                    card = kth(hand, k)
                    bit = 1 << card
                    hands[seat] = hand ^ bit
                    if revealed and revealed & bit:
                        revealed ^= bit
                    w |= bit
                    if key[card] > best_v:
                        best, best_v = seat, key[card]
                    append((seat, card))
            won[best] |= w
            tricks_won[best] += 1
            leader = best
            seats = ()
            if stock:  # draw: the winner first, the face-up trump last
                if two and len(stock) > 2:
                    hands[best] |= 1 << stock.pop()
                    hands[1 - best] |= 1 << stock.pop()
                else:
                    for seat in (best,) + followers[best]:
                        c = stock.pop()
                        hands[seat] |= 1 << c
                        if not stock:
                            revealed |= 1 << c
                            break
        trick.clear()
        state.revealed = revealed
        state.leader = state.current = leader

    def playout_outcomes(self, state: BiscaState, rng: random.Random) -> list[float]:
        """The search's PWL playout: the random choices of :meth:`random_rollout`, stopped after the trick
        that gives a side more than half of the card points, and the outcomes of playing on to the end.

        Only what decides the outcome is kept up to date (hands, stock, card points): the state is used
        up afterwards (no history, trick piles, voids or revealed cards), so search calls it on a copy."""
        if state.num_players == 2:
            return self._two_player_playout(state, rng)
        return side_points_playout(state, rng)

    def _two_player_playout(self, state: BiscaState, rng: random.Random) -> list[float]:
        """:meth:`playout_outcomes` for two players (the default rules), with the follower's play unrolled."""
        rand = rng.random
        g = state.game
        suit_cards, shifts, rank_mask, kth, keys, _followers, suit_of = g.playout_tables(state.trump)
        points = g.card_points
        stop = g.winning_points
        hands = state.hands
        stock = state.stock
        follow_rule = g.follow_after_stock
        xcard = state.exchange_card
        exchange = xcard >= 0 and bool(stock)
        sides = state.side_points()
        leader = state.leader
        if state.trick:  # the leader has played: the follower's turn
            lead = state.trick[0]
            follower = state.current
        else:
            leader = state.current
            lead = -1
        while True:
            if lead < 0:  # lead a new trick with any card (or exchange first)
                hand = hands[leader]
                if not hand:
                    break
                count = hand.bit_count()
                if exchange and hand >> xcard & 1:  # the exchange is the last legal move; the turn goes on
                    hand, k, exchange = exchange_or_pick(hand, count, xcard, stock, rand)
                else:
                    k = int(rand() * count)
                lead = kth(hand, k)
                hands[leader] = hand ^ 1 << lead
                follower = 1 - leader
            hand = hands[follower]
            if follow_rule and not stock:  # Bisca after the stock: follow suit if able
                led = suit_of[lead]
                follow = suit_cards[led][hand >> shifts[led] & rank_mask]
                if follow:
                    card = follow[int(rand() * len(follow))]
                else:
                    card = kth(hand, int(rand() * hand.bit_count()))
            else:
                count = hand.bit_count()
                if exchange and hand >> xcard & 1:  # the exchange is the last legal move; the turn goes on
                    hand, k, exchange = exchange_or_pick(hand, count, xcard, stock, rand)
                else:
                    k = int(rand() * count)
                card = kth(hand, k)
            hands[follower] = hand ^ 1 << card
            key = keys[suit_of[lead]]
            if key[card] > key[lead]:
                leader = follower
            p = sides[leader] = sides[leader] + points[lead] + points[card]
            if p > stop:
                break
            lead = -1
            if stock:  # draw: the winner first (two players' stock always holds an even number of cards)
                hands[leader] |= 1 << stock.pop()
                hands[1 - leader] |= 1 << stock.pop()
                exchange = exchange and bool(stock)
        return side_outcomes(sides[0] - sides[1], 2)


def side_points_playout(state: TrickState, rng: random.Random) -> list[float]:
    """:meth:`TrickPlayouts.playout_outcomes` of a game decided by card points (Sueca; Bisca and Briscola with four
    players, with their stock and trump exchange): the random choices of the game's
    random playout, stopped after the trick that gives a side (``seat % 2``) more than half of
    the card points, and the outcomes of playing on to the end. Only the hands, the stock and the card
    points are kept up to date: the state is used up afterwards."""
    rand = rng.random
    g = state.game
    suit_cards, shifts, rank_mask, kth, keys, followers, suit_of = g.playout_tables(state.trump)
    points = g.card_points
    stop = g.winning_points
    hands = state.hands
    stock: list[int] = getattr(state, "stock", [])  # a stock game's draw pile (Bisca, Briscola)
    follow_rule = g.follow_after_stock
    xcard: int = getattr(state, "exchange_card", -1)  # Bisca's trump exchange
    exchange = xcard >= 0 and bool(stock)  # until the exchange card goes under the stock, or the stock ends
    sides = state.side_points()
    trick = state.trick
    leader = state.leader
    if trick:  # finish the trick in progress
        led = suit_of[trick[0]]
        key = keys[led]
        best, best_v, _ = trick_so_far(trick, (leader,) + followers[leader], key)
        pts = sum(points[c] for c in trick)
        seats: tuple[int, ...] = followers[leader][len(trick) - 1:]
    else:
        leader = state.current
        if not hands[leader]:
            return side_outcomes(sides[0] - sides[1], state.num_players)
        seats = ()
    while True:
        if not seats:  # lead a new trick with any card (or exchange first)
            hand = hands[leader]
            if not hand:
                break
            count = hand.bit_count()
            if exchange and hand >> xcard & 1:  # the exchange is the last legal move; the turn goes on
                hand, k, exchange = exchange_or_pick(hand, count, xcard, stock, rand)
            else:
                k = int(rand() * count)
            card = kth(hand, k)
            hands[leader] = hand ^ 1 << card
            led = suit_of[card]
            key = keys[led]
            best, best_v = leader, key[card]
            pts = points[card]
            seats = followers[leader]
        if follow_rule and not stock:  # follow suit if able (Bisca: once the stock is out)
            table = suit_cards[led]
            shift = shifts[led]
            for seat in seats:
                hand = hands[seat]
                follow = table[hand >> shift & rank_mask]
                if follow:
                    card = follow[int(rand() * len(follow))]
                else:
                    card = kth(hand, int(rand() * hand.bit_count()))
                hands[seat] = hand ^ 1 << card
                pts += points[card]
                if key[card] > best_v:
                    best, best_v = seat, key[card]
        else:
            for seat in seats:
                hand = hands[seat]
                count = hand.bit_count()
                if exchange and hand >> xcard & 1:  # the exchange is the last legal move; the turn goes on
                    hand, k, exchange = exchange_or_pick(hand, count, xcard, stock, rand)
                else:
                    k = int(rand() * count)
                card = kth(hand, k)
                hands[seat] = hand ^ 1 << card
                pts += points[card]
                if key[card] > best_v:
                    best, best_v = seat, key[card]
        side = best & 1
        p = sides[side] = sides[side] + pts
        if p > stop:
            break
        leader = best
        seats = ()
        if stock:  # draw: the winner first, the face-up trump last
            for seat in (best,) + followers[best]:
                hands[seat] |= 1 << stock.pop()
                if not stock:
                    exchange = False
                    break
    return side_outcomes(sides[0] - sides[1], state.num_players)
