"""The app's screens; importing this package registers every screen with ``app.navigation``."""

from app.screens import credits, menu, new_game, online, rules, settings, statistics, study, summary, survey, table

__all__ = ["credits", "menu", "new_game", "online", "rules", "settings", "statistics", "study", "summary", "survey",
           "table"]
