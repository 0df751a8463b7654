"""Présages positions set up by hand: ``setup_position`` checks the hands, the cards set
aside, the teams and the match so far, places them, and validates the state like any other
from outside."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from presages_env.core.validation import check_int, check_seed
from presages_env.games.presages import kernel as k
from presages_env.games.presages import validate as v
from presages_env.games.presages.cards import NUM_CARDS, is_absolute


def setup_position(
    num_players: int,
    hands: Sequence[Iterable[int]],
    starter: int,
    teams: Sequence[int] | None = None,
    round_number: int = 1,
    rounds_won: Sequence[int] | None = None,
    set_aside: Iterable[int] | None = None,
    seed: int = 0,
    start_absolus: Sequence[int] | None = None,
    **options: Any,
) -> np.ndarray:
    """A state at the start of a bout, at node PLACE for ``starter``.

    ``hands[s]`` lists seat s's cards (values 1..35, each hand at least 2 cards, as at every
    bout start). ``teams[s]`` is seat s's team (0..1, or 0..2 at 6 players, sizes as in the
    rules); when omitted, every seat must hold exactly one Absolu and the teams are formed
    from them as in round-1 setup (then those Absolus count as dealt face up). ``rounds_won``
    gives each team's laurels (0 or 1). ``set_aside`` are the cards out of this round; the
    default is every card in no hand. Cards in no hand and not set aside are in the box (out
    of the game). The state's RNG, used for later deals, is seeded from ``seed``. The position
    built is validated like any state from outside (``checked_state``).

    Match history, for a position of a later round (e.g. replaying an external log):
    ``round_number`` and ``rounds_won`` give the round and the laurels, the cards in neither
    the hands nor ``set_aside`` are the box, and ``start_absolus[s]`` is the Absolu seat s
    was dealt face up in round 1 (public all game; they form the teams, which must then agree
    with ``teams`` if given, and they are exactly the Absolus in use). The last round's
    winner and final table are not carried (``last_round_winner`` reads -1): the validator
    would need that round's last bout.
    """
    from presages_env.games.presages.game import PresagesGame  # game.py imports this module

    game = PresagesGame()
    n = game.check_num_players(num_players)
    seed = check_seed(seed)
    opts = game.make_options(n, **options)
    seen: dict[int, str] = {}
    hand_values = _checked_hands(hands, n, seen)
    starter = check_int(starter, "starter", 0, n - 1)
    round_number = check_int(round_number, "round_number", 1, v.MAX_SETUP_ROUND)
    if set_aside is None:
        aside = [c for c in range(1, NUM_CARDS + 1) if c not in seen]
    else:
        aside = _check_cards(set_aside, "set_aside", seen)
    dealt = None if start_absolus is None else _checked_start_absolus(start_absolus, n, seen)
    absolus = [[c for c in h if is_absolute(c)] for h in hand_values]
    if teams is None and dealt is None and any(len(a) != 1 for a in absolus):
        raise ValueError(
            "teams can only be formed from the Absolus when every seat holds exactly one "
            f"Absolu (30..35); hands hold {absolus}: pass teams=[...]"
        )
    team_list = None if teams is None else _check_teams(teams, n)
    laurels = _checked_laurels(rounds_won, n)

    state = game.blank_state(n, opts)
    state[k.LOC : k.LOC + k.CARD_SLOTS] = k.LOC_BOX
    for s, h in enumerate(hand_values):
        state[[k.LOC + c for c in h]] = s
    state[[k.LOC + c for c in aside]] = k.LOC_ASIDE
    _seat_teams(state, n, team_list, dealt, absolus, round_number)
    _check_enough_cards(state, n, sum(len(h) for h in hand_values) + len(aside))
    state[k.ROUNDS_WON : k.ROUNDS_WON + len(laurels)] = laurels
    state[k.ROUND] = round_number
    k.start_position(state, np.int64(seed), np.int64(starter))
    if dealt is not None and round_number != 1:
        state[k.START_ABSOLU : k.START_ABSOLU + n] = dealt
    return game.checked_state(state)  # refuses what the checks above let through, by slot


# ---- the arguments, checked ------------------------------------------------------------
def _check_cards(cards: Iterable[int], what: str, seen: dict[int, str]) -> list[int]:
    """Card values of ``cards``; each card may appear once across everything checked."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise TypeError(f"{what} must be an iterable of card values 1..{NUM_CARDS}")
    values = []
    for card in cards:
        value = check_int(card, f"a card of {what}", 1, NUM_CARDS)
        if value in seen:
            raise ValueError(f"card {value} appears in {seen[value]} and in {what}")
        seen[value] = what
        values.append(value)
    return values


