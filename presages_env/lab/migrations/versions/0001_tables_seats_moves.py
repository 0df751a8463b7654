"""The lab's first schema: tables, seats and moves.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lab_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("num_players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("idle_seconds", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "lab_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("lab_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_index("ix_lab_seats_token_hash", "lab_seats", ["token_hash"])
    op.create_table(
        "lab_moves",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("lab_tables.id"), primary_key=True),
        sa.Column("step", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Integer, nullable=False),
        sa.Column("label", sa.Text, nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reaction_ms", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("lab_moves")
    op.drop_index("ix_lab_seats_token_hash", "lab_seats")
    op.drop_table("lab_seats")
    op.drop_table("lab_tables")
