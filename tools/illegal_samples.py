"""Writes tests/data/illegal_reasons.json: a sample of illegal moves of every game with the English reason
``GameState.illegal_reason`` gives for each, the reference the engine's reasons are tested against."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

from engine import registry

_CARD = re.compile(r"\b[0-9A-Z]{1,2}[A-Z]\b|\d+")

VARIANTS = {
    "bisca": [{}, {"trump_exchange": "2"}], "briscola": [{}, {"trump_exchange": "2", "players": 4}],
    "hearts": [{}, {"jack_diamonds": True}],
    "scopone": [{}, {"ace_sweep": "assi", "capture_choice": "fewest"}, {"ace_sweep": "sbarazzino"}],
    "scopa": [{}, {"scopa_a_15": True}],
    "pharaoh": [{}, {"rules": "seed", "players": 3}],
}
PER_VARIANT = 40


def samples() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for name in registry.names():
        for variant in VARIANTS.get(name, [{}]):
            try:
                game = registry.create(name, variant)
            except Exception as exc:  # noqa: BLE001 - a variant this game does not have
                print(f"skip {name} {variant}: {exc}", file=sys.stderr)
                continue
            rng = random.Random(f"{name}{sorted(variant.items())}")
            states, pool = [], set()
            for hand in range(3):
                state = game.new_hand(rng, dealer=hand % game.num_players)
                while not state.is_terminal():
                    states.append(state.to_json())
                    moves = state.legal_moves()
                    pool.update(moves)
                    state.do(rng.choice(moves))
                states.append(state.to_json())
            pool.update(range(game.deck.size))
            pool_list = sorted(pool)
            found: dict[str, int] = {}
            picked: list[dict[str, object]] = []
            tries = 0
            while len(picked) < PER_VARIANT and tries < 20000:
                tries += 1
                text = rng.choice(states)
                state = game.state_from_json(text)
                if rng.random() < 0.8 and not state.is_terminal():
                    hand = getattr(state, "hands", [0] * 8)[state.current_player]
                    mine = [m for m in pool_list if all(hand >> c & 1 for c in state.move_cards(m))]
                    move = rng.choice(mine or pool_list)
                else:
                    move = rng.choice(pool_list)
                reason = state.illegal_reason(move)
                if reason is None:
                    continue
                key = " ".join(_CARD.sub("#", reason).split()[:4])
                if found.get(key, 0) >= 3:  # keep the sample varied
                    continue
                found[key] = found.get(key, 0) + 1
                picked.append({"game": name, "variant": variant, "state": text, "move": move, "reason": reason})
            out.extend(picked)
    return out


if __name__ == "__main__":
    path = Path(__file__).resolve().parent.parent / "tests" / "data" / "illegal_reasons.json"
    path.write_text(json.dumps(samples(), indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {path}")
