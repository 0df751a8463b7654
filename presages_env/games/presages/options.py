"""Présages' options, declared once: each field's type and default, its meaning in the class
docstring and its range in the option space. Nothing here loads the rules (numba), so
``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

import dataclasses

from presages_env.core.option_space import integers, mapped, one_of


@dataclasses.dataclass(frozen=True)
class PresagesOptions:
    """Options of a Présages game; the defaults are the printed rules.

    pride_carries_into_next_round: Pride (22) played in the last bout of a round makes its
        left neighbour start the next round, instead of the player who won the round.
    bout_winner_is_placer: the bout is won by whoever placed the winning card from their
        hand, instead of the player it lies in front of (the card's printed wording). Only
        differs after Dream, Betrayal or Jealousy moved the card; the next starter follows
        the winner (unless Pride), while Luck, Pride and returns always use the holder.
    dream_reply_resolved_by_target: the ⚡ of the card a Dream target places in front of the
        Dream player is resolved by the target, instead of the Dream player. "Another
        player" for Wrath, Betrayal and Jealousy then means anyone but the resolver, and the
        effect card itself is never a target.
    betrayal_law_judged_before_take: Law binds Betrayal's gift as judged before the take, so
        taking Law does not free the gift (as some online tables play it).
    reveal_all_hands_at_round_end: every hand, not only the ≤ 1-card hands, is shown to all
        players when a round ends (as some online tables play it).
    round_reward: per-round shaping: at each round end every member of the winning team gets
        +round_reward and everyone else -round_reward (0 to 1, in steps of 0.001), on top of
        the ±1 at game end.
    """

    pride_carries_into_next_round: bool = False
    bout_winner_is_placer: bool = False
    dream_reply_resolved_by_target: bool = False
    betrayal_law_judged_before_take: bool = False
    reveal_all_hands_at_round_end: bool = False
    round_reward: float = 0.0


Options = PresagesOptions  # the names describe_options reads, as on the Game
option_space = {
    **{
        field.name: one_of(False, True)
        for field in dataclasses.fields(PresagesOptions)
        if field.type == "bool"
    },
    "round_reward": mapped(
        integers(0, 1000), lambda milli: milli / 1000, "0 to 1 in steps of 0.001"
    ),
}
