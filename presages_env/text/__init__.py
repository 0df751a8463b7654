"""Text interfaces: a seat's decision in words, for language models, people and scripts.

Three tiers (:data:`~presages_env.text.decision.TIERS`, docs/text_agents.md): the seat's
observation in words (``"observation"``), the same with the numbered legal moves
(``"moves"``), and a tool-calling form (``"tools"``). Everything is built from what the
seat may know. :class:`TextAgent` seats any ``prompt -> answer`` function at a table.
"""

from presages_env.text.agent import TextAgent, save_transcript
from presages_env.text.decision import TIERS, Decision, prompt
from presages_env.text.parse import Parsed, parse_answer
from presages_env.text.table import play_game
from presages_env.text.tools import run_tool, tool_definitions

__all__ = [
    "TIERS",
    "Decision",
    "Parsed",
    "TextAgent",
    "parse_answer",
    "play_game",
    "prompt",
    "run_tool",
    "save_transcript",
    "tool_definitions",
]
