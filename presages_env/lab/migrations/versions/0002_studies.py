"""Study mode: studies, participants, their games and their answers.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def _participant_key() -> list[sa.Column]:
    return [
        sa.Column("study_id", sa.String(32), sa.ForeignKey("lab_studies.id"), primary_key=True),
        sa.Column("participant", sa.String(64), primary_key=True),
    ]


def upgrade() -> None:
    op.create_table(
        "lab_studies",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "lab_participants",
        *_participant_key(),
        sa.Column("condition", sa.String(40), nullable=False),
        sa.Column("consented_at", WHEN, nullable=False),
    )
    op.create_table(
        "lab_study_games",
        *_participant_key(),
        sa.Column("game_index", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("lab_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
    )
    op.create_table(
        "lab_answers",
        *_participant_key(),
        sa.Column("game_index", sa.Integer, primary_key=True),
        sa.Column("question", sa.Integer, primary_key=True),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("answered_at", WHEN, nullable=False),
    )


def downgrade() -> None:
    for table in ("lab_answers", "lab_study_games", "lab_participants", "lab_studies"):
        op.drop_table(table)
