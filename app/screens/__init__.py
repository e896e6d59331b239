"""The app's screens (menu, new game, table, summaries, settings, rules, statistics, replay, survey)."""
