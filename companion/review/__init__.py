"""Looking back at finished play: statistics, the luck ledger, export and import.

Every figure here is read from the store with SQL and counts only the effective
steps of a log (an answer withdrawn by undo or replaced by a correction does not
count). The functions take a Store and return frozen dataclasses with
``to_json()``, for the CLI and the screens alike:

- ``stats``: game statistics (Reconquista, Battle of Simancas, Terra de Castells);
- ``luck``: the faces of physical and app dice against a fair die (chi-square);
- ``exchange``: a session as JSON, CSV or Markdown, and a checked import.
"""
