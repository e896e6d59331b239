"""The app's data files (fonts, translations, rule pages, themes, icons) as an importable package.

Nothing to import here: :mod:`app.resources` finds the files through ``importlib.resources.files("assets")``,
which works from a checkout, an installed wheel and a frozen bundle alike.
"""
