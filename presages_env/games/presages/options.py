"""Présages' options, declared once: each field's type and default, its label, meaning
and range in the option space. Nothing here loads the rules (numba), so
``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

import dataclasses

from presages_env.core.option_space import integers, mapped, one_of, option


@dataclasses.dataclass(frozen=True)
class PresagesOptions:
    """Options of a Présages game; the defaults are the printed rules. Each option's label
    and meaning are in :data:`option_space` below."""

    pride_carries_into_next_round: bool = False
    bout_winner_is_placer: bool = False
    dream_reply_resolved_by_target: bool = False
    betrayal_law_judged_before_take: bool = False
    reveal_all_hands_at_round_end: bool = False
    round_reward: float = 0.0


Options = PresagesOptions  # the names describe_options reads, as on the Game
BOTH = one_of(False, True)
option_space = {
    "pride_carries_into_next_round": option(
        BOTH,
        "Pride carries into the next round",
        "When Pride (22) is played in the last bout of a round, its holder's left neighbour "
        "starts the next round, instead of the player who won the round (as some "
        "online tables play it).",
    ),
    "bout_winner_is_placer": option(
        BOTH,
        "The placer wins the bout",
        "The bout is won by whoever placed the winning card from their hand, instead of the "
        "player it lies in front of (the printed wording). It only matters after "
        "Dream, Betrayal or Jealousy moved that card.",
    ),
    "dream_reply_resolved_by_target": option(
        BOTH,
        "Dream's target resolves its reply",
        "The ⚡ effect of the card a Dream target places in front of the Dream player is "
        "resolved by the target, instead of the Dream player.",
    ),
    "betrayal_law_judged_before_take": option(
        BOTH,
        "Law binds Betrayal before the take",
        "When Betrayal takes Law, Law still limits the card given in return (as some "
        "online tables play it); by the printed rules, taking Law frees that card.",
    ),
    "reveal_all_hands_at_round_end": option(
        BOTH,
        "Reveal every hand at round end",
        "Every hand is shown to all players when a round ends, not only the hands of one "
        "card or none (as some online tables play it).",
    ),
    "round_reward": option(
        mapped(integers(0, 1000), lambda milli: milli / 1000, "0 to 1 in steps of 0.001"),
        "Round reward",
        "Reward shaping for training: at each round's end every member of the winning team "
        "gets +round_reward and everyone else -round_reward, on top of the ±1 at the end of "
        "the game. Play is the same.",
        training_only=True,
    ),
}
