"""The app's screens; importing this package registers every screen with ``app.navigation``."""

from app.screens import menu, new_game, rules, settings, statistics, study, summary, survey, table

__all__ = ["menu", "new_game", "rules", "settings", "statistics", "study", "summary", "survey", "table"]
