"""Reconquista: the solitaire wargame's rules as pure functions of a serialisable state."""