def _check_teams(team_list: Sequence[int], n: int) -> list[int]:
    if isinstance(team_list, (str, bytes)) or not isinstance(team_list, Sequence):
        raise TypeError(f"teams must be a sequence of {n} team indices")
    if len(team_list) != n:
        raise ValueError(f"teams must give one team per seat ({n}), got {len(team_list)}")
    num_teams = 3 if n == 6 else 2
    values = [check_int(t, "a team index", 0, num_teams - 1) for t in team_list]
    sizes = sorted(values.count(t) for t in range(num_teams))
    allowed = {4: [2, 2], 5: [2, 3], 6: [2, 2, 2]}[n]
    if sizes != allowed:
        raise ValueError(
            f"at {n} players the team sizes must be {allowed}, got teams {values} (sizes {sizes})"
        )
    return values


def _checked_hands(hands: Sequence[Iterable[int]], n: int, seen: dict[int, str]) -> list[list[int]]:
    """Each seat's card values: distinct, at least 2 per hand (as at every bout start)."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence) or len(hands) != n:
        raise ValueError(f"hands must be a sequence of {n} hands, one per seat")
    hand_values = [_check_cards(h, f"hand {s}", seen) for s, h in enumerate(hands)]
    short = [s for s, h in enumerate(hand_values) if len(h) < 2]
    if short:
        raise ValueError(
            f"every hand holds at least 2 cards at the start of a bout; seats {short} do not"
        )
    return hand_values


def _checked_start_absolus(start_absolus: Sequence[int], n: int, seen: dict[int, str]) -> list[int]:
    """The Absolus dealt face up in round 1: exactly the Absolus in use, one per seat."""
    if isinstance(start_absolus, (str, bytes)) or not isinstance(start_absolus, Sequence):
        raise TypeError(f"start_absolus must be a sequence of {n} Absolus (30..35)")
    if len(start_absolus) != n:
        raise ValueError(f"start_absolus must give one Absolu per seat ({n})")
    dealt = [check_int(a, "a face-up Absolu", 30, 35) for a in start_absolus]
    in_use = sorted(c for c in [*seen] if is_absolute(c))
    if len(set(dealt)) != n or in_use != sorted(dealt):
        raise ValueError(
            f"start_absolus {dealt} must be {n} distinct Absolus, exactly those in the "
            f"hands and set aside ({in_use}); the others are in the box"
        )
    return dealt


def _checked_laurels(rounds_won: Sequence[int] | None, n: int) -> list[int]:
    """Each team's laurels so far (0 or 1)."""
    num_teams = 3 if n == 6 else 2
    laurels = [0] * num_teams if rounds_won is None else list(rounds_won)
    if len(laurels) != num_teams:
        raise ValueError(f"rounds_won must give {num_teams} team counts, got {len(laurels)}")
    return [check_int(x, "rounds_won of a team", 0, 1) for x in laurels]


# ---- the state, built ------------------------------------------------------------------
def _seat_teams(
    state: np.ndarray,
    n: int,
    team_list: list[int] | None,
    dealt: list[int] | None,
    absolus: list[list[int]],
    round_number: int,
) -> None:
    """The teams as given, or formed by the round-1 rule from the Absolus dealt face up: those
    of ``start_absolus``, else the one in each hand (which then count as dealt face up)."""
    if dealt is None and team_list is not None:
        state[k.TEAM : k.TEAM + n] = team_list
        state[k.NUM_TEAMS] = 3 if n == 6 else 2
        return
    state[k.START_ABSOLU : k.START_ABSOLU + n] = (
        dealt if dealt is not None else [a[0] for a in absolus]
    )
    k.form_teams(state)
    formed = [int(t) for t in state[k.TEAM : k.TEAM + n]]
    if team_list is not None and formed != team_list:
        raise ValueError(f"start_absolus {dealt} form teams {formed}, not teams {team_list}")
    if round_number != 1:  # history only: written back once the round has started
        state[k.START_ABSOLU : k.START_ABSOLU + n] = 0


def _check_enough_cards(state: np.ndarray, n: int, in_use: int) -> None:
    """Hands and set-aside cards hold at least what a later round deals."""
    team_of = [int(t) for t in state[k.TEAM : k.TEAM + n]]
    needed = sum(int(k.hand_size_for(n, team_of.count(t))) for t in team_of)
    if in_use < needed:
        raise ValueError(
            f"hands and set_aside hold {in_use} cards, fewer than the {needed} a later round "
            "deals; set aside more cards (cards in neither are out of the game)"
        )
