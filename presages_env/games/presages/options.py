"""Présages' options, declared once in the option space: each option's range, label,
meaning and default; the dataclass and the checks follow from it. Nothing here loads the
rules (numba), so ``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

import numbers

from presages_env.core.option_space import integers, mapped, one_of, option
from presages_env.core.options import options_class


def _thousandths(value: object, num_players: int) -> bool:
    """A number from 0 to 1 in steps of 0.001 (``True`` is no number here)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    return 0.0 <= value <= 1.0 and abs(value * 1000 - round(value * 1000)) <= 1e-9


BOTH = one_of(False, True)
option_space = {
    "pride_carries_into_next_round": option(
        BOTH,
        "Pride carries into the next round",
        "When Pride (22) is played in the last bout of a round, its holder's left neighbour "
        "starts the next round, instead of the player who won the round (as some "
        "online tables play it).",
        default=False,
    ),
    "bout_winner_is_placer": option(
        BOTH,
        "The placer wins the bout",
        "The bout is won by whoever placed the winning card from their hand, instead of the "
        "player it lies in front of (the printed wording). It only matters after "
        "Dream, Betrayal or Jealousy moved that card.",
        default=False,
    ),
    "dream_reply_resolved_by_target": option(
        BOTH,
        "Dream's target resolves its reply",
        "The ⚡ effect of the card a Dream target places in front of the Dream player is "
        "resolved by the target, instead of the Dream player.",
        default=False,
    ),
    "betrayal_law_judged_before_take": option(
        BOTH,
        "Law binds Betrayal before the take",
        "When Betrayal takes Law, Law still limits the card given in return (as some "
        "online tables play it); by the printed rules, taking Law frees that card.",
        default=False,
    ),
    "reveal_all_hands_at_round_end": option(
        BOTH,
        "Reveal every hand at round end",
        "Every hand is shown to all players when a round ends, not only the hands of one "
        "card or none (as some online tables play it).",
        default=False,
    ),
    "round_reward": option(
        mapped(
            integers(0, 1000),
            lambda milli: milli / 1000,
            "0 to 1 in steps of 0.001",
            accepts=_thousandths,
            type="float",
        ),
        "Round reward",
        "Reward shaping for training: at each round's end every member of the winning team "
        "gets +round_reward and everyone else -round_reward, on top of the ±1 at the end of "
        "the game. Play is the same.",
        training_only=True,
        default=0.0,
    ),
}
# The options' dataclass, derived from the space (core/options.py).
PresagesOptions = Options = options_class("PresagesOptions", option_space, __name__)
