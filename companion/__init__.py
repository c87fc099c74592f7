"""Tabletop Companion: the robot's side, the sums and the log of three board games."""

__version__ = "0.1.0"
