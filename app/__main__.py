"""Launch the game (placeholder until the app lands: a text demo of a Sueca hand)."""

from __future__ import annotations

import random


def main() -> None:
    from engine import agents, registry

    game = registry.create("sueca")
    rng = random.Random()
    state = game.new_hand(rng)
    players = [agents.make("random", game) for _ in range(4)]
    while not state.is_terminal():
        seat = state.current_player
        move = players[seat].choose(state.observation(seat), rng)
        print(f"seat {seat}: {state.move_text(move)}")
        state.apply(move)
    print(state.result())


if __name__ == "__main__":
    main()
