"""Res Arcana positions set up by hand: ``setup_position`` places every named component,
essence and piece of knowledge, then validates the state like any other from outside."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from presages_env.core.validation import check_int, check_seed, checked_state
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import kernel as k
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.cards import ESSENCES, NAMES, cid_of
from presages_env.games.res_arcana.options import PLACE_FACES
from presages_env.games.res_arcana.phases import begin_collect, clear_game, holdings


def _parse_pool(value: str | Mapping[str, int], what: str) -> list[int]:
    """Essence counts, each at most ``ESSENCE_CEILING`` (what a game still going holds)."""
    if isinstance(value, Mapping):
        counts = [0] * 5
        for letter, count in value.items():
            if not isinstance(letter, str) or len(letter) != 1 or letter not in ESSENCES:
                raise ValueError(f"{what}: {letter!r} is not an essence (one of {list(ESSENCES)})")
            counts[ESSENCES.index(letter)] = count
    elif isinstance(value, str):
        try:
            counts, any_count = cd.parse_essences(value)
        except (ValueError, IndexError):
            raise ValueError(f"{what}: cannot read essences {value!r} (write '2E 1G')") from None
        if any_count:
            raise ValueError(f"{what}: 'A' is not an essence")
    else:
        raise TypeError(f"{what} must be a string like '2E 1G' or a dict, got {value!r}")
    return [
        check_int(count, f"{what}[{letter!r}]", 0, lay.ESSENCE_CEILING)
        for letter, count in zip(ESSENCES, counts, strict=True)
    ]


class _Placer:
    """Collects where each named component goes; each may be named once."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.where: dict[int, str] = {}

    def take(self, name: Any, what: str, kinds: tuple[int, ...]) -> int:
        if not isinstance(name, str):
            raise TypeError(f"{what}: components are named by strings, got {name!r}")
        cid = cid_of(name)
        if cd.KIND[cid] not in kinds:
            allowed = ", ".join(cd.KIND_NAMES[x] for x in kinds)
            raise ValueError(f"{what}: {name} is a {cd.KIND_NAMES[cd.KIND[cid]]}, not a {allowed}")
        if cid in self.where:
            raise ValueError(f"{name} is named in {self.where[cid]} and in {what}")
        self.where[cid] = what
        return cid

    def seat_lists(
        self, lists: Sequence[Iterable[str]] | None, what: str, kinds
    ) -> list[list[int]]:
        if lists is None:
            return [[] for _ in range(self.n)]
        if isinstance(lists, (str, bytes)) or len(lists) != self.n:
            raise ValueError(f"{what} must give one list per seat ({self.n})")
        return [[self.take(x, f"{what}[{s}]", kinds) for x in lst] for s, lst in enumerate(lists)]


