"""A table's deadline to be joined: until its first move, a table expires at its creation
plus its idle time (``expires_at``; None once a move is stored), and then counts no more as
open, whether or not a seat opened it and across restarts. A table in the database already,
unfinished and without a move, gets the deadline it would have had.

Revision ID: 0004
Revises: 0003
"""

import datetime as dt

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("lab_tables") as table:  # batch: SQLite's ALTER
        table.add_column(sa.Column("expires_at", WHEN, nullable=True))
    tables = sa.table(
        "lab_tables",
        sa.column("id", sa.String),
        sa.column("created_at", WHEN),
        sa.column("idle_seconds", sa.Integer),
        sa.column("finished_at", WHEN),
        sa.column("expires_at", WHEN),
    )
    moves = sa.table("lab_moves", sa.column("table_id", sa.String))
    unjoined = sa.select(tables.c.id, tables.c.created_at, tables.c.idle_seconds).where(
        tables.c.finished_at.is_(None),
        ~sa.exists().where(moves.c.table_id == tables.c.id),
    )
    connection = op.get_bind()
    for table_id, created_at, idle_seconds in connection.execute(unjoined).all():
        deadline = created_at + dt.timedelta(seconds=idle_seconds)
        connection.execute(
            tables.update().where(tables.c.id == table_id).values(expires_at=deadline)
        )


def downgrade() -> None:
    with op.batch_alter_table("lab_tables") as table:
        table.drop_column("expires_at")
