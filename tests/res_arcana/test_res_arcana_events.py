"""Res Arcana's events tell the game as it was played: replaying them rebuilds every hand,
pool, tableau, discard pile and the essences on each component, and the final scores; the
cards a seat draws, is dealt or looks at, its hidden mage pick and its reorders are seen by
that seat only."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from res_arcana_helpers import position

import presages_env
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import game as ra
from presages_env.games.res_arcana import layout as lay

PRIVATE = {"deal_mage", "deal_card", "draw", "seen", "mage_pick", "reorder"}
CHECK_EVERY = 7  # decisions between two comparisons of the replay with the state


class Replay:
    """The table as the events describe it."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.hand: dict[int, set[int]] = defaultdict(set)
        self.play: dict[int, set[int]] = defaultdict(set)
        self.discard: dict[int, set[int]] = defaultdict(set)
        self.pool = np.zeros((n, cd.NUM_ESSENCES), dtype=int)
        self.stored = np.zeros((cd.NUM_COMPONENTS, cd.NUM_ESSENCES), dtype=int)
        self.dealt: dict[int, list[int]] = defaultdict(list)
        self.scores: dict[int, tuple[int, int]] = {}

    def apply(self, event) -> None:
        a = event.args
        kind = event.kind
        starter_hand = kind == "deal_card" and a["to_hand"] == 1  # its set is printed on it
        if kind in PRIVATE and not starter_hand:
            assert event.visible_to == (a["seat"],), event
        else:
            assert event.visible_to == "all", event
        seat = a.get("seat", -1)
        if kind == "deal_card":
            self.dealt[seat].append(a["card"])
            if a["to_hand"]:
                self.hand[seat].add(a["card"])
        elif kind == "draw":
            self.hand[seat].add(a["card"])
        elif kind == "discard":
            self.hand[seat].remove(a["card"])
            self.discard[seat].add(a["card"])
        elif kind == "place":
            card = a["card"]
            if a["from"] == 0:
                self.hand[seat].remove(card)
            else:
                owners = [s for s in range(self.n) if card in self.discard[s]]
                assert len(owners) == 1, event
                self.discard[owners[0]].remove(card)
            self.play[seat].add(card)
        elif kind == "destroy":
            self.play[seat].remove(a["comp"])
            self.discard[seat].add(a["comp"])
        elif kind == "shuffle":
            assert len(self.discard[seat]) == a["cards"], event
            self.discard[seat].clear()
        elif kind == "mage":
            self.play[seat].add(a["mage"])
        elif kind == "item":
            self.play[seat].add(a["item"])
            if a["returned"] >= 0:
                self.play[seat].remove(a["returned"])
        elif kind == "claim_monument":
            self.play[seat].add(a["monument"])
        elif kind == "claim_place":
            self.play[seat].add(a["place"])
        elif kind in ("gain", "pay"):
            sign = 1 if kind == "gain" else -1
            if a["comp"] < 0:
                self.pool[seat, a["essence"]] += sign * a["count"]
            else:
                self.stored[a["comp"], a["essence"]] += sign * a["count"]
        elif kind == "take":
            self.pool[seat, a["essence"]] += a["count"]
            self.stored[a["comp"], a["essence"]] -= a["count"]
        elif kind == "vp":
            self.scores[seat] = (a["vp"], a["winner"])

    def check(self, state: np.ndarray) -> None:
        loc = state[lay.LOC : lay.LOC + cd.NUM_COMPONENTS]
        owner = state[lay.OWNER : lay.OWNER + cd.NUM_COMPONENTS]
        for s in range(self.n):
            mine = owner == s
            assert self.hand[s] == set(np.flatnonzero(mine & (loc == lay.LOC_HAND)))
            on_table = (loc == lay.LOC_PLAY) | (loc == lay.LOC_PLACING)
            assert self.play[s] == set(np.flatnonzero(mine & on_table))
            assert self.discard[s] == set(np.flatnonzero(mine & (loc == lay.LOC_DISCARD)))
            pool = state[lay.POOL + s * cd.NUM_ESSENCES : lay.POOL + (s + 1) * cd.NUM_ESSENCES]
            assert np.array_equal(self.pool[s], pool)
        stored = state[lay.STORED : lay.STORED + cd.NUM_COMPONENTS * cd.NUM_ESSENCES]
        assert np.array_equal(self.stored.ravel(), stored)


