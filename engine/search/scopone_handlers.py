"""Scopone move resolvers for the ISMCTS move handlers of seeds/002 5.5.

With ``handler=card`` (registered by the rule-based players: one tree branch per played card) the
``greedy`` resolver picks the capture the Greedy player would make with that card, which together gives
the One Card Handler (OCH); without a resolver a random capture of the card is played. The All Moves
Handler (AMH) is the default (no handler), and the Greedy Opponents Handler (GOH) is ``opponents=greedy``.
"""

from __future__ import annotations

import random

from engine.game import GameState
from engine.search import hooks


def greedy_resolver(state: GameState, moves: list[int], rng: random.Random) -> int:
    """The Greedy player's BestMove among ``moves`` (all with the same played card)."""
    from engine.agents.scopone_rules import greedy_best

    return greedy_best(moves) if len(moves) > 1 else moves[0]


for _game in ("scopone", "scopa"):
    hooks.register_resolver(_game, "greedy", greedy_resolver)
