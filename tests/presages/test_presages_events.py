"""Présages' events tell the game as it was played: the deals rebuild the hands, every card
that moves between hands, the table and the discard pile moves in an event, bouts and rounds
are won as the state says; private events (dealt cards, Secret's card, Absolu's cards) are
seen by their parties only, and a seat's own events rebuild its own hand."""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.core.header import HDR_TERMINAL
from presages_env.games.presages import game as g
from presages_env.games.presages import kernel as k
from presages_env.games.presages.cards import JEALOUSY, SECRET

PRIVATE = {"dealt", "secret_card", "absolu_commit_card", "absolu_cards"}
OPTIONS = [
    {},
    {"bout_winner_is_placer": True, "dream_reply_resolved_by_target": True},
    {"reveal_all_hands_at_round_end": True, "pride_carries_into_next_round": True},
]


def hands_of(state: np.ndarray, n: int) -> list[set[int]]:
    return [{c for c in range(1, 36) if state[k.LOC + c] == s} for s in range(n)]


def front_of(state: np.ndarray, n: int) -> list[int]:
    return [int(state[k.FRONT + s]) for s in range(n)]


class Referee:
    """Hands, table and discard pile rebuilt from every event (a referee's log)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.hands: list[set[int]] = [set() for _ in range(n)]
        self.front = [0] * n
        self.pile: list[int] = []
        self.kinds: set[str] = set()

    def apply(self, e, state: np.ndarray) -> None:
        a, kind = e.args, e.kind
        self.kinds.add(kind)
        if kind == "round_start":
            assert a["round"] == state[k.ROUND]
            self.hands = [set() for _ in range(self.n)]
            self.front = [0] * self.n
            self.pile = []
        elif kind == "absolu_face_up":
            assert a["team"] == state[k.TEAM + a["seat"]]
            assert a["card"] == state[k.START_ABSOLU + a["seat"]]
            self.hands[a["seat"]].add(a["card"])
        elif kind == "dealt":
            self.hands[a["seat"]].add(a["card"])
        elif kind == "place":
            self.hands[e.actor].remove(a["card"])
            assert self.front[a["seat"]] == 0
            self.front[a["seat"]] = a["card"]
        elif kind == "dream":
            if a["target"] != e.actor:
                assert self.front[e.actor] == k.DREAM and self.front[a["target"]] == 0
                self.front[e.actor], self.front[a["target"]] = 0, k.DREAM
        elif kind in ("wrath", "betrayal"):
            victim = a["victim"]
            assert self.front[victim] == a["card"]
            self.front[victim] = 0
            self.hands[victim if kind == "wrath" else e.actor].add(a["card"])
        elif kind == "jealousy":
            mine = self.front.index(JEALOUSY)
            assert self.front[a["other"]] == a["card"]
            self.front[mine], self.front[a["other"]] = a["card"], JEALOUSY
        elif kind == "absolu_cards":
            actor, target = a["actor"], a["target"]
            self.hands[actor].remove(a["given"])
            self.hands[target].remove(a["returned"])
            self.hands[actor].add(a["returned"])
            self.hands[target].add(a["given"])
        elif kind == "secret_card":
            assert a["card"] in self.hands[a["shower"]]
        elif kind in ("discarded", "returned"):
            assert self.front[a["seat"]] == a["card"]
            self.front[a["seat"]] = 0
            if kind == "discarded":
                self.pile.append(a["card"])
            else:
                self.hands[a["seat"]].add(a["card"])
        elif kind == "luck_discard":
            assert a["card"] != k.FEAR
            self.hands[e.actor].remove(a["card"])
            self.pile.append(a["card"])


def play(n: int, seed: int, **options):
    """A random game; after every transition the referee's rebuild matches the state, and
    every seat's own events rebuild its own hand."""
    env = presages_env.make("presages", num_players=n, **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    referee = Referee(n)
    own = [set() for _ in range(n)]  # each seat's hand from the events it sees
    done = 0
    while True:
        state = env.get_state()
        for e in env.events()[done:]:
            referee.apply(e, state)
            for seat in range(n):
                if e.visible_to == "all" or seat in e.visible_to:
                    rebuild_own(own[seat], seat, e)
        done = len(env.events())
        assert referee.hands == hands_of(state, n)
        assert referee.front == front_of(state, n)
        assert referee.pile == list(state[k.DISCARD_LIST : k.DISCARD_LIST + len(referee.pile)])
        assert len(referee.pile) == state[k.DISCARD_COUNT]
        assert own == hands_of(state, n)
        obs, _, terminated, truncated, _ = env.last()
        if state[HDR_TERMINAL] or terminated or truncated:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env, referee


def rebuild_own(hand: set[int], seat: int, e) -> None:
    """What ``seat`` knows of its own hand from the events it sees."""
    a, kind = e.args, e.kind
    if kind == "round_start":
        hand.clear()
    elif kind in ("dealt", "absolu_face_up") and a["seat"] == seat:
        hand.add(a["card"])
    elif kind == "place" and e.actor == seat:
        hand.remove(a["card"])
    elif kind in ("wrath", "betrayal", "returned"):
        receiver = e.actor if kind == "betrayal" else a.get("victim", a.get("seat"))
        if receiver == seat:
            hand.add(a["card"])
    elif kind == "luck_discard" and e.actor == seat:
        hand.remove(a["card"])
    elif kind == "absolu_cards":
        gave, got = ("given", "returned") if a["actor"] == seat else ("returned", "given")
        hand.remove(a[gave])
        hand.add(a[got])


@pytest.mark.parametrize("n", [4, 5, 6])
def test_events_rebuild_hands_table_and_pile_after_every_step(n):
    kinds: set[str] = set()
    for seed, options in enumerate(OPTIONS):
        env, referee = play(n, 10 * n + seed, **options)
        kinds |= referee.kinds
    for kind in ("place", "dealt", "bout_won", "discarded", "returned", "round_won"):
        assert kind in kinds


def test_bouts_rounds_and_the_game_end_as_the_state_says():
    for n in (4, 5, 6):
        env, _ = play(n, 100 + n, reveal_all_hands_at_round_end=n == 5)
        state = env.get_state()
        events = env.events()
        names = [e.kind for e in events]
        assert names[:1] == ["round_start"] and names[-1] == "game_won"
        assert events[-1].args["team"] == state[k.WINNING_TEAM]
        assert names.count("absolu_face_up") == n
        rounds = [e for e in events if e.kind == "round_won"]
        assert len(rounds) == names.count("round_start") == state[k.ROUND]
        assert rounds[-1].args["seat"] == state[k.LAST_ROUND_WINNER]
        assert rounds[-1].args["laurels"] == 2
        laurels = np.zeros(3, dtype=int)
        for e in rounds:
            laurels[e.args["team"]] += 1
            assert e.args["laurels"] == laurels[e.args["team"]]
        assert list(laurels) == list(state[k.ROUNDS_WON : k.ROUNDS_WON + 3])
        # the last round's reveal is the state's
        last = max(i for i, e in enumerate(events) if e.kind == "round_start")
        revealed = {(e.args["seat"], e.args["card"]) for e in events[last:] if e.kind == "revealed"}
        expected = {(int(state[k.REVEAL + c]) - 1, c) for c in range(1, 36) if state[k.REVEAL + c]}
        assert revealed == expected
        # every bout: the winning card is the first discarded and the winner is the state's
        for i, e in enumerate(events):
            if e.kind == "bout_won":
                first = events[i + 1]
                assert first.kind == "discarded" and first.args["card"] == e.args["card"]
                assert first.args["reason"] == k.KIND_WINNER
                following = events[i + 1 : i + 1 + n]
                assert all(f.kind in ("discarded", "returned") for f in following)
                assert len({f.args["seat"] for f in following}) == n
        bouts = [e for e in events if e.kind == "bout_won"]
        assert bouts[-1].args["winner"] == state[k.LAST_BOUT_WINNER]
        assert bouts[-1].args["next_starter"] == state[k.NEXT_STARTER]


def test_private_events_are_seen_by_their_parties_only():
    seen_kinds: set[str] = set()
    for n in (4, 5, 6):
        for seed in range(3):
            env, _ = play(n, 200 + 10 * n + seed)
            for e in env.events():
                a = e.args
                if e.kind not in PRIVATE:
                    assert e.visible_to == "all", e
                    continue
                seen_kinds.add(e.kind)
                if e.kind == "dealt":
                    parties = {a["seat"]}
                elif e.kind == "secret_card":
                    parties = {a["shower"], a["viewer"]}
                elif e.kind == "absolu_commit_card":
                    parties = {e.actor}
                else:
                    parties = {a["actor"], a["target"]}
                assert set(e.visible_to) == parties, e
            for seat in range(n):
                for e in env.events(seat):
                    assert e.kind not in PRIVATE or seat in e.visible_to
    assert seen_kinds == PRIVATE


def test_secret_and_absolu_in_a_set_up_bout():
    """W21/W22-like: Secret shows a card to one seat; an Absolu exchange shows its two cards
    to its parties; the others learn only that it happened."""
    state = g.setup_position(
        4,
        [[SECRET, 1, 2], [30, 9, 10], [31, 3, 4], [32, 5, 6]],
        starter=0,
        teams=[0, 1, 0, 1],
    )
    env = presages_env.make("presages", num_players=4, observation_mode="information_state")
    env.reset(options={"state": state})
    secret = [g.card_action(SECRET), k.SECRET_SHOW, g.seat_action(2), g.card_action(1)]
    absolu = [g.card_action(30), g.seat_action(3), g.card_action(9), g.card_action(6)]
    for action in secret + absolu:
        env.step(action)
    shown = [e for e in env.events() if e.kind == "secret_card"]
    assert len(shown) == 1 and shown[0].visible_to == (0, 2)
    assert shown[0].args == {"shower": 0, "viewer": 2, "card": 1}
    public = [e for e in env.events(3) if e.kind == "secret"]
    assert public[0].args == {"shower": 0, "viewer": 2}
    assert not [e for e in env.events(1) if e.kind == "secret_card"]
    cards = [e for e in env.events() if e.kind == "absolu_cards"]
    assert cards[0].visible_to == (1, 3)
    assert cards[0].args == {"actor": 1, "target": 3, "given": 9, "returned": 6}
    committed = [e for e in env.events() if e.kind == "absolu_commit_card"]
    assert committed[0].visible_to == (1,) and committed[0].args["card"] == 9
    for seat in (0, 2):
        kinds = [e.kind for e in env.events(seat)]
        assert "absolu" in kinds and "absolu_commit" in kinds and "absolu_cards" not in kinds
    assert g.hand(env.get_state(), 1) == [6, 10] and g.hand(env.get_state(), 3) == [5, 9, 32]
    # the target's information state holds nothing of the committed card before the swap
    history = env.observe("player_3")["observation"]
    assert env.observation_space("player_3")["observation"].contains(history)


def test_every_transition_fits_max_step_events():
    n = 6
    env = presages_env.make("presages", num_players=n, reveal_all_hands_at_round_end=True)
    rng = np.random.default_rng(5)
    env.reset(seed=5)
    most = len(env.events())
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        before = len(env.events())
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        most = max(most, len(env.events()) - before)
    assert most <= k.MAX_STEP_EVENTS
    game = presages_env.get_game("presages")
    for seat in range(n):
        assert len(env.events(seat)) <= game.max_visible_events(n, g.PresagesOptions())
