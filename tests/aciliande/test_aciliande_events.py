"""Aciliande's events tell the game as it was played: the deal (each card seen by its
holder only), bids, cards played, declarations, tricks won with the winning card, scores,
eliminations, the duel, the leftover draw, coins and the end. A seat's hand and every
seat's lives can be rebuilt from what the seat sees."""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.core import events as ev
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.cards import NUM_CARDS
from presages_env.games.aciliande.game import TAKE, AciliandeGame, card_action, setup_position

C = card_action
GAME = AciliandeGame()
KIND_OF = {name: kind for kind, (name, _) in k.EVENT_KINDS.items()}


def decode(records, n):
    return [ev.decode(k.EVENT_KINDS, r, n) for r in records]


def held(state, seat):
    owner = state[k.CARD_OWNER : k.CARD_OWNER + NUM_CARDS]
    played = state[k.CARD_TRICK : k.CARD_TRICK + NUM_CARDS]
    return {c for c in range(NUM_CARDS) if owner[c] == seat and played[c] < 0}


def play_logged(state, actions, buffer):
    """Apply ``actions`` with the logged kernel; the decoded events of each transition."""
    n = int(state[HDR_NUM_PLAYERS])
    rewards = np.zeros(n, np.float32)
    out = []
    for action in actions:
        k.step_logged(state, np.int64(action), rewards, buffer)
        out.append(decode(ev.drain(buffer), n))
    return out


class Replay:
    """What each seat rebuilds from the events it sees: its hand and everyone's lives."""

    def __init__(self, state):
        n = int(state[HDR_NUM_PLAYERS])
        self.n = n
        self.hands = [held(state, s) for s in range(n)]  # the first observation's hands
        self.lives = [[int(x) for x in state[k.LIVES : k.LIVES + n]] for _ in range(n)]

    def see(self, seat, event):
        if event.kind == "manche_start":
            self.hands[seat] = set()
        elif event.kind == "dealt":
            assert event.args["player"] == seat
            self.hands[seat].add(event.args["card"])
        elif event.kind == "play" and event.actor == seat:
            self.hands[seat].remove(event.args["card"])
        elif event.kind == "manche_scored":
            player = event.args["player"]
            assert self.lives[seat][player] - event.args["lost"] == event.args["lives"]
            self.lives[seat][player] = event.args["lives"]


def check_transition(before, after, action, events, rewards):
    """Every event of one transition agrees with the states around it."""
    n = int(before[HDR_NUM_PLAYERS])
    seat = int(before[HDR_CURRENT])
    kinds = [e.kind for e in events]
    for e in events:
        assert e.visible_to == ((e.args["player"],) if e.kind == "dealt" else "all")
        args = e.args
        if e.kind == "bid":
            assert e.actor == seat and args["bid"] == action - k.ACT_BID
            assert after[k.BIDS + seat] == args["bid"]
        elif e.kind == "play":
            card = args["card"]
            assert e.actor == seat and card == action - k.ACT_CARD
            assert card in held(before, seat) and args["trick"] == before[k.TRICK_INDEX]
            goddess = k.is_goddess(before, card)
            expected = before[k.TRICK_GODDESSES] + 1 if goddess else 0
            assert args["goddess"] == expected
        elif e.kind == "declare":
            assert e.actor == seat and args["declaration"] == (
                k.DECL_TAKE if action == k.ACT_TAKE else k.DECL_LEAVE
            )
        elif e.kind == "trick_won":
            trick_cards = [int(c) for c in before[k.TRICK_CARDS : k.TRICK_CARDS + k.MAX_PLAYERS]]
            trick_seats = [int(s) for s in before[k.TRICK_SEATS : k.TRICK_SEATS + k.MAX_PLAYERS]]
            if action >= k.ACT_CARD and action < k.ACT_TAKE:
                trick_cards[before[k.TRICK_LEN]] = action - k.ACT_CARD
                trick_seats[before[k.TRICK_LEN]] = seat
            winner, card = args["player"], args["card"]
            assert trick_seats[trick_cards.index(card)] == winner
            assert args["trick"] == before[k.TRICK_INDEX]
            assert args["tricks"] == before[k.TRICKS + winner] + 1
            if "manche_start" not in kinds and not after[HDR_TERMINAL]:
                assert after[k.PAST_WINNER + args["trick"]] == winner
                assert after[k.PAST_DECL + args["trick"]] == args["declaration"]
        elif e.kind == "manche_scored":
            player = args["player"]
            assert args["bid"] == before[k.BIDS + player]
            assert args["lives"] == after[k.LIVES + player]
            assert args["lost"] == after[k.LOST_LAST + player]
            if not before[k.OPT_TEAMS]:
                lost = min(abs(args["tricks"] - args["bid"]), int(before[k.LIVES + player]))
                assert args["lost"] == lost
        elif e.kind == "eliminated":
            assert after[k.ALIVE + args["player"]] == 0 and before[k.ALIVE + args["player"]]
        elif e.kind == "duel_start":
            assert after[k.DUEL] == 1 and not before[k.DUEL]
            goddesses = sorted(int(g) for g in before[k.OPT_GODDESSES : k.OPT_GODDESSES + 3])
            assert sorted(args.values()) == goddesses
        elif e.kind == "goddess_face_down":
            assert args["face_up"] == before[k.FACE_UP] - 1
        elif e.kind == "manche_start":
            assert args["manche"] == after[k.MANCHE] and args["dealer"] == after[k.DEALER]
            assert args["leader"] == after[k.LEADER] and args["face_up"] == after[k.FACE_UP]
        elif e.kind == "deal":
            assert e.actor == after[k.DEALER] and args["hand_size"] == after[k.HAND_SIZE]
            dealt = [d for d in events if d.kind == "dealt"]
            assert len(dealt) == args["hand_size"] * args["players"]
            for p in range(n):
                mine = {d.args["card"] for d in dealt if d.args["player"] == p}
                assert mine == held(after, p)  # the deal rebuilds every hand
        elif e.kind == "leftover_draw":
            assert after[k.DRAW + args["player"]] == args["card"]
        elif e.kind == "coins":
            assert args["coins"] == after[k.COINS + args["player"]]
            assert args["reward"] == rewards[args["player"]]
        elif e.kind == "game_end":
            assert e is events[-1] and after[HDR_TERMINAL]
            assert args["reason"] == after[k.END_REASON] and args["pot"] == after[k.POT]
    if after[HDR_TERMINAL]:
        assert kinds.count("coins") == n and kinds[-1] == "game_end"
        assert kinds.count("leftover_draw") == int((after[k.DRAW : k.DRAW + n] >= 0).sum())


