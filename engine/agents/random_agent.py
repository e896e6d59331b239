"""The uniformly random agent."""

from __future__ import annotations

import random

from engine.agent import Agent, Budget
from engine.observation import Observation


class RandomAgent(Agent):
    name = "random"
    description = "plays a uniformly random legal move"

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        moves = obs.legal_moves()
        return moves[int(rng.random() * len(moves))]