def setup_position(
    num_players: int,
    mages: Sequence[str],
    items: Sequence[str],
    in_play: Sequence[Iterable[str]] | None = None,
    hands: Sequence[Iterable[str]] | None = None,
    decks: Sequence[Iterable[str]] | None = None,
    discards: Sequence[Iterable[str]] | None = None,
    pools: Sequence[str | Mapping[str, int]] | None = None,
    stored: Mapping[str, str | Mapping[str, int]] | None = None,
    turned: Iterable[str] = (),
    display: Sequence[str] | None = None,
    monument_deck: Sequence[str] | None = None,
    places: Sequence[str] | None = None,
    first_player: int = 0,
    passed: Sequence[bool] | None = None,
    to_act: int | None = None,
    phase: str = "actions",
    round_number: int = 1,
    seed: int = 0,
    known_tops: Sequence[int] | None = None,
    monuments_known: Sequence[int] | None = None,
    public: Sequence[Iterable[str]] | None = None,
    **options: Any,
) -> np.ndarray:
    """A position at the start of a collect phase, or at a turn of the actions phase.

    ``mages[s]``/``items[s]``: seat s's mage and magic item. ``in_play[s]``: its artifacts,
    monuments and Places of Power. ``hands``, ``decks`` (top first), ``discards``: its cards.
    ``pools[s]``: ``"2E 1G"`` or ``{"E": 2, "G": 1}`` (default empty). ``stored`` and
    ``turned`` name components in play. ``display``/``monument_deck`` (top first): the unowned
    monuments (defaults: the rest, shuffled from ``seed``, the first two face up).
    ``places``: faces of unowned Place of Power tiles in the centre (the other unowned tiles
    show the face the ``places_of_power`` option gives). ``phase``: ``"actions"`` (``to_act``
    decides, default the first seat from the first player that has not passed) or
    ``"collect"`` (from the first player). Once a seat has ``passed``, the first to pass
    took the first-player token: ``first_player`` must then be one of the seats that passed
    (play reaches no other position). Everything not named is out of the game.
    What the seats know, carried from earlier rounds (default nothing): ``known_tops[s]``,
    how many top cards of its own deck seat s has looked at (at most 3);
    ``monuments_known[s]``, how many top monuments it knows in order (at most 3);
    ``public[s]``, cards of its hand or deck everyone knows are there (they went from its
    face-up discard pile into its deck). Every other hidden card is unknown to the rivals.
    The position is validated; the state's RNG (later shuffles) is seeded from ``seed``.
    """
    from presages_env.games.res_arcana.game import ResArcanaGame  # game.py imports this module

    game = ResArcanaGame()
    n = game.check_num_players(num_players)
    seed = check_seed(seed)
    opts = game.make_options(n, **options)
    if phase not in ("actions", "collect"):
        raise ValueError(f"phase must be 'actions' or 'collect', got {phase!r}")
    first_player = _seat(first_player, n, "first_player")
    placer = _Placer(n)
    seats = _seat_components(placer, n, mages, items, in_play, hands, decks, discards)
    passed_flags = (
        [False] * n if passed is None else [bool(x) for x in _per_seat(passed, n, "passed")]
    )
    to_act = _checked_turn(to_act, first_player, passed_flags, phase)
    rng = np.random.default_rng(seed)

    state = game.blank_state(n, opts)
    clear_game(state)
    state[lay.ROUND] = check_int(round_number, "round_number", 1, 10_000)
    state[lay.FIRST_PLAYER] = first_player
    state[lay.TOKEN_TAKEN] = int(any(passed_flags))
    for s in range(n):
        state[lay.PASSED + s] = int(passed_flags[s])
        _place_seat(state, s, *seats[s])
    for c in range(cd.FIRST_ITEM, cd.FIRST_ITEM + cd.NUM_ITEMS):
        if state[lay.LOC + c] != lay.LOC_PLAY:
            state[lay.LOC + c] = lay.LOC_SUPPLY
    _setup_monuments(state, placer, display, monument_deck, rng)
    _setup_places(state, placer, places, opts, rng)
    _setup_essences(state, n, pools, stored, turned)
    _setup_knowledge(state, n, known_tops, monuments_known, public)
    if phase == "actions":
        state[lay.PHASE] = lay.PHASE_ACTIONS
        state[lay.TURN_PLAYER] = to_act
    else:
        begin_collect(state)
    k.start_position(state, np.int64(seed))
    return checked_state(game, state, n)


