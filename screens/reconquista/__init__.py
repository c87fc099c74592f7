"""The Reconquista screens: the board beside the board."""
