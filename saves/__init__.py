"""Everything cardtable keeps on disk: settings, the autosave, game records and statistics, surveys, studies.

Modules: ``paths`` (directories, ``CARDTABLE_HOME``), ``settings``, ``session`` (``GameSession``), ``autosave``
(``AutosaveStore``), ``records`` (``RecordsDB``, ``replay``), ``survey``, ``study``, ``export``
(``python -m saves.export --out DIR``). Never imports pygame or ``app``. See ``docs/saves.md``.
"""