def _seat_components(
    placer: _Placer,
    n: int,
    mages: Sequence[str],
    items: Sequence[str],
    in_play: Sequence[Iterable[str]] | None,
    hands: Sequence[Iterable[str]] | None,
    decks: Sequence[Iterable[str]] | None,
    discards: Sequence[Iterable[str]] | None,
) -> list[tuple[list[int], ...]]:
    """Each seat's named components, as :func:`_place_seat` takes them: its mage and item,
    the rest in play, its hand, its discards and its deck (top first)."""
    mage_ids = placer.seat_lists([[m] for m in _per_seat(mages, n, "mages")], "mages", (cd.MAGE,))
    item_ids = placer.seat_lists([[i] for i in _per_seat(items, n, "items")], "items", (cd.ITEM,))
    owned = placer.seat_lists(in_play, "in_play", (cd.ARTIFACT, cd.MONUMENT, cd.PLACE))
    hand_ids = placer.seat_lists(hands, "hands", (cd.ARTIFACT,))
    deck_ids = placer.seat_lists(decks, "decks", (cd.ARTIFACT,))
    discard_ids = placer.seat_lists(discards, "discards", (cd.ARTIFACT,))
    return [
        (mage_ids[s] + item_ids[s], owned[s], hand_ids[s], discard_ids[s], deck_ids[s])
        for s in range(n)
    ]


def _checked_turn(to_act: int | None, first_player: int, passed: list[bool], phase: str) -> int:
    """The seat to act: given, or the first from the first player that has not passed."""
    n = len(passed)
    if to_act is None:
        order = [(first_player + step) % n for step in range(n)]
        waiting = [seat for seat in order if not passed[seat]]
        to_act = waiting[0] if waiting else first_player
    to_act = _seat(to_act, n, "to_act")
    if phase == "actions" and passed[to_act]:
        raise ValueError(f"seat {to_act} has passed and cannot act")
    if phase == "collect" and any(passed):
        raise ValueError("nobody has passed when a round's collect phase begins")
    return to_act


def _place_seat(
    state: np.ndarray,
    s: int,
    mage_and_item: list[int],
    owned: list[int],
    hand: list[int],
    discard: list[int],
    deck: list[int],
) -> None:
    """Seat ``s``'s components where named: in play, in hand, discarded, in its deck (top
    first); the artifacts among them are seen."""
    for c in mage_and_item + owned:
        state[lay.LOC + c] = lay.LOC_PLAY
        state[lay.OWNER + c] = s
    for c in hand + discard:
        state[lay.LOC + c] = lay.LOC_HAND if c in hand else lay.LOC_DISCARD
        state[lay.OWNER + c] = s
        state[lay.SEEN + c] = 1
    for i, c in enumerate(reversed(deck)):
        state[lay.DECK + s * lay.DECK_CAP + i] = c
        state[lay.LOC + c] = lay.LOC_DECK
        state[lay.OWNER + c] = s
        state[lay.SEEN + c] = 1
    state[lay.DECK_SIZE + s] = len(deck)
    for c in owned:
        if c < cd.NUM_ARTIFACTS:
            state[lay.SEEN + c] = 1


def _setup_essences(
    state: np.ndarray,
    n: int,
    pools: Sequence[str | Mapping[str, int]] | None,
    stored: Mapping[str, str | Mapping[str, int]] | None,
    turned: Iterable[str],
) -> None:
    """Each seat's pool, the essences stored on components in play, the turned components,
    and what each seat holds counted as gained."""
    if pools is not None:
        for s, value in enumerate(_per_seat(pools, n, "pools")):
            state[lay.POOL + 5 * s : lay.POOL + 5 * s + 5] = _parse_pool(value, f"pools[{s}]")
    for name, value in (stored or {}).items():
        cid = cid_of(name)
        if state[lay.LOC + cid] != lay.LOC_PLAY:
            raise ValueError(f"stored: {name} is not in play")
        state[lay.STORED + 5 * cid : lay.STORED + 5 * cid + 5] = _parse_pool(
            value, f"stored[{name}]"
        )
    for name in turned:
        cid = cid_of(name)
        if state[lay.LOC + cid] != lay.LOC_PLAY:
            raise ValueError(f"turned: {name} is not in play")
        state[lay.TURNED + cid] = 1
    for s in range(n):
        for e in range(cd.NUM_ESSENCES):
            state[lay.GAINED + 5 * s + e] = holdings(state, s, e)


def _seat(value: Any, n: int, what: str) -> int:
    return check_int(value, what, 0, n - 1)


