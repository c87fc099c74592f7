"""Tabletop Companion: the robot's side, the sums and the log of three board games."""

#: The version: the one place it is written (pyproject.toml reads it from here when a wheel
#: is built; `companion --version` and the home screen show it).
__version__ = "0.1.0"
