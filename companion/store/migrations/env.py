"""Alembic environment: migrations run on the connection the store hands over."""

from __future__ import annotations

from alembic import context

from companion.store.models import SQLModel

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=True,  # SQLite alters tables by copying them
)
with context.begin_transaction():
    context.run_migrations()