def _per_seat(values: Any, n: int, what: str) -> list:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) != n:
        raise ValueError(f"{what} must give one entry per seat ({n})")
    return list(values)


def _setup_knowledge(state, n, known_tops, monuments_known, public) -> None:
    for s, count in enumerate(_per_seat(known_tops or [0] * n, n, "known_tops")):
        limit = min(lay.LOOK_DEPTH, int(state[lay.DECK_SIZE + s]))
        state[lay.KNOWN_TOP + s] = check_int(count, f"known_tops[{s}]", 0, limit)
    for s, count in enumerate(_per_seat(monuments_known or [0] * n, n, "monuments_known")):
        limit = min(lay.LOOK_DEPTH, int(state[lay.MON_DECK_SIZE]))
        state[lay.MON_KNOWN + s] = check_int(count, f"monuments_known[{s}]", 0, limit)
    for s, names in enumerate(_per_seat(public or [[]] * n, n, "public")):
        for name in names:
            c = cid_of(name)
            where = (int(state[lay.LOC + c]), int(state[lay.OWNER + c]))
            if where not in ((lay.LOC_HAND, s), (lay.LOC_DECK, s)):
                raise ValueError(f"public[{s}]: {name} is not in seat {s}'s hand or deck")
            state[lay.SEEN + c] = lay.SEEN_BY_ALL


def _setup_monuments(state, placer, display, monument_deck, rng) -> None:
    shown = [placer.take(x, "display", (cd.MONUMENT,)) for x in (display or [])]
    if len(shown) > 2:
        raise ValueError(f"at most 2 monuments are face up, got {len(shown)}")
    rest = [
        c
        for c in range(cd.FIRST_MONUMENT, cd.FIRST_MONUMENT + cd.NUM_MONUMENTS)
        if c not in placer.where
    ]
    if monument_deck is None:
        order = [int(c) for c in rng.permutation(rest)]
        if display is None:
            shown, order = order[:2], order[2:]
    else:
        order = [placer.take(x, "monument_deck", (cd.MONUMENT,)) for x in monument_deck]
        left = sorted(set(rest) - set(order) - set(shown))
        if left:
            raise ValueError(
                "every monument is owned, face up or in monument_deck; missing: "
                + ", ".join(NAMES[c] for c in left)
            )
    for slot in range(2):
        card = shown[slot] if slot < len(shown) else -1
        state[lay.DISPLAY + slot] = card
        if card >= 0:
            state[lay.LOC + card] = lay.LOC_DISPLAY
    for i, c in enumerate(reversed(order)):
        state[lay.MON_DECK + i] = c
        state[lay.LOC + c] = lay.LOC_MON_DECK
    state[lay.MON_DECK_SIZE] = len(order)


def _setup_places(state, placer, places, opts, rng) -> None:
    owned_tiles = {
        (c - cd.FIRST_PLACE) // 2
        for c in range(cd.FIRST_PLACE, cd.NUM_COMPONENTS)
        if state[lay.LOC + c] == lay.LOC_PLAY
    }
    if len(owned_tiles) != sum(
        1 for c in range(cd.FIRST_PLACE, cd.NUM_COMPONENTS) if state[lay.LOC + c] == lay.LOC_PLAY
    ):
        raise ValueError("both faces of one Place of Power tile are in play")
    center = [placer.take(x, "places", (cd.PLACE,)) for x in (places or [])]
    tiles = [(c - cd.FIRST_PLACE) // 2 for c in center]
    if len(set(tiles)) != len(tiles) or set(tiles) & owned_tiles:
        raise ValueError("places: one face per tile, and not of a tile in play")
    faces = PLACE_FACES.index(opts.places_of_power)
    for t in range(cd.NUM_TILES):
        if t not in owned_tiles and t not in tiles:
            face = faces if faces < 2 else int(rng.integers(2))
            center.append(cd.FIRST_PLACE + 2 * t + face)
    for c in center:
        state[lay.LOC + c] = lay.LOC_CENTER
