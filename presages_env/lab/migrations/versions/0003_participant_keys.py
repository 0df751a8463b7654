"""Study mode: each participant's key, issued at consent (only its SHA-256 is kept), which
every later call of theirs must carry: a participant's id alone opens nothing. A participant
who consented before this revision has none: the study's owner issues them one. A study's
tables are found by an index (a study's table page names no agent).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("lab_participants") as table:  # batch: SQLite's ALTER
        table.add_column(sa.Column("key_hash", sa.String(64), nullable=True))
    op.create_index("ix_lab_study_games_table_id", "lab_study_games", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_lab_study_games_table_id", "lab_study_games")
    with op.batch_alter_table("lab_participants") as table:
        table.drop_column("key_hash")
