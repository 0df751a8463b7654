"""Alembic's entry point for the lab's schema: ``Store.migrate`` hands it a connection."""

from alembic import context

from presages_env.lab.store import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