def play_and_replay(n: int, seed: int, **options) -> tuple:
    env = presages_env.make("res_arcana", num_players=n, **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    replay = Replay(n)
    seen = 0
    decisions = 0
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if decisions % CHECK_EVERY == 0 or not env.agents:
            events = env.events()
            for event in events[seen:]:
                replay.apply(event)
            seen = len(events)
            replay.check(env.get_state())
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    for event in env.events()[seen:]:
        replay.apply(event)
    replay.check(env.get_state())
    return env, replay


@pytest.mark.parametrize("n", [2, 3, 4])
def test_events_replay_the_game(n):
    for seed in range(2):
        env, replay = play_and_replay(n, seed + 10 * n)
        state = env.get_state()
        events = env.events()
        kinds = [e.kind for e in events]
        assert kinds[-1] in ("game_end", "truncated")
        if kinds[-1] == "game_end":
            winners = ra.winners(state)
            for s in range(n):
                assert replay.scores[s] == (ra.victory_points(state, s), int(s in winners))
            assert events[-1].args["winners"] == len(ra.winners(state))
        for s in range(n):  # 8 cards dealt, named in card order (the deck's order is hidden)
            assert len(replay.dealt[s]) == 8 and replay.dealt[s] == sorted(replay.dealt[s])
        assert kinds.count("pass") >= n * (kinds.count("round") - 1)
        assert kinds.count("draw") == kinds.count("drew")


def test_starter_sets_deal_the_hand_in_public():
    env, replay = play_and_replay(3, 5, starter_sets=True)
    first = env.events()[:40]
    assert not any(e.kind == "mage_pick" for e in env.events())
    for s in range(3):
        to_hand = [e for e in first if e.kind == "deal_card" and e.args["seat"] == s]
        assert len(to_hand) == 3 and all(e.args["to_hand"] == 1 for e in to_hand)
        assert all(e.visible_to == "all" for e in to_hand)


@pytest.mark.parametrize("n", [2, 4])
def test_a_seat_sees_its_own_cards_and_no_one_elses(n):
    env = presages_env.make("res_arcana", num_players=n)
    rng = np.random.default_rng(n)
    env.reset(seed=n)
    for _ in range(120):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.get_state()
    everything = env.events()
    for seat in range(n):
        seen = env.events(seat)
        assert all(e.kind not in PRIVATE or e.args["seat"] == seat for e in seen)
        assert len(seen) == sum(e.visible_to == "all" or seat in e.visible_to for e in everything)
        # the seat's own events rebuild its hand and its dealt mages; its pick is its own
        hand: set[int] = set()
        mages = [e.args["mage"] for e in seen if e.kind == "deal_mage"]
        assert len(mages) == 2
        picks = [e for e in seen if e.kind == "mage_pick"]
        assert len(picks) == 1 and picks[0].args["mage"] in mages
        public_picks = [e.args["seat"] for e in seen if e.kind == "mage_picked"]
        assert sorted(public_picks) == list(range(n))
        revealed = {e.args["seat"]: e.args["mage"] for e in seen if e.kind == "mage"}
        assert revealed[seat] == picks[0].args["mage"]
        for e in seen:
            if e.args.get("seat") != seat:
                continue
            if e.kind == "draw" or (e.kind == "deal_card" and e.args["to_hand"]):
                hand.add(e.args["card"])
            elif e.kind == "discard" or (e.kind == "place" and e.args["from"] == 0):
                hand.remove(e.args["card"])
        assert hand == {cd.CID[name] for name in ra.hand(state, seat)}
        # a rival's draws: the seat sees that they happened, never which card
        for rival in range(n):
            if rival != seat:
                drew = sum(e.kind == "drew" and e.args["seat"] == rival for e in seen)
                drawn = sum(e.kind == "draw" and e.args["seat"] == rival for e in everything)
                assert drew == drawn > 0


def test_looks_and_reorders_are_seen_by_the_looker_only():
    """Random play until someone looks at a deck (Crystal Ball, Prism's kind of powers)."""
    looks = 0
    for seed in range(40):
        env = presages_env.make("res_arcana", num_players=3)
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        while env.agents and looks < 3:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            before = len(env.events())
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            new = env.events()[before:]
            for e in new:
                if e.kind != "look":
                    continue
                looks += 1
                seat = e.args["seat"]
                cards = [x for x in new if x.kind == "seen"]
                assert len(cards) == e.args["count"]
                assert all(x.visible_to == (seat,) for x in cards)
                state = env.get_state()
                if e.args["deck"] == 0:
                    top = [cd.CID[name] for name in ra.deck(state, seat)[: len(cards)]]
                else:
                    top = [cd.CID[name] for name in ra.monument_deck(state)[: len(cards)]]
                assert [x.args["card"] for x in cards] == top
                for other in range(3):
                    if other != seat:
                        assert not any(x.kind == "seen" for x in env.events(other)[-len(new) :])
        if looks >= 3:
            break
    assert looks >= 1


def test_an_attack_tells_who_reacted_and_who_lost_life():
    """Seat 2's Fire Dragon: seat 0 cannot react and pays its 1 Life (owing 2 other
    essences it does not have), seat 1 reacts with Protection."""
    state = position(
        mages=("Scholar", "Transmuter", "Witch"),
        items=("Research", "Protection", "Alchemy"),
        in_play=[[], [], ["Fire Dragon", "Temple"]],
        pools=["1L", "1L", ""],
        to_act=2,
    )
    env = presages_env.make("res_arcana", num_players=3)
    env.reset(options={"state": state})
    env.step(ra.power("Fire Dragon"))
    env.step(ra.component("Protection"))
    events = env.events()
    assert all(e.visible_to == "all" for e in events)
    assert events[0].kind == "power"
    assert events[0].args["seat"] == 2 and events[0].args["comp"] == cd.cid_of("Fire Dragon")
    assert [e.args for e in events if e.kind == "lose_life"] == [{"seat": 0, "life": 2}]
    assert [e.args for e in events if e.kind == "react"] == [
        {"seat": 1, "comp": cd.cid_of("Protection"), "dragon_ignore": 0}
    ]
    paid = [(e.args["seat"], e.args["essence"], e.args["count"]) for e in events if e.kind == "pay"]
    life = 1
    assert (0, life, 1) in paid and all(seat != 2 for seat, _, _ in paid)
    final = env.get_state()
    assert ra.pool(final, 0) == dict.fromkeys("ELCDG", 0)
