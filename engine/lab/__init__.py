"""The lab layer: research tools built on the agents (arena, fuzz, tournaments, search depth)."""
