"""The SQLite store. Import ``companion.store.db`` for the Store itself.

This package module stays empty on purpose: ``preflight`` (standard library
only) must be importable without loading SQLAlchemy.
"""
