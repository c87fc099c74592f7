"""Terra de Castells: the app runs the Saracen turns beside the physical game."""
