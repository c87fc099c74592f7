"""The Terra de Castells screen."""
