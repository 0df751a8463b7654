"""Study mode: a study file (JSON, checked before anything is stored) names one game, its
conditions (who sits in the other seats: e.g. a heuristic partner against the shipped PPO
agent's), how many games each participant plays, the consent text and the questions asked
after each game.

Participants arrive with their id in the URL (as crowd-sourcing platforms send them), give
consent, and are assigned a condition by a seeded, balanced randomisation: a condition with
the fewest participants so far, ties broken by a hash of the study's seed and the
participant's id, so the same arrivals always get the same conditions."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from typing import Any

from presages_env.core.files import parse_json
from presages_env.core.validation import check_display_name, check_int, check_seed, check_text
from presages_env.lab.agents_pool import HUMAN
from presages_env.lab.lobby import TableRequest, table_request

MAX_STUDY_BYTES = 64 * 1024
MAX_CONDITIONS = 16
MAX_QUESTIONS = 20
MAX_GAMES = 50
MAX_CONSENT = 10_000  # characters
MAX_QUESTION = 300
MAX_ANSWER = 2_000
PARTICIPANT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
FIELDS = {"name", "game", "players", "options", "conditions", "games_per_participant"}
FIELDS |= {"consent", "questions", "seed", "idle_seconds"}


@dataclasses.dataclass(frozen=True)
class Study:
    name: str
    conditions: dict[str, TableRequest]  # each condition's table (its seed drawn per game)
    games_per_participant: int
    consent: str
    questions: list[str]
    seed: int

    def to_json(self) -> dict[str, Any]:
        first = next(iter(self.conditions.values()))
        return {
            "name": self.name,
            "game": first.game,
            "players": first.num_players,
            "options": first.options,
            "conditions": {c: [s.kind for s in t.seats] for c, t in self.conditions.items()},
            "games_per_participant": self.games_per_participant,
            "consent": self.consent,
            "questions": self.questions,
            "seed": self.seed,
            "idle_seconds": first.idle_seconds,
        }


def load_study(text: str | bytes) -> Study:
    """The study in JSON ``text``; ``ValueError``/``TypeError`` saying what is wrong."""
    data = parse_json(text, "the study", MAX_STUDY_BYTES, 4)
    if not isinstance(data, dict) or set(data) != FIELDS:
        raise ValueError(f"a study has exactly the fields {sorted(FIELDS)}")
    conditions = data["conditions"]
    if not isinstance(conditions, dict) or not 1 <= len(conditions) <= MAX_CONDITIONS:
        raise ValueError(f"conditions must map 1 to {MAX_CONDITIONS} names to seat lists")
    tables = {}
    for raw_name, seats in conditions.items():
        name = check_display_name(raw_name, "a condition's name", 40)
        if name in tables:  # two spellings of one name
            raise ValueError(f"the condition {name!r} is named twice")
        if not isinstance(seats, list) or seats.count(HUMAN) != 1:
            raise ValueError(f"condition {name!r}: its seats list one human, the participant")
        request = {key: data[key] for key in ("game", "players", "options", "idle_seconds")}
        tables[name] = table_request({**request, "seats": seats}, data["idle_seconds"])
    questions = data["questions"]
    if not isinstance(questions, list) or len(questions) > MAX_QUESTIONS:
        raise ValueError(f"questions must list at most {MAX_QUESTIONS} questions")
    return Study(
        check_display_name(data["name"], "name", 100),
        tables,
        check_int(data["games_per_participant"], "games_per_participant", 1, MAX_GAMES),
        check_text(data["consent"], "consent", MAX_CONSENT),
        [check_text(q, f"questions[{i}]", MAX_QUESTION) for i, q in enumerate(questions)],
        check_seed(data["seed"]),
    )


def check_participant(participant: str) -> str:
    if not isinstance(participant, str) or not PARTICIPANT_ID.fullmatch(participant):
        raise ValueError("a participant id is 1 to 64 letters, digits, _ or -")
    return participant


def assign(study: Study, counts: dict[str, int], participant: str) -> str:
    """A condition for ``participant``: one with the fewest participants so far (``counts``),
    the tie broken by the seeded hash of the participant's id."""
    fewest = min(counts.get(c, 0) for c in study.conditions)
    tied = [c for c in study.conditions if counts.get(c, 0) == fewest]
    digest = hashlib.sha256(f"{study.seed}:{participant}".encode()).digest()
    return tied[int.from_bytes(digest[:8], "big") % len(tied)]
