"""The pygame-ce + pygame-gui front end."""
