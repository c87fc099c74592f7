"""Game data files (TOML), installed inside the package as ``companion.data``."""