GAMES = [
    (2, {"lives": 9}),
    (3, {"fixed_hand_size": 3}),
    (4, {}),
    (4, {"teams": True, "lives": 2}),
    (5, {"stake": 3, "lives": (1, 2, 3, 2, 1)}),
    (7, {}),
]


@pytest.mark.parametrize(("n", "options"), GAMES)
def test_events_tell_random_games_as_they_were_played(n, options):
    kinds_seen = set()
    for seed in range(8):
        state = GAME.new_state(n, seed, **options)
        buffer = ev.new_buffer(k.MAX_STEP_EVENTS)
        k.reset_logged(state.copy(), np.int64(seed), buffer)
        reset_records = ev.drain(buffer)
        assert decode(reset_records, n)[0].kind == "manche_start"
        replay = Replay(state)
        rng = np.random.default_rng(seed)
        mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
        rewards = np.zeros(n, np.float32)
        obs = np.zeros(k.OBS_SIZE, dtype=GAME.obs_dtype)
        seen = [len(ev.visible_to(reset_records, seat)) for seat in range(n)]
        bound = GAME.max_visible_events(n, GAME.make_options(n, **options))
        while not state[HDR_TERMINAL]:
            GAME.legal_mask(state, mask)
            action = int(rng.choice(np.flatnonzero(mask)))
            before = state.copy()
            k.step_logged(state, np.int64(action), rewards, buffer)
            records = ev.drain(buffer)
            events = decode(records, n)
            assert events and len(records) <= k.MAX_STEP_EVENTS
            check_transition(before, state, action, events, rewards)
            kinds_seen.update(e.kind for e in events)
            for seat in range(n):
                visible = decode(ev.visible_to(records, seat), n)
                seen[seat] += len(visible)
                for e in visible:
                    replay.see(seat, e)
                GAME.observe(state, seat, obs)
                hand = set(np.flatnonzero(obs[k.OBS_HAND : k.OBS_HAND + NUM_CARDS]).tolist())
                assert replay.hands[seat] == hand
                # the observation lists lives from the observer's seat on
                assert (
                    replay.lives[seat] == np.roll(obs[k.OBS_LIVES : k.OBS_LIVES + n], seat).tolist()
                )
        assert max(seen) <= bound
    expected = {"deal", "dealt", "bid", "play", "trick_won", "manche_scored", "coins"}
    assert expected | {"game_end", "eliminated"} <= kinds_seen
    if n == 2:
        assert {"duel_start", "goddess_face_down"} <= kinds_seen


