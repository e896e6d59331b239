"""The runtime layer: what runs agents for the app and the tools (presets, workers, process supervision)."""