def test_a_seat_sees_only_its_own_cards_and_everything_public():
    env = presages_env.make("aciliande", num_players=4, observation_mode="information_state")
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    every = env.events()
    public = [e for e in every if e.visible_to == "all"]
    assert all(e.kind == "dealt" for e in every if e.visible_to != "all")
    for seat in range(4):
        seen = env.events(seat)
        mine = [e for e in every if e.kind == "dealt" and e.args["player"] == seat]
        assert [e for e in seen if e.kind == "dealt"] == mine and mine
        assert [e for e in seen if e.visible_to == "all"] == public
        assert all(e.visible_to == (seat,) for e in mine)


def test_a_trick_won_names_the_taking_goddess():
    state = setup_position(3, [[17, 4], [21, 5], [10, 6]], dealer=2, bids=[1, 1, 1])
    buffer = ev.new_buffer(k.MAX_STEP_EVENTS)
    steps = play_logged(state, [C(17), TAKE, C(21), C(10)], buffer)
    assert [e.kind for e in steps[0]] == ["play"] and steps[0][0].args["goddess"] == 1
    assert [(e.kind, e.actor, e.args) for e in steps[1]] == [("declare", 0, {"declaration": 1})]
    won = steps[3][-1]
    assert won.kind == "trick_won" and won.args == {
        "player": 0,
        "card": 17,
        "trick": 0,
        "declaration": k.DECL_TAKE,
        "tricks": 1,
    }


def test_a_third_goddess_ends_the_game_with_its_player_taking_the_pot():
    state = setup_position(3, [[2, 4], [3, 5], [17, 6]], dealer=2, bids=[1, 0, 0])
    buffer = ev.new_buffer(k.MAX_STEP_EVENTS)
    steps = play_logged(state, [C(2), TAKE, C(3), C(17)], buffer)
    assert steps[2][0].args == {"card": 3, "trick": 0, "goddess": 2}
    last = steps[3]
    assert [e.kind for e in last] == ["play", "coins", "coins", "coins", "game_end"]
    assert last[0].actor == 2 and last[0].args["goddess"] == 3
    assert [e.args["coins"] for e in last[1:4]] == [0, 0, 3]
    assert last[-1].args == {"reason": k.END_THIRD_GODDESS, "pot": 3}


def test_scores_eliminations_and_the_leftover_draw():
    state = setup_position(
        5, [[], [0], [], [1], [5]], dealer=4, bids=[None, 1, None, 1, 0], lives=[0, 1, 0, 1, 1]
    )
    buffer = ev.new_buffer(k.MAX_STEP_EVENTS)
    last = play_logged(state, [C(0), C(1), C(5)], buffer)[-1]
    kinds = [e.kind for e in last]
    assert kinds[:2] == ["play", "trick_won"] and last[1].args["card"] == 5
    scored = [e.args for e in last if e.kind == "manche_scored"]
    assert scored == [
        {"player": 1, "bid": 1, "tricks": 0, "lost": 1, "lives": 0},
        {"player": 3, "bid": 1, "tricks": 0, "lost": 1, "lives": 0},
        {"player": 4, "bid": 0, "tricks": 1, "lost": 1, "lives": 0},
    ]
    assert [e.args["player"] for e in last if e.kind == "eliminated"] == [1, 3, 4]
    draws = {e.args["player"]: e.args["card"] for e in last if e.kind == "leftover_draw"}
    assert draws == {s: int(state[k.DRAW + s]) for s in (1, 3, 4)}
    coins = [e.args["coins"] for e in last if e.kind == "coins"]
    assert coins == [int(c) for c in state[k.COINS : k.COINS + 5]] and sum(coins) == 5
    assert last[-1].args["reason"] == k.END_ALL_ELIMINATED


def test_the_duel_lays_the_goddesses_face_up_and_turns_them_down():
    state = setup_position(3, [[0], [21], [5]], dealer=2, bids=[1, 1, 0], lives=[1, 3, 3])
    buffer = ev.new_buffer(k.MAX_STEP_EVENTS)
    last = play_logged(state, [C(0), C(21), C(5)], buffer)[-1]
    kinds = [e.kind for e in last]
    start = kinds.index("duel_start")
    assert kinds[start + 1 : start + 3] == ["manche_start", "deal"]
    assert last[start].args == {"goddess_a": 2, "goddess_b": 3, "goddess_c": 17}
    dealt = [e.args["card"] for e in last if e.kind == "dealt"]
    assert len(dealt) == 6 and not set(dealt) & {2, 3, 17}
    state = setup_position(2, [[5], [6]], dealer=0, lives=[3, 2], bids=[0, 0], duel_face_up=1)
    last = play_logged(state, [C(6), C(5)], buffer)[-1]
    kinds = [e.kind for e in last]
    assert kinds.index("goddess_face_down") < kinds.index("game_end")
    assert last[kinds.index("goddess_face_down")].args == {"face_up": 0}
